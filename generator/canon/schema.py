"""Turn parsed TOML into typed, frozen dataclasses, or fail naming file, key path and problem.

A game's data is described once, as dataclasses with type hints; `build(cls, raw, ctx)` walks the
hints and the raw TOML together. Supported hints: str, int, float, bool, Literal[...], tuple[X, ...],
tuple[X, Y], dict[str, X], X | None, and nested dataclasses. Unknown keys are errors too (a typo in a
data file must not be silently ignored).
"""
from __future__ import annotations

import dataclasses
import operator
import re
import types
import typing
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin


class DataError(ValueError):
    """A data file is wrong. `str()` is one line: file, key path, what is wrong."""

    def __init__(self, file: str | Path, key: str, problem: str):
        self.file = str(file)
        self.key = key
        self.problem = problem
        super().__init__(f"{self.file}: {key or '(top level)'}: {problem}")


@typing.dataclass_transform(frozen_default=True)
class Table:
    """Base of every typed table: a data or layout file, a table in it, an item of an array of
    tables, and the objects made of them. Each subclass is a frozen dataclass of the fields it
    annotates, as `build()` reads them; class keywords go to `dataclasses.dataclass`
    (`class Item(Base, kw_only=True)`)."""

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__()
        dataclasses.dataclass(frozen=True, **options)(cls)


#: Where a value comes from: the rules text, the public reference facts, or house data.
Source = Literal["rules", "reference", "house"]
SOURCES = get_args(Source)


class Sourced(Table, kw_only=True):
    """Base of every data item that says where its values come from.

    `source` is the item's; a value whose source differs says so beside it with a `<field>_source`
    key (`count = 11` then `count_source = "house"`): `build()` gathers those into `field_sources`,
    and `item.source_of("count")` answers for one value.
    """

    source: Source
    field_sources: tuple[tuple[str, Source], ...] = ()

    def source_of(self, field: str) -> Source:
        if field not in _value_fields(type(self)):
            raise KeyError(field)
        return dict(self.field_sources).get(field, self.source)


def _value_fields(cls: type) -> list[str]:
    """The fields that hold values (not where values come from)."""
    return [f.name for f in dataclasses.fields(cls) if f.name != "field_sources" and not (
        f.name == "source" or f.name.endswith("_source"))]


def _field_sources(cls: type, given: dict[str, tuple[str, Any]], ctx: "Ctx") -> tuple[tuple[str, Source], ...]:
    """Take the `<field>_source` keys out of `given` (a Sourced item's keys), checked."""
    names = _value_fields(cls)
    typed = {f.name for f in dataclasses.fields(cls)}     # a field of its own (DrinksInfo.hex_source)
    own = given.get("source", (None, None))[1]
    marks = []
    for name in [n for n in given if n.endswith("_source") and n not in typed]:
        key, value = given.pop(name)
        field = name[:-len("_source")]
        at = ctx.at(key)
        if field not in names:
            raise at.fail(f"{field!r} is not a field here (fields: {', '.join(sorted(names))})")
        if value not in SOURCES:
            raise at.fail(f"expected one of {', '.join(map(repr, SOURCES))}, got {_describe(value)}")
        if value == own:
            raise at.fail(f"the item's source is {own!r} already: mark only values whose source differs")
        marks.append((field, value))
    return tuple(marks)


@dataclasses.dataclass(frozen=True)
class Ctx:
    """The file being read and the key path reached in it."""

    file: str
    key: str = ""

    def at(self, part: str | int) -> "Ctx":
        if isinstance(part, int):
            return Ctx(self.file, f"{self.key}[{part}]")
        return Ctx(self.file, f"{self.key}.{part}" if self.key else part)

    def fail(self, problem: str) -> DataError:
        return DataError(self.file, self.key, problem)


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def build(hint: Any, raw: Any, ctx: Ctx) -> Any:
    """Check `raw` against the type `hint` and return the typed value."""
    origin = get_origin(hint)
    if dataclasses.is_dataclass(hint):
        return _build_dataclass(hint, raw, ctx)
    if origin is Literal:
        allowed = get_args(hint)
        if raw not in allowed:
            raise ctx.fail(f"expected one of {', '.join(map(repr, allowed))}, got {_describe(raw)}")
        return raw
    if origin in (Union, types.UnionType):
        options = get_args(hint)
        if raw is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return build(option, raw, ctx)
            except DataError as exc:
                errors.append(exc)
        raise errors[0] if len(errors) == 1 else ctx.fail(f"unexpected value {_describe(raw)}")
    if origin is tuple:
        args = get_args(hint)
        if not isinstance(raw, list):
            raise ctx.fail(f"expected a list, got {_describe(raw)}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(build(args[0], item, ctx.at(i)) for i, item in enumerate(raw))
        if len(raw) != len(args):
            raise ctx.fail(f"expected a list of {len(args)} items, got {len(raw)}")
        return tuple(build(a, item, ctx.at(i)) for i, (a, item) in enumerate(zip(args, raw)))
    if origin is dict:
        key_hint, value_hint = get_args(hint)
        if not isinstance(raw, dict):
            raise ctx.fail(f"expected a table, got {_describe(raw)}")
        return {build(key_hint, k, ctx.at(k)): build(value_hint, v, ctx.at(k)) for k, v in raw.items()}
    if hint is Any:
        return raw
    if hint is bool:
        if not isinstance(raw, bool):
            raise ctx.fail(f"expected true or false, got {_describe(raw)}")
        return raw
    if hint is int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ctx.fail(f"expected a whole number, got {_describe(raw)}")
        return raw
    if hint is float:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise ctx.fail(f"expected a number, got {_describe(raw)}")
        return float(raw)
    if hint is str:
        if not isinstance(raw, str):
            raise ctx.fail(f"expected text, got {_describe(raw)}")
        return raw
    raise TypeError(f"schema: unsupported type hint {hint!r}")  # a bug in a schema, not in data


def _build_dataclass(cls: type, raw: Any, ctx: Ctx) -> Any:
    if not isinstance(raw, dict):
        raise ctx.fail(f"expected a table, got {_describe(raw)}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    # TOML keys use dashes or underscores; fields use underscores.
    given = {k.replace("-", "_"): (k, v) for k, v in raw.items()}
    values = {}
    if issubclass(cls, Sourced):
        del fields["field_sources"]          # never a key of its own: written as <field>_source keys
        values["field_sources"] = _field_sources(cls, given, ctx)
    unknown = sorted(k for k, _ in given.values() if k.replace("-", "_") not in fields)
    if unknown:
        raise ctx.at(unknown[0]).fail(
            f"unknown key (expected one of: {', '.join(sorted(fields))})")
    for name, field in fields.items():
        if name in given:
            key, value = given[name]
            values[name] = build(hints[name], value, ctx.at(key))
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise ctx.at(name).fail("missing")
    obj = cls(**values)
    check = getattr(obj, "check", None)
    if check is not None:
        problem = check()
        if problem:
            raise ctx.fail(problem)
    return obj


_HEX = re.compile(r"#[0-9a-fA-F]{6}")


def hex_problem(value: str, key: str = "hex") -> str | None:
    """A print colour must be '#rrggbb' (every backend reads it that way)."""
    if not _HEX.fullmatch(value):
        return f"{key}: {value!r} is not a colour like #12ab34"
    return None


class Colour(Table):
    """A named print colour; games add fields (a symbol, a number) by subclassing."""

    id: str
    name: str
    hex: str

    def check(self):
        return hex_problem(self.hex)


def unique_ids(items: typing.Iterable[Any], ctx: Ctx, attr: str = "id") -> dict[str, Any]:
    """Index items by id; a repeated id is an error naming the second occurrence."""
    index: dict[str, Any] = {}
    for i, item in enumerate(items):
        key = getattr(item, attr)
        if key in index:
            raise ctx.at(i).at(attr).fail(f"duplicate id {key!r}")
        index[key] = item
    return index


def expect_ref(ref: str, known: typing.Container[str], ctx: Ctx, what: str) -> None:
    """A cross-reference must name something that exists."""
    if ref not in known:
        raise ctx.fail(f"unknown {what} {ref!r}")


def expect_total(actual: int, expected: int, ctx: Ctx, what: str) -> None:
    if actual != expected:
        raise ctx.fail(f"{what} add up to {actual}, the rules say {expected}")


def expect_totals(item: Any, expected: dict[str, int], ctx: Ctx) -> None:
    """Each field of `item` named in `expected` holds the total given there (a box inventory
    against the rules' component list); an error names the field."""
    for name, total in expected.items():
        expect_total(getattr(item, name), total, ctx.at(name), name.replace("_", " "))


def expect_count(items: typing.Sized, expected: int, ctx: Ctx, what: str,
                 says: str = "the rules say") -> None:
    """As many `items` as a source states: '<n> <what>, <says> <expected>' otherwise."""
    if len(items) != expected:
        raise ctx.fail(f"{len(items)} {what}, {says} {expected}")


def list_file(key: str, item: type) -> type:
    """The schema of a file that holds one array of tables, `[[key]]`, each typed as `item` (none
    listed: an empty tuple)."""
    return dataclasses.make_dataclass(f"{item.__name__}List", [(key, tuple[item, ...], dataclasses.field(default=()))],
                                      frozen=True)


# --------------------------------------------------------------------------- the game objects

class GameHead(Table):
    """What every game's game.toml opens with and every game object carries first: the game's id,
    its name and its player range (min, max)."""

    id: str
    name: str
    players: tuple[int, int]


def field_values(obj: Any, cls: type | None = None) -> dict[str, Any]:
    """The values of the fields `cls` declares (default: all of `obj`'s), as keywords: a game object
    is made from the file tables it carries as they are (`Game(**field_values(game_file, Tables),
    ...)`), not copied."""
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(cls or obj)}


def by_id(items: str, key: str = "id") -> cached_property:
    """A look-up of a game object, built once: the items of its field `items` (a dotted path
    reaches into a table) by their `key`. `piece = by_id("pieces")` gives `data.piece[some_id]`."""
    get_items, get_key = operator.attrgetter(items), operator.attrgetter(key)

    def index(self) -> dict[Any, Any]:
        return {get_key(item): item for item in get_items(self)}
    index.__doc__ = f"The {items} by their {key}."
    return cached_property(index)


def grouped(items: str, key: str, groups: str) -> cached_property:
    """A look-up of a game object, built once: for each item of its field `groups`, by id, the
    `items` whose `key` is that id, in their order."""
    def index(self) -> dict[str, tuple[Any, ...]]:
        return {g.id: tuple(i for i in getattr(self, items) if getattr(i, key) == g.id)
                for g in getattr(self, groups)}
    index.__doc__ = f"The {items} of each of the {groups}, by its id."
    return cached_property(index)

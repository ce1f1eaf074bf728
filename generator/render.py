"""The one public drawing call: a component of a game's kit as SVG text (component -> SVG).

    component_svg(game_id, kind, item_id) -> str

The companion draws what it shows (a game's board twin, the face of a card) through this call
only, never through a kit's own functions. It asks the game's kit package first
(`render_component(data, kind, item_id) -> str | None`: components a kit draws on their own, such as
a board twin, "board-twin" "map", listed in the kit's `DRAWN_ALONE`); any other `kind` is a section
of the printed kit (`build_kit`) and `item_id` one of its items (a card kind and a card's id; a
board's id), drawn alone on an SVG its own size, exactly as printed. Same data, same bytes.
"""
from __future__ import annotations

from typing import Literal

from . import canon
from .draw.svg import SvgCanvas
from .kits import games_with_kits, kit_module
from .kits.base import BoardSection, CardSection, Kit, KitContext, PageSection

__all__ = ["component_svg", "UnknownComponent"]


class UnknownComponent(LookupError):
    """No such component in the game's kit; `str()` is one line naming what exists."""

    def __str__(self) -> str:
        return str(self.args[0])


def component_svg(game_id: str, kind: str, item_id: str, *, data=None, side: Literal["front", "back"] = "front",
                  companion_url: str = KitContext.companion_url, ink_saver: bool = False) -> str:
    """SVG text of one component. `data`: the game's canonical data when the caller holds it already
    (default: generator.canon.load(game_id)); `side` of a double-sided card; `companion_url` the base
    of the QR codes a face prints; `ink_saver` as the build option."""
    if game_id not in canon.GAMES:
        raise canon.UnknownGame(game_id)
    if game_id not in games_with_kits():
        raise UnknownComponent(f"game {game_id!r} has no kit yet")
    data = canon.load(game_id) if data is None else data
    module = kit_module(game_id)
    own = getattr(module, "render_component", None)
    svg = own(data, kind, item_id) if own is not None else None
    if svg is not None:
        return svg
    ctx = KitContext(companion_url=companion_url, ink_saver=ink_saver)
    own_kinds = [k for k, _ in getattr(module, "DRAWN_ALONE", ())]
    return _printed_face(module.build_kit(data, ctx), kind, item_id, side, own_kinds)


def _printed_face(kit: Kit, kind: str, item_id: str, side: str, own_kinds: list[str]) -> str:
    kinds = list(own_kinds)
    for section in kit.sections:
        kinds.append(section.kind)
        if section.kind != kind:
            continue
        if isinstance(section, BoardSection) and section.id == item_id:
            canvas = SvgCanvas(*section.size, title=f"{kit.name}: {section.title}")
            section.draw(canvas)
            return canvas.tostring()
        if isinstance(section, CardSection):
            item = next((i for i in section.items if i.id == item_id), None)
            if item is None:
                continue
            draw = section.draw_front if side == "front" else section.draw_back
            if draw is None:
                raise UnknownComponent(f"{kit.game} {kind} {item_id!r} has no back (single-sided)")
            canvas = SvgCanvas(*section.size, title=f"{kit.name}: {item.label or item.id}"
                               + (" (back)" if side == "back" else ""))
            draw(canvas, item)
            return canvas.tostring()
        if isinstance(section, PageSection) and section.id == item_id:
            raise UnknownComponent(f"{kit.game} {kind} {item_id!r} is a page of the printed kit, "
                                   "drawn on the paper's printable area: build the kit for it")
    if kind in kinds:
        raise UnknownComponent(f"the {kit.game} kit has no {kind} {item_id!r}")
    raise UnknownComponent(f"the {kit.game} kit has no component kind {kind!r} "
                           f"(kinds: {', '.join(dict.fromkeys(kinds))})")

"""`python -m generator data`: each game's components and counts, house values marked.

Every game is listed that loads; one that does not (broken data, a data module not written) is one
line on stderr and makes the exit status 1 — never skipped in silence.
"""
from __future__ import annotations

import json
from typing import Iterable, TextIO

from . import canon
from .canon import DataError


def data_report(games: Iterable[str], *, as_json: bool, out: TextIO, err: TextIO) -> int:
    wanted = list(dict.fromkeys(games)) or list(canon.GAMES)
    for game in wanted:
        if game not in canon.GAMES:
            raise canon.UnknownGame(game)
    loaded, failed = [], 0
    for game in wanted:
        try:
            loaded.append(canon.load(game))
        except DataError as exc:
            print(f"error: {game}: {exc}", file=err)
            failed += 1
        except ModuleNotFoundError as exc:
            module = f"{canon.__name__}.{canon.GAMES[game]}"
            if exc.name != module:
                raise
            print(f"error: {game}: no data module {module} (generator/canon/{canon.GAMES[game]}.py)",
                  file=err)
            failed += 1
    if as_json:
        json.dump({"games": [_game_json(g) for g in loaded]}, out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(_text(loaded))
    return 1 if failed else 0


def _game_json(game) -> dict:
    return {"id": game.id, "name": game.name, "players": list(game.players),
            "components": [{"kind": c.kind, "id": c.id, "count": c.count, "source": c.source}
                           for c in game.components()]}


def _text(games: list) -> str:
    lines = []
    any_house = False
    for game in games:
        low, high = game.players
        players = f"{low} player" + ("s" if high > 1 else "") if low == high else f"{low}–{high} players"
        if getattr(game, "players_source", None) == "house":
            players += " (house *)"
            any_house = True
        lines.append(f"{game.name} ({game.id}), {players}")
        rows = game.components()
        kind_w = max([len(c.kind) for c in rows] + [4])
        id_w = max([len(c.id) for c in rows] + [2])
        lines.append(f"  {'kind':<{kind_w}}  {'id':<{id_w}}  count  source")
        for c in rows:
            mark = " *" if c.source == "house" else ""
            any_house |= c.source == "house"
            lines.append(f"  {c.kind:<{kind_w}}  {c.id:<{id_w}}  {c.count:>5}  {c.source}{mark}")
        lines.append("")
    if any_house:
        lines.append("* house data: chosen by this project where no source gives the value; "
                     "correct it in assets/<game>/ (marked source = \"house\").")
    return "\n".join(lines) + "\n"

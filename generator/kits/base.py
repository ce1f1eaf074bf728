"""The contract between a game's kit (what to draw) and the sheet machinery (where to put it).

A game module `generator/kits/<game>.py` exposes `build_kit(data, ctx: KitContext) -> Kit`. The sheet
machinery (imposition, crop marks, duplex backs, tiling, the cover page, the manifest) knows nothing
of any game: it lays out the sections of a Kit on the chosen paper and draws each item by calling the
section's draw functions with the canvas translated to the item's top-left trim corner.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Literal

from ..draw import Canvas

DrawItem = Callable[[Canvas, "Item"], None]


@dataclasses.dataclass(frozen=True)
class KitContext:
    """Build options that change what is drawn."""

    companion_url: str = "http://localhost:5000"
    ink_saver: bool = False

    def qr_payload(self, game: str, kind: str, item_id: str) -> str:
        return f"{self.companion_url.rstrip('/')}/q/{game}/{kind}/{item_id}"


@dataclasses.dataclass(frozen=True)
class Item:
    """One distinct component face; `copies` identical copies are printed."""

    id: str
    copies: int
    label: str = ""                    # human name (checklist, SVG titles)
    qr: tuple[str, str] | None = None  # (qr kind, payload) when the face carries a QR code
    data: object = None                # whatever the draw functions need (a Ward, a colour, ...)
    #: the game data's components one printed copy stands for, (kind, id, copies), for
    #: manifest.json: None when it is itself one (its section's kind, its own id); () for an aid
    #: the kit adds (a reference card), not in the data
    counts_as: tuple[tuple[str, str, int], ...] | None = None


@dataclasses.dataclass(frozen=True)
class CardSection:
    """Cards (or square / round tokens) ganged on sheets with crop marks; optional backs for duplex."""

    kind: str                           # manifest kind, e.g. "ward-card", "customer"
    title: str                          # heading in the checklist
    size: tuple[float, float]           # trim width, height in mm (from layouts/)
    items: tuple[Item, ...]
    draw_front: DrawItem
    draw_back: DrawItem | None = None   # None: single-sided (tokens printed on one side)
    shape: Literal["rect", "circle"] = "rect"
    stock: str = "card stock (200-300 g/m²)"
    file: str = "cards"                 # which PDF of the kit this section goes into
    row_group: int = 0                  # pieces come in runs this long (a player colour's): shared
                                        # sheets start each run on a new row when it costs no sheet


@dataclasses.dataclass(frozen=True)
class BoardSection:
    """A board drawn at real size; tiled over pages (overlap, alignment marks, assembly diagram) when
    it is larger than the printable area, and also offered as one large page (A3 / Tabloid)."""

    kind: str
    id: str
    title: str
    size: tuple[float, float]           # mm
    draw: Callable[[Canvas], None]
    stock: str = "paper, glued to card"
    file: str = "board"
    counts_as: tuple[tuple[str, str, int], ...] | None = None   # as Item.counts_as


@dataclasses.dataclass(frozen=True)
class PageSection:
    """A full page drawn inside the printable area (score sheets, player aids)."""

    kind: str
    id: str
    title: str
    draw: Callable[[Canvas, float, float], None]   # (canvas, width, height of the printable area)
    copies: int = 1
    stock: str = "paper"
    file: str = "sheets"
    #: the components printed on the page, (kind, id, copies), for manifest.json (e.g. the tiles
    #: packed on a sheet of tiles); empty for a page that is a component by itself
    holds: tuple[tuple[str, str, int], ...] = ()
    #: as Item.counts_as, for a page that is not a sheet of `holds` (a score pad: ("pad", "score", 1))
    counts_as: tuple[tuple[str, str, int], ...] | None = None


Section = CardSection | BoardSection | PageSection


@dataclasses.dataclass(frozen=True)
class NotPrinted:
    """A component of the game's data that the kit does not print, and why (pens, dice the
    companion rolls, a bag): listed in manifest.json under `not_printed` (DESIGN.md)."""

    kind: str
    id: str
    count: int
    reason: str
    label: str = ""        # what the cover calls it ("Customer bag"); default: the id


@dataclasses.dataclass(frozen=True)
class Kit:
    game: str
    name: str
    sections: tuple[Section, ...]
    notes: tuple[str, ...] = ()         # extra lines for the cover page (assembly hints)
    not_printed: tuple[NotPrinted, ...] = ()

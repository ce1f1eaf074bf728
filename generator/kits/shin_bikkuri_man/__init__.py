"""Shin Bikkuri Man's print-and-play kit (Copenhagen rules): 4 player boards and their score markers
(house data: one per player, numbered like the boards), 62 facade tiles packed
on sheets, 70 cards and the end card with their backs, 20 ability tiles (unused face front, used
face back), a rules reference card and the harbour strip. Counts, shapes, scores and coats of arms
come from the canonical data (assets/shin-bikkuri-man/); sizes and colours from
layouts/shin-bikkuri-man.toml (layout.py). Modules:

    layout.py      the layout file's dataclasses
    facade.py      squares, tiles (with their cut outline), the board's grid and coats of arms
    tiles.py       packing every tile copy on as few sheets as possible
    components.py  player board, score marker, cards, card back, ability tiles, reference card,
                   harbour strip

`build_kit(data, ctx)` says what the kit holds; `render_component(data, kind, item_id)` draws what
only this kit draws alone: the board twin's façade grid ("board-twin", "facade") and one tile
("tile", "<tile id>") for the companion's pages.

QR codes: each player board -> /q/shin-bikkuri-man/board/<n>, each ability tile ->
/q/shin-bikkuri-man/ability/<ability id> (the companion's web part registers both kinds).
"""
from __future__ import annotations

from ...draw.base import PT, Style
from ...draw.lines import ellipsize, fit_size
from ...draw.svg import SvgCanvas
from ...layouts import load_layout as load_sheet_layout
from ..base import BoardSection, CardSection, Item, Kit, KitContext, PageSection
from . import components as comp
from .facade import Palette, draw_grid, draw_tile
from .layout import load_layout
from .tiles import bleed_boxes, pack, tile_list

GAME = "shin-bikkuri-man"
BOARD_QR_KIND = "board"
ABILITY_QR_KIND = "ability"
TWIN = ("board-twin", "facade")
DRAWN_ALONE = (TWIN, ("tile", "<tile id>"))


def sheet_grid(layout, w: float, h: float) -> tuple[int, int]:
    """Squares across and down that fit a printable area of w x h mm."""
    return int(w // layout.square), int(h // layout.square)


def tile_grid(layout) -> tuple[int, int]:
    """Squares across and down of a sheet of tiles: what fits the printable area of every home
    paper, so the sheets (and what each holds) are the same on Letter and A4."""
    sheets = load_sheet_layout()
    m = sheets.margin
    grids = [sheet_grid(layout, w - 2 * m, h - 2 * m)
             for w, h in (sheets.papers[pid].size for pid in sheets.home_papers)]
    return min(c for c, _ in grids), min(r for _, r in grids)


def tile_area(layout) -> tuple[float, float]:
    """The printable area (mm) every home paper has: a sheet of tiles fits it on Letter and A4."""
    sheets = load_sheet_layout()
    m = sheets.margin
    sizes = [sheets.papers[pid].size for pid in sheets.home_papers]
    return min(w for w, _ in sizes) - 2 * m, min(h for _, h in sizes) - 2 * m


def tile_sheets(data, layout):
    """The sheets of tiles: colours in strips a gutter apart (tiles.py), the last sheet keeping a
    free square for each score marker."""
    s = layout.square
    spare = data.score_markers.per_player * data.players[1]
    w, h = tile_area(layout)
    return pack(data, *tile_grid(layout), gutter=layout.tiles.gutter / s, spare=spare,
                width=w / s, height=h / s)


def marker_spots(sheet, n: int) -> list[tuple[int, int]]:
    """`n` free squares (column, row from the top) of a packed tile sheet for the score markers, in
    reading order from the last row up; an error when the sheet has fewer (grow the layout's square
    grid or move the markers)."""
    free = sorted(sheet.free(), key=lambda cr: (-cr[1], cr[0]))
    if len(free) < n:
        raise ValueError(f"the last tile sheet has {len(free)} free squares for {n} score markers")
    return sorted(free[:n], key=lambda cr: (cr[1], cr[0]))


def tile_sheet_count(data, layout) -> int:
    return len(tile_sheets(data, layout))


def build_kit(data, ctx: KitContext) -> Kit:
    layout = load_layout()
    pal = Palette(data, layout, ctx.ink_saver)
    hi = data.players[1]

    boards = tuple(Item(str(n), 1, f"Player board {n}",
                        qr=(BOARD_QR_KIND, ctx.qr_payload(GAME, BOARD_QR_KIND, str(n))), data=n,
                        counts_as=(("player-board", "board", 1),))
                   for n in range(1, hi + 1))
    most = max(data.deck.per_colour.values())
    cards = tuple(Item(c.id, most, f"{c.name} card", data=c.id) for c in data.colours)
    cards += (Item("end", data.end_card.count, "End card (mermaid)", data="end"),)
    abilities = tuple(Item(a.id, data.ability_copies.per_player * hi, a.name,
                           qr=(ABILITY_QR_KIND, ctx.qr_payload(GAME, ABILITY_QR_KIND, a.id)), data=a)
                      for a in data.abilities)

    def board_front(canvas, item):
        comp.draw_board(canvas, data, layout, pal, item.data, item.qr[1])

    def card_front(canvas, item):
        if item.data == "end":
            comp.draw_end_card(canvas, data, layout, pal)
        else:
            comp.draw_card(canvas, data, layout, pal, item.data)

    def card_back(canvas, item):
        comp.draw_card_back(canvas, data, layout, pal)

    def ability_front(canvas, item):
        comp.draw_ability(canvas, data, layout, pal, item.data, item.qr[1], used=False)

    def ability_back(canvas, item):
        comp.draw_ability(canvas, data, layout, pal, item.data, item.qr[1], used=True)

    def ref_front(canvas, item):
        comp.draw_reference(canvas, data, layout, pal, 0)

    def ref_back(canvas, item):
        comp.draw_reference(canvas, data, layout, pal, 1)

    packed = tile_sheets(data, layout)
    # The score markers (one per player, numbered like the boards) go on the free squares of the
    # last tile sheet, which is card stock too: no sheet of its own for a few small discs.
    markers = [n for n in range(1, hi + 1) for _ in range(data.score_markers.per_player)]
    spots = marker_spots(packed[-1], len(markers))

    def tile_sheet(k: int):
        def draw(canvas, w, h):
            sheet = packed[k]
            s = layout.square
            ox = (w - sheet.width * s) / 2
            # The sheet's name up the free strip at its left, so a loose sheet says what it is.
            name = (f"{data.name} · façade tiles, sheet {k + 1} of {len(packed)}"
                    + (" (with the score markers)" if k == len(packed) - 1 else "")
                    + " · card stock, one side · cut along the solid outlines only")
            size = fit_size(name, min(h, sheet.rows * s) - 4, 7.0, 6.0)
            if ox >= size * PT * 1.5:
                with canvas.frame(ox / 2 + size * PT * 0.35, min(h, sheet.rows * s) / 2, rotate=-90):
                    with canvas.group(None, role="label"):
                        canvas.text(0, 0, ellipsize(name, min(h, sheet.rows * s) - 4, size), size,
                                    anchor="middle", fill="#555555")
            for colour, (bx, by, bw, bh) in bleed_boxes(sheet, layout.tiles.gutter / s):
                canvas.rect(ox + bx * s, by * s, bw * s, bh * s, Style(fill=pal.fill(colour), stroke=None))
            for placed in sheet.placed:
                cells = dict(placed.cells)
                mx = min(c for c, _ in cells)
                my = min(r for _, r in cells)
                rel = {(c - mx, r - my): ch for (c, r), ch in cells.items()}
                with canvas.group(f"tile-{placed.tile}-{mx}-{my}", tile=placed.tile):
                    draw_tile(canvas, pal, layout, placed.colour, rel, ox + sheet.left(mx) * s,
                              sheet.top(mx, my) * s)
            if k == len(packed) - 1:
                d = layout.marker.size
                for n, (c, r) in zip(markers, spots):
                    with canvas.group(f"score-marker-{n}", marker=str(n)):
                        canvas.push()
                        canvas.translate(ox + sheet.left(c) * s + (s - d) / 2, sheet.top(c, r) * s + (s - d) / 2)
                        comp.draw_score_marker(canvas, layout, pal, n)
                        canvas.pop()
        return draw

    def holds(k: int):
        out = tuple(("facade-tile", tid, n) for tid, n in sorted(packed[k].count().items()))
        if k == len(packed) - 1:
            out += tuple(("score-marker", str(n), markers.count(n)) for n in sorted(set(markers)))
        return out

    n_sheets = len(packed)
    total_tiles = sum(copies for *_, copies in tile_list(data))
    sections = [
        CardSection("player-board", "Player boards", layout.board.size, boards, board_front,
                    stock="card stock (200-300 g/m²)", file="boards"),
        *[PageSection("facade-tiles", f"sheet-{k + 1}",
                      f"Façade tiles, sheet {k + 1} of {n_sheets} ({total_tiles} tiles in all)" if k < n_sheets - 1
                      else f"Façade tiles, sheet {k + 1} of {n_sheets}, score markers",
                      tile_sheet(k), stock="card stock (200-300 g/m²)", file="tiles", holds=holds(k))
          for k in range(n_sheets)],
        CardSection("card", "Cards and the end card", layout.card.size, cards, card_front, card_back),
        CardSection("ability-tile", "Ability tiles (front: unused, back: used)", layout.ability.size,
                    abilities, ability_front, ability_back),
        CardSection("reference-card", "Rules reference card", layout.card.size,
                    (Item("reference", hi, "Rules reference", counts_as=()),), ref_front, ref_back),
        BoardSection("harbour", "harbour", "Harbour strip", comp.harbour_size(data, layout),
                     lambda canvas: comp.draw_harbour(canvas, data, layout, pal), stock="paper or card",
                     file="harbour", counts_as=()),
    ]
    return Kit(GAME, data.name, tuple(sections), notes=(
        f"Tiles: cut along the solid outlines only (dashed lines are inside a tile); "
        f"{total_tiles} tiles on {n_sheets} sheets. The last sheet also holds the {len(markers)} score "
        "markers (cut round each disc): marker n goes on player board n's score track, at 0.",
        "Cards and ability tiles are double-sided: ability tiles show the unused face in front, "
        "the used face on the back.",
        "Harbour strip: glue it on card (tiles: edge on the dashed line, the registration ticks "
        "continuing across each seam).",
        f"Rules: the rules reference card (in {GAME}-cards) sums up a turn and the scoring. Full rules: "
        "the Copenhagen rules (Board Game Arena's game help). The companion checks every move and "
        "scores the game.",
    ))


def render_component(data, kind: str, item_id: str) -> str | None:
    """The board twin's façade grid ("board-twin", "facade"): the printed board's grid, coats of
    arms and numbers, in board millimetres with the grid at (pad, pad); or one tile ("tile", id)."""
    layout = load_layout()
    pal = Palette(data, layout)
    s = layout.square
    if (kind, item_id) == TWIN:
        pad = 10.0
        cols, rows = data.board.columns, data.board.rows
        w = cols * s + 2 * pad + 2 * layout.board.coat + 4
        h = rows * s + 2 * pad
        canvas = SvgCanvas(w, h, title=f"{data.name}: façade")
        with canvas.group("facade-grid", square=f"{s:g}", pad=f"{pad:g}", columns=str(cols), rows=str(rows)):
            draw_grid(canvas, data, layout, pal, pad, pad)
        return canvas.tostring()
    if kind == "tile":
        found = {tid: (colour, cells) for tid, colour, cells, _ in tile_list(data)}
        if item_id not in found:
            return None
        colour, cells = found[item_id]
        cw = max(c for c, _ in cells) + 1
        ch = max(r for _, r in cells) + 1
        canvas = SvgCanvas(cw * s, ch * s, title=f"{data.name}: tile {item_id}")
        draw_tile(canvas, pal, layout, colour, cells, 0, 0)
        return canvas.tostring()
    return None

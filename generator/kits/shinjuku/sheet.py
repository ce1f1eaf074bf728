"""The end-game score sheet: a table to fill in per player and a worked example.

Set sizes and points come from `data.scoring.set_points`, goods from `data.customers.type`, the number
of player columns from `data.players`. The example's sets are formed the way the sheet tells players
to do it by hand (take one of each type while you can, a bonus token filling a missing type); the
tests check that this gives the companion's best score for the printed example.
"""
from __future__ import annotations

from ... import icons
from ...canon.shinjuku import Shinjuku
from ...draw import Canvas, Style
from ...draw.fit import fit_text
from .layout import Example, Layout
from .style import Palette, mix

WILD = "wild"


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def example_counts(data: Shinjuku, example: Example) -> dict[str, int]:
    """Customers per type, a "2" counting twice; unknown types are a layout error."""
    types = [t.id for t in data.customers.type]
    for key in list(example.customers) + list(example.doubles):
        if key not in types:
            raise ValueError(f"layouts/shinjuku.toml: sheet.example: unknown customer type {key!r}")
    return {t: example.customers.get(t, 0) + 2 * example.doubles.get(t, 0) for t in types}


def sets_by_hand(counts: dict[str, int], wild: int, set_size: int) -> list[list[str]]:
    """Take one customer of each type still left (bonus tokens filling missing types) until none remain."""
    left = dict(counts)
    sets = []
    while any(left.values()) or wild:
        group = [t for t, n in left.items() if n > 0][:set_size]
        for t in group:
            left[t] -= 1
        while wild and len(group) < set_size:
            group.append(WILD)
            wild -= 1
        sets.append(group)
    return sets


def draw_score_sheet(canvas: Canvas, width: float, height: float, data: Shinjuku, layout: Layout,
                     pal: Palette) -> None:
    sh = layout.sheet
    points = {int(k): v for k, v in data.scoring.set_points.items()}
    y = 2.0
    fit_text(canvas, (0, y, width, 10), f"{data.name.upper()} 新宿 — final scoring", sh.title.size, sh.title.min,
             font=sh.title.font, fill=pal.ink, where="score sheet: title")
    y += 12
    sizes = sorted(points, reverse=True)
    rule = ("Make sets of different customer types. Points: " +
            ", ".join(f"set of {s} = {points[s]}" if s > 1 else f"each single = {points[s]}" for s in sizes) + ".")
    fit_text(canvas, (0, y, width, 5.5), rule, 10, 6, fill=pal.ink, where="score sheet: rule")
    y += 6
    fit_text(canvas, (0, y, width, 5.5), "A customer marked “2” counts as two customers. "
             "Each upgrade bonus token is one wild customer of any type.", 10, 6, fill=pal.ink,
             where="score sheet: rule 2")
    y += 9
    y = draw_score_table(canvas, 0, y, width, data, layout, pal, points)
    draw_example(canvas, 0, y + 8, width, height - y - 8, data, layout, pal, points)


def draw_score_table(canvas: Canvas, x: float, y: float, width: float, data: Shinjuku, layout: Layout,
                     pal: Palette, points: dict[int, int]) -> float:
    sh = layout.sheet
    players = data.players[1]
    col_w = (width - sh.label_col) / players
    rows: list[tuple[str, str, object]] = []
    for t in data.customers.type:
        rows.append(("goods", f"{t.name} customers", t))
    rows.append(("bonus", "Upgrade bonus tokens (wild)", None))
    for s in sorted(points, reverse=True):
        rows.append(("set", f"Sets of {s}" if s > 1 else "Singles", s))
    rows.append(("total", "Total", None))
    head_h = sh.row
    canvas.rect(x, y, width, head_h, Style(fill=mix(pal.ink, pal.paper, 0.85), stroke=pal.ink, width=0.3))
    fit_text(canvas, (x + 2, y, sh.label_col - 4, head_h), "Player", sh.head.size, sh.head.min,
             font=sh.head.font, fill=pal.ink, where="score sheet: head")
    for p in range(players):
        fit_text(canvas, (x + sh.label_col + p * col_w + 2, y + 1, col_w - 4, head_h - 2), "name:", 7, 5,
                 fill=pal.muted, where="score sheet: name")
    top = y + head_h
    for i, (kind, label, extra) in enumerate(rows):
        ry = top + i * sh.row
        fill = None
        if kind == "set":
            fill = mix(pal.ink, pal.paper, 0.95)
        if kind == "total":
            fill = mix(pal.ink, pal.paper, 0.85)
        canvas.rect(x, ry, width, sh.row, Style(fill=fill, stroke=pal.ink, width=0.3 if kind != "total" else 0.6))
        label_x = x + 2
        if kind == "goods":
            icons.goods(canvas, extra.id, x + 5, ry + sh.row / 2, sh.row * 0.7,
                        icons.Ink(pal.ink, pal.paper, pal.paper, 0.3))
            label_x = x + 10
        elif kind == "bonus":
            icons.wild(canvas, x + 5, ry + sh.row / 2, sh.row * 0.75, icons.Ink(pal.ink, pal.paper, pal.paper, 0.2))
            label_x = x + 10
        font = "bold" if kind in ("set", "total") else sh.cell.font
        fit_text(canvas, (label_x, ry, x + sh.label_col - label_x - 1, sh.row), label, sh.cell.size, sh.cell.min,
                 font=font, fill=pal.ink, where=f"score sheet: row {label}")
        for p in range(players):
            cx = x + sh.label_col + p * col_w
            if kind == "set":
                # Count | × points = | points: the multiplication is printed, players write two numbers.
                fit_text(canvas, (cx + col_w * 0.3, ry, col_w * 0.4, sh.row), f"× {points[extra]} =", sh.cell.size,
                         sh.cell.min, anchor="middle", fill=pal.muted, where="score sheet: set cell")
    for p in range(players + 1):
        lx = x + sh.label_col + p * col_w
        canvas.line(lx, y, lx, top + len(rows) * sh.row, Style(stroke=pal.ink, width=0.3))
    return top + len(rows) * sh.row


def draw_example(canvas: Canvas, x: float, y: float, width: float, height: float, data: Shinjuku,
                 layout: Layout, pal: Palette, points: dict[int, int]) -> None:
    ex = layout.sheet.example
    counts = example_counts(data, ex)
    names = {t.id: t.name.lower() for t in data.customers.type}
    sets = sets_by_hand(counts, ex.bonus, max(points))
    total = sum(points[len(s)] for s in sets)
    canvas.rect(x, y, width, min(height, 18 + 11 * len(sets) + 12), Style(stroke=pal.ink, width=0.4), radius=2)
    fit_text(canvas, (x + 4, y + 2, width - 8, 6), "Worked example", 11, 7, font="bold", fill=pal.ink,
             where="score sheet: example title")
    parts = []
    for t in data.customers.type:
        n, d = ex.customers.get(t.id, 0), ex.doubles.get(t.id, 0)
        if n or d:
            marked = " (one of them a “2”)" if d == 1 else f" ({d} marked “2”)" if d else ""
            parts.append(f"{n + d} {names[t.id]}" + marked)
    story = (f"{ex.player} has " + ", ".join(parts)
             + f" and {ex.bonus} upgrade bonus token{'s' if ex.bonus != 1 else ''}.")
    fit_text(canvas, (x + 4, y + 8, width - 8, 5), story, 9, 6, fill=pal.ink, where="score sheet: example story")
    count_text = ("Counted: " + ", ".join(f"{counts[t]} {names[t]}" for t in counts) +
                  f", {ex.bonus} wild. Take one of each type while you can:")
    fit_text(canvas, (x + 4, y + 13, width - 8, 5), count_text, 9, 6, fill=pal.ink, where="score sheet: example count")
    ink = icons.Ink(pal.ink, pal.paper, pal.paper, 0.3)
    row_y = y + 19
    for s in sets:
        cx = x + 8
        for member in s:
            canvas.circle(cx, row_y + 4.5, 4.3, Style(fill=mix(pal.goods(member), pal.paper, 0.8) if member != WILD
                                                      else pal.paper, stroke=pal.ink, width=0.3))
            if member == WILD:
                icons.wild(canvas, cx, row_y + 4.5, 6.0, ink)
            else:
                icons.goods(canvas, member, cx, row_y + 4.5, 5.2, ink)
            cx += 10
        what = f"set of {len(s)}" if len(s) > 1 else "single"
        fit_text(canvas, (x + 8 + 10 * max(points), row_y, width - 12 - 10 * max(points), 9),
                 f"{what}: {_points(points[len(s)])}"
                 + ("  (the bonus token is the missing type)" if WILD in s else ""),
                 10, 6, fill=pal.ink, where="score sheet: example set")
        row_y += 11
    fit_text(canvas, (x + 4, row_y, width - 8, 7),
             f"Total: {' + '.join(str(points[len(s)]) for s in sets)} = {total} points",
             11, 7, font="bold", fill=pal.ink, where="score sheet: example total")

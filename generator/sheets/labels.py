"""Page labels: a quiet line in the left margin saying which sheet this is, so printed sheets can be
sorted (and fronts matched with backs) without reading the cards."""
from __future__ import annotations

from ..draw import Canvas, text_width
from ..draw.base import PT, Box
from .grid import Grid
from ..layouts import Layout
from ..draw.lines import ellipsize, fit_size, wrap

LABEL_GREY = "#555555"
ASCENT, DESCENT = 0.88, 0.12   # the kit font's extent above / below the baseline, in em
LABEL_MIN_PT = 6.0             # nothing printed smaller: a longer label wraps onto a second line
LEADING = 1.15                 # line pitch of a wrapped label, in em


def label_lines(text: str, length: float, size_pt: float, lanes: int) -> tuple[float, list[str]]:
    """The size and lines of a label `length` mm long: one line shrunk down to LABEL_MIN_PT, else
    wrapped at that size onto at most `lanes` lines (the last one cut short if even those are full)."""
    size = fit_size(text, length, size_pt, LABEL_MIN_PT)
    if text_width(text, size) <= length or lanes <= 1:
        return size, [ellipsize(text, length, size)]
    lines = wrap(text, length, size)
    if len(lines) > lanes:
        lines = lines[:lanes - 1] + [ellipsize(" ".join(lines[lanes - 1:]), length, size)]
    return size, lines


def lanes_for(width: float, size_pt: float) -> int:
    """How many lines of `size_pt` text fit across `width` mm."""
    em = size_pt * PT
    return 0 if width < em else 1 + int((width - em) // (em * LEADING))


def _draw_lines(canvas: Canvas, lines: list[str], size: float, first_baseline: float) -> None:
    """Lines written up the page (the canvas turned a quarter): later lines further right."""
    em = size * PT
    for i, line in enumerate(lines):
        canvas.text(0, first_baseline + i * em * LEADING, line, size, anchor="middle", fill=LABEL_GREY)


def side_label(canvas: Canvas, text: str | tuple[str, ...], grid: Grid, paper: tuple[float, float],
               layout: Layout, size_pt: float = 6.5, marks: bool = True) -> None:
    """Write `text` up the left margin beside the middle row, clear of cut marks and trims (on two
    lines if the margin holds them and one line would need type under 6 pt). `text` may be several
    wordings, longest first: the first that fits whole is written. Without crop `marks` in the
    margin (round tokens) the whole height of the margin is the label's."""
    left, right = layout.margin + 0.3, grid.origin[0] - 0.6
    _, top, _, height = grid.box(grid.rows // 2, 0)
    length = height - 4.0              # keep clear of the crop marks at the row's cut lines
    if not marks:
        top, height = layout.margin, paper[1] - 2 * layout.margin
        length = height - 4.0
    lanes = lanes_for(right - left, LABEL_MIN_PT)
    if lanes == 0 or length <= 0:
        return
    wordings = (text,) if isinstance(text, str) else text
    for wording in wordings:
        size, lines = label_lines(wording, length, size_pt, lanes)
        if not lines[-1].endswith("…"):
            break
    em = size * PT
    block = em + (len(lines) - 1) * em * LEADING
    # Turned a quarter: the glyphs' tops point left, so the first line is the leftmost.
    baseline = (left + right) / 2 - block / 2 + ASCENT * em
    with canvas.frame(baseline, top + height / 2, rotate=-90):
        with canvas.group(None, role="label"):
            _draw_lines(canvas, lines, size, 0.0)


def lane_label(canvas: Canvas, text: str, obstacles: list[Box], paper: tuple[float, float],
               layout: Layout, size_pt: float = 6.5) -> Box | None:
    """Write `text` up a lane just inside the left margin, in the longest stretch of it that no
    component, mark or caption (`obstacles`) reaches into (on two lines if one would need type
    under 6 pt and the lane is free that wide); returns where it went (None: no room)."""
    left = layout.margin + LANE_INSET
    span = free_lane(obstacles, paper, layout, size_pt)
    if span is None:
        return None
    size, lines = label_lines(text, span[1] - span[0], size_pt, 1)
    if text_width(text, size) > span[1] - span[0]:
        wide = free_lane(obstacles, paper, layout, LABEL_MIN_PT * (1 + LEADING))
        if wide is not None:
            span = wide
            size, lines = label_lines(text, span[1] - span[0], LABEL_MIN_PT, 2)
    top, bottom = span
    em = size * PT
    with canvas.frame(left + em * ASCENT, (top + bottom) / 2, rotate=-90):
        with canvas.group(None, role="label"):
            _draw_lines(canvas, lines, size, 0.0)
    longest = max(text_width(line, size) for line in lines)
    return (left, (top + bottom) / 2 - longest / 2, em + (len(lines) - 1) * em * LEADING, longest)


LANE_INSET = 0.3      # mm between the margin and the label lane
LANE_CLEAR = 1.5      # mm kept between the label's ends and anything in its lane
LANE_MIN = 12.0       # mm: a shorter free stretch takes no label


def free_lane(obstacles: list[Box], paper: tuple[float, float], layout: Layout,
              size_pt: float) -> tuple[float, float] | None:
    """The longest free stretch (top, bottom) of the label lane, or None if none is long enough."""
    m = layout.margin
    x0 = m + LANE_INSET
    x1 = x0 + size_pt * PT + 0.4
    blocked = sorted((b[1] - LANE_CLEAR, b[1] + b[3] + LANE_CLEAR) for b in obstacles
                     if b[0] < x1 and b[0] + b[2] > x0)
    best, y = None, m
    for a, b in blocked + [(paper[1] - m, paper[1] - m)]:
        if a > y and (best is None or a - y > best[1] - best[0] + 1e-6):
            best = (y, min(a, paper[1] - m))
        y = max(y, b)
    if best is None or best[1] - best[0] < LANE_MIN:
        return None
    return best

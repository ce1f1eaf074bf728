"""Shinjuku's rules reference card, one per player, in the project's own words: a turn on the front,
wild cards, the end and the scoring on the back. Every number comes from the data (hand size,
actions, wild cards, set points, queue spaces), so a corrected value prints everywhere at once.

The text is set at the largest size (down to `reference.min` pt, never under 6) at which each side
fits the card; a side that does not fit even then is a layout error naming the side.
"""
from __future__ import annotations

from ...canon.shinjuku import Shinjuku
from ...draw import Canvas, Style, text_width
from ...draw.base import PT
from ...draw.fit import TextFitError, fit_text
from ...draw.lines import wrap
from ..base import KitContext
from .board import circled
from .layout import Layout
from .style import Palette

TITLE_H = 11.0      # mm, the coloured band at the top of each side
PAD = 2.6           # mm inside the card's edges
LEADING = 1.16      # line pitch, in em
BULLET = 2.6        # mm from a bullet to its text

#: Where the full rules are: printed on the card's back and on every cover of the kit.
FULL_RULES = ("Full rules: the published rulebook of Shinjuku by Gary Kacmarcik (Rules of Play "
              "and Quickstart Guide, free at github.com/garykac/shinjuku). The companion checks "
              "every move and scores the game.")


def turn_text(data: Shinjuku) -> list[tuple[str, str]]:
    """(heading, text) of the card's front: one turn, in order."""
    r = data.rules
    head, tail = circled(r.queue_slots[-1]), circled(r.queue_slots[0])
    return [
        ("1 Customers arrive",
         f"Put the customers on {head} into the ward of their card and take the card. Slide the queue "
         f"on, deal a card onto {tail} and draw that many customers into the queue (a kind already "
         "waiting joins its card)."),
        ("2 The Matsuri moves", "Move the Matsuri token into a neighbouring ward."),
        (f"3 Take {r.actions_per_turn} different actions", ""),
        ("• Open store", "Play a ward's card: your store on an empty station of that ward."),
        ("• Expand track", "Lay a track piece on an empty connection; play a card of either end "
                           "to lay a second piece joined to it."),
        ("• Upgrade", "At a sakura station: play its ward's card and put a customer of the store's goods "
                      "in the queue; a department store replaces the store. Take an upgrade bonus token."),
        ("• Income", f"Draw up to {r.income_hand} cards (1 if you hold {r.income_hand} or more). "
                     "Your turn ends."),
        ("• Move customers", "Play a ward's card. Its customers leave one of its stations along built "
                             "track, no station twice; each store passed takes one of its goods (a "
                             "department store: any). The rest stay in the last ward. Owners of track "
                             "used may each take Income."),
    ]


def scoring_text(data: Shinjuku) -> list[tuple[str, str]]:
    """(heading, text) of the card's back: wild cards, the end, the scoring, where the rules are."""
    r, pts = data.rules, data.scoring.set_points
    sizes = sorted((int(k) for k in pts), reverse=True)
    sets = "; ".join(f"{n} different: {pts[str(n)]}" if n > 1 else f"any other: {pts[str(n)]}"
                     for n in sizes)
    return [
        ("Wild cards", f"Any {r.cards_as_wild} cards played together; a card of a ward where you have "
                       "a store or department store; a card of the Matsuri's ward."),
        ("The end", "When the bag is empty, play on until the queue is empty, then finish the round: "
                    "the player before the start player plays last."),
        ("Scoring", f"Split your customers into sets of different goods, points per set: {sets}. "
                    "A “2” customer counts as two; an upgrade bonus token is one customer of any goods."),
        ("Rules", FULL_RULES),
    ]


def _blocks(canvas: Canvas | None, blocks: list[tuple[str, str]], x: float, y: float, width: float,
            size: float, ink: str) -> float:
    """Draw (or, with no canvas, measure) headed paragraphs from y; returns the y under them."""
    step = size * PT * LEADING
    for heading, text in blocks:
        indent = BULLET if heading.startswith("•") else 0.0
        if text:
            head = heading.lstrip("• ") + ": "
            lines = wrap(head + text, width - indent, size)
        else:
            head, lines = heading, [heading]
        for i, line in enumerate(lines):
            y += step
            if canvas is None:
                continue
            if i == 0 and indent:
                canvas.text(x, y - step * 0.2, "•", size, font="bold", fill=ink)
            if i == 0 and text and line.startswith(head):
                canvas.text(x + indent, y - step * 0.2, head, size, font="bold", fill=ink)
                canvas.text(x + indent + text_width(head, size, "bold"), y - step * 0.2,
                            line[len(head):], size, fill=ink)
            else:
                canvas.text(x + indent, y - step * 0.2, line, size, font="bold" if not text else "regular",
                            fill=ink)
        y += step * 0.25
    return y


def _side(canvas: Canvas, layout: Layout, pal: Palette, title: str, blocks: list[tuple[str, str]],
          where: str) -> None:
    c = layout.card
    w, h = c.size
    style = layout.reference
    canvas.rect(0, 0, w, h, Style(fill=pal.paper, stroke=None))
    band = pal.card_back if not pal.ink_saver else pal.paper
    canvas.rect(0, 0, w, TITLE_H, Style(fill=band, stroke=None if not pal.ink_saver else pal.card_back_ink,
                                        width=0.6))
    fit_text(canvas, (PAD, 1.5, w - 2 * PAD, TITLE_H - 3), title, style.title.size, style.title.min,
             font="bold", fill=pal.card_back_ink, where=f"{where}: title")
    width, room = w - 2 * PAD, h - TITLE_H - PAD - 1.0
    size = style.text.size
    while _blocks(None, blocks, PAD, 0.0, width, size, pal.ink) > room:
        size -= 0.25
        if size < style.text.min - 1e-9:
            raise TextFitError(where, title, width, style.text.min)
    _blocks(canvas, blocks, PAD, TITLE_H + 0.8, width, size, pal.ink)


def draw_reference_front(canvas: Canvas, data: Shinjuku, layout: Layout, pal: Palette) -> None:
    _side(canvas, layout, pal, f"{data.name} · your turn", turn_text(data), "reference card front")


def draw_reference_back(canvas: Canvas, data: Shinjuku, layout: Layout, pal: Palette) -> None:
    _side(canvas, layout, pal, "Wild cards · end · scoring", scoring_text(data), "reference card back")


def reference_copies(data: Shinjuku, ctx: KitContext) -> int:
    """One card per seat."""
    return data.players[1]

"""A tiny kit with one section of each kind, so the sheet tests do not depend on any game's drawings
(and `build_pieces_kit`: several small single-sided piece sections round the cards, to pack).

Each card front draws its frame exactly on the trim, its id in the middle (so tests can find where a
face landed) and a QR code; each back draws a black marker 3 mm high near its top-left corner whose
width (1 + the card's index, mm) says which card it is, so tests can check where each back landed
and which way up.
"""
from __future__ import annotations

from generator.draw import Canvas, Style
from generator.kits.base import BoardSection, CardSection, Item, Kit, KitContext, PageSection
from generator.qr import draw_qr

GAME = "testgame"
CARD_IDS = {"alpha": 3, "beta": 2, "gamma": 4, "delta": 1, "epsilon": 2}   # 12 cards: 2 sheets
TOKEN_IDS = {"sun": 6, "moon": 5}
BOARD = (300.0, 400.0)


def card_front(c: Canvas, item: Item) -> None:
    c.rect(0, 0, 63, 88, Style(stroke="#000000", width=0.3))
    c.text(31.5, 20, item.label, 12, font="bold", anchor="middle")
    c.text(31.5, 44, item.id, 10, anchor="middle")
    if item.qr:
        draw_qr(c, item.qr[1], 19.5, 58, 24)


MARKER = (5.0, 10.0, 3.0)   # x, y, height of the back marker, mm from the card's top-left corner


def card_back(c: Canvas, item: Item) -> None:
    c.rect(3, 3, 57, 82, Style(fill="#dde4f0", stroke="#1d2a44", width=0.5), radius=3)
    c.text(31.5, 44, f"back {item.id}", 9, anchor="middle")
    x, y, h = MARKER
    c.rect(x, y, 1 + item.data, h, Style(fill="#000000", stroke=None))


def token_front(c: Canvas, item: Item) -> None:
    c.circle(12.5, 12.5, 11, Style(fill="#f2c500", stroke=None))
    c.text(12.5, 14, item.id, 8, anchor="middle")


def board(c: Canvas) -> None:
    w, h = BOARD
    c.rect(0, 0, w, h, Style(fill="#f4efe1", stroke="#000000", width=0.5))
    for x in range(0, int(w) + 1, 50):
        c.line(x, 0, x, h, Style(stroke="#7a6a4f", width=0.3))
    for y in range(0, int(h) + 1, 50):
        c.line(0, y, w, y, Style(stroke="#7a6a4f", width=0.3))
    c.path([("M", 20, 380), ("C", 100, 200, 200, 300, 280, 20)], Style(stroke="#d7261e", width=2))
    c.text(w / 2, h / 2, "Test board 新宿", 28, font="bold", anchor="middle")


def sheet(c: Canvas, w: float, h: float) -> None:
    c.rect(0, 0, w, h, Style(stroke="#000000", width=0.4))
    c.text(5, 10, "Score sheet 千代田区", 14, font="bold")


def build_kit(ctx: KitContext = KitContext()) -> Kit:
    cards = tuple(Item(i, n, label=i.title(), qr=("card", ctx.qr_payload(GAME, "card", i)), data=k)
                  for k, (i, n) in enumerate(CARD_IDS.items()))
    tokens = tuple(Item(i, n, label=i.title()) for i, n in TOKEN_IDS.items())
    return Kit(GAME, "Test Game", (
        CardSection("test-card", "Test cards", (63.0, 88.0), cards, card_front, card_back),
        CardSection("test-token", "Test tokens", (25.0, 25.0), tokens, token_front, shape="circle",
                    file="cards"),
        BoardSection("test-board", "main", "Test board", BOARD, board),
        PageSection("score-sheet", "score", "Score sheet", sheet, copies=2),
    ), notes=("A note for the cover.",))


# A kit of small single-sided piece sections (round and rectangular, of several sizes) round a
# section of double-sided cards, and one piece section on another stock: the pieces share sheets.
PIECES = {   # kind: title, size, shape, copies
    "coin": ("Coins", (20.0, 20.0), "circle", 5),
    "badge": ("Badges", (30.0, 30.0), "circle", 3),
    "house": ("Houses", (15.0, 15.0), "rect", 20),
    "rail": ("Rails", (20.0, 8.0), "rect", 14),
    "flag": ("Flags", (12.0, 12.0), "circle", 7),
}
STICKERS = ("sticker", "Stickers", (25.0, 25.0), "rect", 4)
PIECE_STOCK = "card stock, single-sided"


def piece_front(c: Canvas, item: Item) -> None:
    """The piece's outline exactly on its trim (a circle or a rectangle) and its id in the middle."""
    (w, h), shape = item.data
    if shape == "circle":
        c.circle(w / 2, h / 2, w / 2, Style(fill="#9fd3c7", stroke=None))
    else:
        c.rect(0, 0, w, h, Style(fill="#9fd3c7", stroke="#000000", width=0.2))
    c.text(w / 2, h / 2 + 1, item.id, 5, anchor="middle")


def pieces_section(kind: str, title: str, size, shape: str, copies: int, stock: str) -> CardSection:
    items = (Item(f"{kind}-a", copies - copies // 2, data=(size, shape)),
             Item(f"{kind}-b", copies // 2, data=(size, shape)))
    return CardSection(kind, title, size, tuple(i for i in items if i.copies), piece_front,
                       shape=shape, stock=stock)


def build_pieces_kit(ctx: KitContext = KitContext()) -> Kit:
    cards = build_kit(ctx).sections[0]
    pieces = [pieces_section(kind, *spec, PIECE_STOCK) for kind, spec in PIECES.items()]
    return Kit(GAME, "Test Pieces", (pieces[0], pieces[1], cards, *pieces[2:],
                                     pieces_section(*STICKERS, "sticker paper")))

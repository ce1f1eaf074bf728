"""A drawing canvas for tests: it draws nothing and keeps every call, in the current frame's
coordinates, so a test can assert what a kit's drawing function asked for."""
from __future__ import annotations

from generator.draw import Canvas


class Recorder(Canvas):
    def __init__(self):
        self.calls: list[tuple] = []

    def push(self): pass
    def pop(self): pass
    def translate(self, dx, dy): pass
    def rotate(self, degrees): pass

    def rect(self, x, y, w, h, style, radius=0.0):
        self.calls.append(("rect", (x, y, w, h), style))

    def rects(self, boxes, fill):
        self.calls.append(("rects", list(boxes), fill))

    def polyline(self, points, style):
        self.calls.append(("polyline", list(points), style))

    def polygon(self, points, style):
        self.calls.append(("polygon", list(points), style))

    def circle(self, cx, cy, r, style):
        self.calls.append(("circle", (cx, cy, r), style))

    def text(self, x, y, text, size_pt, *, font="regular", anchor="start", fill="#000000"):
        self.calls.append(("text", (x, y), text, size_pt, fill))

    def texts(self) -> list[str]:
        return [c[2] for c in self.calls if c[0] == "text"]

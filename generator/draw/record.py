"""A canvas that records drawing calls and replays them onto any other canvas.

A kit draws each distinct face once per build: the sheets record it the first time and replay the
recording for each paper and format, so a face's layout work (fitting text, geometry) is not redone
for Letter, A4, PDF and SVG. Frames are replayed through `frame()`, so backends that clip by masking
when a frame ends (the Canvas fallback) behave as if drawn directly.
"""
from __future__ import annotations

import contextlib
from typing import Callable, Iterator

from .base import Box, Canvas


class Recording(Canvas):
    def __init__(self) -> None:
        self.ops: list[tuple] = []

    @classmethod
    def of(cls, draw: Callable[[Canvas], None]) -> "Recording":
        rec = cls()
        draw(rec)
        return rec

    def replay(self, canvas: Canvas) -> None:
        open_frames: list = []
        try:
            for op in self.ops:
                name = op[0]
                if name == "push":
                    context = canvas.frame()
                elif name == "group":
                    context = canvas.group(op[1], **op[2])
                elif name == "pop":
                    open_frames.pop().__exit__(None, None, None)
                    continue
                elif name == "reuse":
                    canvas.reuse(op[1], op[2], op[3].replay)
                    continue
                else:
                    getattr(canvas, name)(*op[1], **op[2])
                    continue
                context.__enter__()
                open_frames.append(context)
        finally:
            while open_frames:
                open_frames.pop().__exit__(None, None, None)

    # -- frames ---------------------------------------------------------------------------------
    def push(self) -> None:
        self.ops.append(("push",))

    def pop(self) -> None:
        self.ops.append(("pop",))

    def translate(self, dx: float, dy: float) -> None:
        self.ops.append(("translate", (dx, dy), {}))

    def rotate(self, degrees: float) -> None:
        self.ops.append(("rotate", (degrees,), {}))

    def scale(self, sx: float, sy: float) -> None:
        self.ops.append(("scale", (sx, sy), {}))

    def clip(self, x: float, y: float, w: float, h: float) -> None:
        self.ops.append(("clip", (x, y, w, h), {}))

    @contextlib.contextmanager
    def group(self, element_id: str | None = None, /, **data: str) -> Iterator[Canvas]:
        self.ops.append(("group", element_id, data))
        try:
            yield self
        finally:
            self.ops.append(("pop",))

    def reuse(self, key: str, box: Box, draw: Callable[[Canvas], None]) -> None:
        self.ops.append(("reuse", key, box, Recording.of(draw)))

    # -- primitives ------------------------------------------------------------------------------
    def rect(self, *args, **kwargs) -> None:
        self.ops.append(("rect", args, kwargs))

    def rects(self, boxes, fill: str) -> None:
        self.ops.append(("rects", (tuple(boxes), fill), {}))

    def line(self, *args, **kwargs) -> None:
        self.ops.append(("line", args, kwargs))

    def polyline(self, points, style) -> None:
        self.ops.append(("polyline", (tuple(points), style), {}))

    def polygon(self, points, style) -> None:
        self.ops.append(("polygon", (tuple(points), style), {}))

    def circle(self, *args, **kwargs) -> None:
        self.ops.append(("circle", args, kwargs))

    def path(self, ops, style) -> None:
        self.ops.append(("path", (tuple(ops), style), {}))

    def text(self, *args, **kwargs) -> None:
        self.ops.append(("text", args, kwargs))


class FaceCache:
    """Recordings of faces by key, for one kit: keys must name everything the drawing depends on."""

    def __init__(self) -> None:
        self._faces: dict[str, Recording] = {}
        self.svg: dict = {}   # the SVG backend's serialized faces (svg.Fragment by key)

    def draw(self, key: str, draw: Callable[[Canvas], None]) -> Callable[[Canvas], None]:
        """A drawing function that replays `draw`, recorded on first use."""
        def replay(canvas: Canvas) -> None:
            rec = self._faces.get(key)
            if rec is None:
                rec = self._faces[key] = Recording.of(draw)
            rec.replay(canvas)
        return replay

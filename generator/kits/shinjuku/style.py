"""Colours as drawn: the layout's colours, and what ink-saving mode turns them into.

Ink saver keeps every cue (outlines, icons, letters, patterns) and replaces large fills with light
tints or outlines: `Palette` is the one place that decision is made.
"""
from __future__ import annotations

from ...colours import mix, readable_on
from .layout import Colours


class Palette:
    def __init__(self, colours: Colours, ink_saver: bool = False):
        self.c = colours
        self.ink_saver = ink_saver
        self.paper = colours.paper
        self.ink = colours.ink
        self.border = colours.border
        self.track = colours.track
        self.slot = colours.slot
        self.sakura = colours.sakura if not ink_saver else mix(colours.sakura, colours.paper, 0.4)
        self.matsuri = colours.matsuri if not ink_saver else mix(colours.matsuri, colours.paper, 0.6)
        self.muted = mix(colours.ink, colours.paper, 0.3)   # 4.5:1 on the light greys it is printed on
        self.queue_fill = mix(colours.ink, colours.paper, 0.94)
        self.card_back = colours.card_back if not ink_saver else colours.paper
        self.card_back_ink = colours.paper if not ink_saver else colours.card_back

    def ward_tint(self, colour_name: str) -> str:
        tint = self._ward(colour_name).tint
        return tint if not self.ink_saver else mix(tint, self.paper, 0.55)

    def ward_header(self, colour_name: str) -> tuple[str, str]:
        """(fill, text colour) of a card header in this ward colour."""
        w = self._ward(colour_name)
        if self.ink_saver:
            return self.ward_tint(colour_name), self.ink
        return w.full, w.text

    def ward_full(self, colour_name: str) -> str:
        return self._ward(colour_name).full

    def goods(self, goods_id: str) -> str:
        try:
            return self.c.goods[goods_id]
        except KeyError:
            raise KeyError(f"layouts/shinjuku.toml: no colour for goods {goods_id!r} in [colours.goods]") from None

    def piece(self, hex_colour: str) -> tuple[str, str]:
        """(fill, text colour) of a player piece in this player colour."""
        if self.ink_saver:
            return mix(hex_colour, self.paper, 0.75), self.ink
        return hex_colour, readable_on(hex_colour)

    def _ward(self, colour_name: str):
        try:
            return self.c.ward[colour_name]
        except KeyError:
            raise KeyError(f"layouts/shinjuku.toml: no [colours.ward.{colour_name}] for a ward colour "
                           "in the data") from None

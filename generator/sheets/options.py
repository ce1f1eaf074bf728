"""Build options that change how sheets are laid out (the kit's own options are in KitContext)."""
from __future__ import annotations

import dataclasses
from typing import Literal

#: The largest back offset taken, mm: printers shift the back by 1-4 mm; more would push the back
#: pages' marks into the unprintable margin.
MAX_BACK_OFFSET = 5.0


@dataclasses.dataclass(frozen=True)
class SheetOptions:
    ink_saver: bool = False
    #: which edge the printer flips the sheet on, or "fold": each front beside its back on one side
    #: of the sheet, to fold along the line between them (for printers without duplex)
    duplex: Literal["long", "short", "fold"] = "long"
    #: mm the backs' art runs past each trim; cards stand apart by twice that and marks move out
    bleed: float = 0.0
    #: mm the back pages move (right, down as the back page is seen), read off the calibration page
    back_offset: tuple[float, float] = (0.0, 0.0)
    #: where the printed QR codes point (the cover says where the companion is); "" names none
    companion_url: str = ""
    #: mm a double-sided card's back runs past the outer cut lines of its block of cards (not
    #: between butted cards, which share a cut): a home duplex printer shifts the back by 1-2 mm
    back_bleed: float = 3.0

    def __post_init__(self) -> None:
        if self.duplex not in ("long", "short", "fold"):
            raise ValueError(f"duplex must be long, short or fold, got {self.duplex!r}")
        if not 0 <= self.bleed <= 10:
            raise ValueError(f"bleed must be between 0 and 10 mm, got {self.bleed:g}")
        if not 0 <= self.back_bleed <= 10:
            raise ValueError(f"back bleed must be between 0 and 10 mm, got {self.back_bleed:g}")
        if any(abs(v) > MAX_BACK_OFFSET for v in self.back_offset):
            raise ValueError(f"back offset must be within ±{MAX_BACK_OFFSET:g} mm on each axis, got "
                             f"{self.back_offset[0]:g},{self.back_offset[1]:g}")

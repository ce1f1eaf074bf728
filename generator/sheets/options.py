"""Build options that change how sheets are laid out (the kit's own options are in KitContext)."""
from __future__ import annotations

import dataclasses
from typing import Literal


@dataclasses.dataclass(frozen=True)
class SheetOptions:
    ink_saver: bool = False
    duplex: Literal["long", "short"] = "long"   # which edge the printer flips the sheet on

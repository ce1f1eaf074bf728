"""Reading the data files under assets/: TOML syntax errors become DataError with file and line."""
from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from .schema import DataError

#: The repository's assets/ folder; TOKYO_KIT_ASSETS points elsewhere (tests use broken copies).
DEFAULT_ASSETS = Path(__file__).resolve().parents[2] / "assets"


def assets_root() -> Path:
    return Path(os.environ.get("TOKYO_KIT_ASSETS", DEFAULT_ASSETS))


def read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise DataError(path, "", "file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(path, "", f"not valid TOML: {exc}") from None
    except OSError as exc:
        raise DataError(path, "", f"cannot be read: {exc.strerror}") from None

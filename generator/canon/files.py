"""Reading the data files under assets/: TOML syntax errors become DataError with file and line."""
from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from ..bundle import bundled
from .schema import Ctx, DataError, build


def assets_root() -> Path:
    """assets/ of the checkout (or the installed package); TOKYO_KIT_ASSETS points elsewhere (tests
    use broken copies)."""
    return Path(os.environ.get("TOKYO_KIT_ASSETS") or bundled("assets"))


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


def read_files(folder: Path, schema: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Ctx]]:
    """Read `<name>.toml` for each name in `schema` and type it as `schema[name]` (a dataclass).

    Returns the typed files and, for the cross-checks that follow, each file's error context."""
    ctx = {name: Ctx(str(folder / f"{name}.toml")) for name in schema}
    typed = {name: build(hint, read_toml(folder / f"{name}.toml"), ctx[name])
             for name, hint in schema.items()}
    return typed, ctx

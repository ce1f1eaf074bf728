"""The printed kits in output/: what the generator's manifest lists, grouped for the home page."""
from __future__ import annotations

import json
from pathlib import Path

KIT_SUFFIXES = (".pdf", ".svg", ".png", ".zip")


def listing(output: Path) -> dict:
    """{"built": bool, "games": {game: [{"path", "paper", "name", "pages", "size"}]}}.

    Reads output/manifest.json when present (and lists only files that exist); without one, lists
    the PDF files found, so a partial build is still downloadable.
    """
    output = Path(output)
    entries = _from_manifest(output) if (output / "manifest.json").is_file() else None
    if entries is None:
        entries = [{"path": p.relative_to(output).as_posix()} for p in sorted(output.rglob("*.pdf"))]
    games: dict[str, list[dict]] = {}
    for entry in entries:
        rel = entry["path"]
        path = output / rel
        if not path.is_file() or not rel.endswith(KIT_SUFFIXES):
            continue
        parts = rel.split("/")
        paper, game = (parts[0], parts[1]) if len(parts) >= 3 else ("", parts[0] if len(parts) == 2 else "")
        games.setdefault(entry.get("game") or game or "other", []).append({
            "path": rel, "paper": entry.get("paper") or paper, "name": parts[-1],
            "pages": entry.get("pages"), "size": path.stat().st_size,
            "format": entry.get("format") or path.suffix.lstrip(".")})
    return {"built": bool(games), "games": games}


def _from_manifest(output: Path) -> list[dict] | None:
    try:
        manifest = json.loads((output / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    files = manifest.get("files") if isinstance(manifest, dict) else manifest
    if not isinstance(files, list):
        return None
    out = []
    for item in files:
        if isinstance(item, str):
            out.append({"path": item})
        elif isinstance(item, dict) and isinstance(item.get("path") or item.get("file"), str):
            pages = item.get("pages")
            out.append({"path": item.get("path") or item.get("file"), "game": item.get("game"),
                        "paper": item.get("paper"), "format": item.get("format"),
                        "pages": pages if isinstance(pages, int) else None})
    return out

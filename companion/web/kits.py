"""The printed kits in output/: what the generator's manifest lists, grouped for the home page."""
from __future__ import annotations

import json
from pathlib import Path

KIT_SUFFIXES = (".pdf", ".svg", ".png", ".zip")


def listing(output: Path) -> dict:
    """{"built": bool, "games": {game: [{"path", "paper", "name", "pages", "size", "format"}]}}.

    Reads output/manifest.json (generator/build.py writes {"files": [{"path", "game", "paper",
    "format", "pages"}], ...}) and lists only the files that exist. Without a readable manifest (a
    build stopped half-way), lists the PDF files found under output/<paper>/<game>/, so what was
    written is still downloadable.
    """
    output = Path(output)
    entries = _from_manifest(output)
    if entries is None:
        entries = [_from_path(p.relative_to(output).as_posix()) for p in sorted(output.rglob("*.pdf"))]
    games: dict[str, list[dict]] = {}
    for entry in entries:
        rel = entry["path"]
        path = output / rel
        if not rel.endswith(KIT_SUFFIXES) or ".." in rel.split("/") or not path.is_file():
            continue
        games.setdefault(entry["game"] or "other", []).append({
            "path": rel, "paper": entry["paper"], "name": path.name, "pages": entry["pages"],
            "size": path.stat().st_size, "format": entry["format"] or path.suffix.lstrip(".")})
    return {"built": bool(games), "games": games}


def _from_manifest(output: Path) -> list[dict] | None:
    try:
        files = json.loads((output / "manifest.json").read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(files, list):
        return None
    return [{"path": f["path"], "game": f.get("game"), "paper": f.get("paper"), "format": f.get("format"),
             "pages": f.get("pages") if isinstance(f.get("pages"), int) else None}
            for f in files if isinstance(f, dict) and isinstance(f.get("path"), str)]


def _from_path(rel: str) -> dict:
    """What a file's place says about it: <paper>/<game>/<file>."""
    parts = rel.split("/")
    paper, game = (parts[0], parts[1]) if len(parts) >= 3 else ("", "")
    return {"path": rel, "game": game, "paper": paper, "format": None, "pages": None}

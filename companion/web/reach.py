"""What a phone at the table cannot reach: the warnings of the home and table pages.

The home and table pages warn (`reach_warnings`) when the kits' QR codes (output/manifest.json) or
the companion's own address name a host a phone cannot reach: localhost, 127.x, ::1, 0.0.0.0.
"""
from __future__ import annotations

import ipaddress
import json
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, current_app, request

from ..config import MDNS_NAME


def unreachable(url: str | None) -> bool:
    """Whether a phone cannot open `url`: its host is this computer's loopback or "any" address."""
    if not url:
        return False
    try:
        host = (urlsplit(url if "//" in url else "//" + url).hostname or "").lower()
    except ValueError:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


def kit_bases(output: Path) -> list[str]:
    """The addresses the printed kits' QR codes start with (output/manifest.json), in order."""
    try:
        qrs = json.loads((Path(output) / "manifest.json").read_text(encoding="utf-8"))["qr"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    bases: list[str] = []
    for q in qrs if isinstance(qrs, list) else []:
        payload = q.get("payload") if isinstance(q, dict) else None
        if isinstance(payload, str) and "/q/" in payload:
            base = payload.split("/q/", 1)[0]
            if base not in bases:
                bases.append(base)
    return bases


def reach_warnings() -> list[str]:
    """What a phone at this table cannot open, one sentence each (shown on the home and table pages
    with what to do: `REACH_FIX`)."""
    out = []
    bad = [b for b in kit_bases(current_app.config["OUTPUT_DIR"]) if unreachable(b)]
    if bad:
        out.append(f"The printed QR codes point to {', '.join(bad)}. Until the kits are reprinted, type "
                   "the code printed under a QR code in “Type the code beside the QR” on the home page.")
    own = current_app.config.get("BASE_URL") or request.host_url
    if unreachable(own):
        out.append(f"The join QR code and the table links use {own.rstrip('/')}.")
    return out


#: What to do about any of `reach_warnings`.
REACH_FIX = (f"On the computer serving the companion, stop it and run “make run” (not LOCAL=1): it serves your "
             f"Wi-Fi under the name {MDNS_NAME}.local and builds the kits' QR codes for that name.")


def register(app: Flask) -> None:
    """Templates may call `reach_warnings()` (the home and table pages do)."""
    app.add_template_global(reach_warnings, "reach_warnings")
    app.add_template_global(REACH_FIX, "reach_fix")

"""Being reachable from phones: the stable `.local` name, the base URL, and the warnings when a phone
cannot open what the kits or the companion point at.

A printed kit outlives the Wi-Fi address it was printed for (DESIGN.md), so with `--lan` the companion
advertises itself over multicast DNS (python-zeroconf) under a stable name, `tokyo-kit.local` by
default (`--mdns-name`), with an HTTP service record beside it; phones (iOS, Android 12+, macOS,
Windows 10+, Linux with Avahi) resolve it to whatever address this computer has today, and
`http://tokyo-kit.local:<port>` is the default base URL of table links, the invite QR and (with
`make run`) the kits' QR codes.

The home and table pages warn (`reach_warnings`) when the kits' QR codes (output/manifest.json) or
the companion's own address name a host a phone cannot reach: localhost, 127.x, ::1, 0.0.0.0.
"""
from __future__ import annotations

import ipaddress
import json
import re
import socket
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, current_app, request

DEFAULT_NAME = "tokyo-kit"
SERVICE_TYPE = "_http._tcp.local."
#: A DNS label: letters, digits and inner hyphens, at most 63 characters.
_LABEL = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")


class BadName(ValueError):
    """An --mdns-name that is not one DNS label."""


def mdns_host(name: str) -> str:
    """`name` as the host phones type: "tokyo-kit" or "tokyo-kit.local" → "tokyo-kit.local"."""
    label = name.strip().lower().removesuffix(".").removesuffix(".local")
    if not _LABEL.match(label):
        raise BadName(f"--mdns-name {name!r} is not a usable name: use letters, digits and hyphens "
                      "(e.g. tokyo-kit), at most 63")
    return f"{label}.local"


def base_url(*, lan: bool, host: str, port: int, mdns_name: str | None, lan_ip: str,
             explicit: str | None = None) -> str:
    """The address phones use (table links, join QR, the kits' QR codes with `make run`):
    the one given, else with --lan the mDNS name (or, with mDNS off, the LAN address), else HOST."""
    if explicit:
        return explicit.rstrip("/")
    if lan:
        return f"http://{mdns_host(mdns_name) if mdns_name else lan_ip}:{port}"
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


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
             f"Wi-Fi under the name {DEFAULT_NAME}.local and builds the kits' QR codes for that name.")


def register(app: Flask) -> None:
    """Templates may call `reach_warnings()` (the home and table pages do)."""
    app.add_template_global(reach_warnings, "reach_warnings")
    app.add_template_global(REACH_FIX, "reach_fix")


# ---------------------------------------------------------------------------------- mDNS name
class Advertised:
    """The running advertisement: `close()` withdraws it (a goodbye packet) and stops zeroconf."""

    def __init__(self, zc, info):
        self._zc, self._info = zc, info

    def close(self) -> None:
        try:
            self._zc.unregister_service(self._info)
        finally:
            self._zc.close()


def advertise(name: str, port: int, addresses: list[str], *, interfaces=None) -> Advertised:
    """Announce `name`.local at `addresses` with an HTTP service on `port` ("Tokyo table kit (name)").
    Raises OSError (no network, port 5353 unusable), ImportError (zeroconf missing) or
    zeroconf's errors (the name is taken); the caller turns them into one warning line."""
    from zeroconf import IPVersion, ServiceInfo, Zeroconf

    host = mdns_host(name)
    info = ServiceInfo(SERVICE_TYPE, f"Tokyo table kit ({host.split('.')[0]}).{SERVICE_TYPE}",
                       addresses=[socket.inet_aton(a) for a in addresses], port=int(port),
                       properties={"path": "/"}, server=host + ".")
    zc = Zeroconf(interfaces=interfaces or [*addresses], ip_version=IPVersion.V4Only)
    try:
        zc.register_service(info, allow_name_change=True)
    except BaseException:
        zc.close()
        raise
    return Advertised(zc, info)

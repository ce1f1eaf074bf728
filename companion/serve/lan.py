"""Being reachable from phones: the stable `.local` name, the base URL, and the warnings when a phone
cannot open what the kits or the companion point at.

A printed kit outlives the Wi-Fi address it was printed for (DESIGN.md), so with `--lan` the companion
advertises itself over multicast DNS (python-zeroconf) under a stable name, `tokyo-kit.local` by
default (`--mdns-name`), with an HTTP service record beside it; phones (iOS, Android 12+, macOS,
Windows 10+, Linux with Avahi) resolve it to whatever address this computer has today, and
`http://tokyo-kit.local:<port>` is the default base URL of table links, the invite QR and (with
`make run`) the kits' QR codes.

What a phone cannot reach (the warnings on the home and table pages) is companion/web/reach.py's.
"""
from __future__ import annotations

import re
import socket

from ..config import MDNS_NAME

DEFAULT_NAME = MDNS_NAME
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

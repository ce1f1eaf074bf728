"""The address phones use: the mDNS name the companion advertises with --lan (found by a real
zeroconf lookup, inside a network namespace of its own), the base URL chosen from the options, and
the warnings on the home and table pages when the kits' QR codes or the companion's address name a
host a phone cannot reach (in a real browser at phone size)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion import create_app
from companion.serve import lan
from companion.web import reach
from phones import launch, needs_chromium

REPO = Path(__file__).resolve().parents[1]


def test_base_url_is_the_mdns_name_when_serving_the_lan():
    kw = dict(host="0.0.0.0", port=5000, lan_ip="192.168.1.20")
    assert lan.base_url(lan=True, mdns_name="tokyo-kit", **kw) == "http://tokyo-kit.local:5000"
    assert lan.base_url(lan=True, mdns_name="Game-Room.local", **kw) == "http://game-room.local:5000"
    assert lan.base_url(lan=True, mdns_name=None, **kw) == "http://192.168.1.20:5000"    # --no-mdns
    assert lan.base_url(lan=True, mdns_name="tokyo-kit", explicit="http://kit.example/", **kw) == \
        "http://kit.example"
    assert lan.base_url(lan=False, host="127.0.0.1", port=8000, mdns_name=None, lan_ip="") == \
        "http://127.0.0.1:8000"
    assert lan.base_url(lan=False, host="::", port=8000, mdns_name=None, lan_ip="") == "http://127.0.0.1:8000"
    with pytest.raises(lan.BadName, match="not a usable name"):
        lan.mdns_host("tokyo kit!")


@pytest.mark.parametrize("url, bad", [
    ("http://localhost:5000", True), ("http://127.0.0.1:5000/", True), ("http://127.8.9.1", True),
    ("http://[::1]:5000", True), ("http://0.0.0.0:5000", True), ("http://app.localhost", True),
    ("http://tokyo-kit.local:5000", False), ("http://192.168.1.20:5000", False),
    ("https://kit.example", False), (None, False)])
def test_which_addresses_a_phone_cannot_open(url, bad):
    assert reach.unreachable(url) is bad


def test_the_mdns_name_options():
    from companion.serve import cli as main
    args = main.parse_args(["--lan", "--mdns-name", "games"])
    assert args.lan and args.mdns_name == "games" and not args.no_mdns
    assert main.parse_args([]).mdns_name == lan.DEFAULT_NAME


def test_make_run_lan_builds_the_kits_for_the_mdns_name():
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    dry = subprocess.run([make, "-n", "run", "LAN=1", "PORT=5123"], cwd=REPO, capture_output=True,
                         text=True, check=True).stdout
    assert "generator build --companion-url http://tokyo-kit.local:5123" in dry
    assert "--lan --mdns-name tokyo-kit --base-url http://tokyo-kit.local:5123" in dry
    # plain `make run` is for the table too (issue 22): the same as LAN=1
    dry = subprocess.run([make, "-n", "run", "PORT=5123"], cwd=REPO, capture_output=True, text=True,
                         check=True).stdout
    assert "generator build --companion-url http://tokyo-kit.local:5123" in dry
    assert "--lan --mdns-name tokyo-kit --base-url http://tokyo-kit.local:5123" in dry
    # LOCAL=1 keeps this computer only: localhost QR codes, no --lan
    dry = subprocess.run([make, "-n", "run", "LOCAL=1"], cwd=REPO, capture_output=True, text=True,
                         check=True).stdout
    assert "--companion-url" not in dry and "--lan" not in dry


# ------------------------------------------------------------------------- a real mDNS lookup
NETNS = """
set -e
ip link set lo up
{extra}
exec {python} {script}
"""
LOOKUP = textwrap.dedent("""
    import json, subprocess, sys, time, urllib.request
    import zeroconf
    from zeroconf import IPVersion, ServiceBrowser, Zeroconf
    proc = subprocess.Popen([sys.executable, "-m", "companion", "--lan", "--port", "0", "--data", sys.argv[1],
                             "--mdns-name", "table-test"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        first = proc.stdout.readline()
        result = {"first": first}
        if "ADDR" != "none":
            zc = Zeroconf(interfaces=["ADDR"], ip_version=IPVersion.V4Only)
            r = zeroconf.AddressResolver("table-test.local.")
            result["resolved"] = r.parsed_addresses() if r.request(zc, 5000) else []
            names = []
            class Listener:
                def add_service(self, z, t, n): names.append(n)
                def update_service(self, *a): pass
                def remove_service(self, *a): pass
            browser = ServiceBrowser(zc, "_http._tcp.local.", Listener())
            for _ in range(50):
                if names: break
                time.sleep(0.1)
            browser.cancel()
            info = zc.get_service_info("_http._tcp.local.", names[0], timeout=3000) if names else None
            result["service"] = [names, info.server, info.port] if info else [names]
            zc.close()
            port = first.split()[5].rsplit(":", 1)[-1].strip("/")
            result["page"] = urllib.request.urlopen(f"http://ADDR:{port}/", timeout=10).status
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    result["stderr"] = err
    print(json.dumps(result))
""")


def _in_netns(tmp_path, extra: str, addr: str) -> dict:
    unshare = shutil.which("unshare")
    if unshare is None or shutil.which("ip") is None or os.geteuid() != 0:
        pytest.skip("needs root, unshare and ip (iproute2) to make a network namespace: mDNS is tested "
                    "only there, never on this machine's network")
    script = tmp_path / "lookup.py"
    script.write_text(LOOKUP.replace("ADDR", addr))
    cmd = NETNS.format(extra=extra, python=sys.executable, script=f"{script} {tmp_path / 'data'}")
    done = subprocess.run([unshare, "-n", "sh", "-c", cmd], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    if done.returncode != 0 and "Operation not permitted" in done.stderr:
        pytest.skip(f"no network namespace here: {done.stderr.strip()[:200]}")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_lan_companion_is_found_by_its_mdns_name_in_a_network_of_its_own(tmp_path):
    # the namespace's only network: its loopback with a LAN-like address and multicast routed to it
    extra = ("ip addr add 10.77.0.1/16 dev lo && ip link set lo multicast on && "
             "ip route add 224.0.0.0/4 dev lo && ip route add default dev lo src 10.77.0.1")
    found = _in_netns(tmp_path, extra, "10.77.0.1")
    assert "http://table-test.local:" in found["first"], found
    assert found["resolved"] == ["10.77.0.1"], found
    names, server, port = found["service"]
    assert names == ["Tokyo table kit (table-test)._http._tcp.local."]
    assert server == "table-test.local." and f":{port}/" in found["first"]
    assert found["page"] == 200
    assert "warning" not in found["stderr"]


def test_no_network_is_one_warning_line_and_the_companion_still_serves(tmp_path):
    found = _in_netns(tmp_path, "", "none")
    warnings = [line for line in found["stderr"].splitlines() if "warning" in line]
    assert len(warnings) == 1 and "could not advertise table-test.local" in warnings[0], found["stderr"]
    assert "Traceback" not in found["stderr"]
    assert found["first"].startswith("Tokyo table kit companion on http://127.0.0.1:")


# ------------------------------------------------------------------- warnings in the browser


def _app(tmp_path, base: str | None, kit_base: str | None):
    out = tmp_path / "output"
    out.mkdir(parents=True, exist_ok=True)
    if kit_base:
        (out / "manifest.json").write_text(json.dumps({"files": [], "qr": [
            {"game": "shinjuku", "kind": "ward", "id": "chiyoda", "payload": f"{kit_base}/q/shinjuku/ward/chiyoda"}]}))
    return create_app({"DATA_DIR": tmp_path / "data", "OUTPUT_DIR": out, "BASE_URL": base})


@needs_chromium
def test_home_and_table_pages_warn_when_phones_cannot_open_the_links(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    from companion.testing import ServerThread
    cases = [("http://127.0.0.1:5000", "http://localhost:5000", ["http://localhost:5000", "http://127.0.0.1:5000"]),
             ("http://tokyo-kit.local:5000", "http://localhost:5000", ["http://localhost:5000"]),
             ("http://tokyo-kit.local:5000", "http://tokyo-kit.local:5000", [])]
    with sync_api.sync_playwright() as p:
        b = launch(p)
        for n, (base, kit_base, named) in enumerate(cases):
            app = _app(tmp_path / str(n), base, kit_base)
            with ServerThread(app) as server:
                ctx = b.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
                page = ctx.new_page()
                page.goto(server.url + "/")
                code = page.evaluate("""async () => (await (await fetch('/api/tables', {method: 'POST',
                    headers: {'Content-Type': 'application/json'},
                    body: JSON.stringify({game: 'shinjuku', players: ['Aki', 'Ben']})})).json()).code""")
                for path in ("/", f"/t/{code}"):
                    page.goto(server.url + path)
                    warning = page.locator("#reach-warning")
                    if not named:
                        assert warning.count() == 0, (base, kit_base, path)
                        continue
                    assert warning.is_visible(), (base, kit_base, path)
                    text = warning.inner_text()
                    assert "make run” (not LOCAL=1)" in text
                    for url in named:
                        assert url in text, (url, text)
                    assert warning.locator("li").count() == len(named)
                    assert page.evaluate("document.documentElement.scrollWidth") <= 390
                    page.screenshot(path=str(tmp_path / f"warn-{n}-{path.strip('/').replace('/', '-') or 'home'}.png"),
                                    full_page=False)
                ctx.close()
        b.close()

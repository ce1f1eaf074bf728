"""What makes the companion an installable app: its web app manifest, its icons and its service
worker (static/sw.js, served from the root so that it may look after every page)."""
from __future__ import annotations

import io
from functools import lru_cache

from flask import Blueprint, Response, abort, current_app, jsonify, send_from_directory

from generator.bundle import bundled

bp = Blueprint("app_shell", __name__)

ICON_SIZES = (192, 512)


@bp.get("/manifest.webmanifest")
def manifest():
    response = jsonify({
        "name": "Tokyo table kit", "short_name": "Tokyo kit",
        "description": "Moves, scores, the money ledger and the timers of the Tokyo board games.",
        "start_url": "/", "scope": "/", "display": "standalone",
        "background_color": "#ffffff", "theme_color": "#111111",
        "icons": [{"src": f"/icons/{n}.png", "sizes": f"{n}x{n}", "type": "image/png",
                   "purpose": "any maskable"} for n in ICON_SIZES],
    })
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/sw.js")
def service_worker():
    response = send_from_directory(current_app.static_folder, "sw.js", max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/icons/<int:size>.png")
def icon(size: int):
    if size not in ICON_SIZES:
        abort(404)
    return Response(icon_png(size), mimetype="image/png",
                    headers={"Cache-Control": "public, max-age=86400"})


@lru_cache(maxsize=None)
def icon_png(size: int) -> bytes:
    """The app's icon: 東京 in white on the header's black, with a red sun (drawn, not a file)."""
    from PIL import Image, ImageDraw, ImageFont
    image = Image.new("RGB", (size, size), "#111111")
    draw = ImageDraw.Draw(image)
    r = size * 0.2
    draw.ellipse((size * 0.64 - r, size * 0.28 - r, size * 0.64 + r, size * 0.28 + r), fill="#c8102e")
    font = ImageFont.truetype(str(bundled("assets") / "fonts" / "NotoSansJP-Kit-Bold.ttf"), int(size * 0.34))
    draw.text((size / 2, size * 0.66), "東京", font=font, fill="#ffffff", anchor="mm")
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()

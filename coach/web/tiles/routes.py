"""Tile faces: /tiles/<code>.svg for each of the 36 tile codes, and a blank (BL, TR1).

The faces are drawn by `coach.web.tiles.art` and never change within a
release, so they are rendered once and served with a long cache
lifetime and an ETag.

A tile that *is* the question ("Which tile is this?") must not give its
answer away in its address or its picture's text: `question_url` names it
/tiles/q/<opaque>.svg, an HMAC of the code under the app's secret key, and
that face is served without its title, label or code-named ids.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
from functools import lru_cache

from flask import Blueprint, Flask, Response, abort, current_app, request, url_for

from coach.notation import tiles
from coach.web.tiles.glyphs import GlyphsMissing

bp = Blueprint("tiles", __name__, url_prefix="/tiles")

MAX_AGE = 31536000  # one year


@lru_cache(maxsize=len(tiles.TABLE_CODES))
def _face(code: str) -> tuple[bytes, str]:
    from coach.web.tiles import art as tileart

    body = tileart.svg(code).encode("utf-8")
    return body, hashlib.sha256(body).hexdigest()[:20]


_NAMING = re.compile(r"<title>.*?</title>|\s(?:aria-label|data-[a-z-]+)=\"[^\"]*\"", re.S)
_ID = re.compile(r'\bid="([^"]+)"')


def question_svg(code: str) -> str:
    """The face of `code` with nothing that names it: no title or label, and
    its ids (which tileart derives from the code) renumbered."""
    from coach.web.tiles import art as tileart

    text = _NAMING.sub("", tileart.svg(code))
    for n, name in enumerate(dict.fromkeys(_ID.findall(text))):
        text = re.sub(rf'(?<=["#(]){re.escape(name)}(?=[")])', f"q{n}", text)
    return text


@lru_cache(maxsize=len(tiles.CODES))
def _question_face(code: str) -> tuple[bytes, str]:
    body = question_svg(code).encode("utf-8")
    return body, hashlib.sha256(body).hexdigest()[:20]


def _opaque(key: str, code: str) -> str:
    return hmac.new(key.encode("utf-8"), f"question-tile:{code}".encode(), hashlib.sha256).hexdigest()[:24]


@lru_cache(maxsize=8)
def _opaque_names(key: str) -> dict[str, str]:
    return {_opaque(key, code): code for code in tiles.CODES}


def question_url(code: str) -> str:
    """The address of a tile that is itself the question: the same for every
    question of that tile (so browsers cache it), telling nothing of it."""
    return url_for("tiles.question_face", name=_opaque(current_app.config["SECRET_KEY"], code))


def _send(body: bytes, etag: str) -> Response:
    response = Response(body, mimetype="image/svg+xml")
    response.set_etag(etag)
    response.cache_control.public = True
    response.cache_control.max_age = MAX_AGE
    response.cache_control.immutable = True
    response.make_conditional(request)  # it changes the response itself (a 304 or 206 where the request allows)
    return response


def _not_built(missing: GlyphsMissing) -> Response:
    logging.getLogger(__name__).warning("%s", missing)
    return Response("The tile pictures are not built: run `make assets`.\n", 503, mimetype="text/plain")


@bp.get("/<code>.svg")
def face(code: str):
    if code not in tiles.TABLE_INDEX:  # the 36 kinds, and a blank for a table that plays with them (TR1)
        abort(404)
    try:
        return _send(*_face(code))
    except GlyphsMissing as missing:
        return _not_built(missing)


@bp.get("/q/<name>.svg")
def question_face(name: str):
    code = _opaque_names(current_app.config["SECRET_KEY"]).get(name)
    if code is None:
        abort(404)
    try:
        return _send(*_question_face(code))
    except GlyphsMissing as missing:
        return _not_built(missing)


def install(app: Flask) -> None:
    app.register_blueprint(bp)
    # For partials/tiles.html: a tile that is the question is shown by its opaque address.
    app.jinja_env.globals.update(question_tile_url=question_url)

"""Tile faces: /tiles/<code>.svg for each of the 36 tile codes.

The faces are drawn by `coach.web.tileart` and never change within a
release, so they are rendered once and served with a long cache
lifetime and an ETag.
"""

from __future__ import annotations

import hashlib
import logging
from functools import lru_cache

from flask import Blueprint, Response, abort, request

from coach import tiles
from coach.web.tileglyphs import GlyphsMissing

bp = Blueprint("tiles", __name__, url_prefix="/tiles")

MAX_AGE = 31536000  # one year


@lru_cache(maxsize=len(tiles.CODES))
def _face(code: str) -> tuple[bytes, str]:
    from coach.web import tileart

    body = tileart.svg(code).encode("utf-8")
    return body, hashlib.sha256(body).hexdigest()[:20]


@bp.get("/<code>.svg")
def face(code: str):
    if code not in tiles.INDEX:
        abort(404)
    try:
        body, etag = _face(code)
    except GlyphsMissing as missing:
        logging.getLogger(__name__).warning("%s", missing)
        return Response("The tile pictures are not built: run `make assets`.\n", 503, mimetype="text/plain")
    response = Response(body, mimetype="image/svg+xml")
    response.set_etag(etag)
    response.cache_control.public = True
    response.cache_control.max_age = MAX_AGE
    response.cache_control.immutable = True
    return response.make_conditional(request)

"""Files the browser saves rather than shows (exports, cards, drill sets)."""

from __future__ import annotations

from flask import Response


def download(body: str, mimetype: str, filename: str) -> Response:
    """A file the browser saves rather than shows."""
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

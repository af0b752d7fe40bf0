"""The teacher's side of the app, under /teach: one blueprint (`base.bp`, with
what its routes share) and its routes in small modules by subject."""

from __future__ import annotations

from flask import Flask

from coach.web.teach import cards, classes, hands, reports, sets, tables  # noqa: F401 - each adds its routes to bp
from coach.web.teach.base import bp


def install(app: Flask) -> None:
    """Register the blueprint, every route module loaded (above)."""
    app.register_blueprint(bp)

"""Fixtures the web tests that call the shared parts directly (not through a client) share."""

from __future__ import annotations

import pytest


@pytest.fixture
def ctx(app):
    """The app, inside its app context: what `coach.web.shared` expects around a call."""
    with app.app_context():
        yield app


@pytest.fixture
def engine(ctx):
    """The app's database engine (the store's)."""
    return ctx.extensions["store"]

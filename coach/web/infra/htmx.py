"""Requests from htmx: it swaps a partial into the page, where a plain form
post (no JavaScript) gets the whole page back."""

from __future__ import annotations

from typing import Any

from flask import render_template, request


def is_htmx() -> bool:
    """The request came from htmx (its HX-Request header) for a partial. A boosted
    request (HX-Boosted: a form posted by htmx with hx-boost, as "Seat the class" is,
    so its button can be disabled while it posts) stands for a plain post and is
    answered the whole page, error pages included: htmx swaps its body in."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def render(page: str, partial: str, **context: Any) -> str:
    """The partial for htmx, else the whole page, from the same context."""
    return render_template(partial if is_htmx() else page, **context)

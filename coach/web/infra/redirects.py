"""Where to go back to after a form: only a path on this site, never another site."""

from __future__ import annotations

from urllib.parse import urlsplit


def safe_next(target: str | None) -> str | None:
    """A path on this site to go back to after signing in; anything else is ignored."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    if any(ord(ch) < 32 for ch in target):
        return None
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc else None

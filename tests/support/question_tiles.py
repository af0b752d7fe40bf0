"""The tile that is itself the question: its opaque address, and (in a browser)
whether the picture shown is that tile's face."""

from __future__ import annotations


def question_tile_src(app, code: str) -> str:
    """The opaque address a page gives the tile that is itself the question."""
    from coach.web.tiles.routes import question_url

    with app.test_request_context():
        return question_url(code)


def shows_question_tile(page, code: str) -> bool:
    """In a browser: the question's tile picture is `code`'s face, though its address does not say so."""
    from coach.web.tiles.routes import question_svg

    src = page.locator(".felt img").get_attribute("src") or ""
    return "/tiles/q/" in src and page.request.get(src).text() == question_svg(code)

"""Small builders shared by the tests."""

from __future__ import annotations

from coach import tiles
from coach.card import Card, parse_card
from coach.tiles_away import Holding, parse_exposure


def make_card(*lines: tuple, name: str = "Test Card") -> Card:
    """A card from (id, pattern, value[, concealed[, numbers]]) tuples, one section."""
    hands = []
    for spec in lines:
        line_id, pattern, value, *rest = spec
        concealed = rest[0] if rest else False
        numbers = rest[1] if len(rest) > 1 else "fixed"
        hands.append(
            f'      - {{id: "{line_id}", pattern: "{pattern}", value: {value}, '
            f"concealed: {str(concealed).lower()}, numbers: {numbers}}}"
        )
    text = f"name: {name}\nsections:\n  - name: Test\n    hands:\n" + "\n".join(hands) + "\n"
    return parse_card(text)


def holding(rack: str, *exposed: str) -> Holding:
    return Holding.of(tiles.parse(rack), [parse_exposure(e, n) for n, e in enumerate(exposed, 1)])


def question_tile_src(app, code: str) -> str:
    """The opaque address a page gives the tile that is itself the question."""
    from coach.web.tiles import question_url

    with app.test_request_context():
        return question_url(code)


def shows_question_tile(page, code: str) -> bool:
    """In a browser: the question's tile picture is `code`'s face, though its address does not say so."""
    from coach.web.tiles import question_svg

    src = page.locator(".felt img").get_attribute("src") or ""
    return "/tiles/q/" in src and page.request.get(src).text() == question_svg(code)

"""The house card, read once for every test module (a Card is frozen: sharing
it is safe), and small builders of cards and holdings."""

from __future__ import annotations

from coach.notation import tiles
from coach.notation.card import Card, house_card, parse_card
from coach.reading.tiles_away import Holding, parse_exposure

CARD = house_card()


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



"""Finding card lines by words (coach.notation.line_search): the index the card's search box uses."""

from __future__ import annotations

import pytest

from coach.notation.line_search import line_words, matches, search
from tests.support.cards import CARD, make_card

INDEX = [(line.id, line_words(line)) for line in CARD.lines]


def found(query: str, card=None) -> set[str]:
    index = INDEX if card is None else [(line.id, line_words(line)) for line in card.lines]
    return set(search(index, query))


def test_a_pair_of_north_is_found_by_its_words():
    lines = found("pair of north")
    assert lines == {line.id for line in CARD.lines if " NN " in f" {line.pattern} "}
    assert lines and found("Pair of North winds") <= lines


def test_group_words_find_groups_of_that_size():
    quints = found("quint")
    assert quints == {line.id for line in CARD.lines if any(g.size == 5 for g in line.readings[0].groups)}
    dragons = found("kong of dragons")
    assert dragons
    for line_id in dragons:
        pattern = CARD.line(line_id).pattern.split()
        assert any(len(w.rstrip("abc")) == 4 and set(w.rstrip("abc")) <= set("DRG0") for w in pattern), pattern


def test_flowers_suits_concealed_and_numbers():
    assert found("flowers") == {line.id for line in CARD.lines if "F" in line.pattern}
    assert found("concealed") == {line.id for line in CARD.lines if line.concealed}
    three = found("any 3 suits")
    assert three and all(len({w[-1] for w in CARD.line(i).pattern.split() if w[-1] in "abc"}) == 3 for i in three)
    fives = found("5")
    assert "ODD-1" in fives or any("5" in CARD.line(i).pattern for i in fives)
    assert not any(line_id.endswith("-5") and "5" not in CARD.line(line_id).pattern
                   and CARD.line(line_id).numbers == "fixed" for line_id in fives)  # not the id's number


def test_a_made_up_card_line_reads_as_its_words():
    card = make_card(("T-1", "NN EEE WWW SSSS 1a 1b", 25, True), ("T-2", "FF 1111a 2222b 3333c", 30, False, "any"))
    assert found("pair of north", card) == {"T-1"}
    assert found("kong of south", card) == {"T-1"}
    assert found("flowers", card) == {"T-2"}
    assert found("consecutive", card) == {"T-2"}
    assert found("any 3 suits", card) == {"T-2"}
    assert found("concealed", card) == {"T-1"} and found("exposed", card) == {"T-2"}
    assert found("7s", card) == {"T-2"}  # any consecutive numbers: 5-6-7 is one of its runs
    assert found("south kong", card) == {"T-1"}  # no phrase matches: every word does


@pytest.mark.parametrize("query", ["", "   "])
def test_an_empty_search_shows_everything(query):
    assert matches(INDEX[0][1], query)
    assert len(found(query)) == len(CARD.lines)


def test_nothing_is_found_for_nonsense():
    assert found("zzzz") == set()

"""The house card looks like a real card (issue 12 point 7).

On the League's cards of 2017-2025, 4-16% of lines cannot be made without
jokers, no line has a sextet and 4-16% of lines have a quint. The shares
here are computed from the card itself, so any edit of the card is checked.
"""

from collections import Counter

from coach.notation import tiles
from coach.notation.card import Line, Reading, house_card
from tests.support.cards import make_card

REAL_CARD_SHARE = (0.04, 0.16)


def natural_reading(reading: Reading) -> bool:
    """A real set's naturals alone make it: no group of five or more (the
    measure taken on the League's cards, flowers included) and no more of
    one tile across the reading than a set holds."""
    count: Counter[int] = Counter()
    for group in reading.groups:
        count[group.tile] += group.size
    return all(n <= tiles.COPIES[tile] for tile, n in count.items()) and all(
        group.size <= 4 for group in reading.groups
    )


def needs_jokers(line: Line) -> bool:
    return not any(natural_reading(r) for r in line.readings)


def has_group_of(line: Line, size: int) -> bool:
    return any(g.size == size for r in line.readings for g in r.groups)


def shares(lines: tuple[Line, ...]) -> dict[str, float]:
    total = len(lines)
    return {
        "needs jokers": sum(needs_jokers(line) for line in lines) / total,
        "sextet": sum(has_group_of(line, 6) for line in lines) / total,
        "quint": sum(has_group_of(line, 5) for line in lines) / total,
    }


def test_shares_are_counted_by_what_a_set_can_make():
    card = make_card(
        ("PLAIN", "FF 2026a 2222b 2222c", 25),
        ("QUINT", "11111a 22b 3333c FFF", 40),
        ("SEXTET", "NNN 11a 222a 333333b", 35),
        ("MANY", "SSSS NEWS 1111a 11b", 30),  # five Souths in all: needs a joker
        ("FLOWERS", "FFFFFF 1111a 2222b", 30),  # eight flowers in a set, but a sextet is still a sextet
    )
    assert [needs_jokers(line) for line in card.lines] == [False, True, True, True, True]
    assert [has_group_of(line, 5) for line in card.lines] == [False, True, False, False, False]
    assert [has_group_of(line, 6) for line in card.lines] == [False, False, True, False, True]
    assert shares(card.lines) == {"needs jokers": 0.8, "sextet": 0.4, "quint": 0.2}


def test_house_card_shares_are_those_of_real_cards():
    lines = house_card().lines
    share = shares(lines)
    low, high = REAL_CARD_SHARE
    assert low <= share["needs jokers"] <= high, share
    assert share["sextet"] == 0, share
    assert low <= share["quint"] <= high, share


def test_house_card_has_ten_sections_and_a_real_cards_length():
    card = house_card()
    assert len(card.sections) == 10
    assert 60 <= len(card.lines) <= 65
    assert all(len(section.lines) >= 4 for section in card.sections)


def test_house_card_values_and_concealed_flags_are_plausible():
    lines = house_card().lines
    usual = [line for line in lines if 25 <= line.value <= 35]
    assert len(usual) >= 0.6 * len(lines)
    concealed = [line for line in lines if line.concealed and not line.singles_and_pairs]
    assert len(concealed) >= 5 and all(30 <= line.value <= 50 for line in concealed)
    singles_and_pairs = [line for line in lines if line.singles_and_pairs]
    assert singles_and_pairs and all(line.concealed and line.value >= 50 for line in singles_and_pairs)
    assert all(not line.concealed or line.value >= 30 for line in lines)


def test_house_card_uses_every_notation_feature_the_parser_reads():
    lines = house_card().lines
    tokens = [t for line in lines for form in line.forms for t in form.split()]
    assert any(len({t[-1] for t in line.pattern.split() if t[-1] in "abc"}) == 3 for line in lines)
    assert any("D" in t and t[-1] in "abc" for t in tokens)  # dragon that goes with the suit
    assert any("0" in t and t[-1] in "abc" for t in tokens)  # Soap as zero in a year
    assert "000" in tokens  # Soap named outright
    assert any(t in ("+", "=") for t in tokens)  # decoration
    assert {"fixed", "any"} <= {line.numbers for line in lines if isinstance(line.numbers, str)}
    assert any(isinstance(line.numbers, tuple) for line in lines)
    sizes = {g.size for line in lines for r in line.readings for g in r.groups}
    assert {1, 2, 3, 4, 5} <= sizes
    kinds = {tiles.CODES[g.tile] for line in lines for g in line.readings[0].groups}
    assert {"F", "N", "E", "W", "S", "RD", "GD", "WD"} <= kinds
    assert any(line.concealed for line in lines) and any(not line.concealed for line in lines)


def test_house_card_uses_forms_suits_and_only_as_a_real_card_does():
    card = house_card()
    assert len(card.lines) == 61 and sum(len(line.readings) for line in card.lines) == 979
    any_dragon = card.line("WD-1")  # one printed line for a pung of any dragon
    assert any_dragon.pattern == "EEE DDD WWWW FFFF" and len(any_dragon.forms) == 3
    assert {g.tile for r in any_dragon.readings for g in r.groups if g.size == 3} == {
        tiles.INDEX[code] for code in ("E", "RD", "GD", "WD")
    }
    any_wind = card.line("WD-6")
    assert any_wind.pattern == "SSS NEWS DDDD FFF" and len(any_wind.forms) == 4
    assert len(any_wind.readings) == 4 * 3  # a wind pung with a dragon kong of each suit
    one_or_two = card.line("RUN-6")
    assert one_or_two.suits == (1, 2)
    assert {len({suit for _, suit in r.suits}) for r in one_or_two.readings} == {1, 2}
    bams = card.line("ADD-4")
    assert bams.only == ("B",) and [r.suits for r in bams.readings] == [(("a", "B"),)]
    assert sum(len(line.forms) > 1 for line in card.lines) == 2


SEXTET_CARD = (
    ("S-1", "111111a 11b 111c RRR", 40, False, "any"),
    ("S-2", "FF 2026a 22b 666666c", 35),
    ("K-1", "FFFF 1111a 22b 3333c", 25, False, "any"),
    ("SS", "SSSSSS NEWS DDDDa", 40),
)


def test_a_teachers_card_with_sextets_is_still_drilled_for_them():
    # The house card has none; a teacher's card may, and the drills keep that path.
    from drills import calls, jokers

    card = make_card(*SEXTET_CARD)
    found = 0
    for seed in range(120):
        q = calls.generate(seed, 1, card)
        picks = [q.key["best"], *q.key.get("also", [])]
        if "Yes, for a sextet" in picks:
            found += 1
            assert calls.grade(q, "Yes, for a sextet").correct
    assert found >= 3
    for level in (1, 2):
        sextets = [jokers.generate(seed, level, card) for seed in range(30)]
        assert any(len(q.rack) == 6 and "J" in q.rack and q.key["rules"] == ["J1"] for q in sextets)

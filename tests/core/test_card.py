"""The card file format (docs/card-format.md "A card file", "Pattern tokens", "Numbers")."""

import textwrap

import pytest

from coach.notation import tiles
from coach.notation.card import CardError, Group, completable, house_card, load_card, parse_card

T = tiles.INDEX


def card_text(*hands: str, section: str = "Test") -> str:
    body = "\n".join(textwrap.indent(textwrap.dedent(h).strip(), "      ") for h in hands)
    return f"name: Test Card\nyear: 2026\nsections:\n  - name: \"{section}\"\n    hands:\n{body}\n"


def one_line(pattern: str, **extra: object):
    fields = "".join(f"\n  {k}: {v}" for k, v in extra.items())
    card = parse_card(card_text(f'- id: "L1"\n  pattern: "{pattern}"\n  value: 25{fields}'))
    return card.lines[0]


def groups_of(reading):
    return sorted((tiles.CODES[g.tile], g.size) for g in reading.groups)


def problem(text: str) -> str:
    with pytest.raises(CardError) as error:
        parse_card(text)
    return str(error.value)


# -- the file ---------------------------------------------------------------


def test_required_fields_and_defaults():
    line = one_line("FF 2026a 2222b 2222c")
    assert line.id == "L1" and line.value == 25 and line.section == "Test"
    assert line.concealed is False and line.numbers == "fixed" and line.note == ""


def test_card_name_year_and_sections():
    card = parse_card(card_text('- id: "A"\n  pattern: "FF 2026a 2222b 2222c"\n  value: 25'))
    assert card.name == "Test Card" and card.year == 2026
    assert [s.name for s in card.sections] == ["Test"]
    assert card.line("A").id == "A"
    with pytest.raises(KeyError, match="no line"):
        card.line("B")


@pytest.mark.parametrize("missing", ["id", "pattern", "value"])
def test_each_required_key_is_required(missing):
    fields = {"id": '"A"', "pattern": '"FF 2026a 2222b 2222c"', "value": "25"}
    del fields[missing]
    hand = "- " + "\n  ".join(f"{k}: {v}" for k, v in fields.items())
    assert f'"{missing}" is missing' in problem(card_text(hand))


def test_unknown_hand_key_names_section_hand_and_key():
    message = problem(card_text('- id: "2026-9"\n  pattern: "FF 2026a 2222b 2222c"\n  value: 25\n  colour: red'))
    assert 'section "Test"' in message and 'hand "2026-9"' in message and 'unknown key "colour"' in message
    assert "line 9" in message  # the line of the unknown key itself, not where the hand starts


def test_a_field_problem_is_reported_at_the_fields_own_line():
    text = card_text('- id: "2026-9"\n  pattern: "FF 2026a 2222b"\n  value: 25')
    assert "line 7" in problem(text) and "has 10 tiles" in problem(text)
    text = card_text('- id: "2026-9"\n  pattern: "FF 2026a 2222b 2222c"\n  value: 0')
    assert "line 8" in problem(text) and '"value" must be a positive whole number' in problem(text)
    text = card_text('- id: "2026-9"\n  pattern: "FF 2026a 2222b 2222c"\n  value: 25\n  numbers: sometimes')
    assert "line 9" in problem(text) and '"numbers"' in problem(text)


def test_unknown_top_and_section_keys():
    assert 'unknown key "author"' in problem("author: me\n" + card_text('- id: "A"\n  pattern: "FF 2026a 2222b 2222c"\n  value: 25'))
    text = card_text('- id: "A"\n  pattern: "FF 2026a 2222b 2222c"\n  value: 25').replace("    hands:", "    colour: red\n    hands:")
    assert 'unknown key "colour" (allowed: name, hands)' in problem(text)


def test_duplicate_ids_are_errors_even_across_sections():
    text = (
        "name: T\nsections:\n"
        '  - name: One\n    hands:\n      - {id: "X", pattern: "FF 2026a 2222b 2222c", value: 25}\n'
        '  - name: Two\n    hands:\n      - {id: "X", pattern: "FF 2026a 2222b 2222c", value: 30}\n'
    )
    message = problem(text)
    assert 'section "Two", hand "X": duplicate id' in message


def test_pattern_not_14_tiles_names_the_count():
    message = problem(card_text('- id: "SHORT"\n  pattern: "FF 2026a 2222b 222c"\n  value: 25'))
    assert 'hand "SHORT"' in message and "has 13 tiles, not 14" in message


@pytest.mark.parametrize(
    "pattern, words",
    [
        ("FF 2026a 2222b 2222d", "needs a suit letter"),  # "d" is no suit letter: read as D, a dragon with no suit
        ("FF 2026a 2222b 2222X", 'unknown symbol "X"'),
        ("FF 2026 2222b 2222c", "needs a suit letter"),
        ("FF 2026a 2222b DDDD", "needs a suit letter"),
        ("FFa 2026a 2222b 2222c", 'suit letter "a" has no number or D'),
        ("FFFFFFF 2026a 111b", "group of 7"),
    ],
)
def test_bad_symbols_and_suit_letters(pattern, words):
    assert words in problem(card_text(f'- id: "B"\n  pattern: "{pattern}"\n  value: 25'))


def test_a_pattern_no_set_can_complete():
    # Five pairs of 1 Dot need ten naturals; a set has four and jokers never fill pairs (J2).
    message = problem(card_text('- id: "NO"\n  pattern: "11a 11a 11a 11a 11a NEWS"\n  value: 25'))
    assert 'hand "NO"' in message and "no tile set can complete it" in message
    # Nine jokers' worth of shortfall is also impossible: only eight jokers exist.
    assert not completable((Group(T["1D"], 6), Group(T["1D"], 6), Group(T["1D"], 2)))
    assert completable((Group(T["F"], 6), Group(T["1D"], 6), Group(T["2D"], 2)))


def test_every_problem_is_listed():
    text = card_text(
        '- id: "A"\n  pattern: "FF 2026a"\n  value: 25',
        '- id: "B"\n  pattern: "FF 2026a 2222b 2222c"\n  value: -5',
        '- id: "C"\n  pattern: "FF 2026a 2222b 2222c"\n  value: 25\n  numbers: sometimes',
    )
    with pytest.raises(CardError) as error:
        parse_card(text)
    assert len(error.value.problems) == 3
    assert "(and 2 more problems)" in str(error.value)


def test_bad_yaml_names_the_line():
    assert "line 2: a [ is opened and never closed" in problem("name: T\nsections: [\n")


def test_not_a_mapping():
    assert "a card is a mapping" in problem("- just\n- a list\n")


def test_wrong_types_are_named():
    assert '"value" must be a positive whole number' in problem(card_text('- {id: A, pattern: "FF 2026a 2222b 2222c", value: "lots"}'))
    assert '"concealed" must be true or false' in problem(card_text('- {id: A, pattern: "FF 2026a 2222b 2222c", value: 25, concealed: maybe}'))
    assert '"numbers" must be fixed, any or a list' in problem(card_text('- {id: A, pattern: "FF 2026a 2222b 2222c", value: 25, numbers: [1, true]}'))


def test_missing_file_is_a_card_error(tmp_path):
    with pytest.raises(CardError, match="cannot read the card file"):
        load_card(tmp_path / "nope.yaml")


# -- pattern tokens ---------------------------------------------------------


def test_decoration_tokens_are_ignored():
    line = one_line("11a + 66a = 77a FFFF 5555b")
    assert groups_of(line.readings[0]) == sorted([("1D", 2), ("6D", 2), ("7D", 2), ("F", 4), ("5B", 4)])
    assert one_line("FF - 2026a x 2222b = 2222c + ").readings  # - and x decorate too


def test_different_letters_are_different_suits():
    line = one_line("222a 444b FFFF NNNN")
    assert len(line.readings) == 6
    for reading in line.readings:
        suits = dict(reading.suits)
        assert suits["a"] != suits["b"]


def test_same_letter_same_suit():
    line = one_line("222a 444a FFFF NNNN")
    assert len(line.readings) == 3
    for reading in line.readings:
        two, four = reading.groups[0].tile, reading.groups[1].tile
        assert tiles.suit_of(two) == tiles.suit_of(four)


def test_D_is_the_dragon_of_the_token_suit():
    line = one_line("DDDa 111a FFFF NNNN")
    dragons = {tiles.suit_of(r.groups[1].tile): tiles.CODES[r.groups[0].tile] for r in line.readings}
    assert dragons == {"D": "WD", "B": "GD", "C": "RD"}


def test_R_G_and_winds_are_named_outright():
    line = one_line("RRR GGG NNNN EEEE")
    assert len(line.readings) == 1
    assert groups_of(line.readings[0]) == [("E", 4), ("GD", 3), ("N", 4), ("RD", 3)]


def test_a_token_of_identical_tiles_is_one_group():
    sizes = {g.size for g in one_line("FF 222a 3333a 44444a").readings[0].groups}
    assert sizes == {2, 3, 4, 5}
    sextet = one_line("FFFFFF 2222a 3333a").readings[0].groups[0]
    assert (sextet.size, sextet.kind) == (6, "sextet")


def test_2026_is_four_singles_not_a_group():
    reading = one_line("FF 2026a 2222b 2222c").readings[0]
    singles = [g for g in reading.groups if g.size == 1]
    assert [tiles.CODES[g.tile] for g in singles] == ["2D", "WD", "2D", "6D"]


def test_NEWS_is_four_singles():
    reading = one_line("NEWS 1111a 2222a FF").readings[0]
    assert [(tiles.CODES[g.tile], g.size) for g in reading.groups[:4]] == [("N", 1), ("E", 1), ("W", 1), ("S", 1)]


def test_double_pair_is_two_pairs_not_a_kong():
    reading = one_line("11a 11a 2222b 3333c FF").readings[0]
    ones = [g for g in reading.groups if g.tile == T["1D"]]
    assert [g.size for g in ones] == [2, 2]


def test_lenient_case_in_patterns():
    assert one_line("ff 2026A 2222b 2222C").readings[0].groups == one_line("FF 2026a 2222b 2222c").readings[0].groups


# -- numbers ----------------------------------------------------------------


def test_fixed_numbers_mean_themselves():
    line = one_line("FF 2026a 2222b 2222c")
    assert {r.shift for r in line.readings} == {0}
    # Three suits for a; b and c are both kongs of 2s, so swapping them is the same hand.
    assert len(line.readings) == 3


def test_any_shifts_every_digit_within_1_to_9():
    line = one_line("11a 222a 3333a 444a 55a", numbers="any")  # 5 consecutive numbers
    assert sorted({r.shift for r in line.readings}) == [0, 1, 2, 3, 4]
    assert len(line.readings) == 5 * 3
    top = [r for r in line.readings if r.shift == 4][0]
    assert max(tiles.number_of(g.tile) for g in top.groups) == 9


def test_any_like_numbers_counts_identical_hands_once():
    # Permuting three suits over three identical kongs gives the same hand.
    line = one_line("1111a 1111b 1111c FF", numbers="any")
    assert len(line.readings) == 9


def test_a_shift_list_allows_only_those_shifts():
    line = one_line("11a 33a 555b 777b 99c FF", numbers="[0]")
    assert {r.shift for r in line.readings} == {0}
    line = one_line("111a 333a 5555b FFFF", numbers="[0, 2, 4]")
    assert sorted({r.shift for r in line.readings}) == [0, 2, 4]


def test_a_shift_list_out_of_range_is_an_error():
    message = problem(card_text('- {id: "S", pattern: "111a 333a 5555b FFFF", value: 25, numbers: [0, 5]}'))
    assert 'hand "S"' in message and "shift 5 moves a number to 10" in message


def test_soap_as_zero_never_shifts():
    line = one_line("FF 2026a 2222b 2222c", numbers="any")
    for reading in line.readings:
        assert T["WD"] in [g.tile for g in reading.groups]
    assert sorted({r.shift for r in line.readings}) == [-1, 0, 1, 2, 3]


def test_numbers_any_on_a_line_without_digits_reads_once():
    assert len(one_line("NNNN EEEE WWW SSS", numbers="any").readings) == 1


def test_singles_and_pairs_is_structural():
    assert one_line("NEWS 11a 22a 33b 44b FF").singles_and_pairs
    assert not one_line("NEWS 111a 22a 33b 4b FF").singles_and_pairs


# -- the house card ---------------------------------------------------------

SECTIONS = ["2026", "2468", "Any Like Numbers", "Addition", "Quints", "Consecutive Run",
            "13579", "Winds & Dragons", "369", "Singles & Pairs"]


def test_house_card_has_the_usual_sections_and_50_lines():
    card = house_card()
    assert [s.name for s in card.sections] == SECTIONS
    assert len(card.lines) >= 50
    assert all(25 <= line.value <= 75 for line in card.lines)
    assert {line.value for line in card.lines} >= {25, 75}
    assert any(line.concealed for line in card.lines)


def test_house_card_every_reading_is_14_tiles_from_a_real_set():
    for line in house_card().lines:
        assert line.readings, line.id
        for reading in line.readings:
            assert sum(g.size for g in reading.groups) == 14, line.id
            assert completable(reading.groups), line.id


def test_house_card_uses_every_notation_feature():
    lines = house_card().lines
    patterns = " ".join(line.pattern for line in lines)
    assert any(len({t[-1] for t in line.pattern.split() if t[-1] in "abc"}) == 3 for line in lines)
    assert "Da" in patterns or "Db" in patterns  # matched dragons
    assert "2026a" in patterns  # Soap as zero
    assert any(line.numbers == "any" for line in lines)
    assert any(isinstance(line.numbers, tuple) for line in lines)
    sizes = {g.size for line in lines for g in line.readings[0].groups}
    # Quints; no sextet, as on real cards (issue 12): a teacher's card may have one, see below.
    assert 5 in sizes and 6 not in sizes
    kinds = {tiles.CODES[g.tile] for line in lines for g in line.readings[0].groups}
    assert {"F", "N", "E", "W", "S", "RD", "GD"} <= kinds
    assert "+" in patterns and "=" in patterns


def test_a_sextet_token_is_one_group_of_six():
    line = one_line("NNN 11a 222a 333333b")
    assert sorted(g.size for g in line.readings[0].groups) == [2, 3, 3, 6]
    assert {g.kind for g in line.readings[0].groups if g.size == 6} == {"sextet"}


def test_duplicate_id_is_reported_even_when_the_first_hand_is_bad():
    text = card_text(
        '- {id: "X", pattern: "FF 2026a", value: 25}',
        '- {id: "X", pattern: "FF 2026a 2222b 2222c", value: 25}',
    )
    with pytest.raises(CardError) as error:
        parse_card(text)
    assert any("duplicate id" in p for p in error.value.problems)
    assert any("has 6 tiles, not 14" in p for p in error.value.problems)


def test_a_token_is_a_group_when_its_tiles_are_the_same_tile():
    # "D0a" read with Dots is two Soaps: a pair. With Bams it is Green Dragon and Soap: two singles.
    line = one_line("D0a 1111a 2222a NNNN")
    by_suit = {dict(r.suits)["a"]: r for r in line.readings}
    assert [(tiles.CODES[g.tile], g.size) for g in by_suit["D"].parts[0].groups] == [("WD", 2)]
    assert [(tiles.CODES[g.tile], g.size) for g in by_suit["B"].parts[0].groups] == [("GD", 1), ("WD", 1)]

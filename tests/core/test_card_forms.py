"""The card format's new parts (issue 14): `pattern` as a list of forms,
`display`, `suits` and `only` (docs/card-format.md). Each key's readings are
checked against hands written out by hand; a line of forms is checked to
be as near as the nearest of its forms; every problem is reported at its
line; an old card reads exactly as before."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import drills
from coach import cli
from coach.notation import tiles
from coach.notation.card import MAX_FORMS, CardError, Line, load_card, parse_card
from coach.reading.analysis import analyze
from coach.reading.tiles_away import OUT_OF_REACH, Holding, fill, tables_for
from coach.rules.mahjong import score
from tests.support.cards import holding
from tests.support.examples import examples
from tests.support.paths import DATA

FORMS_CARD = DATA / "forms-card.yaml"
OLD_HOUSE_CARD = DATA / "house-2026-before-forms.yaml"


def card_of(*hands: str, year: int | None = None) -> Card:  # noqa: F821 - a string annotation only
    """A one-section card from hand mappings written in YAML flow style."""
    body = "\n".join(f"      - {hand}" for hand in hands)
    top = f"year: {year}\n" if year else ""
    return parse_card(f"name: T\n{top}sections:\n  - name: S\n    hands:\n{body}\n")


def one_line(hand: str) -> Line:
    return card_of(hand).lines[0]


def suits_read(line: Line) -> set[tuple[str, ...]]:
    """Each reading's suits, letter by letter in a, b, c order."""
    return {tuple(suit for _, suit in reading.suits) for reading in line.readings}


def hands(line: Line) -> set[tuple[tuple[int, int], ...]]:
    """The line's concrete hands, as sorted (tile, size) groups."""
    return {tuple(sorted((g.tile, g.size) for g in r.groups)) for r in line.readings}


def codes(line: Line) -> set[str]:
    return {tiles.CODES[g.tile] for r in line.readings for g in r.groups}


# -- `suits` -------------------------------------------------------------------


def test_suits_default_letters_are_different_suits():
    line = one_line('{id: A, pattern: "111a 222a 333b 444b NN", value: 25}')
    assert suits_read(line) == {("D", "B"), ("D", "C"), ("B", "D"), ("B", "C"), ("C", "D"), ("C", "B")}
    assert line.suits is None and line.only is None


def test_suits_one_or_two_reads_both_ways():
    line = one_line('{id: A, pattern: "111a 222a 333b 444b NN", value: 25, suits: [1, 2]}')
    one_suit = {("D", "D"), ("B", "B"), ("C", "C")}
    two_suits = {("D", "B"), ("D", "C"), ("B", "D"), ("B", "C"), ("C", "D"), ("C", "B")}
    assert suits_read(line) == one_suit | two_suits
    assert line.suits == (1, 2)
    all_dots = tuple(sorted([(tiles.INDEX[f"{n}D"], 3) for n in (1, 2, 3, 4)] + [(tiles.INDEX["N"], 2)]))
    assert all_dots in hands(line)


def test_suits_one_only_reads_every_letter_alike():
    line = one_line('{id: A, pattern: "111a 222a 333b 444b NN", value: 25, suits: [1]}')
    assert suits_read(line) == {("D", "D"), ("B", "B"), ("C", "C")}


def test_suits_one_or_three_skips_two_suits():
    line = one_line('{id: A, pattern: "NN 11a 222b 3333c SSS", value: 30, suits: [1, 3]}')
    expected = {("D",) * 3, ("B",) * 3, ("C",) * 3} | {
        ("D", "B", "C"), ("D", "C", "B"), ("B", "D", "C"), ("B", "C", "D"), ("C", "D", "B"), ("C", "B", "D")
    }
    assert suits_read(line) == expected
    assert len(line.readings) == 9


def test_suits_count_beyond_a_forms_letters_gives_that_form_nothing():
    line = one_line('{id: A, pattern: ["NN 11a 222b 3333c SSS", "NN 11a 222a 3333a SSS"], value: 30, suits: [3]}')
    assert {r.form for r in line.readings} == {0}
    assert len(line.readings) == 6


# -- `only` --------------------------------------------------------------------


def test_only_bams_and_craks_never_reads_dots():
    line = one_line('{id: A, pattern: "2026a DDa 2026b DDDb F", value: 30, only: [B, C]}')
    assert line.only == ("B", "C")
    assert suits_read(line) == {("B", "C"), ("C", "B")}
    dots = {tiles.CODES[tiles.suited(n, "D")] for n in range(1, 10)}
    assert not codes(line) & dots
    # Soap (0) follows no suit: a year's 0 is always Soap, so it stays.
    assert codes(line) == {"F", "2B", "6B", "2C", "6C", "WD", "GD", "RD"}


def test_only_with_suits_reads_each_named_suit_alone_or_together():
    line = one_line('{id: A, pattern: "111a 222a 333b 444b NN", value: 25, suits: [1, 2], only: [bams, C]}')
    assert suits_read(line) == {("B", "B"), ("C", "C"), ("B", "C"), ("C", "B")}


def test_only_one_suit_reads_that_suit():
    line = one_line('{id: A, pattern: "NEWS 2026a 2026a RR", value: 50, only: [C]}')
    assert suits_read(line) == {("C",)}
    assert codes(line) == {"N", "E", "W", "S", "2C", "6C", "WD", "RD"}


# -- forms and `display` -------------------------------------------------------


def test_forms_union_is_the_union_of_the_forms_lines():
    forms = ["FF 2468a 2222b 2222c", "FF 2468a 4444b 4444c", "FF 2468a 6666b 6666c"]
    line = one_line(f'{{id: A, display: "FF 2468 2222 2222", pattern: {forms}, value: 30}}'.replace("'", '"'))
    separate = [one_line(f'{{id: A, pattern: "{form}", value: 30}}') for form in forms]
    assert hands(line) == set().union(*(hands(s) for s in separate))
    assert len(line.readings) == sum(len(s.readings) for s in separate)  # no two forms share a hand here
    assert line.pattern == "FF 2468 2222 2222" and line.forms == tuple(forms)
    for reading in line.readings:
        assert tuple(sorted((g.tile, g.size) for g in reading.groups)) in hands(separate[reading.form])
        assert line.form_of(reading) == forms[reading.form]


def test_forms_share_a_hand_once_named_by_the_first_form():
    line = one_line('{id: A, pattern: ["1111a 2222b 3333c FF", "3333a 2222b 1111c FF"], value: 25}')
    assert {r.form for r in line.readings} == {0}
    assert len(line.readings) == 6


def test_display_defaults_to_the_first_form():
    line = one_line('{id: A, pattern: ["FF  2468a 2222b 2222c", "FF 2468a 4444b 4444c"], value: 30}')
    assert line.pattern == "FF 2468a 2222b 2222c"
    assert line.read_as(line.readings[0]) == "read as FF 2468a 2222b 2222c"
    plain = one_line('{id: A, pattern: "FF 2468a 2222b 2222c", value: 30}')
    assert plain.forms == (plain.pattern,) and plain.read_as(plain.readings[0]) == ""


def test_a_number_shift_is_bounded_by_the_form_it_reads():
    line = one_line('{id: A, pattern: ["123456a 11b FFFF EE", "123456a 66b FFFF EE"], value: 35, numbers: any}')
    assert {r.shift for r in line.readings} == {0, 1, 2, 3}
    pairs = {g.tile for r in line.readings for g in r.groups if g.size == 2 and tiles.number_of(g.tile)}
    assert {tiles.number_of(t) for t in pairs} == {1, 2, 3, 4, 6, 7, 8, 9}


def test_a_form_no_set_can_make_is_dropped():
    line = one_line('{id: A, pattern: ["NEWS NEWS NEWS NN", "NEWS 1111a 2222b FF"], value: 25}')
    assert {r.form for r in line.readings} == {1}
    with pytest.raises(CardError, match="no tile set can complete it"):
        card_of('{id: A, pattern: ["NEWS NEWS NEWS NN", "NEWS NEWS NEWS EE"], value: 25}')


def test_singles_and_pairs_looks_at_every_form():
    pairs = one_line('{id: A, pattern: ["NN EE WW SS 11a 22a 33a", "NN EE WW SS 44a 55a 66a"], value: 50}')
    mixed = one_line('{id: A, pattern: ["NN EE WW SS 11a 22a 33a", "NNN EEE WW SS 11a 22a"], value: 50}')
    assert pairs.singles_and_pairs and not pairs.takes_jokers
    assert not mixed.singles_and_pairs and mixed.has_group(3)


# -- a verdict names the form ----------------------------------------------------


LIKE_KONGS = '{id: K, display: "FF 2468 2222 2222", pattern: ["FF 2468a 2222b 2222c", "FF 2468a 4444b 4444c"], value: 30}'


def test_payment_names_the_form_the_hand_was_read_as():
    card = card_of(LIKE_KONGS)
    payment = score(card, holding("F F 2D 4D 6D 8D 4B 4B 4B 4B 4C 4C 4C 4C"), "self")
    assert payment.line is card.lines[0] and payment.total == 6 * 30 * 2
    assert "read as FF 2468a 4444b 4444c" in payment.explanation[0]


def test_analysis_json_names_the_form():
    card = card_of(LIKE_KONGS)
    near = analyze(card, holding("F F 2D 4D 6D 8D 4B 4B 4B 4B 4C 4C 4C")).result("K")
    assert near.distance == 1
    assert near.to_json()["pattern"] == "FF 2468 2222 2222"
    assert near.to_json()["reading"]["form"] == "FF 2468a 4444b 4444c"
    # Forms are never mixed: kongs of 4s and of 2s make neither form.
    mixed = analyze(card, holding("F F 2D 4D 6D 8D 4B 4B 4B 4B 2C 2C 2C")).result("K")
    assert mixed.distance == 4 and mixed.to_json()["reading"]["form"] == "FF 2468a 4444b 4444c"


# -- a line of forms is as near as its nearest form (property) --------------------

FORM_POOL = (
    "FF 2468a 2222b 2222c",
    "FF 2468a 4444b 4444c",
    "FF 2468a 8888b 8888c",
    "112233a DDDa NNNN F",
    "112233a DDDa WWWW F",
    "NN 11a 222b 3333c SSS",
    "NN 11a 222a 3333a SSS",
    "FF 1111a 2222b 0000",
    "FF 1111a 2222b RRRR",
    "123456a 33b FFFF EE",
    "111a 222a 333b 444b NN",
    "NN EE WW SS 11a 22a 33a",
)
KEYS = ((None, None), ((1, 2), None), ((1, 3), None), (None, "B, C"), ((1, 2), "D, C"), ((2, 3), None))


def _line_text(line_id: str, forms: list[str], keys: tuple, concealed: bool) -> str:
    listed = ", ".join(f'"{f}"' for f in forms)
    suits, only = keys
    if suits is not None and len(forms) == 1:  # alone, a form keeps only the counts its letters can take
        letters = len({word[-1] for word in forms[0].split() if word[-1] in "abc"})
        suits = tuple(k for k in suits if k <= letters)
        if not suits:
            return ""
    extra = (f"suits: {list(suits)}, " if suits else "") + (f"only: [{only}], " if only else "")
    return f"{{id: {line_id}, pattern: [{listed}], {extra}value: 25, numbers: any, concealed: {str(concealed).lower()}}}"


@st.composite
def forms_and_racks(draw: st.DrawFn) -> tuple[list[str], str, bool, Holding]:
    forms = draw(st.lists(st.sampled_from(FORM_POOL), min_size=2, max_size=4, unique=True))
    keys = draw(st.sampled_from(KEYS))
    concealed = draw(st.booleans())
    size = draw(st.sampled_from([13, 14]))
    pool = [t for t in range(tiles.KINDS) for _ in range(tiles.COPIES[t])]
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    return forms, keys, concealed, Holding.of([pool[i] for i in picks])


def _card_or_none(hand: str):
    if not hand:
        return None
    try:
        return card_of(hand)
    except CardError:  # no form can take the keys (three letters, only two suits named)
        return None


@settings(max_examples=examples(120), derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(forms_and_racks())
def test_a_line_of_forms_has_the_least_distance_of_its_forms(case) -> None:
    forms, keys, concealed, rack = case
    together = _card_or_none(_line_text("ALL", forms, keys, concealed))
    apart = [_card_or_none(_line_text(f"F{n}", [form], keys, concealed)) for n, form in enumerate(forms)]
    if together is None:  # an error by the format: no form takes the keys, or a `suits` count is
        most = max(len({w[-1] for w in f.split() if w[-1] in "abc"}) for f in forms)  # more than any form's letters
        assert all(card is None for card in apart) or max(keys[0]) > most
        return
    nearest = min(analyze(card, rack).lines[0].distance for card in apart if card is not None)
    line = together.lines[0]
    assert analyze(together, rack).lines[0].distance == nearest
    # The fast tables agree with the definition read reading by reading.
    slow = min(fill(r, rack, line.concealed).distance for r in line.readings)
    assert int(tables_for(together).line_distances(rack)[0]) == slow == nearest != OUT_OF_REACH


# -- problems at their lines -------------------------------------------------------


def problem_of(hand: str) -> str:
    """The one problem check-card reports for a card of one hand, given as YAML
    block lines (the hand's keys each on a line, the first at line 6)."""
    text = "name: T\nsections:\n  - name: S\n    hands:\n      - id: A\n" + "".join(
        f"        {row}\n" for row in hand.strip().splitlines()
    )
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert len(caught.value.problems) == 1, caught.value.problems
    return caught.value.problems[0]


BASE = 'pattern: "111a 222a 333b 444b NN"\nvalue: 25'


@pytest.mark.parametrize(
    ("rows", "line", "words"),
    [
        (BASE + "\nsuits: [0]", 8, '"suits" counts 1 to 3 different suits, not 0'),
        (BASE + "\nsuits: [1, 4]", 8, '"suits" counts 1 to 3 different suits, not 4'),
        (BASE + "\nsuits: [2, 2]", 8, '"suits" lists a count twice'),
        (BASE + "\nsuits: two", 8, '"suits" must list how many different suits the letters may take'),
        (BASE + "\nsuits: []", 8, '"suits" must list how many different suits'),
        (BASE + "\nsuits: [1, 3]", 8, '"suits" counts 3 different suits, but no form has more than 2 suit letters'),
        ('pattern: "NNNN EEEE WWWW SS"\nvalue: 25\nsuits: [1]', 8, "but no form has a suit letter"),
        (BASE + "\nonly: [X]", 8, '"only" names suits as D, B or C (Dots, Bams, Craks), not "X"'),
        (BASE + "\nonly: []", 8, '"only" must list suits such as [B, C]'),
        (BASE + "\nonly: [B, bam]", 8, '"only" names Bams twice'),
        ('pattern: "NNNN EEEE WWWW SS"\nvalue: 25\nonly: [B]', 8, '"only" names suits for the suit letters, but no form has'),
        (BASE + "\nsuits: [2]\nonly: [C]", 8, '"suits" counts 2 different suits, but "only" names 1'),
        (BASE + "\nonly: [C]", 8, "no form can take its suits"),
        ('value: 25\npattern: ["111a 222a 333b 444b NN", "111a 222a 333b 44b NN"]', 7, 'form 2: pattern "111a 222a 333b 44b NN" has 13 tiles, not 14'),
        ('value: 25\npattern: ["111a 222a 333b 444b NN", "111a 222a  333b 444b NN"]', 7, "form 2 is form 1 again"),
        ('value: 25\npattern: ["111a 222a 333b 444b NN", ""]', 7, 'form 2 of "pattern" must be text such as'),
        ('value: 25\npattern: ["111a 222a 333b 444b NN", 12]', 7, 'form 2 of "pattern" must be text such as'),
        ("value: 25\npattern: []", 7, '"pattern" lists no forms'),
        ("value: 25\npattern: [" + ", ".join(['"FFFF NNNN EEEE SS"'] * (MAX_FORMS + 1)) + "]", 7,
         f'"pattern" lists at most {MAX_FORMS} forms (the cap), not {MAX_FORMS + 1}'),
        ('value: 25\npattern: ["11a 222a 3333a 444a 55a", "11a 222a 3333a 444a 99a"]\nnumbers: [0, 2]', 7,
         "form 2: shift 2 moves a number to 11, outside 1-9"),
        (BASE + "\ndisplay: 2468", 8, '"display" must be the line as the card prints it'),
        (BASE + "\ndisplay: '" + "1" * 121 + "'", 8, '"display" has at most 120 characters (the cap), not 121'),
    ],
)
def test_check_card_reports_each_new_key_problem_at_its_line(rows: str, line: int, words: str):
    message = problem_of(rows)
    assert message.startswith(f'card, line {line}, section "S", hand "A": '), message
    assert words in message, message


def test_check_card_prints_the_new_keys_problems(tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "name: T\nsections:\n  - name: S\n    hands:\n"
        '      - {id: A, pattern: "111a 222a 333b 444b NN", value: 25, suits: [5]}\n'
        '      - {id: B, pattern: ["FF 2468a 2222b 2222c", "FF 2468a 2222b 2222c"], value: 25}\n'
        '      - id: C\n        pattern: "NNNN EEEE WWWW SS"\n        value: 25\n        only: [D]\n'
    )
    out = io.StringIO()
    assert cli.main(["check-card", str(path)], stdin=io.StringIO(), stdout=out) != 0
    assert out.getvalue().splitlines() == [
        'bad.yaml, line 5, section "S", hand "A": "suits" counts 1 to 3 different suits, not 5',
        'bad.yaml, line 6, section "S", hand "B": form 2 is form 1 again',
        'bad.yaml, line 10, section "S", hand "C": "only" names suits for the suit letters, but no form has a suit letter (a, b or c)',
    ]


# -- old cards read exactly as before ----------------------------------------------


def readings_digest(path: Path) -> tuple[str, int]:
    """Everything a line is read as, hashed: ids, printed text, flags and
    every reading's suits, shift and tiles, in order."""
    card = load_card(path)
    digest = hashlib.sha256()
    for line in card.lines:
        digest.update(repr((line.id, line.pattern, line.value, line.concealed, line.numbers, line.note,
                            line.singles_and_pairs)).encode())
        for r in line.readings:
            digest.update(repr((r.suits, r.shift, tuple((p.tiles, p.is_group) for p in r.parts))).encode())
    return digest.hexdigest(), sum(len(line.readings) for line in card.lines)


def test_old_card_reads_exactly_as_before():
    # The house card as it was before forms, suits and only, hashed by the
    # code before them (main at c3c8d36): the same 949 readings, same order.
    assert readings_digest(OLD_HOUSE_CARD) == ("101469f8e80bec8521ccfe601141f76933a35db65b0b19dbc7f0ba020e1a6658", 949)
    card = load_card(OLD_HOUSE_CARD)
    assert all(line.forms == (line.pattern,) and line.suits is None and line.only is None for line in card.lines)
    assert all(r.form == 0 for line in card.lines for r in line.readings)


# -- a card of the new shapes: loads, one line per printed line, drills -------------


def test_forms_card_is_one_line_per_printed_line():
    card = load_card(FORMS_CARD)
    assert len(card.lines) == 10
    printed = [line.pattern for line in card.lines]
    assert len(set(printed)) == len(printed)
    by_id = {line.id: line for line in card.lines}
    assert len(by_id["like-kongs-even"].forms) == 4 and by_id["like-kongs-even"].pattern == "FF 2468 4444 4444"
    assert len(by_id["any-wind"].forms) == 4
    assert len(by_id["any-dragon"].forms) == 3
    assert len(by_id["pair-in-run"].forms) == 6
    assert by_id["one-or-two-suits"].suits == (1, 2) and by_id["one-or-three-suits"].suits == (1, 3)
    assert by_id["bams-and-craks"].only == ("B", "C")
    assert not any(tiles.suit_of(g.tile) == "D" for r in by_id["bams-and-craks"].readings for g in r.groups)
    winds = {g.tile for r in by_id["any-wind"].readings for g in r.groups if g.size == 4}
    assert winds == {tiles.INDEX[w] for w in "NEWS"}


@pytest.mark.parametrize("name", list(drills.DRILLS))
def test_forms_card_every_drill_generates_and_grades(name: str):
    card = load_card(FORMS_CARD)
    module = drills.DRILLS[name]
    for level in range(1, len(module.LEVELS) + 1):
        for seed in range(6):
            question = module.generate(seed, level, card)
            assert question.drill == name and question.level == level and question.prompt
            assert question.card == card.name
            verdict = module.grade(question, None)  # "show me": the full explanation, never correct
            assert not verdict.correct
            again = module.generate(seed, level, card)
            assert again.prompt == question.prompt  # rebuilt from (drill, seed, level, card) alone


def test_forms_card_mahjong_drill_names_a_form():
    card = load_card(FORMS_CARD)
    module = drills.DRILLS["mahjong-or-not"]
    said = " ".join(
        sentence
        for level in range(1, len(module.LEVELS) + 1)
        for seed in range(40)
        for sentence in module.grade(module.generate(seed, level, card), None).explanation
    )
    forms = [form for line in card.lines if len(line.forms) > 1 for form in line.forms]
    assert any(f"read as {form}" in said for form in forms), said[:2000]

"""The work a card may ask of the parser (issue 26), counted, never timed.

A line's tries (form x suit assignment x number shift) are counted from its
text and refused over MAX_ASKED_PER_LINE before any is tried, a card's over
MAX_ASKED; the search itself spends a budget; a refused card is remembered
by its content and costs no second parse. Real cards read as before.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from coach.notation import card as card_module
from coach.notation.card import (
    HOUSE_CARD,
    MAX_ASKED,
    MAX_ASKED_PER_LINE,
    MAX_FORMS,
    MAX_LINES,
    MAX_READINGS,
    MAX_READINGS_PER_LINE,
    CardError,
    load_card,
    parse_card,
)
from coach.tools.benchmarks import card_cost

DATA = Path(__file__).parents[1] / "data"


@pytest.fixture(autouse=True)
def fresh() -> None:
    card_cost.forget_cards()  # every test reads its cards anew


def work() -> tuple[int, int, int, int]:
    w = card_module.WORK
    return w.asked, w.parsed, w.recalled, w.tried


def spent(before: tuple[int, int, int, int]) -> dict[str, int]:
    return dict(zip(("asked", "parsed", "recalled", "tried"), (b - a for a, b in zip(before, work()))))


def refusal(text: str, source: str = "card") -> CardError:
    with pytest.raises(CardError) as caught:
        parse_card(text, source=source)
    return caught.value


def test_the_crafted_fixture_is_the_benchmarks_card() -> None:
    text = (DATA / "crafted-card.yaml").read_text(encoding="utf-8")
    assert text.split("\n", 3)[3] == card_cost.crafted()  # after its three comment lines
    assert len(text.encode()) < 10 * 1024


def test_the_crafted_card_is_refused_before_one_reading_is_tried() -> None:
    text = (DATA / "crafted-card.yaml").read_text(encoding="utf-8")
    before = work()
    error = refusal(text, "crafted.yaml")
    assert spent(before) == {"asked": 1, "parsed": 1, "recalled": 0, "tried": 0}
    assert error.total == 16
    rows = text.splitlines()
    for problem in error.problems:
        line = int(re.match(r"crafted\.yaml, line (\d+), ", problem).group(1))  # type: ignore[union-attr]
        assert rows[line - 1].lstrip().startswith("- {id:") and "pattern:" in rows[line - 1]
        assert "the line asks for 2,916 readings (12 forms, up to 27 suit assignments x 9 number shifts each)" in problem
        assert f"a line may ask for at most {MAX_ASKED_PER_LINE:,} (the cap)" in problem


def test_a_line_at_the_cap_is_read_one_over_is_refused() -> None:
    # "1a 1a 1a 1a 1a ..." can never be made; its suits and shifts make the count.
    def line(shifts: int, forms: int) -> str:
        patterns = ", ".join(f'"1a 1a 1a 1a 1a 1b 1b 1c 1c F {t}"' for t in card_cost.TAILS[:forms])
        numbers = "[" + ", ".join(str(k) for k in range(shifts)) + "]"
        return card_cost.card_text("Cap", [f'{{id: "X", pattern: [{patterns}], value: 25, numbers: {numbers}, suits: [1, 2, 3]}}'])

    # 27 suit assignments x 4 shifts x 11 forms = 1,188 tries: within the cap, tried, and refused for what they are.
    before = work()
    within = refusal(line(4, 11))
    assert "no tile set can complete it" in within.problems[0]
    assert spent(before)["tried"] == 27 * 4 * 11 <= MAX_ASKED_PER_LINE
    before = work()
    over = refusal(line(5, 9))  # 27 x 5 x 9 = 1,215
    assert "the line asks for 1,215 readings (9 forms, up to 27 suit assignments x 5 number shifts each)" in over.problems[0]
    assert spent(before)["tried"] == 0


def test_the_card_stops_at_its_own_budget() -> None:
    """Lines each under the per-line cap, unmakeable: reading stops at MAX_ASKED."""
    text = card_cost.crafted_at_the_line_cap()
    before = work()
    error = refusal(text)
    tried = spent(before)["tried"]
    assert 0 < tried <= MAX_ASKED
    assert error.problems[-1].endswith(
        f"the line asks for 972 readings, and with it the card asks for more than {MAX_ASKED:,} "
        "(the cap per card; the house card asks for about 1,100): split it into two cards"
    )
    assert error.total == MAX_ASKED // 972 + 1  # every line read, then the one that passed the cap


def test_the_search_spends_a_budget_even_when_the_count_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """The count from the text is the first guard; the search's own budget is
    the second: with the count made to say 0, the search still stops."""
    monkeypatch.setattr(card_module, "asked", lambda *a, **k: card_module.Asked(0, 1, 0, 0))
    before = work()
    error = refusal(card_cost.crafted(lines=40))
    assert spent(before)["tried"] <= MAX_ASKED
    assert error.problems[-1].endswith(f"reading the card tried more than {MAX_ASKED:,} readings (the cap per card): split it into two cards")


def test_a_refused_card_costs_no_second_parse() -> None:
    text = card_cost.crafted()
    first = refusal(text, "mine.yaml")
    before = work()
    again = refusal(text, "mine.yaml")
    assert spent(before) == {"asked": 1, "parsed": 0, "recalled": 1, "tried": 0}
    assert (again.problems, again.total, str(again)) == (first.problems, first.total, str(first))
    before = work()
    other = refusal(text, "theirs.yaml")  # messages name the file: another name is another refusal
    assert spent(before)["parsed"] == 1 and other.problems[0].startswith("theirs.yaml, line ")
    changed = refusal(text.replace('"Crafted"', '"Crafted 2"'), "mine.yaml")  # a changed text is read again
    assert changed.total == 16 and spent(before)["parsed"] == 2


def test_refusals_remembered_are_few() -> None:
    for n in range(200):
        refusal(f"name: x{n}\nsections: []\n")
    assert len(card_module._REFUSED) == card_module._REFUSED.size == 64


def test_a_valid_card_is_kept_not_refused() -> None:
    text = HOUSE_CARD.read_text(encoding="utf-8")
    first = parse_card(text)
    before = work()
    assert parse_card(text, source="another name") is first
    assert spent(before) == {"asked": 1, "parsed": 0, "recalled": 0, "tried": 0}


@pytest.mark.parametrize(
    ("path", "lines", "readings", "tries"),
    [
        (HOUSE_CARD, 61, 979, 1_119),
        (DATA / "forms-card.yaml", 10, 566, 579),
        (DATA / "house-2026-before-forms.yaml", 61, 949, 1_089),
    ],
    ids=["house", "forms", "house-before-forms"],
)
def test_real_cards_read_as_before_within_the_new_caps(path: Path, lines: int, readings: int, tries: int) -> None:
    before = work()
    card = load_card(path)
    assert (len(card.lines), sum(len(line.readings) for line in card.lines)) == (lines, readings)
    assert spent(before)["tried"] == tries <= MAX_ASKED
    for line in card.lines:
        forms = [card_module.parse_pattern(f) for f in line.forms]
        assert card_module.asked(forms, line.numbers, line.suits, line.only).tries <= MAX_ASKED_PER_LINE


@pytest.mark.parametrize("name", [n for n in card_cost.CARDS if not n.startswith("crafted")])
def test_every_card_at_the_caps_reads_within_the_budget(name: str) -> None:
    text = card_cost.CARDS[name]()
    before = work()
    card = parse_card(text)
    used = spent(before)
    assert used["parsed"] == 1 and used["tried"] <= MAX_ASKED
    readings = [len(line.readings) for line in card.lines]
    assert len(card.lines) <= MAX_LINES and sum(readings) <= MAX_READINGS and max(readings) <= MAX_READINGS_PER_LINE
    assert all(len(line.forms) <= MAX_FORMS for line in card.lines)


def test_the_cap_cards_reach_their_caps() -> None:
    """Each card of the benchmark stands at the cap it is named for."""
    lines = parse_card(card_cost.most_lines()).lines
    assert len(lines) == MAX_LINES and sum(len(line.readings) for line in lines) == MAX_READINGS
    assert {len(line.forms) for line in parse_card(card_cost.most_forms()).lines} == {MAX_FORMS}
    assert max(len(line.readings) for line in parse_card(card_cost.most_readings_per_line()).lines) > 0.9 * MAX_READINGS_PER_LINE
    assert {len(line.forms[0]) for line in parse_card(card_cost.longest_patterns()).lines} == {card_module.MAX_PATTERN}
    before = work()
    parse_card(card_cost.most_asked())
    assert spent(before)["tried"] > 0.9 * MAX_ASKED
    assert len(card_cost.most_bytes().encode()) > card_module.MAX_CARD_BYTES - 3 * 1024

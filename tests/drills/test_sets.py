"""Drill sets: the YAML format, its errors, the form builder, seeds and the samples."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import drills
from coach.notation.card import house_card
from coach.notation.yamlfile import key_line, line_of, load
from drills.sets import (
    HOUSE,
    MAX_DESCRIPTION,
    MAX_ITEMS,
    MAX_QUESTIONS,
    MAX_TITLE,
    MAX_TOTAL,
    DrillSet,
    SetError,
    SetItem,
    Slot,
    dump_set,
    from_fields,
    parse_set,
    sample_sets,
    seed_for,
)
from tests.support.examples import examples

MINIMAL = """\
set: "Practice"
drills:
  - drill: name-the-tile
"""


def yaml_set(body: str) -> str:
    return textwrap.dedent(body).lstrip("\n")


def problems(text: str, **kwargs) -> list[str]:
    with pytest.raises(SetError) as error:
        parse_set(text, **kwargs)
    return error.value.problems


def only_problem(text: str, **kwargs) -> str:
    found = problems(text, **kwargs)
    assert len(found) == 1, found
    return found[0]


def form_problems(**overrides) -> list[str]:
    fields = {
        "title": "Practice",
        "description": "",
        "card": HOUSE,
        "seeds": "fixed",
        "seed": 7,
        "items": [("name-the-tile", "1", "5")],
    }
    fields.update(overrides)
    with pytest.raises(SetError) as error:
        from_fields(**fields)
    return error.value.problems


# -- yamlfile: the lines of keys ----------------------------------------------


def test_line_dict_remembers_the_line_of_each_key():
    data = load("a: 1\nb:\n  c: 2\n\n  d: 3\n")
    assert data.key_lines == {"a": 1, "b": 2}
    assert data["b"].key_lines == {"c": 3, "d": 5}
    assert key_line(data["b"], "d") == 5
    assert line_of(data["b"]) == 3  # the mapping's own line is unchanged


def test_key_line_falls_back_to_the_mapping_then_the_default():
    data = load("top: 1\nnested:\n  x: 1\n")
    assert key_line(data["nested"], "missing") == line_of(data["nested"]) == 3
    assert key_line({"plain": 1}, "plain", default=9) == 9
    assert key_line(None, "anything") == 0


# -- a valid set --------------------------------------------------------------


def test_minimal_set_takes_every_default():
    drill_set = parse_set(MINIMAL, seed_default=42)
    assert drill_set == DrillSet(
        title="Practice", description="", card=HOUSE, seeds="fixed", seed=42,
        items=(SetItem("name-the-tile", 1, 5),),
    )
    assert drill_set.total == 5


def test_missing_seed_is_chosen_at_random_in_range():
    seeds = {parse_set(MINIMAL).seed for _ in range(5)}
    assert all(isinstance(s, int) and 0 <= s < 2**31 for s in seeds)
    assert len(seeds) > 1  # five draws from 2**31 do not all collide


def test_every_field_is_read():
    text = yaml_set("""
        set: "  Week 3  "
        description: "Calls and jokers."
        card: Class card
        seeds: fresh
        seed: 123
        drills:
          - drill: jokers
            level: 3
            questions: 2
          - {drill: calls, level: 4, questions: 20}
    """)
    drill_set = parse_set(text, cards=(HOUSE, "Class card"))
    assert drill_set.title == "Week 3"  # surrounding spaces are not part of a title
    assert drill_set.description == "Calls and jokers."
    assert drill_set.card == "Class card" and drill_set.seeds == "fresh" and drill_set.seed == 123
    assert drill_set.items == (SetItem("jokers", 3, 2), SetItem("calls", 4, 20))
    assert drill_set.total == 22


@pytest.mark.parametrize("seeds", ["fixed", "fresh"])
def test_fixed_or_fresh_is_recorded_and_dumped(seeds):
    drill_set = parse_set(MINIMAL + f"seeds: {seeds}\n", seed_default=1)
    assert drill_set.seeds == seeds
    assert f"seeds: {seeds}\n" in dump_set(drill_set)


# -- problems, with their line and field ----------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('description: "x"\ndrills:\n  - drill: jokers\n', 'line 1, "set": is missing'),
        ('set: "   "\ndrills:\n  - drill: jokers\n', 'line 1, "set": is missing'),
        ("set: 2026\ndrills:\n  - drill: jokers\n", 'line 1, "set": must be text, not 2026'),
        (f'set: "{"t" * (MAX_TITLE + 1)}"\ndrills:\n  - drill: jokers\n', f'line 1, "set": must be at most {MAX_TITLE} characters, not {MAX_TITLE + 1}'),
        (f'set: T\ndescription: "{"d" * (MAX_DESCRIPTION + 1)}"\ndrills:\n  - drill: jokers\n', f'line 2, "description": must be at most {MAX_DESCRIPTION} characters'),
        ("set: T\ndescription: [a]\ndrills:\n  - drill: jokers\n", 'line 2, "description": must be text, not a list'),
        ("set: T\nseeds: random\ndrills:\n  - drill: jokers\n", 'line 2, "seeds": must be fixed or fresh, not "random"'),
        ("set: T\n\nseed: -1\ndrills:\n  - drill: jokers\n", 'line 3, "seed": must be a whole number from 0 to 2147483647, not -1'),
        ("set: T\nseed: 2147483648\ndrills:\n  - drill: jokers\n", 'line 2, "seed": must be a whole number from 0 to 2147483647, not 2147483648'),
        ("set: T\nseed: 1.5\ndrills:\n  - drill: jokers\n", 'line 2, "seed": must be a whole number from 0 to 2147483647, not 1.5'),
        ('set: T\nseed: "12"\ndrills:\n  - drill: jokers\n', 'line 2, "seed": must be a whole number from 0 to 2147483647, not "12"'),
        ("set: T\ncard: 12\ndrills:\n  - drill: jokers\n", 'line 2, "card": must be the name of a card, not 12'),
        ("set: T\n", 'line 1, "drills": is missing'),
        ("set: T\ndrills:\n", 'line 2, "drills": is missing'),
        ("set: T\ndrills: []\n", 'line 2, "drills": needs at least one drill'),
        ("set: T\ndrills: jokers\n", 'line 2, "drills": must be a list of drills, not "jokers"'),
        ("set: T\ndrills:\n  drill: jokers\n", 'line 2, "drills": must be a list of drills, not a mapping'),
        ("set: T\ndrills:\n  - jokers\n", 'line 2, drills item 1, "drill": each item must be a mapping'),
        ("set: T\ndrills:\n  - level: 2\n", 'line 3, drills item 1, "drill": is missing'),
        ("set: T\ndrills:\n  - drill: jokers\n  - drill: jokers\n    level: 5\n", 'line 5, drills item 2, "level": must be a whole number from 1 to 4 for Jokers: where and when, not 5'),
        ("set: T\ndrills:\n  - drill: jokers\n    level: two\n", 'line 4, drills item 1, "level": must be a whole number from 1 to 4 for Jokers: where and when, not "two"'),
        ("set: T\ndrills:\n  - drill: jokers\n    questions: 0\n", f'line 4, drills item 1, "questions": must be a whole number from 1 to {MAX_QUESTIONS}, not 0'),
        ("set: T\ndrills:\n  - drill: jokers\n    questions: 21\n", f'line 4, drills item 1, "questions": must be a whole number from 1 to {MAX_QUESTIONS}, not 21'),
        ("set: T\ndrills:\n  - drill: jokers\n    questions: 2.5\n", 'line 4, drills item 1, "questions": must be a whole number from 1 to 20, not 2.5'),
        ("set: T\ncolour: red\ndrills:\n  - drill: jokers\n", 'line 2, "colour": unknown key (allowed: set, description, card, seeds, seed, drills)'),
        ("set: T\ndrills:\n  - drill: jokers\n    level: 1\n    count: 3\n", 'line 5, drills item 1, "count": unknown key (allowed: drill, level, questions)'),
    ],
)
def test_each_problem_names_its_line_and_field(text, expected):
    assert expected in only_problem(text)


def test_unknown_drill_lists_the_known_drills():
    message = only_problem("set: T\ndrills:\n  - drill: name-that-tile\n")
    assert message.startswith('line 3, drills item 1, "drill": there is no drill "name-that-tile"')
    assert f"(drills: {', '.join(drills.DRILLS)})" in message


def test_a_level_under_an_unknown_drill_is_still_checked_for_shape():
    found = problems("set: T\ndrills:\n  - drill: nope\n    level: true\n")
    assert len(found) == 2 and 'line 4, drills item 1, "level": must be a whole number from 1, not true' in found[1]


@pytest.mark.parametrize("name", list(drills.DRILLS))
def test_level_bounds_follow_each_drill(name):
    module = drills.DRILLS[name]
    top = len(module.LEVELS)
    for level in range(1, top + 1):
        assert parse_set(f"set: T\ndrills:\n  - drill: {name}\n    level: {level}\n").items[0].level == level
    for level in (0, top + 1):
        message = only_problem(f"set: T\ndrills:\n  - drill: {name}\n    level: {level}\n")
        assert message == f'line 4, drills item 1, "level": must be a whole number from 1 to {top} for {module.TITLE}, not {level}'


@pytest.mark.parametrize("key", ["level", "questions"])
@pytest.mark.parametrize("value", ["true", "false", "yes"])
def test_booleans_are_not_whole_numbers(key, value):
    message = only_problem(f"set: T\ndrills:\n  - drill: jokers\n    {key}: {value}\n")
    assert f'line 4, drills item 1, "{key}"' in message
    assert message.endswith("not true") or message.endswith("not false")


def test_a_boolean_seed_is_not_a_whole_number():
    assert 'line 2, "seed": must be a whole number from 0 to 2147483647, not true' in only_problem(
        "set: T\nseed: true\ndrills:\n  - drill: jokers\n"
    )


def test_questions_bounds_and_the_total():
    ok = parse_set("set: T\ndrills:\n  - {drill: jokers, questions: 1}\n  - {drill: calls, questions: 20}\n")
    assert ok.total == 21
    three = "".join(f"  - {{drill: jokers, questions: {MAX_QUESTIONS}}}\n" for _ in range(3))
    assert parse_set("set: T\ndrills:\n" + three).total == MAX_TOTAL == 60
    message = only_problem("set: T\ndrills:\n" + three + "  - drill: calls\n    questions: 1\n")
    assert message == f'line 2, "drills": at most {MAX_TOTAL} questions in all, not 61'


def test_at_most_twenty_items():
    items = "".join("  - {drill: jokers, questions: 1}\n" for _ in range(MAX_ITEMS + 1))
    assert only_problem("set: T\ndrills:\n" + items) == f'line 2, "drills": at most {MAX_ITEMS} drills, not 21'
    assert len(parse_set("set: T\ndrills:\n" + items.split("\n", 1)[1]).items) == MAX_ITEMS


def test_title_and_description_limits_count_after_stripping():
    title = "t" * MAX_TITLE
    description = "d" * MAX_DESCRIPTION
    drill_set = parse_set(f'set: "  {title}  "\ndescription: "{description}\\n"\ndrills:\n  - drill: jokers\n')
    assert drill_set.title == title and drill_set.description == description


def test_every_problem_is_collected_at_once():
    text = yaml_set("""
        set: ""
        card: Spring 2026
        seeds: sometimes
        colour: red
        drills:
          - drill: nearest-hand
            level: 5
          - drill: nope
            questions: 0
          - 12
    """)
    found = problems(text, cards=(HOUSE, "Class card"))
    assert len(found) == 8, found
    expected = [
        'line 4, "colour": unknown key',
        'line 1, "set": is missing',
        'line 2, "card": "Spring 2026" is not one of your cards (you have: house, Class card)',
        'line 3, "seeds": must be fixed or fresh, not "sometimes"',
        'line 7, drills item 1, "level": must be a whole number from 1 to 3 for Find the nearest hand, not 5',
        'line 8, drills item 2, "drill": there is no drill "nope"',
        'line 9, drills item 2, "questions": must be a whole number from 1 to 20, not 0',
        'line 5, drills item 3, "drill": each item must be a mapping with drill, level and questions, not 12',
    ]
    for message, start in zip(found, expected, strict=True):
        assert message.startswith(start), (message, start)


def test_set_error_joins_its_problems():
    error = SetError(["one", "two"])
    assert error.problems == ["one", "two"] and str(error) == "one; two"
    assert isinstance(error, ValueError)


# -- the card -------------------------------------------------------------------


def test_card_must_be_one_of_the_teachers_cards():
    text = "set: T\n\ncard: Spring 2026\ndrills:\n  - drill: jokers\n"
    assert only_problem(text, cards=(HOUSE, "Class card")) == (
        'line 3, "card": "Spring 2026" is not one of your cards (you have: house, Class card)'
    )
    assert parse_set(text, cards=(HOUSE, "Spring 2026")).card == "Spring 2026"
    assert 'is not one of your cards (you have: house)' in only_problem(text)  # only the house card by default


def test_card_house_is_explicit_or_the_default():
    assert parse_set("set: T\ncard: house\ndrills:\n  - drill: jokers\n").card == HOUSE
    assert parse_set(MINIMAL).card == HOUSE


# -- the file as a whole --------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   \n", "# only a comment\n"])
def test_an_empty_file_is_an_error(text):
    assert "the file is empty" in only_problem(text)


@pytest.mark.parametrize(("text", "shown"), [("- drill: jokers\n", "a list"), ("just words\n", '"just words"'), ("42\n", "42")])
def test_the_top_level_must_be_a_mapping(text, shown):
    assert only_problem(text) == f'line 1: a drill set must be a mapping with "set" and "drills", not {shown}'


def test_yaml_syntax_errors_give_their_line():
    message = only_problem('set: T\ndrills:\n  - drill: "jokers\n')
    assert message == 'line 3: a quote (") is opened and never closed on this line'
    assert only_problem("set: T\ndrills: []\nset: U\n") == "line 3: key 'set' appears twice"
    assert only_problem("set: T\ndrills:\n  - {drill: jokers, level: [1}\n").startswith("line 3: ")


def test_a_file_over_64_kb_is_refused_before_parsing():
    text = MINIMAL + "# " + "x" * (64 * 1024) + "\n"
    assert "larger than 64 KB" in only_problem(text)


# -- seeds and slots ------------------------------------------------------------


def test_seed_for_is_the_first_four_bytes_of_sha256_less_the_top_bit():
    expected = int.from_bytes(hashlib.sha256(b"20261:3").digest()[:4], "big") & 0x7FFFFFFF
    assert seed_for(20261, 3) == expected
    assert all(0 <= seed_for(base, i) < 2**31 for base in range(50) for i in range(20))


def test_slots_list_every_question_in_order():
    drill_set = parse_set(
        "set: T\nseed: 9\ndrills:\n  - {drill: jokers, level: 2, questions: 2}\n  - {drill: calls, questions: 1}\n"
    )
    assert drill_set.slots() == (
        Slot(0, "jokers", 2, seed_for(9, 0)),
        Slot(1, "jokers", 2, seed_for(9, 1)),
        Slot(2, "calls", 1, seed_for(9, 2)),
    )


def test_fixed_seeds_give_the_same_questions_every_time():
    text = "set: T\nseed: 77\ndrills:\n  - {drill: name-the-tile, questions: 10}\n"
    first = parse_set(text).slots()
    assert first == parse_set(text).slots() == parse_set(text).slots(77)
    seeds = [slot.seed for slot in first]
    assert len(set(seeds)) == len(seeds)  # no two questions share a seed


def test_different_bases_give_different_seeds():
    drill_set = parse_set("set: T\nseed: 77\ndrills:\n  - {drill: name-the-tile, questions: 10}\n")
    ours = {slot.seed for slot in drill_set.slots()}
    theirs = {slot.seed for slot in drill_set.slots(78)}  # e.g. one student's fresh seed
    assert ours.isdisjoint(theirs)
    assert [s.drill for s in drill_set.slots(78)] == [s.drill for s in drill_set.slots()]


# -- dumping --------------------------------------------------------------------


def test_dump_is_canonical():
    drill_set = DrillSet("Week 3", "", HOUSE, "fresh", 5, (SetItem("jokers", 2, 3),))
    assert dump_set(drill_set) == (
        "# Mahjong Coach drill set\n"
        "set: Week 3\n"
        "card: house\n"
        "seeds: fresh\n"
        "seed: 5\n"
        "drills:\n"
        "  - drill: jokers\n"
        "    level: 2\n"
        "    questions: 3\n"
    )


def test_dump_keeps_a_description_and_quotes_what_yaml_would_misread():
    drill_set = DrillSet("yes", "Line one.\nLine two: with a colon.", "no", "fixed", 0, (SetItem("calls", 1, 1),))
    text = dump_set(drill_set)
    assert "description:" in text
    assert parse_set(text, cards=(HOUSE, "no")) == drill_set


# -- the form builder -----------------------------------------------------------


def test_from_fields_accepts_numbers_as_text():
    drill_set = from_fields(
        "  Week 4 ", "", "Class card", "fresh", "31",
        [("jokers", "2", " 3 "), ("calls", 4, 20)], cards=(HOUSE, "Class card"),
    )
    assert drill_set == DrillSet(
        "Week 4", "", "Class card", "fresh", 31, (SetItem("jokers", 2, 3), SetItem("calls", 4, 20))
    )


def test_from_fields_empty_fields_take_their_defaults():
    drill_set = from_fields("T", "", "", "", "", [("jokers", "", "")])
    assert drill_set.card == HOUSE and drill_set.seeds == "fixed" and 0 <= drill_set.seed < 2**31
    assert drill_set.items == (SetItem("jokers", 1, 5),)


def test_from_fields_messages_name_row_and_field():
    found = form_problems(
        title="",
        seeds="random",
        seed="abc",
        items=[("jokers", "1", "5"), ("nearest-hand", "5", "2"), ("nope", "x", "0"), ("calls", True, "3")],
    )
    assert found == [
        "title: is missing (a title of 1 to 80 characters)",
        'seeds: must be fixed or fresh, not "random"',
        'seed: must be a whole number from 0 to 2147483647, not "abc"',
        'row 2, level: must be a whole number from 1 to 3 for Find the nearest hand, not "5"',
        f'row 3, drill: there is no drill "nope" (drills: {", ".join(drills.DRILLS)})',
        'row 3, level: must be a whole number from 1, not "x"',
        'row 3, questions: must be a whole number from 1 to 20, not "0"',
        "row 4, level: must be a whole number from 1 to 4 for Calling a discard, not true",
    ]


def test_from_fields_checks_the_card_rows_and_total():
    assert form_problems(card="Spring 2026") == ['card: "Spring 2026" is not one of your cards (you have: house)']
    assert form_problems(items=[]) == ["drills: needs at least one drill"]
    assert form_problems(items=[("jokers", 1, 20)] * 3 + [("calls", 1, 1)]) == [
        "drills: at most 60 questions in all, not 61"
    ]
    assert form_problems(items=[("", 1, 1)]) == [f"row 1, drill: is missing (one of {', '.join(drills.DRILLS)})"]


# -- the samples ----------------------------------------------------------------


def test_sample_sets_have_their_titles_in_order():
    titles = [s.title for s in sample_sets()]
    assert titles == ["First lesson: the tiles", "Reading the card", "Your first Charleston"]
    assert sample_sets() is sample_sets()  # parsed once


@pytest.mark.parametrize("index", range(3))
def test_each_sample_is_a_fixed_house_set_for_beginners(index):
    drill_set = sample_sets()[index]
    assert drill_set.card == HOUSE and drill_set.seeds == "fixed"
    assert 8 <= drill_set.total <= 15
    assert drill_set.description and len(drill_set.description) <= 200
    assert parse_set(dump_set(drill_set)) == drill_set  # the round trip


@pytest.mark.parametrize("index", range(3))
def test_sample_slots_generate_real_questions(index):
    card = house_card()
    drill_set = sample_sets()[index]
    for slot in drill_set.slots():
        question = drills.DRILLS[slot.drill].generate(slot.seed, slot.level, card)
        assert question.drill == slot.drill and question.level == slot.level and question.prompt


def test_samples_use_the_drills_a_teacher_expects():
    first, card, charleston = ({item.drill for item in s.items} for s in sample_sets())
    assert "name-the-tile" in first
    assert {"nearest-hand", "mahjong-or-not"} <= card
    assert {"charleston-rules", "first-pass"} <= charleston


def test_importing_drill_set_first_has_no_import_cycle():
    code = "import drills.sets as d; print(len(d.sample_sets()))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "3"


# -- property: dump then parse gives the set back -------------------------------

_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=120)
_titles = _text.map(str.strip).filter(lambda t: 0 < len(t) <= MAX_TITLE)
_items = st.sampled_from(list(drills.DRILLS)).flatmap(
    lambda name: st.builds(
        SetItem,
        st.just(name),
        st.integers(1, len(drills.DRILLS[name].LEVELS)),
        st.integers(1, MAX_QUESTIONS),
    )
)
_sets = st.builds(
    DrillSet,
    title=_titles,
    description=_text.map(str.strip),
    card=st.one_of(st.just(HOUSE), _titles),
    seeds=st.sampled_from(["fixed", "fresh"]),
    seed=st.integers(0, 2**31 - 1),
    items=st.lists(_items, min_size=1, max_size=MAX_ITEMS)
    .filter(lambda items: sum(i.questions for i in items) <= MAX_TOTAL)
    .map(tuple),
)


@settings(max_examples=examples(150))
@given(_sets)
def test_dump_then_parse_is_the_identity(drill_set):
    assert parse_set(dump_set(drill_set), cards=(HOUSE, drill_set.card)) == drill_set

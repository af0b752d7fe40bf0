"""YAML syntax errors in plain words, at the line where the problem starts (issue 15, part 6)."""

import pytest

from coach.notation import yamlfile
from coach.notation.card import CardError, parse_card


def message(text: str) -> str:
    with pytest.raises(yamlfile.YamlError) as error:
        yamlfile.load(text)
    assert len(error.value.problems) == 1
    return error.value.problems[0]


CARD_WITH_OPEN_QUOTE = """name: T
sections:
  - name: A
    hands:
      - id: "x
        pattern: "FF 2026a 2222b 2222c"
        value: 25
"""


def test_a_quote_never_closed_is_named_at_its_own_line_not_where_the_parser_stops():
    # PyYAML reads on to the next quote and complains about line 6.
    assert message(CARD_WITH_OPEN_QUOTE) == 'line 5: a quote (") is opened and never closed on this line'
    with pytest.raises(CardError) as error:
        parse_card(CARD_WITH_OPEN_QUOTE)
    assert "line 5: a quote" in str(error.value)
    assert "expected" not in str(error.value) and "scalar" not in str(error.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name: 'T\nyear: 2026\n", "line 1: a quote (') is opened and never closed on this line"),
        ("name: T\nsections:\n\t- name: A\n", "line 3: a tab is used to indent this line; YAML needs spaces"),
        ("name: T\nsections: [\n", "line 2: a [ is opened and never closed with ] (or a comma is missing)"),
        ("name: T\nnumbers: [0, 2\nyear: 2026\n", "line 2: a [ is opened and never closed with ] (or a comma is missing)"),
        ("a: [1]]\n", "line 1: a closing ] with no [ before it"),
        ("name: T\nyear\nsections: []\n", "line 2: a colon is missing: write it as `name: value`"),
        ("name: @T\n", "line 1: a value cannot start with the character '@': put the value in quotes"),
        (
            "name: T\nsections:\n  - name: A\n    hands:\n      - id: x\n     value: 3\n",
            "line 6: this line is indented differently from the lines above it",
        ),
        (
            "name: T\nsections:\n  - name: A\n    note: a: b\n",
            "line 4: a colon where none can go: check this line's indentation, or put a value that holds a colon in quotes",
        ),
        ("a: b\n---\nc: d\n", "line 2: a second document (---) or stray text after the card: a file holds one"),
    ],
)
def test_syntax_errors_in_plain_words(text, expected):
    assert message(text) == expected


def test_apostrophes_inside_plain_values_and_lists_over_several_lines_are_not_slips():
    text = 'note: it\'s fine\npattern: ["FF 2026a 2222b 2222c",\n          "FF 2026a 4444b 4444c"]\nname: T\n  year: 3\n'
    assert message(text).startswith("line 5: ")


def test_no_message_carries_parser_jargon():
    texts = ["a: b\n  c: d\n", "- a\nb: c\n", "a: {b: c\n", "a: 'x\n", "a:\n  - b\n - c\n", "[a, b]]\n", "a: |\n b\nc"]
    for text in texts:
        try:
            yamlfile.load(text)
        except yamlfile.YamlError as error:
            shown = str(error)
            assert shown.startswith("line "), shown
            for jargon in ("<block", "scalar", "token", "expected <", "flow"):
                assert jargon not in shown, shown

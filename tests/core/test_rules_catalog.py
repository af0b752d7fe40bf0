"""The coach's rule catalog must mirror the rules digest id for id.

Verdict explanations cite these ids, so a missing, repeated or reordered id
would make a citation point at the wrong rule or at nothing.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from coach.rules.catalog import RULES, TABLE_RULES, Rule, cite, rule, rule_ids

# Written out from the digest (docs/rules.md), in its order.
EXPECTED_IDS = (
    "T1", "T2", "T3", "T4",
    "H1", "H2", "H3", "H4", "H5",
    "J1", "J2", "J3", "J4", "J5", "J6", "J7", "J8",
    "S1", "S2", "S3", "S4", "S5",
    "C1", "C2", "C3", "C4", "C5", "C6",
    "K1", "K2", "K3", "K4", "K5", "K6", "K7",
    "E1", "E2", "E3", "E4",
    "P1", "P2", "P3", "P4", "P5", "P6",
    "D1",
)
# The project's own ids for the digest's list of table rules, after the digest's.
TABLE_IDS = ("TR1", "TR2", "TR3", "TR4", "TR5", "TR6")
ALL_IDS = EXPECTED_IDS + TABLE_IDS

# The digest's heading for each id letter.
EXPECTED_TOPIC = {
    "T": "Tiles",
    "H": "Groups and hands",
    "J": "Jokers",
    "S": "Set-up, deal, turns",
    "C": "The Charleston",
    "K": "Calls",
    "E": "End of the hand, dead hands, payment",
    "P": "End of the hand, dead hands, payment",
    "D": "Play sense",
    "TR": "Table rules",
}

MAX_WORDS_PER_SENTENCE = 25


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])[\"')]?\s+", text.strip())
    return [p for p in parts if p]


def test_catalog_holds_exactly_the_digest_ids_in_order() -> None:
    assert tuple(RULES) == ALL_IDS
    assert rule_ids() == ALL_IDS


def test_ids_are_unique() -> None:
    assert len(set(ALL_IDS)) == len(ALL_IDS)
    assert len(set(rule_ids())) == len(rule_ids())


@pytest.mark.parametrize("rule_id", ALL_IDS)
def test_rule_is_keyed_by_its_own_id(rule_id: str) -> None:
    assert RULES[rule_id].id == rule_id
    assert rule(rule_id) is RULES[rule_id]


@pytest.mark.parametrize("rule_id", ALL_IDS)
def test_rule_fields_are_non_empty(rule_id: str) -> None:
    r = RULES[rule_id]
    for field in ("id", "topic", "title", "text", "plain"):
        value = getattr(r, field)
        assert isinstance(value, str) and value.strip(), f"{rule_id}.{field} is empty"


@pytest.mark.parametrize("rule_id", ALL_IDS)
def test_topic_is_the_digest_heading(rule_id: str) -> None:
    assert RULES[rule_id].topic == EXPECTED_TOPIC[rule_id[:2] if rule_id.startswith("TR") else rule_id[0]]


@pytest.mark.parametrize("rule_id", ALL_IDS)
def test_title_is_a_short_name(rule_id: str) -> None:
    assert 3 <= len(RULES[rule_id].title.split()) <= 6


@pytest.mark.parametrize("rule_id", ALL_IDS)
def test_plain_is_one_or_two_short_sentences(rule_id: str) -> None:
    sentences = _sentences(RULES[rule_id].plain)
    assert 1 <= len(sentences) <= 2, sentences
    for sentence in sentences:
        words = len(sentence.split())
        assert words <= MAX_WORDS_PER_SENTENCE, f"{rule_id}: {words} words: {sentence!r}"


@pytest.mark.parametrize("rule_id", ALL_IDS)
def test_cite_is_plain_text_then_id(rule_id: str) -> None:
    quoted = cite(rule_id)
    assert quoted.endswith(f"({rule_id})")
    assert quoted == f"{RULES[rule_id].plain} ({rule_id})"


@pytest.mark.parametrize("bad_id", ["Z9", "j2", "", "J9"])
def test_unknown_id_raises_key_error_naming_it(bad_id: str) -> None:
    with pytest.raises(KeyError) as excinfo:
        rule(bad_id)
    assert repr(bad_id) in str(excinfo.value)
    with pytest.raises(KeyError):
        cite(bad_id)


def test_only_c6_and_the_tr_rules_are_table_rules() -> None:
    # C6 (Air Mahjong) is a house rule; K4 stays a League rule even though
    # its text names a table variant (TR6 is that variant as a switch).
    assert [r.id for r in RULES.values() if r.table_rule] == ["C6", *TABLE_IDS]


def test_rules_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        RULES["J2"].plain = "changed"  # type: ignore[misc]
    assert isinstance(RULES["J2"], Rule)


def test_table_rules_cover_the_digest_list() -> None:
    keys = [t.key for t in TABLE_RULES]
    assert len(keys) == len(set(keys)) == 7
    assert [t.rule_id for t in TABLE_RULES] == [*TABLE_IDS[:6], "C6"]
    for t in TABLE_RULES:
        assert t.key.strip() and t.title.strip() and t.text.strip()
    with pytest.raises(dataclasses.FrozenInstanceError):
        TABLE_RULES[0].text = "changed"  # type: ignore[misc]

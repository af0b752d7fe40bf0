"""The command line: `python -m coach analyze | score | check-card`.

Most tests call `coach.cli.main` in-process (fast); a few run the real
`python -m coach` to prove the process contract for errors: exit status 2,
exactly one line on standard error, never a traceback.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from coach import cli
from tests.support.cli import run, run_json
from tests.support.paths import ROOT

HOUSE_YAML = ROOT / "coach" / "cards" / "house-2026.yaml"
PROG = "mahjong-coach"


def _house_lines() -> list[dict]:
    """The house card's hands read straight from the YAML, independent of coach.notation.card."""
    data = yaml.safe_load(HOUSE_YAML.read_text(encoding="utf-8"))
    return [dict(hand, section=section["name"]) for section in data["sections"] for hand in section["hands"]]


HOUSE_LINES = _house_lines()
HOUSE_IDS = [hand["id"] for hand in HOUSE_LINES]
HOUSE_BY_ID = {hand["id"]: hand for hand in HOUSE_LINES}

# WD-2 "FFF NNNN GGG SSSS" (25): 13 tiles one South short, and the full hand.
WD2_13 = "F F F N N N N GD GD GD S S S"
WD2_WIN = "F F F N N N N GD GD GD S S S S"
WD2_WIN_JOKER = "F F F N N N N GD GD J S S S S"  # a joker for one Green of the pung
# SP-7 "2026a 2026b 2026c NN" (75, concealed, Singles & Pairs): Dots, Bams, Craks.
SP7_WIN = "2D WD 2D 6D 2B WD 2B 6B 2C WD 2C 6C N N"
NOT_A_WIN = "1D 2D 3D 4D 5D 6D 7D 8D 9D 1B 2B 3B 4B 5B"

SMALL_CARD = """\
name: Tiny Card
year: 2026
sections:
  - name: Winds
    hands:
      - id: "W-1"
        pattern: "FFF NNNN GGG SSSS"
        value: 25
        note: "kongs of North and South"
      - id: "W-2"
        pattern: "NEWS NEWS FF RR 00"
        value: 50
        concealed: true
  - name: Runs
    hands:
      - id: "R-1"
        pattern: "11a 222a 3333a 444a 55a"
        value: 30
        numbers: any
"""


# -- helpers ----------------------------------------------------------------


def run_batch(command: str, objects: list[object | str], extra: list[str] | None = None) -> list[dict]:
    """Feed one JSON line per object (strings go in as they are); return the answers."""
    text = "".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objects)
    code, out = run([command, *(extra or [])], text)
    assert code == 0, out
    return [json.loads(line) for line in out.splitlines()]


def assert_one_error(capsys: pytest.CaptureFixture[str], code: int, *words: str) -> str:
    """Exit status 2 and exactly one line on stderr naming the problem."""
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert err.endswith("\n")
    assert lines[0].startswith(f"{PROG}: error: ")
    assert "Traceback" not in err
    for word in words:
        assert word.lower() in lines[0].lower(), lines[0]
    return lines[0]


def order_key(hand: dict) -> tuple[float, int, int]:
    distance = math.inf if hand["distance"] is None else hand["distance"]
    return (distance, -hand["live_outs"], -hand["value"])


def assert_sorted_as_specified(hands: list[dict]) -> None:
    keys = [order_key(h) for h in hands]
    assert keys == sorted(keys), [(h["id"], *order_key(h)) for h in hands]


def write_card(tmp_path: Path, text: str, name: str = "card.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def subprocess_run(args: list[str], stdin_text: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "coach", *args],
        input=stdin_text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=timeout,
    )


# -- analyze --json -----------------------------------------------------------


RACKS = [
    pytest.param([WD2_13], id="wd2-one-away"),
    pytest.param([WD2_WIN], id="wd2-mah-jongg"),
    pytest.param(["2D WD 2D 6D 2B WD 2B 6B 2C WD 2C 6C N"], id="sp7-one-away"),
    pytest.param(["1D 2D 3D 4D 5D 6D 7D 8D 9D 1B 2B 3B J"], id="mixed-with-joker"),
    pytest.param(["F F F GD GD GD S S S", "--exposed", "N N N N"], id="kong-exposed"),
    pytest.param(["3D 3D 3D 6B 6B 9C 9C E E F", "--exposed", "5D 5D J"], id="exposure-fits-nothing"),
    pytest.param([WD2_13, "--seen", "S 1D 1D 2B"], id="with-seen"),
]


@pytest.mark.parametrize("rack", RACKS)
def test_analyze_json_lists_every_house_line_sorted_nearest_first(rack: list[str]) -> None:
    data = run_json(["analyze", "--json", "--rack", *rack])
    hands = data["hands"]
    assert len(hands) == 61
    assert sorted(h["id"] for h in hands) == sorted(HOUSE_IDS)
    assert len(set(h["id"] for h in hands)) == 61
    for h in hands:
        assert {"id", "section", "distance", "value", "concealed", "live_outs"} <= set(h)
        card = HOUSE_BY_ID[h["id"]]
        assert h["section"] == card["section"]
        assert h["value"] == card["value"]
        assert h["concealed"] is card.get("concealed", False)
        assert h["distance"] is None or (isinstance(h["distance"], int) and 0 <= h["distance"] <= 14)
    assert_sorted_as_specified(hands)


def test_analyze_json_distances_for_a_known_rack() -> None:
    hands = run_json(["analyze", "--json", "--rack", WD2_13])["hands"]
    assert hands[0]["id"] == "WD-2"
    assert hands[0]["distance"] == 1
    assert hands[0]["value"] == 25
    assert hands[0]["section"] == "Winds & Dragons"
    # No exposures: every line is within reach.
    assert all(h["distance"] is not None for h in hands)


def test_analyze_json_mah_jongg_is_distance_zero() -> None:
    hands = run_json(["analyze", "--json", "--rack", WD2_WIN])["hands"]
    assert (hands[0]["id"], hands[0]["distance"]) == ("WD-2", 0)
    assert all(h["distance"] > 0 for h in hands[1:])


def test_analyze_json_concealed_lines_are_out_of_reach_with_an_exposure() -> None:
    hands = run_json(["analyze", "--json", "--rack", "F F F GD GD GD S S S", "--exposed", "N N N N"])["hands"]
    by_id = {h["id"]: h for h in hands}
    concealed = [h for h in hands if h["concealed"]]
    assert concealed  # the house card has concealed lines
    assert all(h["distance"] is None for h in concealed)
    # The lines with a kong of North stay within reach, WD-2 one tile away.
    assert by_id["WD-2"]["distance"] == 1
    for line_id in ("2026-1", "ADD-1", "QUINT-2", "ODD-1"):
        assert by_id[line_id]["distance"] is not None, line_id
    # The out-of-reach lines come last.
    reachable = [h["distance"] is not None for h in hands]
    assert reachable == sorted(reachable, reverse=True)


def test_analyze_json_concealed_lines_reachable_without_exposure() -> None:
    hands = run_json(["analyze", "--json", "--rack", "2D WD 2D 6D 2B WD 2B 6B 2C WD 2C 6C N"])["hands"]
    by_id = {h["id"]: h for h in hands}
    assert by_id["SP-7"]["concealed"] is True
    assert by_id["SP-7"]["distance"] == 1
    assert hands[0]["id"] == "SP-7"


def test_analyze_seen_tiles_reduce_live_outs() -> None:
    def wd2(extra: list[str]) -> dict:
        hands = run_json(["analyze", "--json", "--rack", WD2_13, *extra])["hands"]
        return next(h for h in hands if h["id"] == "WD-2")

    # One South and eight jokers are unseen: 9 outs; once the last South is seen, 8.
    assert wd2([])["live_outs"] == 9
    assert wd2(["--seen", "S"])["live_outs"] == 8


def test_analyze_accepts_aliases_and_commas() -> None:
    plain = run_json(["analyze", "--json", "--rack", WD2_13])
    aliased = run_json(
        ["analyze", "--json", "--rack", "flower, F, f, north, N, n, N, green, green dragon, GD, south, S, s"]
    )
    assert aliased == plain


# -- analyze, the human table ----------------------------------------------------


def test_analyze_table_names_the_nearest_line_and_what_is_missing() -> None:
    code, out = run(["analyze", "--rack", WD2_13])
    assert code == 0
    assert not out.lstrip().startswith("{")
    lines = out.splitlines()
    rows = [line for line in lines if line.startswith("WD-2")]
    assert rows, out
    row = rows[0]
    assert " 1 " in row  # one tile away
    assert "S" in row.split("  ")[-1]  # the missing South
    # WD-2 is the first line of the table, before every other card line.
    table_ids = [line.split()[0] for line in lines if line.split() and line.split()[0] in HOUSE_BY_ID]
    assert table_ids[0] == "WD-2"
    assert len(table_ids) == 10  # default --top


def test_analyze_table_top_option() -> None:
    code, out = run(["analyze", "--rack", WD2_13, "--top", "3"])
    assert code == 0
    table_ids = [line.split()[0] for line in out.splitlines() if line.split() and line.split()[0] in HOUSE_BY_ID]
    assert len(table_ids) == 3
    assert "58 more" in out


def test_analyze_table_shows_exposures() -> None:
    code, out = run(["analyze", "--rack", "F F F GD GD GD S S S", "--exposed", "N N N N"])
    assert code == 0
    assert "Exposed 1" in out
    assert "WD-2" in out


def test_analyze_table_mah_jongg() -> None:
    code, out = run(["analyze", "--rack", WD2_WIN])
    assert code == 0
    assert "Mah Jongg" in out


# -- --card ---------------------------------------------------------------------


def test_analyze_with_a_custom_card(tmp_path: Path) -> None:
    card = write_card(tmp_path, SMALL_CARD)
    data = run_json(["analyze", "--card", card, "--json", "--rack", WD2_13])
    hands = data["hands"]
    assert [h["id"] for h in hands] == ["W-1", "W-2", "R-1"]
    assert hands[0]["distance"] == 1 and hands[0]["section"] == "Winds"
    assert hands[1]["concealed"] is True and hands[1]["value"] == 50
    assert hands[2]["section"] == "Runs" and hands[2]["distance"] == 14
    assert_sorted_as_specified(hands)

    code, out = run(["analyze", "--card", card, "--rack", WD2_13])
    assert code == 0
    assert "Tiny Card" in out and "W-1" in out


def test_score_with_a_custom_card(tmp_path: Path) -> None:
    card = write_card(tmp_path, SMALL_CARD)
    data = run_json(["score", "--card", card, "--rack", WD2_WIN, "--win", "discard", "--json"])
    assert data["hand"] == "W-1"
    assert (data["value"], data["discarder"], data["other"], data["total"]) == (25, 100, 50, 200)


# -- analyze, batch ---------------------------------------------------------------


def test_batch_analyze_answers_in_order_and_survives_a_bad_line() -> None:
    first = {"rack": WD2_13}
    third = {"rack": "F F F GD GD GD S S S", "exposed": ["N N N N"]}
    answers = run_batch("analyze", [first, {"rack": "1D 1X 2D"}, third])
    assert len(answers) == 3
    assert set(answers[1]) == {"error"}
    assert "1X" in answers[1]["error"]
    assert answers[0] == run_json(["analyze", "--json", "--rack", WD2_13])
    assert answers[2] == run_json(["analyze", "--json", "--rack", "F F F GD GD GD S S S", "--exposed", "N N N N"])


def test_batch_analyze_with_seen_matches_single() -> None:
    answers = run_batch("analyze", [{"rack": WD2_13, "seen": "S 1D"}])
    assert answers == [run_json(["analyze", "--json", "--rack", WD2_13, "--seen", "S 1D"])]


def test_batch_skips_blank_lines() -> None:
    text = "\n" + json.dumps({"rack": WD2_13}) + "\n\n   \n" + json.dumps({"rack": WD2_WIN}) + "\n\n"
    code, out = run(["analyze"], text)
    assert code == 0
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == 2
    assert answers[0]["hands"][0]["distance"] == 1
    assert answers[1]["hands"][0]["distance"] == 0


def test_batch_empty_input_answers_nothing() -> None:
    assert run(["analyze"], "") == (0, "")


def test_batch_answers_invalid_json_with_an_error() -> None:
    answers = run_batch("analyze", ['{"rack": "1D 2D', "not json at all", {"rack": WD2_13}])
    assert len(answers) == 3
    for bad in answers[:2]:
        assert set(bad) == {"error"}
        assert "JSON" in bad["error"]
    assert answers[2]["hands"][0]["id"] == "WD-2"


BAD_ANALYZE_LINES = [
    pytest.param({"exposed": ["N N N"]}, id="rack-missing"),
    pytest.param({"rack": WD2_13, "colour": "red"}, id="unknown-key"),
    pytest.param([WD2_13], id="not-an-object"),
    pytest.param("null", id="json-null"),
    pytest.param('"1D 2D"', id="json-string"),
    pytest.param({"rack": "1D 2D 3D"}, id="too-few-tiles"),
    pytest.param({"rack": "1D 1D 1D 1D 1D 2D 3D 4D 5D 6D 7D 8D 9D"}, id="five-copies"),
    pytest.param({"rack": "F F F GD GD GD S S S", "exposed": "N N N N"}, id="exposed-not-a-list"),
    pytest.param({"rack": "F F F GD GD GD S S S", "exposed": ["N N"]}, id="exposure-too-small"),
    pytest.param({"rack": "F F F GD GD GD S S S", "exposed": ["N E W S"]}, id="exposure-mixed"),
    pytest.param({"rack": "F F F GD GD GD S S S", "exposed": [5]}, id="exposure-a-number"),
    pytest.param({"rack": WD2_13, "seen": "S S"}, id="seen-too-many"),
    pytest.param({"rack": None}, id="rack-null"),
    pytest.param({"rack": 7}, id="rack-a-number"),
    # Bugs: a list holding a non-string crashes the whole batch (AttributeError).
    pytest.param({"rack": ["1D", 5]}, id="rack-list-with-number"),
    pytest.param({"rack": WD2_13, "seen": [1]}, id="seen-list-with-number"),
    # Bug: a deeply nested JSON line raises RecursionError out of the batch.
    pytest.param("[" * 100_000 + "]" * 100_000, id="deeply-nested-json"),
]


@pytest.mark.parametrize("bad", BAD_ANALYZE_LINES)
def test_batch_analyze_bad_line_is_an_error_answer(bad: object) -> None:
    answers = run_batch("analyze", [{"rack": WD2_13}, bad, {"rack": WD2_WIN}])
    assert len(answers) == 3
    assert set(answers[1]) == {"error"}
    assert isinstance(answers[1]["error"], str) and answers[1]["error"]
    assert answers[0]["hands"][0]["distance"] == 1
    assert answers[2]["hands"][0]["distance"] == 0


# -- score ----------------------------------------------------------------------

SCORE_CASES = [
    # WD-2 (25), jokerless: the jokerless bonus doubles every payment.
    pytest.param(WD2_WIN, [], "discard", ("WD-2", 25, True, 100, 50, 200), id="jokerless-discard"),
    pytest.param(WD2_WIN, [], "self", ("WD-2", 25, True, None, 100, 300), id="jokerless-self"),
    pytest.param(WD2_WIN, [], "exchange", ("WD-2", 25, True, None, 100, 300), id="jokerless-exchange"),
    # The same hand with a joker for one Green Dragon: no bonus.
    pytest.param(WD2_WIN_JOKER, [], "discard", ("WD-2", 25, False, 50, 25, 100), id="joker-discard"),
    pytest.param(WD2_WIN_JOKER, [], "self", ("WD-2", 25, False, None, 50, 150), id="joker-self"),
    pytest.param(WD2_WIN_JOKER, [], "exchange", ("WD-2", 25, False, None, 50, 150), id="joker-exchange"),
    # Exposures count: a joker in an exposure spoils jokerless, a natural kong does not.
    pytest.param("F F F GD GD GD S S S S", ["N N N J"], "discard", ("WD-2", 25, False, 50, 25, 100), id="exposed-joker"),
    pytest.param("F F F GD GD GD S S S S", ["N N N N"], "discard", ("WD-2", 25, True, 100, 50, 200), id="exposed-natural"),
    pytest.param("F F F GD GD GD S S S S", ["N N N N"], "self", ("WD-2", 25, True, None, 100, 300), id="exposed-natural-self"),
    # SP-7 (75), Singles & Pairs: never a jokerless bonus.
    pytest.param(SP7_WIN, [], "discard", ("SP-7", 75, True, 150, 75, 300), id="singles-pairs-discard"),
    pytest.param(SP7_WIN, [], "self", ("SP-7", 75, True, None, 150, 450), id="singles-pairs-self"),
    pytest.param(SP7_WIN, [], "exchange", ("SP-7", 75, True, None, 150, 450), id="singles-pairs-exchange"),
]


@pytest.mark.parametrize(("rack", "exposed", "win", "expected"), SCORE_CASES)
def test_score_json_payments(rack: str, exposed: list[str], win: str, expected: tuple) -> None:
    argv = ["score", "--rack", rack, "--win", win, "--json"]
    for e in exposed:
        argv += ["--exposed", e]
    data = run_json(argv)
    got = (data["hand"], data["value"], data["jokerless"], data["discarder"], data["other"], data["total"])
    assert got == expected
    # total is what all three losers pay together.
    payers = [data["other"], data["other"], data["discarder"] if data["discarder"] is not None else data["other"]]
    assert data["total"] == sum(payers)


@pytest.mark.parametrize("win", ["discard", "self", "exchange"])
def test_score_not_mah_jongg_pays_nothing(win: str) -> None:
    data = run_json(["score", "--rack", NOT_A_WIN, "--win", win, "--json"])
    assert data["hand"] is None
    assert data["total"] == 0
    assert data["other"] == 0
    assert data["value"] == 0
    assert data["discarder"] in ((0,) if win == "discard" else (None,))


def test_score_concealed_line_with_an_exposure_is_not_mah_jongg() -> None:
    # 2026-5 "2026a 2026b 22c 6666c" is concealed: exposing the kong of 6 Crak spoils it.
    concealed = run_json(["score", "--rack", "2D WD 2D 6D 2B WD 2B 6B 2C 2C 6C 6C 6C 6C", "--win", "self", "--json"])
    assert concealed["hand"] == "2026-5"
    exposed = run_json(
        ["score", "--rack", "2D WD 2D 6D 2B WD 2B 6B 2C 2C", "--exposed", "6C 6C 6C 6C", "--win", "self", "--json"]
    )
    assert exposed["hand"] is None and exposed["total"] == 0


def test_score_human_output_explains(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["score", "--rack", WD2_WIN, "--win", "discard"])
    assert code == 0
    assert "WD-2" in out and "200" in out
    assert capsys.readouterr().err == ""


def test_score_batch() -> None:
    objects: list[object | str] = [
        {"rack": WD2_WIN, "win": "discard"},
        {"rack": WD2_WIN_JOKER, "win": "self"},
        {"rack": WD2_WIN, "win": "sideways"},
        "",
        {"rack": SP7_WIN, "win": "self"},
        {"rack": WD2_13, "win": "self"},
        {"rack": WD2_WIN},
        {"rack": "F F F GD GD GD S S S S", "exposed": ["N N N J"], "win": "exchange"},
        {"rack": WD2_WIN, "win": "self", "seen": "1D"},
        {"rack": NOT_A_WIN, "win": "self"},
    ]
    answers = run_batch("score", objects)
    assert len(answers) == 9  # the blank line is skipped
    expect = [
        ("WD-2", 100, 50, 200),
        ("WD-2", None, 50, 150),
        "error",
        ("SP-7", None, 150, 450),
        "error",  # 13 tiles
        "error",  # no win
        ("WD-2", None, 50, 150),
        "error",  # unknown key
        (None, None, 0, 0),
    ]
    for answer, want in zip(answers, expect, strict=True):
        if want == "error":
            assert set(answer) == {"error"}, answer
        else:
            assert (answer["hand"], answer["discarder"], answer["other"], answer["total"]) == want
    # A batch answer is the single --json answer.
    assert answers[0] == run_json(["score", "--rack", WD2_WIN, "--win", "discard", "--json"])


# -- check-card -------------------------------------------------------------------


def test_check_card_house_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["check-card", str(HOUSE_YAML)])
    assert code == 0
    assert "61 lines" in out
    assert "10 sections" in out
    assert "valid" in out
    assert capsys.readouterr().err == ""


def test_check_card_small_card(tmp_path: Path) -> None:
    code, out = run(["check-card", write_card(tmp_path, SMALL_CARD)])
    assert code == 0
    assert "Tiny Card" in out and "3 lines" in out and "2 sections" in out


BAD_CARD = """\
name: Bad Card
year: 2026
sections:
  - name: S
    hands:
      - id: "A"
        pattern: "FFF NNNN GGG SSSS"
        value: 25
      - id: "A"
        pattern: "FFF EEEE GGG SSSS"
        value: 25
      - id: "B"
        pattern: "FFF NNNN GGG SSSS"
        value: 25
        colour: blue
      - id: "C"
        pattern: "FFF NNNN GGG SSS"
        value: 25
      - id: "D"
        pattern: "FFF NNNN GGG SSSX"
        value: 25
      - id: "E"
        pattern: "NN NN NN EEEE SSSS"
        value: 25
"""


def test_check_card_lists_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["check-card", write_card(tmp_path, BAD_CARD)])
    err_line = assert_one_error(capsys, code)
    problems = out.splitlines()
    assert len(problems) == 5, out
    text = out.lower()
    assert "duplicate" in text
    assert "colour" in text
    assert "13 tiles" in text
    assert '"x"' in text
    assert "no tile set can complete" in text
    # Each problem names its hand.
    for hand, word in [('"A"', "duplicate"), ('"B"', "colour"), ('"C"', "13"), ('"D"', "symbol"), ('"E"', "complete")]:
        assert any(hand in p and word in p for p in problems), (hand, out)
    assert "4 more problems" in err_line


BAD_CARDS = {
    "syntax": ("name: [unclosed\nsections:\n", "yaml"),
    "unknown-key": (SMALL_CARD.replace('        value: 25\n', '        value: 25\n        colour: red\n', 1), "colour"),
    "duplicate-id": (SMALL_CARD.replace('"R-1"', '"W-1"'), "duplicate"),
    "thirteen-tiles": (SMALL_CARD.replace("FFF NNNN GGG SSSS", "FFF NNNN GGG SSS"), "13"),
    "bad-symbol": (SMALL_CARD.replace("FFF NNNN GGG SSSS", "FFF NNNN GGG SSSQ"), "symbol"),
    # Three pairs of North need six natural Norths; a set has four.
    "uncompletable": (SMALL_CARD.replace("FFF NNNN GGG SSSS", "NN NN NN EEEE SSSS"), "complete"),
    # Fourteen Norths, twelve of them in groups of 3+: ten jokers, a set has eight.
    "too-many-jokers": (SMALL_CARD.replace("FFF NNNN GGG SSSS", "NNNNNN NNNNNN NN"), "complete"),
    "empty-file": ("", "mapping"),
    "value-not-a-number": (SMALL_CARD.replace("value: 25", "value: lots"), "value"),
    "group-of-seven": (SMALL_CARD.replace("FFF NNNN GGG SSSS", "FFFFFFF NNNN GGG"), "group"),
}


@pytest.mark.parametrize("case", sorted(BAD_CARDS))
def test_bad_card_is_one_error_line_everywhere(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, word = BAD_CARDS[case]
    card = write_card(tmp_path, text)
    code, out = run(["check-card", card])
    assert_one_error(capsys, code, word)
    assert out.strip()  # check-card lists the problems
    code, out = run(["analyze", "--card", card, "--rack", WD2_13])
    assert_one_error(capsys, code, word)
    assert out == ""
    code, out = run(["score", "--card", card, "--rack", WD2_WIN, "--win", "self"])
    assert_one_error(capsys, code, word)
    # The lean batch reads the card's rank tables alone, but a card that is not valid the same way (issue 26).
    lines = json.dumps({"rack": WD2_13}) + "\n"
    for extra in (["--fields", "id,distance"], ["--fields", "id,colour"], ["--fields", "id", "--top", "-1"]):
        code, out = run(["analyze", "--card", card, "--json", *extra], lines)
        assert_one_error(capsys, code, word)
        assert out == ""


def test_missing_card_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "nope.yaml")
    code, _ = run(["analyze", "--card", missing, "--rack", WD2_13])
    assert_one_error(capsys, code, "nope.yaml")
    code, _ = run(["analyze", "--card", missing, "--json", "--fields", "id,distance"], json.dumps({"rack": WD2_13}) + "\n")
    assert_one_error(capsys, code, "nope.yaml")
    code, _ = run(["check-card", missing])
    assert_one_error(capsys, code, "nope.yaml")


# -- errors in-process ------------------------------------------------------------------

ERROR_CASES = [
    pytest.param([], "command", id="no-command"),
    pytest.param(["shuffle"], "shuffle", id="unknown-command"),
    pytest.param(["analyze", "--rack", "1D 1X 2D 3D 4D 5D 6D 7D 8D 9D 1B 2B 3B"], "1X", id="unknown-tile"),
    pytest.param(["analyze", "--rack", "1D 1D 1D 1D 1D 2D 3D 4D 5D 6D 7D 8D 9D"], "4", id="five-copies"),
    pytest.param(
        ["analyze", "--rack", "1D 1D 1D 2D 3D 4D 5D 6D 7D 8D", "--exposed", "1D 1D J"], "1 Dot", id="five-copies-with-exposure"
    ),
    pytest.param(["analyze", "--rack", "F F F F F F F F F J J J J"], "Flower", id="nine-flowers"),
    pytest.param(["analyze", "--rack", "1D 2D 3D"], "13", id="too-few"),
    pytest.param(["analyze", "--rack", WD2_13, "--exposed", "N N"], "exposure", id="exposure-of-two"),
    pytest.param(["analyze", "--rack", WD2_13, "--seen", "S S"], "South", id="seen-too-many"),
    pytest.param(["analyze", "--rack", WD2_13, "--top", "many"], "top", id="bad-top"),
    pytest.param(["analyze", "--rack", WD2_13, "--bogus"], "bogus", id="unknown-option"),
    pytest.param(["score", "--rack", WD2_WIN, "--win", "sideways"], "win", id="bad-win"),
    pytest.param(["score", "--rack", WD2_WIN], "win", id="no-win"),
    pytest.param(["score", "--rack", WD2_13, "--win", "self"], "14", id="score-13-tiles"),
    pytest.param(["score", "--rack", WD2_WIN + " 1D", "--win", "self"], "14", id="score-15-tiles"),
    pytest.param(["check-card"], "file", id="check-card-no-file"),
]


@pytest.mark.parametrize(("argv", "word"), ERROR_CASES)
def test_errors_exit_2_with_one_line(argv: list[str], word: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(argv)
    assert_one_error(capsys, code, word)
    assert out == ""


# -- real processes ------------------------------------------------------------------


def _assert_process_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"{PROG}: error: ")
    for word in words:
        assert word.lower() in lines[0].lower(), lines[0]


def test_process_happy_path() -> None:
    result = subprocess_run(["analyze", "--json", "--rack", WD2_13])
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    hands = json.loads(result.stdout)["hands"]
    assert len(hands) == 61 and hands[0]["id"] == "WD-2"


def test_process_batch_in_order() -> None:
    stdin = "\n".join([json.dumps({"rack": WD2_13}), "{oops", "", json.dumps({"rack": WD2_WIN})]) + "\n"
    result = subprocess_run(["analyze"], stdin)
    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == 3
    assert answers[0]["hands"][0]["distance"] == 1
    assert set(answers[1]) == {"error"}
    assert answers[2]["hands"][0]["distance"] == 0


PROCESS_ERRORS = [
    pytest.param(["analyze", "--rack", "1D 1X 2D 3D 4D 5D 6D 7D 8D 9D 1B 2B 3B"], ["1X"], id="unknown-tile"),
    pytest.param(["analyze", "--rack", "1D 1D 1D 1D 1D 2D 3D 4D 5D 6D 7D 8D 9D"], ["1 Dot"], id="five-copies"),
    pytest.param([], ["command"], id="no-command"),
    pytest.param(["score", "--rack", WD2_WIN, "--win", "sideways"], ["win"], id="bad-win"),
    pytest.param(["score", "--rack", WD2_13, "--win", "self"], ["14"], id="score-13-tiles"),
]


@pytest.mark.parametrize(("argv", "words"), PROCESS_ERRORS)
def test_process_errors(argv: list[str], words: list[str]) -> None:
    _assert_process_error(subprocess_run(argv), *words)


def test_process_missing_card_file(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing-card.yaml")
    _assert_process_error(subprocess_run(["analyze", "--card", missing, "--rack", WD2_13]), "missing-card.yaml")
    lean = ["analyze", "--card", missing, "--json", "--fields", "id,distance"]
    _assert_process_error(subprocess_run(lean, json.dumps({"rack": WD2_13}) + "\n"), "missing-card.yaml")


@pytest.mark.parametrize(
    "case", ["syntax", "unknown-key", "duplicate-id", "thirteen-tiles", "bad-symbol", "uncompletable"]
)
def test_process_malformed_card(case: str, tmp_path: Path) -> None:
    text, word = BAD_CARDS[case]
    card = write_card(tmp_path, text)
    _assert_process_error(subprocess_run(["analyze", "--card", card, "--rack", WD2_13]), word)


def test_process_check_card_bad_card(tmp_path: Path) -> None:
    result = subprocess_run(["check-card", write_card(tmp_path, BAD_CARD)])
    _assert_process_error(result)
    assert len(result.stdout.splitlines()) == 5


def test_process_check_card_house_card() -> None:
    result = subprocess_run(["check-card", str(HOUSE_YAML)])
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "61 lines" in result.stdout


def test_process_batch_bad_rack_type_is_answered_not_a_traceback() -> None:
    # Bug: a rack list holding a number raises AttributeError out of the batch.
    stdin = "\n".join(json.dumps(o) for o in [{"rack": WD2_13}, {"rack": [1, 2, 3]}, {"rack": WD2_WIN}]) + "\n"
    result = subprocess_run(["analyze"], stdin)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == 3 and set(answers[1]) == {"error"}


def test_a_command_alone_parses_as_in_the_whole_parser() -> None:
    """`main` builds only the command asked for (a quicker start, issue 13):
    each command's parser must be the very one the whole parser holds."""
    import argparse

    def commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices

    whole = commands(cli.build_parser())
    assert list(whole) == list(cli.SUBPARSERS)
    for name in cli.SUBPARSERS:
        alone = commands(cli.build_parser(name))
        assert list(alone) == [name]
        assert alone[name].format_help() == whole[name].format_help()


def test_help_imports_no_numpy() -> None:
    """`--help` answers without loading numpy (issue 26): the commands import what they use when run."""
    code = (
        "import sys\n"
        "from coach.cli import main\n"
        "for argv in (['--help'], ['analyze', '--help'], ['pass', '--help'], ['bench', '--help']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print('numpy' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.strip().splitlines()[-1] == "False"

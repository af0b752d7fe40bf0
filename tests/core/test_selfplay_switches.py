"""`python -m coach selfplay --all-switches` on a small sample (CI): every value
of every table rule (TR1-TR6, C6) and every pair of switches, each hand's tiles
counted after every action (blanks too), its record replayed from JSON, no
error. The 500-hand runs and their figures: docs/table-rules.md."""

from __future__ import annotations

import argparse
import io
import itertools

import pytest

from coach.cli import main
from coach.notation import tiles
from coach.play.hand import Hand
from coach.rules.table_rules import SWITCHES, TableRules
from coach.tools import selfplay_switches as switches
from tests.support.hands import CARD


def args(**given: object) -> argparse.Namespace:
    base: dict[str, object] = {"hands": 1, "seed": 3, "switch_sets": "all", "sets": "", "strong_every": 2, "review_every": 0}
    base.update(given)
    return argparse.Namespace(**base)


def test_TR1_to_TR6_and_C6_the_sets_are_every_value_alone_and_every_pair_of_switches() -> None:
    singles, pairs = switches.single_sets(), switches.pair_sets()
    values = {(s.name, v) for s in SWITCHES for v in s.choices if v != s.default}
    assert {(r.changed()[0].name, getattr(r, r.changed()[0].name)) for r in singles} == values and len(singles) == len(values) == 11
    assert all(len(r.changed()) == 2 for r in pairs) and len(set(pairs)) == len(pairs) == 48
    assert {tuple(s.rule_id for s in r.changed()) for r in pairs} == {
        (a.rule_id, b.rule_id) for a, b in itertools.combinations(SWITCHES, 2)
    }
    assert switches.switch_sets(codes="b2, cold.3p") == [TableRules(blanks=2), TableRules(wall_end="cold", players=3)]


def test_TR1_to_TR6_and_C6_each_switch_alone_every_strength_conserves_every_tile_and_replays() -> None:
    out = io.StringIO()
    assert switches.run(args(hands=2, switch_sets="singles"), out, None, card=CARD) == 0
    text = out.getvalue()
    for rules in switches.single_sets():
        assert f"({rules.code()})" in text
    assert "11 sets, 22 hands, 0 with errors" in text
    rows = [line.split() for line in text.splitlines() if line.startswith(("TR", "C6"))]
    assert len(rows) == 11 and all(row[2:4] == ["2", "0"] for row in rows)  # hands, errors
    blanks = [row for row in rows if row[1].startswith("(b")]
    assert all(int(row[-2]) > 0 for row in blanks)  # blank swaps made at every table with blanks (TR1)


def test_TR1_to_TR6_and_C6_every_pair_of_switches_conserves_every_tile_and_replays() -> None:
    out = io.StringIO()
    assert switches.run(args(hands=1, switch_sets="pairs"), out, None, card=CARD) == 0
    assert "48 sets, 48 hands, 0 with errors" in out.getvalue()


def test_TR1_a_lost_blank_is_an_error_named_with_its_set_and_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    real_apply = Hand.apply

    def leaky(self: Hand, action: object) -> None:
        real_apply(self, action)  # type: ignore[arg-type]
        if len(self.actions) == 5 and self.rules.blanks:  # a blank vanishes, from the wall or a rack
            place = next(p for p in [self.wall, *self.racks.values()] if tiles.BLANK in p)
            place.remove(tiles.BLANK)
    monkeypatch.setattr(Hand, "apply", leaky)
    out = io.StringIO()
    assert switches.run(args(sets="b2,cold"), out, None, card=CARD) == 1
    text = out.getvalue()
    assert "2 sets, 2 hands, 1 with errors" in text
    assert "b2 seed 3000009" in text and "do not add up to 154" in text


def test_the_command_line_runs_the_switch_sets_named() -> None:
    out = io.StringIO()
    assert main(["selfplay", "--all-switches", "--hands", "1", "--sets", "b2.3p", "--review-every", "1"], stdout=out) == 0
    text = out.getvalue()
    assert "TR1.TR4 (b2.3p)" in text and "1 sets, 1 hands, 0 with errors" in text
    assert main(["selfplay", "--all-switches", "--rules", "b2"], stdout=io.StringIO()) == 2

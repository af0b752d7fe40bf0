"""Self-play under every table rule (docs/table-rules.md) and a sample of pairs:
the computer players of every strength finish each hand without error, every
move they make is on the legal list, every tile of the set (the 152 and the
table's blanks) is somewhere after every action, and the record replays to the
very same state. The small engine card keeps it quick: hands end often, in
Mah Jongg and in wall games. The 500-hand runs are `python -m coach selfplay
--rules CODE --hands ... --check` (docs/table-rules.md gives the figures)."""

from __future__ import annotations

from collections import Counter

import pytest

from coach.notation import tiles
from coach.play.bots import play
from coach.play.hand import BLANK_SWAP, SEATS, Action, Hand, deal
from coach.play.legal import is_legal
from coach.rules.table_rules import WALL_COLD, TableRules
from coach.tools.selfplay import state
from tests.support.hands import CARD

SWITCHES = ["b2", "b8", "cold", "hot", "jc", "3p", "pa", "fs", "air"]
PAIRS = ["b8.cold", "b4.3p", "hot.fs", "3p.pa", "b6.jc.air"]
EVERY = ["b4.hot.jc.3p.pa.fs", "b8.cold.air"]
HANDS = 24
QUICK = ("beginner", "club")  # the quick computer players: many hands
STRONG = ("coach", "shark", "club", "beginner")  # every strength at one table: fewer hands


def bots_for(number: int, strengths: tuple[str, ...]) -> dict[str, str]:
    """The strengths seated in turn, a different seat first each hand."""
    return {seat: strengths[(number + i) % len(strengths)] for i, seat in enumerate(SEATS)}


def checked_replay(hand: Hand) -> tuple[Hand, Counter[str]]:
    """The hand replayed from its record and rules, each action checked legal before it is taken."""
    again = deal(CARD, hand.seed, TableRules.from_json(hand.record().get("rules")))
    kinds: Counter[str] = Counter()
    for action in hand.actions:
        # Every move on the legal list (a Charleston pass is checked by the engine alone:
        # its list is every set of three, long to build; test_hand_legal holds the two equal).
        assert action.kind == "pass" or is_legal(again, action), (hand.seed, len(again.actions), action)
        if again.rules.wall_end == WALL_COLD and action.kind == "call":
            assert not again.in_last_wall  # TR2: nobody calls in a cold wall's last tiles
        kinds[action.kind] += 1
        again.apply(action)
    return again, kinds


@pytest.mark.parametrize(("code", "strengths", "hands"), [
    *(pytest.param(code, QUICK, HANDS, id=code) for code in SWITCHES + PAIRS),
    *(pytest.param(code, STRONG, 4, id=f"{code}-every-strength") for code in EVERY),
])
def test_TR1_to_TR6_and_C6_self_play_conserves_every_tile_and_replays_exactly(
    code: str, strengths: tuple[str, ...], hands: int,
) -> None:
    rules = TableRules.from_code(code)
    seen: Counter[str] = Counter()
    for number in range(hands):
        seed = 7919 * number + len(code)

        def watch(hand: Hand, action: Action, spent: float) -> None:
            assert hand.census() == hand.full_set(), (code, seed, len(hand.actions), action)
            assert action.seat in hand.seats  # TR4: North's empty seat never acts

        hand = play(CARD, seed, bots_for(number, strengths), watch=watch, rules=rules)
        assert hand.phase == "over" and hand.result is not None
        assert sum(hand.result.pays.values()) == 0 and set(hand.result.pays) == set(hand.seats)
        again, kinds = checked_replay(hand)
        assert state(again) == state(hand)
        seen.update(kinds)
        seen[f"how:{hand.result.how}"] += 1
        blanks = sum(a.tiles.count(tiles.BLANK_CODE) for a in hand.actions if a.kind in ("pass", "courtesy"))
        seen["blanks passed"] += blanks
    assert seen["how:self"] + seen["how:discard"] + seen["how:exchange"] > 0  # some hands are won
    if rules.blanks:
        assert seen[BLANK_SWAP] > 0  # the computer players make blank swaps (TR1)

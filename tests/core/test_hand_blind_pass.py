"""The blind pass (C5) and the all-blind end of the Charleston (C6) in the hand engine.

On the last pass of each Charleston a seat may send some of the tiles coming
to it in that same pass straight on, unseen: they never enter its rack, and
three tiles still move. Seat s sends its own tiles first, then the first
`blind` tiles of what comes to it, in the order they come.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coach.notation import tiles
from coach.play.hand import SEATS, Action, Hand, HandError, deal, replay
from coach.play.legal import legal_actions
from coach.rules.charleston import BLIND_PASSES, sender
from coach.rules.table_rules import LEAGUE, TableRules
from tests.support.cards import CARD as HOUSE
from tests.support.examples import examples
from tests.support.hands import FULL_SET


def own(hand: Hand, seat: str, count: int) -> tuple[str, ...]:
    """The seat's first `count` natural tiles, as codes."""
    return tuple(tiles.CODES[t] for t in [t for t in hand.racks[seat] if t != tiles.JOKER][:count])


AIR_MAHJONG = TableRules(air_mahjong=True)  # C6 switched on


def at(step: str, seed: int = 5, rules: TableRules = LEAGUE) -> Hand:
    """A hand dealt and passed plainly up to `step`."""
    hand = deal(HOUSE, seed, rules)
    while hand.step != step:
        assert hand.phase == "charleston", f"the hand never reached {step}"
        for seat in list(hand.waiting()):
            if hand.step == "vote":
                hand.apply(Action(seat, "vote", go=True))
            else:
                hand.apply(Action(seat, "pass", own(hand, seat, 3)))
    return hand


def pass_all(hand: Hand, blind: dict[str, int]) -> dict[str, list[int]]:
    """Each seat passes `blind[seat]` on unseen and the rest its own first tiles;
    returns the own tiles each seat sent."""
    sent = {}
    for seat in SEATS:
        b = blind.get(seat, 0)
        codes = own(hand, seat, 3 - b)
        sent[seat] = [tiles.INDEX[c] for c in codes]
        hand.apply(Action(seat, "pass", codes, blind=b))
    return sent


def test_C5_blind_tiles_never_enter_the_rack():
    hand = at("first-left")
    before = {s: Counter(hand.racks[s]) for s in SEATS}
    sent = pass_all(hand, {"East": 2})
    # Left: South's pass comes to East; East forwards its first two unseen and keeps the third.
    south = sent[sender("East", "left")]
    assert hand.received["East"] == south[2:]
    assert Counter(hand.racks["East"]) == before["East"] - Counter(sent["East"]) + Counter(south[2:])
    assert len(hand.racks["East"]) == 14
    # North (East's left) gets East's own tile, then the two East forwarded, in order.
    assert hand.received["North"] == sent["East"] + south[:2]
    assert hand.census() == FULL_SET and hand.step == "vote"


@pytest.mark.parametrize("blind", [0, 1, 2, 3])
def test_C5_three_tiles_still_move_mixed_own_and_blind(blind):
    hand = at("second-right")
    sizes = {s: len(hand.racks[s]) for s in SEATS}
    sent = pass_all(hand, {"South": blind})
    # Right: East passes to South, South to West.
    assert hand.received["West"] == sent["South"] + sent["East"][:blind]
    assert hand.received["South"] == sent["East"][blind:]
    assert {s: len(hand.racks[s]) for s in SEATS} == sizes
    assert all(len(hand.received[s]) == 3 for s in SEATS if s != "South")
    assert hand.census() == FULL_SET and hand.step == "offer"


def test_C5_own_tiles_come_from_the_whole_rack():
    # The tiles that came in the pass before are in the rack like any other and may be passed.
    hand = at("first-left")
    got = [tiles.CODES[t] for t in hand.received["East"]]
    hand.apply(Action("East", "pass", tuple(got[:2]), blind=1))
    assert hand.passes["East"].tiles == tuple(got[:2])


@pytest.mark.parametrize("step", ["first-right", "first-across", "second-left", "second-across"])
def test_C5_blind_only_on_last_pass(step):
    hand = at(step)
    with pytest.raises(HandError) as error:
        hand.apply(Action("East", "pass", own(hand, "East", 2), blind=1))
    assert error.value.rule == "C5"
    assert all(a.blind == 0 for a in legal_actions(hand, "East"))


@pytest.mark.parametrize("step", BLIND_PASSES)
def test_C5_blind_allowed_on_the_last_pass_of_each_charleston(step):
    hand = at(step)
    assert {a.blind for a in legal_actions(hand, "East")} == {0, 1, 2, 3}
    hand.apply(Action("East", "pass", own(hand, "East", 1), blind=2))
    assert hand.passes["East"].blind == 2


@pytest.mark.parametrize(
    ("step", "own_count", "blind", "rule"),
    [
        ("first-left", 0, 4, "C5"),  # at most the three coming in
        ("second-right", 0, 5, "C5"),
        ("first-left", 2, 2, "C1"),  # four tiles
        ("first-left", 0, 2, "C1"),  # two tiles
        ("second-right", 1, 1, "C2"),
        ("second-right", 3, 1, "C2"),
    ],
)
def test_C5_refusals_keep_their_rule_ids(step, own_count, blind, rule):
    hand = at(step)
    with pytest.raises(HandError) as error:
        hand.apply(Action("East", "pass", own(hand, "East", own_count), blind=blind))
    assert error.value.rule == rule
    assert "East" not in hand.passes


def test_C4_a_blind_pass_still_never_passes_a_joker():
    seed = next(s for s in range(300) if tiles.JOKER in at("first-left", s).racks["East"])
    hand = at("first-left", seed)
    with pytest.raises(HandError) as error:
        hand.apply(Action("East", "pass", ("J",), blind=2))
    assert error.value.rule == "C4"


@pytest.mark.parametrize("step", BLIND_PASSES)
def test_C6_all_blind_ends_the_charleston(step):
    hand = at(step, rules=AIR_MAHJONG)
    racks = {s: sorted(hand.racks[s]) for s in SEATS}
    pass_all(hand, dict.fromkeys(SEATS, 3))
    # No vote, no second Charleston, no courtesy pass: East discards (S4).
    assert hand.phase == "play" and hand.step == "" and hand.courtesy == {}
    assert hand.waiting() == {"East": "turn"} and hand.acquired == "deal"
    assert {s: sorted(hand.racks[s]) for s in SEATS} == racks  # nothing was left to move
    assert all(hand.received[s] == [] for s in SEATS)
    assert hand.census() == FULL_SET
    assert [a.kind for a in hand.actions[-4:]] == ["pass"] * 4


@pytest.mark.parametrize("step", BLIND_PASSES)
def test_C6_off_by_league_rules_an_all_blind_pass_moves_nothing_and_goes_on(step):
    hand = at(step)
    racks = {s: sorted(hand.racks[s]) for s in SEATS}
    pass_all(hand, dict.fromkeys(SEATS, 3))
    assert hand.phase == "charleston" and hand.step == {"first-left": "vote", "second-right": "offer"}[step]
    assert {s: sorted(hand.racks[s]) for s in SEATS} == racks  # nothing was left to move (C5)
    assert all(hand.received[s] == [] for s in SEATS)
    assert hand.census() == FULL_SET
    assert replay(HOUSE, hand.seed, hand.actions).step == hand.step


def test_C6_three_all_blind_is_not_the_end():
    hand = at("first-left")
    racks = {s: sorted(hand.racks[s]) for s in SEATS}
    sent = pass_all(hand, {"East": 3, "South": 3, "West": 3})
    # North's own three go all the way round, unseen, and come back to North.
    assert hand.received["North"] == sent["North"]
    assert {s: sorted(hand.racks[s]) for s in SEATS} == racks
    assert hand.phase == "charleston" and hand.step == "vote"


def test_C5_two_neighbours_blind_pass_a_tile_along_a_chain():
    # Left: West sends to South, South to East, East to North, North to West.
    hand = at("first-left")
    sent = pass_all(hand, {"South": 3, "East": 3})
    # West's three go through South and East unseen and land with North.
    assert hand.received["North"] == sent["West"]
    assert hand.received["South"] == [] and hand.received["East"] == []
    assert hand.received["West"] == sent["North"]
    assert hand.census() == FULL_SET


def test_C5_a_chain_of_mixed_blind_passes():
    hand = at("first-left")
    sent = pass_all(hand, {"East": 2, "South": 1})
    w, s, e, n = sent["West"], sent["South"], sent["East"], sent["North"]
    # South: sends its two, then West's first; keeps West's last two.
    assert hand.received["South"] == w[1:]
    # East: gets South's [s1, s2, w1], sends e1, s1, s2 on, keeps w1.
    assert hand.received["East"] == w[:1]
    assert hand.received["North"] == e + s
    assert hand.received["West"] == n
    assert hand.census() == FULL_SET


def test_C5_three_neighbours_blind_with_counts_that_bring_tiles_home():
    hand = at("second-right")
    # Right: North sends to East, East to South, South to West, West to North.
    sent = pass_all(hand, {"East": 3, "South": 3, "West": 2, "North": 1})
    # West sends w1 then North's first two; that goes round to North, who keeps its own two.
    assert hand.received["North"] == sent["North"]
    assert hand.received["West"] == sent["West"]
    assert hand.received["East"] == [] and hand.received["South"] == []
    assert hand.census() == FULL_SET


@settings(max_examples=examples(40), database=None, suppress_health_check=list(HealthCheck), deadline=None)
@given(seed=st.integers(0, 2**31 - 1), step=st.sampled_from(BLIND_PASSES), data=st.data())
def test_C5_census_stays_152_for_any_legal_pass_choices(seed, step, data):
    hand = at(step, seed % 1000)
    before = {s: Counter(hand.racks[s]) for s in SEATS}
    chosen = {}
    for seat in SEATS:
        legal = legal_actions(hand, seat)
        # Every blind count is drawn often enough that the all-blind end (C6) is tried too.
        blind = data.draw(st.sampled_from([0, 1, 2, 3, 3]))
        chosen[seat] = data.draw(st.sampled_from([a for a in legal if a.blind == blind]))
        hand.apply(chosen[seat])
    assert hand.census() == FULL_SET
    assert all(len(hand.racks[s]) == sum(before[s].values()) for s in SEATS)
    sent = sum((Counter(tiles.INDEX[c] for c in a.tiles) for a in chosen.values()), Counter())
    kept = sum((Counter(hand.received[s]) for s in SEATS), Counter())
    assert kept == sent  # every own tile sent lands in exactly one rack, none is lost or made
    for seat in SEATS:
        assert len(hand.received[seat]) == 3 - chosen[seat].blind
        assert Counter(hand.racks[seat]) == before[seat] - Counter(tiles.INDEX[c] for c in chosen[seat].tiles) + Counter(hand.received[seat])
        assert tiles.JOKER not in hand.received[seat]  # C4
    # By the League's rules (C6 off) an all-blind pass moves nothing and the Charleston goes on.
    assert hand.phase == "charleston"


def test_C5_replay_rebuilds_a_blind_pass_exactly():
    hand = at("first-left", 77)
    pass_all(hand, {"East": 1, "West": 3})
    again = replay(HOUSE, 77, list(hand.actions))
    assert again.racks == hand.racks and again.received == hand.received

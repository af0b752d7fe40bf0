"""The legal actions of a hand (issue 16, part 7): every action listed is
taken by Hand.apply, and an action not listed is refused with its rule.

The property test plays random hands (each move the club bot's choice or a
random listed one) and at every state applies listed actions to copies of
the hand (all of them when few, a sample when many) and random actions of
every kind not listed, which must raise HandError. Random actions keep the
shape of their kind (only the fields the kind uses): a stray field is the
API's business (see refusal), not the engine's.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coach.notation import tiles
from coach.play.bots import decide
from coach.play.hand import SEATS, Action, Exposed, Hand, HandError, deal
from coach.play.legal import canonical, is_legal, legal_actions, refusal, trial_copy
from tests.support.cards import CARD as HOUSE
from tests.support.examples import examples
from tests.support.hands import CARD, codes, in_play

KINDS = ("pass", "vote", "offer", "courtesy", "call", "no-call", "discard", "exchange", "mahjong")


def copy_of(hand: Hand) -> Hand:
    trial = trial_copy(hand)
    assert trial == hand and trial.racks is not hand.racks
    return trial


def applies(hand: Hand, action: Action) -> bool:
    try:
        copy_of(hand).apply(action)
    except HandError:
        return False
    return True


def random_action(rng: random.Random, hand: Hand) -> Action:
    """Any action of any kind, in its kind's shape, often from tiles the seat holds."""
    waiting = hand.waiting()
    seat = rng.choice(list(waiting)) if waiting and rng.random() < 0.7 else rng.choice(SEATS)
    owed = {"turn": ("discard", "exchange", "mahjong"), "call": ("call", "no-call")}.get(waiting.get(seat, ""), (waiting.get(seat),))
    kind = rng.choice([k for k in owed if k]) if waiting.get(seat) and rng.random() < 0.6 else rng.choice(KINDS)
    held = [tiles.CODES[t] for t in hand.racks[seat]]

    def some(n: int) -> tuple[str, ...]:
        pool = held if held and rng.random() < 0.8 else list(tiles.CODES)
        return tuple(rng.choice(pool) for _ in range(n))

    if kind == "pass":
        blind = rng.choice((0, 0, 1, 2, 3))
        return Action(seat, kind, some(rng.choice((3 - blind, 3 - blind, 2, 4))), blind=blind)
    if kind == "vote":
        return Action(seat, kind, go=rng.random() < 0.5)
    if kind == "offer":
        return Action(seat, kind, count=rng.randrange(6))
    if kind == "courtesy":
        return Action(seat, kind, some(rng.randrange(5)))
    if kind == "call":
        return Action(seat, kind, size=rng.choice((0, 0, 1, 2, 3, 4, 5, 6)))
    if kind in ("discard", "exchange"):
        action = Action(seat, kind, some(rng.choice((1, 1, 1, 2))))
        if kind == "exchange":
            action = Action(seat, kind, action.tiles, owner=rng.choice(SEATS), group=rng.randrange(3))
        return action
    return Action(seat, kind)


def check_state(hand: Hand, rng: random.Random, samples: int = 6) -> None:
    for seat in SEATS:
        legal = legal_actions(hand, seat)
        assert bool(legal) == (seat in hand.waiting()), (seat, hand.waiting())
        assert len(set(legal)) == len(legal), "each action is listed once"
        for action in legal if len(legal) <= samples else rng.sample(legal, samples):
            assert applies(hand, action), (action, hand.step, hand.phase)
    for _ in range(samples):
        action = random_action(rng, hand)
        if not is_legal(hand, action):
            assert not applies(hand, action), (action, hand.step, hand.phase)
            assert isinstance(refusal(hand, action), HandError)
        else:
            assert applies(hand, action), action


def self_play(card, seed: int, rng: random.Random, limit: int = 1500) -> Hand:
    hand = deal(card, seed)
    for _ in range(limit):
        waiting = hand.waiting()
        if not waiting:
            return hand
        check_state(hand, rng)
        seat = next(s for s in SEATS if s in waiting)
        legal = legal_actions(hand, seat)
        bot = decide(hand, seat, "club", rng)
        assert canonical(bot) in legal, (bot, hand.step)  # the coach never plays outside the list
        hand.apply(bot if rng.random() < 0.6 else rng.choice(legal))
    raise AssertionError(f"seed {seed}: the hand did not end")


@settings(max_examples=examples(3), database=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**31 - 1))
def test_H1_every_listed_action_applies_and_no_other_does(seed):
    hand = self_play(HOUSE, seed, random.Random(seed))
    assert hand.phase == "over" and hand.census() == Counter(tiles.WALL)
    assert all(legal_actions(hand, s) == [] for s in SEATS)


def test_C1_the_first_pass_lists_every_set_of_three_without_jokers():
    hand = deal(HOUSE, 5)
    legal = legal_actions(hand, "East")
    rack = Counter(hand.racks["East"])
    naturals = Counter({t: n for t, n in rack.items() if t != tiles.JOKER})
    assert all(a.kind == "pass" and len(a.tiles) == 3 and a.blind == 0 and "J" not in a.tiles for a in legal)
    # every multiset of 3 from the rack's natural tiles, counted independently
    found = {tuple(sorted(a.tiles)) for a in legal}
    expected = set()
    kinds = sorted(naturals)
    for i, a in enumerate(kinds):
        for j, b in enumerate(kinds[i:], i):
            for c in kinds[j:]:
                need = Counter((a, b, c))
                if all(naturals[t] >= n for t, n in need.items()):
                    expected.add(tuple(sorted(tiles.CODES[t] for t in (a, b, c))))
    assert found == expected and len(legal) == len(found)


def test_C5_blind_variants_only_on_the_last_pass_of_each_charleston():
    hand = deal(HOUSE, 9)
    rng = random.Random(1)
    for _ in range(8):  # first-right and first-across: never blind
        assert all(a.blind == 0 for s in hand.waiting() for a in legal_actions(hand, s))
        seat = next(iter(hand.waiting()))
        hand.apply(decide(hand, seat, "club", rng))
    assert hand.step == "first-left"
    legal = legal_actions(hand, "East")
    assert {a.blind for a in legal} == {0, 1, 2, 3}
    assert Action("East", "pass", blind=3) in legal
    # C5: the own tiles of a blind pass come from the whole rack, the tiles just received among them.
    rack = Counter(hand.racks["East"])
    for blind in range(4):
        owned = {a.tiles for a in legal if a.blind == blind}
        assert all(not Counter(tiles.INDEX[c] for c in chosen) - rack for chosen in owned)
        assert len(owned) == len([a for a in legal if a.blind == blind])
    got = tuple(sorted((tiles.CODES[t] for t in hand.received["East"][:2]), key=tiles.sort_key))
    assert Action("East", "pass", got, blind=1) in legal
    for action in legal:
        assert len(action.tiles) + action.blind == 3
        assert applies(hand, action)


def test_C2_C3_vote_and_offer_choices():
    hand = deal(HOUSE, 3)
    hand.step = "vote"
    assert legal_actions(hand, "South") == [Action("South", "vote", go=True), Action("South", "vote", go=False)]
    hand.step = "offer"
    assert [a.count for a in legal_actions(hand, "West")] == [0, 1, 2, 3]
    hand.step, hand.courtesy = "courtesy", {"East": 2, "West": 2, "South": 0, "North": 0}
    assert legal_actions(hand, "South") == []
    legal = legal_actions(hand, "East")
    assert legal and all(len(a.tiles) == 2 and "J" not in a.tiles for a in legal)  # C4


def test_K4_calls_list_mahjong_each_exposure_and_no_call():
    hand = in_play(deal(CARD, 1), {"East": "4B", "South": "1B 1B 1B 1B 2B 2B 2B 2B 3B 3B 3B 3B 4B",
                                   "West": "4B 4B 8D", "North": "5D 5D 9D"})
    hand.apply(Action("East", "discard", ("4B",)))
    south = legal_actions(hand, "South")
    assert Action("South", "call") in south and south[-1] == Action("South", "no-call")  # K3: Mah Jongg
    west = legal_actions(hand, "West")
    assert Action("West", "call") not in west and Action("West", "no-call") in west
    assert all(a.kind in ("call", "no-call") for a in south + west)
    assert legal_actions(hand, "East") == [] and legal_actions(hand, "North") == []


def test_J5_exchanges_and_discards_on_the_turn():
    hand = in_play(deal(CARD, 2), {"East": "5D 5D 6D 7D 8D 9D 1C 2C 3C 4C 5C 6C 7C 8C",
                                   "South": "1D 2D"})
    hand.exposed["South"] = [Exposed(tiles.INDEX["5D"], 3, 1)]
    hand.racks["South"] = codes("1D 2D")  # the exposure's two natural tiles come out of the set's count
    hand.wall = hand.wall[: len(hand.wall) - 3]
    legal = legal_actions(hand, "East")
    assert Action("East", "exchange", ("5D",), owner="South", group=0) in legal
    discards = [a.tiles[0] for a in legal if a.kind == "discard"]
    assert discards == sorted(set(discards), key=tiles.sort_key) and set(discards) == {tiles.CODES[t] for t in hand.racks["East"]}
    assert Action("East", "mahjong") not in legal
    hand.acquired = "deal"  # S4: East's first throw, nothing drawn: no exchange
    assert not [a for a in legal_actions(hand, "East") if a.kind == "exchange"]


def test_H1_a_winning_holding_lists_mahjong_first():
    hand = in_play(deal(CARD, 4), {"East": "1B 1B 1B 1B 2B 2B 2B 2B 3B 3B 3B 3B 4B 4B"})
    assert legal_actions(hand, "East")[0] == Action("East", "mahjong")


def test_S5_a_stray_field_is_refused_with_the_kinds_rule():
    hand = deal(HOUSE, 6)
    hand.step = "vote"
    assert not is_legal(hand, Action("East", "vote", ("5D",)))
    assert refusal(hand, Action("East", "vote", ("5D",))).rule == "C2"
    assert refusal(hand, Action("South", "discard", ("5D",))).rule == "C2"
    assert is_legal(hand, Action("East", "vote", go=False))


def test_C4_a_pass_with_a_joker_is_never_listed_and_is_refused():
    hand = next(h for h in (deal(HOUSE, seed) for seed in range(100)) if tiles.JOKER in h.racks["East"])
    others = [tiles.CODES[t] for t in hand.racks["East"] if t != tiles.JOKER][:2]
    action = Action("East", "pass", ("J", *others))
    assert not is_legal(hand, action)
    assert refusal(hand, action).rule == "C4" and not applies(hand, action)
    assert all("J" not in a.tiles for a in legal_actions(hand, "East"))

"""The hand engine under each table rule (docs/table-rules.md): the legal and
the illegal moves of every switch, each refusal with the rule id that
forbids it. Under the League's rules the engine's own tests hold unchanged
(tests/core/test_hand.py and the rest)."""

from __future__ import annotations

import io
import json
from collections import Counter

import pytest

from coach.cli import main
from coach.notation import tiles
from coach.play.hand import BLANK_SWAP, SEATS, Action, Hand, HandError, deal, replay, replay_record, rules_of
from coach.play.legal import is_legal, legal_actions, refusal
from coach.play.seen import next_tile
from coach.play.telling import tell
from coach.rules.table_rules import BEFORE_SWITCHES, LEAGUE, TableRules
from tests.support.cards import CARD as HOUSE
from tests.support.hands import CARD, codes, in_play

BLANKS = TableRules(blanks=4)
COLD, HOT = TableRules(wall_end="cold"), TableRules(wall_end="hot")
THREE = TableRules(players=3)


def refused(hand: Hand, action: Action) -> HandError:
    """The engine's refusal of `action`, which must also be off the legal list."""
    assert not is_legal(hand, action)
    with pytest.raises(HandError) as error:
        hand.apply(action)
    return error.value


def on_floor(hand: Hand, text: str, seat: str = "North") -> None:
    """Tiles moved from the wall to the discards, as `seat`'s old throws."""
    for tile in codes(text):
        hand.wall.remove(tile)
        hand.discards.append((seat, tile))


def to_last_wall(hand: Hand, left: int | None = None, keep: str = "") -> None:
    """Play as if the wall had come down to `left` tiles (the last wall by
    default): the rest thrown long ago, never a tile of `keep`."""
    left = hand.last_wall if left is None else left
    kept = set(codes(keep))
    while len(hand.wall) > left:
        tile = next(t for t in reversed(hand.wall) if t not in kept)
        hand.wall.reverse()
        hand.wall.remove(tile)  # the last such tile
        hand.wall.reverse()
        hand.discards.append(("North", tile))


def plain_pass(hand: Hand, seat: str, count: int = 3) -> Action:
    chosen = [t for t in hand.racks[seat] if t not in (tiles.JOKER, tiles.BLANK)][:count]
    return Action(seat, "pass", tuple(tiles.TABLE_CODES[t] for t in chosen))


# -- TR1: blanks ------------------------------------------------------------------------------


@pytest.mark.parametrize("blanks", [2, 4, 8])
def test_TR1_blanks_join_the_wall_are_dealt_like_any_tile_and_the_census_counts_them(blanks: int) -> None:
    rules = TableRules(blanks=blanks)
    for seed in range(30):
        hand = deal(HOUSE, seed, rules)
        assert hand.census() == hand.full_set() == Counter(tiles.WALL) + Counter({tiles.BLANK: blanks})
        assert len(hand.wall) == 152 + blanks - 53 and [len(hand.racks[s]) for s in SEATS] == [14, 13, 13, 13]
        for seat in SEATS:  # a blank is never part of a holding the card reads
            assert hand.holding(seat).size == len(hand.racks[seat]) - hand.racks[seat].count(tiles.BLANK)
    assert any(tiles.BLANK in deal(HOUSE, seed, rules).racks["East"] for seed in range(30))


def test_TR1_the_league_deal_is_the_same_as_before_and_holds_no_blank() -> None:
    hand = deal(HOUSE, 7)
    assert hand.census() == hand.full_set() == Counter(tiles.WALL) and tiles.BLANK not in hand.wall


def test_TR1_a_blank_is_outside_every_card_reading_and_known_only_to_the_table() -> None:
    assert tiles.BLANK == tiles.KINDS and tiles.name(tiles.BLANK) == "Blank" and tiles.TABLE_CODES[tiles.BLANK] == "BL"
    for text in ("BL", "blank"):
        with pytest.raises(tiles.TileError):
            tiles.code_of(text)
    with pytest.raises(tiles.TileError):
        tiles.parse("BL 5D 5D")
    action = Action.from_json({"seat": "East", "kind": "discard", "tiles": ["blank"]})
    assert action.tiles == ("BL",) and Action.from_json(action.to_json()) == action
    swap = Action("East", BLANK_SWAP, ("4D",), place=3)
    assert Action.from_json(swap.to_json()) == swap and swap.to_json()["place"] == 3


def swap_scene(rules: TableRules = BLANKS, last: str = "7C") -> Hand:
    hand = in_play(deal(CARD, 1, rules), {
        "East": f"1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D BL {last}",  # one tile from KONGS: the 4 Dot
        "South": "7B", "West": "8B", "North": "9B",
    })
    on_floor(hand, "5C 4D J 6B")
    hand.discards[2] = ("West", tiles.JOKER)
    return hand


def test_TR1_on_your_turn_a_blank_is_swapped_for_any_discard_but_a_joker() -> None:
    hand = swap_scene()
    swaps = [a for a in legal_actions(hand, "East") if a.kind == BLANK_SWAP]
    assert swaps == [Action("East", BLANK_SWAP, ("5C",), place=0), Action("East", BLANK_SWAP, ("4D",), place=1),
                     Action("East", BLANK_SWAP, ("6B",), place=3)]  # never the joker (TR1)
    assert Action("East", "discard", ("BL",)) in legal_actions(hand, "East")
    hand.apply(Action("East", BLANK_SWAP, ("4D",), place=1))
    assert hand.discards[1] == ("East", tiles.BLANK) and tiles.BLANK not in hand.racks["East"]
    assert len(hand.racks["East"]) == 14 and hand.census() == hand.full_set()
    assert hand.waiting() == {"East": "turn"}  # still East's turn: the swap is no discard
    # One swap a turn, and a blank in the discards is never taken back.
    assert not [a for a in legal_actions(hand, "East") if a.kind == BLANK_SWAP]


def test_TR1_swaps_the_rules_refuse_each_cite_TR1() -> None:
    hand = swap_scene(last="BL")
    assert refused(hand, Action("East", BLANK_SWAP, ("J",), place=2)).rule == "TR1"  # a joker
    assert refused(hand, Action("East", BLANK_SWAP, ("4D",), place=9)).rule == "TR1"  # no such discard
    assert refused(hand, Action("East", BLANK_SWAP, ("6B",), place=1)).rule == "TR1"  # not the tile there
    assert refused(hand, Action("South", BLANK_SWAP, ("4D",), place=1)).rule == "TR1"  # not South's turn
    hand.apply(Action("East", BLANK_SWAP, ("5C",), place=0))
    error = refused(hand, Action("East", BLANK_SWAP, ("4D",), place=1))
    assert error.rule == "TR1" and "one blank swap a turn" in error.message
    assert refused(hand, Action("East", BLANK_SWAP, ("BL",), place=0)).rule == "TR1"  # a blank is never taken back
    # Before a pick or a call (East's first turn) there is no swap, nor without a blank, nor without the switch.
    first = swap_scene()
    first.acquired = "deal"
    assert refused(first, Action("East", BLANK_SWAP, ("4D",), place=1)).rule == "TR1"
    none = swap_scene()
    none.racks["East"].remove(tiles.BLANK)
    none.racks["East"].append(tiles.INDEX["9C"])
    none.wall.remove(tiles.INDEX["9C"])
    none.wall.append(tiles.BLANK)
    assert refused(none, Action("East", BLANK_SWAP, ("4D",), place=1)).rule == "TR1"
    league = in_play(deal(CARD, 1), {"East": "1D 1D 2D", "South": "7B"})
    on_floor(league, "4D")
    assert refused(league, Action("East", BLANK_SWAP, ("4D",), place=0)).rule == "TR1"


def test_TR1_a_win_completed_by_a_swap_pays_as_self_picked() -> None:
    hand = swap_scene()
    assert refused(hand, Action("East", "mahjong")).rule == "TR1"  # a blank in the rack: never Mah Jongg
    hand.apply(Action("East", BLANK_SWAP, ("4D",), place=1))
    assert Action("East", "mahjong") not in legal_actions(hand, "East")  # KONGS needs a pair of 4 Dots
    hand = swap_scene()
    hand.racks["East"].remove(tiles.INDEX["7C"])
    hand.racks["East"].append(tiles.INDEX["4D"])
    hand.wall.remove(tiles.INDEX["4D"])
    hand.wall.append(tiles.INDEX["7C"])
    hand.apply(Action("East", BLANK_SWAP, ("4D",), place=1))
    assert Action("East", "mahjong") in legal_actions(hand, "East")
    hand.apply(Action("East", "mahjong"))
    assert hand.result is not None and hand.result.how == "self" and hand.result.payment is not None
    value = 2 * CARD.line("KONGS").value  # jokerless (P4)
    assert hand.result.pays == {"East": 6 * value, "South": -2 * value, "West": -2 * value, "North": -2 * value}  # P3
    assert "TR1" in hand.result.payment.rules and hand.census() == hand.full_set()


def test_TR1_after_a_call_a_swap_that_wins_is_paid_as_self_picked_not_by_the_thrower() -> None:
    hand = in_play(deal(CARD, 4, BLANKS), {
        "East": "1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D BL",
        "South": "1D 7C", "West": "8B", "North": "9B",
    }, turn="South")
    on_floor(hand, "4D", seat="West")
    hand.apply(Action("South", "discard", ("1D",)))
    assert ("expose", 4) in hand.may_call["East"]
    for seat in hand.callers():
        hand.apply(Action(seat, "call", size=4) if seat == "East" else Action(seat, "no-call"))
    assert hand.waiting() == {"East": "turn"} and hand.win_how == "discard"
    hand.apply(Action("East", BLANK_SWAP, ("4D",), place=0))
    hand.apply(Action("East", "mahjong"))
    assert hand.result is not None and hand.result.how == "self"
    assert all(hand.result.pays[s] < 0 for s in ("South", "West", "North"))
    assert len({hand.result.pays[s] for s in ("South", "West", "North")}) == 1  # nobody pays as the thrower


def test_TR1_a_discarded_blank_is_never_called_and_play_goes_on() -> None:
    hand = in_play(deal(CARD, 2, BLANKS), {"East": "BL 5C", "South": "BL BL 7B", "West": "8B", "North": "9B"})
    hand.apply(Action("East", "discard", ("BL",)))
    assert hand.discards[-1] == ("East", tiles.BLANK) and hand.latest is None
    assert hand.waiting() == {"South": "turn"} and hand.census() == hand.full_set()
    error = refused(hand, Action("West", "call", size=3))
    assert error.rule in ("S4", "K1")
    assert not [a for a in legal_actions(hand, "South") if a.kind == BLANK_SWAP and a.tiles == ("BL",)]


def test_TR1_a_call_for_mah_jongg_with_a_blank_held_is_refused() -> None:
    hand = in_play(deal(CARD, 2, BLANKS), {
        "East": "4D 5C", "South": "F F 1D 1D 1D 2D 2D 2D 3D 3D 4D 4D BL", "West": "9C", "North": "9B",
    })
    hand.apply(Action("East", "discard", ("4D",)))
    assert hand.may_call == {"South": [("expose", 3)]}  # a pung of 4 Dots (PUNGS), never Mah Jongg
    error = refused(hand, Action("South", "call"))
    assert error.rule == "TR1" and "blank" in error.message


def test_TR1_no_swap_while_the_latest_discard_may_still_be_called() -> None:
    hand = in_play(deal(CARD, 2, BLANKS), {"East": "2B 5C", "South": "F F 2B 2B BL", "West": "8B", "North": "9B"})
    on_floor(hand, "6D")
    hand.apply(Action("East", "discard", ("2B",)))
    assert hand.waiting() == {"South": "call"}
    error = refused(hand, Action("South", BLANK_SWAP, ("6D",), place=0))
    assert error.rule == "TR1"


def test_TR1_blanks_are_passed_in_the_charleston_like_any_tile() -> None:
    seed = next(s for s in range(100) if tiles.BLANK in deal(HOUSE, s, BLANKS).racks["East"])
    hand = deal(HOUSE, seed, BLANKS)
    others = [tiles.TABLE_CODES[t] for t in hand.racks["East"] if t not in (tiles.BLANK, tiles.JOKER)][:2]
    mine = Action("East", "pass", tuple(sorted(("BL", *others), key=tiles.sort_key)))
    assert mine in legal_actions(hand, "East")
    hand.apply(mine)
    for seat in SEATS[1:]:
        hand.apply(plain_pass(hand, seat))
    assert tiles.BLANK in hand.received["South"] and hand.census() == hand.full_set()


# -- TR2: the last wall, cold or hot -------------------------------------------------------------


def test_TR2_the_last_wall_is_the_end_of_the_wall_twice_the_dice_total_in_tiles() -> None:
    for seed in range(20):
        hand = deal(HOUSE, seed, COLD)
        assert hand.last_wall == 2 * sum(hand.dice) and not hand.in_last_wall
        hand.wall = hand.wall[len(hand.wall) - hand.last_wall - 1:]
        assert not hand.in_last_wall  # one tile before the tiles left behind at the break
        hand.wall.pop(0)
        assert hand.in_last_wall  # every tile left to draw was left behind at the break (S2)


def hot_scene(rules: TableRules, floor: str = "", east: str = "4D 5C") -> Hand:
    """West waits on the 4 Dot (PUNGS, jokers in its pung of 4s); East throws it."""
    hand = in_play(deal(CARD, 3, rules), {
        "East": east, "South": "7B", "North": "7C",
        "West": "F F 1D 1D 1D 2D 2D 2D 3D 3D 3D J J",
    })
    on_floor(hand, floor)
    to_last_wall(hand, keep="4D")
    return hand


def test_TR2_a_cold_wall_allows_no_call_in_its_last_tiles() -> None:
    hand = hot_scene(COLD)
    hand.apply(Action("East", "discard", ("4D",)))
    assert hand.may_call == {} and hand.latest is None and hand.waiting() == {"South": "turn"}
    error = refused(hand, Action("West", "call"))
    assert error.rule == "TR2" and "cold" in error.message
    # Before the last wall, and by the League's rules, the same discard is called.
    early = hot_scene(COLD)
    early.wall += [early.discards.pop()[1] for _ in range(2)]
    assert not early.in_last_wall
    early.apply(Action("East", "discard", ("4D",)))
    assert ("mahjong", 0) in early.may_call["West"]
    league = hot_scene(LEAGUE)
    league.apply(Action("East", "discard", ("4D",)))
    assert ("mahjong", 0) in league.may_call["West"]


def west_wins(hand: Hand) -> dict[str, int]:
    hand.apply(Action("East", "discard", ("4D",)))
    hand.apply(Action("West", "call"))
    assert hand.result is not None and hand.result.winner == "West" and hand.result.how == "discard"
    assert hand.census() == hand.full_set()
    return hand.result.pays


def test_TR2_at_a_hot_wall_the_thrower_of_the_winning_tile_pays_for_the_table() -> None:
    value = CARD.line("PUNGS").value
    league = west_wins(hot_scene(LEAGUE))
    assert league == {"East": -2 * value, "South": -value, "North": -value, "West": 4 * value}  # P2
    hand = hot_scene(HOT)
    pays = west_wins(hand)
    assert pays == {"East": -4 * value, "South": 0, "North": 0, "West": 4 * value}  # the winner's total unchanged
    assert hand.result is not None and hand.result.payment is not None and "TR2" in hand.result.payment.rules


def test_TR2_the_thrower_is_excused_when_every_other_copy_was_in_sight() -> None:
    value = CARD.line("PUNGS").value
    # Two 4 Dots on the floor and one more in East's own rack: the three others in sight.
    seen = west_wins(hot_scene(HOT, floor="4D 4D", east="4D 4D 5C"))
    assert seen == {"East": -2 * value, "South": -value, "North": -value, "West": 4 * value}
    # Two in sight only: East pays for everyone.
    unseen = west_wins(hot_scene(HOT, floor="4D 4D", east="4D 5C"))
    assert unseen == {"East": -4 * value, "South": 0, "North": 0, "West": 4 * value}
    # Not in the last wall: the League's payment.
    early = hot_scene(HOT)
    early.wall += [early.discards.pop()[1] for _ in range(2)]
    assert west_wins(early) == {"East": -2 * value, "South": -value, "North": -value, "West": 4 * value}


# -- TR3: a joker in the courtesy pass ---------------------------------------------------------


def courtesy_scene(rules: TableRules) -> Hand:
    seed = next(s for s in range(200) if tiles.JOKER in deal(HOUSE, s, rules).racks["East"])
    hand = deal(HOUSE, seed, rules)
    for _ in range(3):
        for seat in SEATS:
            hand.apply(plain_pass(hand, seat))
    for seat in SEATS:
        hand.apply(Action(seat, "vote", go=False))
    for seat in SEATS:
        hand.apply(Action(seat, "offer", count=1))
    return hand


def test_TR3_a_joker_may_go_across_in_the_courtesy_pass_only_with_the_switch() -> None:
    rules = TableRules(joker_in_courtesy=True)
    hand = courtesy_scene(rules)
    assert tiles.JOKER in hand.racks["East"]  # jokers never pass before the courtesy pass (C4)
    assert Action("East", "courtesy", ("J",)) in legal_actions(hand, "East")
    hand.apply(Action("East", "courtesy", ("J",)))
    for seat in ("South", "West", "North"):
        hand.apply(Action(seat, "courtesy", plain_pass(hand, seat, 1).tiles))
    assert hand.racks["West"].count(tiles.JOKER) >= 1 and hand.census() == hand.full_set()
    league = courtesy_scene(LEAGUE)
    assert refused(league, Action("East", "courtesy", ("J",))).rule == "C4"
    # The first and second Charlestons still never pass a joker (C4).
    seed = next(s for s in range(200) if tiles.JOKER in deal(HOUSE, s, rules).racks["East"])
    first = deal(HOUSE, seed, rules)
    others = plain_pass(first, "East", 2).tiles
    assert refused(first, Action("East", "pass", tuple(sorted(("J", *others), key=tiles.sort_key)))).rule == "C4"


# -- TR4: three players --------------------------------------------------------------------------


def test_TR4_three_players_north_is_not_dealt_and_its_tiles_stay_in_the_wall() -> None:
    hand = deal(HOUSE, 9, THREE)
    assert hand.seats == ("East", "South", "West")
    assert [len(hand.racks[s]) for s in SEATS] == [14, 13, 13, 0] and len(hand.wall) == 152 - 40
    assert hand.census() == hand.full_set() and set(hand.waiting()) == {"East", "South", "West"}
    error = refused(hand, Action("North", "pass", ()))
    assert error.rule == "TR4"


def test_TR4_the_charleston_goes_right_then_left_then_left_then_right_with_no_courtesy() -> None:
    hand = deal(HOUSE, 9, THREE)
    for step, toward in (("first-right", {"East": "South", "South": "West", "West": "East"}),
                         ("first-left", {"East": "West", "South": "East", "West": "South"})):
        assert hand.step == step
        sent = {seat: plain_pass(hand, seat) for seat in hand.seats}
        for action in sent.values():
            hand.apply(action)
        for seat, to in toward.items():
            assert [tiles.TABLE_CODES[t] for t in hand.received[to]] == list(sent[seat].tiles)
    assert hand.step == "vote" and set(hand.waiting().values()) == {"vote"} and len(hand.waiting()) == 3
    for seat in hand.seats:
        hand.apply(Action(seat, "vote", go=True))
    assert hand.step == "second-left"
    for seat in hand.seats:
        hand.apply(plain_pass(hand, seat))
    assert hand.step == "second-right"
    assert any(a.blind for a in legal_actions(hand, "East"))  # the last pass may be blind (C5)
    for seat in hand.seats:
        hand.apply(plain_pass(hand, seat))
    assert hand.phase == "play" and hand.waiting() == {"East": "turn"}  # no courtesy pass
    assert hand.census() == hand.full_set()


def test_TR4_a_stopped_vote_goes_straight_to_play() -> None:
    hand = deal(HOUSE, 10, THREE)
    for _ in range(2):
        for seat in hand.seats:
            hand.apply(plain_pass(hand, seat))
    for seat in hand.seats:
        hand.apply(Action(seat, "vote", go=seat != "South"))
    assert hand.phase == "play" and hand.waiting() == {"East": "turn"}


def test_TR4_play_goes_east_south_west_and_the_two_losers_pay() -> None:
    hand = in_play(deal(CARD, 5, THREE), {
        "East": "4D 5C 6C", "South": "7B 8B",
        "West": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D",
    })
    hand.apply(Action("East", "discard", ("6C",)))
    assert hand.waiting() == {"South": "turn"}
    hand.apply(Action("South", "discard", ("8B",)))
    assert hand.waiting() == {"West": "turn"}
    west_drew = hand.racks["West"][-1]
    hand.apply(Action("West", "discard", (tiles.CODES[west_drew],)))
    assert hand.waiting() == {"East": "turn"}  # never North
    hand.apply(Action("East", "discard", ("4D",)))
    hand.apply(Action("West", "call"))
    value = 2 * CARD.line("KONGS").value  # jokerless (P4)
    assert hand.result is not None and hand.result.pays == {"East": -2 * value, "South": -value, "West": 3 * value}
    assert hand.result.payment is not None and hand.result.payment.total == 3 * value
    assert "TR4" in hand.result.payment.rules and hand.census() == hand.full_set()


def test_TR4_with_C6_three_all_blind_passes_end_the_charleston() -> None:
    hand = deal(HOUSE, 12, TableRules(players=3, air_mahjong=True))
    for seat in hand.seats:
        hand.apply(plain_pass(hand, seat))
    for seat in hand.seats:
        hand.apply(Action(seat, "pass", (), blind=3))
    assert hand.phase == "play" and hand.census() == hand.full_set()


# -- TR5: picking ahead ----------------------------------------------------------------------------


def ahead_scene(rules: TableRules) -> Hand:
    hand = in_play(deal(CARD, 2, rules), {"East": "2B 5C", "South": "7D", "West": "F F 2B 2B 9D", "North": "7C"},
                   wall="8C 8D")
    hand.apply(Action("East", "discard", ("2B",)))
    assert hand.waiting() == {"West": "call"}
    return hand


def test_TR5_the_next_player_sees_the_next_wall_tile_while_the_discard_may_be_called() -> None:
    hand = ahead_scene(TableRules(picking_ahead=True))
    assert hand.picked_ahead("South") == tiles.INDEX["8C"] == next_tile(hand, "South")
    assert [hand.picked_ahead(s) for s in ("East", "West", "North")] == [None, None, None]
    assert next_tile(hand, "West") is None
    hand.apply(Action("West", "no-call"))  # not called: it is South's draw
    assert hand.racks["South"][-1] == tiles.INDEX["8C"] and next_tile(hand, "South") is None
    league = ahead_scene(LEAGUE)
    assert league.picked_ahead("South") is None and next_tile(league, "South") is None


def test_TR5_a_tile_picked_ahead_goes_back_when_the_discard_is_called_and_only_its_picker_knows_it() -> None:
    hand = ahead_scene(TableRules(picking_ahead=True))
    hand.apply(Action("West", "call", size=3))
    assert hand.wall[0] == tiles.INDEX["8C"] and hand.turn == "West"
    assert next_tile(hand, "South") == tiles.INDEX["8C"]  # South looked: it still knows
    assert [next_tile(hand, s) for s in ("East", "West", "North")] == [None, None, None]
    hand.apply(Action("West", "discard", ("9D",)))  # nobody calls: North draws the tile South saw
    assert hand.racks["North"][-1] == tiles.INDEX["8C"] and next_tile(hand, "South") is None


# -- TR6: first to speak ---------------------------------------------------------------------------


def two_callers(rules: TableRules) -> Hand:
    hand = in_play(deal(CARD, 2, rules), {
        "East": "2B 5C", "South": "F F 2B J 9C", "West": "F F 2B 2B 9D", "North": "7D",
    })
    hand.apply(Action("East", "discard", ("2B",)))
    assert set(hand.callers()) == {"South", "West"}
    return hand


def test_TR6_between_calls_for_the_same_purpose_the_first_spoken_wins() -> None:
    hand = two_callers(TableRules(first_to_speak=True))
    hand.apply(Action("West", "call", size=3))  # West speaks first, though South sits nearer
    hand.apply(Action("South", "call", size=3))
    assert hand.exposed["West"] and not hand.exposed["South"] and hand.turn == "West"
    league = two_callers(LEAGUE)
    league.apply(Action("West", "call", size=3))
    league.apply(Action("South", "call", size=3))
    assert league.exposed["South"] and not league.exposed["West"]  # K4: the nearest seat


def test_TR6_mah_jongg_still_beats_an_exposure_spoken_first() -> None:
    hand = in_play(deal(CARD, 1, TableRules(first_to_speak=True)), {
        "East": "4D 5C", "South": "F F 4D 4D 7B 7C 8B",
        "West": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D", "North": "F F 5D 6D 7D",
    })
    hand.apply(Action("East", "discard", ("4D",)))
    hand.apply(Action("South", "call", size=3))
    for seat in hand.callers():
        if seat != "South":
            hand.apply(Action(seat, "call") if seat == "West" else Action(seat, "no-call"))
    assert hand.result is not None and hand.result.winner == "West"


# -- every switch: refusals are tried on a copy, and a record replays --------------------------


def test_TR1_TR2_refusal_names_the_rule_and_leaves_the_hand_as_it_was() -> None:
    hand = swap_scene()
    before = hand.record()
    assert refusal(hand, Action("East", BLANK_SWAP, ("J",), place=2)).rule == "TR1"
    assert hand.record() == before
    cold = hot_scene(COLD)
    cold.apply(Action("East", "discard", ("4D",)))
    assert refusal(cold, Action("West", "call")).rule == "TR2"


def test_TR1_TR4_a_record_names_its_rules_and_replays_exactly() -> None:
    rules = TableRules(blanks=2, players=3)
    hand = deal(HOUSE, 4, rules)
    for _ in range(2):
        for seat in hand.seats:
            hand.apply(plain_pass(hand, seat))
    assert hand.record()["rules"] == {"blanks": 2, "players": 3}
    again = replay(HOUSE, 4, list(hand.actions), TableRules.from_json(hand.record()["rules"]))
    assert again.record() == hand.record() and again.racks == hand.racks


# -- the moves told (coach.play.telling) -----------------------------------------------------------


def test_TR1_a_blank_swap_and_a_thrown_blank_are_told_to_everyone() -> None:
    actions = [Action("East", BLANK_SWAP, ("4D",), place=1), Action("East", "discard", ("BL",))]
    assert tell(actions, 0, "East") == "You swapped a blank for the 4 Dot from the discards (TR1)."
    assert tell(actions, 0, "South") == "East swapped a blank for the 4 Dot from the discards (TR1)."
    assert tell(actions, 1, "West") == "East threw a blank: nobody may call it (TR1)."


def test_TR4_passes_and_the_vote_are_told_as_three_players_make_them() -> None:
    hand = deal(HOUSE, 9, THREE)
    for _ in range(2):
        for seat in hand.seats:
            hand.apply(plain_pass(hand, seat))
    for seat in hand.seats:
        hand.apply(Action(seat, "vote", go=True))
    said = [tell(hand.actions, n, "East", THREE) for n, a in enumerate(hand.actions) if a.seat == "East"]
    assert "to the right" in said[0] and "to the left" in said[1]  # no across pass (TR4)
    last = tell(hand.actions, len(hand.actions) - 1, "East", THREE)  # West's vote, the third and last
    assert last.startswith("West voted") and last.endswith("the second Charleston begins (C2).")


def test_C6_a_league_record_names_its_rules_and_a_record_without_them_reads_as_before_the_switches() -> None:
    hand = deal(HOUSE, 4)
    for seat in SEATS:
        hand.apply(plain_pass(hand, seat))
    record = hand.record()
    assert record["rules"] == {}  # always written: {} is the League's, C6 off
    assert rules_of(json.loads(json.dumps(record))) == LEAGUE
    again = replay_record(HOUSE, record)
    assert again.rules == LEAGUE and again.racks == hand.racks and again.record() == record
    # A record made before the switches existed has no "rules": it was played with C6 on.
    old = {k: v for k, v in record.items() if k != "rules"}
    assert rules_of(old) == BEFORE_SWITCHES and BEFORE_SWITCHES.air_mahjong
    assert replay_record(HOUSE, old).rules == BEFORE_SWITCHES
    # A table's own rules are written as they are and read back the same.
    table = deal(HOUSE, 4, TableRules(blanks=2, air_mahjong=True))
    assert rules_of(table.record()) == TableRules(blanks=2, air_mahjong=True)


def test_C6_the_review_command_reads_a_record_without_rules_as_played_with_C6_on(tmp_path) -> None:
    # Four all-blind passes on the first left pass: with C6 on the Charleston ends and East discards.
    hand = deal(HOUSE, 12, BEFORE_SWITCHES)
    for _ in range(2):
        for seat in SEATS:
            hand.apply(plain_pass(hand, seat))
    for seat in SEATS:
        hand.apply(Action(seat, "pass", (), blind=3))
    assert hand.phase == "play"
    hand.apply(Action("East", "discard", (tiles.TABLE_CODES[hand.racks["East"][0]],)))
    old = {k: v for k, v in hand.record().items() if k != "rules"}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    out = io.StringIO()
    assert main(["review", str(path), "--json"], stdout=out) == 0
    kinds = [d["kind"] for d in json.loads(out.getvalue())["decisions"]]
    assert kinds == ["pass", "pass", "pass", "discard"]  # no vote: the Charleston ended (C6)
    with pytest.raises(HandError):
        replay(HOUSE, 12, list(hand.actions), LEAGUE)  # by the League's rules the discard comes too soon

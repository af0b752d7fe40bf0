"""Seats and turns (S1-S5): who is East, the walls and the deal, a turn, and
who plays next. Pure functions over seat names and numbers; each decision
comes back as a Ruling with the rule id that decides it.

A table's own rules (coach.rules.table_rules) change a few of them, each
taken as `rules` (the League's by default, which changes nothing): with
three players (TR4) North's seat is empty, its tiles stay in the wall and
turns go East, South, West; blanks (TR1) make the set larger; picking
ahead (TR5) lets the next player look at the next wall tile early."""

from __future__ import annotations

from collections.abc import Sequence

from coach.notation import tiles
from coach.rules.ruling import Ruling
from coach.rules.table_rules import LEAGUE, TableRules

SEATS = tiles.SEATS  # East, then each seat's right-hand neighbour (S5)
STACKS = 19  # S2: each wall is 19 stacks of 2
WALL_TILES = 2 * STACKS
DEAL_ROUNDS = 3  # S3: four tiles at a time, three rounds
SET_SIZE = len(tiles.WALL)
# S4: the order of a turn, East's first turn excepted.
TURN_STEPS = ("draw", "exchange for jokers (optional)", "discard and name it")


# The seat functions take the table's rules, or just how many play (4, or 3
# at a three-player table, TR4): the hand engine passes the number it keeps.
Table = TableRules | int


def players_of(rules: Table) -> int:
    """How many play at this table: 4, or 3 (TR4)."""
    players = rules.players if isinstance(rules, TableRules) else rules
    if players not in (3, 4) or isinstance(players, bool):
        raise ValueError(f"a table seats 4 players, or 3 (TR4), not {players!r}")
    return players


def seats(rules: Table = LEAGUE) -> tuple[str, ...]:
    """The seats taken at this table, in turn order: all four, or East, South
    and West at a three-player table, where North's seat stays empty (TR4)."""
    return SEATS[: players_of(rules)]


seats_in_play = seats  # the name the hand engine reads it by


def seats_rule(rules: Table = LEAGUE) -> str:
    """The rule that says who sits where and who plays next: S5, or TR4 with three."""
    return "TR4" if players_of(rules) == 3 else "S5"


def next_seat(seat: str, steps: int = 1, rules: Table = LEAGUE) -> str:
    """The seat `steps` turns after `seat`: play passes to the right (S5),
    over the seats taken (TR4: West's right is East at three)."""
    taken = seats(rules)
    return taken[(taken.index(seat) + steps) % len(taken)]


def turns_after(first: str, seat: str, rules: Table = LEAGUE) -> int:
    """How many turns after `first` the `seat` plays, 0 to 3 (S5; 0 to 2 with three, TR4)."""
    taken = seats(rules)
    return (taken.index(seat) - taken.index(first)) % len(taken)


def seats_between(first: str, last: str, rules: Table = LEAGUE) -> list[str]:
    """The seats strictly after `first` and before `last` in turn order (S5)."""
    out = []
    seat = next_seat(first, rules=rules)
    while seat != last:
        out.append(seat)
        seat = next_seat(seat, rules=rules)
    return out


def plays_next(seat: str, rules: Table = LEAGUE) -> Ruling:
    """Who plays after `seat` when nobody calls its discard (S5; TR4 with three)."""
    return Ruling(next_seat(seat, rules=rules), seats_rule(rules), {"after": seat})


def east_by_dice(totals: Sequence[tuple[str, int]]) -> Ruling:
    """Who is East from (player, total) rolls: the single highest total; on a
    tie for the highest, the decision is the tied players, who roll again (S1)."""
    top = max(t for _, t in totals)
    tied = [p for p, t in totals if t == top]
    if len(tied) == 1:
        return Ruling(tied[0], "S1", {"top": top, "tied": ()})
    return Ruling(tuple(tied), "S1", {"top": top, "tied": tuple(tied)})


def wall_break(dice: Sequence[int]) -> Ruling:
    """Where East breaks the wall: the dice total in stacks from the right end of
    East's own wall; the facts say how many stacks stay on the left (S2)."""
    total = sum(dice)
    return Ruling(total, "S2", {"from": "right", "wall": "East", "left": STACKS - total, "stacks": STACKS})


def tiles_dealt(seat: str, rounds: int, last: bool = False, took_this_round: bool = False) -> Ruling:
    """Tiles `seat` holds during the deal: four a round for `rounds` complete
    rounds (and four more if it took its four in the round under way), then,
    with `last`, East two more and the others one (S3)."""
    count = 4 * rounds + (4 if took_this_round else 0)
    if last:
        count += 2 if seat == "East" else 1
    return Ruling(count, "S3", {"rounds": rounds, "last": last})


def after_the_deal(seat: str) -> Ruling:
    """Tiles each seat holds once the deal is over: East 14, the others 13 (S3)."""
    return tiles_dealt(seat, DEAL_ROUNDS, last=True)


def set_size(rules: TableRules = LEAGUE) -> int:
    """Tiles in the set: the League's 152 (T1), and the table's blanks (TR1)."""
    return SET_SIZE + rules.blanks


def wall_after_deal(rules: TableRules = LEAGUE) -> Ruling:
    """Tiles left in the walls after the deal (S3, T1). At a table of its own,
    the blanks are in the walls too (TR1), and with three players North's
    13 tiles are never dealt and stay there (TR4)."""
    dealt = sum(after_the_deal(s).decision for s in seats(rules))
    size = set_size(rules)
    rule = "TR4" if rules.players == 3 else "TR1" if rules.blanks else "S3"
    return Ruling(size - dealt, rule, {"dealt": dealt, "set": size, "blanks": rules.blanks, "players": rules.players})


def east_starts_without_drawing() -> Ruling:
    """East opens play by discarding from 14 tiles, without drawing (S4)."""
    return Ruling(True, "S4", {"holds": after_the_deal("East").decision})


def discard_is_final(touched: bool, named: bool) -> Ruling:
    """A discard is final once it touches the table or is named (S4)."""
    why = "touched" if touched else "named" if named else "neither"
    return Ruling(touched or named, "S4", {"why": why})


def east_after(players: Sequence[str], hands: int, rules: TableRules = LEAGUE) -> Ruling:
    """Who is East `hands` hands from now, `players` seated East, South, West,
    North (or East, South, West at three, TR4): after each hand the player on
    East's right becomes East (S5)."""
    taken = players[: rules.players]
    order = tuple(players[: hands + 1]) if rules.players == 4 else tuple(taken[n % len(taken)] for n in range(hands + 1))
    return Ruling(taken[hands % len(taken)], seats_rule(rules), {"order": order})


# -- picking ahead (TR5) ------------------------------------------------------------


def may_pick_ahead(rules: TableRules = LEAGUE) -> Ruling:
    """May the player whose turn comes next pick the next wall tile and look
    at it while the latest discard may still be called? Only at a table that
    plays picking ahead (TR5); by the League's rules you pick only on your
    turn, once the discard can no longer be called (K1)."""
    return Ruling(rules.picking_ahead, "TR5" if rules.picking_ahead else "K1", {})


def picked_ahead(called: bool) -> Ruling:
    """What becomes of a tile picked ahead (TR5): if the discard is called,
    it goes back on the wall, unracked and unseen by the others, and the
    caller plays on; if nobody calls, it is that player's draw."""
    return Ruling("wall" if called else "draw", "TR5", {"called": called})

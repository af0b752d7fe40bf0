"""Seats and turns (S1-S5): who is East, the walls and the deal, a turn, and
who plays next (around three seats at a three-player table, TR4). Pure
functions over seat names and numbers; each decision comes back as a Ruling
with the rule id that decides it."""

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


def seats_in_play(players: int = 4) -> tuple[str, ...]:
    """The seats dealt and playing: all four, or East, South and West at a
    three-player table, North's seat empty (TR4)."""
    if players not in (3, 4):
        raise ValueError(f"a table seats 4 players, or 3 (TR4), not {players!r}")
    return SEATS[:players]


def next_seat(seat: str, steps: int = 1, players: int = 4) -> str:
    """The seat `steps` turns after `seat`: play passes to the right (S5),
    around the seats in play (with three, West's right is East, TR4)."""
    seats = seats_in_play(players)
    return seats[(seats.index(seat) + steps) % players]


def turns_after(first: str, seat: str, players: int = 4) -> int:
    """How many turns after `first` the `seat` plays, 0 to 3 (S5; 0 to 2 with three players, TR4)."""
    seats = seats_in_play(players)
    return (seats.index(seat) - seats.index(first)) % players


def seats_between(first: str, last: str, players: int = 4) -> list[str]:
    """The seats strictly after `first` and before `last` in turn order (S5; around three seats, TR4)."""
    out = []
    seat = next_seat(first, 1, players)
    while seat != last:
        out.append(seat)
        seat = next_seat(seat, 1, players)
    return out


def seats_rule(players: int = 4) -> str:
    """The rule that says who sits where and who plays next: S5, or TR4 with three."""
    return "TR4" if players == 3 else "S5"


def plays_next(seat: str, players: int = 4) -> Ruling:
    """Who plays after `seat` when nobody calls its discard (S5; TR4 with three)."""
    return Ruling(next_seat(seat, 1, players), seats_rule(players), {"after": seat})


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


def wall_after_deal(rules: TableRules = LEAGUE) -> Ruling:
    """Tiles left in the walls after the deal (S3, T1). At a table of its own,
    the blanks are in the walls too (TR1), and with three players North's
    13 tiles are never dealt and stay there (TR4)."""
    dealt = sum(after_the_deal(s).decision for s in seats_in_play(rules.players))
    size = SET_SIZE + rules.blanks
    rule = "TR4" if rules.players == 3 else "TR1" if rules.blanks else "S3"
    return Ruling(size - dealt, rule, {"dealt": dealt, "set": size, "blanks": rules.blanks, "players": rules.players})


def east_starts_without_drawing() -> Ruling:
    """East opens play by discarding from 14 tiles, without drawing (S4)."""
    return Ruling(True, "S4", {"holds": after_the_deal("East").decision})


def discard_is_final(touched: bool, named: bool) -> Ruling:
    """A discard is final once it touches the table or is named (S4)."""
    why = "touched" if touched else "named" if named else "neither"
    return Ruling(touched or named, "S4", {"why": why})


def east_after(players: Sequence[str], hands: int, seated: int = 4) -> Ruling:
    """Who is East `hands` hands from now, `players` seated East, South, West,
    North (East, South, West at a table of three, `seated` 3, TR4): after each
    hand the player on East's right becomes East (S5)."""
    if seated == 4:
        return Ruling(players[hands % 4], "S5", {"order": tuple(players[: hands + 1])})
    taken = players[:seated]
    order = tuple(taken[n % seated] for n in range(hands + 1))
    return Ruling(taken[hands % seated], "TR4", {"order": order})

"""What one seat at a table with friends or a class sees of the hand, as a plain dict (issue 28).

Each person at a live table is sent this, and only this: its own rack, every
exposure, the discards in order, how many tiles each seat holds and the wall
still has, whose turn it is, its own legal moves, and the log told in
sentences for that seat (coach/play/telling.py). Nothing in it is read from
another seat's rack or from the wall beyond their sizes, with one exception
a seat is entitled to: the next wall tile it has seen by picking ahead (TR5,
`coach.play.seen.next_tile`). Another seat's passed tiles stay face down
(C1-C3) and its silent "no call" is never heard (K1, coach/play/seen.py);
answers still held for a decision answered together (coach/play/people.py)
are not shown to the others, only to their own seat. Once the hand is over
the winner's tiles are shown, as at a real table.

The practice table (coach/web/play/table.py `view`) shows the same facts
for East under the same names (`seats` with `tiles_held`, `exposures`,
`discards`, `on_turn`; `latest`, `wall`, `last_wall`, `next_tile`,
`courtesy_count`), so a page can draw both with the same parts.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from coach.notation import tiles
from coach.play.hand import Action, Hand
from coach.play.people import DEFAULT, TableSettings, choices, owed, pending_discard
from coach.play.seen import next_tile, seen_actions, seen_by
from coach.play.telling import tell


def codes(values: Sequence[int]) -> list[str]:
    """Tiles as codes in table order, a blank too (TR1)."""
    return sorted((tiles.TABLE_CODES[t] for t in values), key=tiles.sort_key)


def _without(rack: Sequence[int], tile: int) -> list[int]:
    rest = list(rack)
    rest.remove(tile)
    return rest


def state_number(hand: Hand, seat: str, held: Sequence[Action] = ()) -> int:
    """The number of the state `seat` sees, which a move by it carries back: the
    moves it has seen (its own and those said aloud, coach/play/seen.py) and its
    own answer held. It grows by one with each move of the seat's own and never
    falls: a held "no call" that never enters the hand (a seat that could not
    call) is dropped only as the discard it answered enters it. Unlike a count
    of all moves it tells nothing of silent "no calls" made in between.

    Another seat's choice in a Charleston step that is still open (its pass or
    courtesy tiles, kept in `hand.passes` until every seat has chosen, C1-C3)
    does not count until the step closes: it changes nothing the seat may
    choose, so a pass chosen while a friend was choosing theirs is not stale.
    The number still only grows: when the step closes, all of them count at once."""
    pending = sum(1 for s in hand.passes if s != seat) if hand.phase == "charleston" else 0
    return len(seen_actions(hand, seat)) - pending + sum(1 for a in held if a.seat == seat and a.kind != "discard") + (
        1 if (discard := pending_discard(held)) is not None and discard.seat == seat else 0
    )


def seat_rows(hand: Hand, seat: str, held_discard: Action | None = None) -> list[dict[str, Any]]:
    """Each seat in play as everyone at the table sees it (North's stays empty at a
    three-player table, TR4): how many tiles it holds, its exposures and discards
    (a blank too, TR1), and whether it is on turn; `you` marks `seat`. A held
    discard (coach/play/people.py) is out of its thrower's rack and on the floor.
    The practice table draws its seats from the same rows (coach/web/play/table.py)."""
    floor = list(hand.discards)
    held = {s: 0 for s in hand.seats}
    if held_discard is not None:
        floor.append((held_discard.seat, tiles.TABLE_INDEX[held_discard.tiles[0]]))
        held[held_discard.seat] = 1
    calling = hand.latest is not None or held_discard is not None
    return [
        {
            "name": s,
            "you": s == seat,
            "tiles_held": len(hand.racks[s]) - held[s],
            "exposures": [list(e.as_exposure().codes) for e in hand.exposed[s]],
            "discards": [tiles.TABLE_CODES[t] for d, t in floor if d == s],
            "on_turn": hand.phase == "play" and not calling and hand.turn == s,
        }
        for s in hand.seats
    ]


def seat_view(
    hand: Hand, seat: str, people: Collection[str] = (), settings: TableSettings = DEFAULT,
    held: Sequence[Action] = (),
) -> dict[str, Any]:
    """What `seat` sees now: a dict of plain values (JSON as it is). `people` are the
    seats played by people, `held` the answers held for the decision still open."""
    if seat not in hand.seats:
        raise ValueError(f"{seat} has no seat at this table")
    discard = pending_discard(held)
    held_tile = tiles.TABLE_INDEX[discard.tiles[0]] if discard is not None else None
    rack = hand.racks[seat]
    floor = [(s, t) for s, t in hand.discards]
    latest: tuple[str, int] | None = hand.latest
    if discard is not None and held_tile is not None:  # thrown, in plain view, not yet in the hand
        if discard.seat == seat:
            rack = _without(rack, held_tile)
        floor.append((discard.seat, held_tile))
        latest = (discard.seat, held_tile)
    calling = latest is not None
    mine = owed(hand, [seat] if seat in people else [], settings, held) if hand.phase != "over" else {}
    open_moves = choices(hand, seat, [seat], settings, held) if mine else []
    own_held = next((a for a in held if a.seat == seat and a.kind != "discard"), None)
    ahead = next_tile(hand, seat)
    result = hand.result
    return {
        "seat": seat,
        "phase": hand.phase,
        "step": hand.step,
        "rules": hand.rules.to_json(),
        "rack": codes(rack),
        "received": codes(hand.received.get(seat, [])) if hand.phase == "charleston" else [],
        "courtesy_count": hand.courtesy.get(seat, 0) if hand.phase == "charleston" else 0,
        "seats": [row | {"person": row["name"] in people} for row in seat_rows(hand, seat, discard)],
        "floor": [[s, tiles.TABLE_CODES[t]] for s, t in floor],
        "latest": {"seat": latest[0], "tile": tiles.TABLE_CODES[latest[1]]} if latest is not None else None,
        "calling": calling and hand.phase != "over",
        "turn": hand.turn if hand.phase == "play" and not calling else None,
        "wall": len(hand.wall),
        "last_wall": hand.rules.wall_end if hand.phase == "play" and hand.in_last_wall else None,  # TR2
        "next_tile": tiles.CODES[ahead] if ahead is not None and ahead != tiles.BLANK else (tiles.BLANK_CODE if ahead is not None else None),
        "owed": mine.get(seat),
        "choices": [a.to_json() for a in open_moves],
        "answered": own_held.to_json() if own_held is not None else None,
        "move": state_number(hand, seat, held),
        "log": [line for n in range(len(hand.actions)) if seen_by(hand, seat, n) and (line := tell(hand.actions, n, seat, hand.rules))],
        "result": None if result is None else {
            "winner": result.winner,
            "how": result.how,
            "pays": dict(result.pays),
            "line": result.payment.line.id if result.payment and result.payment.line else None,
            "winner_rack": codes(hand.racks[result.winner]) if result.winner else [],
        },
    }


def watch_view(
    hand: Hand, people: Collection[str] = (), settings: TableSettings = DEFAULT, held: Sequence[Action] = (),
) -> dict[str, Any]:
    """The whole table for the class's teacher watching it, read-only (issue 28, item 5):
    every seat's rack, exposures and discards, whose turn it is, whom the table is
    waiting for and what each has answered of a decision answered together (held
    answers too: the teacher is at nobody's seat, so nobody learns from it), and the
    log told in full (coach/play/telling.py `full`: every pass named, every "no call").

    It shows what no seat may see (C1-C3, K1): it is for the class's teacher only and
    is never sent to a player. The wall stays face down: only its size."""
    discard = pending_discard(held)
    held_tile = tiles.TABLE_INDEX[discard.tiles[0]] if discard is not None else None
    rows = seat_rows(hand, "", discard)
    waiting = owed(hand, people, settings, held) if hand.phase != "over" else {}
    answers = {a.seat: a for a in held if a.kind != "discard"}
    floor = list(hand.discards)
    latest: tuple[str, int] | None = hand.latest
    if discard is not None and held_tile is not None:
        floor.append((discard.seat, held_tile))
        latest = (discard.seat, held_tile)
    seats = []
    for row in rows:
        name = row["name"]
        rack = hand.racks[name]
        if discard is not None and held_tile is not None and discard.seat == name:
            rack = _without(rack, held_tile)
        seats.append(
            {k: v for k, v in row.items() if k != "you"}
            | {
                "person": name in people,
                "rack": codes(rack),
                "owed": waiting.get(name),
                "answered": answers[name].to_json() if name in answers else None,
            }
        )
    calling = latest is not None and hand.phase != "over"
    result = hand.result
    return {
        "phase": hand.phase,
        "step": hand.step,
        "rules": hand.rules.to_json(),
        "seats": seats,
        "floor": [[s, tiles.TABLE_CODES[t]] for s, t in floor],
        "latest": {"seat": latest[0], "tile": tiles.TABLE_CODES[latest[1]]} if latest is not None else None,
        "calling": calling,
        "turn": hand.turn if hand.phase == "play" and not calling else None,
        "wall": len(hand.wall),
        "last_wall": hand.rules.wall_end if hand.phase == "play" and hand.in_last_wall else None,  # TR2
        "waiting_for": list(waiting),
        "log": [line for n in range(len(hand.actions)) if (line := tell(hand.actions, n, "", hand.rules, full=True))],
        "moves": len(hand.actions) + len(held),
        "result": None if result is None else {
            "winner": result.winner,
            "how": result.how,
            "pays": dict(result.pays),
            "line": result.payment.line.id if result.payment and result.payment.line else None,
        },
    }

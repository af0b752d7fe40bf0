"""Everything that changes a live table, the one way every web part does it (issue 28).

    play_move(session, table, seat, action, number) -> Outcome   one person's move
    start_hand(session, table, learner_id, seed=None) -> Outcome  the host deals the next hand
    sit(session, table, learner_id, seat) -> TableState           take a seat
    move_out(session, table, host_id, seat) -> TableState         the host gives a seat to a computer player
    tick(session, table, learner_id=None) -> TableState           presence and the turn timer, noticed lazily

A move is checked first by number: it carries back the seat's `state_number`
(coach/play/seat_view.py), and one chosen on a state the seat has moved on from
is refused (`StaleMove`) before anything else is looked at. Then
`people.take` checks it against the seat's choices (a `HandError` with its rule
id otherwise) and `people.advance` plays the computer players, the passes made
for people, and the coach's move for a person away from a friends' table, up to
the next decision a person owes. The hand is saved with the store's compare and
set (`store.save_moves`): when another save came first, `TableHandMoved` reaches
the caller, which answers 409 with the table as it stands, and nothing was
written. Only after the save commits is the table's push topic published
(coach/web/infra/push.py), so a page woken by it always reads the new state.

Presence: every request of a seated person and each wake of their open stream
is `tick`ed with their id, which stamps their seat `seen_at` (coming back when
they were away). Any tick also marks away each person not heard from for
`GRACE` seconds, and, at a table with a turn timer, plays the coach's move for
each person whose time ran out (`people.advance(expired=...)`): time counted from
when their decision was put to them, which each save keeps (`_owed_after`); both under the
same compare and set as a move, so two ticks noticing at once change the table
once. docs/tables.md says why this is enough.

Every write goes through `database.writing()` in a session of its own, taken
only around the store's call (`written`): the hand is loaded, replayed and
played on in the caller's session, which only reads (`database.reading(strict=True)`
in the web parts), and the compare and set decides a race. Writing there
instead waited in SQLite's busy handler behind every writer queued for the
turn, seconds under load (issue 28); holding the turn around the whole move
would queue every move's replay behind every other's. A hand that ends
starts its reviews after the turn is let go.

Authorization is the caller's: `play_move` acts for the `seat` it is given
(the caller found it with `TableState.seat_of`), `start_hand` and `move_out`
check the host themselves (`NotHost`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlmodel import Session

from coach.common import clock
from coach.common.errors import CoachError
from coach.play import people
from coach.play.hand import Action, HandError
from coach.play.people import CallRuling
from coach.store import tables as store
from coach.store.models import GameTable
from coach.web.infra import database
from coach.web.infra.push import push, table_topic
from coach.web.shared.tables.reviews import start_reviews
from coach.web.shared.tables.state import TableState, load_table, result_of

T = TypeVar("T")
GRACE = timedelta(seconds=20)  # a person unheard from this long (no open stream, no request) is away
ALREADY_PLAYED = "That move was already played, or the table moved on before it arrived: here is the table now."


class StaleMove(CoachError):
    """A move chosen on a state its seat has moved on from: nothing was played."""

    def __init__(self, sent: int, now: int) -> None:
        super().__init__(f"the move number sent is {sent}, your seat is at {now}: {ALREADY_PLAYED}")
        self.sent, self.now = sent, now


class NotHost(store.TableError):
    """Only the table's host starts hands and moves people out."""


class NoHand(store.TableError):
    """No hand is being played at this table now: nothing to move on."""


@dataclass
class Outcome:
    """What a move or a start left: the table as it now stands (saved), and the
    rulings on the discards several seats called on the way (coach/play/people.py)."""

    state: TableState
    rulings: list[CallRuling] = field(default_factory=list)


def publish(table: GameTable | TableState) -> None:
    """Wake every open page of the table: call only after the change is committed."""
    table_id = table.id
    assert table_id is not None
    push().publish(table_topic(table_id))


def written(session: Session, work: Callable[[Session], T]) -> T:
    """`work` on a session of its own holding the write turn (`database.writing`), for
    a caller whose `session` only reads (the tables' and the class tables' pages).

    The caller's session lets its connection go first (`close`: what it loaded stays
    as loaded, detached; its next query reads afresh): a thread holding one pooled
    connection while it waits for a second, with every thread of a busy worker doing
    the same, emptied the pool and waited 30 s for it under load."""
    session.close()
    with database.writing() as writer:
        return work(writer)


def _before(state: TableState) -> dict[str, list[Any]]:
    """At a table with a turn timer, the decisions owed before a change and when each
    began, so that the save after it keeps the time of those still open."""
    return state.owed_record() if state.settings.turn_timer is not None else {}


def _owed_after(
    state: TableState, before: dict[str, list[Any]], held: list[Action], now: datetime, begun: Collection[str] = (),
) -> dict[str, list[Any]] | None:
    """What the save keeps for the turn timer: each decision owed after the change,
    with the time it began. One owed before as well (the same kind and state number:
    another's answer was held, a computer player moved, a presence changed) keeps its
    time; a new one, or one in `begun` (a person who has just sat down), begins now.
    None at a table without a timer: nothing is kept."""
    if state.settings.turn_timer is None:
        return None
    after: dict[str, list[Any]] = {}
    for seat, (kind, number) in state.decisions(held).items():
        kept = before.get(seat)
        still = kept is not None and seat not in begun and kept[:2] == [kind, number]
        after[seat] = list(kept) if still and kept is not None else [kind, number, now.isoformat()]
    return after


def _save(
    session: Session, state: TableState, held: list[Action], before: dict[str, list[Any]], begun: Collection[str] = (),
) -> None:
    """The hand as it now stands, by the store's compare and set (TableHandMoved), with
    when each decision owed now began (`before`: as it stood before the change)."""
    row, hand = state.row, state.hand
    assert row is not None and hand is not None
    now = clock.now()
    actions, kept, result = [a.to_json() for a in hand.actions], [a.to_json() for a in held], result_of(hand, state.seats)
    owed = _owed_after(state, before, held, now, begun)
    written(session, lambda writer: store.save_moves(writer, row, actions, kept, result, owed, now))  # the row says what was stored
    state.held = held


def _finished(state: TableState) -> None:
    """After a save that ended the hand: each person's review starts in the background."""
    if state.hand is not None and state.hand.phase == "over" and state.row is not None and state.row.id is not None:
        start_reviews(state.row.id)


def play_move(session: Session, table: GameTable, seat: str, action: Action, number: int) -> Outcome:
    """`seat`'s move, chosen on its state numbered `number`: StaleMove when the seat is
    no longer there, HandError (with its rule id) unless it is one of its choices now,
    NoHand when no hand is going, TableHandMoved when another save came first; nothing
    is written in any of these. Else played, the table advanced to the next decision a
    person owes, saved, and published. `action.seat` is set to `seat`."""
    state = load_table(session, table)
    if state.hand is None or state.row is None:
        raise NoHand("no hand has been dealt at this table yet")
    if state.hand.phase == "over":
        raise HandError("this hand is over: see its review", "E1")
    now = state.number(seat)
    if number != now:
        raise StaleMove(number, now)
    before = _before(state)
    move = dataclasses.replace(action, seat=seat)
    held = people.take(state.hand, move, state.people, state.settings, state.held)
    progress = people.advance(state.hand, state.people, state.away, state.settings, held)
    _save(session, state, progress.held, before)
    publish(state)
    _finished(state)
    return Outcome(state, progress.rulings)


def start_hand(session: Session, table: GameTable, learner_id: int, seed: int | None = None) -> Outcome:
    """The host deals the table's next hand; the computer players play up to the first
    decision a person owes. NotHost for anyone else; TableError while a hand is going;
    TableHandMoved when another start made this hand first."""
    if table.host_id != learner_id:
        raise NotHost("only the table's host starts a hand")
    table_id = table.id
    assert table_id is not None
    written(session, lambda writer: store.start_hand(writer, table_id, seed))
    outcome = _advance(session, load_table(session, table))
    publish(table)
    return outcome


def _advance(session: Session, state: TableState, expired: Collection[str] = (), begun: Collection[str] = ()) -> Outcome:
    """Play on from the hand as it stands (after a deal, a seat changing hands, a
    person going away, a timer running out) and save it if anything moved, or if a
    person in `begun` (just sat down) owes a decision whose time starts now."""
    if state.hand is None or state.hand.phase == "over":
        return Outcome(state)
    owed_before = _before(state)
    before = (len(state.hand.actions), [a.to_json() for a in state.held])
    progress = people.advance(state.hand, state.people, state.away, state.settings, state.held, expired)
    moved = (len(state.hand.actions), [a.to_json() for a in progress.held]) != before
    if moved or set(begun) & set(state.decisions(progress.held)):
        _save(session, state, progress.held, owed_before, begun)
        _finished(state)
    return Outcome(state, progress.rulings)


def sit(session: Session, table: GameTable, learner_id: int, seat: str) -> TableState:
    """This person takes `seat` (store.take_seat: SeatTaken, AlreadySeated, TableError),
    and every page of the table hears of it."""
    table_id = table.id
    assert table_id is not None
    timed = store.table_settings(table).turn_timer is not None
    mine = store.seat_of(session, table_id, learner_id) if timed else None
    written(session, lambda writer: store.take_seat(writer, table_id, learner_id, seat))
    state = load_table(session, table)
    if timed and (mine is None or mine.seat != seat) and seat in state.owing():
        try:  # a seat taken from a computer player mid-decision: this person's time starts now
            _advance(session, state, begun={seat})
        except store.TableHandMoved:  # a move came first: this person's time runs from that save
            session.rollback()
            state = load_table(session, table)
    publish(table)
    return state


def move_out(session: Session, table: GameTable, host_id: int, seat: str) -> TableState:
    """The host moves the person in `seat` out: a computer player takes it and plays on
    at once if the seat owed a decision. NotHost for anyone else; TableError for an empty seat."""
    if table.host_id != host_id:
        raise NotHost("only the table's host moves people out")
    table_id = table.id
    assert table_id is not None
    if not written(session, lambda writer: store.move_out(writer, host_id, table_id, seat)):
        raise store.TableError(f"nobody is sitting in {seat}")
    state = load_table(session, table)
    try:
        _advance(session, state)
    except store.TableHandMoved:  # a move came first: the seat is the computer's all the same
        session.rollback()
        state = load_table(session, table)
    publish(table)
    return state


def tick(session: Session, table: GameTable, learner_id: int | None = None, now: datetime | None = None) -> TableState:
    """The table as it stands after noticing time: `learner_id`'s seat is heard from
    (back if they were away), people unheard from for GRACE are away, and the coach
    moves for those whose turn timer ran out or who are away from a friends' table.
    Publishes when anything changed. Safe to call from any request or stream at any
    time: two at once change the table once (compare and set)."""
    table_id = table.id
    assert table_id is not None
    now = clock.as_utc(now or clock.now())
    changed = False
    unheard = now - GRACE
    seats = store.seats_of(session, table_id)
    going = any(s.learner_id is not None and s.present and (s.seen_at is None or clock.as_utc(s.seen_at) < unheard) for s in seats)
    mine = learner_id is not None and any(s.learner_id == learner_id for s in seats)
    if mine or going:  # read first: a tick with nothing to write takes no write turn

        def presence(writer: Session) -> bool:
            back = mine and learner_id is not None and store.heard_from(writer, table_id, learner_id, now)
            gone = going and store.mark_away(writer, table_id, unheard) > 0
            return bool(back or gone)

        changed = written(session, presence)
    state = load_table(session, table)
    expired = state.expired(now)
    version = state.row.version if state.row is not None else None
    try:
        _advance(session, state, expired)
    except store.TableHandMoved:  # another request played on first: theirs stands
        session.rollback()
        state = load_table(session, table)
    if changed or (state.row is not None and state.row.version != version):
        publish(table)
    return state


def wake_in(state: TableState, now: datetime | None = None) -> float | None:
    """Seconds until this table's turn timer runs out (a stream waits no longer), or None."""
    deadline = state.deadline()
    if deadline is None:
        return None
    left = (clock.as_utc(deadline) - clock.as_utc(now or clock.now())).total_seconds()
    return max(0.2, left + 0.1)

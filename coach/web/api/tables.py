"""The live tables' JSON API (issue 28), beside the practice hands' (hands.py).

    POST /api/tables                        {"strength"?, "auto_pass"?, "kind"?, "turn_timer"?, "sit"?}
                                            -> 201 {"code", "table"}: a table you host
    GET  /api/tables/<code>                 the table as you see it: seats, and your seat's hand (null unseated)
    POST /api/tables/<code>/seats           {"seat"} -> the table, you in that seat
    POST /api/tables/<code>/start           the host deals the next hand -> the table
    POST /api/tables/<code>/actions         {"action": one of the hand's "choices", "move": its "move"}
                                            -> the table after it (409 {"error", "table"} when stale)
    GET  /api/tables/<code>/events          server-sent events: "moved" (with the table's version)
                                            whenever the table changes; then GET the table
    GET  /api/tables/<code>/hands/<n>/review  your review of your own seat in hand n: 202 while
                                            it is computed, then 200 as /api/hands/<id>/review

Everything a move does is coach/web/shared/tables' (the HTML pages play the
same moves): checked by number and by the seat's choices, saved by compare
and set, published on the table's push topic after it commits. Who may do
what: anyone with the code sees the seat list and takes a free seat (a
guest is made, as by a practice hand); only the person in a seat acts for
it (403 otherwise); only the host starts a hand (403); a class table's code
is a 404 to anyone but its class and teacher. A person's hand view is their
own seat's (coach/play/seat_view.py), never another's. JSON bodies only (so
no CSRF token), {"error"} on every error, the drills' rate limits on writes.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify
from sqlmodel import Session, select

from coach.common import clock
from coach.common.errors import CoachError
from coach.play.bots import STRENGTHS
from coach.play.hand import Action, Hand, HandError
from coach.play.people import MOST_TIMER, TableSettings
from coach.store import tables as store
from coach.store.models import GameTable, Learner, TableHand
from coach.web.api.drills import BodyError, read_body
from coach.web.api.hands import GRADE_NAMES, posted_action
from coach.web.infra import database, limits, push
from coach.web.infra.errors import error_response
from coach.web.infra.inputs import MAX_DB_INT, whole_number
from coach.web.shared import learners
from coach.web.shared.drilling import DrillError
from coach.web.shared.practice.reviews import FAILED
from coach.web.shared.table_rules import rules_of
from coach.web.shared.tables import moves
from coach.web.shared.tables.reviews import start_review
from coach.web.shared.tables.state import TableState, load_table, ruling_words, seat_named, stored_result

bp = Blueprint("tables_api", __name__, url_prefix="/api/tables")
log = logging.getLogger(__name__)
API_KINDS = ("friends", "waits")  # a class table is opened from the class's page (its teacher's)
SAVE_TRIES = 3  # a move that lost a compare and set to another seat's answer is tried again, on the new table
HEARD_EVERY = timedelta(seconds=10)  # a seated person's presence is written at most this often (moves.GRACE is 20 s)
NOT_YOURS = "there is no such table, or it is not open to you"
# MOVES_READING: moves, starts and ticks run in a strict reading session (the database refuses a
# write in it); every write is coach/web/shared/tables/moves.py's, in a writing() session of its
# own around the store's call only, so writes queue for the turn and never in SQLite's busy
# handler (issue 28), and the replay and the computer players run outside the turn.



def install(app: Flask) -> None:
    app.register_blueprint(bp)
    app.extensions["csrf"].exempt(bp)  # JSON bodies only, as the drills' API
    app.extensions["tables_api_replayed"] = _Replayed()
    app.extensions["tables_api_presence"] = _Presence(app)


@bp.errorhandler(DrillError)
def _body_error(error: DrillError):
    return error_response(error.message, error.status)


@bp.errorhandler(HandError)
def _refused(error: HandError):
    return jsonify(error=error.message, rule=error.rule), 400


class _Refused(CoachError):
    """An answer other than 200, said in words: (message, status)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message, self.status = message, status


@bp.errorhandler(_Refused)
def _refused_plainly(error: _Refused):
    return error_response(error.message, error.status)


# -- what a person sees ---------------------------------------------------------------------


def table_json(state: TableState, learner_id: int | None) -> dict[str, Any]:
    """The table as `learner_id` sees it: every seat (who is a person, who is there), and
    the current hand as their own seat sees it, null when they hold no seat or before
    the first hand. Never another seat's view, nor who a person is."""
    seat = state.seat_of(learner_id)
    hand = None
    if seat is not None and state.hand is not None and state.row is not None:
        hand = {"number": state.row.number, **(state.view(seat) or {})}
    return {
        "code": state.table.code,
        "kind": state.table.kind,
        "version": state.version,
        "host": learner_id is not None and state.table.host_id == learner_id,
        "seat": seat,
        "going": state.going,
        "hands": state.row.number if state.row is not None else 0,
        "settings": state.settings.to_json(),
        "seats": [
            {"seat": s.seat, "person": s.learner_id is not None, "present": bool(s.present), "you": learner_id is not None and s.learner_id == learner_id}
            for s in state.seats
        ],
        "hand": hand,
    }


def _table(session: Session, code: str, learner_id: int | None) -> GameTable:
    """The table with this code, if this person may see it: a 404 otherwise (a class
    table's code says nothing to anyone outside its class)."""
    table = store.table_by_code(session, code) if len(code) <= 32 else None
    if table is None or (table.class_id is not None and (learner_id is None or not store.may_sit(session, table, learner_id))):
        raise _Refused(NOT_YOURS, 404)
    return table


def _learner_id(session: Session, create: bool = False) -> int | None:
    learner: Learner | None = learners.current_learner(session, create=create)
    return learner.id if learner is not None else None


HEARD, TICK = "heard", "tick"


def _due(state: TableState, learner_id: int | None) -> str | None:
    """What must be written before the table is shown: HEARD, this seated person's sign
    of life (not heard from lately, or away); TICK, the whole of moves.tick (someone
    else present but unheard from for the grace, or a turn timer run out); or None."""
    now = clock.as_utc(clock.now())
    due = None
    for seat in state.seats:
        if seat.learner_id is None:
            continue
        heard = clock.as_utc(seat.seen_at) if seat.seen_at is not None else None
        if seat.learner_id == learner_id and (not seat.present or heard is None or now - heard > HEARD_EVERY):
            due = HEARD
        elif seat.learner_id != learner_id and seat.present and (heard is None or now - heard > moves.GRACE):
            return TICK
    deadline = state.deadline() if state.hand is not None else None
    if deadline is not None and now >= clock.as_utc(deadline):
        return TICK
    return due


# Hands replayed, by (hand id, version, card): every person of a table fetches it after
# each move, and a replay is most of a fetch's CPU. Read only (seat_view never changes a
# hand); a move replays its own (load_table) and leaves the hand it made here.
REPLAYED = 256  # hands kept per process: a few per live table


class _Replayed:
    """The app's replayed hands (one per app: tests make many apps, each its own database)."""

    def __init__(self) -> None:
        self.hands: OrderedDict[tuple[int, int, str], Hand] = OrderedDict()
        self.lock = threading.Lock()


def _cache() -> _Replayed:
    return current_app.extensions["tables_api_replayed"]


def _key(state: TableState) -> tuple[int, int, str] | None:
    if state.row is None or state.row.id is None or state.hand is None:
        return None
    return state.row.id, state.row.version, state.table.card


def _remember(state: TableState) -> None:
    key = _key(state)
    if key is not None and state.hand is not None:
        cache = _cache()
        with cache.lock:
            cache.hands[key] = state.hand
            cache.hands.move_to_end(key)
            while len(cache.hands) > REPLAYED:
                cache.hands.popitem(last=False)


def _read(session: Session, table: GameTable) -> TableState:
    """The table as stored, its hand from `_replayed` when this version was replayed here
    already; for reading only."""
    assert table.id is not None
    row = store.current_hand(session, table.id)
    seats = store.seats_of(session, table.id)
    if row is not None and row.id is not None:
        cache = _cache()
        with cache.lock:
            hand = cache.hands.get((row.id, row.version, table.card))
        if hand is not None:
            return TableState(table, seats, row, hand, [Action.from_json(a) for a in store.held_of(row)])
    state = load_table(session, table)
    _remember(state)
    return state


def _as_it_stands(table: GameTable, learner_id: int | None) -> TableState:
    """The table loaded; presence and the timer noticed first when they are due."""
    with database.reading(strict=True) as session:
        fresh = session.get(GameTable, table.id)
        if fresh is None:
            raise _Refused(NOT_YOURS, 404)
        state = _read(session, fresh)
        due = _due(state, learner_id)
        if due is None:
            return state
        if due == HEARD:  # only this person's sign of life: one UPDATE, no replay
            assert fresh.id is not None and learner_id is not None
            if all(s.present for s in state.seats if s.learner_id == learner_id):
                _presence().note(fresh.id, learner_id)  # present already: written beside, not in this answer's way
                return state
            table_id = fresh.id
            session.close()  # its connection back to the pool before the writer takes one (moves.written)
            with database.writing() as writer:
                back = store.heard_from(writer, table_id, learner_id)
            if back:  # back from away: the others' pages hear of it
                moves.publish(fresh)
            return _read(session, fresh)  # read again, afresh
    with database.reading(strict=True) as session:  # see MOVES_READING
        fresh = session.get(GameTable, table.id)
        if fresh is None:
            raise _Refused(NOT_YOURS, 404)
        seated = learner_id if state.seat_of(learner_id) is not None else None
        moves.tick(session, fresh, seated)
        return _read(session, fresh)  # read after tick's commits: what it returns may be expired


class _Presence:
    """A present person's sign of life (`store.heard_from`), and for a stream whatever tick is due, written by one thread of the
    process beside the answers and the streams: every stream wake and fetch of a seated
    person writes it every HEARD_EVERY, and waiting on SQLite's write lock for it would
    hold up the "moved" the stream is about to send. Inline under test.

    The thread takes everything noted since its last round at once: every sign of life in
    one transaction first, then one tick per table. Written one by one, 160 people's
    signs of life and ticks queued behind each other under load until some were written
    after the grace, and a person whose stream was open was found away (issue 28)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.lock = threading.Lock()
        self.pending: set[tuple[int, int | None, bool]] = set()
        self.draining = False
        self.pool: ThreadPoolExecutor | None = None
        self.pid = 0

    def note(self, table_id: int, learner_id: int | None, whole: bool = False) -> None:
        """`learner_id`'s sign of life at the table; `whole`: moves.tick, the others' presence and the timer too."""
        key = (table_id, learner_id, whole)
        if self.app.testing:
            self._write({key})
            return
        with self.lock:
            self.pending.add(key)
            if self.pool is None or self.pid != os.getpid():  # made in the worker, after the fork
                self.pool, self.pid, self.draining = ThreadPoolExecutor(1, thread_name_prefix="presence"), os.getpid(), False
            if self.draining:
                return  # the thread's next round takes it
            self.draining = True
            pool = self.pool
        pool.submit(self._drain)

    def _drain(self) -> None:
        while True:
            with self.lock:
                keys, self.pending = self.pending, set()
                if not keys:
                    self.draining = False
                    return
            self._write(keys)

    def _write(self, keys: set[tuple[int, int | None, bool]]) -> None:
        heard = sorted({(table_id, learner_id) for table_id, learner_id, _ in keys if learner_id is not None})
        ticked = sorted({table_id for table_id, _, whole in keys if whole})
        try:
            with self.app.app_context():
                if heard:
                    with database.writing() as session:
                        for table_id in sorted(store.heard_from_all(session, heard)):
                            table = session.get(GameTable, table_id)
                            if table is not None:
                                moves.publish(table)  # back from away: the others' pages hear of it
                for table_id in ticked:
                    with database.reading(strict=True) as session:  # see MOVES_READING
                        table = session.get(GameTable, table_id)
                        if table is not None:
                            moves.tick(session, table)  # the others' presence and the timer; publishes what it changed
        except Exception:  # lost: the next wake or fetch, within HEARD_EVERY, writes it again
            log.warning("a table's presence or timer could not be written", exc_info=True)


def _presence() -> _Presence:
    return current_app.extensions["tables_api_presence"]


# -- reading a body -------------------------------------------------------------------------


def _new_table_body() -> dict[str, Any]:
    data = read_body({"strength", "auto_pass", "kind", "turn_timer", "sit"})
    strength = data.get("strength") if data.get("strength") is not None else "club"
    if strength not in STRENGTHS:
        raise BodyError(f'"strength" must be one of {", ".join(STRENGTHS)}')
    auto_pass = data.get("auto_pass", True) if data.get("auto_pass") is not None else True
    if not isinstance(auto_pass, bool):
        raise BodyError('"auto_pass" must be true (pass for a person who cannot call a discard) or false')
    kind = data.get("kind") if data.get("kind") is not None else "friends"
    if kind not in API_KINDS:
        raise BodyError(f'"kind" must be one of {", ".join(API_KINDS)} (a class table is opened from its class)')
    timer = data.get("turn_timer")
    if timer is not None:
        timer = whole_number(timer)
        if timer is None or not 5 <= timer <= MOST_TIMER:
            raise BodyError(f'"turn_timer" must be null (no timer) or a whole number of seconds from 5 to {MOST_TIMER}')
    sit = data.get("sit")
    if sit is not None:
        sit = seat_named(sit) if isinstance(sit, str) else None
        if sit is None:
            raise BodyError('"sit" must be null or one of east, south, west, north')
    return {"strength": strength, "auto_pass": auto_pass, "kind": kind, "turn_timer": timer, "sit": sit}


def _seat_body() -> str:
    raw = read_body({"seat"}).get("seat")
    seat = seat_named(raw) if isinstance(raw, str) else None
    if seat is None:
        raise BodyError('"seat" must be one of east, south, west, north')
    return seat


def _posted_action(seat: str) -> tuple[Action, int]:
    """The action posted, for `seat`, and the move number it was chosen on."""
    return posted_action(seat, "hand", '"choices"', "the others", seat_given=True)


# -- routes ----------------------------------------------------------------------------------


@bp.post("")
@limits.drilling
def open_table():
    wanted = _new_table_body()
    settings = TableSettings.for_kind(wanted["kind"], wanted["strength"], wanted["auto_pass"], wanted["turn_timer"])
    with database.writing() as session:
        learner = learners.current_learner(session, create=True)
        assert learner is not None and learner.id is not None
        card = current_app.extensions["coach"].card  # the house card, as a practice hand's
        table = store.open_table(
            session, learner.id, card.name, wanted["kind"], rules_of(session, learner), settings, seat=wanted["sit"],
        )
        state = load_table(session, table)
        return jsonify(code=table.code, table=table_json(state, learner.id)), 201


@bp.get("/<code>")
def show(code: str):
    with database.reading(strict=True) as session:
        learner_id = _learner_id(session)
        table = _table(session, code, learner_id)
    return jsonify(table_json(_as_it_stands(table, learner_id), learner_id))


@bp.post("/<code>/seats")
@limits.drilling
def take_seat(code: str):
    seat = _seat_body()
    with database.reading(strict=True) as session:
        learner_id = _learner_id(session)
        _table(session, code, learner_id)
    if learner_id is None:
        with database.writing() as writer:
            learner_id = _learner_id(writer, create=True)  # a guest, as a practice hand makes one
            writer.commit()
    with database.reading(strict=True) as session:  # see MOVES_READING
        table = _table(session, code, learner_id)
        assert learner_id is not None
        if not store.may_sit(session, table, learner_id):
            raise _Refused(NOT_YOURS, 404)
        try:
            state = moves.sit(session, table, learner_id, seat)
        except (store.SeatTaken, store.AlreadySeated) as error:
            raise _Refused(str(error), 409) from None
        except store.TableError as error:
            raise _Refused(str(error), 400) from None
        return jsonify(table_json(state, learner_id))


@bp.post("/<code>/start")
@limits.drilling
def start(code: str):
    read_body(set())
    with database.reading(strict=True) as session:  # see MOVES_READING
        learner_id = _learner_id(session)
        table = _table(session, code, learner_id)
        if learner_id is None or table.host_id != learner_id:
            raise _Refused("only the table's host starts a hand", 403)
        try:
            outcome = moves.start_hand(session, table, learner_id)
        except store.TableHandMoved:
            raise _Refused("another start dealt this hand a moment ago: here it is", 409) from None
        except store.TableError as error:
            raise _Refused(str(error), 409) from None
        return jsonify(table_json(outcome.state, learner_id))


@bp.post("/<code>/actions")
@limits.drilling
def act(code: str):
    with database.reading(strict=True) as session:
        learner_id = _learner_id(session)
        table = _table(session, code, learner_id)
        seat = store.seat_of(session, table.id, learner_id) if learner_id is not None and table.id is not None else None
    if seat is None:
        raise _Refused("only the person in a seat plays for it: take a seat first", 403)
    action, number = _posted_action(seat.seat)
    with database.reading(strict=True) as session:  # see MOVES_READING
        for attempt in range(1, SAVE_TRIES + 1):
            fresh = session.get(GameTable, table.id)
            if fresh is None:
                raise _Refused(NOT_YOURS, 404)
            try:
                outcome = moves.play_move(session, fresh, seat.seat, action, number)
                _remember(outcome.state)  # the others' fetches of this version find it replayed
                break
            except moves.StaleMove as stale:
                return jsonify(error=str(stale), table=table_json(load_table(session, fresh), learner_id)), 409
            except store.TableHandMoved:
                # Another seat's answer was saved first (the four passes of a Charleston, answers
                # to one discard): this move is tried again on the table as it now stands, where
                # play_move's number check refuses it (StaleMove) if it no longer fits this seat.
                session.rollback()
                session.expire_all()
                if attempt == SAVE_TRIES:
                    return jsonify(
                        error="the table moved on in another request before this move arrived: here it is now; choose again",
                        table=table_json(load_table(session, fresh), learner_id),
                    ), 409
            except moves.NoHand as error:
                raise _Refused(str(error), 409) from None
        body = table_json(outcome.state, learner_id)
        body["rulings"] = [ruling_words(r) for r in outcome.rulings]
        return jsonify(body)


@bp.get("/<code>/events")
def events(code: str):
    """The table's stream (push.stream): "moved" with the table's version when it opens and
    whenever it changes. Each wake notes the person's presence when due (moves.tick)."""
    with database.reading(strict=True) as session:
        learner_id = _learner_id(session)
        table = _table(session, code, learner_id)
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]  # the stream runs after the request
    table_id = table.id
    assert table_id is not None

    def version_now() -> int | None:
        with app.app_context():
            with database.reading(strict=True) as session:
                fresh = session.get(GameTable, table_id)
                if fresh is None:
                    return None
                state = TableState(fresh, store.seats_of(session, table_id), store.current_hand(session, table_id), None)
                if state.settings.turn_timer is not None:
                    state = _read(session, fresh)  # whose time runs out needs the hand (replayed once per version)
                due = _due(state, learner_id)
                if due is not None:
                    # Written beside the stream, never in its way: a write waits its turn on SQLite's
                    # lock, and the "moved" this read is about to send must not. What the write
                    # changes (someone away, a timer's move) is published, and read on the next wake.
                    _presence().note(table_id, learner_id, whole=due == TICK)
                return state.version

    return push.stream(push.table_topic(table_id), version_now)


@bp.get("/<code>/hands/<int:number>/review")
@limits.drilling
def review_of(code: str, number: int):
    """Your review of your own seat in hand `number`, once it is over: the seat you held
    when it ended. Anyone else: 404 (nothing says whose seat was whose)."""
    with database.reading(strict=True) as session:
        learner_id = _learner_id(session)
        table = _table(session, code, learner_id)
        hand = session.exec(
            select(TableHand).where(TableHand.table_id == table.id, TableHand.number == number)
        ).first() if 0 < number <= MAX_DB_INT else None
        if hand is None or hand.id is None:
            raise _Refused("there is no such hand at this table", 404)
        if hand.finished_at is None:
            raise _Refused("the review comes once the hand is over: play on", 409)
        hand_id, result = hand.id, stored_result(hand)
    people = (result or {}).get("people", {})
    seat = next((s for s, who in people.items() if learner_id is not None and who == learner_id), None)
    if seat is None:
        raise _Refused("there is no review of yours for this hand: only the people who played it read theirs", 404)
    review_state = start_review(hand_id, seat)
    if review_state.status == FAILED:
        body, status = error_response("the review could not be made just now: it is tried again in a few minutes", 503)
        return body, status, {"Retry-After": "600"}
    found = review_state.review
    if found is None:
        return jsonify(review_state.to_json()), 202, {"Retry-After": "1"}
    return jsonify(
        decisions=[d.to_json() for d in found.decisions],
        summary={
            "accuracy": round(found.accuracy, 3),
            "decisions": len(found.decisions),
            "grades": {grade: sum(1 for d in found.decisions if d.grade == grade) for grade in GRADE_NAMES},
            "costliest": [d.number for d in found.costliest()],
            "winner": found.winner,
            "line": found.line,
            "hints": 0,
        },
    )


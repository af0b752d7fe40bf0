"""Teach: class tables, the class seated in fours for one deal, live (issue 28, item 5).

    POST /teach/classes/<id>/tables                      seat the class (students, card, computer players)
    GET  /teach/classes/<id>/rounds/<round>              the round: its tables, seats and codes, "Start the hand",
                                                         then the dashboard comparing the tables decision by decision
    POST /teach/classes/<id>/rounds/<round>/start        deal the round's hand at every table, once
    GET  /teach/classes/<id>/tables/<code>               watch a table live, read-only, every rack showing
    GET  /teach/classes/<id>/tables/<code>/view          the watch view as an htmx partial
    GET  /teach/classes/<id>/tables/<code>/events        its live stream (server-sent events, coach/web/infra/push.py)

Only the class's teacher reaches any of these, as every teach page: a
signed-in person who does not teach (a student of the class too) gets the
403 "Only teachers can do this" every teach route gives them, whatever the
URL names, so it says nothing of the class or its tables; another teacher
gets the 404 a missing class or table gets (the watch shows every rack, so
it is never told apart from a missing one); someone not signed in is sent
to sign in.

The dashboard compares the round's tables seat by seat with the class-hand
dashboard's own comparison (coach/play/compare.py, cached by deal and moves,
drawn by templates/teach/_decisions.html): the students in one seat (every
table's East, say) met the same positions as long as their tables' moves
were the same, every table having the same deal and computer players that
answer the same moves the same way. Each student's own decisions are graded
by the practice review of their seat, stored and computed in the background
as each person's own (coach/web/shared/tables/reviews.py).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from sqlmodel import Session

from coach.notation.card import Card
from coach.play.bots import STRENGTHS
from coach.play.compare import Comparison, compare
from coach.play.hand import Action, HandError
from coach.play.seat_view import watch_view
from coach.rules.table_rules import TableRules
from coach.store import class_tables as rounds
from coach.store import tables as table_store
from coach.store.models import Classroom, ClassRound, GameTable, Learner, TableHand
from coach.store.teaching import classrooms, roles, teachers_cards
from coach.web.infra import database
from coach.web.infra.htmx import render
from coach.web.infra.push import stream, table_topic
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.shared.tables import moves
from coach.web.shared.tables.reviews import start_review
from coach.web.shared.tables.state import TableState, load_table
from coach.web.teach.base import bp, found, teacher_id
from coach.web.teach.hands import CACHE_SIZE, runs
from drills.sets import HOUSE

POLL_SECONDS = 2  # the watch page's fallback when no stream can be had
SSE_SCRIPT = "vendor/htmx-ext-sse.min.js"  # htmx's SSE extension (npm htmx-ext-sse), copied there by `make assets`


def sse_ready() -> bool:
    """Whether the page can follow the stream: htmx's SSE extension is among the assets.
    Without it the page polls (it polls slowly with it too: a refused stream, 204, is not retried)."""
    return os.path.exists(os.path.join(current_app.static_folder or "", SSE_SCRIPT))


def _room(session: Session, class_id: int) -> Classroom:
    return found(classrooms.class_taught(session, teacher_id(), class_id))


def _round(session: Session, class_id: int, round_id: int) -> tuple[ClassRound, Classroom]:
    row, room = found(rounds.round_taught(session, teacher_id(), round_id))
    if room.id != class_id:
        abort(404)
    return row, room


def _table(session: Session, class_id: int, code: str) -> GameTable:
    return found(rounds.table_taught(session, teacher_id(), class_id, code))


def card_for(session: Session, teacher_id: int, key: str) -> Card | None:
    """The card a round is played on, by its key: the house card or one of the teacher's
    own; None when the teacher's card is gone."""
    house: Card = current_app.extensions["coach"].card
    if key == house.name:
        return house
    card_id = teachers_cards.card_id_in(key)
    row = teachers_cards.card_of(session, teacher_id, card_id) if card_id is not None else None
    return teacher_cards.card_of(row) if row is not None and teachers_cards.card_key(row) == key else None


# -- the class page's part -------------------------------------------------------------------


@dataclass(frozen=True)
class RoundSummary:
    row: ClassRound
    tables: int
    students: int

    @property
    def summary(self) -> str:
        state = "started" if self.row.started_at is not None else "not started"
        tables = f"{self.tables} {'table' if self.tables == 1 else 'tables'}"
        return f"{tables} · {self.students} {'student' if self.students == 1 else 'students'} · {state}"


def class_page_context(session: Session, room: Classroom, cards: list[tuple[str, str]]) -> dict[str, Any]:
    """What the class page shows of class tables: the rounds seated, and the form's choices."""
    out = []
    for row in rounds.rounds_of_class(session, room.id or 0)[:10]:
        found_tables = rounds.round_tables(session, row.id or 0)
        people = sum(1 for t in found_tables for s in t.seats if s.learner_id is not None)
        out.append(RoundSummary(row, len(found_tables), people))
    players = classrooms.class_rules(session, room.id or 0).players
    return {"class_rounds": out, "table_cards": cards, "table_strengths": STRENGTHS, "table_sizes": list(range(players, 0, -1))}


@bp.post("/classes/<int:class_id>/tables")
def seat_tables(class_id: int):
    """Seat the chosen students (every one ticked by default) in tables of four, or three
    under TR4, on one deal; to the round's page, where the teacher starts it. Sent again
    while that round waits to start (a double click, two tabs, a retried post), the
    class is not seated twice: the second request is sent to the first round."""
    with database.reading(strict=True) as session:
        room = _room(session, class_id)
        teacher = teacher_id()
        strength = request.form.get("tables_bots", "club")[:12]
        if strength not in STRENGTHS:
            strength = "club"
        raw = request.form.getlist("students")[: rounds.MOST_STUDENTS + 1]
        if any(not r.isdigit() or len(r) > 12 for r in raw):
            abort(400, description="Choose students from the list.")
        chosen = [int(r) for r in raw]
        raw_size = request.form.get("tables_size", "")[:2]
        per_table = int(raw_size) if raw_size.isdigit() else None
        card = request.form.get("tables_card", HOUSE)[:20] or HOUSE
        key: str | None = current_app.extensions["coach"].card.name if card == HOUSE else None
        if key is None and card.isdigit():
            row = teachers_cards.card_of(session, teacher, int(card))
            key = teachers_cards.card_key(row) if row is not None else None
        if key is None:
            flash("That card is not one of yours: choose one from the list.", "error")
            return redirect(url_for("teach.class_page", class_id=class_id), 303)  # the top, where the message shows
        try:
            seated_id = moves.written(
                session, lambda writer: rounds.seat_class(writer, teacher, class_id, key, chosen, strength, per_table=per_table).id,
            )
        except rounds.SeatedAlready as already:  # sent twice (a double click, two tabs, a retry): the first round
            flash(str(already), "success")  # not an error: the seating asked for is there
            return redirect(url_for("teach.round_page", class_id=class_id, round_id=already.round.id), 303)
        except table_store.TableError as error:
            flash(str(error), "error")
            return redirect(url_for("teach.class_page", class_id=class_id), 303)  # the top, where the message shows
        seated = session.get(ClassRound, seated_id)
        assert seated is not None and seated_id is not None
        count = len(rounds.round_tables(session, seated_id))
        flash(f"Seated {room.name} at {count} {'table' if count == 1 else 'tables'}: deal {seated.seed}. Start the hand when everyone is ready.", "success")
    return redirect(url_for("teach.round_page", class_id=class_id, round_id=seated_id), 303)


# -- the round: its tables, the start, the dashboard ----------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    """One seat of a round's table as the teacher reads it, with the student's review."""

    code: str
    table: int  # the table's number in the round, from 1
    seat: str
    learner_id: int | None
    name: str  # the student's, or "Computer player"
    state: str  # "Not started", "Playing", "Finished"
    outcome: str
    won: bool
    decisions: int
    accuracy: float | None
    reviewing: bool


def _names(session: Session, ids: set[int]) -> dict[int, str]:
    out = {}
    for learner_id in ids:
        person = session.get(Learner, learner_id)
        out[learner_id] = roles.display_name(person) if person is not None else f"Student {learner_id}"
    return out


def _outcome(hand: TableHand | None, seat: str) -> tuple[str, bool]:
    if hand is None or hand.finished_at is None:
        return "", False
    result = json.loads(hand.result or "null") or {}
    winner = result.get("winner")
    if winner == seat:
        return "Won", True
    return (f"{winner} won" if winner else "Wall game"), False


def seat_lines(card: Card | None, tables: list[rounds.RoundTable], names: dict[int, str]) -> list[SeatLine]:
    lines = []
    for number, found_table in enumerate(tables, 1):
        hand = found_table.hand
        actions = [Action.from_json(a) for a in table_store.actions_of(hand)] if hand is not None else []
        for seat in found_table.seats:
            if seat.learner_id is None:
                continue
            state = "Not started" if hand is None else "Finished" if hand.finished_at is not None else "Playing"
            words, won = _outcome(hand, seat.seat)
            accuracy, reviewing = None, False
            mine = sum(1 for a in actions if a.seat == seat.seat)
            if hand is not None and hand.finished_at is not None and card is not None:
                got = start_review(hand.id or 0, seat.seat)  # the stored review, started if missing
                accuracy = got.review.accuracy if got.review is not None else None
                reviewing = got.review is None and got.status != "failed"
            lines.append(SeatLine(
                found_table.table.code, number, seat.seat, seat.learner_id, names.get(seat.learner_id, "A student"),
                state, words, won, mine, accuracy, reviewing,
            ))
    return lines


def seat_comparisons(card: Card, row: ClassRound, tables: list[rounds.RoundTable]) -> list[tuple[str, Comparison]]:
    """Per seat a student sits in at some table: the tables' decisions there compared."""
    out = []
    for seat in ("East", "South", "West", "North"):
        moves = tuple(
            (str(s.learner_id), t.hand.actions)
            for t in tables if t.hand is not None
            for s in t.seats if s.seat == seat and s.learner_id is not None
        )
        if moves:
            out.append((seat, _compare(card, row.seed, moves, rounds.round_rules(row), seat)))
    return out


@lru_cache(maxsize=CACHE_SIZE)
def _compare(card: Card, seed: int, moves: tuple[tuple[str, str], ...], rules: TableRules, seat: str) -> Comparison:
    hands = {who: [Action.from_json(a) for a in json.loads(actions)] for who, actions in moves}
    return compare(card, seed, hands, seat, rules)


@bp.get("/classes/<int:class_id>/rounds/<int:round_id>")
def round_page(class_id: int, round_id: int):
    with database.reading(strict=True) as session:
        row, room = _round(session, class_id, round_id)
        tables = rounds.round_tables(session, round_id)
        names = _names(session, {s.learner_id for t in tables for s in t.seats if s.learner_id is not None})
        card = card_for(session, teacher_id(), row.card)
        lines = seat_lines(card, tables, names)
        compared = seat_comparisons(card, row, tables) if card is not None and row.started_at is not None else []
        return render_template(
            "teach/class_round.html",
            room=room,
            round=row,
            tables=tables,
            names=names,
            card_title=teacher_cards.title(card.name) if card is not None else row.card,
            card_gone=card is None,
            round_rules=rounds.round_rules(row),
            lines=lines,
            reviewing=any(line.reviewing for line in lines),
            compared=[(seat, c, runs(c.steps)) for seat, c in compared],
            decision_names={str(k): v for k, v in names.items()},
        )


@bp.post("/classes/<int:class_id>/rounds/<int:round_id>/start")
def start_round(class_id: int, round_id: int):
    """Deal the round's hand at every table, once: a second start (a double click,
    another tab) says it was started already."""
    with database.reading(strict=True) as session:
        _round(session, class_id, round_id)
        teacher = teacher_id()
        try:
            dealt = moves.written(session, lambda writer: [hand.table_id for hand in rounds.start_round(writer, teacher, round_id)])
        except table_store.TableError as error:
            flash(str(error), "error")
            return redirect(url_for("teach.round_page", class_id=class_id, round_id=round_id), 303)
        for table_id in dealt:  # after the commit: the computer players play up to a student's decision, and the pages hear of it
            table = session.get(GameTable, table_id)
            assert table is not None
            moves.tick(session, table)  # reads here, writes in a writing() session of its own (moves.written)
            moves.publish(table)
    flash(f"The hand is dealt at {len(dealt)} {'table' if len(dealt) == 1 else 'tables'}: the same tiles at each.", "success")
    return redirect(url_for("teach.round_page", class_id=class_id, round_id=round_id), 303)


@bp.post("/classes/<int:class_id>/rounds/<int:round_id>/cancel")
def cancel_round(class_id: int, round_id: int):
    """Take back a seating not started yet; its students' tables go with it."""
    with database.reading(strict=True) as session:
        _round(session, class_id, round_id)
        teacher = teacher_id()
        tables = [placed.table for placed in rounds.round_tables(session, round_id)]
        try:
            moves.written(session, lambda writer: rounds.cancel_round(writer, teacher, round_id))
        except table_store.TableError as error:
            flash(str(error), "error")
            return redirect(url_for("teach.round_page", class_id=class_id, round_id=round_id), 303)
        for table in tables:  # a student's open page hears that its table is gone
            moves.publish(table)
    flash(f"The seating is taken back: {len(tables)} {'table' if len(tables) == 1 else 'tables'} closed. Seat the class again when you are ready.", "success")
    return redirect(url_for("teach.class_page", class_id=class_id), 303)  # the top, where the message shows


# -- watching a table ------------------------------------------------------------------------


def _watch_context(session: Session, class_id: int, table: GameTable) -> dict[str, Any]:
    assert table.id is not None
    seats = table_store.seats_of(session, table.id)
    names = _names(session, {s.learner_id for s in seats if s.learner_id is not None})
    away = table_store.people_at(seats)[1]
    who = {s.seat: (names[s.learner_id] if s.learner_id is not None else "Computer player") for s in seats}
    context: dict[str, Any] = {
        "table": table, "class_id": class_id, "who": who, "away": away, "view": None, "problem": "",
        "version": _version(session, table), "sse": sse_ready(),
    }
    if card_for(session, teacher_id(), table.card) is None:
        context["problem"] = f"This table plays on “{table.card}”, which is no longer one of your cards."
        return context
    try:
        state = load_table(session, table)
    except HandError as error:
        context["problem"] = f"This hand cannot be replayed: {error.message} ({error.rule})."
        return context
    if state.hand is not None:
        context["view"] = watch_view(state.hand, state.people, state.settings, state.held)
    return context


def _version(session: Session, table: GameTable) -> int:
    """The table's version as its players' pages have it (TableState.version): its hand and its seats."""
    assert table.id is not None
    return TableState(table, table_store.seats_of(session, table.id), table_store.current_hand(session, table.id), None).version


@bp.get("/classes/<int:class_id>/tables/<code>")
def watch_table(class_id: int, code: str):
    """The table as the teacher watches it: every rack, read-only, following the table live."""
    with database.reading(strict=True) as session:
        room = _room(session, class_id)
        table = _table(session, class_id, code)
        context = _watch_context(session, class_id, table)
        round_row = session.get(ClassRound, table.round_id) if table.round_id is not None else None
        return render(
            "teach/watch_table.html", "teach/partials/watch_view.html", room=room, round=round_row, poll=POLL_SECONDS, **context
        ), 200, {"Vary": "HX-Request"}


@bp.get("/classes/<int:class_id>/tables/<code>/view")
def watch_table_view(class_id: int, code: str):
    """The watch view alone, fetched when the stream says the table moved (or every few seconds without one)."""
    with database.reading(strict=True) as session:
        _room(session, class_id)
        table = _table(session, class_id, code)
        if request.args.get("v") == str(_version(session, table)):
            return "", 204, {"Cache-Control": "no-store"}  # nothing moved: the page keeps what it shows
        return render_template("teach/partials/watch_view.html", poll=POLL_SECONDS, **_watch_context(session, class_id, table))


@bp.get("/classes/<int:class_id>/tables/<code>/events")
def watch_table_events(class_id: int, code: str):
    """The table's live stream for its teacher: "moved" with the table's version when it moves."""
    with database.reading(strict=True) as session:
        _room(session, class_id)
        table_id = _table(session, class_id, code).id
    assert table_id is not None
    app = current_app._get_current_object()  # type: ignore[attr-defined]

    def version_now() -> int | None:
        with app.app_context(), database.reading(strict=True) as session:
            table = session.get(GameTable, table_id)
            return None if table is None else _version(session, table)

    return stream(table_topic(table_id), version_now)

"""A class seated at tables by its teacher, every table playing the same deal (issue 28, item 5).

A round (`ClassRound`) is one seating of a class: the students the teacher
chose, in tables of four (three under TR4), computer players in the seats
left over, and one deal (seed), card, table rules and computer players'
strength for every table of it, so that the class-table dashboard can
compare the tables decision by decision. The tables are class tables
(`kind` "class": they wait for a student who is away) hosted by the
teacher, each naming the round.

A class has one round not yet started at most (the unique index
`uq_class_round_open`, migration 0019): a second "Seat the class" while one
waits to start (a double click, two tabs, a retried post) is `SeatedAlready`
with the first round, whichever request the database heard first, and seats
nobody. The round and all its tables are written in one transaction, so no
request ever sees a round with only some of its tables: on PostgreSQL, which
lets both requests write at once, the second waits on that index until the
first commits, then collides and is given the whole round. Once started,
the class may be seated again for the next deal. A round not started yet
may be taken back (`cancel_round`), under the same compare and set as the
start: a round is started or taken back, never both.

Starting the round deals the hand at every table with the round's seed, in
one transaction behind a compare and set on `started_at`: two requests (a
double click, two tabs) start it once, and a failure leaves no table with a
hand and others without.

The getters a request reaches check who asks, as coach/store/teaching does:
`round_taught` and `table_taught` are None for anyone but the class's
teacher; the web layer turns None into a 404.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from coach.common import clock
from coach.play.people import TableSettings
from coach.rules.table import seats_in_play
from coach.rules.table_rules import TableRules
from coach.store.hands import SEED_RANGE
from coach.store.models import Classroom, ClassRound, GameTable, TableHand, TableSeat
from coach.store.table_rules import read, stored
from coach.store.tables import TableError, add_class_table, current_hand, seats_of, table_by_code
from coach.store.teaching import classrooms

MOST_STUDENTS = 200  # a round seats at most this many: 50 tables of four, a large hall


class RoundStarted(TableError):
    """The round's hand was started already (perhaps by a request a moment sooner)."""


class SeatedAlready(TableError):
    """The class has a round seated and not started yet (perhaps by a request a moment
    sooner: a double click, another tab, a retried post): `round` is that round, which
    the second request is given instead of a second seating."""

    def __init__(self, row: ClassRound) -> None:
        super().__init__("The class is seated already: here are its tables. Start the hand when everyone is ready.")
        self.round = row


@dataclass(frozen=True)
class RoundTable:
    """One table of a round: its seats in turn order and its hand (None before the start)."""

    table: GameTable
    seats: list[TableSeat]
    hand: TableHand | None


def groups(learner_ids: Sequence[int], players: int) -> list[list[int]]:
    """The students in tables of `players`, as few tables as hold them all and as even
    as they go (seven at four-player tables: four and three, never four, two and one),
    so that each table has as many people as can be."""
    count = -(-len(learner_ids) // players)
    out: list[list[int]] = [[] for _ in range(count)]
    for n, learner in enumerate(learner_ids):
        out[n % count].append(learner)
    return out


def seat_class(
    session: Session, teacher_id: int, class_id: int, card: str, learner_ids: Sequence[int] | None = None,
    strength: str = "club", seed: int | None = None, per_table: int | None = None,
) -> ClassRound:
    """Seat the class's students (`learner_ids`, or every member) at new class tables,
    `per_table` at each at most (a full table, four or three, by default; fewer make
    more tables, so more students meet the same decisions in the same seat), East
    first, the other seats computer players; every table of the round plays the
    class's table rules, `card` (its key) and one seed. TableError for a class the
    teacher does not teach, a student not in the class, or nobody to seat;
    SeatedAlready (with that round) when the class has a round not started yet."""
    if classrooms.class_taught(session, teacher_id, class_id) is None:
        raise TableError("only the class's teacher seats the class")
    members = [row.id for row in classrooms.students(session, class_id) if row.id is not None]
    chosen = members if learner_ids is None else list(dict.fromkeys(learner_ids))
    if not chosen:
        raise TableError("Choose at least one student to seat.")
    if len(chosen) > MOST_STUDENTS:
        raise TableError(f"A round seats at most {MOST_STUDENTS} students.")
    strangers = set(chosen) - set(members)
    if strangers:
        raise TableError("Only the class's students can be seated at its tables.")
    settings = TableSettings.for_kind("class", strength)  # the class table waits for a student who is away
    rules = classrooms.class_rules(session, class_id)
    places = seats_in_play(rules.players)
    size = len(places) if per_table is None else per_table
    if not 1 <= size <= len(places):
        raise TableError(f"A table seats 1 to {len(places)} students.")
    waiting = open_round(session, class_id)
    if waiting is not None:
        raise SeatedAlready(waiting)
    row = ClassRound(
        classroom_id=class_id, seed=secrets.randbelow(SEED_RANGE) if seed is None else seed, card=card[:120],
        rules=stored(rules), bots=settings.strength,
    )
    session.add(row)
    try:
        # The round and all its tables are one transaction: nobody sees the round before
        # its last table. On PostgreSQL a second seating of the class waits here, on the
        # unique index, until this one commits (then collides) or rolls back.
        session.flush()
        assert row.id is not None
        for group in groups(chosen, size):
            add_class_table(session, teacher_id, card, rules, settings, class_id, row.id, dict(zip(places, group, strict=False)))
        session.commit()
    except IntegrityError:  # uq_class_round_open: another request seated the class between the look and the write
        session.rollback()
        waiting = open_round(session, class_id)
        if waiting is None:  # the other round was started in that same moment, the class deleted, or a join code clashed
            raise TableError("The class could not be seated just now (another request changed it at the same moment): "
                             "open it from the class page, or try again.") from None
        raise SeatedAlready(waiting) from None
    session.refresh(row)
    return row


def open_round(session: Session, class_id: int) -> ClassRound | None:
    """The class's round seated and not started yet, if any (one at most). Not owner-checked."""
    return session.exec(
        select(ClassRound).where(ClassRound.classroom_id == class_id, col(ClassRound.started_at).is_(None))
    ).first()


def rounds_of_class(session: Session, class_id: int) -> list[ClassRound]:
    """The class's rounds, newest first. Not owner-checked: for a class reached through `class_taught`."""
    return list(
        session.exec(
            select(ClassRound).where(ClassRound.classroom_id == class_id).order_by(col(ClassRound.id).desc())
        ).all()
    )


def round_taught(session: Session, teacher_id: int, round_id: int) -> tuple[ClassRound, Classroom] | None:
    """The round and its class, for the class's teacher only; None for anyone else, as for a missing one."""
    row = session.get(ClassRound, round_id)
    if row is None:
        return None
    room = classrooms.class_taught(session, teacher_id, row.classroom_id)
    return (row, room) if room is not None else None


def round_tables(session: Session, round_id: int) -> list[RoundTable]:
    """The round's tables in the order they were seated, each with its seats and hand."""
    tables = session.exec(select(GameTable).where(GameTable.round_id == round_id).order_by(col(GameTable.id))).all()
    out = []
    for table in tables:
        assert table.id is not None
        out.append(RoundTable(table, seats_of(session, table.id), current_hand(session, table.id)))
    return out


def table_taught(session: Session, teacher_id: int, class_id: int, code: str) -> GameTable | None:
    """A class table of this class, for the class's teacher only; None for anyone else."""
    if classrooms.class_taught(session, teacher_id, class_id) is None:
        return None
    table = table_by_code(session, code)
    return table if table is not None and table.class_id == class_id else None


def start_round(session: Session, teacher_id: int, round_id: int) -> list[TableHand]:
    """Deal the round's hand at every table of it with the round's seed, once, in one
    transaction: RoundStarted when it was started already (the compare and set on
    `started_at`), TableError when the round is not this teacher's."""
    if round_taught(session, teacher_id, round_id) is None:
        raise TableError("only the class's teacher starts the class's tables")
    row = session.get(ClassRound, round_id)
    assert row is not None
    claimed = session.exec(
        update(ClassRound)
        .where(col(ClassRound.id) == round_id, col(ClassRound.started_at).is_(None))
        .values(started_at=clock.now())
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:
        session.rollback()
        raise RoundStarted("This round's hand was started already.")
    hands = []
    for found in round_tables(session, round_id):
        assert found.table.id is not None
        number = (found.hand.number if found.hand is not None else 0) + 1
        hand = TableHand(table_id=found.table.id, number=number, seed=row.seed, rules=row.rules)
        session.add(hand)
        hands.append(hand)
    try:
        session.commit()
    except IntegrityError:  # a table's hand of that number was dealt meanwhile: none of the round's is
        session.rollback()
        raise RoundStarted("This round's hand was started already.") from None
    for hand in hands:
        session.refresh(hand)
    session.refresh(row)
    return hands


def cancel_round(session: Session, teacher_id: int, round_id: int) -> None:
    """Take back a seating not started yet (the wrong students, the wrong card): the
    round goes, and its tables and seats with it (their keys cascade), in one delete
    behind the same compare and set as the start, so a round is started or cancelled,
    never both. RoundStarted when it was started first; TableError when the round is
    not this teacher's."""
    if round_taught(session, teacher_id, round_id) is None:
        raise TableError("only the class's teacher takes back the class's seating")
    gone = session.exec(
        delete(ClassRound)
        .where(col(ClassRound.id) == round_id, col(ClassRound.started_at).is_(None))
        .execution_options(synchronize_session=False)
    )
    if gone.rowcount != 1:
        session.rollback()
        raise RoundStarted("This round's hand was started already: its tables play on.")
    session.commit()


def seat_in_latest_round(session: Session, class_id: int, learner_id: int) -> tuple[GameTable, TableSeat] | None:
    """The student's table and seat in the newest round of the class that seated them; None if none did."""
    found = session.exec(
        select(GameTable, TableSeat)
        .join(TableSeat, col(TableSeat.table_id) == GameTable.id)
        .where(GameTable.class_id == class_id, col(GameTable.round_id).is_not(None), TableSeat.learner_id == learner_id)
        .order_by(col(GameTable.round_id).desc())
        .limit(1)
    ).first()
    return (found[0], found[1]) if found is not None else None


def round_rules(row: ClassRound) -> TableRules:
    return read(row.rules)

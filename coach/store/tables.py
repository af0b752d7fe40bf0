"""Tables with friends and classes (issue 28): opened, sat at, left, and their hands saved.

A table (`GameTable`) has a short join code, a host, a card, its table rules
and its settings (coach/play/people.py `TableSettings`), and one row per seat
in play (`TableSeat`): a person's, or with nobody in it a computer player's.
Its hands (`TableHand`) are kept as practice hands are: seed, rules and
actions, and with them the answers held for the decision still open.

Everything two people can do at once is decided by the database, never by a
read before a write:
- a seat is taken with a compare and set on its empty `learner_id` (two
  people racing for one seat: one gets it, the other `SeatTaken`), and one
  person holds at most one seat of a table (a unique key: `AlreadySeated`);
- a move is saved only on the version it was played on (`save_moves`):
  the later of two gets `TableHandMoved`, a `HandMoved` as the practice
  table knows it, and nothing of it is written;
- a hand's number is unique at its table, so two starts at once make one hand.

Getters that a person reaches from a request check who asks: `seat_of`
(this person's seat, or None) and `table_for_host` (the host's own table,
or None); the web layer turns None into a 404.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import Integer, cast, delete, func, literal, union_all, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from coach.common import clock
from coach.common.errors import CoachError
from coach.play.hand import SEATS
from coach.play.people import KINDS, TableSettings
from coach.rules.table import seats_in_play
from coach.rules.table_rules import LEAGUE, TableRules
from coach.store.hands import SEED_RANGE, HandMoved
from coach.store.models import GameTable, Membership, TableHand, TableHandReview, TableSeat
from coach.store.table_rules import read, stored
from coach.store.teaching.classrooms import class_taught

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I: codes are read aloud and typed
CODE_LENGTH = 6
CODE_TRIES = 20  # a clash among 887 million codes is rare; another code when it happens


class TableError(CoachError, ValueError):
    """Something asked of a table that cannot be done, said plainly."""


class SeatTaken(TableError):
    """The seat has a person in it already (perhaps one who got there a moment sooner)."""


class AlreadySeated(TableError):
    """This person holds another seat of this table already: one person, one seat."""


class TableHandMoved(HandMoved):
    """Another move was saved first on this hand: nothing of this one was written."""


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(raw: str) -> str:
    """A join code as typed or pasted: case, spaces and dashes do not matter."""
    return "".join(ch for ch in raw.upper() if ch.isalnum())[:16]


# -- a table --------------------------------------------------------------------------------


def open_table(
    session: Session, host_id: int, card: str, kind: str = "friends", rules: TableRules = LEAGUE,
    settings: TableSettings | None = None, class_id: int | None = None, seat: str | None = None,
    round_id: int | None = None,
) -> GameTable:
    """A new table with a unique join code, every seat in play a computer player's;
    with `seat`, the host sits there. A class table names its class, which the host
    must teach (coach/store/teaching/classrooms.py), and the class round it was
    seated for, if any (coach/store/class_tables.py)."""
    if kind not in KINDS:
        raise TableError(f"a table is one of {', '.join(KINDS)}")
    if (kind == "class") != (class_id is not None):
        raise TableError("a class table, and only a class table, names its class")
    if class_id is not None:
        if class_taught(session, host_id, class_id) is None:
            raise TableError("only the class's teacher opens a table for it")
    settings = settings or TableSettings.for_kind(kind)
    for _ in range(CODE_TRIES):
        row = _table_row(_new_code(), host_id, card, kind, rules, settings, class_id, round_id)
        session.add(row)
        try:
            session.flush()
        except IntegrityError:
            session.rollback()
            continue
        assert row.id is not None
        for name in seats_in_play(rules.players):
            session.add(TableSeat(table_id=row.id, seat=name))
        session.commit()
        session.refresh(row)
        if seat is not None:
            take_seat(session, row.id, host_id, seat)
        return row
    raise TableError("Could not make a join code; please try again.")


def _table_row(
    code: str, host_id: int, card: str, kind: str, rules: TableRules, settings: TableSettings, class_id: int | None,
    round_id: int | None,
) -> GameTable:
    return GameTable(
        code=code, host_id=host_id, card=card[:120], rules=stored(rules), bots=settings.strength,
        settings=json.dumps(settings.to_json(), sort_keys=True), kind=kind, class_id=class_id, round_id=round_id,
    )


def add_class_table(
    session: Session, host_id: int, card: str, rules: TableRules, settings: TableSettings, class_id: int, round_id: int,
    seated: dict[str, int],
) -> GameTable:
    """A class table of a round in the caller's transaction, flushed, not committed
    (coach/store/class_tables.py writes a round and all its tables at once): the
    students in `seated` (seat -> learner) away until they open it, computer players
    in the other seats. The caller has checked the class is the host's and the
    students its members. Its join code is one no table has now; one taken by a table
    opened at this very moment fails the caller's flush or commit (IntegrityError)."""
    for _ in range(CODE_TRIES):
        code = _new_code()
        if session.exec(select(GameTable.id).where(GameTable.code == code)).first() is None:
            break
    else:
        raise TableError("Could not make a join code; please try again.")
    row = _table_row(code, host_id, card, "class", rules, settings, class_id, round_id)
    session.add(row)
    session.flush()
    assert row.id is not None
    now = clock.now()
    for name in seats_in_play(rules.players):
        learner_id = seated.get(name)
        # Seated by the teacher, not yet at the table: away until they open it (take_seat marks them present).
        session.add(TableSeat(table_id=row.id, seat=name, learner_id=learner_id, present=False,
                              seen_at=now if learner_id is not None else None))
    session.flush()
    return row


def table_by_code(session: Session, code: str) -> GameTable | None:
    code = normal_code(code)
    return session.exec(select(GameTable).where(GameTable.code == code)).first() if code else None


def table_for_host(session: Session, host_id: int, table_id: int) -> GameTable | None:
    """The host's own table; None for anyone else's, as for a missing one."""
    row = session.get(GameTable, table_id)
    return row if row is not None and row.host_id == host_id else None


def table_rules(table: GameTable) -> TableRules:
    return read(table.rules)


def table_settings(table: GameTable) -> TableSettings:
    return TableSettings.from_json({**json.loads(table.settings or "{}"), "strength": table.bots})


def tables_of(session: Session, learner_id: int, most: int = 50) -> list[GameTable]:
    """The tables this person hosts or sits at, the newest first (at most `most`)."""
    seated = select(TableSeat.table_id).where(col(TableSeat.learner_id) == learner_id)
    return list(session.exec(
        select(GameTable).where((col(GameTable.host_id) == learner_id) | col(GameTable.id).in_(seated))
        .order_by(col(GameTable.id).desc()).limit(most)
    ).all())


def may_sit(session: Session, table: GameTable, learner_id: int) -> bool:
    """Anyone with the code sits at a friends' or "waits" table; at a class table,
    the class's members and its teacher (the host) only."""
    if table.class_id is None or learner_id == table.host_id:
        return True
    found = session.exec(
        select(Membership.id).where(Membership.classroom_id == table.class_id, Membership.learner_id == learner_id)
    ).first()
    return found is not None


# -- seats ----------------------------------------------------------------------------------


def seats_of(session: Session, table_id: int) -> list[TableSeat]:
    """The table's seats in turn order (S5)."""
    rows = session.exec(select(TableSeat).where(TableSeat.table_id == table_id)).all()
    return sorted(rows, key=lambda r: SEATS.index(r.seat))


def seat_of(session: Session, table_id: int, learner_id: int) -> TableSeat | None:
    """This person's seat at the table; None when they hold none (or there is no such table)."""
    return session.exec(select(TableSeat).where(TableSeat.table_id == table_id, TableSeat.learner_id == learner_id)).first()


def people_at(seats: list[TableSeat]) -> tuple[frozenset[str], frozenset[str]]:
    """The seats people hold, and those of them away: what coach/play/people.py asks for."""
    people = frozenset(s.seat for s in seats if s.learner_id is not None)
    return people, frozenset(s.seat for s in seats if s.learner_id is not None and not s.present)


def _set_seat(session: Session, table_id: int, seat: str, values: dict[str, Any], *conditions: Any) -> int:
    written = session.exec(
        update(TableSeat)
        .where(col(TableSeat.table_id) == table_id, col(TableSeat.seat) == seat, *conditions)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return int(written.rowcount)


def take_seat(session: Session, table_id: int, learner_id: int, seat: str) -> TableSeat:
    """Sit this person in `seat` (from a computer player, mid-hand too), in one
    transaction: a compare and set on the seat being empty; their own seat again is
    simply theirs. SeatTaken when a person
    holds it; AlreadySeated when this person holds another seat here; TableError
    for a table they may not sit at or a seat not in play."""
    table = session.get(GameTable, table_id)
    if table is None or not may_sit(session, table, learner_id):
        raise TableError("there is no such table, or it is not open to you")
    if seat not in seats_in_play(table_rules(table).players):
        raise TableError(f"{seat} has no seat at this table")
    mine = seat_of(session, table_id, learner_id)
    if mine is not None and mine.seat == seat:  # a second "sit here" (a double click): they are there
        come_back(session, table_id, learner_id)
        return mine
    try:
        taken = _set_seat(
            session, table_id, seat, {"learner_id": learner_id, "present": True, "seen_at": clock.now()}, col(TableSeat.learner_id).is_(None),
        )
    except IntegrityError:  # the unique (table, person): they sit elsewhere here already
        session.rollback()
        raise AlreadySeated(f"you already have a seat at this table: {seat} stays as it was") from None
    if taken != 1:
        session.rollback()
        raise SeatTaken(f"someone is already sitting in {seat}")
    session.commit()
    row = seat_of(session, table_id, learner_id)
    assert row is not None
    return row


def _presence(session: Session, table_id: int, learner_id: int, present: bool) -> bool:
    row = seat_of(session, table_id, learner_id)
    if row is None:
        return False
    _set_seat(session, table_id, row.seat, {"present": present}, col(TableSeat.learner_id) == learner_id)
    session.commit()
    session.refresh(row)
    return True


def leave(session: Session, table_id: int, learner_id: int) -> bool:
    """The person steps away and keeps the seat; False when they hold none here."""
    return _presence(session, table_id, learner_id, False)


def come_back(session: Session, table_id: int, learner_id: int) -> bool:
    """The person is back at their seat; False when they hold none here."""
    return _presence(session, table_id, learner_id, True)


def heard_from(session: Session, table_id: int, learner_id: int, now: datetime | None = None) -> bool:
    """The person's page or stream was heard from now (`seen_at`): they are present.
    True when they were away and so came back (the table's version moves)."""
    return table_id in heard_from_all(session, [(table_id, learner_id)], now)


def heard_from_all(session: Session, heard: Iterable[tuple[int, int]], now: datetime | None = None) -> set[int]:
    """`heard_from` for each (table, person) in one transaction: the tables someone came back to."""
    now = clock.as_utc(now or clock.now())
    back: set[int] = set()
    for table_id, learner_id in heard:
        mine = (col(TableSeat.table_id) == table_id, col(TableSeat.learner_id) == learner_id)
        if session.exec(
            update(TableSeat).where(*mine, col(TableSeat.present).is_(False)).values(present=True, seen_at=now)
            .execution_options(synchronize_session=False)
        ).rowcount:
            back.add(table_id)
        else:
            session.exec(update(TableSeat).where(*mine).values(seen_at=now).execution_options(synchronize_session=False))
    session.commit()
    return back


def mark_away(session: Session, table_id: int, before: datetime) -> int:
    """Every person at the table not heard from since `before` is away (a compare
    and set on `seen_at`: one heard from meanwhile stays present). How many went."""
    gone = session.exec(
        update(TableSeat)
        .where(
            col(TableSeat.table_id) == table_id, col(TableSeat.learner_id).is_not(None), col(TableSeat.present).is_(True),
            col(TableSeat.seen_at).is_(None) | (col(TableSeat.seen_at) < clock.as_utc(before)),
        )
        .values(present=False)
        .execution_options(synchronize_session=False)
    ).rowcount
    session.commit()
    return int(gone)


def move_out(session: Session, host_id: int, table_id: int, seat: str) -> bool:
    """The host moves whoever sits in `seat` out: a computer player takes the seat
    (mid-hand too). False when the table is not the host's or the seat is empty."""
    if table_for_host(session, host_id, table_id) is None:
        return False
    moved = _set_seat(session, table_id, seat, {"learner_id": None, "present": False}, col(TableSeat.learner_id).is_not(None))
    session.commit()
    return moved == 1


def seen(session: Session, table_id: int, learner_id: int, number: int) -> None:
    """The state number (coach/play/seat_view.py) last sent to this person's seat; it never goes back."""
    session.exec(
        update(TableSeat)
        .where(col(TableSeat.table_id) == table_id, col(TableSeat.learner_id) == learner_id, col(TableSeat.last_seen) < number)
        .values(last_seen=number)
        .execution_options(synchronize_session=False)
    )
    session.commit()


# -- hands ----------------------------------------------------------------------------------


def current_hand(session: Session, table_id: int) -> TableHand | None:
    """The table's latest hand, going or finished; None before the first."""
    return session.exec(
        select(TableHand).where(TableHand.table_id == table_id).order_by(col(TableHand.number).desc()).limit(1)
    ).first()


def deal_seed() -> int:
    """A new hand's seed: secret, so that nobody, the host included, can know the deal."""
    return secrets.randbelow(SEED_RANGE)


def start_hand(session: Session, table_id: int, seed: int | None = None) -> TableHand:
    """Deal the table's next hand under the table's rules as they are now (the hand
    keeps them). TableError while a hand is going; TableHandMoved when another
    start made this number first."""
    table = session.get(GameTable, table_id)
    if table is None:
        raise TableError("there is no such table")
    latest = current_hand(session, table_id)
    if latest is not None and latest.finished_at is None:
        raise TableError("a hand is going at this table: finish it first")
    number = int(session.exec(select(func.coalesce(func.max(TableHand.number), 0)).where(TableHand.table_id == table_id)).one()) + 1
    row = TableHand(
        table_id=table_id, number=number, seed=deal_seed() if seed is None else seed, rules=table.rules,
    )
    session.add(row)
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise TableHandMoved(table_id) from None
    session.refresh(row)
    return row


def hand_rules(row: TableHand) -> TableRules:
    return read(row.rules)


def actions_of(row: TableHand) -> list[dict[str, Any]]:
    return list(json.loads(row.actions or "[]"))


def held_of(row: TableHand) -> list[dict[str, Any]]:
    return list(json.loads(row.held or "[]"))


def owed_of(row: TableHand) -> dict[str, list[Any]]:
    """Each person's decision owed at the hand's last save and when it began
    ({seat: [kind, state number, ISO time]}); empty when none was recorded."""
    value = json.loads(row.owed or "null")
    return value if isinstance(value, dict) else {}


def save_moves(
    session: Session, row: TableHand, actions: list[dict[str, Any]], held: list[dict[str, Any]], result: dict[str, Any] | None,
    owed: dict[str, list[Any]] | None = None, now: datetime | None = None,
) -> None:
    """Keep the hand as it now stands, in one transaction, only on the version this
    request loaded (compare and set): TableHandMoved when another save came first,
    and then nothing is written. `owed`: the decisions people owe now and when
    each began (`owed_of`), kept for the turn timer; None keeps none."""
    now = clock.as_utc(now or clock.now())
    values: dict[str, Any] = {
        "actions": json.dumps(actions, separators=(",", ":")), "held": json.dumps(held, separators=(",", ":")),
        "version": row.version + 1, "moved_at": now,
        "owed": json.dumps(owed, separators=(",", ":"), sort_keys=True) if owed is not None else None,
    }
    if result is not None and row.finished_at is None:
        values["result"] = json.dumps(result)
        values["finished_at"] = now
    written = session.exec(
        update(TableHand)
        .where(col(TableHand.id) == row.id, col(TableHand.version) == row.version)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if written.rowcount != 1:
        session.rollback()
        raise TableHandMoved(row.id)
    for name, value in values.items():  # the row object says what was stored, without a second read
        set_committed_value(row, name, value)
    session.commit()


def table_versions(session: Session, table_ids: list[int]) -> dict[int, tuple[Any, ...]]:
    """What of each table a page shows may have changed, read in one query: its seats
    (who sits where, who is away) and its hands (how many, and the sum of their save
    counts, which every save raises). Equal values: nothing a page shows moved. A
    table that is gone is missing. For the live push's watcher (coach/web/infra/push_relays.py)."""
    if not table_ids:
        return {}
    seats = select(
        col(TableSeat.table_id), col(TableSeat.seat), func.coalesce(col(TableSeat.learner_id), 0), cast(col(TableSeat.present), Integer),
    ).where(col(TableSeat.table_id).in_(table_ids))
    hands = (
        select(col(TableHand.table_id), literal("#hands"), func.count(), func.coalesce(func.sum(col(TableHand.version)), 0))
        .where(col(TableHand.table_id).in_(table_ids))
        .group_by(col(TableHand.table_id))
    )
    found: dict[int, list[tuple[Any, ...]]] = {}
    for table_id, what, first, second in session.exec(union_all(seats, hands)).all():  # type: ignore[call-overload]
        found.setdefault(int(table_id), []).append((str(what), int(first), int(second)))
    return {table_id: tuple(sorted(rows)) for table_id, rows in found.items()}


# -- a learner's tables when they sign in or go --------------------------------------------


def merge_tables(session: Session, guest_id: int, account_id: int) -> None:
    """A guest signing in keeps the tables they host and their seats, in the caller's
    transaction (coach/store/accounts.py `merge_guest`). A seat at a table where the
    account sits already goes back to a computer player: one person, one seat."""
    _name_in_results(session, guest_id, account_id)
    sits = select(TableSeat.table_id).where(col(TableSeat.learner_id) == account_id)
    for statement in (
        update(TableSeat)
        .where(col(TableSeat.learner_id) == guest_id, col(TableSeat.table_id).in_(sits))
        .values(learner_id=None, present=False),
        update(TableSeat).where(col(TableSeat.learner_id) == guest_id).values(learner_id=account_id),
        update(GameTable).where(col(GameTable.host_id) == guest_id).values(host_id=account_id),
    ):
        session.exec(statement.execution_options(synchronize_session=False))


def _name_in_results(session: Session, guest_id: int, account_id: int) -> None:
    """The finished hands of the tables the guest sits at or hosts name the account
    where they named the guest (`result["people"]`: who reads each seat's review)."""
    tables = select(TableSeat.table_id).where(col(TableSeat.learner_id) == guest_id).union(
        select(GameTable.id).where(col(GameTable.host_id) == guest_id))
    hands = session.exec(
        select(TableHand).where(col(TableHand.table_id).in_(tables), col(TableHand.finished_at).is_not(None))
    ).all()
    for hand in hands:
        result = json.loads(hand.result or "null")
        people = result.get("people") if isinstance(result, dict) else None
        if isinstance(people, dict) and guest_id in people.values():
            result["people"] = {seat: account_id if who == guest_id else who for seat, who in people.items()}
            hand.result = json.dumps(result)
            session.add(hand)
    session.flush()


def forget_learner(session: Session, learner_id: int) -> None:
    """Before a learner's rows go (coach/store/accounts.py): the tables they host go,
    hands and seats first (this does not rely on the database's cascades), and each
    seat they hold at another's table goes back to a computer player, the seat itself
    staying. The caller commits."""
    hosted = select(GameTable.id).where(col(GameTable.host_id) == learner_id)
    hands = select(TableHand.id).where(col(TableHand.table_id).in_(hosted))
    for statement in (
        delete(TableHandReview).where(col(TableHandReview.hand_id).in_(hands)),
        delete(TableHand).where(col(TableHand.table_id).in_(hosted)),
        delete(TableSeat).where(col(TableSeat.table_id).in_(hosted)),
        delete(GameTable).where(col(GameTable.host_id) == learner_id),
        update(TableSeat).where(col(TableSeat.learner_id) == learner_id).values(learner_id=None, present=False),
    ):
        session.exec(statement.execution_options(synchronize_session=False))


def export_tables(session: Session, learner_id: int) -> list[dict[str, Any]]:
    """For "Download everything": each table the learner hosts or sits at, with its
    hands. Of a hand only the learner's own moves: the others' passes and silent
    answers stay theirs, as at the table (coach/play/seen.py)."""
    hosted = select(GameTable.id).where(col(GameTable.host_id) == learner_id)
    seated = select(TableSeat.table_id).where(col(TableSeat.learner_id) == learner_id)
    rows = session.exec(
        select(GameTable).where(col(GameTable.id).in_(hosted) | col(GameTable.id).in_(seated)).order_by(col(GameTable.id))
    ).all()
    out = []
    for table in rows:
        assert table.id is not None
        mine = seat_of(session, table.id, learner_id)
        seat = mine.seat if mine is not None else None
        hands = session.exec(select(TableHand).where(TableHand.table_id == table.id).order_by(col(TableHand.number))).all()
        out.append({
            "code": table.code, "kind": table.kind, "card": table.card, "host": table.host_id == learner_id, "seat": seat,
            "rules": json.loads(table.rules), "settings": table_settings(table).to_json(),
            "created": table.created_at.isoformat(),
            "hands": [
                {
                    "number": hand.number, "seed": hand.seed, "rules": json.loads(hand.rules), "result": json.loads(hand.result),
                    "my_moves": [a for a in actions_of(hand) if a.get("seat") == seat] if seat else [],
                    "started": hand.started_at.isoformat(), "finished": hand.finished_at.isoformat() if hand.finished_at else None,
                }
                for hand in hands
            ],
        })
    return out

"""Learner accounts and their own data: guests become accounts, data goes out or away.

No web framework here (the store never imports Flask): the blueprint in
coach/web/account/sign_in.py checks forms and passwords, these functions move
the rows.

- A guest who signs up *becomes* the account: the same row, so every
  attempt and skill schedule stays where it is.
- A guest who signs in to an existing account hands over their attempts
  and skill schedules, in one transaction, then the guest row goes. A
  question counts once: where both answered it, the account's answer
  stays and the guest's is dropped. Where both have a schedule for a
  skill, the one reviewed most recently wins (the account's on a tie) and
  the review counts add up. Other rows of the guest (today's planned
  session) go with the guest.
- Export: every attempt as CSV rows, or everything as JSON (never the
  password hash). Delete: the learner and every row that names them.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func
from sqlmodel import Session, SQLModel, col, select

from coach.common import clock
from coach.store.cells import cell, row
from coach.store.hands import export_hands
from coach.store.lessons import export_lessons, merge_lessons
from coach.store.models import Attempt, Learner, LearnerDisplay, PracticeHand, ReplayPosition, SkillState
from coach.store.progress import mastery, skill_progress
from coach.store.replays import export_positions
from coach.store.table_rules import learner_rules
from coach.store.tables import export_tables, forget_learner, merge_tables
from coach.store.teaching.account_data import delete_teaching, export_teaching, merge_teaching
from coach.store.transaction import move_learner_rows

CSV_COLUMNS = (
    "when",
    "drill",
    "level",
    "seed",
    "card",
    "answer",
    "correct",
    "score",
    "time_taken_ms",
    "rules",
)


def iso_utc(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC with a Z."""
    if moment is None:
        return None
    return clock.as_utc(moment).isoformat().replace("+00:00", "Z")


def by_email(session: Session, email: str) -> Learner | None:
    return session.exec(select(Learner).where(Learner.email == email)).first()


def attempt_count(session: Session, learner_id: int) -> int:
    return session.exec(select(func.count()).select_from(Attempt).where(Attempt.learner_id == learner_id)).one()


# -- a guest's progress moves into an account -------------------------------------


def promote_guest(session: Session, guest: Learner, email: str, password_hash: str, name: str = "") -> Learner:
    """Sign-up while a guest: the guest row becomes the account (same id, all progress kept).

    The caller commits (and handles a duplicate email raised then)."""
    guest.email = email
    guest.password_hash = password_hash
    guest.name = name
    guest.guest = False
    session.add(guest)
    return guest


def merge_guest(session: Session, guest_id: int, account_id: int) -> int:
    """Sign-in while a guest: move the guest's attempts and skills into the account.

    Returns how many of the guest's answers were kept. Everything happens
    in one transaction, committed here; on any error nothing moves."""
    if guest_id == account_id:
        return 0
    guest = session.get(Learner, guest_id)
    if guest is None or not guest.guest:
        raise ValueError("only a guest's progress moves into an account")
    try:
        answered = select(Attempt.question).where(Attempt.learner_id == account_id)
        session.exec(
            delete(Attempt)
            .where(col(Attempt.learner_id) == guest_id, col(Attempt.question).in_(answered))
            .execution_options(synchronize_session=False)
        )
        moved = move_learner_rows(session, Attempt, guest_id, account_id)
        mine = {s.skill: s for s in session.exec(select(SkillState).where(SkillState.learner_id == account_id)).all()}
        for theirs in session.exec(select(SkillState).where(SkillState.learner_id == guest_id)).all():
            kept = mine.get(theirs.skill)
            if kept is None:
                theirs.learner_id = account_id
                session.add(theirs)
                continue
            if theirs.updated_at > kept.updated_at:
                kept.card, kept.due, kept.updated_at = theirs.card, theirs.due, theirs.updated_at
            kept.reviews += theirs.reviews
            session.add(kept)
            session.delete(theirs)
        merge_teaching(session, guest_id, account_id)
        merge_tables(session, guest_id, account_id)  # the tables they host and their seats
        move_learner_rows(session, PracticeHand, guest_id, account_id)  # their hands, and the positions from them
        move_learner_rows(session, ReplayPosition, guest_id, account_id)
        merge_lessons(session, guest_id, account_id)
        session.flush()  # the moved skills leave the guest before the guest row goes
        _delete_rows(session, guest_id)  # what is left of the guest (today's plan) goes with it
        session.commit()
    except Exception:
        session.rollback()
        raise
    return int(moved or 0)


# -- own data ----------------------------------------------------------------------


def attempts_of(session: Session, learner_id: int) -> list[Attempt]:
    return list(
        session.exec(
            select(Attempt).where(Attempt.learner_id == learner_id).order_by(col(Attempt.answered_at), col(Attempt.id))
        ).all()
    )


def answer_text(raw: str) -> str:
    """A stored answer (JSON) as a spreadsheet cell: "" for "show me", picks joined by spaces."""
    value = json.loads(raw)
    if value is None:
        return ""
    if isinstance(value, list):
        text = " ".join(str(v) for v in value)
    elif isinstance(value, str):
        text = value
    else:
        text = json.dumps(value)
    return cell(text)


def export_csv(session: Session, learner_id: int) -> str:
    """One row per attempt, oldest first, with a header row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for a in attempts_of(session, learner_id):
        writer.writerow(
            row(  # every text cell guarded: the card's name is a teacher's, the rest may change
                [
                    iso_utc(a.answered_at),
                    a.drill,
                    a.level,
                    a.seed,
                    a.card,
                    answer_text(a.answer),
                    "true" if a.correct else "false",
                    float(a.score),
                    "" if a.time_taken_ms is None else a.time_taken_ms,
                    " ".join(json.loads(a.rules)),
                ]
            )
        )
    return out.getvalue()


def display_of(session: Session, learner_id: int) -> dict[str, str]:
    """The learner's display settings, the defaults when they never chose."""
    chosen = display_row(session, learner_id) or LearnerDisplay(learner_id=learner_id)
    return {"theme": chosen.theme, "tile_size": chosen.tile_size}


def display_row(session: Session, learner_id: int) -> LearnerDisplay | None:
    return session.exec(select(LearnerDisplay).where(LearnerDisplay.learner_id == learner_id)).first()


def export_data(session: Session, learner: Learner, now: datetime) -> dict[str, Any]:
    """Everything the coach keeps about one learner, password hash excepted."""
    assert learner.id is not None
    attempts = attempts_of(session, learner.id)
    progress = {p.skill: p for p in skill_progress(session, learner)}
    states = session.exec(
        select(SkillState).where(SkillState.learner_id == learner.id).order_by(col(SkillState.skill))
    ).all()
    return {
        "exported_at": iso_utc(now),
        "learner": {
            "id": learner.id,
            "guest": learner.guest,
            "name": learner.name,
            "email": learner.email,
            "time_zone": learner.time_zone,
            "daily_goal": learner.daily_goal,
            "role": learner.role,
            "created_at": iso_utc(learner.created_at),
            **display_of(session, learner.id),
            "table_rules": learner_rules(session, learner.id).to_json(),
        },
        "attempts": [
            {
                "when": iso_utc(a.answered_at),
                "drill": a.drill,
                "level": a.level,
                "seed": a.seed,
                "card": a.card,
                "answer": json.loads(a.answer),
                "correct": a.correct,
                "score": a.score,
                "time_taken_ms": a.time_taken_ms,
                "rules": json.loads(a.rules),
                "explanation": json.loads(a.explanation),
                "best": json.loads(a.best),
                "items": json.loads(a.items),
            }
            for a in attempts
        ],
        "skills": [
            {
                "skill": s.skill,
                "due": iso_utc(s.due),
                "reviews": s.reviews,
                "last_reviewed": iso_utc(s.updated_at),
                "attempts": progress[s.skill].attempts if s.skill in progress else 0,
                "correct": progress[s.skill].correct if s.skill in progress else 0,
                "mastery": progress[s.skill].mastery if s.skill in progress else mastery([]),
                "schedule": json.loads(s.card),
            }
            for s in states
        ],
        "teaching": export_teaching(session, learner.id),
        "practice_hands": export_hands(session, learner.id),
        "replay_positions": export_positions(session, learner.id),
        "lessons": export_lessons(session, learner.id, iso_utc),
        "tables": export_tables(session, learner.id),
    }


def learner_tables() -> list[Any]:
    """Every table with a learner_id column: all of them hold rows a learner owns."""
    return [t for t in SQLModel.metadata.sorted_tables if "learner_id" in t.c]


def _delete_rows(session: Session, learner_id: int) -> None:
    forget_learner(session, learner_id)  # first: a class table goes before its class; a seat stays, a computer player's
    delete_teaching(session, learner_id)
    for table in reversed(learner_tables()):
        session.exec(delete(table).where(table.c.learner_id == learner_id))
    session.exec(delete(Learner).where(col(Learner.id) == learner_id))
    session.expunge_all()  # the deleted rows must not linger as objects in the session


def delete_learner(session: Session, learner_id: int) -> None:
    """The learner and every row that names them, in one transaction.

    The foreign keys cascade too; deleting child rows first does not
    depend on them (nor on SQLite's foreign-key pragma)."""
    try:
        _delete_rows(session, learner_id)
        session.commit()
    except Exception:
        session.rollback()
        raise

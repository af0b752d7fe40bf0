"""Recording graded answers, and reading a learner's progress back.

An answer is stored with its verdict and the schedules of the skills it
exercised, in one transaction: a server killed between two answers loses
neither, and never keeps one without the other. A question (drill, level,
seed, card) counts once per learner: a second answer to it is graded and
shown, but not stored again, so "show me" followed by the right answer
still counts as a miss.

Skills are a drill at a level ("name-the-tile:2") and the finer items its
questions exercise ("tile:5D", "rule:J2"). Each has an fsrs card that
schedules its next review; mastery is read from the skill's recent answers,
so it drops again after mistakes.
"""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler
from sqlalchemy import bindparam, insert
from sqlalchemy import select as select_columns
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import BindParameter
from sqlmodel import Session, col, select, update

from coach.common import clock
from coach.rules.table_rules import LEAGUE, TableRules
from coach.store.models import Attempt, Learner, SkillState
from coach.store.prepared import Prepared
from coach.store.transaction import connection_of, insert_once, write_as
from drills.kit.base import Question, Verdict

# Fuzzing only spreads reviews of many cards apart; without it a schedule is
# reproducible, which the tests and the learners' "due" both rely on.
SCHEDULER = Scheduler(enable_fuzzing=False)
MASTERY = ("new", "attempted", "familiar", "proficient", "mastered")
MASTERY_WORDS = {
    "new": "Not tried yet",
    "attempted": "Started",
    "familiar": "Getting there",
    "proficient": "Good",
    "mastered": "Mastered",
}


def question_key(question: Question) -> str:
    """What counts once: "drill|level|seed|card", and "|<rules code>" after it when the
    question was asked under table rules other than the League's (the same seed asks
    another question there); keys of League questions are as they always were."""
    key = f"{question.drill}|{question.level}|{question.seed}|{question.card}"
    return f"{key}|{question.rules.code()}" if question.rules != LEAGUE else key


def rules_of_key(key: str, card: str) -> TableRules:
    """The table rules an attempt's question key names (see `question_key`): its
    card's name is known (the attempt's `card`), so what follows it is the rules' code."""
    head = key.split("|", 3)
    rest = head[3] if len(head) == 4 else ""
    if rest == card or not rest.startswith(card + "|"):
        return LEAGUE
    return TableRules.from_code(rest[len(card) + 1 :])


def drill_skill(drill: str, level: int) -> str:
    return f"{drill}:{level}"


def skills_of(question: Question, verdict: Verdict) -> list[tuple[str, bool]]:
    """Every skill one answer exercised, with whether it was right there."""
    skills = [(drill_skill(question.drill, question.level), verdict.correct)]
    skills += [(item, bool(ok)) for item, ok in verdict.items]
    return list(dict(skills).items())


def rating(correct: bool) -> Rating:
    return Rating.Good if correct else Rating.Again


def record_answer(
    session: Session,
    learner: Learner | int,
    question: Question,
    verdict: Verdict,
    time_taken_ms: int | None = None,
    when: datetime | None = None,
) -> bool:
    """Store one graded answer in its own transaction; False when this question was already answered."""
    learner_id = learner if isinstance(learner, int) else learner.id
    assert learner_id is not None
    return write_as(
        session, learner_id, lambda: add_answer(session, learner_id, question, verdict, time_taken_ms, when)
    )


def add_answer(
    session: Session | Connection,
    learner_id: int,
    question: Question,
    verdict: Verdict,
    time_taken_ms: int | None = None,
    when: datetime | None = None,
) -> bool:
    """Add one graded answer and its skills' reviews to a transaction that
    holds the learner's lock (`lock_learner`); False when this question was
    already answered (the unique constraint says so: nothing looks first)."""
    when = clock.as_utc(when or clock.now())  # fsrs reviews in UTC only; taken under the lock, so in the order written
    counted = insert_once(
        session,
        Attempt,
        {
            "learner_id": learner_id,
            "drill": question.drill,
            "level": question.level,
            "seed": question.seed,
            "card": question.card,
            "question": question_key(question),
            "answer": json.dumps(verdict.answer),
            "correct": verdict.correct,
            "score": float(verdict.score),
            "items": json.dumps([list(i) for i in verdict.items]),
            "explanation": json.dumps(list(verdict.explanation)),
            "rules": json.dumps(list(verdict.rules)),
            "best": json.dumps(verdict.best),
            "time_taken_ms": time_taken_ms,
            "answered_at": when,
        },
        ("learner_id", "question"),
    )
    if not counted:
        return False
    skills = skills_of(question, verdict)
    connection = connection_of(session)
    names = {f"skill_{n}": skill for n, (skill, _) in enumerate(skills)}
    known = {row.skill: row for row in _skill_states(len(skills)).rows(connection, {"learner_id": learner_id, **names})}
    updates: list[dict[str, Any]] = []
    inserts: list[dict[str, Any]] = []
    for n, (skill, correct) in enumerate(skills):
        state = known.get(skill)
        card, due = _review(state.card if state is not None else None, correct, when, n)
        values = {"card": card, "due": due, "updated_at": when}
        if state is not None:
            updates.append({**values, "state_id": state.id, "reviews": state.reviews + 1})
        else:
            inserts.append({**values, "learner_id": learner_id, "skill": skill, "reviews": 1})
    if updates:
        _UPDATE_SKILL_STATE.many(connection, updates)
    if inserts:
        _INSERT_SKILL_STATE.many(connection, inserts)
    return True


# Run on every stored answer: built once, compiled once a database (see coach/store/prepared.py).
_SKILL_TABLE = SkillState.__table__  # type: ignore[attr-defined]  # SQLModel sets __table__ at class creation


@functools.lru_cache(maxsize=64)
def _skill_states(count: int) -> Prepared:
    """The schedules of `count` skills of one learner (parameters learner_id, skill_0, skill_1, ...):
    one statement for each count, so that none is rendered again for its list."""
    table = _SKILL_TABLE
    skills: list[BindParameter[str]] = [bindparam(f"skill_{n}") for n in range(count)]
    return Prepared(
        select_columns(table.c.id, table.c.skill, table.c.card, table.c.reviews).where(
            table.c.learner_id == bindparam("learner_id"), table.c.skill.in_(skills)
        )
    )


_UPDATE_SKILL_STATE = Prepared(
    update(_SKILL_TABLE)
    .where(_SKILL_TABLE.c.id == bindparam("state_id"))
    .values(card=bindparam("card"), due=bindparam("due"), reviews=bindparam("reviews"), updated_at=bindparam("updated_at"))
)
_INSERT_SKILL_STATE = Prepared(insert(_SKILL_TABLE), ("learner_id", "skill", "card", "due", "reviews", "updated_at"))
_LEARNER_TABLE = Learner.__table__  # type: ignore[attr-defined]  # SQLModel sets __table__ at class creation
_KEEP_GUEST_ZONE = Prepared(
    update(_LEARNER_TABLE)
    .where(
        _LEARNER_TABLE.c.id == bindparam("learner_id"),
        _LEARNER_TABLE.c.guest == True,  # noqa: E712 - SQL, not Python
        _LEARNER_TABLE.c.time_zone != bindparam("zone"),
    )
    .values(time_zone=bindparam("zone"))
)


def keep_guest_zone(session: Session | Connection, learner_id: int, zone: str) -> None:
    """A guest's time zone, as their browser says (an account keeps the one it chose)."""
    _KEEP_GUEST_ZONE.rowcount(connection_of(session), {"learner_id": learner_id, "zone": zone})


def _review(card_json: str | None, correct: bool, when: datetime, index: int = 0) -> tuple[str, datetime]:
    """A skill's fsrs card (as JSON, None before its first answer) after one more
    answer: the new card as JSON, and when it is due.

    A new card is given its id: fsrs names a card by the epoch milliseconds it
    was made and, left to itself, sleeps a millisecond after each so the next
    differs (issue 26: inside the write lock, so every writer waited). Here the
    id is the answer's millisecond plus the skill's place in the answer, as
    distinct as the sleep made them; nothing reads it (no review log is kept)."""
    if card_json is not None:
        card = FsrsCard.from_dict(json.loads(card_json))
    else:
        card = FsrsCard(card_id=int(when.timestamp() * 1000) + index, due=when)
    card, _ = SCHEDULER.review_card(card, rating(correct), when)
    return json.dumps(card.to_dict()), card.due


# -- reading progress back --------------------------------------------------------


def mastery(results: list[bool]) -> str:
    """attempted, familiar, proficient or mastered, from the answers in order.

    Windows of recent answers, so that mistakes pull the level down again."""
    n = len(results)
    if n == 0:
        return "new"

    def accuracy(last: int) -> float:
        window = results[-last:]
        return sum(window) / len(window)

    if n >= 10 and accuracy(10) >= 0.9 and results[-1]:
        return "mastered"
    if n >= 6 and accuracy(8) >= 0.75:
        return "proficient"
    if n >= 3 and accuracy(5) >= 0.6:
        return "familiar"
    return "attempted"


def zone(learner: Learner) -> ZoneInfo:
    try:
        return ZoneInfo(learner.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def local_day(moment: datetime, tz: ZoneInfo) -> date:
    return clock.as_utc(moment).astimezone(tz).date()


def streak(days: set[date], today: date) -> int:
    """Days in a row with practice, up to today (or yesterday, if today has none yet)."""
    day = today if today in days else today - timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= timedelta(days=1)
    return count


@dataclass(frozen=True)
class SkillProgress:
    skill: str
    attempts: int
    correct: int
    mastery: str
    due: datetime | None

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0


def skill_progress(session: Session, learner: Learner) -> list[SkillProgress]:
    """Every skill the learner has practised, with its mastery and next review."""
    results: dict[str, list[bool]] = defaultdict(list)
    attempts = session.exec(
        select(Attempt).where(Attempt.learner_id == learner.id).order_by(col(Attempt.answered_at), col(Attempt.id))
    ).all()
    for a in attempts:
        results[drill_skill(a.drill, a.level)].append(a.correct)
        for item, ok in json.loads(a.items):
            results[item].append(bool(ok))
    states = {
        s.skill: s for s in session.exec(select(SkillState).where(SkillState.learner_id == learner.id)).all()
    }
    out = []
    for skill, answers in results.items():
        state = states.get(skill)
        out.append(
            SkillProgress(skill, len(answers), sum(answers), mastery(answers), state.due if state else None)
        )
    return out


def summary(session: Session, learner: Learner, now: datetime | None = None) -> dict[str, Any]:
    """The progress API's answer for one learner."""
    now = now or clock.now()
    tz = zone(learner)
    times = session.exec(select(Attempt.answered_at, Attempt.correct).where(Attempt.learner_id == learner.id)).all()
    today = local_day(now, tz)
    days = {local_day(t, tz) for t, _ in times}
    done_today = sum(1 for t, _ in times if local_day(t, tz) == today)
    skills = []
    for s in skill_progress(session, learner):
        drill, _, level = s.skill.rpartition(":")
        skills.append(
            {
                "skill": s.skill if not level.isdigit() else drill,
                "level": int(level) if level.isdigit() else None,
                "attempts": s.attempts,
                "accuracy": round(s.accuracy, 3),
                "mastery": s.mastery,
                "due": s.due.isoformat() if s.due else None,
            }
        )
    return {
        "attempts": len(times),
        "correct": sum(1 for _, c in times if c),
        "streak": streak(days, today),
        "today": done_today,
        "daily_goal": learner.daily_goal,
        "time_zone": learner.time_zone,
        "skills": skills,
    }

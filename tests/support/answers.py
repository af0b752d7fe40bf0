"""Stored answers held to a plain reference: a set of graded answers, the rows
a straightforward ORM version of `coach.store.progress.add_answer` stores for
them, and every row of the answer tables, to compare (issue 26: the answer's
store runs prepared statements on the driver's cursor; its rows must not move)."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler
from sqlalchemy import text
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session, select

import drills
from coach.notation.card import house_card
from coach.store.models import Attempt, Learner, SkillState
from coach.store.progress import add_answer, record_answer
from coach.store.transaction import lock_learner, write
from drills.kit.base import Question, Verdict

START = datetime(2026, 3, 1, 9, 30, 0, 123456, tzinfo=UTC)
DRILLS = ("name-the-tile", "nearest-hand", "calls", "jokers", "charleston-rules", "payment")
TABLES = ("attempt", "skillstate")


Answer = tuple[Question, Verdict, int | None, datetime]  # graded, with its time taken and when it was given


def graded_answers(count: int = 60, seed: int = 26) -> list[Answer]:
    """`count` graded answers over several drills, levels and days, right and
    wrong, some to a question answered before (not counted again), each with a
    time taken (or none) and the moment it was given, in order."""
    rng = random.Random(seed)
    card = house_card()
    answers: list[Answer] = []
    when = START
    for n in range(count):
        if answers and n % 7 == 3:  # the same question again, later: not counted
            question, verdict, _, _ = answers[rng.randrange(len(answers))]
        else:
            module = drills.get(rng.choice(DRILLS))
            question = module.generate(rng.randrange(40), rng.randint(1, len(module.LEVELS)), card)
            verdict = module.grade(question, _an_answer(question, rng))
        # minutes apart within a sitting, and days apart between sittings: fsrs's
        # learning, review and relearning steps all come up
        when += timedelta(days=rng.choice((1, 3))) if n % 10 == 9 else timedelta(minutes=rng.randint(1, 40), microseconds=n)
        answers.append((question, verdict, rng.choice((None, 1500, 61_000)), when))
    return answers


def _an_answer(question: Question, rng: random.Random) -> Any:
    """A learner's answer: sometimes "show me", often a choice, sometimes the right one."""
    public = question.public()
    if rng.random() < 0.2:
        return None
    if rng.random() < 0.3 and "answer" in question.key:
        return question.key["answer"]
    if question.drill == "nearest-hand":
        return rng.choice(["2026-1", "2468-1", "LIKE-1", "RUN-2"])
    choices = public.get("choices") or [None]
    return rng.choice(choices)


def reference_answer(
    session: Session, learner_id: int, question: Question, verdict: Verdict, time_ms: int | None, when: datetime
) -> bool:
    """What `add_answer` stores, written plainly: the attempt inserted through
    Core unless its question is taken (ON CONFLICT DO NOTHING, as the store has
    always counted once: a refused insert uses up an id on both databases),
    then each skill's card read, reviewed with a scheduler of its own and
    written through the ORM. Commits; whether the answer counted."""
    key = f"{question.drill}|{question.level}|{question.seed}|{question.card}"
    table = Attempt.__table__  # type: ignore[attr-defined]
    dialect_insert = sqlite_insert if session.connection().dialect.name == "sqlite" else postgresql_insert
    added = session.connection().execute(
        dialect_insert(table).on_conflict_do_nothing(index_elements=["learner_id", "question"]).returning(table.c.id),
        dict(
            learner_id=learner_id, drill=question.drill, level=question.level, seed=question.seed, card=question.card,
            question=key, answer=json.dumps(verdict.answer), correct=verdict.correct, score=float(verdict.score),
            items=json.dumps([list(i) for i in verdict.items]), explanation=json.dumps(list(verdict.explanation)),
            rules=json.dumps(list(verdict.rules)), best=json.dumps(verdict.best), time_taken_ms=time_ms, answered_at=when,
        ),
    ).first()  # fmt: skip
    if added is None:
        session.commit()
        return False
    scheduler = Scheduler(enable_fuzzing=False)
    skills = dict([(f"{question.drill}:{question.level}", verdict.correct), *((item, bool(ok)) for item, ok in verdict.items)])
    for n, (skill, correct) in enumerate(skills.items()):
        state = session.exec(select(SkillState).where(SkillState.learner_id == learner_id, SkillState.skill == skill)).first()
        if state is None:
            card = FsrsCard(card_id=int(when.timestamp() * 1000) + n, due=when)
        else:
            card = FsrsCard.from_dict(json.loads(state.card))
        card, _ = scheduler.review_card(card, Rating.Good if correct else Rating.Again, when)
        if state is None:
            state = SkillState(learner_id=learner_id, skill=skill, card="", due=card.due, reviews=0)
        state.card, state.due, state.reviews, state.updated_at = json.dumps(card.to_dict()), card.due, state.reviews + 1, when
        session.add(state)
        session.flush()  # the next skill's query sees this one, as the next answer would
    session.commit()
    return True


def learners(engine: Engine, count: int = 2) -> list[int]:
    """`count` new guests, made alike on every database (their ids too, on a fresh one)."""
    with Session(engine) as session:
        people = [Learner(guest=True, created_at=START) for _ in range(count)]
        session.add_all(people)
        session.commit()
        return [person.id for person in people]  # type: ignore[misc]


def store_answers(engine: Engine, answers: list[Answer]) -> list[bool]:
    """The answers as the app stores them: through an ORM session (`record_answer`)
    and on a plain connection (the web's path for a signed-in learner), in turns."""
    ids = learners(engine)
    counted = []
    for n, (question, verdict, time_ms, when) in enumerate(answers):
        learner_id = ids[n % 2]
        if n % 3 == 0:
            with Session(engine) as session:
                counted.append(record_answer(session, learner_id, question, verdict, time_ms, when))
        else:
            with engine.connect() as connection:
                counted.append(
                    write(
                        connection,
                        lambda c=connection, q=question, v=verdict, t=time_ms, w=when, i=learner_id: (
                            lock_learner(c, i) and add_answer(c, i, q, v, t, w)
                        ),
                    )
                )
    return counted


def reference_answers(engine: Engine, answers: list[Answer]) -> list[bool]:
    """The answers stored by `reference_answer`, for the same two learners."""
    ids = learners(engine)
    with Session(engine) as session:
        return [reference_answer(session, ids[n % 2], *answer) for n, answer in enumerate(answers)]


def rows(connection: Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the answer tables as the database holds it (the driver's own values), by id."""
    return {table: [tuple(row) for row in connection.execute(text(f"SELECT * FROM {table} ORDER BY id"))] for table in TABLES}

"""Table rules kept (issue 27): a learner's own, and the rules a stored hand was played under.

Who sets which rules (docs/table-rules.md):
- a learner sets their own (`learner_rules` table): their practice hands and
  their own drills use them; no row, the League's rules;
- a teacher sets a class's (`classroom.rules`, coach/store/teaching/classrooms.py):
  its assignments and the class hands given from then on use them;
- a practice hand and a class hand keep the rules they were dealt under
  (their `rules` column), so a replay, a review and a comparison of the
  class's hands read exactly those. NULL there is a hand stored before the
  switches existed, read as `BEFORE_SWITCHES` (`TableRules.from_record`).

A column holds `TableRules.to_json()` as JSON text ("{}" for the League's).
"""

from __future__ import annotations

import json

from sqlalchemy import update
from sqlmodel import Session, col, select

from coach.common import clock
from coach.rules.table_rules import LEAGUE, TableRules
from coach.store.models import ClassHand, LearnerRules, PracticeHand
from coach.store.transaction import insert_once, write_as


def stored(rules: TableRules) -> str:
    """The text a column keeps of `rules`: "{}" for the League's."""
    return json.dumps(rules.to_json(), sort_keys=True, separators=(",", ":"))


def read(text: str | None) -> TableRules:
    """The rules a column holds; NULL (a row from before the switches) is `BEFORE_SWITCHES`."""
    return TableRules.from_record(None if text is None else json.loads(text))


def hand_rules(row: PracticeHand | ClassHand) -> TableRules:
    """The rules a practice hand was dealt under, or a class hand's students play under."""
    return read(row.rules)


# -- a learner's own ----------------------------------------------------------------------


def learner_rules(session: Session, learner_id: int) -> TableRules:
    """The learner's own table rules; the League's when they chose none."""
    text = session.exec(select(LearnerRules.rules).where(LearnerRules.learner_id == learner_id)).first()
    return LEAGUE if text is None else TableRules.from_json(json.loads(text))


def set_learner_rules(session: Session, learner_id: int, rules: TableRules) -> bool:
    """Keep the learner's own rules (the League's included), in one transaction
    holding the learner's lock; False when there is no such learner."""
    text = stored(rules)

    def put() -> bool:
        now = clock.now()
        if not insert_once(session, LearnerRules, {"learner_id": learner_id, "rules": text, "updated_at": now}, ("learner_id",)):
            session.exec(
                update(LearnerRules)
                .where(col(LearnerRules.learner_id) == learner_id)
                .values(rules=text, updated_at=now)
                .execution_options(synchronize_session=False)
            )
        return True

    return write_as(session, learner_id, put)

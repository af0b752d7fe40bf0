"""Practice hands' reviews kept in the store (issue 24, item 8): claimed once,
made again for a new grading or more moves, taken over when their worker died."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

from sqlmodel import Session

from coach.common import clock
from coach.store import hands, reviews
from coach.store.models import Learner, PracticeHand
from coach.store.replays import of_hand
from coach.store.transaction import write


def _hand(session: Session, finished: bool = True) -> int:
    learner = Learner()
    session.add(learner)
    session.commit()
    session.refresh(learner)
    assert learner.id is not None
    row = hands.new_hand(session, learner.id, "house", "club", seed=7)
    if finished:
        hands.save(session, row, [{"seat": "East", "kind": "discard", "tiles": ["1D"]}], {"winner": None})
    assert row.id is not None
    return row.id


def _claim(session: Session, hand_id: int, moves: int = 1, version: int = 1, now=None) -> reviews.Claim | None:
    return write(session, lambda: reviews.claim(session, hand_id, "East", moves, version, now))


REVIEW = {"seat": "East", "accuracy": 0.5, "decisions": [{"number": 0}, {"number": 4}], "costliest": [4], "winner": None, "line": None}


def test_a_review_is_claimed_once_and_a_second_asker_gets_nothing(engine):
    with Session(engine) as session:
        hand_id = _hand(session)
        first = _claim(session, hand_id)
        assert first is not None and first.attempt == 1
        assert _claim(session, hand_id) is None  # running, its worker alive
        row = reviews.review_of(session, hand_id, "East")
        assert row is not None and row.status == reviews.RUNNING and not reviews.needs_claim(row, 1, 1)
        assert write(session, lambda: reviews.progress(session, first, 1, 2))
        session.expire_all()
        row = reviews.review_of(session, hand_id, "East")
        assert row is not None and (row.done, row.total) == (1, 2)
        assert write(session, lambda: reviews.finish(session, first, REVIEW, {"accuracy": 0.5, "decisions": 2}, [4]))
        assert _claim(session, hand_id) is None  # done: nothing to do
        session.expire_all()
        row = reviews.review_of(session, hand_id, "East")
        assert row is not None and reviews.is_current(row, 1, 1) and json.loads(row.review) == REVIEW
        assert (row.done, row.total) == (2, 2) and row.finished_at is not None
        # What the hand keeps of it: its result's accuracy, and the positions to replay.
        session.expire_all()
        hand = session.get(PracticeHand, hand_id)
        assert hand is not None and json.loads(hand.result) == {"winner": None, "accuracy": 0.5, "decisions": 2}
        assert list(of_hand(session, hand.learner_id, hand_id)) == [4]


def test_two_requests_at_once_claim_the_review_once(engine):
    with Session(engine) as session:
        hand_id = _hand(session)
    won: list[reviews.Claim | None] = []
    start = threading.Barrier(4)

    def ask() -> None:
        with Session(engine) as mine:
            start.wait()
            won.append(_claim(mine, hand_id))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(1 for claim in won if claim is not None) == 1


def test_a_new_review_version_or_more_moves_makes_the_review_again(engine):
    with Session(engine) as session:
        hand_id = _hand(session)
        first = _claim(session, hand_id)
        assert first is not None
        assert write(session, lambda: reviews.finish(session, first, REVIEW))
        row = reviews.review_of(session, hand_id, "East")
        assert row is not None and not reviews.is_current(row, 1, 2) and reviews.needs_claim(row, 1, 2)
        again = _claim(session, hand_id, version=2)
        assert again is not None and again.attempt == 2 and again.version == 2
        session.expire_all()
        row = reviews.review_of(session, hand_id, "East")
        assert row is not None and row.status == reviews.RUNNING and row.review == "null" and row.version == 2
        # The older worker, still writing, is refused: its claim was taken over.
        assert not write(session, lambda: reviews.progress(session, first, 2, 2))
        assert not write(session, lambda: reviews.finish(session, first, REVIEW))
        assert write(session, lambda: reviews.finish(session, again, REVIEW))
        # A hand reviewed while it went on is reviewed again once it has more moves.
        assert _claim(session, hand_id, moves=2, version=2) is not None


def test_a_running_review_whose_worker_died_is_claimed_again(engine):
    with Session(engine) as session:
        hand_id = _hand(session)
        started = clock.now()
        dead = _claim(session, hand_id, now=started)
        assert dead is not None
        assert _claim(session, hand_id, now=started + reviews.STALE_AFTER - timedelta(seconds=1)) is None
        later = started + reviews.STALE_AFTER + timedelta(seconds=1)
        row = reviews.review_of(session, hand_id, "East")
        assert row is not None and reviews.needs_claim(row, 1, 1, later)
        again = _claim(session, hand_id, now=later)
        assert again is not None and again.attempt == dead.attempt + 1
        assert not write(session, lambda: reviews.finish(session, dead, REVIEW))  # the dead one, were it to wake


def test_a_failed_review_is_tried_again_later_not_at_once(engine):
    with Session(engine) as session:
        hand_id = _hand(session)
        started = clock.now()
        work = _claim(session, hand_id, now=started)
        assert work is not None
        assert write(session, lambda: reviews.fail(session, work, "ValueError: the card is gone", now=started))
        assert _claim(session, hand_id, now=started + timedelta(seconds=5)) is None
        assert _claim(session, hand_id, now=started + reviews.RETRY_FAILED_AFTER + timedelta(seconds=1)) is not None

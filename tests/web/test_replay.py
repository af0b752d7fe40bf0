"""Replay positions kept and asked on the web (issue 16, part 5): made once when a
hand ends, private to their learner, exported, moved on sign-in, deleted with the
account; asked in Today's practice and from the hand's review; answered by a token
that signs the position's id only, and regraded from the stored hand."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

from sqlmodel import Session, select

from coach.play.positions import coach_move, position_at, rebuild, to_replay
from coach.play.review import review
from coach.store import hands as hands_store
from coach.store import replays
from coach.store.models import Learner, PracticeHand, ReplayPosition
from coach.web.shared.practice.hands import result_json
from coach.web.shared.practice.reviews import start_review
from drills import replay_position
from tests.support.accounts import PASSWORD
from tests.support.practice import deal_one
from tests.support.replay import HAND, HOUSE, SEED
from tests.support.teaching import post, sign_up, text_of


def finish(app, client) -> int:
    """A hand of the client's learner, finished as the careless East played it: its positions are
    made when its review is (started as the move service starts it, inline under test)."""
    hand_id = deal_one(client)
    with Session(app.extensions["store"]) as session:
        row = session.get(PracticeHand, hand_id)
        row.seed = SEED
        hands_store.save(session, row, [a.to_json() for a in HAND.actions], result_json(HAND))
    with app.app_context():
        assert start_review(hand_id).ready
    return hand_id


def positions(app, **where) -> list[ReplayPosition]:
    with Session(app.extensions["store"]) as session:
        query = select(ReplayPosition)
        for name, value in where.items():
            query = query.where(getattr(ReplayPosition, name) == value)
        return list(session.exec(query.order_by(ReplayPosition.id)).all())


def first_discard(app) -> ReplayPosition:
    return next(p for p in positions(app) if HAND.actions[p.number].kind == "discard")


def token_of(page: str) -> str:
    match = re.search(r'name="token" value="([^"]+)"', page)
    assert match
    return match.group(1)


def test_a_finished_hand_makes_its_positions_once(app):
    client = app.test_client()
    hand_id = finish(app, client)
    made = positions(app, hand_id=hand_id)
    expected = to_replay(review(HOUSE, SEED, HAND.actions, "East"))
    assert [p.number for p in made] == expected and all(p.reviews == 0 for p in made)
    with Session(app.extensions["store"]) as session:  # saved again (a retry): nothing doubles
        row = session.get(PracticeHand, hand_id)
        row.finished_at = None
        hands_store.save(session, row, [a.to_json() for a in HAND.actions], result_json(HAND))
        assert replays.add_for_hand(session, row, expected) == 0
        session.commit()
    assert len(positions(app, hand_id=hand_id)) == len(expected)


def test_a_position_is_its_learners_only(app):
    ann = app.test_client()
    finish(app, ann)
    first = positions(app)[0]
    page = ann.get(f"/replay/{first.id}")
    assert page.status_code == 200 and "What would you do here?" in text_of(page)
    bob = app.test_client()
    deal_one(bob)  # a learner of their own
    assert bob.get(f"/replay/{first.id}").status_code == 404
    answer = post(bob, "/replay/answer", {"token": token_of(text_of(page)), "answer": "1D"})
    assert answer.status_code == 404
    assert app.test_client().get(f"/replay/{first.id}").status_code == 404  # a visitor


def test_a_forged_or_altered_token_is_a_400(app):
    client = app.test_client()
    finish(app, client)
    first = positions(app)[0]
    token = token_of(text_of(client.get(f"/replay/{first.id}")))
    for bad in (token[:-2] + "xx", "", "eyJwb3NpdGlvbiI6MX0.forged"):
        assert post(client, "/replay/answer", {"token": bad, "answer": "1D"}).status_code == 400
    assert positions(app)[0].reviews == 0


def test_an_answer_is_regraded_from_the_hand_and_reschedules_the_position(app):
    client = app.test_client()
    finish(app, client)
    first = first_discard(app)
    page = text_of(client.get(f"/replay/{first.id}"))
    position = position_at(SEED, list(HAND.actions), first.number, "East")
    coach = coach_move(rebuild(HOUSE, position), position)
    wrong = position.played.tiles[0]
    response = post(client, "/replay/answer", {"token": token_of(page), "answer": wrong}, headers={"HX-Request": "true"})
    body = text_of(response)
    assert response.status_code == 200 and 'data-verdict="wrong"' in body and "When you played this hand" in body
    after = positions(app, id=first.id)[0]
    assert after.reviews == 1 and after.last_correct is False and json.loads(after.last_answer) == wrong
    soon = after.due
    assert soon > datetime.now(UTC) and soon < datetime.now(UTC) + timedelta(hours=1)  # "again": soon
    right = post(client, "/replay/answer", {"token": token_of(page), "answer": coach.tiles[0]})
    assert right.status_code == 200 and 'data-verdict="right"' in text_of(right)  # the whole page without htmx
    later = positions(app, id=first.id)[0]
    assert later.reviews == 2 and later.last_correct and later.due > soon
    with Session(app.extensions["store"]) as session:
        assert first.id not in [p.id for p in replays.due(session, first.learner_id, limit=10)]
        assert first.id in [p.id for p in replays.due(session, first.learner_id, later.due + timedelta(minutes=1), limit=10)]
    bad = post(client, "/replay/answer", {"token": token_of(page), "answer": "mahjong-please"})
    assert bad.status_code == 422 and "Choose one of the moves shown" in text_of(bad)
    assert positions(app, id=first.id)[0].reviews == 2


def test_todays_practice_asks_due_positions_first_at_most_two(app):
    client = app.test_client()
    finish(app, client)
    made = positions(app)
    assert len(made) >= 1
    page = text_of(client.get("/today"))
    assert "Replay a mistake" in page and "What would you do here?" in page
    token = token_of(page)
    assert token == token_of(text_of(client.get(f"/replay/{made[0].id}")))
    with Session(app.extensions["store"]) as session:
        learner = session.get(Learner, made[0].learner_id)
        from coach.store.daily import today

        plan = today(session, learner)
    replayed = [s for s in plan.slots if s.drill == replay_position.NAME]
    assert [s.seed for s in replayed] == [p.id for p in made[:2]] and plan.slots[: len(replayed)] == tuple(replayed)
    assert len(plan.slots) == 10
    answered = post(client, "/replay/answer", {"token": token, **_coach_answer(made[0]), "session": "today", "slot": "0"},
                    headers={"HX-Request": "true"})
    assert 'data-verdict="right"' in text_of(answered) and "Next question" in text_of(answered)
    again = text_of(client.get("/today"))  # a reload shows the verdict
    assert 'data-verdict="right"' in again
    assert positions(app, id=made[0].id)[0].reviews == 1


def test_a_planned_position_gone_since_is_only_skipped(app):
    client = app.test_client()
    hand_id = finish(app, client)
    assert "What would you do here?" in text_of(client.get("/today"))  # the day is planned with it
    with Session(app.extensions["store"]) as session:
        session.delete(session.get(PracticeHand, hand_id))
        session.commit()
    assert positions(app) == []  # the hand's positions go with it
    page = client.get("/today")
    assert page.status_code == 200 and "This position cannot be replayed any more." in text_of(page)
    assert "Skip this one" not in text_of(page) and "Next question" in text_of(page)


def _coach_answer(row: ReplayPosition):
    position = position_at(SEED, list(HAND.actions), row.number, "East")
    coach = coach_move(rebuild(HOUSE, position), position)
    if coach.kind in ("pass", "courtesy"):
        return {"answer": list(coach.tiles), "answer_list": "1"}
    return {"answer": coach.tiles[0]}


def test_the_review_links_each_position_and_progress_counts_them(app):
    client = app.test_client()
    hand_id = finish(app, client)
    made = positions(app)
    review_page = text_of(client.get(f"/play/{hand_id}/review"))
    assert review_page.count("Practise this position") == len(made)
    for p in made:
        assert f"/replay/{p.id}" in review_page
    progress = text_of(client.get("/progress"))
    assert f"<strong>{len(made)}</strong> position" in progress and "Replay your mistakes" in progress
    assert client.get("/replay").headers["Location"].endswith(f"/replay/{made[0].id}")


def test_positions_are_exported_moved_to_the_account_and_deleted_with_it(app):
    sign_up(app, "pat@example.org", teacher=False)
    client = app.test_client()
    finish(app, client)  # as a guest
    made = positions(app)
    guest_id = made[0].learner_id
    response = post(client, "/signin", {"email": "pat@example.org", "password": PASSWORD})
    assert response.status_code == 303
    moved = positions(app)
    assert [p.id for p in moved] == [p.id for p in made] and all(p.learner_id != guest_id for p in moved)
    exported = client.get("/account/export.json").get_json()
    assert [p["decision"] for p in exported["replay_positions"]] == [p.number for p in made]
    assert all(p["hand"] == 0 for p in exported["replay_positions"])
    assert post(client, "/account/delete", {"confirm": "delete"}).status_code == 303
    assert positions(app) == []

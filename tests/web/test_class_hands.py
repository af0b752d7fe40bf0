"""Class hands on the web (issue 16, part 6): a teacher gives a class a
hand; students start (and resume) it from their classes page and play it on
the ordinary table; students who make the same moves get the very same
hand; the teacher's dashboard counts the class's choices decision by
decision and says who won; the hand stays private to the student and
their teacher; every class_hands.* route is tried by the wrong people.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from sqlmodel import Session, select

from coach.notation import tiles
from coach.play.bots import decide
from coach.play.hand import Action, Hand, replay
from coach.play.review import review
from coach.store.models import ClassHand, ClassHandPlay, PracticeHand
from coach.web.shared.practice.hands import SEAT
from tests.support.practice import form_of
from tests.support.teaching import (
    GOOD_CARD,
    card_id_named,
    code_of,
    guest,
    join,
    learner_id,
    make_class,
    post,
    sign_up,
    text_of,
    upload_card,
)

ROUTES = {"class_hands.play": ("/class-hands/<int:class_hand_id>/play", {"POST"})}
SEED = 4242


def db(app) -> Session:
    return Session(app.extensions["store"])


def give_hand(teacher, class_id: int, title: str = "Week 3: one deal", **form: str) -> int:
    data = {"hand_title": title, "hand_bots": "club", "hand_card": "house", "hand_seed": str(SEED), "hand_due": ""} | form
    response = post(teacher, f"/teach/classes/{class_id}/hands", data)
    assert response.status_code == 303, text_of(response)[-1500:]
    assert response.headers["Location"].endswith(f"/teach/classes/{class_id}#class-hands")
    shown = text_of(teacher.get(response.headers["Location"]))  # the flash, read once
    assert f"Gave Tuesday beginners the hand \u201c{' '.join(title.split())}\u201d" in shown
    return last_class_hand(teacher.application)


def last_class_hand(app) -> int:
    with db(app) as session:
        rows = session.exec(select(ClassHand).order_by(ClassHand.id.desc())).all()  # type: ignore[union-attr]
        return rows[0].id


def start(client, class_hand_id: int) -> int:
    response = post(client, f"/class-hands/{class_hand_id}/play")
    assert response.status_code == 303, text_of(response)[:400]
    match = re.fullmatch(r"/play/(\d+)", response.headers["Location"])
    assert match
    return int(match.group(1))


def hand_of(app, hand_id: int) -> tuple[PracticeHand, Hand]:
    with db(app) as session:
        row = session.get(PracticeHand, hand_id)
        assert row is not None
    card = app.extensions["coach"].card
    return row, replay(card, row.seed, [Action.from_json(a) for a in json.loads(row.actions)])


def play(app, client, hand_id: int, decisions: int, slip_from: int | None = None) -> None:
    """The coach's moves through the table's forms; from decision `slip_from`
    on, the first discard is the lowest tile that is not the coach's choice."""
    slipped = False
    for n in range(decisions):
        _, hand = hand_of(app, hand_id)
        if hand.phase == "over":
            return
        action = decide(hand, SEAT, "club", random.Random(f"student:{n}"))
        if slip_from is not None and n >= slip_from and action.kind == "discard" and not slipped:
            other = sorted(t for t in set(hand.racks[SEAT]) if tiles.CODES[t] != action.tiles[0] and t != tiles.JOKER)
            action, slipped = Action(SEAT, "discard", (tiles.CODES[other[0]],)), True
        response = post(client, f"/play/{hand_id}/act", form_of(action, hand))
        assert response.status_code == 303, text_of(response)[:400]


def hand_on_own_card(app, teacher, class_id: int) -> tuple[int, int]:
    """The teacher uploads a card and gives the class a hand on it: (card id, class hand id)."""
    assert upload_card(teacher, GOOD_CARD).status_code == 303
    card_id = card_id_named(app, "Spring class")
    return card_id, give_hand(teacher, class_id, hand_card=str(card_id))


@pytest.fixture
def klass(app):
    teacher = sign_up(app, "tess@example.org", name="Tess")
    class_id = make_class(teacher, "Tuesday beginners")
    students = {}
    for name in ("Ann", "Bob", "Cat"):
        students[name] = sign_up(app, f"{name.lower()}@example.org", teacher=False, name=name)
        join(app, f"{name.lower()}@example.org", class_id)
    return teacher, class_id, students


def test_the_route_table_covers_every_class_hands_route(app):
    found = {
        rule.endpoint: (rule.rule, set(rule.methods or ()) - {"HEAD", "OPTIONS"})
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith("class_hands.")
    }
    assert found == ROUTES


def test_a_class_hand_is_listed_started_once_and_resumed(app, klass):
    teacher, class_id, students = klass
    class_hand_id = give_hand(teacher, class_id)
    page = text_of(teacher.get(f"/teach/classes/{class_id}"))
    assert "Week 3: one deal" in page and f"Deal {SEED} · club players" in page and "0 of 3 finished" in page
    mine = text_of(students["Ann"].get("/classes"))
    assert "Class hands" in mine and "Week 3: one deal" in mine and "Play the class hand" in mine
    first = start(students["Ann"], class_hand_id)
    assert start(students["Ann"], class_hand_id) == first  # a second start resumes the first
    row, hand = hand_of(app, first)
    assert row.seed == SEED and row.bots == "club" and SEAT in hand.waiting()
    assert students["Ann"].get(f"/play/{first}").status_code == 200
    assert "Go on with the class hand" in text_of(students["Ann"].get("/classes"))
    with db(app) as session:
        assert len(session.exec(select(ClassHandPlay)).all()) == 1


def test_students_who_make_the_same_moves_get_identical_hands_and_the_dashboard_counts_them(app, klass):
    teacher, class_id, students = klass
    class_hand_id = give_hand(teacher, class_id)
    hands = {name: start(client, class_hand_id) for name, client in students.items()}
    assert len(set(hands.values())) == 3
    play(app, students["Ann"], hands["Ann"], 14)
    play(app, students["Bob"], hands["Bob"], 14)
    play(app, students["Cat"], hands["Cat"], 14, slip_from=6)
    ann, bob, cat = (hand_of(app, hands[n])[0] for n in ("Ann", "Bob", "Cat"))
    assert ann.actions == bob.actions and ann.actions != cat.actions  # the same moves, the same bots' moves
    ann_actions = json.loads(ann.actions)
    cat_actions = json.loads(cat.actions)
    split_at = next(i for i, (a, c) in enumerate(zip(ann_actions, cat_actions)) if a != c)
    assert ann_actions[split_at]["seat"] == SEAT and ann_actions[split_at]["kind"] == "discard"
    coach_tile, slipped = ann_actions[split_at]["tiles"][0], cat_actions[split_at]["tiles"][0]

    page = text_of(teacher.get(f"/teach/class-hands/{class_hand_id}"))
    assert "Decision by decision" in page and "Who played" in page
    assert "3 of 3 " in page  # the shared start
    assert f"2 of 3 threw the {tiles.name(coach_tile)} here" in page
    assert re.search(rf'1 of 3</span>\s*<span class="class-choice__what">Threw the {tiles.name(slipped)}</span>', page)
    assert "After this, 1 student's hand differs: " in page and ">Cat</a>" in page
    assert page.count("Playing") >= 3 and "Started</p><p class=\"stat__value\">3" in page
    # Each student's own review, read-only for the teacher.
    cat_id = learner_id(app, "cat@example.org")
    review = text_of(teacher.get(f"/teach/class-hands/{class_hand_id}/students/{cat_id}"))
    assert "Cat: " in review and "Still playing: the decisions so far." in review
    assert review.count('class="card review-step') == sum(1 for a in cat_actions if a["seat"] == SEAT)
    assert "/act" not in review and "hint" not in review  # nothing to play with


def test_a_finished_hand_shows_who_won_and_the_accuracy(app, klass):
    teacher, class_id, students = klass
    class_hand_id = give_hand(teacher, class_id, hand_bots="beginner")
    hand_id = start(students["Ann"], class_hand_id)
    play(app, students["Ann"], hand_id, 400)
    row, hand = hand_of(app, hand_id)
    assert hand.phase == "over" and row.finished_at is not None
    result = json.loads(row.result)
    page = text_of(teacher.get(f"/teach/class-hands/{class_hand_id}"))
    # The page shows the stored review's own accuracy (the result keeps it to three decimals).
    exact = review(hand.card, hand.seed, hand.actions, SEAT).accuracy
    assert abs(exact - result["accuracy"]) < 0.001
    assert "Finished" in page and f"{exact:.0%}" in page
    if result["winner"] == SEAT:
        assert f"Won {'self-picked' if result['how'] == 'self' else 'from a discard' if result['how'] == 'discard' else 'after a joker exchange'}" in page
    else:
        assert (f"{result['winner']} won" if result["winner"] else "Wall game") in page
    assert "The hand is over." in page
    assert "Review" in text_of(students["Ann"].get("/classes"))


def test_a_class_hand_on_the_teachers_card_is_dealt_and_played_on_it(app, klass):
    teacher, class_id, students = klass
    card_id, class_hand_id = hand_on_own_card(app, teacher, class_id)
    hand_id = start(students["Bob"], class_hand_id)
    with db(app) as session:
        row = session.get(PracticeHand, hand_id)
        assert row.card == f"Spring class #{card_id}"
    assert students["Bob"].get(f"/play/{hand_id}").status_code == 200
    page = text_of(teacher.get(f"/teach/class-hands/{class_hand_id}"))
    assert "Spring class" in page
    # The card cannot go while the hand uses it.
    response = post(teacher, f"/teach/cards/{card_id}/delete")
    assert "\u201cSpring class\u201d is still used by a class hand." in text_of(response)
    assert card_id_named(app, "Spring class") == card_id


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"hand_title": ""}, "hand_title", "Give the hand a title"),
        ({"hand_seed": "twelve"}, "hand_seed", "A deal number is a whole number"),
        ({"hand_seed": "99999999999"}, "hand_seed", "A deal number is a whole number"),
        ({"hand_bots": "grandmaster"}, "hand_title", "The computer players are beginner, club, shark, coach."),
        ({"hand_card": "999"}, "hand_card", "That card is not one of yours."),
        ({"hand_due": "2001-01-01"}, "hand_due", "That day has passed."),
    ],
)
def test_a_bad_class_hand_form_is_refused_with_its_message(app, klass, form, field, message):
    teacher, class_id, _ = klass
    data = {"hand_title": "Week 3", "hand_bots": "club", "hand_card": "house", "hand_seed": "", "hand_due": ""} | form
    response = post(teacher, f"/teach/classes/{class_id}/hands", data)
    body = text_of(response)
    assert response.status_code == 422 and message in body and f'id="{field}-error"' in body
    with db(app) as session:
        assert session.exec(select(ClassHand)).all() == []


def test_a_drawn_deal_when_no_number_is_given(app, klass):
    teacher, class_id, _ = klass
    class_hand_id = give_hand(teacher, class_id, hand_seed="")
    with db(app) as session:
        assert 0 <= session.get(ClassHand, class_hand_id).seed < 2**31 - 1


# -- who may see what ------------------------------------------------------------------------


def test_the_hand_is_private_to_the_student_and_their_teacher(app, klass):
    teacher, class_id, students = klass
    class_hand_id = give_hand(teacher, class_id, "Secret deal")
    ann_hand = start(students["Ann"], class_hand_id)
    bob_hand = start(students["Bob"], class_hand_id)
    assert students["Ann"].get(f"/play/{bob_hand}").status_code == 404
    assert students["Bob"].get(f"/play/{ann_hand}/review").status_code == 404
    assert teacher.get(f"/play/{ann_hand}").status_code == 404  # the teacher reads it on the teach pages only
    ann_id = learner_id(app, "ann@example.org")
    assert teacher.get(f"/teach/class-hands/{class_hand_id}/students/{ann_id}").status_code == 200
    # A student is no teacher; another teacher gets the page a missing one gets.
    assert students["Ann"].get(f"/teach/class-hands/{class_hand_id}").status_code == 403
    other = sign_up(app, "other@example.org", name="Other")
    make_class(other, "Other's class")
    for url in (f"/teach/class-hands/{class_hand_id}", f"/teach/class-hands/{class_hand_id}/students/{ann_id}"):
        response = other.get(url)
        assert response.status_code == 404 and "Secret deal" not in text_of(response) and "Ann" not in text_of(response)
    assert post(other, f"/teach/classes/{class_id}/hands", {"hand_title": "Mine now"}).status_code == 404
    # A student of the class who has not started: no review to read.
    cat_id = learner_id(app, "cat@example.org")
    assert teacher.get(f"/teach/class-hands/{class_hand_id}/students/{cat_id}").status_code == 404


def wrong_people(app, class_id: int):
    outsider = sign_up(app, "out@example.org", teacher=False, name="Outsider")
    other_teacher = sign_up(app, "other@example.org", name="Other")
    return {"visitor": app.test_client(), "guest": guest(app), "outsider": outsider, "other teacher": other_teacher}


def test_the_wrong_person_cannot_start_a_class_hand(app, klass):
    teacher, class_id, students = klass
    class_hand_id = give_hand(teacher, class_id, "Secret deal")
    people = wrong_people(app, class_id) | {"the teacher": teacher}
    for who, client in people.items():
        response = post(client, f"/class-hands/{class_hand_id}/play")
        assert response.status_code == 404, who
        assert "Secret deal" not in text_of(response) and "Tuesday beginners" not in text_of(response)
        assert "Secret deal" not in text_of(client.get("/classes"))
    assert post(students["Ann"], "/class-hands/99999/play").status_code == 404
    with db(app) as session:
        assert session.exec(select(ClassHandPlay)).all() == [] and session.exec(select(PracticeHand)).all() == []


def test_a_student_who_leaves_keeps_their_hand_but_not_the_class_hand(app, klass):
    teacher, class_id, students = klass
    class_hand_id = give_hand(teacher, class_id, "Secret deal")
    hand_id = start(students["Ann"], class_hand_id)
    assert post(students["Ann"], f"/classes/{class_id}/leave").status_code == 303
    assert students["Ann"].get(f"/play/{hand_id}").status_code == 200  # their own practice hand still
    assert post(students["Ann"], f"/class-hands/{class_hand_id}/play").status_code == 404
    page = text_of(teacher.get(f"/teach/class-hands/{class_hand_id}"))
    assert "Ann" not in page  # only students now in the class count


def test_a_guest_student_brings_their_class_hand_into_their_account(app, klass):
    teacher, class_id, _ = klass
    class_hand_id = give_hand(teacher, class_id)
    client = app.test_client()
    response = post(client, "/join", {"code": code_of(app, class_id), "name": "Gus"})
    assert response.status_code == 303
    hand_id = start(client, class_hand_id)
    response = post(client, "/signup", {"email": "gus@example.org", "password": "correct horse battery", "name": "Gus"})
    assert response.status_code == 303
    assert start(client, class_hand_id) == hand_id
    with db(app) as session:
        (link,) = session.exec(select(ClassHandPlay)).all()
        assert link.learner_id == learner_id(app, "gus@example.org") and link.hand_id == hand_id


def test_the_teacher_takes_a_class_hand_back_and_the_students_keep_their_hands(app, klass):
    teacher, class_id, students = klass
    card_id, class_hand_id = hand_on_own_card(app, teacher, class_id)
    hand_id = start(students["Ann"], class_hand_id)
    confirm = text_of(teacher.get(f"/teach/class-hands/{class_hand_id}/delete"))
    assert "1 student has" in confirm and "Each keeps their hand among their own practice hands" in confirm
    response = post(teacher, f"/teach/class-hands/{class_hand_id}/delete")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/teach/classes/{class_id}#class-hands")
    assert teacher.get(f"/teach/class-hands/{class_hand_id}").status_code == 404
    with db(app) as session:
        assert session.exec(select(ClassHand)).all() == [] and session.exec(select(ClassHandPlay)).all() == []
        assert session.get(PracticeHand, hand_id) is not None  # nothing of the student's is lost
    assert "Week 3: one deal" not in text_of(students["Ann"].get("/classes"))
    assert f'href="/play/{hand_id}"' in text_of(students["Ann"].get("/play"))
    # Now the card may go.
    assert post(teacher, f"/teach/cards/{card_id}/delete").status_code == 303

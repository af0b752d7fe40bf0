"""Table rules on the web (issue 27): who sets them (a learner on the account
page, a teacher on the class page), the questions and hands that follow them,
question tokens that carry them (old tokens still mean the League's), the
JSON API's "table_rules", and forged posts and tokens answered 400, never 500.
"""

from __future__ import annotations

import json
import re

import pytest
from itsdangerous import URLSafeSerializer
from sqlalchemy import event
from sqlmodel import select

import drills
from coach.notation.card import house_card
from coach.play.hand import deal
from coach.play.legal import legal_actions
from coach.rules.table_rules import BEFORE_SWITCHES, LEAGUE, SWITCHES, TableRules
from coach.store import table_rules as rules_store
from coach.store.models import Attempt, ClassHand, LearnerRules, PracticeHand
from coach.store.teaching import classrooms
from coach.web.shared.drilling import TOKEN_SALT
from tests.support.classes import TOKEN
from tests.support.openapi import assert_valid, validator
from tests.support.pages import csrf_of
from tests.support.practice import deal_one, hand_row
from tests.support.teaching import (
    assign,
    db,
    guest,
    join,
    last_assignment,
    learner_id,
    make_class,
    post,
    sign_up,
    text_of,
)

HTMX = {"HX-Request": "true"}
BLANKS_COLD = TableRules(blanks=4, wall_end="cold")
COURTESY_JOKER = TableRules(joker_in_courtesy=True)
DRILL = "name-the-tile"


def set_own(client, headers: dict | None = None, **form: str):
    return post(client, "/account/table-rules", form, headers=headers or {})


def token_payload(app, token: str) -> dict:
    return URLSafeSerializer(app.config["SECRET_KEY"], salt=TOKEN_SALT).loads(token)


def sign(app, payload: dict) -> str:
    return str(URLSafeSerializer(app.config["SECRET_KEY"], salt=TOKEN_SALT).dumps(payload))


def own_rules(app, email: str) -> TableRules:
    with db(app) as session:
        return rules_store.learner_rules(session, learner_id(app, email))


# -- a learner's own rules: the account page ------------------------------------------------


def test_TR1_the_account_page_shows_every_switch_with_the_league_rule_first(app):
    ann = sign_up(app, "ann@example.org", teacher=False)
    page = text_of(ann.get("/account"))
    section = re.search(r'<section class="card table-rules[^"]*" id="table-rules".*?</section>', page, re.S)
    assert section, "no table rules section"
    form = section.group(0)
    assert "In play:</strong> League rules" in form
    for switch in SWITCHES:
        select_html = re.search(rf'<select [^>]*id="rule-{switch.name}"[^>]*>(.*?)</select>', form, re.S)
        assert select_html, switch.name
        options = re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', select_html.group(1))
        assert options[0][1] == " selected" and options[0][2].startswith("League rules (")  # the default, and chosen
        assert len(options) == len(switch.choices)
        assert f'<label class="field__label" for="rule-{switch.name}"><span class="rule-chip">{switch.rule_id}</span> {switch.title}</label>' in form
        assert switch.description in form and switch.league in form
        assert f'aria-describedby="rule-{switch.name}-what rule-{switch.name}-league"' in form
    assert "Back to League rules" in form and 'name="league" value="1"' in form
    assert 'href="/rules/table"' in form


def test_TR1_a_learner_saves_their_rules_and_goes_back_to_the_league(app):
    ann = sign_up(app, "ann@example.org", teacher=False)
    response = set_own(ann, blanks="4", wall_end="cold", players="4", joker_in_courtesy="off")
    assert response.status_code == 303 and response.headers["Location"].endswith("/account#table-rules")
    assert own_rules(app, "ann@example.org") == BLANKS_COLD
    page = text_of(ann.get("/account"))
    assert "Table rules saved: TR1 Blank tiles: 4 blanks; TR2 Hot or cold wall: cold wall." in page
    assert "In play:</strong> TR1 Blank tiles: 4 blanks; TR2 Hot or cold wall: cold wall" in page
    assert re.search(r'<option value="4" selected>4 blanks</option>', page)
    response = set_own(ann, blanks="4", league="1")  # "Back to League rules" wins over the selects
    assert response.status_code == 303 and own_rules(app, "ann@example.org") == LEAGUE
    assert "Table rules saved: you play by the League rules." in text_of(ann.get("/account"))


def test_TR2_the_form_answers_htmx_with_its_own_section(app):
    ann = sign_up(app, "ann@example.org", teacher=False)
    response = set_own(ann, wall_end="hot", headers=HTMX)
    assert response.status_code == 200
    html = text_of(response)
    assert html.lstrip().startswith('<section class="card table-rules') and "<html" not in html
    assert 'role="status"' in html and "Saved." in html and "TR2 Hot or cold wall: hot wall" in html
    assert own_rules(app, "ann@example.org") == TableRules(wall_end="hot")
    refused = set_own(ann, wall_end="lukewarm", headers=HTMX)
    assert refused.status_code == 400
    assert 'role="alert"' in text_of(refused) and "Not saved: TR2 Hot or cold wall" in text_of(refused)
    assert own_rules(app, "ann@example.org") == TableRules(wall_end="hot")  # kept as it was


@pytest.mark.parametrize(
    ("form", "named"),
    [
        ({"blanks": "3"}, "TR1 Blank tiles"),
        ({"blanks": "four"}, "TR1 Blank tiles"),
        ({"wall_end": "lukewarm"}, "TR2 Hot or cold wall"),
        ({"joker_in_courtesy": "yes"}, "TR3 Jokers in the courtesy pass"),
        ({"players": "5"}, "TR4 Three players"),
        ({"air_mahjong": "1"}, "C6 All-blind pass ends the Charleston"),
    ],
)
def test_a_forged_value_is_a_400_naming_the_switch_never_a_500(app, form, named):
    ann = sign_up(app, "ann@example.org", teacher=False)
    set_own(ann, picking_ahead="on")
    response = set_own(ann, **form)
    assert response.status_code == 400
    assert named in text_of(response)
    assert own_rules(app, "ann@example.org") == TableRules(picking_ahead=True)  # nothing changed


def test_the_form_needs_its_csrf_token_and_an_account(app):
    ann = sign_up(app, "ann@example.org", teacher=False)
    refused = ann.post("/account/table-rules", data={"blanks": "4"})
    assert refused.status_code == 400 and "This page has expired" in text_of(refused)
    wrong = ann.post("/account/table-rules", data={"blanks": "4", "csrf_token": "not-the-token"})
    assert wrong.status_code == 400
    assert own_rules(app, "ann@example.org") == LEAGUE
    visitor = app.test_client()
    assert set_own(visitor, blanks="4").status_code == 403
    someone = guest(app)
    assert set_own(someone, blanks="4").status_code == 403
    with db(app) as session:
        assert session.exec(select(LearnerRules)).all() == []
    page = text_of(someone.get("/account"))
    assert 'id="table-rules"' in page and "You play by the League rules." in page and 'name="blanks"' not in page


# -- questions under a learner's own rules ----------------------------------------------------


def test_TR1_a_learners_drills_follow_their_rules_and_the_token_carries_them(app):
    ann = sign_up(app, "ann@example.org", teacher=False)
    set_own(ann, blanks="4", wall_end="cold")
    page = text_of(ann.get(f"/drills/{DRILL}?seed=5&level=1"))
    assert '<a href="/rules/table">Table rules</a>: TR1 Blank tiles: 4 blanks; TR2 Hot or cold wall: cold wall' in page
    token = TOKEN.search(page).group(1)
    assert token_payload(app, token) == {"drill": DRILL, "seed": 5, "level": 1, "card": house_card().name, "rules": "b4.cold"}
    asked = app.extensions["coach"].from_token(DRILL, token)
    assert asked.question.rules == BLANKS_COLD
    assert asked.question == drills.generate(drills.get(DRILL), 5, 1, house_card(), BLANKS_COLD)
    reply = post(ann, f"/drills/{DRILL}/answer", {"token": token, "show": "1"})
    assert reply.status_code == 200 and "TR1 Blank tiles: 4 blanks" in text_of(reply)
    with db(app) as session:
        (stored,) = session.exec(select(Attempt)).all()
    assert stored.question == f"{DRILL}|1|5|{house_card().name}|b4.cold"  # counts once under its own rules
    # Back to the League: the same seed is the League's question, its token as tokens always were.
    set_own(ann, league="1")
    page = text_of(ann.get(f"/drills/{DRILL}?seed=5&level=1"))
    assert "Table rules</a>:" not in page
    assert set(token_payload(app, TOKEN.search(page).group(1))) == {"drill", "seed", "level", "card"}


def test_a_token_from_before_table_rules_still_grades_the_league_question(app, client):
    drilling = app.extensions["coach"]
    old = sign(app, {"drill": DRILL, "seed": 11, "level": 2, "card": house_card().name})  # as every token was issued
    asked = drilling.from_token(DRILL, old)
    assert asked.question.rules == LEAGUE
    assert asked.question == drills.get(DRILL).generate(11, 2, house_card())
    assert drilling.ask(DRILL, seed=11, level=2).token == old  # a League token is unchanged, byte for byte
    body = client.post(f"/api/drills/{DRILL}/answers", json={"token": old, "answer": None}).get_json()
    assert body["best"] == asked.module.grade(asked.question, None).best
    assert "table_rules" not in body


@pytest.mark.parametrize("code", ["zz", "b3", "b4.b4", "", 4, None, ["b4"], "b4." + "x" * 80])
def test_a_token_naming_bad_table_rules_is_a_clear_400(app, client, code):
    token = sign(app, {"drill": DRILL, "seed": 11, "level": 1, "card": house_card().name, "rules": code})
    api = client.post(f"/api/drills/{DRILL}/answers", json={"token": token, "answer": None})
    assert api.status_code == 400
    assert api.get_json()["error"] in (
        "the question token names table rules this coach does not know: ask for a new question",
    )
    page = client.get("/rules")
    form = {"csrf_token": csrf_of(page.get_data(as_text=True)), "token": token, "show": "1"}
    answered = client.post(f"/drills/{DRILL}/answer", data=form)
    assert answered.status_code == 400 and "table rules this coach does not know" in text_of(answered)


def test_TR4_a_token_with_rules_regrades_exactly(app, client):
    made = client.post(f"/api/drills/{DRILL}/questions", json={"seed": 21, "level": 1, "table_rules": {"players": 3}})
    assert made.status_code == 201
    question = made.get_json()
    assert question["table_rules"] == {"players": 3}
    assert token_payload(app, question["token"])["rules"] == "3p"
    first = client.post(f"/api/drills/{DRILL}/answers", json={"token": question["token"], "answer": question["tile"]}).get_json()
    again = client.post(f"/api/drills/{DRILL}/answers", json={"token": question["token"], "answer": question["tile"]}).get_json()
    assert first["table_rules"] == {"players": 3} and first["counted"] is True and again["counted"] is False
    assert {k: v for k, v in first.items() if k != "counted"} == {k: v for k, v in again.items() if k != "counted"}


# -- the JSON API --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ({"blanks": 3}, "blanks (TR1)"),
        ({"blanks": True}, "blanks (TR1)"),
        ({"wall_end": "warm"}, "wall's end (TR2)"),
        ({"players": 2}, "players (TR4)"),
        ({"first_to_speak": "yes"}, "first_to_speak (TR6)"),
        ({"speed": 9}, 'there is no table rule "speed"'),
        ("b4", "table rules are an object of switches"),
        ([], "table rules are an object of switches"),
    ],
)
def test_the_api_refuses_table_rules_it_does_not_know_with_a_400_naming_the_switch(client, given, said):
    response = client.post(f"/api/drills/{DRILL}/questions", json={"seed": 1, "table_rules": given})
    assert response.status_code == 400
    assert said in response.get_json()["error"] and response.get_json()["error"].startswith('"table_rules": ')


def test_TR1_the_api_asks_under_the_rules_named_else_the_learners_own(app):
    ann = sign_up(app, "ann@example.org", teacher=False)
    set_own(ann, blanks="4")
    own = ann.post(f"/api/drills/{DRILL}/questions", json={"seed": 3}).get_json()
    assert own["table_rules"] == {"blanks": 4}
    league = ann.post(f"/api/drills/{DRILL}/questions", json={"seed": 3, "table_rules": {}}).get_json()
    assert "table_rules" not in league and "rules" not in token_payload(app, league["token"])
    named = ann.post(f"/api/drills/{DRILL}/questions", json={"seed": 3, "table_rules": {"blanks": 8.0, "picking_ahead": True}}).get_json()
    assert named["table_rules"] == {"blanks": 8, "picking_ahead": True}
    assert token_payload(app, named["token"])["rules"] == "b8.pa"
    visitor = app.test_client().post(f"/api/drills/{DRILL}/questions", json={"seed": 3}).get_json()
    assert "table_rules" not in visitor  # a visitor plays the League's rules


# -- a class's rules ----------------------------------------------------------------------------


SET_ROW = "sample:1"


def test_TR3_a_teacher_sets_the_class_rules_and_its_assignments_follow_them(app):
    tess = sign_up(app, "tess@example.org")
    class_id = make_class(tess)
    page = text_of(tess.get(f"/teach/classes/{class_id}"))
    assert 'id="table-rules"' in page and f'action="/teach/classes/{class_id}/rules"' in page
    response = post(tess, f"/teach/classes/{class_id}/rules", {"joker_in_courtesy": "on"})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/teach/classes/{class_id}#table-rules")
    assert "Tuesday beginners plays by these table rules now: TR3 Jokers in the courtesy pass: on." in text_of(tess.get(response.headers["Location"]))
    with db(app) as session:
        assert classrooms.class_rules(session, class_id) == COURTESY_JOKER
    # A student with rules of their own answers the class's questions under the class's.
    stu = sign_up(app, "stu@example.org", teacher=False)
    join(app, "stu@example.org", class_id)
    set_own(stu, blanks="6")
    assert assign(tess, class_id, SET_ROW).status_code == 303
    assignment_id = last_assignment(app).id
    question = text_of(stu.get(f"/assignments/{assignment_id}/q/1"))
    assert "TR3 Jokers in the courtesy pass: on" in question and "TR1 Blank tiles" not in question
    token = TOKEN.search(question).group(1)
    assert token_payload(app, token)["rules"] == "jc"
    drill = re.search(r'action="/drills/([a-z-]+)/answer"', question).group(1)
    data = {"token": token, "session": "assignment", "assignment": str(assignment_id), "slot": "0", "show": "1"}
    # The teacher's preview and worksheet ask the same questions.
    preview = text_of(tess.get(f"/teach/assignments/{assignment_id}/q/1"))
    assert "TR3 Jokers in the courtesy pass: on" in preview
    assert tess.get(f"/teach/assignments/{assignment_id}/worksheet").status_code == 200
    # A token from the student's own drills (their own rules) is not this slot's question.
    own = stu.post(f"/api/drills/{drill}/questions", json={"seed": token_payload(app, token)["seed"], "level": token_payload(app, token)["level"]}).get_json()
    assert post(stu, f"/drills/{drill}/answer", {**data, "token": own["token"]}).status_code == 400
    answered = post(stu, f"/drills/{drill}/answer", data)
    assert answered.status_code == 200 and "TR3 Jokers in the courtesy pass: on" in text_of(answered)
    # The teacher changes the rules: a question shown before is asked again, not graded under other rules.
    question_2 = text_of(stu.get(f"/assignments/{assignment_id}/q/2"))
    post(tess, f"/teach/classes/{class_id}/rules", {"league": "1"})
    stale = post(stu, f"/drills/{drill}/answer", {**data, "slot": "1", "token": TOKEN.search(question_2).group(1)})
    assert stale.status_code == 400 and "other table rules than the class's" in text_of(stale)


def test_TR2_only_the_classs_teacher_sets_its_rules_and_a_forged_value_is_a_400(app):
    tess = sign_up(app, "tess@example.org")
    class_id = make_class(tess)
    other = sign_up(app, "olga@example.org")
    assert post(other, f"/teach/classes/{class_id}/rules", {"wall_end": "cold"}).status_code == 404
    student = sign_up(app, "stu@example.org", teacher=False)
    assert post(student, f"/teach/classes/{class_id}/rules", {"wall_end": "cold"}).status_code == 403
    forged = post(tess, f"/teach/classes/{class_id}/rules", {"wall_end": "tepid"})
    assert forged.status_code == 400 and "TR2 Hot or cold wall" in text_of(forged)
    htmx = post(tess, f"/teach/classes/{class_id}/rules", {"wall_end": "tepid"}, headers=HTMX)
    assert htmx.status_code == 400 and "Not saved: TR2" in text_of(htmx)
    saved = post(tess, f"/teach/classes/{class_id}/rules", {"wall_end": "cold"}, headers=HTMX)
    assert saved.status_code == 200 and "Saved." in text_of(saved) and "the class's" in text_of(saved).lower()
    with db(app) as session:
        assert classrooms.class_rules(session, class_id) == TableRules(wall_end="cold")


def test_TR3_a_class_hand_is_dealt_under_the_class_rules_not_the_students_own(app):
    tess = sign_up(app, "tess@example.org")
    class_id = make_class(tess)
    post(tess, f"/teach/classes/{class_id}/rules", {"joker_in_courtesy": "on", "air_mahjong": "on"})
    given = post(tess, f"/teach/classes/{class_id}/hands", {"hand_title": "Week 3", "hand_bots": "club", "hand_card": "house", "hand_seed": "4242"})
    assert given.status_code == 303
    with db(app) as session:
        class_hand = session.exec(select(ClassHand)).one()
    stu = sign_up(app, "stu@example.org", teacher=False)
    join(app, "stu@example.org", class_id)
    set_own(stu, blanks="4")
    started = post(stu, f"/class-hands/{class_hand.id}/play")
    assert started.status_code == 303
    hand_id = int(started.headers["Location"].rsplit("/", 1)[1])
    row = hand_row(app, hand_id)
    expected = TableRules(joker_in_courtesy=True, air_mahjong=True)
    assert rules_store.hand_rules(row) == expected and rules_store.hand_rules(class_hand) == expected
    table = text_of(stu.get(f"/play/{hand_id}"))
    assert "TR3 Jokers in the courtesy pass: on; C6 All-blind pass ends the Charleston: on" in table
    assert "TR1" not in table
    assert stu.get(f"/api/hands/{hand_id}").get_json()["table_rules"] == {"joker_in_courtesy": True, "air_mahjong": True}
    dashboard = text_of(tess.get(f"/teach/class-hands/{class_hand.id}"))
    assert "TR3 Jokers in the courtesy pass: on" in dashboard


# -- practice hands -------------------------------------------------------------------------------


def test_TR3_a_learners_hand_is_dealt_under_their_rules_and_keeps_them(app):
    ann = sign_up(app, "ann@example.org", teacher=False)
    set_own(ann, joker_in_courtesy="on")
    home = text_of(ann.get("/play"))
    assert "Table rules:</strong> TR3 Jokers in the courtesy pass: on." in home and "Change your table rules" in home
    hand_id = deal_one(ann)
    assert json.loads(hand_row(app, hand_id).rules) == {"joker_in_courtesy": True}
    assert "Table rules</a>: TR3 Jokers in the courtesy pass: on" in text_of(ann.get(f"/play/{hand_id}"))
    api = ann.post("/api/hands", json={"seed": 9}).get_json()
    assert api["table_rules"] == {"joker_in_courtesy": True}
    # Changing one's rules later leaves the hands already dealt as they were.
    set_own(ann, league="1")
    assert rules_store.hand_rules(hand_row(app, hand_id)) == COURTESY_JOKER
    assert ann.get(f"/api/hands/{api['id']}").get_json()["table_rules"] == {"joker_in_courtesy": True}
    assert "table rules TR3" in text_of(ann.get("/play"))
    fresh = ann.post("/api/hands", json={"seed": 9}).get_json()
    assert "table_rules" not in fresh and hand_row(app, fresh["id"]).rules == "{}"


def test_a_guests_hand_is_dealt_under_the_league_rules(app, client):
    hand_id = deal_one(client)
    assert hand_row(app, hand_id).rules == "{}"
    assert "Table rules</a>:" not in text_of(client.get(f"/play/{hand_id}"))
    assert "Play by your group's own rules" in text_of(client.get("/play"))


def all_blind_record(card, seed: int) -> list[dict]:
    """A hand played with C6 on in which all four send all three on blind in the
    first Charleston's last pass (the Charleston then ends) and East discards."""
    hand = deal(card, seed, BEFORE_SWITCHES)
    while hand.step in ("first-right", "first-across"):
        for seat in list(hand.waiting()):
            hand.apply(legal_actions(hand, seat)[0])
    for seat in list(hand.waiting()):
        hand.apply(next(a for a in legal_actions(hand, seat) if a.blind == 3))
    assert hand.phase == "play"
    hand.apply(legal_actions(hand, "East")[0])
    return [a.to_json() for a in hand.actions]


def test_C6_a_hand_stored_before_the_switches_replays_with_C6_on(app, client):
    hand_id = deal_one(client)
    record = all_blind_record(house_card(), 4242)
    with db(app) as session:
        row = session.get(PracticeHand, hand_id)
        row.seed, row.actions, row.rules = 4242, json.dumps(record), None  # as a hand stored before migration 0015
        session.add(row)
        session.commit()
    page = client.get(f"/play/{hand_id}")
    assert page.status_code == 200  # by the League's rules the Charleston would go on and East's discard be refused
    assert "C6 All-blind pass ends the Charleston: on" in text_of(page)
    state = client.get(f"/api/hands/{hand_id}").get_json()
    assert state["phase"] == "play" and state["table_rules"] == {"air_mahjong": True}


def test_the_help_page_explains_every_switch(client):
    page = text_of(client.get("/rules/table"))
    for switch in SWITCHES:
        assert f'id="{switch.rule_id}"' in page and switch.title in page and switch.league in page
    assert 'href="/rules/table"' in text_of(client.get("/rules"))


def test_TR5_answers_with_table_rules_validate_against_the_openapi_description(app, client):
    assert_valid("QuestionRequest", {"seed": 1, "table_rules": {"picking_ahead": True, "wall_end": "hot"}})
    assert not validator("QuestionRequest").is_valid({"table_rules": {"blanks": 3}})
    assert not validator("QuestionRequest").is_valid({"table_rules": {"speed": 1}})
    question = client.post(f"/api/drills/{DRILL}/questions", json={"seed": 1, "table_rules": {"picking_ahead": True}}).get_json()
    assert_valid("Question", question)
    verdict = client.post(f"/api/drills/{DRILL}/answers", json={"token": question["token"], "answer": None}).get_json()
    assert verdict["table_rules"] == {"picking_ahead": True}
    assert_valid("Verdict", verdict)
    ann = sign_up(app, "ann@example.org", teacher=False)
    set_own(ann, picking_ahead="on")
    state = ann.post("/api/hands", json={"seed": 5}).get_json()
    assert state["table_rules"] == {"picking_ahead": True}
    assert_valid("HandState", state)


def test_TR1_a_question_reads_an_accounts_rules_in_one_statement_and_a_guests_in_none(app):
    """A question loads no learner (issue 13): the signed cookie says whether its
    sign-in is an account's, whose rules are then one read; a guest's none."""
    sent: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):
        sent.append(" ".join(statement.split()))

    engine = app.extensions["store"]
    someone, ann = guest(app), sign_up(app, "ann@example.org", teacher=False)
    set_own(ann, blanks="2")
    event.listen(engine, "before_cursor_execute", count)
    try:
        assert "table_rules" not in someone.post(f"/api/drills/{DRILL}/questions", json={"seed": 4}).get_json()
        assert sent == []
        assert ann.post(f"/api/drills/{DRILL}/questions", json={"seed": 4}).get_json()["table_rules"] == {"blanks": 2}
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(sent) == 1 and "FROM learner_rules" in sent[0], sent

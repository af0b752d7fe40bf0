"""The tables area (coach/web/tables, issue 28): every route, who may use it, bad input.

Like the practice and teach route tables, ROUTES is compared with the app's url_map:
a new /tables route without a row here fails. Each route is then tried by the wrong
people: a visitor not seated cannot move for a seat, only the host deals and moves
people out, only the person who sat in a seat reads its review; nothing changes.
"""

from __future__ import annotations

import json
import re

import pytest
from sqlmodel import Session, select

from coach.store import tables as store
from coach.store.models import GameTable, Learner, TableHand, TableSeat
from coach.web.shared.tables import moves
from tests.support.table_seeds import clicked
from tests.support.tables import first_choice, form_of, loaded, open_one
from tests.support.teaching import db, post, sign_up, text_of

CALL_SEED = 26  # South throws a tile East may call (tests/support/table_seeds.py)

# endpoint -> (rule, methods, who may use it)
ROUTES = {
    "tables.home": ("/tables", {"GET"}, "anyone: their own tables"),
    "tables.open_table": ("/tables", {"POST"}, "anyone (a guest is made)"),
    "tables.join": ("/tables/join", {"POST"}, "anyone with a code"),
    "tables.table_page": ("/tables/<code>", {"GET"}, "anyone with the code: the seats; the hand only to the seated"),
    "tables.take_seat": ("/tables/<code>/seats/<seat>", {"POST"}, "anyone with the code, a free seat"),
    "tables.move_out": ("/tables/<code>/seats/<seat>/out", {"POST"}, "the host only"),
    "tables.start": ("/tables/<code>/start", {"POST"}, "the host only"),
    "tables.move": ("/tables/<code>/moves", {"POST"}, "the seated person, for their own seat only"),
    "tables.view": ("/tables/<code>/view", {"GET"}, "anyone with the code: the hand only to the seated"),
    "tables.events": ("/tables/<code>/events", {"GET"}, "anyone with the code: versions only"),
    "tables.review_page": ("/tables/<code>/hands/<int:number>/review", {"GET"}, "the person who sat in the seat only"),
}


def test_the_route_table_covers_every_tables_route(app):
    found = {
        rule.endpoint: (rule.rule, set(rule.methods or ()) - {"HEAD", "OPTIONS"})
        for rule in app.url_map.iter_rules()
        if rule.endpoint.split(".")[0] == "tables"
    }
    assert found == {endpoint: (rule, methods) for endpoint, (rule, methods, _) in ROUTES.items()}
    assert all(who for _, _, who in ROUTES.values())


def snapshot(app) -> dict[str, list]:
    with db(app) as session:
        return {
            "tables": sorted((r.id, r.code, r.host_id) for r in session.exec(select(GameTable)).all()),
            "seats": sorted((r.table_id, r.seat, r.learner_id) for r in session.exec(select(TableSeat)).all()),
            "hands": sorted((r.id, r.version, r.actions, r.held) for r in session.exec(select(TableHand)).all()),
            "learners": sorted(r.id for r in session.exec(select(Learner)).all()),
        }


@pytest.fixture
def dealt(app):
    """A table hosted by Ann (East) with a guest in South, its first hand dealt."""
    ann = sign_up(app, "ann@example.org", teacher=False, name="Ann")
    code = open_one(ann)
    guest = app.test_client()
    assert post(guest, f"/tables/{code}/seats/south").status_code == 303
    assert post(ann, f"/tables/{code}/start").status_code == 303
    return ann, guest, code


def test_a_guest_opens_a_table_and_the_page_shows_its_seats(app):
    guest = app.test_client()
    code = open_one(guest)
    page = guest.get(f"/tables/{code}")
    text = text_of(page)
    assert page.status_code == 200
    assert "Computer (club)" in text and "Deal the first hand" in text and code in text
    assert 'sse-connect="/tables/' + code + '/events"' in text and "htmx-ext-sse.min.js" in text
    assert guest.get(f"/tables/{code.lower()}").status_code == 303  # a typed code finds the table's own address
    assert code in text_of(guest.get("/tables"))  # listed among their tables


def test_join_with_a_code_and_an_unknown_code(app):
    ann = sign_up(app, "ann@example.org", teacher=False)
    code = open_one(ann)
    bob = app.test_client()
    joined = post(bob, "/tables/join", {"code": code.lower()[:3] + "-" + code.lower()[3:]})
    assert joined.status_code == 303 and joined.headers["Location"] == f"/tables/{code}"
    missing = post(bob, "/tables/join", {"code": "ZZZZZZ"})
    assert missing.status_code == 404 and "no table with that code" in text_of(missing)
    assert bob.get("/tables/ZZZZZZ").status_code == 404
    assert bob.get("/tables/ZZZZZZ/view").status_code == 404
    assert bob.get("/tables/ZZZZZZ/events").status_code == 404
    assert post(bob, "/tables/ZZZZZZ/moves", {"kind": "no-call", "number": "0"}).status_code == 404


def test_bad_table_settings_are_refused_with_a_message(app):
    guest = app.test_client()
    for form, words in (({"strength": "grandmaster"}, "computer players are one of"), ({"turn_timer": "2"}, "turn timer"),
                        ({"turn_timer": "abc"}, "turn timer"), ({"kind": "class"}, "friends' table")):
        response = post(guest, "/tables", {"sit": "yes", **form})
        assert response.status_code == 422 and words in text_of(response), form
    with db(app) as session:
        assert session.exec(select(GameTable)).all() == []


def test_a_seat_is_taken_once_and_a_bad_seat_name_is_a_404(app):
    ann = sign_up(app, "ann@example.org", teacher=False)
    code = open_one(ann)
    bob, cat = app.test_client(), app.test_client()
    assert post(bob, f"/tables/{code}/seats/west").status_code == 303
    taken = post(cat, f"/tables/{code}/seats/west")
    assert taken.status_code == 409 and "already sitting in West" in text_of(taken)
    assert post(cat, f"/tables/{code}/seats/middle").status_code == 404
    assert post(cat, f"/tables/{code}/seats/{'x' * 300}").status_code == 404
    assert loaded(app, code).people == {"East", "West"}


def test_only_the_host_deals_and_moves_people_out(app):
    ann = sign_up(app, "ann@example.org", teacher=False)
    code = open_one(ann)
    bob = app.test_client()
    assert post(bob, f"/tables/{code}/seats/north").status_code == 303
    before = snapshot(app)
    assert post(bob, f"/tables/{code}/start").status_code == 403
    assert post(bob, f"/tables/{code}/seats/east/out").status_code == 403
    assert app.test_client().post(f"/tables/{code}/start").status_code in (400, 403)  # no cookie, no token
    assert snapshot(app) == before
    assert post(ann, f"/tables/{code}/seats/north/out").status_code == 303
    assert loaded(app, code).people == {"East"}
    assert post(ann, f"/tables/{code}/start").status_code == 303
    again = post(ann, f"/tables/{code}/start")
    assert again.status_code == 409 and "finish it first" in text_of(again)


def test_a_guest_plays_a_move_and_the_page_shows_the_hand(dealt, app):
    ann, guest, code = dealt
    form = first_choice(app, code, "South")
    page = text_of(guest.get(f"/tables/{code}"))
    assert "Your rack (South)" in page and 'name="number"' in page
    before = loaded(app, code).row.version
    moved = post(guest, f"/tables/{code}/moves", form)
    assert moved.status_code == 303
    assert loaded(app, code).row.version == before + 1
    partial = guest.get(f"/tables/{code}/moves", headers={"HX-Request": "true"})
    assert partial.status_code == 405


def test_someone_not_seated_cannot_move_and_nothing_changes(dealt, app):
    ann, guest, code = dealt
    form = first_choice(app, code, "East")
    stranger = sign_up(app, "sam@example.org", teacher=False)
    before = snapshot(app)
    for client in (stranger, app.test_client()):
        response = post(client, f"/tables/{code}/moves", form)
        assert response.status_code == 403, response.status_code
        assert "Your rack" not in text_of(client.get(f"/tables/{code}"))  # the seats, never a rack
    assert snapshot(app) == before


def test_a_person_moves_only_for_their_own_seat(dealt, app):
    ann, guest, code = dealt
    east = first_choice(app, code, "East")
    before = loaded(app, code)
    # The guest (South) sends East's move: it is played for South, where it is refused or stale.
    response = post(guest, f"/tables/{code}/moves", east)
    assert response.status_code in (409, 422)
    after = loaded(app, code)
    assert [a.seat for a in after.hand.actions] == [a.seat for a in before.hand.actions]


def test_a_stale_number_is_a_409_with_the_table_and_a_forged_move_a_422(dealt, app):
    ann, guest, code = dealt
    form = first_choice(app, code, "East")
    assert post(ann, f"/tables/{code}/moves", form).status_code == 303
    again = post(ann, f"/tables/{code}/moves", form, headers={"HX-Request": "true"})
    assert again.status_code == 409 and 'id="table"' in text_of(again) and "already played" in text_of(again)
    version = loaded(app, code).row.version
    number = loaded(app, code).number("South")
    forged = post(guest, f"/tables/{code}/moves", {"kind": "discard", "tile": "5D", "number": str(number)})
    assert forged.status_code == 422 and "(" in text_of(forged)
    nonsense = post(guest, f"/tables/{code}/moves", {"kind": "pass", "tiles": ["ZZ", "5D", "6D"], "number": str(number)})
    assert nonsense.status_code == 422 and "not a tile" in text_of(nonsense)
    no_number = post(guest, f"/tables/{code}/moves", {"kind": "pass", "tiles": ["5D"]})
    assert no_number.status_code == 400
    assert loaded(app, code).row.version == version


def test_the_view_answers_204_when_nothing_changed(dealt, app):
    ann, guest, code = dealt
    version = loaded(app, code).version
    unchanged = guest.get(f"/tables/{code}/view?since={version}", headers={"HX-Request": "true"})
    assert unchanged.status_code == 204
    fresh = guest.get(f"/tables/{code}/view?since=1", headers={"HX-Request": "true"})
    assert fresh.status_code == 200 and 'id="table"' in text_of(fresh) and "Your rack (South)" in text_of(fresh)
    assert guest.get(f"/tables/{code}/view?since=" + "9" * 50).status_code == 200  # nonsense: the view


def test_the_stream_sends_the_table_version(dealt, app):
    ann, guest, code = dealt
    response = guest.get(f"/tables/{code}/events")
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    body = iter(response.response)
    assert next(body).startswith(b"retry:")
    assert next(body) == f"event: moved\ndata: {loaded(app, code).version}\n\n".encode()
    response.close()


def test_the_waiting_line_names_who_is_deciding(dealt, app):
    ann, guest, code = dealt
    assert post(ann, f"/tables/{code}/moves", first_choice(app, code, "East")).status_code == 303
    page = text_of(ann.get(f"/tables/{code}"))
    assert "Waiting for South to pass" in page


def test_K1_while_a_discard_may_be_called_the_waiting_line_names_nobody(app):
    """With "pass for me when I cannot use it" on, only a person who could call is
    waited for: naming them would tell the table what their rack can use (K1)."""
    ann = sign_up(app, "ann@example.org", teacher=False, name="Ann")
    code = open_one(ann)
    ben = app.test_client()
    assert post(ben, f"/tables/{code}/seats/south").status_code == 303
    with app.app_context(), Session(app.extensions["store"]) as session:
        table = store.table_by_code(session, code)
        moves.start_hand(session, table, table.host_id, seed=CALL_SEED)
    clients = {"East": ann, "South": ben}
    for _ in range(200):
        state = loaded(app, code)
        owing = state.owing()
        calling = [s for s, kind in owing.items() if kind == "call"]
        if calling:
            other = next(s for s in clients if s not in calling)
            page = ben.get(f"/tables/{code}") if other == "South" else ann.get(f"/tables/{code}")
            line = re.search(r"data-table-wait>([^<]*)<", page.get_data(as_text=True))
            assert line is not None
            assert line.group(1).startswith("Waiting to hear whether anyone calls the discard")
            assert calling[0] not in line.group(1)
            return
        assert owing, "a person owes a move while the hand goes on"
        seat = sorted(owing)[0]
        view = state.view(seat)
        assert post(clients[seat], f"/tables/{code}/moves", form_of(clicked(view), view["move"])).status_code == 303
    raise AssertionError(f"seed {CALL_SEED} no longer gives a person a discard to call")


def test_only_the_person_who_sat_there_reads_a_review(app):
    ann = sign_up(app, "ann@example.org", teacher=False)
    code = open_one(ann)
    assert post(ann, f"/tables/{code}/start").status_code == 303
    with db(app) as session:  # Ann has gone: the coach plays her seat to the end of the hand
        seat = session.exec(select(TableSeat).where(TableSeat.seat == "East")).one()
        seat.present = False
        session.add(seat)
        session.commit()
    bob = app.test_client()
    bob.get(f"/tables/{code}")  # any look at the table plays on for the away
    state = loaded(app, code)
    assert state.hand.phase == "over" and json.loads(state.row.result)["people"] == {"East": state.table.host_id}
    page = ann.get(f"/tables/{code}")
    assert "Your review" in text_of(page)
    assert f'href="/tables/{code}/hands/1/review">hand 1</a>' in text_of(page)  # listed among this table's hands
    assert "Your reviews" not in text_of(bob.get(f"/tables/{code}"))
    review = ann.get(f"/tables/{code}/hands/1/review")
    assert review.status_code == 200 and "decisions" in text_of(review) and "your seat, East" in text_of(review)
    for client in (bob, sign_up(app, "sam@example.org", teacher=False)):
        assert client.get(f"/tables/{code}/hands/1/review").status_code == 404
    assert ann.get(f"/tables/{code}/hands/2/review").status_code == 404
    assert ann.get(f"/tables/{code}/hands/99999999999/review").status_code == 404


def test_a_table_plays_by_its_hosts_own_table_rules(app):
    from coach.rules.table_rules import TableRules
    from coach.store.table_rules import set_learner_rules

    ann = sign_up(app, "ann@example.org", teacher=False)
    with db(app) as session:
        host = session.exec(select(Learner).where(Learner.email == "ann@example.org")).one()
        assert set_learner_rules(session, host.id, TableRules(first_to_speak=True))
    code = open_one(ann)
    assert post(ann, f"/tables/{code}/start").status_code == 303
    state = loaded(app, code)
    assert state.hand.rules.first_to_speak  # TR6 at this table, as the host plays it
    assert "Table rules" in text_of(ann.get(f"/tables/{code}"))  # the note of the rules in play


def test_the_stream_answers_204_when_its_slots_are_full_and_the_page_then_polls(dealt, app):
    from coach.web.infra.push import Push

    ann, guest, code = dealt
    app.extensions["push"] = Push(slots=0)
    refused = guest.get(f"/tables/{code}/events")
    assert refused.status_code == 204
    assert "tables.js" in text_of(guest.get(f"/tables/{code}"))  # the script that polls the view instead


def test_a_person_unheard_from_goes_away_and_comes_back_when_their_page_loads(dealt, app, monkeypatch):
    from datetime import timedelta

    from coach.common import clock
    from coach.web.shared.tables.moves import GRACE

    ann, guest, code = dealt
    assert set(loaded(app, code).owing()) == {"East", "South"}
    real = clock.now
    monkeypatch.setattr(clock, "now", lambda: real() + GRACE + timedelta(seconds=2))
    page = text_of(guest.get(f"/tables/{code}/view", headers={"HX-Request": "true"}))  # South is heard from; East is not
    assert "away: the coach plays for them" in page
    state = loaded(app, code)
    assert state.away == {"East"} and "East" not in state.owing()  # the coach passed for Ann
    assert "away" not in text_of(ann.get(f"/tables/{code}")).split("At the table")[1].split("</ul>")[0]  # back
    assert loaded(app, code).away == frozenset()


def test_a_turn_timer_set_by_the_host_runs_out_on_the_next_look(app, monkeypatch):
    from datetime import timedelta

    from coach.common import clock

    ann = sign_up(app, "ann@example.org", teacher=False)
    code = open_one(ann, turn_timer="30")
    assert post(ann, f"/tables/{code}/start").status_code == 303
    page = text_of(ann.get(f"/tables/{code}"))
    assert "Your time runs out at" in page and "30 s a turn" in page
    real = clock.now
    monkeypatch.setattr(clock, "now", lambda: real() + timedelta(seconds=31))
    ann.get(f"/tables/{code}/view", headers={"HX-Request": "true"})
    state = loaded(app, code)
    assert [a.seat for a in state.hand.actions].count("East") == 1  # the coach passed for Ann, once

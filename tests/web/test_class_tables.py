"""Class tables on the web (issue 28, item 5; coach/web/teach/tables.py): the teacher
seats the class from its page, in tables of four with computer players in the gaps,
every table on one deal; starts the round once; watches a table with every rack
showing, live; and reads the tables compared seat by seat, each student's decisions
graded by the practice review. The student's classes page names their table and seat."""

from __future__ import annotations

import re
from pathlib import Path

from sqlmodel import select

from coach.play.bots import play
from coach.play.hand import Hand
from coach.play.review import review
from coach.store import tables as table_store
from coach.store.models import ClassRound, GameTable, TableHand, TableSeat
from coach.web.infra.push import push, table_topic
from coach.web.shared.tables.state import result_of
from tests.support.teaching import GOOD_CARD, card_id_named, db, join, make_class, post, sign_up, text_of, upload_card


def _class(app, students: int):
    tess = sign_up(app, "tess@example.org", name="Tess")
    class_id = make_class(tess)
    people = {}
    for n in range(students):
        email = f"s{n}@example.org"
        people[email] = (sign_up(app, email, teacher=False, name=f"Student {n}"), join(app, email, class_id))
    return tess, class_id, people


def _seat(tess, class_id: int, students: list[int], bots: str = "club", card: str = "house") -> int:
    response = post(tess, f"/teach/classes/{class_id}/tables", {"students": [str(s) for s in students], "tables_card": card, "tables_bots": bots})
    assert response.status_code == 303, text_of(response)[-800:]
    match = re.fullmatch(rf"/teach/classes/{class_id}/rounds/(\d+)", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


def _tables(app, round_id: int) -> list[GameTable]:
    with db(app) as session:
        return list(session.exec(select(GameTable).where(GameTable.round_id == round_id).order_by(GameTable.id)).all())


def test_the_class_page_offers_every_student_ticked_and_seats_five_at_two_tables(app):
    tess, class_id, people = _class(app, 5)
    page = text_of(tess.get(f"/teach/classes/{class_id}"))
    assert "Seat the class at tables" in page
    assert len(re.findall(r'name="students" value="\d+" checked', page)) == 5
    round_id = _seat(tess, class_id, [learner for _, learner in people.values()])
    shown = text_of(tess.get(f"/teach/classes/{class_id}/rounds/{round_id}"))
    tables = _tables(app, round_id)
    assert len(tables) == 2 and "Seated Tuesday beginners at 2 tables" in shown
    for table in tables:
        assert table.code in shown and f"/teach/classes/{class_id}/tables/{table.code}" in shown
    assert shown.count("Computer player") == 3  # 3 + 2 students, the other 3 seats the coach's
    for n in range(5):
        assert f"Student {n}" in shown
    assert "Start the hand" in shown
    assert "2 tables · 5 students · not started" in text_of(tess.get(f"/teach/classes/{class_id}"))


def test_a_student_reads_their_table_and_seat_on_their_classes_page(app):
    tess, class_id, people = _class(app, 2)
    round_id = _seat(tess, class_id, [learner for _, learner in people.values()])
    (table,) = _tables(app, round_id)
    first, _ = people["s0@example.org"]
    second, _ = people["s1@example.org"]
    page = text_of(first.get("/classes"))
    assert f"Your class table: <span class=\"code-chip\">{table.code}</span>, seat East" in page
    assert f'href="/tables/{table.code}"' in page and "Go to the table" in page
    assert "seat South" in text_of(second.get("/classes"))
    outsider = sign_up(app, "out@example.org", teacher=False)
    assert table.code not in text_of(outsider.get("/classes"))


def test_only_ticked_students_are_seated_and_a_forged_student_is_refused(app):
    tess, class_id, people = _class(app, 3)
    ids = [learner for _, learner in people.values()]
    round_id = _seat(tess, class_id, ids[:1])
    (table,) = _tables(app, round_id)
    with db(app) as session:
        assert [s.learner_id for s in table_store.seats_of(session, table.id)] == [ids[0], None, None, None]
    stranger = sign_up(app, "stranger@example.org", teacher=False)
    with db(app) as session:
        before = len(session.exec(select(ClassRound)).all())
    response = post(tess, f"/teach/classes/{class_id}/tables", {"students": [str(ids[1]), "999"], "tables_card": "house"})
    assert response.status_code == 303 and "Only the class's students" in text_of(tess.get(response.headers["Location"]))
    response = post(tess, f"/teach/classes/{class_id}/tables", {"tables_card": "house"})
    assert "Choose at least one student" in text_of(tess.get(response.headers["Location"]))
    assert post(tess, f"/teach/classes/{class_id}/tables", {"students": "x1"}).status_code == 400
    with db(app) as session:
        assert len(session.exec(select(ClassRound)).all()) == before
    assert stranger.get("/classes").status_code == 200


def test_seat_the_class_sent_twice_seats_it_once_and_the_second_post_gets_the_first_round(app):
    """A double click, two tabs or a retried post: one round, both posts sent to it, no error page."""
    tess, class_id, people = _class(app, 5)
    ids = [learner for _, learner in people.values()]
    page = text_of(tess.get(f"/teach/classes/{class_id}"))
    form = re.search(rf'<form[^>]*action="/teach/classes/{class_id}/tables"[^>]*>', page).group(0)
    assert 'hx-boost="true"' in form and "hx-disabled-elt=\"find button[type='submit']\"" in form  # the button is off while posting
    first = _seat(tess, class_id, ids)
    second = _seat(tess, class_id, ids[:2], bots="shark")  # another tab's choices: still the first round
    assert second == first
    shown = text_of(tess.get(f"/teach/classes/{class_id}/rounds/{first}"))
    assert "The class is seated already" in shown and "Start the hand" in shown
    with db(app) as session:
        assert len(session.exec(select(ClassRound)).all()) == 1
    assert len(_tables(app, first)) == 2
    post(tess, f"/teach/classes/{class_id}/rounds/{first}/start")
    assert _seat(tess, class_id, ids) != first  # once started, seating the class again is the next round


def test_the_boosted_seating_form_gets_whole_pages_even_when_refused(app):
    """Posted by htmx with hx-boost, the form stands for a plain post: an expired token is the
    whole error page (htmx swaps its body in), where an htmx partial request gets the partial."""
    tess, class_id, _ = _class(app, 1)
    boosted = tess.post(f"/teach/classes/{class_id}/tables", data={"tables_card": "house"}, headers={"HX-Request": "true", "HX-Boosted": "true"})
    assert boosted.status_code == 400 and "This page has expired" in text_of(boosted) and "<html" in text_of(boosted)
    partial = tess.post(f"/teach/classes/{class_id}/tables", data={"tables_card": "house"}, headers={"HX-Request": "true"})
    assert partial.status_code == 400 and "This page has expired" in text_of(partial) and "<html" not in text_of(partial)


def test_a_seating_not_started_is_taken_back_with_its_tables_and_the_class_seated_again(app):
    """The wrong students or the wrong card: before the hand is dealt the teacher takes the
    seating back, its tables and seats go, the students' pages hear of it, and the class
    can be seated afresh (a seating waiting to start would refuse a second one)."""
    tess, class_id, people = _class(app, 5)
    ids = [learner for _, learner in people.values()]
    round_id = _seat(tess, class_id, ids)
    tables = _tables(app, round_id)
    shown = text_of(tess.get(f"/teach/classes/{class_id}/rounds/{round_id}"))
    assert "Take back this seating" in shown
    student = next(iter(people.values()))[0]
    assert student.get(f"/api/tables/{tables[0].code}").status_code == 200  # the student's table, waiting
    with app.app_context():
        tickets = [push().ticket(table_topic(t.id)) for t in tables]
    response = post(tess, f"/teach/classes/{class_id}/rounds/{round_id}/cancel")
    assert response.status_code == 303 and response.headers["Location"].startswith(f"/teach/classes/{class_id}")
    assert "The seating is taken back: 2 tables closed" in text_of(tess.get(response.headers["Location"]))
    with db(app) as session:
        assert session.get(ClassRound, round_id) is None
        assert session.exec(select(GameTable)).all() == [] and session.exec(select(TableSeat)).all() == []
    with app.app_context():
        assert all(push().ticket(table_topic(t.id)) > n for t, n in zip(tables, tickets, strict=True))
    assert student.get(f"/api/tables/{tables[0].code}").status_code == 404  # the table is gone for its students too
    page = student.get(f"/tables/{tables[0].code}/view", headers={"HX-Request": "true"})  # an open page's next fetch
    assert page.status_code == 200 and "This table is closed" in text_of(page) and 'id="table"' in text_of(page)
    again = _seat(tess, class_id, ids[:4])
    assert again != round_id and len(_tables(app, again)) == 1


def test_a_started_round_cannot_be_taken_back(app):
    tess, class_id, people = _class(app, 4)
    round_id = _seat(tess, class_id, [learner for _, learner in people.values()])
    post(tess, f"/teach/classes/{class_id}/rounds/{round_id}/start")
    assert "Take back this seating" not in text_of(tess.get(f"/teach/classes/{class_id}/rounds/{round_id}"))
    response = post(tess, f"/teach/classes/{class_id}/rounds/{round_id}/cancel")
    assert response.status_code == 303
    assert "started already: its tables play on" in text_of(tess.get(response.headers["Location"]))
    with db(app) as session:
        assert session.get(ClassRound, round_id) is not None and len(session.exec(select(TableHand)).all()) == 1


def test_S4_starting_the_round_deals_every_table_the_same_seed_once_and_wakes_their_pages(app):
    tess, class_id, people = _class(app, 6)
    round_id = _seat(tess, class_id, [learner for _, learner in people.values()])
    tables = _tables(app, round_id)
    with app.app_context():
        tickets = [push().ticket(table_topic(t.id)) for t in tables]
    response = post(tess, f"/teach/classes/{class_id}/rounds/{round_id}/start")
    assert response.status_code == 303
    assert "The hand is dealt at 2 tables" in text_of(tess.get(response.headers["Location"]))
    with db(app) as session:
        hands = session.exec(select(TableHand)).all()
        seed = session.get(ClassRound, round_id).seed
    assert sorted(h.table_id for h in hands) == sorted(t.id for t in tables) and {h.seed for h in hands} == {seed}
    with app.app_context():
        assert all(push().ticket(table_topic(t.id)) > n for t, n in zip(tables, tickets, strict=True))
    again = post(tess, f"/teach/classes/{class_id}/rounds/{round_id}/start")
    assert "started already" in text_of(tess.get(again.headers["Location"]))
    with db(app) as session:
        assert len(session.exec(select(TableHand)).all()) == 2


def test_the_teachers_seating_and_start_write_in_writing_sessions_from_reads_the_database_refuses_to_write(app, monkeypatch):
    """As the tables' own pages: the teacher's pages read in strict sessions (a write
    there fails at once, never waiting in SQLite's busy handler) and the store's seating,
    start and the ticks after it write in `database.writing()` sessions of their own."""
    import contextlib
    import sys

    from coach.store import class_tables as rounds
    from coach.web.infra import database

    tess, class_id, people = _class(app, 5)
    real_writing, real_seat, real_start = database.writing, rounds.seat_class, rounds.start_round
    sessions: list[tuple[str, bool, bool]] = []  # (what, in a writing() session, the session refuses writes)

    @contextlib.contextmanager
    def writing():
        with real_writing() as session:
            session.info["writing"] = True
            yield session

    def record(what, real):
        def wrapped(session, *args, **kwargs):
            sessions.append((what, bool(session.info.get("writing")), bool(session.info.get(database.STRICT))))
            return real(session, *args, **kwargs)
        return wrapped

    monkeypatch.setattr(database, "writing", writing)
    monkeypatch.setattr(rounds, "seat_class", record("seat", real_seat))
    monkeypatch.setattr(rounds, "start_round", record("start", real_start))
    reads: list[bool] = []
    real_reading = database.reading

    @contextlib.contextmanager
    def reading(strict: bool = False):
        if sys._getframe(2).f_globals.get("__name__") == "coach.web.teach.tables":  # the teacher's pages' own
            reads.append(strict)
        with real_reading(strict) as session:
            yield session

    monkeypatch.setattr(database, "reading", reading)
    round_id = _seat(tess, class_id, [learner for _, learner in people.values()])
    assert post(tess, f"/teach/classes/{class_id}/rounds/{round_id}/start").status_code == 303
    assert sessions == [("seat", True, False), ("start", True, False)]
    assert len(reads) == 2 and all(reads)  # the seating's and the start's: both strict
    with db(app) as session:
        assert len(session.exec(select(TableHand)).all()) == 2  # dealt, and the ticks after it wrote


def test_the_watch_shows_every_rack_by_name_and_the_view_answers_204_until_the_table_moves(app):
    tess, class_id, people = _class(app, 2)
    round_id = _seat(tess, class_id, [learner for _, learner in people.values()])
    (table,) = _tables(app, round_id)
    before = text_of(tess.get(f"/teach/classes/{class_id}/tables/{table.code}"))
    assert "No hand yet" in before and "Student 0" in before and "(not at the table yet)" in before
    post(tess, f"/teach/classes/{class_id}/rounds/{round_id}/start")
    page = text_of(tess.get(f"/teach/classes/{class_id}/tables/{table.code}"))
    for seat in ("East", "South", "West", "North"):
        assert f'aria-label="{seat}\'s rack"' in page
    assert len(re.findall(r'<div class="rack rack--sm" role="group" aria-label="\w+\'s rack"', page)) == 4
    assert page.count('class="tile tile--sm"') >= 52  # 13 each at least; East 14
    assert "Waiting:</strong> choosing tiles to pass" in page
    version = re.search(r'data-version="([^"]+)"', page).group(1)
    view = f"/teach/classes/{class_id}/tables/{table.code}/view"
    assert tess.get(f"{view}?v={version}").status_code == 204
    with db(app) as session:
        row = table_store.current_hand(session, table.id)
        actions = [a.to_json() for a in play(app.extensions["coach"].card, row.seed, {s: "club" for s in ("East", "South", "West", "North")}).actions[:4]]
        table_store.save_moves(session, row, actions, [], None)
    moved = tess.get(f"{view}?v={version}")
    assert moved.status_code == 200 and "passed" in text_of(moved) and "What happened, told in full" in text_of(moved)


def _finish(app, table: GameTable, strengths: dict[str, str]) -> Hand:
    """The table's hand played to its end by computer players of these strengths, saved as a table saves it."""
    with db(app) as session:
        row = table_store.current_hand(session, table.id)
        hand = play(app.extensions["coach"].card, row.seed, strengths, rules=table_store.hand_rules(row))
        table_store.save_moves(session, row, [a.to_json() for a in hand.actions], [], result_of(hand, table_store.seats_of(session, table.id)))
        return hand


def test_the_dashboard_compares_the_tables_seat_by_seat_and_grades_each_student_by_the_review(app):
    tess, class_id, people = _class(app, 5)  # two tables: three and two students
    ids = [learner for _, learner in people.values()]
    round_id = _seat(tess, class_id, ids)
    post(tess, f"/teach/classes/{class_id}/rounds/{round_id}/start")
    first, second = _tables(app, round_id)
    one = _finish(app, first, {"East": "coach", "South": "club", "West": "club", "North": "club"})
    two = _finish(app, second, {"East": "beginner", "South": "club", "West": "club", "North": "club"})
    page = text_of(tess.get(f"/teach/classes/{class_id}/rounds/{round_id}"))
    assert "Who played" in page and page.count("Finished") >= 5
    card = app.extensions["coach"].card
    expected = review(card, one.seed, list(one.actions), "East", rules=one.rules).accuracy
    assert f"{round(100 * expected)}%" in page
    assert "Decision by decision" in page and '<h3 id="seat-East">East</h3>' in page and '<h3 id="seat-West">West</h3>' in page
    # Both Easts met the first pass with the same rack; the coach's and the beginner's choices split them there.
    assert "<strong>Decision 1</strong>" in page and page.count('<span class="class-choice__count">1 of 2</span>') >= 2
    assert "After this, 1 student's hand differs" in page and "Coach's choice" in page
    assert two.seed == one.seed


def test_a_stranger_to_the_class_is_refused_as_on_every_teach_page(app):
    """A student of the class (who does not teach) gets the teach pages' 403; another teacher the 404 a missing class gets."""
    tess, class_id, people = _class(app, 1)
    round_id = _seat(tess, class_id, [learner for _, learner in people.values()])
    (table,) = _tables(app, round_id)
    student, _ = people["s0@example.org"]
    other = sign_up(app, "other@example.org", name="Otto")
    for who, status in ((student, 403), (other, 404)):
        for url in (f"/teach/classes/{class_id}/rounds/{round_id}", f"/teach/classes/{class_id}/tables/{table.code}",
                    f"/teach/classes/{class_id}/tables/{table.code}/view", f"/teach/classes/{class_id}/tables/{table.code}/events"):
            answer = who.get(url)
            assert answer.status_code == status, url
            assert table.code not in text_of(answer) and "Student 0" not in text_of(answer)
    theirs = make_class(other, "Otto's class")
    assert other.get(f"/teach/classes/{theirs}/tables/{table.code}").status_code == 404  # not through their own class either
    assert other.get(f"/teach/classes/{theirs}/rounds/{round_id}").status_code == 404


def test_a_round_on_the_teachers_own_card_deals_and_watches_on_it_and_anothers_card_is_refused(app):
    tess, class_id, people = _class(app, 1)
    assert upload_card(tess, GOOD_CARD).status_code == 303
    card_id = card_id_named(app, "Spring class")
    other = sign_up(app, "other@example.org", name="Otto")
    assert upload_card(other, GOOD_CARD.replace("Spring class", "Otto's card")).status_code == 303
    theirs = card_id_named(app, "Otto's card")
    ids = [learner for _, learner in people.values()]
    refused = post(tess, f"/teach/classes/{class_id}/tables", {"students": [str(i) for i in ids], "tables_card": str(theirs)})
    assert "That card is not one of yours" in text_of(tess.get(refused.headers["Location"]))
    round_id = _seat(tess, class_id, ids, card=str(card_id))
    (table,) = _tables(app, round_id)
    assert table.card == f"Spring class #{card_id}"
    assert "Spring class" in text_of(tess.get(f"/teach/classes/{class_id}/rounds/{round_id}"))
    post(tess, f"/teach/classes/{class_id}/rounds/{round_id}/start")
    page = text_of(tess.get(f"/teach/classes/{class_id}/tables/{table.code}"))
    assert len(re.findall(r'role="group" aria-label="\w+\'s rack"', page)) == 4 and "no longer one of your cards" not in page


def test_the_watch_view_is_drawn_by_the_teachers_pages_alone():
    """Every rack is in it (C1-C3): no player's page, stream or API may build it."""
    root = Path(__file__).resolve().parents[2] / "coach"
    users = sorted(
        str(path.relative_to(root)) for path in root.rglob("*.py")
        if "watch_view" in path.read_text(encoding="utf-8")
    )
    assert users == ["play/seat_view.py", "web/teach/tables.py"]

"""Input bounds everywhere (issue 11, point 5), replayed as an attacker would send them.

Seeds past 2^31 (API, drill page, set builder, set file), ids past the
database's integer in every `<int:...>` route, NaN/infinite/huge time_ms,
NUL bytes and other control characters in every text field of every form,
deep JSON, spreadsheet formulas in CSV exports, guests made by visits,
`purge-guests`, private file permissions, and the same attacks on
PostgreSQL. Every refusal is a 4xx with a clear message and leaves the
database as it was; none is a 500.
"""

from __future__ import annotations

import csv
import io
import json
import re
import stat
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func
from sqlmodel import Session, SQLModel, select
from werkzeug.routing import IntegerConverter

import drills
from coach import cli
from coach.store.cells import cell, row
from coach.store.models import Attempt, Learner, Membership
from coach.web import create_app
from coach.web.infra.inputs import MAX_DB_INT, MAX_JSON_DEPTH, MULTILINE_FIELDS, DatabaseId, InputError, parse_json
from tests.support.teaching import GOOD_CARD, code_of, csrf, make_class, post, set_form, sign_up, text_of

QUESTIONS = "/api/drills/name-the-tile/questions"
ANSWERS = "/api/drills/name-the-tile/answers"
CONTROL = "contains"  # every control-character message says what the field "contains"


# -- helpers ------------------------------------------------------------------------------


def db(app: Flask) -> Session:
    return Session(app.extensions["store"])


def row_counts(app: Flask) -> dict[str, int]:
    """Rows in every table: a refused request changes none of them."""
    with db(app) as session:
        return {t.name: session.exec(select(func.count()).select_from(t)).one() for t in SQLModel.metadata.sorted_tables}


def learners(app: Flask) -> int:
    with db(app) as session:
        return session.exec(select(func.count()).select_from(Learner)).one()


def ask(client: FlaskClient, seed: int = 5) -> dict[str, Any]:
    response = client.post(QUESTIONS, json={"seed": seed})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def no_server_errors(caplog) -> None:
    """Nothing reached the app's unexpected-error handler (it logs every 500)."""
    assert [r.getMessage() for r in caplog.records if r.levelno >= 40] == []


def error_of(response) -> str:
    body = response.get_json()
    assert isinstance(body, dict) and isinstance(body.get("error"), str), response.get_data(as_text=True)[:300]
    return body["error"]


# -- seeds --------------------------------------------------------------------------------


def test_api_seeds_run_from_0_to_2_31_minus_1(client):
    assert ask(client, MAX_DB_INT)["seed"] == MAX_DB_INT
    for seed in (2**31, 2**53, 10**19, -1):
        response = client.post(QUESTIONS, json={"seed": seed})
        assert response.status_code == 400
        assert "from 0 to 2147483647" in error_of(response)


def test_a_drill_page_refuses_a_seed_past_2_31(client):
    response = client.get("/drills/name-the-tile?seed=2147483648")
    assert response.status_code == 400
    assert "from 0 to 2147483647" in text_of(response)
    assert client.get("/drills/name-the-tile?seed=2147483647").status_code == 200


def test_the_set_builder_and_a_set_file_refuse_a_seed_past_2_31(app):
    tess = sign_up(app, "tess@example.org")
    before = row_counts(app)
    built = post(tess, "/teach/sets/new", set_form("Big seed", [("name-the-tile", "1", "3")], seed="2147483648"))
    assert built.status_code == 422 and "from 0 to 2147483647" in text_of(built)
    text = "set: Big seed\nseed: 2147483648\ndrills:\n  - drill: name-the-tile\n    level: 1\n    questions: 2\n"
    imported = post(tess, "/teach/sets/import", {"set_text": text})
    assert imported.status_code == 422 and "from 0 to 2147483647" in text_of(imported)
    assert row_counts(app) == before
    ok = post(tess, "/teach/sets/new", set_form("Top seed", [("name-the-tile", "1", "3")], seed=str(MAX_DB_INT)))
    assert ok.status_code == 303


# -- ids in paths ---------------------------------------------------------------------------


def _int_rules(app: Flask):
    return [r for r in app.url_map.iter_rules() if any(isinstance(c, DatabaseId) for c in r._converters.values())]


def test_every_int_route_uses_the_bounded_converter(app):
    for rule in app.url_map.iter_rules():
        for converter in rule._converters.values():
            if isinstance(converter, IntegerConverter):
                assert isinstance(converter, DatabaseId) and converter.max == MAX_DB_INT, rule
    assert len(_int_rules(app)) >= 20


@pytest.mark.parametrize("number", [2**31, 10**30, int("9" * 400)])
def test_ids_past_the_database_range_are_a_404_on_every_route(app, number, caplog):
    tess = sign_up(app, "tess@example.org")
    token = csrf(tess)
    before = row_counts(app)
    for rule in _int_rules(app):
        url = str(rule)
        for name in rule.arguments:
            url = re.sub(rf"<(?:int:)?{name}>", str(number), url)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            response = tess.open(url, method=method, data={"csrf_token": token} if method == "POST" else None)
            assert response.status_code == 404, (method, url[:80], response.status_code)
    assert row_counts(app) == before
    no_server_errors(caplog)


def test_an_id_in_a_hidden_form_field_past_the_range_is_refused(app):
    client = app.test_client()
    q = ask(client)
    data = {"csrf_token": csrf(client), "token": q["token"], "answer": q["tile"], "session": "assignment",
            "assignment": str(2**40), "slot": "0"}
    response = client.post("/drills/name-the-tile/answer", data=data)
    assert response.status_code == 400 and "whole number from 0 to 2147483647" in text_of(response)
    data.update(assignment="1", slot="1_000_000_000_000")
    assert client.post("/drills/name-the-tile/answer", data=data).status_code == 400


# -- time_ms ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw", ['NaN', 'Infinity', '-Infinity', '1e999', '-1', '2147483648', '"soon"', 'true', '[1]']
)
def test_time_ms_must_be_finite_and_bounded(app, client, raw):
    q = ask(client)
    body = '{"token": %s, "answer": %s, "time_ms": %s}' % (json.dumps(q["token"]), json.dumps(q["tile"]), raw)
    response = client.post(ANSWERS, data=body, content_type="application/json")
    assert response.status_code == 400
    assert "time_ms" in error_of(response) or "finite" in error_of(response)
    with db(app) as session:
        assert session.exec(select(func.count()).select_from(Attempt)).one() == 0


def test_a_long_time_is_kept_as_no_time_and_a_fraction_is_whole_milliseconds(app, client):
    q = ask(client)
    assert client.post(ANSWERS, json={"token": q["token"], "answer": q["tile"], "time_ms": 1500.7}).get_json()["counted"]
    q = ask(client, 6)
    assert client.post(ANSWERS, json={"token": q["token"], "answer": q["tile"], "time_ms": 7_200_000}).get_json()["counted"]
    with db(app) as session:
        times = sorted(session.exec(select(Attempt.seed, Attempt.time_taken_ms)).all())
    assert times == [(5, 1500), (6, None)]  # over an hour: a tab left open, not time spent


# -- control characters in every form ------------------------------------------------------


def _teacher_with_class(app: Flask) -> tuple[FlaskClient, int]:
    tess = sign_up(app, "tess@example.org", name="Tess")
    return tess, make_class(tess, "Tuesday beginners")


def _forms(app: Flask) -> list[tuple[str, FlaskClient, str, dict[str, str], list[str]]]:
    """(form, client, url, good values, text fields to spoil): every form a person types into."""
    tess, class_id = _teacher_with_class(app)
    visitor = app.test_client()
    ann = sign_up(app, "ann@example.org", teacher=False, name="Ann")
    code = code_of(app, class_id)
    q = ask(visitor)
    builder = {k: v for k, v in set_form("Tiles", [("name-the-tile", "1", "3")], seed="7").items() if not isinstance(v, list)}
    builder.update(drill="name-the-tile", level="1", questions="3")
    return [
        ("sign-up", app.test_client(), "/signup",
         {"name": "Bea", "email": "bea@example.org", "password": "correct horse battery"}, ["name", "email", "password"]),
        ("sign-in", app.test_client(), "/signin",
         {"email": "ann@example.org", "password": "correct horse battery"}, ["email", "password"]),
        ("account", ann, "/account",
         {"name": "Ann", "email": "ann@example.org", "time_zone": "UTC", "daily_goal": "10", "current_password": ""},
         ["name", "email", "time_zone", "daily_goal", "current_password"]),
        ("delete", ann, "/account/delete", {"confirm": "delete"}, ["confirm"]),
        ("class name", tess, "/teach/classes", {"name": "Wednesday"}, ["name"]),
        ("class rename", tess, f"/teach/classes/{class_id}/rename", {"name": "Thursday"}, ["name"]),
        ("join name", app.test_client(), "/join", {"code": code, "name": "Cy"}, ["code", "name"]),
        ("card paste", tess, "/teach/cards", {"card_text": GOOD_CARD}, ["card_text"]),
        ("set import", tess, "/teach/sets/import",
         {"set_text": "set: Tiles\ndrills:\n  - drill: name-the-tile\n    level: 1\n    questions: 2\n"}, ["set_text"]),
        ("set builder", tess, "/teach/sets/new", builder, ["title", "description", "card", "seed", "drill", "level", "questions"]),
        ("drill answer", visitor, "/drills/name-the-tile/answer", {"token": q["token"], "answer": q["tile"]}, ["token", "answer"]),
    ]


@pytest.mark.parametrize("bad", ["\x00", "\x1b", "\x7f", "\u0085", "\x08"])
def test_control_characters_in_any_form_field_are_refused_and_nothing_is_saved(app, bad, caplog):
    for form, client, url, good, fields in _forms(app):
        for name in fields:
            before = row_counts(app)
            value = good.get(name, "") or "x"
            spoiled = {**good, name: value[:3] + bad + value[3:]}
            response = client.post(url, data={"csrf_token": csrf(client), **spoiled})
            page = text_of(response)
            assert response.status_code == 400, (form, name, response.status_code, page[:300])
            assert CONTROL in page and "not allowed" in page, (form, name)
            assert row_counts(app) == before, (form, name)
    no_server_errors(caplog)


def test_a_refused_form_is_shown_again_with_the_message(app):
    client = app.test_client()
    data = {"csrf_token": csrf(client), "name": "Bea\x00", "email": "bea@example.org", "password": "correct horse battery"}
    response = client.post("/signup", data=data)
    page = text_of(response)
    assert response.status_code == 400
    assert "\u201cName\u201d contains a control character (U+0000, NUL)" in page
    assert '<form' in page and 'name="password"' in page  # the sign-up form itself, to try again
    assert "correct horse battery" not in page  # what was sent is never echoed
    assert learners(app) == 0


def test_line_breaks_are_refused_in_one_line_fields_and_kept_in_a_pasted_card(app):
    tess, _ = _teacher_with_class(app)
    response = post(tess, "/teach/classes", {"name": "Two\nlines"})
    assert response.status_code == 400 and "a line break" in text_of(response)
    pasted = post(tess, "/teach/cards", {"card_text": GOOD_CARD.replace("\n", "\r\n")})
    assert pasted.status_code == 303
    spoiled = post(tess, "/teach/cards", {"card_text": GOOD_CARD.replace("Evens", "Ev\x00ens")})
    assert spoiled.status_code == 400 and "on line 4" in text_of(spoiled)
    assert {"card_text", "set_text", "description"} == set(MULTILINE_FIELDS)


def test_every_textarea_is_a_multiline_field():
    names = set()
    for path in Path("templates").rglob("*.html"):
        for tag in re.findall(r"<textarea[^>]*>", path.read_text(encoding="utf-8")):
            names.add(re.search(r'name="([^"]+)"', tag).group(1).replace("{{ stem }}", "{stem}"))
    expanded = {n.replace("{stem}", stem) for n in names for stem in ("card", "set")}
    assert names and {n for n in expanded if "{" not in n} <= MULTILINE_FIELDS


@pytest.mark.parametrize("field, url", [("card_file", "/teach/cards"), ("set_file", "/teach/sets/import")])
def test_an_uploaded_file_with_a_nul_byte_is_refused(app, field, url):
    tess, _ = _teacher_with_class(app)
    before = row_counts(app)
    data = {"csrf_token": csrf(tess), field: (io.BytesIO(GOOD_CARD.replace("Evens", "Ev\x00ens").encode()), "card.yaml")}
    response = tess.post(url, data=data, content_type="multipart/form-data")
    assert response.status_code == 400 and "contains a control character (U+0000, NUL) on line 4" in text_of(response)
    assert row_counts(app) == before


def test_an_htmx_answer_with_a_nul_gets_the_problem_partial(client):
    q = ask(client)
    response = client.post(
        "/drills/name-the-tile/answer",
        data={"csrf_token": csrf(client), "token": q["token"], "answer": "5\x00D"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<div class="problem"') and "not allowed" in body


def test_query_arguments_and_path_parts_with_control_characters_are_refused(client):
    assert client.get("/drills/name-the-tile?level=1%00").status_code == 400
    assert client.get("/signin?next=/account%0d%0aSet-Cookie:x").status_code == 400
    assert client.get("/drills/name%00the-tile").status_code == 404
    assert client.get("/join/AB%00CD").status_code == 404


@pytest.mark.parametrize("text", ["a\x00b", "tab\there", "\u001b[31m", "half \ud800", "line\nbreak"])
def test_control_characters_in_api_json_strings_are_a_400(app, client, text):
    q = ask(client)
    for body in ({"token": q["token"], "answer": text}, {"token": q["token"] + text, "answer": q["tile"]}):
        response = client.post(ANSWERS, json=body)
        assert response.status_code == 400 and "not allowed" in error_of(response)
    key = client.post(QUESTIONS, data=json.dumps({"le\x00vel": 1}), content_type="application/json")
    assert key.status_code == 400 and "A key contains" in error_of(key)
    assert learners(app) == 0


# -- deep and odd JSON ---------------------------------------------------------------------------


@pytest.mark.parametrize("url", [QUESTIONS, ANSWERS])
def test_deep_json_is_a_fast_400(client, url, caplog):
    for body in (b"[" * 60000, b'{"a":' * 10000 + b"1" + b"}" * 10000, b'{"answer": ' + b"[" * 40 + b"]" * 40 + b"}"):
        started = time.perf_counter()
        response = client.post(url, data=body, content_type="application/json")
        took = time.perf_counter() - started
        assert response.status_code == 400 and f"more than {MAX_JSON_DEPTH} deep" in error_of(response)
        print(f"{url} {len(body)} bytes of nesting: 400 in {took * 1000:.1f} ms")
    no_server_errors(caplog)


def test_json_at_the_depth_limit_is_parsed_and_brackets_in_strings_do_not_count():
    assert parse_json(b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH) is not None
    assert parse_json(json.dumps({"answer": "[" * 500}).encode()) == {"answer": "[" * 500}
    with pytest.raises(InputError, match="more than 20 deep"):
        parse_json(b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1))
    with pytest.raises(InputError, match="more than 20 digits"):
        parse_json(b'{"seed": ' + b"9" * 4000 + b"}")


# -- CSV exports ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "\nx", "  =1+1", "\uff1d1+1", "\uff20x"])
def test_every_formula_start_is_guarded(text):
    assert cell(text) == "'" + text
    assert row([text, 3, -2.5]) == ["'" + text, 3, -2.5]  # numbers stay numbers
    assert cell("Spring class") == "Spring class"


def test_the_card_name_in_a_learners_export_is_guarded(app, client):
    q = ask(client)
    assert client.post(ANSWERS, json={"token": q["token"], "answer": q["tile"]}).get_json()["counted"]
    with db(app) as session:
        attempt = session.exec(select(Attempt)).one()
        attempt.card = '=HYPERLINK("http://evil.example","click")'
        session.add(attempt)
        session.commit()
    rows = list(csv.reader(io.StringIO(client.get("/account/export.csv").get_data(as_text=True))))
    card = rows[0].index("card")
    assert rows[1][card] == "'" + '=HYPERLINK("http://evil.example","click")'
    for value in rows[1]:
        assert not value.lstrip(" ").startswith(("=", "+", "-", "@", "\t", "\r")), value


def test_names_in_the_class_dashboard_export_are_guarded(app):
    tess, class_id = _teacher_with_class(app)
    cy = sign_up(app, "cy@example.org", teacher=False, name="=cmd|' /C calc'!A0")
    joined = post(cy, "/join", {"code": code_of(app, class_id), "name": ""})
    assert joined.status_code == 303
    rows = list(csv.reader(io.StringIO(tess.get(f"/teach/classes/{class_id}/dashboard.csv").get_data(as_text=True))))
    assert all(not value.startswith(("=", "+", "-", "@")) for line in rows for value in line)


# -- guests come from answers, not visits --------------------------------------------------------


def _sample_url(rule) -> str:
    url = str(rule)
    samples = {"name": "name-the-tile", "code": "ABCDEF"}
    for arg in rule.arguments:
        value = samples.get(arg, "1")
        url = re.sub(rf"<(?:\w+:)?{arg}>", value, url)
    return url.replace("ABCDEF.svg", "5D.svg")


def test_a_visit_never_makes_a_guest_only_a_first_answer_does(app):
    visitor = app.test_client()
    seen = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        urls = [_sample_url(rule)]
        if "<name>" in str(rule):
            urls = [str(rule).replace("<name>", name) for name in drills.DRILLS]
        for url in urls:
            response = visitor.get(url)
            assert response.status_code < 500, url
            seen.append(url)
    assert post(visitor, "/today/next", {"after": "0"}).status_code == 200  # "skip" is not an answer either
    assert learners(app) == 0, "a visit made a learner row"
    assert len(seen) > 30
    q = ask(visitor)
    assert visitor.post(ANSWERS, json={"token": q["token"], "answer": q["tile"]}).get_json()["counted"]
    assert learners(app) == 1


# -- purge-guests -----------------------------------------------------------------------------------


def _learner(session: Session, guest: bool, created: datetime, answered: list[datetime], email: str | None = None) -> int:
    learner = Learner(guest=guest, email=email, created_at=created)
    session.add(learner)
    session.commit()
    assert learner.id is not None
    for n, when in enumerate(answered):
        session.add(Attempt(learner_id=learner.id, drill="name-the-tile", level=1, seed=n, card="House",
                            question=f"name-the-tile|1|{n}|House", answer="null", correct=False, score=0.0,
                            answered_at=when))
    session.commit()
    return learner.id


def test_purge_guests_removes_guests_with_nothing_recent_and_a_dry_run_only_counts(app, monkeypatch):
    monkeypatch.setenv("COACH_DATA_DIR", app.instance_path)
    now = datetime.now(UTC)
    old, recent = now - timedelta(days=45), now - timedelta(days=3)
    with db(app) as session:
        idle = _learner(session, True, old, [])
        lapsed = _learner(session, True, old, [old, old + timedelta(days=1)])
        back = _learner(session, True, old, [old, recent])
        new = _learner(session, True, recent, [])
        account = _learner(session, False, old, [], email="old@example.org")
        joined = _learner(session, True, old, [])
        session.add(Membership(classroom_id=_classroom(app, session), learner_id=joined, joined_at=recent))
        session.commit()
    out = io.StringIO()
    assert cli.main(["purge-guests", "--older-than", "30d", "--dry-run"], stdout=out) == 0
    assert out.getvalue().startswith("2 guests") and "dry run" in out.getvalue()
    assert learners(app) == 7  # six above and the teacher of the class
    out = io.StringIO()
    assert cli.main(["purge-guests", "--older-than", "30d"], stdout=out) == 0
    assert out.getvalue().startswith("2 guests") and "removed" in out.getvalue()
    with db(app) as session:
        left = set(session.exec(select(Learner.id)).all())
        assert {idle, lapsed} & left == set()
        assert {back, new, account, joined} <= left
        assert session.exec(select(func.count()).select_from(Attempt).where(Attempt.learner_id == lapsed)).one() == 0
    out = io.StringIO()
    assert cli.main(["purge-guests", "--older-than", "30d"], stdout=out) == 0 and out.getvalue().startswith("0 guests")


def _classroom(app: Flask, session: Session) -> int:
    from coach.store.models import Classroom

    teacher = Learner(guest=False, email="t@example.org", role="teacher")
    session.add(teacher)
    session.commit()
    room = Classroom(name="Room", teacher_id=teacher.id, join_code="QWERTY")
    session.add(room)
    session.commit()
    assert room.id is not None
    return room.id


@pytest.mark.parametrize("age", ["0d", "thirty", "-3d", "99999w", "99999999d"])
def test_purge_guests_refuses_a_bad_age(age, capsys):
    assert cli.main(["purge-guests", f"--older-than={age}"]) == 2
    assert "--older-than must be a positive age" in capsys.readouterr().err


# -- files readable by their owner only -----------------------------------------------------------------


def test_the_database_and_the_secret_key_are_private(tmp_path, monkeypatch):
    instance = tmp_path / "fresh" / "instance"
    monkeypatch.setenv("COACH_DATA_DIR", str(instance))
    monkeypatch.delenv("COACH_SECRET_KEY", raising=False)
    monkeypatch.delenv("COACH_DATABASE_URL", raising=False)
    app = create_app({"TESTING": True})
    client = app.test_client()
    q = ask(client)
    assert client.post(ANSWERS, json={"token": q["token"], "answer": q["tile"]}).get_json()["counted"]
    assert stat.S_IMODE(instance.stat().st_mode) == 0o700
    files = {path.name: stat.S_IMODE(path.stat().st_mode) for path in instance.iterdir()}
    assert {"coach.sqlite3", "secret_key"} <= set(files)
    assert all(mode == 0o600 for mode in files.values()), files  # the -wal and -shm files too
    app.extensions["store"].dispose()


# -- PostgreSQL: never a 500 -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def postgres_url():
    from tests.support.postgres import postgres_server

    with postgres_server() as url:
        yield url


@pytest.mark.server
def test_on_postgresql_big_seeds_ids_and_nul_bytes_are_refused_never_a_500(postgres_url, tmp_path, monkeypatch):
    monkeypatch.setenv("COACH_DATA_DIR", str(tmp_path / "instance"))
    monkeypatch.setenv("COACH_DATABASE_URL", postgres_url)
    app = create_app({"TESTING": True, "SECRET_KEY": "pg-inputs"})
    try:
        client = app.test_client()
        for seed in (2**31, 2**40):
            assert client.post(QUESTIONS, json={"seed": seed}).status_code == 400
            assert client.get(f"/drills/name-the-tile?seed={seed}").status_code == 400
        q = ask(client, MAX_DB_INT)
        answered = client.post(ANSWERS, json={"token": q["token"], "answer": q["tile"], "time_ms": 900})
        assert answered.status_code == 200 and answered.get_json()["counted"]
        assert client.post(ANSWERS, json={"token": q["token"], "answer": "\x00"}).status_code == 400
        assert client.get("/assignments/2147483648").status_code == 404
        answer_form = {"csrf_token": csrf(client), "token": q["token"], "answer": q["tile"], "session": "assignment",
                       "assignment": str(2**40), "slot": "0"}
        assert client.post("/drills/name-the-tile/answer", data=answer_form).status_code == 400
        visitor = app.test_client()
        data = {"csrf_token": csrf(visitor), "name": "Nul\x00", "email": "nul@example.org", "password": "correct horse battery"}
        assert visitor.post("/signup", data=data).status_code == 400
        tess = sign_up(app, "tess@example.org")
        assert post(tess, "/teach/classes", {"name": "Class\x00"}).status_code == 400
        class_id = make_class(tess)
        assert tess.get(f"/teach/classes/{2**31}").status_code == 404
        assert post(tess, "/teach/cards", {"card_text": GOOD_CARD.replace("Evens", "E\x00")}).status_code == 400
        assert post(app.test_client(), "/join", {"code": code_of(app, class_id), "name": "N\x00"}).status_code == 400
        with db(app) as session:
            assert session.exec(select(func.count()).select_from(Learner).where(Learner.email == "nul@example.org")).one() == 0
            assert session.exec(select(func.max(Attempt.seed))).one() == MAX_DB_INT
    finally:
        app.extensions["store"].dispose()

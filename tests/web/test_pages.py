"""The HTML pages, CSRF on forms and htmx, the tile images and the app factory."""

from __future__ import annotations

import os
import re
import stat
from html import unescape

import pytest

import drills
from coach.notation import tiles
from coach.notation.card import CardError
from coach.web import create_app
from coach.web.shared.drilling.views import pattern_tokens
from tests.support.cards import CARD
from tests.support.pages import TOKEN_INPUT, open_drill


def test_home_lists_every_drill_and_level(client):
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    html = unescape(response.get_data(as_text=True))
    for module in drills.DRILLS.values():
        assert module.TITLE in html
        for level in module.LEVELS:
            assert f"/drills/{module.NAME}?level={level.number}" in html
            assert level.title in html
    assert "sign-up" in html  # a beginner starts at once


def test_pages_load_htmx_and_css_from_our_own_static_files(client):
    html = client.get("/").get_data(as_text=True)
    assert re.search(r'<script src="/static/vendor/htmx\.min\.js\?v=\d+" defer>', html)
    assert re.search(r'<link rel="stylesheet" href="/static/css/app\.css\?v=\d+">', html)
    assert "https://" not in html and "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    for path in ("/static/css/app.css", "/static/js/app.js", "/static/vendor/htmx.min.js"):
        with client.get(path) as response:
            assert response.status_code == 200


def test_every_page_carries_a_csrf_token_for_forms_and_htmx(client):
    html, token, _ = open_drill(client, "/drills/name-the-tile?level=1&seed=1")
    assert f"hx-headers='{{\"X-CSRFToken\": \"{token}\"}}'" in html
    forms = html.count("<form")
    assert forms >= 2 and html.count('name="csrf_token"') == forms


def test_security_headers(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "default-src 'self'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("name", list(drills.DRILLS))
def test_each_drill_page_shows_a_question_with_show_me_and_next(client, name):
    module = drills.get(name)
    for level in module.LEVELS:
        html, _, token = open_drill(client, f"/drills/{name}?level={level.number}&seed=4")
        question = module.generate(4, level.number, CARD)
        assert question.prompt.split(":")[0].replace("'", "&#39;") in html
        assert "I don't know, show me" in html
        assert "Next question" in html
        assert f'hx-post="/drills/{name}/answer"' in html
        assert token


def test_name_the_tile_page_never_names_the_tile_in_question(client):
    for seed in range(20):
        html = client.get(f"/drills/name-the-tile?level=1&seed={seed}").get_data(as_text=True)
        assert 'alt="The tile to name"' in html


def test_nearest_hand_page_shows_rack_and_the_whole_card(client):
    html, _, _ = open_drill(client, "/drills/nearest-hand?level=3&seed=2")
    question = drills.get("nearest-hand").generate(2, 3, CARD)
    for code in question.rack:
        assert f"/tiles/{code}.svg" in html
    assert "Exposed" in html
    for line in CARD.lines:
        assert f'value="{line.id}"' in html
    assert html.count("<details") == len(CARD.sections)
    assert 'data-card-search' in html


def test_answer_with_htmx_returns_the_verdict_partial(client):
    html, csrf, token = open_drill(client, "/drills/name-the-tile?level=1&seed=3")
    question = drills.get("name-the-tile").generate(3, 1, CARD)
    response = client.post(
        "/drills/name-the-tile/answer",
        data={"token": token, "answer": question.tile},
        headers={"HX-Request": "true", "X-CSRFToken": csrf},
    )
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert "<html" not in body and 'data-verdict="right"' in body
    assert 'id="choices"' in body and 'hx-swap-oob="true"' in body  # choices marked out of band
    assert 'id="actions" hx-swap-oob="true"' in body and "show me" not in body


def test_answer_without_javascript_returns_the_whole_page(client):
    html, csrf, token = open_drill(client, "/drills/nearest-hand?level=1&seed=3")
    question = drills.get("nearest-hand").generate(3, 1, CARD)
    far = question.key.lines[-1].line.id
    response = client.post("/drills/nearest-hand/answer", data={"token": token, "answer": far, "csrf_token": csrf})
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert "<html" in body and 'data-verdict="wrong"' in body
    assert "The nearest line" in body and "joker" in body


def test_show_me_on_a_page(client):
    html, csrf, token = open_drill(client, "/drills/nearest-hand?level=2&seed=3")
    response = client.post(
        "/drills/nearest-hand/answer", data={"token": token, "show": "1"},
        headers={"HX-Request": "true", "X-CSRFToken": csrf},
    )
    assert response.status_code == 200
    assert 'data-verdict="shown"' in response.get_data(as_text=True)


def test_no_answer_yet_is_a_friendly_422(client):
    html, csrf, token = open_drill(client, "/drills/nearest-hand?level=2&seed=3")
    response = client.post(
        "/drills/nearest-hand/answer", data={"token": token},
        headers={"HX-Request": "true", "X-CSRFToken": csrf},
    )
    assert response.status_code == 422
    assert "Pick an answer first" in response.get_data(as_text=True)
    # without JavaScript: the whole page again, with the same message
    response = client.post("/drills/nearest-hand/answer", data={"token": token, "csrf_token": csrf, "answer": " "})
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "<html" in body and "Pick an answer first" in body and token in body


def test_page_posts_without_a_csrf_token_are_refused(client):
    html, csrf, token = open_drill(client, "/drills/name-the-tile?level=1&seed=3")
    response = client.post("/drills/name-the-tile/answer", data={"token": token, "answer": "5D"})
    assert response.status_code == 400
    assert "expired" in response.get_data(as_text=True)
    response = client.post(
        "/drills/name-the-tile/answer", data={"token": token, "answer": "5D"},
        headers={"HX-Request": "true", "X-CSRFToken": "forged"},
    )
    assert response.status_code == 400 and "<html" not in response.get_data(as_text=True)


def test_a_forged_token_on_a_page_is_a_clear_400(client):
    html, csrf, token = open_drill(client, "/drills/name-the-tile?level=1&seed=3")
    response = client.post(
        "/drills/name-the-tile/answer", data={"token": token + "x", "answer": "5D"},
        headers={"HX-Request": "true", "X-CSRFToken": csrf},
    )
    assert response.status_code == 400
    assert "not valid" in response.get_data(as_text=True)


def test_next_question_pushes_a_url_with_its_seed(client):
    response = client.get("/drills/name-the-tile/next?level=2", headers={"HX-Request": "true"})
    assert response.status_code == 200
    pushed = response.headers["HX-Push-Url"]
    match = re.fullmatch(r"/drills/name-the-tile\?level=2&seed=(\d+)", pushed)
    assert match
    body = response.get_data(as_text=True)
    assert "<html" not in body and 'id="prompt"' in body
    # the pushed URL shows the same question again
    again = client.get(pushed).get_data(as_text=True)
    assert TOKEN_INPUT.search(again).group(1) == TOKEN_INPUT.search(body).group(1)


@pytest.mark.parametrize("url,status", [
    ("/drills/mystery", 404), ("/drills/name-the-tile?level=9", 400), ("/drills/name-the-tile?level=x", 400),
    ("/drills/name-the-tile?seed=-4", 400), ("/nowhere", 404),
])
def test_page_errors_are_friendly(client, url, status):
    response = client.get(url)
    assert response.status_code == status and response.mimetype == "text/html"
    assert "Back to the drills" in response.get_data(as_text=True)


def test_rules_page_lists_every_rule_with_an_anchor(client):
    html = client.get("/rules").get_data(as_text=True)
    from coach.rules.catalog import RULES

    for rule_id in RULES:
        assert f'id="{rule_id}"' in html


def test_pattern_tokens_keep_suits_for_colour():
    tokens = pattern_tokens("FF 2026a 22b + 666666c")
    assert [t["text"] for t in tokens] == ["FF", "2026", "22", "+", "666666"]
    assert [t["suit"] for t in tokens] == ["", "a", "b", "", "c"]


# -- tile images ---------------------------------------------------------------------


@pytest.mark.parametrize("code", tiles.CODES)
def test_every_tile_face_is_served_with_a_long_cache(client, code):
    response = client.get(f"/tiles/{code}.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.get_data(as_text=True).lstrip().startswith("<svg")
    cache = response.headers["Cache-Control"]
    assert "max-age=31536000" in cache and "public" in cache and "immutable" in cache
    etag = response.headers["ETag"]
    assert client.get(f"/tiles/{code}.svg", headers={"If-None-Match": etag}).status_code == 304


@pytest.mark.parametrize("code", ["ZZ", "5d", "10D", "0", "joker", "WD.svg"])
def test_unknown_tile_image_is_404(client, code):
    assert client.get(f"/tiles/{code}.svg").status_code == 404


# -- the app factory ---------------------------------------------------------------------


def test_secret_key_is_made_on_first_run_and_kept_in_the_instance(tmp_path, monkeypatch):
    monkeypatch.setenv("COACH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("COACH_SECRET_KEY", raising=False)
    monkeypatch.delenv("COACH_CARD", raising=False)
    first = create_app()
    key_file = tmp_path / "data" / "secret_key"
    assert first.instance_path == str(tmp_path / "data")
    assert key_file.exists() and len(key_file.read_text().strip()) == 64
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    assert create_app().config["SECRET_KEY"] == first.config["SECRET_KEY"] == key_file.read_text().strip()
    # tokens from the first app are good on the second: a restart keeps questions valid
    token = first.test_client().post("/api/drills/name-the-tile/questions", json={"seed": 1}).get_json()["token"]
    response = create_app().test_client().post(
        "/api/drills/name-the-tile/answers", json={"token": token, "answer": None}
    )
    assert response.status_code == 200



def test_two_servers_starting_together_keep_one_secret_key(tmp_path, monkeypatch):
    # Issue 26, point 5: two servers started together on a fresh folder. Both found no
    # key; each made its own and wrote it, the last one's kept on disk, the first one
    # signing with a key no other server (nor itself after a restart) accepts.
    # Here the other server writes its key between this one's look and its write.
    import coach.web

    monkeypatch.setenv("COACH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("COACH_SECRET_KEY", raising=False)
    monkeypatch.delenv("COACH_CARD", raising=False)
    key_file = tmp_path / "data" / "secret_key"
    made = coach.web.secrets.token_hex

    def the_other_server_first(size: int) -> str:
        if not key_file.exists():
            key_file.write_text("b" * 64 + "\n")
        return made(size)

    monkeypatch.setattr(coach.web.secrets, "token_hex", the_other_server_first)
    app = create_app()
    assert app.config["SECRET_KEY"] == key_file.read_text().strip() == "b" * 64
    assert sorted(p.name for p in key_file.parent.iterdir() if "secret" in p.name) == ["secret_key"]

def test_secret_key_from_the_environment_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("COACH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COACH_SECRET_KEY", "from-the-environment")
    app = create_app()
    assert app.config["SECRET_KEY"] == "from-the-environment"
    assert not (tmp_path / "data" / "secret_key").exists()


def test_coach_card_from_the_environment(tmp_path, monkeypatch):
    card = tmp_path / "mine.yaml"
    card.write_text(
        "name: My Club Card\nsections:\n  - name: Easy\n    hands:\n"
        '      - {id: "E-1", pattern: "1111a 2222a 3333a FF", value: 25, numbers: any}\n'
        '      - {id: "E-2", pattern: "NNN EEE WWW SSS FF", value: 25}\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("COACH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COACH_CARD", str(card))
    client = create_app({"SECRET_KEY": "x"}).test_client()
    data = client.post("/api/drills/nearest-hand/questions", json={"seed": 1, "level": 2}).get_json()
    assert data["card"] == "My Club Card"
    verdict = client.post(
        "/api/drills/nearest-hand/answers", json={"token": data["token"], "answer": "E-2"}
    ).get_json()
    assert verdict["best"] in ("E-1", "E-2")
    html = client.get("/drills/nearest-hand?seed=1&level=2").get_data(as_text=True)
    assert "My Club Card" in html and 'value="E-1"' in html


def test_a_bad_card_file_stops_the_app_at_start(tmp_path, monkeypatch):
    monkeypatch.setenv("COACH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COACH_CARD", str(tmp_path / "missing.yaml"))
    with pytest.raises(CardError, match="cannot read"):
        create_app({"SECRET_KEY": "x"})


@pytest.mark.server
def test_serve_answers_from_every_worker_with_one_secret(tmp_path):
    """`python -m coach serve` under gunicorn: tokens made by one worker are
    good at every other (the app and its key are made before the fork)."""
    import http.client
    import json
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, COACH_DATA_DIR=str(tmp_path / "data"))
    env.pop("COACH_SECRET_KEY", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "coach", "serve", "--port", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    def call(method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                assert call("GET", "/healthz") == (200, b"ok")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        for seed in range(12):  # a connection each, so the workers take turns
            status, body = call("POST", "/api/drills/name-the-tile/questions", {"seed": seed})
            assert status == 201
            token = json.loads(body)["token"]
            assert call("POST", "/api/drills/name-the-tile/answers", {"token": token, "answer": "5D"})[0] == 200
        assert call("GET", "/")[0] == 200
    finally:
        server.terminate()
        server.wait(15)
    assert (tmp_path / "data" / "secret_key").exists()


def test_a_form_may_send_a_list_answer(client):
    """For drills that take several picks: the drill gets the list (here it is
    the wrong shape for name-the-tile, so the page says so)."""
    html, csrf, token = open_drill(client, "/drills/name-the-tile?level=1&seed=3")
    response = client.post(
        "/drills/name-the-tile/answer",
        data={"token": token, "answer": ["5D", "6D"], "answer_list": "1"},
        headers={"HX-Request": "true", "X-CSRFToken": csrf},
    )
    assert response.status_code == 422  # asked again with the message, not graded
    assert "as text" in response.get_data(as_text=True)

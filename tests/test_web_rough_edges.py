"""The drill pages' rough edges (issue 15, part 4): the three-tile pass, the
card search by words, whose table tiles are shown, a reload after answering,
question images without their answer, and the end of today's practice."""

from __future__ import annotations

import re
from html import unescape

from drills import first_pass
from tests.test_web_pages import CARD, open_drill

HTMX = {"HX-Request": "true"}


def _first_pass(client, seed: int = 4, level: int = 2):
    html, csrf, token = open_drill(client, f"/drills/first-pass?level={level}&seed={seed}")
    q = first_pass.generate(seed, level, CARD)
    naturals = [code for code in q.rack if code != "J"]
    return html, csrf, token, naturals


def test_first_pass_says_three_beside_the_button(client):
    html, _, _, _ = _first_pass(client)
    beside = re.search(r'<div class="pass-submit">(.*?)</div>', html, re.S).group(1)
    assert "Pick 3 tiles to pass" in beside and "0 of 3 chosen" in beside
    assert "Pass these three" in beside


def test_first_pass_without_javascript_four_picks_are_asked_again_in_plain_words(client):
    _, csrf, token, naturals = _first_pass(client)
    form = {"token": token, "csrf_token": csrf, "answer_list": "1", "answer": naturals[:4]}
    response = client.post("/drills/first-pass/answer", data=form)
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "Pick exactly 3 tiles to pass; you picked 4." in html
    assert 'data-verdict=' not in html and 'name="token" value="' + token in html  # the same question, ungraded
    two = client.post("/drills/first-pass/answer", data={**form, "answer": naturals[:2]}, headers=HTMX)
    assert two.status_code == 422 and "<html" not in two.get_data(as_text=True)
    assert "Pick exactly 3 tiles to pass; you picked 2." in unescape(two.get_data(as_text=True))


def test_first_pass_api_message_is_plain_words(client):
    q = client.post("/api/drills/first-pass/questions", json={"seed": 4, "level": 2}).get_json()
    naturals = [code for code in q["rack"] if code != "J"]
    response = client.post("/api/drills/first-pass/answers", json={"token": q["token"], "answer": naturals[:4]})
    assert response.status_code == 400
    assert response.get_json() == {"error": "Pick exactly 3 tiles to pass; you picked 4."}
    three = client.post("/api/drills/first-pass/answers", json={"token": q["token"], "answer": naturals[:3]})
    assert three.status_code == 200 and "correct" in three.get_json()

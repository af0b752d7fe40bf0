"""What one card request may cost (issue 26), counted, never timed: the card
editor's preview, tried rack and save and the upload each parse the card's
text once; a refused card sent again is not parsed again; the crafted card
is refused at its lines with the cap named; the preview's answer is bounded
by its input; an error quotes only an excerpt of a long answer.
"""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from coach.notation import card as card_module
from coach.notation.card import HOUSE_CARD, MAX_ASKED_PER_LINE
from coach.tools.benchmarks import card_cost
from coach.web.shared.cards import editor as card_editor
from tests.support.teaching import BROKEN_CARD, GOOD_CARD, csrf, sign_up

HTMX = {"HX-Request": "true"}
PREVIEW, RACK, SAVE, UPLOAD = "/account/cards/editor/preview", "/account/cards/editor/rack", "/account/cards/editor/save", "/account/cards"
RACK_TEXT = "1D 1D 2D 3D N N E E WD WD F F J"
# The preview's answer: at most this multiple of what was typed, plus this allowance.
OUT_PER_IN = 8
OUT_ALLOWANCE = 200 * 1024


@pytest.fixture
def lou(app: Flask) -> FlaskClient:
    return sign_up(app, "lou@example.org", teacher=False)


@pytest.fixture(autouse=True)
def fresh() -> None:
    card_cost.forget_cards()


def send(client: FlaskClient, url: str, data: dict[str, str], htmx: bool = False):
    """A form post, and what card reading it did (parse_card calls and full parses)."""
    token = csrf(client)  # fetched before counting: the page it comes from is no card request
    before = (card_module.WORK.asked, card_module.WORK.parsed, card_module.WORK.recalled)
    response = client.post(url, data={"csrf_token": token, **data}, headers=HTMX if htmx else {},
                           content_type="multipart/form-data")
    after = (card_module.WORK.asked, card_module.WORK.parsed, card_module.WORK.recalled)
    return response, dict(zip(("asked", "parsed", "recalled"), (b - a for a, b in zip(before, after))))


@pytest.mark.parametrize(
    ("url", "data", "htmx", "status"),
    [
        (PREVIEW, {"card_text": GOOD_CARD}, True, 200),
        (PREVIEW, {"card_text": BROKEN_CARD}, True, 200),
        (PREVIEW, {"card_text": GOOD_CARD, "rack": RACK_TEXT}, False, 200),
        (PREVIEW, {"card_text": BROKEN_CARD, "rack": RACK_TEXT}, False, 200),
        (RACK, {"card_text": GOOD_CARD, "rack": RACK_TEXT}, True, 200),
        (RACK, {"card_text": BROKEN_CARD, "rack": RACK_TEXT}, False, 200),
        (SAVE, {"card_text": GOOD_CARD}, False, 303),
        (SAVE, {"card_text": BROKEN_CARD}, False, 422),
        (UPLOAD, {"card_text": GOOD_CARD}, False, 303),
        (UPLOAD, {"card_text": BROKEN_CARD}, False, 422),
    ],
    ids=["preview", "preview-broken", "preview-rack", "preview-rack-broken", "rack", "rack-broken-page",
         "save", "save-broken", "upload", "upload-broken"],
)
def test_each_card_request_parses_its_text_once(lou: FlaskClient, url: str, data: dict[str, str], htmx: bool, status: int) -> None:
    response, work = send(lou, url, data, htmx)
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert work == {"asked": 1, "parsed": 1, "recalled": 0}



@pytest.mark.parametrize(
    ("url", "data", "htmx"),
    [(PREVIEW, {}, True), (PREVIEW, {"rack": RACK_TEXT}, False), (RACK, {"rack": RACK_TEXT}, False), (SAVE, {}, False)],
    ids=["preview", "preview-rack", "rack-page", "save"],
)
def test_a_refused_card_is_drawn_without_a_second_parse_of_its_yaml(
    lou: FlaskClient, monkeypatch: pytest.MonkeyPatch, url: str, data: dict[str, str], htmx: bool
) -> None:
    # The editor draws a refused card from its YAML (its broken lines marked): it loaded
    # the text a second time for that, as much work again as the parse that refused it.
    from coach.notation.yamlfile import parser

    loads = []
    parse = parser.parse
    monkeypatch.setattr(parser, "parse", lambda text: loads.append(1) or parse(text))
    response, work = send(lou, url, {"card_text": BROKEN_CARD, **data}, htmx)
    assert response.status_code in (200, 422) and 'class="printed-line is-broken"' in response.get_data(as_text=True)
    assert work == {"asked": 1, "parsed": 1, "recalled": 0}
    assert len(loads) == 1

def test_saving_under_a_name_taken_parses_once(lou: FlaskClient) -> None:
    assert send(lou, SAVE, {"card_text": GOOD_CARD})[0].status_code == 303
    card_cost.forget_cards()
    response, work = send(lou, SAVE, {"card_text": GOOD_CARD})
    assert response.status_code == 422 and "you already have a card named" in html.unescape(response.get_data(as_text=True))
    assert work == {"asked": 1, "parsed": 1, "recalled": 0}


@pytest.mark.parametrize("url", [PREVIEW, SAVE, UPLOAD])
def test_a_refused_card_sent_again_is_not_parsed_again(lou: FlaskClient, url: str) -> None:
    text = card_cost.crafted()
    first, work = send(lou, url, {"card_text": text})
    assert work["parsed"] == 1
    again, work = send(lou, url, {"card_text": text})
    assert work == {"asked": 1, "parsed": 0, "recalled": 1}
    assert again.status_code == first.status_code
    said = [html.unescape(r.get_data(as_text=True)).count("the line asks for 2,916 readings") for r in (first, again)]
    assert said[0] == said[1] > 0  # the same problems, recalled


@pytest.mark.parametrize("url", [PREVIEW, SAVE, UPLOAD])
def test_the_crafted_card_is_refused_at_its_lines_without_a_try(lou: FlaskClient, url: str) -> None:
    text = card_cost.crafted()
    tried = card_module.WORK.tried
    response, _ = send(lou, url, {"card_text": text}, htmx=url == PREVIEW)
    assert card_module.WORK.tried == tried
    assert response.status_code == (200 if url == PREVIEW else 422)
    page = html.unescape(response.get_data(as_text=True))
    first_line = text.splitlines().index(next(row for row in text.splitlines() if 'id: "L1"' in row)) + 1
    if url == UPLOAD:
        assert f"Your card, line {first_line}, section" in page
    else:
        assert f'data-line="{first_line}"' in page and f"Line {first_line}" in page
    assert f"the line asks for 2,916 readings (12 forms, up to 27 suit assignments x 9 number shifts each); " \
           f"a line may ask for at most {MAX_ASKED_PER_LINE:,} (the cap)" in page


def broken_long_pattern() -> str:
    """A card that does not read, with a 20 KB pattern: the draft must not draw it."""
    return card_cost.card_text("Draft", ['{id: "D1", pattern: "' + "1a " * 7000 + '", value: 25}'])


def broken_many_forms() -> str:
    """A draft listing 300 forms on each of 3 lines (a card may hold 12), 36 KB."""
    forms = "[" + ", ".join('"1a 2a 3a 4a 5a 6a 7a 8a 9a N E W S F"' for _ in range(300)) + "]"
    return card_cost.card_text("Draft", [f'{{id: "D{n}", pattern: {forms}, value: 25}}' for n in range(3)])


def many_short_lines() -> str:
    return card_cost.card_text("Short", [f'{{id: "{n}", pattern: "NNNN EEEE WWW SSS", value: 1}}' for n in range(200)], 20)


PREVIEWED = {**card_cost.CARDS, "house": lambda: HOUSE_CARD.read_text(encoding="utf-8"), "plain": lambda: card_cost.PLAIN,
             "draft long pattern": broken_long_pattern, "draft many forms": broken_many_forms, "many short lines": many_short_lines}


@pytest.mark.parametrize("name", list(PREVIEWED))
def test_the_previews_answer_is_bounded_by_its_input(lou: FlaskClient, name: str) -> None:
    text = PREVIEWED[name]()
    response, _ = send(lou, PREVIEW, {"card_text": text}, htmx=True)
    if response.status_code == 413:  # over the form's own limit: a short page that says so
        assert len(response.get_data()) < 10_000
        return
    assert response.status_code == 200
    size_in, size_out = len(text.encode()), len(response.get_data())
    assert size_out <= OUT_PER_IN * size_in + OUT_ALLOWANCE, (size_in, size_out)


def test_the_house_card_is_drawn_whole_a_big_card_in_part() -> None:
    house = card_editor.preview(HOUSE_CARD.read_text(encoding="utf-8"))
    assert not house.cut and all(line.tokens and not line.plain for s in house.sections for line in s.lines)
    big = card_editor.preview(card_cost.longest_patterns())
    drawn = sum(len(line.tokens) + sum(len(f) for f in line.forms) for s in big.sections for line in s.lines)
    plain = [line.plain for s in big.sections for line in s.lines if line.plain]
    assert big.cut and drawn <= card_editor.MAX_DRAWN
    assert plain and all(text.startswith("1a 2a 3a") for text in plain)  # the rest shows as typed
    draft = card_editor.preview(broken_many_forms())
    line = draft.sections[0].lines[0]
    assert len(line.forms) + len(line.plain_forms) == card_editor.MAX_FORMS_SHOWN and line.more_forms == 300 - card_editor.MAX_FORMS_SHOWN


def test_a_long_line_beside_its_problem_is_cut_short() -> None:
    text = card_cost.card_text("Long", ['{id: "L", pattern: "NNNN EEEE WWW SSS", value: 25, note: "' + "Q" * 5000 + '"}'])
    (problem,) = card_editor.preview(text).problems
    assert "at most 300 characters" in problem.said and len(problem.text) <= card_editor.MAX_SHOWN_TEXT


def test_a_long_answer_is_quoted_only_in_part(client: FlaskClient) -> None:
    asked = client.post("/api/drills/nearest-hand/questions", json={})
    assert asked.status_code == 201
    sent = "ZQ" * 30_000  # a 60 KB answer
    response = client.post("/api/drills/nearest-hand/answers", json={"token": asked.get_json()["token"], "answer": sent})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith('there is no line "ZQZQ') and len(response.get_data()) < 1_000
    assert max(len(run) for run in re.findall(r"(?:ZQ)+", error)) <= 60


def test_a_long_tile_code_in_an_action_is_quoted_only_in_part(client: FlaskClient) -> None:
    hand = client.post("/api/hands", json={"seed": 1}).get_json()
    sent = "ZQ" * 30_000  # a 60 KB tile code
    action = {**hand["legal"][0], "tiles": [sent, "1D"]}
    response = client.post(f"/api/hands/{hand['id']}/actions", json={"action": action, "move": hand["move"]})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith('"ZQZQ') and "is not a tile" in error and len(response.get_data()) < 1_000

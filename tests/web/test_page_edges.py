"""The drill pages' rough edges of issue 25 (items 10-13), through Flask's test client:
nearest hand sends its card once, worksheets print the card they ask about."""

from __future__ import annotations

import re
from html import unescape

from tests.support.pages import open_drill

HTMX = {"HX-Request": "true"}
NEXT_LINK = re.compile(r'hx-get="(/drills/nearest-hand/next\?[^"]+)"')
CARD_KEPT = re.compile(r'<div id="card-([0-9a-f]{16})" hx-preserve="true" data-card-kept>')


def _next_url(html: str) -> str:
    match = NEXT_LINK.search(html)
    assert match, "no Next question link"
    return unescape(match.group(1))


def test_nearest_hand_sends_the_card_once_and_each_next_question_under_15_kb(client):
    html, _, _ = open_drill(client, "/drills/nearest-hand?level=2&seed=3")
    key = CARD_KEPT.search(html).group(1)
    assert html.count('class="card-line"') == 61  # the house card, whole, on the first question
    assert len(html.encode()) > 100_000
    url = _next_url(html)
    assert f"have={key}" in url
    for _ in range(5):
        response = client.get(url, headers=HTMX)
        body = response.get_data(as_text=True)
        assert response.status_code == 200
        assert len(response.get_data()) < 15_000, len(response.get_data())
        assert 'class="card-line"' not in body  # the page keeps its card...
        assert CARD_KEPT.search(body).group(1) == key  # ...under the same key
        assert 'name="token"' in body and 'id="rack"' in body  # the question itself comes
        assert response.headers["HX-Push-Url"].startswith("/drills/nearest-hand?level=2&seed=")
        url = _next_url(body)


def test_nearest_hand_sends_the_card_to_a_page_that_lacks_it(client):
    html, _, _ = open_drill(client, "/drills/nearest-hand?level=1&seed=3")
    key = CARD_KEPT.search(html).group(1)
    # Another card's key, no key, or no htmx (a plain link loads a whole page): the card comes.
    for url, headers in (
        ("/drills/nearest-hand/next?level=1&have=0123456789abcdef", HTMX),
        ("/drills/nearest-hand/next?level=1", HTMX),
        (f"/drills/nearest-hand/next?level=1&have={key}", {}),
    ):
        body = client.get(url, headers=headers).get_data(as_text=True)
        assert body.count('class="card-line"') == 61, url


def test_other_drills_ask_no_card_key(client):
    html, _, _ = open_drill(client, "/drills/calls?level=1&seed=3")
    assert "have=" not in html and "data-card-kept" not in html


# -- worksheets print the card they read, and key answers in its ids (item 12) -------------

SHEET_LINE = re.compile(r'<li class="sheet-card__line"><span class="sheet-card__id">([^<]+)</span>')
KEY_ANSWER = re.compile(r"<li><strong>([^<]+)</strong>")


def _sheet(page: str) -> tuple[str, list[str], list[str]]:
    """A worksheet's questions (as HTML), the line ids of the card it prints, its key's answers."""
    sheet, key = page.split('<ol class="sheet">', 1)[1].split('<section class="sheet-key"', 1)
    questions, _, card = sheet.partition('<section class="sheet-card')
    return questions, SHEET_LINE.findall(card), KEY_ANSWER.findall(key)


def test_a_worksheet_on_a_teachers_card_prints_that_card_and_keys_its_ids(app):
    from coach.notation.card import parse_card
    from tests.support.cards import CARD
    from tests.support.teaching import GOOD_CARD, assign, card_id_named, last_assignment, make_class, make_set, post, sign_up, text_of, upload_card

    spring = parse_card(GOOD_CARD)
    tess = sign_up(app, "tess@example.org")
    upload_card(tess, GOOD_CARD)
    rows = [("nearest-hand", "1", "3"), ("mahjong-or-not", "1", "2")]
    set_id = make_set(tess, app, "On my card", rows, card="Spring class")
    assign(tess, make_class(tess), f"set:{set_id}")
    spring_ids = [line.id for line in spring.lines]
    for url in (f"/teach/sets/{set_id}/worksheet", f"/teach/assignments/{last_assignment(app).id}/worksheet"):
        page = text_of(tess.get(url))
        _questions, printed, key = _sheet(page)
        assert "The card · Spring class" in page and "Every line of the card" in page
        assert printed == spring_ids  # a question asks for the nearest line: the whole card
        assert key[:3] and all(answer in spring_ids for answer in key[:3]), key  # nearest hand: the card's own ids
        assert not {line.id for line in CARD.lines} & set(key)

    # The teacher drills on the Spring card as a learner: a set on the house card keeps the house card.
    assert post(tess, "/account/cards/choose", {"card": str(card_id_named(app, "Spring class"))}).status_code == 303
    assert re.search(r'<option value="\d+" selected>Spring class \(', text_of(tess.get("/drills/nearest-hand?level=1&seed=3")))
    house_set = make_set(tess, app, "On the house card", [("nearest-hand", "1", "3")])
    page = text_of(tess.get(f"/teach/sets/{house_set}/worksheet"))
    _questions, printed, key = _sheet(page)
    house_ids = [line.id for line in CARD.lines]
    assert printed == house_ids and all(answer in house_ids for answer in key), key


def test_a_worksheet_prints_only_the_lines_its_questions_name_and_none_for_tiles(app):
    from tests.support.cards import CARD
    from tests.support.teaching import make_set, sign_up, text_of

    tess = sign_up(app, "tess@example.org")
    set_id = make_set(tess, app, "Calls week", [("mahjong-or-not", "1", "3"), ("calls", "2", "3")])
    page = text_of(tess.get(f"/teach/sets/{set_id}/worksheet"))
    questions, printed, key = _sheet(page)
    assert "The lines these questions name." in page and "The card · " in page
    assert printed and len(printed) < len(CARD.lines) // 2
    words = unescape(questions + page.split('<section class="sheet-key"', 1)[1])
    for line_id in printed:  # every printed line is named by a question or the key...
        assert re.search(rf"(?<![\w-]){re.escape(line_id)}(?![\w-])", words), line_id
    for line in CARD.lines:  # ...and every line they name is printed
        if re.search(rf"(?<![\w-]){re.escape(line.id)}(?![\w-])", words):
            assert line.id in printed, line.id
    [printed_order] = [[line.id for line in CARD.lines if line.id in printed]]
    assert printed == printed_order  # in the card's order

    tiles_only = make_set(tess, app, "Tiles", [("name-the-tile", "1", "3")])
    assert 'class="sheet-card' not in text_of(tess.get(f"/teach/sets/{tiles_only}/worksheet"))

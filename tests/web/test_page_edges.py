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

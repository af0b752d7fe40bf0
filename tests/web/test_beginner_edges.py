"""The beginner's rough edges of issue 25, item 13 (the helper "table"'s part).

- Signing in comes back to where the learner was going: the header's "Sign
  in" link carries the page it was on, and a page that needs an account
  sends a visitor to sign in and back. Only a path on this site is ever
  followed: an absolute URL, a scheme-relative "//host", a backslash or a
  control character lands on /account instead (no open redirect).
- The forgot-password page without mail tells the learner whom to ask, and
  shows no shell command (that is in docs/deployment.md).
- A drill address that names no drill lists the drills by their titles,
  never by their internal names.
"""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest

import drills
from coach.web.infra.redirects import safe_next
from tests.support.accounts import PASSWORD, sign_in, sign_up
from tests.support.teaching import post, text_of


def sign_in_link(page: str) -> str:
    found = re.search(r'<a class="site-nav__account" href="([^"]*)"[^>]*>Sign in</a>', page)
    assert found, "the header has no Sign in link"
    return html.unescape(found.group(1))


def next_of(url: str) -> str | None:
    values = parse_qs(urlsplit(url).query).get("next")
    return values[0] if values else None


def main_text(response) -> str:
    found = re.search(r"<main.*?</main>", text_of(response), re.S)
    assert found
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(0)).split())


def test_the_headers_sign_in_link_comes_back_to_the_page_it_was_on(client):
    for page in ("/drills/jokers?level=2", "/progress", "/learn", "/play"):
        link = sign_in_link(client.get(page).get_data(as_text=True))
        assert urlsplit(link).path == "/signin" and next_of(link) == page


def test_the_sign_in_pages_own_link_does_not_point_back_at_itself(client):
    for page in ("/signin", "/signup", "/signin/forgot"):
        assert sign_in_link(client.get(page).get_data(as_text=True)) == "/signin"


def test_signing_in_from_the_header_lands_where_the_learner_was(app, client):
    sign_up(app.test_client())
    link = sign_in_link(client.get("/drills/first-pass?level=2").get_data(as_text=True))
    form = client.get(link).get_data(as_text=True)
    assert '<input type="hidden" name="next" value="/drills/first-pass?level=2">' in form
    assert 'href="/signup?next=/drills/first-pass?level%3D2"' in html.unescape(form)  # no account yet: the same way back
    response = sign_in(client, next="/drills/first-pass?level=2")
    assert response.status_code == 303 and response.headers["Location"] == "/drills/first-pass?level=2"


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/drills",
        "///evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "javascript:alert(1)",
        "http:/evil.example",
        " /drills",
        "evil.example/drills",
    ],
)
def test_an_open_redirect_is_refused_and_the_learner_lands_on_the_account_page(app, target):
    assert safe_next(target) is None
    sign_up(app.test_client())
    client = app.test_client()
    response = sign_in(client, next=target)
    assert response.status_code == 303 and response.headers["Location"] == "/account"


@pytest.mark.parametrize("target", ["/\t/evil.example", "/drills\x7f", "/account\r\nLocation: https://evil.example"])
def test_a_next_with_a_control_character_is_refused_before_anything_is_looked_at(app, target):
    assert safe_next(target) is None
    sign_up(app.test_client())
    response = sign_in(app.test_client(), next=target)
    assert response.status_code == 400 and "Location" not in response.headers  # the input bounds refuse it outright


def test_a_page_that_needs_an_account_sends_a_visitor_to_sign_in_and_back(app):
    teacher = app.test_client()
    assert post(teacher, "/signup", {"email": "tia@example.org", "password": PASSWORD, "teacher": "1"}).status_code == 303
    post(teacher, "/signout", {})
    visitor = app.test_client()
    response = visitor.get("/teach/sets")
    assert response.status_code == 303
    assert urlsplit(response.headers["Location"]).path == "/signin" and next_of(response.headers["Location"]) == "/teach/sets"
    back = sign_in(visitor, email="tia@example.org", next=next_of(response.headers["Location"]))
    assert back.headers["Location"] == "/teach/sets" and visitor.get("/teach/sets").status_code == 200


def test_a_form_or_an_htmx_request_that_needs_an_account_is_refused_with_why(app, client):
    assert post(client, "/teach/sets/new", {}).status_code in (403, 400)
    partial = client.get("/teach/sets", headers={"HX-Request": "true"})
    assert partial.status_code == 403 and "Only teachers can do this." in text_of(partial)


def test_without_mail_the_forgot_page_tells_the_learner_whom_to_ask_and_shows_no_command(client):
    page = client.get("/signin/forgot")
    words = main_text(page)
    assert "Ask the person who runs this site to reset your password." in words
    assert "reset-link" not in page.get_data(as_text=True) and "python" not in words and "<code>" not in page.get_data(as_text=True)


def test_the_operators_docs_hold_the_reset_command():
    from tests.support.paths import ROOT

    docs = (ROOT / "docs" / "deployment.md").read_text()
    assert "## Password resets without mail" in docs and "mahjong-coach reset-link" in docs


def test_a_drill_address_that_names_no_drill_lists_the_drills_by_their_titles(client):
    response = client.get("/drills/no-such-drill")
    assert response.status_code == 404
    words = main_text(response)
    assert "There is no drill at this address." in words
    for name, module in drills.DRILLS.items():
        assert module.TITLE in words
        assert name not in words or name in module.TITLE.lower()  # the internal name is in the link, not the words
    assert f'href="/drills/{next(iter(drills.DRILLS))}"' in response.get_data(as_text=True)
    assert "(drills:" not in words and "no-such-drill" not in words


def test_the_api_still_names_the_drills_by_their_ids(client):
    body = client.post("/api/drills/no-such-drill/questions", json={}).get_json()
    assert "name-the-tile" in body["error"]

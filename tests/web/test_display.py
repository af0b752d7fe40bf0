"""Display settings (issue 15): dark mode and large tiles, kept per learner,
applied as classes on <html>."""

from __future__ import annotations

import re

from sqlmodel import Session, select

from coach.store.models import Learner, LearnerDisplay
from coach.web.account.display import classes_for
from tests.support.accounts import answer, post, sign_in, sign_out, sign_up


def html_class(client, url: str = "/") -> str | None:
    page = client.get(url).get_data(as_text=True)
    found = re.search(r"<html lang=\"en\"(?: class=\"([^\"]*)\")?>", page)
    assert found, "no <html> tag"
    return found.group(1)


def save(client, theme: str, tile_size: str, **extra):
    return post(client, "/account/display", {"theme": theme, "tile_size": tile_size, **extra}, page="/account")


def checked(client, name: str) -> str:
    page = client.get("/account").get_data(as_text=True)
    (value,) = re.findall(rf'name="{name}" value="(\w+)" checked', page)
    return value


def test_classes_of_each_choice():
    assert classes_for("system", "normal") == ""
    assert classes_for("dark", "normal") == "theme-dark"
    assert classes_for("light", "large") == "theme-light tiles-large"
    assert classes_for("system", "large") == "tiles-large"


def test_default_follows_the_device_with_standard_tiles(client):
    assert html_class(client) is None  # no class: theme.css follows prefers-color-scheme
    assert checked(client, "theme") == "system" and checked(client, "tile_size") == "normal"
    assert 'href="/account#display"' in client.get("/").get_data(as_text=True)  # reachable for guests


def test_a_visitor_who_saves_becomes_a_guest_who_keeps_it(client, app):
    response = save(client, "dark", "large")
    assert response.status_code == 303 and response.headers["Location"].endswith("/account#display")
    assert "Display settings saved." in client.get("/account").get_data(as_text=True)
    assert html_class(client) == "theme-dark tiles-large"
    assert html_class(client, "/drills/name-the-tile?level=1") == "theme-dark tiles-large"
    assert checked(client, "theme") == "dark" and checked(client, "tile_size") == "large"
    with Session(app.extensions["store"]) as session:
        (guest,) = session.exec(select(Learner)).all()
        (chosen,) = session.exec(select(LearnerDisplay).where(LearnerDisplay.learner_id == guest.id)).all()
        assert guest.guest and (chosen.theme, chosen.tile_size) == ("dark", "large")
    answer(client, seed=3)  # drilling on keeps the same guest
    with Session(app.extensions["store"]) as session:
        assert len(session.exec(select(Learner)).all()) == 1


def test_an_account_keeps_its_choice_across_sign_in(client, app):
    assert sign_up(client).status_code == 303
    save(client, "light", "large")
    sign_out(client)
    assert html_class(client) is None  # signed out: the device decides again
    sign_in(client)
    assert html_class(client) == "theme-light tiles-large"
    other = app.test_client()  # another device
    sign_in(other)
    assert html_class(other) == "theme-light tiles-large"


def test_a_guests_choice_moves_into_the_account_it_signs_up_for(client):
    save(client, "dark", "normal")
    assert sign_up(client).status_code == 303
    assert html_class(client) == "theme-dark"


def test_bad_values_change_nothing_and_say_why(client):
    save(client, "dark", "large")
    response = save(client, "purple", "huge")
    assert response.status_code == 303
    page = client.get("/account").get_data(as_text=True)
    assert "Choose a theme (match this device, light or dark)" in page
    assert html_class(client) == "theme-dark tiles-large"


def test_back_to_the_page_it_came_from_and_never_off_site(client):
    assert save(client, "dark", "normal", next="/progress").headers["Location"].endswith("/progress")
    assert save(client, "dark", "normal", next="https://evil.example/").headers["Location"].endswith("/account#display")


def test_saving_needs_the_forms_token(client):
    assert client.post("/account/display", data={"theme": "dark", "tile_size": "large"}).status_code == 400
    assert html_class(client) is None


def test_the_export_carries_the_choice_and_deleting_removes_it(client, app):
    save(client, "dark", "large")
    learner = client.get("/account/export.json").get_json()["learner"]
    assert (learner["theme"], learner["tile_size"]) == ("dark", "large")
    assert post(client, "/account/delete", {"confirm": "delete"}, page="/account/delete").status_code == 303
    with Session(app.extensions["store"]) as session:
        assert session.exec(select(LearnerDisplay)).all() == []

"""The practice table and the hands API under each table rule (issue 27): what
the engine plays (coach/play) shows on the page and in the state, and every
move it allows can be made from the page's own forms. Hands are played by
seeded random choices among the legal actions, so each test is the same
every run; the computer players answer inside each request."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from coach.rules.table_rules import SWITCHES
from tests.support.app import TEST_PASSWORD_HASH, TEST_SECRET, app_factory
from tests.support.openapi import assert_valid
from tests.support.practice import hand_row
from tests.support.teaching import post, sign_up, text_of

State = dict[str, Any]
SEEDS = range(12)  # hands tried before a test gives up finding its moment
MOVES = 400  # a hand ends well before this many of East's moves


@pytest.fixture
def play_app(tmp_path, monkeypatch, migrated_database):
    """An app whose drilling limits a few whole hands in a row never reach."""
    make = app_factory(tmp_path, monkeypatch, migrated_database, TEST_SECRET)
    return make(
        COACH_LIMIT_DRILL_LEARNER="100000/minute", COACH_LIMIT_DRILL_ADDRESS="100000/minute", TEST_PASSWORD_HASH=TEST_PASSWORD_HASH
    )


def player(app, **rules: str):
    client = sign_up(app, f"p{len(rules)}-{'-'.join(rules.values())}@example.org", teacher=False)
    assert post(client, "/account/table-rules", rules).status_code == 303
    return client


def act(client, hand_id: int, state: State, action: dict) -> State:
    response = client.post(f"/api/hands/{hand_id}/actions", json={"action": action, "move": state["move"]})
    assert response.status_code == 200, (action, response.get_json())
    return response.get_json()


def play_until(client, want: Callable[[State], bool]) -> tuple[int, State]:
    """The first state of East's hands (seed by seed, random legal moves) where `want` holds."""
    for seed in SEEDS:
        state = client.post("/api/hands", json={"seed": seed}).get_json()
        hand_id, rng = state["id"], random.Random(seed)
        for _ in range(MOVES):
            if want(state):
                return hand_id, state
            if state["over"]:
                break
            state = act(client, hand_id, state, rng.choice(state["legal"]))
    raise AssertionError("no hand came to the moment wanted")


def kinds(state: State) -> set[str]:
    return {a["kind"] for a in state["legal"]}


@pytest.mark.parametrize("switch", SWITCHES, ids=lambda s: s.rule_id)
def test_every_switch_plays_whole_hands_on_the_page_and_through_the_api(play_app, switch):
    """TR1-TR6 and C6, each on: two hands to their end, every state as the API
    describes it, the table page drawn every few moves, the review reached."""
    on = next(v for v in switch.choices if v != switch.default)
    value = "on" if on is True else str(on)
    client = player(play_app, **{switch.name: value})
    for seed in (1, 2):
        state = client.post("/api/hands", json={"seed": seed}).get_json()
        hand_id, rng = state["id"], random.Random(seed)
        assert state["table_rules"] == {switch.name: on}
        for move in range(MOVES):
            assert_valid("HandState", state)
            if move % 5 == 0:
                assert client.get(f"/play/{hand_id}").status_code == 200
            if state["over"]:
                break
            state = act(client, hand_id, state, rng.choice(state["legal"]))
        assert state["over"]
        assert client.get(f"/play/{hand_id}").status_code == 200
        assert client.get(f"/play/{hand_id}/review").status_code == 200


def test_TR1_the_table_offers_a_blank_swap_and_plays_it_from_its_form(play_app):
    client = player(play_app, blanks="8")
    hand_id, state = play_until(client, lambda s: "blank" in kinds(s))
    swap = next(a for a in state["legal"] if a["kind"] == "blank")
    place = swap.get("place", 0)  # an action leaves out a field at its default
    page = text_of(client.get(f"/play/{hand_id}"))
    assert "Swap a blank for a discarded tile (TR1)" in page
    assert '/tiles/BL.svg' in page and "BL" in state["rack"]  # the blank in East's rack, drawn as a blank tile
    form = re.search(rf'<form [^>]*>(?:(?!</form>).)*name="place" value="{place}">.*?</form>', page, re.S)
    assert form and 'name="kind" value="blank"' in form.group(0) and f'name="tile" value="{swap["tiles"][0]}"' in form.group(0)
    sent = {"kind": "blank", "tile": swap["tiles"][0], "place": str(place), "move": str(state["move"])}
    assert post(client, f"/play/{hand_id}/act", sent).status_code == 303
    played = [a for a in json.loads(hand_row(play_app, hand_id).actions) if a["seat"] == "East"]
    assert swap in played
    assert "swapped a blank for the" in text_of(client.get(f"/play/{hand_id}"))
    face = client.get("/tiles/BL.svg")
    assert face.status_code == 200 and face.mimetype == "image/svg+xml" and "Blank" in face.get_data(as_text=True)


def test_TR3_a_joker_may_be_picked_for_the_courtesy_pass(play_app):
    client = player(play_app, joker_in_courtesy="on")
    hand_id, state = play_until(
        client, lambda s: any(a["kind"] == "courtesy" and "J" in a.get("tiles", []) for a in s["legal"])
    )
    page = text_of(client.get(f"/play/{hand_id}"))
    assert "At this table a joker may go in the courtesy pass (TR3)." in page
    assert '<input type="checkbox" name="tiles" value="J">' in page  # not disabled, as it is in the Charleston
    assert "(jokers never pass)" not in page


def test_TR4_a_three_player_table_has_no_north(play_app):
    client = player(play_app, players="3")
    hand_id, state = play_until(client, lambda s: s["phase"] == "play")
    assert [s["seat"] for s in state["seats"]] == ["East", "South", "West"]
    page = text_of(client.get(f"/play/{hand_id}"))
    assert 'aria-label="North"' not in page and 'aria-label="West"' in page
    assert "TR4 Three players: 3 players" in page


def test_TR5_east_sees_the_tile_it_picked_ahead_and_nobody_else_does(play_app):
    client = player(play_app, picking_ahead="on")
    hand_id, state = play_until(client, lambda s: "next_tile" in s and s["owed"] == "call")
    assert state["latest"]["seat"] == "North"  # East picks next, so East looks ahead while North's throw may be called
    assert_valid("HandState", state)
    page = text_of(client.get(f"/play/{hand_id}"))
    assert "You picked ahead: the next tile of the wall is" in page and "(TR5)" in page
    league = sign_up(play_app, "league@example.org", teacher=False)
    _, plain = play_until(league, lambda s: s["owed"] == "call" and s["latest"]["seat"] == "North")
    assert "next_tile" not in plain  # by the League's rules the wall stays face down


def test_TR2_the_table_says_when_the_last_wall_is_cold(play_app):
    client = player(play_app, wall_end="cold")

    def cold(state: State) -> bool:
        return state["phase"] == "play" and state["wall"] <= 24 and "The last wall is cold" in text_of(client.get(f"/play/{state['id']}"))

    hand_id, state = play_until(client, cold)
    assert "call" not in kinds(state)  # and no call is offered there

"""A practice hand on the web (issue 16, part 3): deal, every kind of move
through the forms (htmx and plain), the coach's hint counted, a refused move
named by its rule, resume after a reload, someone else's hand a 404, and
the review once it is over."""

from __future__ import annotations

import random
import re

from coach.notation import tiles
from coach.play.bots import decide
from coach.play.hand import SEATS
from coach.play.legal import legal_actions
from coach.web.shared.practice.hands import SEAT
from tests.support.practice import deal_one, form_of, hand_row, move_of, state
from tests.support.teaching import post, sign_up, text_of


def test_a_whole_hand_is_played_through_the_forms_and_reviewed(app):
    client = app.test_client()
    hand_id = deal_one(client)
    page = text_of(client.get(f"/play/{hand_id}"))
    assert "First Charleston: pass three tiles to the right (C1)" in page
    rng = random.Random(0)
    for moves in range(400):
        hand = state(app, hand_id)
        if hand.phase == "over":
            break
        assert set(hand.waiting()) == {SEAT} or SEAT in hand.waiting()  # the bots have moved: it is the learner's move
        action = decide(hand, SEAT, "club", rng)
        headers = {"HX-Request": "true"} if moves % 2 else {}
        response = post(client, f"/play/{hand_id}/act", form_of(action, hand), headers=headers)
        assert response.status_code == (200 if headers else 303), text_of(response)[:400]
        if headers:
            assert 'id="table"' in text_of(response) and "<html" not in text_of(response)  # the partial only
    hand = state(app, hand_id)
    assert hand.phase == "over" and hand.census() == __import__("collections").Counter(tiles.WALL)
    row = hand_row(app, hand_id)
    assert row.finished_at is not None and row.result != "null"
    page = text_of(client.get(f"/play/{hand_id}"))
    assert "See the coach's review" in page
    review = text_of(client.get(f"/play/{hand_id}/review"))
    assert "decisions," in review and "% accurate" in review and "Every decision" in review
    assert review.count('class="card review-step') == sum(1 for a in hand.actions if a.seat == SEAT)
    over = {"kind": "discard", "tile": "1D", "move": move_of(app, hand_id)}
    assert post(client, f"/play/{hand_id}/act", over).status_code == 422  # over (E1)
    # Hands played show on the progress page: how many, won, accuracy (issue 16, part 5).
    import json as _json

    stored = _json.loads(row.result)
    assert 0 <= stored["accuracy"] <= 1 and stored["decisions"] == sum(1 for a in hand.actions if a.seat == SEAT)
    progress = text_of(client.get("/progress"))
    assert "Practice hands" in progress and "<strong>1</strong> hand played" in progress
    assert f"<strong>{round(stored['accuracy'] * 100)}%</strong> of decisions as good as the coach's" in progress
    assert f'href="/play/{hand_id}/review"' in progress


def test_a_refused_move_names_its_rule_and_changes_nothing(app):
    client = app.test_client()
    hand_id = deal_one(client)
    before = hand_row(app, hand_id).actions
    move = move_of(app, hand_id)
    response = post(client, f"/play/{hand_id}/act", {"kind": "pass", "tiles": ["J", "J", "J"], "move": move})
    assert response.status_code == 422
    body = text_of(response)
    assert "(C1)" in body or "(C4)" in body
    response = post(client, f"/play/{hand_id}/act", {"kind": "pass", "tiles": ["XX"], "move": move})
    assert response.status_code == 422 and "(T1)" in text_of(response)
    response = post(client, f"/play/{hand_id}/act", {"kind": "discard", "tile": "1D", "move": move})
    assert response.status_code == 422 and "(C1)" in text_of(response)
    assert hand_row(app, hand_id).actions == before


def test_an_illegal_move_on_the_page_gets_the_apis_refusal_with_its_rule(app):
    """The page and the API play a move through one service: a move the engine
    would take but the legal list does not hold (a pass sent with a vote's
    "go") is refused on the page as through the API, and nothing is stored."""
    client = app.test_client()
    hand_id = deal_one(client)
    before = hand_row(app, hand_id).actions
    hand = state(app, hand_id)
    legal_pass = legal_actions(hand, SEAT)[0]
    response = post(client, f"/play/{hand_id}/act", form_of(legal_pass, hand) | {"go": "0"})
    assert response.status_code == 422
    assert hand_row(app, hand_id).actions == before
    through_api = client.post(f"/api/hands/{hand_id}/actions", json={"action": legal_pass.to_json() | {"go": False}, "move": 0})
    assert through_api.status_code == 400
    refused = through_api.get_json()
    assert refused["rule"] == "C1"
    assert f"{refused['error']} ({refused['rule']})" in text_of(response)
    assert hand_row(app, hand_id).actions == before


def test_the_coachs_hint_is_counted_and_says_why(app):
    client = app.test_client()
    hand_id = deal_one(client)
    response = post(client, f"/play/{hand_id}/hint", headers={"HX-Request": "true"})
    assert response.status_code == 200
    body = text_of(response)
    assert "The coach would pass" in body and "tiles away" in body and "(C1)" in body
    post(client, f"/play/{hand_id}/hint")
    assert hand_row(app, hand_id).hints == 2
    assert "2 hints used" in text_of(client.get(f"/play/{hand_id}"))


def test_a_hand_resumes_after_a_reload_and_is_listed(app):
    client = sign_up(app, "pia@example.org", teacher=False)
    hand_id = deal_one(client, "shark")
    hand = state(app, hand_id)
    action = decide(hand, SEAT, "club", random.Random(1))
    assert post(client, f"/play/{hand_id}/act", form_of(action, hand)).status_code == 303
    first = text_of(client.get(f"/play/{hand_id}"))
    again = text_of(client.get(f"/play/{hand_id}"))
    def strip(page: str) -> str:  # the table alone, without the form tokens
        table = page[page.index('<section id="table"'):page.index("</main>")]
        return re.sub(r'name="csrf_token" value="[^"]+"', "", table)

    assert strip(first) == strip(again) and "First Charleston: pass three tiles across (C1)" in first
    listing = text_of(client.get("/play"))
    assert f"Hand #{hand_id}" in listing and "Shark players" in listing and "Resume" in listing
    # Another device of the same account sees it too.
    other = client.application.test_client()
    assert post(other, "/signin", {"email": "pia@example.org", "password": "correct horse battery"}).status_code == 303
    assert strip(text_of(other.get(f"/play/{hand_id}"))).count("play-pick__tile") == strip(first).count("play-pick__tile")


def test_someone_elses_hand_is_a_404_and_nothing_changes(app):
    owner = app.test_client()
    hand_id = deal_one(owner)
    before = hand_row(app, hand_id)
    stranger = sign_up(app, "sam@example.org", teacher=False)
    assert stranger.get(f"/play/{hand_id}").status_code == 404
    assert post(stranger, f"/play/{hand_id}/act", {"kind": "vote", "go": "1", "move": "0"}).status_code == 404
    assert post(stranger, f"/play/{hand_id}/hint").status_code == 404
    assert stranger.get(f"/play/{hand_id}/review").status_code == 404
    after = hand_row(app, hand_id)
    assert (after.actions, after.hints) == (before.actions, before.hints)
    assert app.test_client().get(f"/play/{hand_id}").status_code == 404  # a visitor


def test_a_post_without_csrf_is_refused(app):
    client = app.test_client()
    hand_id = deal_one(client)
    assert client.post(f"/play/{hand_id}/act", data={"kind": "vote"}).status_code == 400


def test_a_guests_hands_move_into_the_account_on_sign_in_and_are_exported(app):
    sign_up(app, "gia@example.org", teacher=False)
    client = app.test_client()
    hand_id = deal_one(client)  # as a guest
    assert post(client, "/signin", {"email": "gia@example.org", "password": "correct horse battery"}).status_code == 303
    assert client.get(f"/play/{hand_id}").status_code == 200  # still theirs, now on the account
    data = client.get("/account/export.json").get_json()
    assert len(data["practice_hands"]) == 1 and data["practice_hands"][0]["seed"] == hand_row(app, hand_id).seed


def test_the_log_starts_at_your_own_last_move_however_many_follow():
    """A call after your throw can push it out of the last eight lines; the table
    still tells your throw first, then what the others did, bounded at LOG_CAP."""
    from types import SimpleNamespace

    from coach.web.play.table import LOG_CAP, _log_window
    from coach.web.shared.practice.hands import describe_move

    def throw(seat: str, code: str = "5D") -> SimpleNamespace:
        return SimpleNamespace(kind="discard", seat=seat, tiles=(code,))

    def told(hand) -> list[str]:
        return [describe_move(hand, n) for n in _log_window(hand)]

    others = [s for s in SEATS if s != SEAT]
    hand = SimpleNamespace(actions=[throw(SEAT)] + [throw(others[n % 3], "2B") for n in range(11)])
    assert told(hand)[0] == "You threw the 5 Dot." and len(told(hand)) == 12
    hand.actions.append(throw(SEAT, "9C"))  # your newest move is the last: the last eight, ending with it
    assert len(told(hand)) == 8 and told(hand)[-1] == "You threw the 9 Crak."
    far = SimpleNamespace(actions=[throw(SEAT)] + [throw(others[n % 3], "2B") for n in range(LOG_CAP + 5)])
    assert len(told(far)) == LOG_CAP and "You" not in " ".join(told(far))

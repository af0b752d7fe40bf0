"""The blind pass (C5) at the practice table and over the API: the page
offers "send N of the tiles coming to you on unseen" in words, the engine
takes it, and neither the page nor the state ever shows the tiles sent on."""

from __future__ import annotations

import json
import re
from collections import Counter

from sqlmodel import Session

from coach.common import clock
from coach.notation import tiles
from coach.play.legal import legal_actions
from coach.web.shared.practice.hands import SEAT
from tests.support.old_hands import migration, old_hand
from tests.support.practice import deal_one, form_of, hand_row, move_of, state
from tests.support.teaching import post


def to_first_left(app, client) -> int:
    hand_id = deal_one(client)
    for _ in range(2):
        hand = state(app, hand_id)
        assert hand.step in ("first-right", "first-across")
        response = post(client, f"/play/{hand_id}/act", form_of(legal_actions(hand, SEAT)[0], hand))
        assert response.status_code == 303
    assert state(app, hand_id).step == "first-left"
    return hand_id


def test_C5_the_table_offers_a_blind_pass_in_plain_words_only_on_the_last_pass(app, client):
    hand_id = deal_one(client)
    first = client.get(f"/play/{hand_id}").get_data(as_text=True)
    assert 'name="blind"' not in first  # first-right: no blind pass
    hand_id = to_first_left(app, client)
    page = client.get(f"/play/{hand_id}").get_data(as_text=True)
    radios = re.findall(r'<input type="radio" name="blind" value="(\d)"( checked)?>\s*([^<]+)</label>', page)
    assert [(value, checked) for value, checked, _ in radios] == [("0", " checked"), ("1", ""), ("2", ""), ("3", "")]
    assert "Send 2 on unseen, and pass 1 of my own" in page and "keep my rack as it is" in page
    assert "they never join your rack" in page and "(C5)" in page and "(C6)" in page
    # The blind pass is posted by the pass form itself, which carries the table's move number back.
    form = re.search(r'<form [^>]*class="play-pick".*?</form>', page, re.S)
    assert form and 'name="blind"' in form.group(0)
    assert f'<input type="hidden" name="move" value="{move_of(app, hand_id)}">' in form.group(0)


def test_C5_a_blind_pass_from_the_form_never_puts_the_forwarded_tiles_in_your_rack(app, client):
    hand_id = to_first_left(app, client)
    before = state(app, hand_id)
    rack = Counter(before.racks[SEAT])
    mine = next(t for t in before.racks[SEAT] if t != tiles.JOKER)
    form = {"kind": "pass", "tiles": [tiles.CODES[mine]], "blind": "2", "move": move_of(app, hand_id)}
    response = post(client, f"/play/{hand_id}/act", form)
    assert response.status_code == 303
    after = state(app, hand_id)
    assert after.step == "vote" or after.phase == "play"
    east = [a for a in after.actions if a.seat == SEAT and a.kind == "pass"][-1]
    assert east.blind == 2 and east.tiles == (tiles.CODES[mine],)
    kept = after.received[SEAT]
    assert len(kept) == 1 and Counter(after.racks[SEAT]) == rack - Counter([mine]) + Counter(kept)
    page = client.get(f"/play/{hand_id}").get_data(as_text=True)
    assert f"You passed one of your tiles (the {tiles.name(mine)}) to the left and 2 blind, sent straight on unseen (C5)." in page


def test_C5_the_api_state_shows_only_the_tiles_that_entered_your_rack(client):
    state = client.post("/api/hands", json={"seed": 4242, "bots": "club"}).get_json()
    hand_id = state["id"]
    while state["step"] != "first-left":
        state = client.post(f"/api/hands/{hand_id}/actions", json={"action": state["legal"][0], "move": state["move"]}).get_json()
    assert {a.get("blind", 0) for a in state["legal"]} == {0, 1, 2, 3}
    everything_blind = next(a for a in state["legal"] if a.get("blind") == 3)
    assert everything_blind == {"seat": SEAT, "kind": "pass", "blind": 3}
    rack = state["rack"]
    state = client.post(f"/api/hands/{hand_id}/actions", json={"action": everything_blind, "move": state["move"]}).get_json()
    # All three went on unseen: nothing entered the rack, and nothing is shown as received.
    assert state["received"] == [] and state["rack"] == rack
    assert state["step"] == "vote" and state["owed"] == "vote"


def test_C5_a_hand_stored_before_the_change_still_opens_with_its_review(app, client):
    """An old finished hand, as migration 0014_blind_pass leaves it, opens at
    the table and in its review, on the page and over the API."""
    record = old_hand()
    actions = migration().plain_passes(record["actions"])
    hand_id = deal_one(client)
    row = hand_row(app, hand_id)
    with Session(app.extensions["store"]) as session:
        row.seed, row.actions, row.finished_at = record["seed"], json.dumps(actions), clock.now()
        row.result = json.dumps(dict(record["result"], accuracy=0.9, decisions=20, mistakes=1, replay=[]))
        session.add(row)
        session.commit()
    hand = state(app, hand_id)
    assert hand.phase == "over" and hand.result is not None and hand.result.winner == record["result"]["winner"]
    page = client.get(f"/play/{hand_id}")
    assert page.status_code == 200 and "winning hand" in page.get_data(as_text=True)
    review = client.get(f"/play/{hand_id}/review")
    assert review.status_code == 200
    found = client.get(f"/api/hands/{hand_id}/review").get_json()
    assert found["decisions"] and all(d["played"]["seat"] == SEAT for d in found["decisions"])

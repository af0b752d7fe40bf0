"""The blind pass (C5) at the practice table and over the API: the page
offers "send N of the tiles coming to you on unseen" in words, the engine
takes it, and neither the page nor the state ever shows the tiles sent on."""

from __future__ import annotations

import re
from collections import Counter

from coach.notation import tiles
from coach.play.legal import legal_actions
from coach.web.shared.practice.hands import SEAT
from tests.support.practice import deal_one, form_of, state
from tests.support.teaching import post


def to_first_left(app, client) -> int:
    hand_id = deal_one(client)
    for _ in range(2):
        hand = state(app, hand_id)
        assert hand.step in ("first-right", "first-across")
        response = post(client, f"/play/{hand_id}/act", form_of(legal_actions(hand, SEAT)[0]))
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


def test_C5_a_blind_pass_from_the_form_never_puts_the_forwarded_tiles_in_your_rack(app, client):
    hand_id = to_first_left(app, client)
    before = state(app, hand_id)
    rack = Counter(before.racks[SEAT])
    mine = next(t for t in before.racks[SEAT] if t != tiles.JOKER)
    response = post(client, f"/play/{hand_id}/act", {"kind": "pass", "tiles": [tiles.CODES[mine]], "blind": "2"})
    assert response.status_code == 303
    after = state(app, hand_id)
    assert after.step == "vote" or after.phase == "play"
    east = [a for a in after.actions if a.seat == SEAT and a.kind == "pass"][-1]
    assert east.blind == 2 and east.tiles == (tiles.CODES[mine],)
    kept = after.received[SEAT]
    assert len(kept) == 1 and Counter(after.racks[SEAT]) == rack - Counter([mine]) + Counter(kept)
    page = client.get(f"/play/{hand_id}").get_data(as_text=True)
    assert f"You passed {tiles.name(mine)} and sent on 2 of the tiles coming to you, unseen." in page


def test_C5_the_api_state_shows_only_the_tiles_that_entered_your_rack(client):
    state = client.post("/api/hands", json={"seed": 4242, "bots": "club"}).get_json()
    hand_id = state["id"]
    while state["step"] != "first-left":
        state = client.post(f"/api/hands/{hand_id}/actions", json={"action": state["legal"][0]}).get_json()
    assert {a.get("blind", 0) for a in state["legal"]} == {0, 1, 2, 3}
    everything_blind = next(a for a in state["legal"] if a.get("blind") == 3)
    assert everything_blind == {"seat": SEAT, "kind": "pass", "blind": 3}
    rack = state["rack"]
    state = client.post(f"/api/hands/{hand_id}/actions", json={"action": everything_blind}).get_json()
    # All three went on unseen: nothing entered the rack, and nothing is shown as received.
    assert state["received"] == [] and state["rack"] == rack
    assert state["step"] == "vote" and state["owed"] == "vote"

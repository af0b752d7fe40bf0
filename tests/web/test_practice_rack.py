"""Your rack at the practice table as the server sends it (issue 16, part 3):
a list of named tiles sorted by suit, which is the order a page without
JavaScript shows; the tools to reorder it come hidden, for rack.js to show,
and the server never reads an order (a pass names tiles in any order)."""

from __future__ import annotations

import random
import re

from sqlmodel import Session

from coach.notation import tiles
from coach.play.bots import decide
from coach.play.hand import Action
from tests.support.practice import deal_one, form_of, hand_row, state
from tests.support.teaching import post


def rack_items(page: str) -> list[tuple[str, str]]:
    found = re.search(r'<ul class="play-rack[^"]*"[^>]*>(.*?)</ul>', page, re.S)
    assert found, "the rack is a list"
    return re.findall(r'<li class="play-rack__slot" data-code="([^"]+)" data-name="([^"]+)"', found.group(1))


def test_the_rack_is_a_list_sorted_by_suit_with_its_tools_hidden(app, client):
    hand_id = deal_one(client)
    page = client.get(f"/play/{hand_id}").get_data(as_text=True)
    items = rack_items(page)
    hand = state(app, hand_id)
    codes = [code for code, _ in items]
    assert sorted(codes) == sorted(tiles.CODES[t] for t in hand.racks["East"])
    assert codes == sorted(codes, key=tiles.sort_key)  # without JavaScript: sorted by suit
    assert all(name == tiles.name(code) for code, name in items)
    assert re.search(rf'aria-label="Your rack, {len(codes)} tiles"', page)
    assert re.search(r'<div class="play-rackbar" data-rack-tools hidden>', page)  # rack.js shows it
    assert 'id="rack-news"' in page and 'aria-live="polite"' in page


def test_a_pass_names_its_tiles_in_any_order(app, client):
    hand_id = deal_one(client)
    hand = state(app, hand_id)
    rack = sorted((tiles.CODES[t] for t in hand.racks["East"] if tiles.CODES[t] != "J"), key=tiles.sort_key)
    chosen = [rack[-1], rack[0], rack[5]]  # not in the rack's order
    response = post(client, f"/play/{hand_id}/act", {"kind": "pass", "tiles": chosen, "blind": "0", "move": "0"})
    assert response.status_code == 303
    after = state(app, hand_id)
    assert after.step == "first-across"
    east = [a for a in after.actions if a.seat == "East" and a.kind == "pass"]
    assert len(east) == 1 and sorted(east[0].tiles) == sorted(chosen)


def test_a_won_hand_lays_out_the_winners_tiles(app, client):
    """Once over, the winner's hand is shown as at a real table: exposures and concealed tiles."""
    hand_id = deal_one(client)
    row = hand_row(app, hand_id)
    with Session(app.extensions["store"]) as session:  # a seed whose hand someone wins (test only)
        row.seed, row.actions = 10, "[]"
        session.add(row)
        session.commit()
    assert state(app, hand_id).seed == 10
    rng = random.Random(0)
    for _ in range(400):
        hand = state(app, hand_id)
        if hand.phase == "over":
            break
        action: Action = decide(hand, "East", "club", rng)
        assert post(client, f"/play/{hand_id}/act", form_of(action, hand)).status_code == 303
    hand = state(app, hand_id)
    assert hand.result is not None and hand.result.winner, "seed 10 no longer ends in a win: pick another"
    page = client.get(f"/play/{hand_id}").get_data(as_text=True)
    whose = "Your" if hand.result.winner == "East" else f"{hand.result.winner}&#39;s"
    assert f'aria-label="{whose} winning hand"' in page
    concealed = re.search(rf'aria-label="{whose} concealed tiles"[^>]*>(.*?)</div>', page, re.S)
    assert concealed
    shown = re.findall(r'<img src="[^"]*" alt="([^"]+)"', concealed.group(1))
    assert shown == [tiles.name(c) for c in sorted((tiles.CODES[t] for t in hand.racks[hand.result.winner]), key=tiles.sort_key)]

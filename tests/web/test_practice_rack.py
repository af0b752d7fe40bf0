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
    winner = hand.result.winner
    whose = "Your" if winner == "East" else f"{winner}&#39;s"
    payment = hand.result.payment
    assert payment is not None and payment.line is not None and payment.reading is not None
    laid = re.search(rf'<ol class="play-laid" aria-label="{whose} winning hand, as {re.escape(payment.line.id)} reads">(.*?)</ol>', page, re.S)
    assert laid, "the winning hand is not laid out as its line reads"
    groups = re.findall(r'role="group" aria-label="([^"]+)">(.*?)</span>\s*<span class="play-laid__label"', laid.group(1), re.S)
    assert len(groups) == len(payment.reading.parts)  # one box per printed token of the line, in its order
    shown = [re.findall(r'alt="([^"]+)"', body) for _, body in groups]
    printed = [[tiles.name(t) for t in part.tiles] for part in payment.reading.parts]
    for names, want in zip(shown, printed):  # each token's tiles, a joker standing in its own group (J1)
        assert [w if n.startswith("Joker, as ") else n for n, w in zip(names, want)] == want
        assert all(n == "Joker, as " + w for n, w in zip(names, want) if n.startswith("Joker"))
    held = sorted(tiles.name(t) for t in hand.holding(winner).all_tiles())
    assert sorted("Joker" if n.startswith("Joker") else n for names in shown for n in names) == held

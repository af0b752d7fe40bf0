"""Practice hands over the test client: deal one, read its state and its forms."""

from __future__ import annotations

import re

from sqlmodel import Session

from coach.play.hand import Action, Hand, replay
from coach.play.seen import move_number
from coach.store.models import PracticeHand
from tests.support.teaching import post


def hand_row(app, hand_id: int) -> PracticeHand:
    with Session(app.extensions["store"]) as session:
        row = session.get(PracticeHand, hand_id)
        assert row is not None
        return row


def deal_one(client, bots: str = "club") -> int:
    response = post(client, "/play", {"bots": bots})
    assert response.status_code == 303
    match = re.fullmatch(r"/play/(\d+)", response.headers["Location"])
    assert match
    return int(match.group(1))


def state(app, hand_id: int):
    row = hand_row(app, hand_id)
    import json

    return replay(app.extensions["coach"].card, row.seed, [Action.from_json(a) for a in json.loads(row.actions)])


def move_of(app, hand_id: int) -> str:
    """The move number the table's forms carry now (the learner's moves so far)."""
    return str(move_number(state(app, hand_id), "East"))


def form_of(action: Action, hand: Hand) -> dict:
    """The table's form for `action`, chosen on `hand` as it stands (its move number with it)."""
    data: dict = {"kind": action.kind, "move": str(move_number(hand, "East"))}
    if action.kind in ("pass", "courtesy"):
        data["tiles"] = list(action.tiles)
        data["blind"] = str(action.blind)
    elif action.kind in ("discard", "exchange"):
        data["tile"] = action.tiles[0]
        if action.kind == "exchange":
            data.update(owner=action.owner, group=str(action.group))
    elif action.kind == "vote":
        data["go"] = "1" if action.go else "0"
    elif action.kind == "offer":
        data["count"] = str(action.count)
    elif action.kind == "call":
        data["size"] = str(action.size)
    return data

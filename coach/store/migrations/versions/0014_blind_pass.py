"""Practice hands stored before the blind pass was made right (C5, issue 24)
replay the same tiles under the new rule.

The old engine's "blind" pass sent on `blind` of the tiles received in the
PREVIOUS pass, which were already in the rack and shown to the player, plus
3 - blind of the player's own: three tiles of the rack, seen. That is an
ordinary pass. Under the rule as it is now, `blind` counts tiles coming in
the SAME pass, sent on unseen, so an old record would replay differently
(or not at all). Each old blind pass is therefore rewritten as the plain
pass it was: its tiles are the tiles it really moved, in the order the old
engine moved them (the forwarded ones first), and `blind` goes. Every
stored hand, finished or not, then replays to exactly the racks, discards
and result it had; its review and its replay positions still open (their
numbering is unchanged, as no action is added or removed). A review kept
for a rewritten hand (0013_hand_reviews) is dropped: it was graded on the
old record read by the new rule, and the same number of moves would pass it
as current; the hand is reviewed again, from its rewritten record, when
next looked at.

The tiles forwarded are known from the actions alone: on the old engine the
last pass of a Charleston could only forward what the across pass before it
brought, and an across pass is never blind, so they are the first `blind`
tiles of the across pass the seat received (from the seat opposite).

Written out here, not imported: the engine may change later, this must not.

Revision ID: 0014_blind_pass
Revises: 0013_hand_reviews
Create Date: 2026-12-02
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0014_blind_pass"
down_revision = "0013_hand_reviews"
branch_labels = None
depends_on = None

SEATS = ("East", "South", "West", "North")
# The six Charleston passes in order (C1, C2): four "pass" actions each.
PASS_STEPS = ("first-right", "first-across", "first-left", "second-left", "second-across", "second-right")
BEFORE = {"first-left": "first-across", "second-right": "second-across"}  # the old blind passes and what they forwarded


def plain_passes(actions: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The actions with every old-style blind pass made the plain pass it
    was; None when there is none (the record means the same either way)."""
    sent: dict[tuple[str, str], list[str]] = {}
    out: list[dict[str, Any]] = []
    changed = False
    passes = 0
    for action in actions:
        if not isinstance(action, dict) or action.get("kind") != "pass" or passes >= 4 * len(PASS_STEPS):
            out.append(action)
            continue
        step = PASS_STEPS[passes // 4]
        passes += 1
        seat = action.get("seat")
        own = list(action.get("tiles", []))
        blind = action.get("blind", 0)
        if blind and step in BEFORE and seat in SEATS:
            across = SEATS[(SEATS.index(seat) - 2) % 4]  # C1, C2: the across pass came from the seat opposite
            got = sent.get((BEFORE[step], across), [])
            action = {k: v for k, v in action.items() if k != "blind"} | {"tiles": got[:blind] + own}
            changed = True
        sent[(step, str(seat))] = list(action.get("tiles", []))
        out.append(action)
    return out if changed else None


def upgrade() -> None:
    bind = op.get_bind()
    hands = sa.table("practice_hand", sa.column("id", sa.Integer), sa.column("actions", sa.Text))
    reviews = sa.table("hand_review", sa.column("hand_id", sa.Integer))
    rows = bind.execute(sa.select(hands.c.id, hands.c.actions).where(hands.c.actions.like('%"blind"%'))).all()
    for hand_id, text in rows:
        try:
            actions = json.loads(text or "[]")
        except ValueError:
            continue  # not a record this migration can read: left as it is
        if not isinstance(actions, list):
            continue
        rewritten = plain_passes(actions)
        if rewritten is not None:
            bind.execute(
                hands.update().where(hands.c.id == hand_id).values(actions=json.dumps(rewritten, separators=(",", ":")))
            )
            bind.execute(reviews.delete().where(reviews.c.hand_id == hand_id))


def downgrade() -> None:
    # The rewritten passes are what the old engine did, so older code replays them the same: nothing to undo.
    pass

"""The practice hands' JSON API (issue 16, part 7), as the drills' (api.py).

    POST /api/hands                     {"seed"?, "bots"?, "card"?} -> 201 {"id", ...state}
    GET  /api/hands/<id>                the state as the learner (East) sees it
    POST /api/hands/<id>/actions        {"action": <one of "legal">, "move": <the state's "move">}
                                        -> the state after the computer players moved
    GET  /api/hands/<id>/review         once over: 202 {"status", "done", "total"} while the review is
                                        computed (poll again), then 200 {"decisions": [...], "summary": {...}}

While the hand is played a state shows what a player in East's seat sees
and nothing else (coach/play/seen.py): never the other racks, the tiles
others passed, another seat's silent "no call" (only seats that could call
are asked, so a "no" would give their rack away), or the wall's order (nor
the seed, which would give the wall away). Once the hand is over it adds
"record": every action of the hand, each seat's passes and no-calls
included, for study (the seed stays hidden). A state carries "legal",
every action the learner may take now (coach/play/legal.py) in the form to
post back, and "move", the number of the learner's moves so far: an action
carries it back, and one sent with another number (a double tap, a retry)
answers 409 with {"error", "state"}, the hand unchanged; one sent without
it is a 400. An action not in that list answers 400 with {"error",
"rule"}: the rule id that forbids it. Everything else follows
api.py: JSON bodies only (so no CSRF token), {"error"} on every error,
the drills' rate limits, guests made on the first new hand. Someone
else's hand is a 404, as on the /play pages, whose load/keep cache and
computer players this shares (coach/web/shared/practice/hands.py).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, jsonify

from coach.notation import tiles
from coach.play.bots import STRENGTHS
from coach.play.hand import Action, Hand, HandError
from coach.play.legal import legal_actions
from coach.play.review import BEST, GOOD, INACCURACY, MISTAKE
from coach.play.seen import move_number, next_tile, seen_actions
from coach.rules.table_rules import LEAGUE
from coach.store import hands as store
from coach.store.models import PracticeHand
from coach.store.teaching import teachers_cards
from coach.web.api.drills import BodyError, read_body
from coach.web.infra import database, limits
from coach.web.infra.errors import error_response
from coach.web.infra.inputs import MAX_DB_INT, whole_number
from coach.web.shared import learners
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.shared.drilling import DrillError
from coach.web.shared.practice import moves as practice_moves
from coach.web.shared.practice.hands import (
    SEAT,
    STEP_WORDS,
    codes,
    describe_move,
    house_card,
    keep,
    load,
    own_hand,
)
from coach.web.shared.practice.reviews import FAILED, start_review
from coach.web.shared.table_rules import rules_of

bp = Blueprint("hands_api", __name__, url_prefix="/api/hands")
ACTION_KEYS = {"seat", "kind", "tiles", "blind", "go", "count", "size", "owner", "group", "place"}
GRADE_NAMES = (BEST, GOOD, INACCURACY, MISTAKE)
LAST_MOVES = 40  # the moves shown since the learner's own last one, at most


def install(app: Flask) -> None:
    app.register_blueprint(bp)
    app.extensions["csrf"].exempt(bp)  # JSON bodies only, as the drills' API


@bp.errorhandler(DrillError)
def _body_error(error: DrillError):
    return error_response(error.message, error.status)


@bp.errorhandler(HandError)
def _refused(error: HandError):
    return jsonify(error=error.message, rule=error.rule), 400


# -- what the learner sees ---------------------------------------------------------------


def _public(hand: Hand, number: int) -> dict[str, Any]:
    """One move as the learner may see it: others' passed tiles stay hidden,
    and so does a vote or offer until every seat has given theirs."""
    action = hand.actions[number]
    mine = action.seat == SEAT
    if not mine and action.kind in ("pass", "courtesy"):
        move: dict[str, Any] = {"seat": action.seat, "kind": action.kind, "count": len(action.tiles) + action.blind}
    elif not mine and hand.passes.get(action.seat) is action:
        move = {"seat": action.seat, "kind": action.kind}
    else:
        move = action.to_json()
        words = describe_move(hand, number)
        if words:
            move["words"] = words
    return move


def _last_moves(hand: Hand) -> list[dict[str, Any]]:
    """The moves the learner saw since their own last one (the computer players'
    answer to it): never another seat's silent no-call (coach/play/seen.py)."""
    seen = seen_actions(hand, SEAT, max(0, len(hand.actions) - 4 * LAST_MOVES))
    start = len(seen)
    while start > 0 and hand.actions[seen[start - 1]].seat != SEAT and len(seen) - start < LAST_MOVES:
        start -= 1
    return [_public(hand, n) for n in seen[start:]]


def state(hand: Hand, row: PracticeHand) -> dict[str, Any]:
    owed = hand.waiting().get(SEAT)
    out: dict[str, Any] = {
        "id": row.id,
        "card": row.card,
        "bots": row.bots,
        "seat": SEAT,
        "phase": hand.phase,
        "step": hand.step or None,
        "step_words": STEP_WORDS.get(hand.step) if owed else None,
        "turn": hand.turn if hand.phase == "play" and hand.latest is None else None,
        "owed": owed,
        "wall": len(hand.wall),
        "rack": codes(hand.racks[SEAT]),
        "received": [tiles.TABLE_CODES[t] for t in hand.received[SEAT]],
        "courtesy": hand.courtesy.get(SEAT, 0),
        "seats": [
            {
                "seat": seat,
                "tiles": len(hand.racks[seat]),
                "exposures": [list(e.as_exposure().codes) for e in hand.exposed[seat]],
                "discards": [tiles.TABLE_CODES[t] for s, t in hand.discards if s == seat],  # a blank too (TR1)
            }
            for seat in hand.seats  # the seats in play: three at a three-player table (TR4)
        ],
        "latest": {"seat": hand.latest[0], "tile": tiles.TABLE_CODES[hand.latest[1]]} if hand.latest else None,
        "move": move_number(hand, SEAT),
        "last_moves": _last_moves(hand),
        "hints": row.hints,
        "legal": [a.to_json() for a in legal_actions(hand, SEAT)],
        "over": hand.phase == "over",
    }
    if hand.rules != LEAGUE:  # the table rules it is played under, when not the League's
        out["table_rules"] = hand.rules.to_json()
    ahead = next_tile(hand, SEAT)
    if ahead is not None:  # TR5: the next wall tile, which you picked ahead
        out["next_tile"] = tiles.CODES[ahead]
    if hand.phase == "over":
        record = hand.record()
        out["result"] = record["result"]
        out["record"] = record["actions"]  # over: the whole hand may be studied, as racks are shown at the end
    return out


# -- reading a body -------------------------------------------------------------------------


def _new_hand_body() -> tuple[int | None, str, int | None]:
    data = read_body({"seed", "bots", "card"})
    seed, bots, card = data.get("seed"), data.get("bots"), data.get("card")
    if seed is not None:
        seed = whole_number(seed)  # 7 or 7.0, as JSON Schema's "integer"
        if seed is None or not 0 <= seed <= MAX_DB_INT:
            raise BodyError(f'"seed" must be null or a whole number from 0 to {MAX_DB_INT}')
    if bots is None:
        bots = "club"
    if bots not in STRENGTHS:
        raise BodyError(f'"bots" must be one of {", ".join(STRENGTHS)}')
    if card is not None:
        card = whole_number(card)
        if card is None or not 0 < card <= MAX_DB_INT:
            raise BodyError('"card" must be null (the house card) or the number of a card you may drill on')
    return seed, bots, card


def posted_action(
    seat: str, whose: str, listed: str, others: str, seat_given: bool = False,
) -> tuple[Action, int]:
    """The action posted for `seat` and the move number it was chosen on: the practice
    hands' API and the tables' read a move alike. `whose` names where the move number
    was read ("state", "hand"), `listed` the list of moves offered ('"legal"'),
    `others` who else moves; with `seat_given` an action without a seat is `seat`'s."""
    data = read_body({"action", "move"})
    offered = f"{listed} actions" if listed == '"legal"' else listed
    if "action" not in data:
        raise BodyError(f'"action" is missing: send one of the {whose}\'s {offered} as it is')
    move = data.get("move")
    if move is None:
        raise BodyError(f'"move" is missing: send the {whose}\'s "move" with the action, so a repeated action is never played twice')
    move = whole_number(move)
    if move is None or not 0 <= move <= MAX_DB_INT:
        raise BodyError(f'"move" is the {whose}\'s "move": a whole number from 0')
    raw = data["action"]
    if not isinstance(raw, dict):
        raise HandError('"action" is an object such as {"seat": "East", "kind": "discard", "tiles": ["5D"]}', "H1")
    unknown = sorted(str(k)[:20] for k in set(raw) - ACTION_KEYS)
    if unknown:
        raise HandError(f'an action has no key "{unknown[0]}": send it as the {listed} list gives it', "H1")
    action = Action.from_json({**raw, "seat": raw.get("seat", seat)} if seat_given else raw)
    if action.seat != seat:
        raise HandError(f"you play {seat}: {others} make their own moves", "S5")
    return action, move


def _posted_action() -> tuple[Action, int]:
    """The action posted and the move number it was chosen on."""
    return posted_action(SEAT, "state", '"legal"', "the computer players")


def _looked_at(hand_id: int) -> tuple[PracticeHand, Hand]:
    """The learner's hand as it stands (404 for anyone else's), left unchanged."""
    with database.reading() as session:
        row = own_hand(session, hand_id)
        hand = load(row)
        keep(row, hand)
        return row, hand


# -- routes ----------------------------------------------------------------------------------


@bp.post("")
@limits.drilling
def new_hand():
    seed, bots, card_id = _new_hand_body()
    with database.writing() as session:
        learner = learners.current_learner(session)
        card = house_card()  # the house card, unless the learner names one they may use (as the drills' own cards)
        if card_id is not None:
            found = teachers_cards.may_use_card(session, learner.id if learner is not None else None, card_id)
            if found is None:
                return error_response(f"there is no card {card_id} among the cards you may play on", 400)
            card = teacher_cards.card_of(found)
        learner = learner or learners.current_learner(session, create=True)
        assert learner is not None and learner.id is not None
        if store.open_hands(session, learner.id) >= store.MAX_OPEN:
            return error_response(f"you have {store.MAX_OPEN} hands going: finish one first", 409)
        row = store.new_hand(session, learner.id, card.name, bots, seed, rules=rules_of(session, learner))  # the learner's own
        hand = load(row)
        practice_moves.advance(session, row, hand)
        return jsonify(state(hand, row)), 201


@bp.get("/<int:hand_id>")
def show(hand_id: int):
    row, hand = _looked_at(hand_id)
    return jsonify(state(hand, row))


@bp.post("/<int:hand_id>/actions")
@limits.drilling
def act(hand_id: int):
    with database.reading() as session:
        row = own_hand(session, hand_id)
        hand = load(row)
        try:
            action, move = _posted_action()
        except (HandError, DrillError):
            keep(row, hand)  # unchanged
            raise
        try:
            practice_moves.play(session, row, hand, action, move)  # a refusal is a HandError: 400 with its rule
        except practice_moves.StaleMove as stale:
            return jsonify(error=str(stale), state=state(hand, row)), 409
        except store.HandMoved:
            session.expire_all()
            row = own_hand(session, hand_id)
            hand = load(row)
            keep(row, hand)
            return jsonify(
                error="the hand moved on in another request before this action arrived: here it is now; choose again",
                state=state(hand, row),
            ), 409
        return jsonify(state(hand, row))


@bp.get("/<int:hand_id>/review")
@limits.drilling
def review_of(hand_id: int):
    """The review, computed once in the background (practice/reviews.py): 202 with how
    far it has got until it is done, never graded in this request."""
    row, hand = _looked_at(hand_id)
    if hand.phase != "over":
        return error_response("the review comes once the hand is over: play on", 409)
    assert row.id is not None
    state = start_review(row.id)
    if state.status == FAILED:
        body, status = error_response("the review could not be made just now: it is tried again in a few minutes", 503)
        return body, status, {"Retry-After": "600"}
    found = state.review
    if found is None:
        return jsonify(state.to_json()), 202, {"Retry-After": "1"}
    return jsonify(
        decisions=[d.to_json() for d in found.decisions],
        summary={
            "accuracy": round(found.accuracy, 3),
            "decisions": len(found.decisions),
            "grades": {grade: sum(1 for d in found.decisions if d.grade == grade) for grade in GRADE_NAMES},
            "costliest": [d.number for d in found.costliest()],
            "winner": found.winner,
            "line": found.line,
            "hints": row.hints,
        },
    )

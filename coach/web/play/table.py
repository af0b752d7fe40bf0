"""Play a practice hand against three computer players, then its review.

    GET  /play                      your hands, and a new one
    POST /play                      deal a new hand (the bots' strength)
    GET  /play/<id>                 the table
    POST /play/<id>/act             your move (a pass, vote, offer, call, exchange, discard, Mah Jongg)
    POST /play/<id>/hint            "What would the coach do?" (counted)
    GET  /play/<id>/review          every decision you made, graded against the coach's (how far the
                                    review has got while it is computed; htmx polls it for its partial)
    GET  /play/<id>/review/summary  the end of the table: the review in one line, or how far it has got (htmx)

The hand is its seed, its card and its actions (coach/play/hand.py): each
request rebuilds it (coach/web/shared/practice/hands.py) and
the server checks every move; the page never says what the hand is, and
shows only what a player in East's seat sees (coach/play/seen.py). Every
form carries the table's move number back: a move from a table that has
moved on (a double click, a retried post, an old tab) answers 409 with the
table as it stands now and a short note, nothing played. Forms post
without JavaScript too; htmx swaps the table in place, a 409 included.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for

from coach.notation import tiles
from coach.play.bots import STRENGTHS
from coach.play.hand import MAH_JONGG, Action, Hand, HandError
from coach.play.review import hint as coach_hint
from coach.play.seat_view import seat_rows
from coach.play.seen import move_number, next_tile, seen_by
from coach.rules.charleston import BLIND_PASSES, may_pass_joker
from coach.rules.mahjong import lay_out, winning_lines
from coach.store import hands as store
from coach.store.models import PracticeHand
from coach.store.table_rules import hand_rules
from coach.web.infra import database, limits
from coach.web.infra.htmx import is_htmx, render
from coach.web.shared import learners
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
from coach.web.shared.practice.reviews import start_review
from coach.web.shared.table_rules import rules_of

bp = Blueprint("practice", __name__)

MOVED = "This hand moved on in another tab or window before your move arrived: here it is as it stands now."
NO_NUMBER = "Your move came without the table's move number, so it was not played: choose it again on the table below."

# -- the page's view of the table ---------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    name: str
    you: bool
    tiles_held: int
    exposures: list[list[str]]
    discards: list[str]
    on_turn: bool


def view(hand: Hand, row: PracticeHand) -> dict[str, Any]:
    owed = hand.waiting().get(SEAT)
    seats = [Seat(**row) for row in seat_rows(hand, SEAT)]  # the rows a live table's seats see too (TR1, TR4)
    latest = None
    if hand.latest is not None:
        latest = {"seat": hand.latest[0], "tile": tiles.TABLE_CODES[hand.latest[1]]}
    calls = []
    if owed == "call":
        for purpose, size in hand.may_call.get(SEAT, []):
            label = "Mah Jongg!" if purpose == MAH_JONGG else {3: "Call for a pung", 4: "Call for a kong", 5: "Call for a quint", 6: "Call for a sextet"}.get(size, f"Call for {size}")
            calls.append({"size": size, "label": label, "mahjong": purpose == MAH_JONGG})
    exchanges = [
        {"owner": owner, "group": group, "tile": tiles.CODES[tile]} for owner, group, tile in hand.exchanges(SEAT)
    ] if owed == "turn" else []
    swaps = [  # TR1: a blank from the rack for a tile of the discards
        {"place": place, "tile": tiles.CODES[tile], "seat": hand.discards[place][0]} for place, tile in hand.blank_swaps(SEAT)
    ] if owed == "turn" else []
    ahead = next_tile(hand, SEAT)  # TR5: the next wall tile, when East picked ahead
    can_win = owed == "turn" and bool(winning_lines(hand.card, hand.holding(SEAT)))
    log = [describe_move(hand, n) for n in _log_window(hand) if seen_by(hand, SEAT, n)]
    result = hand.result
    return {
        "row": row,
        "hand": hand,
        "table_rules": hand.rules,
        "swaps": swaps,
        "next_tile": tiles.CODES[ahead] if ahead is not None else None,
        "last_wall": hand.phase == "play" and hand.in_last_wall and hand.rules.wall_end,  # TR2: "cold" or "hot" there
        "joker_ok": owed == "courtesy" and bool(may_pass_joker("courtesy", hand.rules.joker_in_courtesy)),  # TR3
        "owed": owed,
        "move": move_number(hand, SEAT),
        "step_words": STEP_WORDS.get(hand.step, ""),
        "seats": seats,
        "you": next(s for s in seats if s.you),
        "rack": codes(hand.racks[SEAT]),
        "blind_ok": owed == "pass" and hand.step in BLIND_PASSES,
        "courtesy_count": hand.courtesy.get(SEAT, 0),
        "latest": latest,
        "calls": calls,
        "exchanges": exchanges,
        "can_win": can_win,
        "wall": len(hand.wall),
        "log": [line for line in log if line],
        "result": result,
        "line": result.payment.line if result and result.payment else None,
        "winner_rack": codes(hand.racks[result.winner]) if result and result.winner else [],  # shown once over, as at a table
        "winning": _laid(hand),
    }


def _laid(hand: Hand) -> tuple:
    """The winner's 14 tiles grouped as the winning line reads, jokers in their groups (H1, J1)."""
    result = hand.result
    if result is None or result.winner is None or result.payment is None or result.payment.reading is None:
        return ()
    try:
        return lay_out(hand.holding(result.winner), result.payment.reading)
    except ValueError:  # cannot happen for a win the engine scored; the plain layout then stands in
        return ()


LOG_CAP = 16  # a table shows what happened since your move; a few turns at most, bounded anyway


def _log_window(hand: Hand) -> range:
    """The actions to tell: from your own last move on, so the table always says what
    you did before what the others did after it (a call can follow a throw by several
    moves), at least the last eight, and never more than LOG_CAP."""
    end = len(hand.actions)
    for n in range(end - 1, max(-1, end - LOG_CAP - 1), -1):
        if hand.actions[n].seat == SEAT and describe_move(hand, n):
            return range(min(n, max(0, end - 8)), end)
    return range(max(0, end - LOG_CAP), end)


def _render(hand: Hand, row: PracticeHand, status: int = 200, **extra: Any):
    context = view(hand, row) | extra
    if hand.phase == "over" and row.id is not None:
        context["review_state"] = start_review(row.id)  # started when the hand ended; here if it never was
    return render("play/table.html", "partials/play_table.html", **context), status


# -- routes --------------------------------------------------------------------------------


@bp.get("/play")
def home():
    with database.reading() as session:
        learner = learners.current_learner(session)
        rows = store.hands_of(session, learner.id) if learner is not None and learner.id is not None else []
        return render_template(
            "play/home.html", rows=rows, strengths=STRENGTHS, results={r.id: json.loads(r.result) for r in rows},
            table_rules=rules_of(session, learner), hand_rules={r.id: hand_rules(r) for r in rows},
        )


@bp.post("/play")
@limits.drilling
def new():
    strength = request.form.get("bots", "club")
    if strength not in STRENGTHS:
        strength = "club"
    with database.writing() as session:
        learner = learners.current_learner(session, create=True)
        assert learner is not None and learner.id is not None
        if store.open_hands(session, learner.id) >= store.MAX_OPEN:
            rows = store.hands_of(session, learner.id)
            return render_template(
                "play/home.html", rows=rows, strengths=STRENGTHS, results={},
                problem=f"You have {store.MAX_OPEN} hands going: finish one first.",
                table_rules=rules_of(session, learner), hand_rules={r.id: hand_rules(r) for r in rows},
            ), 422
        row = store.new_hand(session, learner.id, house_card().name, strength, rules=rules_of(session, learner))  # the learner's own rules
        practice_moves.advance(session, row, load(row))
        return redirect(url_for("practice.table", hand_id=row.id), 303)


@bp.get("/play/<int:hand_id>")
def table(hand_id: int):
    with database.reading() as session:
        row = own_hand(session, hand_id)
        hand = load(row)
        keep(row, hand)
        return _render(hand, row)


def _whole(name: str, default: int = 0) -> int:
    raw = request.form.get(name, "")
    return int(raw) if raw.isdigit() and len(raw) < 4 else default


def action_from_form() -> Action:
    """The learner's move as the form sent it; HandError names what is wrong."""
    kind = request.form.get("kind", "")
    picked = request.form.getlist("tiles")[:14] or ([request.form["tile"]] if request.form.get("tile") else [])
    try:
        codes = tuple(tiles.table_code_of(c) for c in picked)  # a blank too (TR1): the engine says where it may go
    except ValueError:
        raise HandError("that is not a tile of the set", "T1") from None
    owner = request.form.get("owner", "")
    return Action(
        SEAT, kind, codes, blind=_whole("blind"), go=request.form.get("go", "1") == "1", count=_whole("count"),
        size=_whole("size"), owner=owner if owner in tiles.SEATS else "", group=_whole("group"), place=_whole("place"),
    )


@bp.post("/play/<int:hand_id>/act")
@limits.drilling
def act(hand_id: int):
    with database.reading() as session:
        row = own_hand(session, hand_id)
        hand = load(row)
        move = request.form.get("move", "")
        if not (move.isdigit() and len(move) < 10):
            keep(row, hand)  # unchanged
            return _render(hand, row, 400, problem=NO_NUMBER)
        try:
            action = action_from_form()
        except HandError as error:
            keep(row, hand)  # unchanged
            return _render(hand, row, 422, problem=f"{error.message} ({error.rule})")
        try:
            practice_moves.play(session, row, hand, action, int(move))  # the API's own move: checked legal first
        except practice_moves.StaleMove:
            return _render(hand, row, 409, problem=practice_moves.ALREADY_PLAYED)
        except HandError as error:
            return _render(hand, row, 422, problem=f"{error.message} ({error.rule})")
        except store.HandMoved:
            session.expire_all()
            row = own_hand(session, hand_id)
            return _render(load(row), row, 409, problem=MOVED)
        if is_htmx():
            return _render(hand, row)
        return redirect(url_for("practice.table", hand_id=hand_id), 303)


@bp.post("/play/<int:hand_id>/hint")
@limits.drilling
def hint(hand_id: int):
    """The coach's move for this moment, with its reason; each press is counted."""
    with database.reading() as session:
        row = own_hand(session, hand_id)
        hand = load(row)
        if SEAT not in hand.waiting():
            keep(row, hand)
            return _render(hand, row, 200, advice="Nothing to decide just now: the others are playing.")
        _, advice = coach_hint(hand, SEAT)  # the coach's one evaluation, as the review grades
        store.add_hint(session, row)
        keep(row, hand)
        return _render(hand, row, 200, advice=advice)


@bp.get("/play/<int:hand_id>/review")
def review_page(hand_id: int):
    """The review once it is computed (practice/reviews.py: never here), else how far it has
    got; htmx polls this address and gets the partial, the finished review when it is."""
    with database.reading() as session:
        row = own_hand(session, hand_id)
        hand = load(row)
        keep(row, hand)
        if hand.phase != "over":
            return redirect(url_for("practice.table", hand_id=hand_id), 303)
        line = view(hand, row)["line"]
    state = start_review(hand_id)
    page = render("play/review.html", "partials/review_live.html", row=row, hand=hand, state=state, line=line)
    return page, 200, {"Vary": "HX-Request"}  # one address, two answers: a cache must keep them apart


@bp.get("/play/<int:hand_id>/review/summary")
def review_summary(hand_id: int):
    """The table's end: the review in one line once done, else its progress (htmx polls it)."""
    with database.reading() as session:
        row = own_hand(session, hand_id)
        # The table shows the end from the replayed hand: so does this, or a hand over but not
        # yet stamped would send the poll to the table, swapped in where the summary goes.
        finished = row.finished_at is not None or load(row).phase == "over"
    if not is_htmx() or not finished:
        return redirect(url_for("practice.table", hand_id=hand_id), 303)
    return render_template("partials/review_summary.html", row=row, review_state=start_review(hand_id))

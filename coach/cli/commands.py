"""The commands that answer one request (analyze, score, pass, discard): how
each solves it, and its answer as JSON and as text. Each imports the core
module it uses when run: a quick start (issue 13)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from coach.cli.requests import exposures_field, request_holding, request_seed
from coach.cli.text import render_analysis
from coach.notation import tiles
from coach.notation.card import Card
from coach.rules.charleston import PASSES

if TYPE_CHECKING:
    from coach.advice.discard import DiscardAdvice
    from coach.advice.passes import PassAdvice
    from coach.reading.analysis import Analysis
    from coach.rules.mahjong import Payment


@dataclass(frozen=True)
class Command:
    """A command that answers one request: from flags, or per JSON line in batch."""

    keys: frozenset[str]
    solve: Callable[[Card, dict], object]
    to_json: Callable[[object], dict]
    render: Callable[[object, argparse.Namespace], str]


def _solve_analyze(card: Card, request: dict) -> Analysis:
    from coach.reading.analysis import analyze

    holding, seen = request_holding(request, (13, 14))
    return analyze(card, holding, seen)


def _solve_score(card: Card, request: dict) -> Payment:
    from coach.rules.mahjong import WINS, score

    win = request.get("win")
    if win not in WINS:
        raise ValueError(f'"win" must be one of {", ".join(WINS)}')
    holding, _ = request_holding(request, (14,))
    return score(card, holding, win)


def _solve_pass(card: Card, request: dict) -> tuple[PassAdvice, list[str]]:
    from coach.advice.passes import evaluate_pass, explain_pass, stop_vote

    which = request.get("which") or "first-right"
    if which not in PASSES:
        raise ValueError(f'"which" must be one of {", ".join(PASSES)}')
    holding, seen = request_holding(request, (13, 14))
    if holding.exposures:
        raise ValueError("the Charleston comes before any exposure: give the rack only")
    advice = evaluate_pass(card, holding.rack_tiles(), which, seed=request_seed(request), seen=seen)
    explanation = explain_pass(advice, advice.best)
    if which == "second-left":  # before the second Charleston, anyone may stop it (C2)
        explanation = list(stop_vote(advice).explanation) + explanation
    return advice, explanation


def _pass_json(result: object) -> dict:
    from coach.advice.passes import stop_vote

    advice, explanation = cast("tuple[PassAdvice, list[str]]", result)
    extra = {"stop": stop_vote(advice).stop} if advice.which == "second-left" else {}
    return {
        **extra,
        "which": advice.which,
        "best": advice.best.codes,
        "blind": advice.best.blind,
        "current": advice.current,
        "ranked": [
            {
                "tiles": o.codes,
                "blind": o.blind,
                "expected": round(o.expected, 4),
                "stderr": round(o.stderr, 4),
                "behind": round(o.behind, 4),
                "samples": o.samples,
                "flexibility": None if o.flexibility is None else round(o.flexibility, 2),
            }
            for o in advice.options
        ],
        "explanation": explanation,
    }


def _pass_text(result: object, args: argparse.Namespace) -> str:
    advice, explanation = cast("tuple[PassAdvice, list[str]]", result)
    direction = PASSES[advice.which][1]
    out = [f"{advice.which} pass ({direction}); you are {advice.current} tiles away now.", ""]
    out.append(f"{'pass':<34} {'expected':>8} {'± se':>6} {'behind':>7}")
    for o in advice.options[: args.top]:
        out.append(f"{o.label():<34} {o.expected:>8.2f} {o.stderr:>6.2f} {o.behind:>7.2f}")
    out.append("")
    out += [f"- {line}" for line in explanation]
    return "\n".join(out)


def _other_players(request: dict) -> list[list]:
    """Other players' exposures: one entry a player, groups split by "|" or given as a list."""
    from coach.reading.tiles_away import parse_exposure  # numpy: only when a command runs

    players = []
    for n, entry in enumerate(exposures_field(request, "others"), start=1):
        groups = entry.split("|") if isinstance(entry, str) else entry
        if not isinstance(groups, list):
            raise ValueError('"others" must list each player\'s exposures, e.g. ["5D 5D 5D | N N N"]')
        players.append([parse_exposure(g, n) for g in groups])
    return players


def _solve_discard(card: Card, request: dict) -> DiscardAdvice:
    from coach.advice.discard import advise_discard

    others = _other_players(request)
    shown = [c for player in others for e in player for c in e.codes]
    # The others' tiles join the supply check; the advisor counts them as seen itself.
    holding, seen = request_holding(request, (14,), extra_seen=shown)
    discards = list(seen)
    for code in shown:
        discards[tiles.INDEX[code]] -= 1
    late = request.get("late", False)
    if not isinstance(late, bool):
        raise ValueError('"late" must be true or false')
    return advise_discard(card, holding, discards, others, late=late)


def _discard_json(result: object) -> dict:
    advice = cast("DiscardAdvice", result)
    return {
        "best": tiles.CODES[advice.best.tile],
        "ranked": [
            {
                "tile": tiles.CODES[o.tile],
                "distance": o.distance,
                "live_outs": o.live_outs,
                "hot": o.hot,
                "safe": o.safe,
                "note": o.note,
            }
            for o in advice.options
        ],
        "explanation": list(advice.explanation),
    }


def _discard_text(result: object, args: argparse.Namespace) -> str:
    advice = cast("DiscardAdvice", result)
    out = [f"{'discard':<14} {'away':>4} {'outs':>5}  note"]
    for o in advice.options[: args.top]:
        flag = "HOT " if o.hot else ("safe " if o.safe else "")
        out.append(f"{tiles.name(o.tile):<14} {o.distance:>4} {o.live_outs:>5}  {flag}{o.note}".rstrip())
    out.append("")
    out += [f"- {line}" for line in advice.explanation]
    return "\n".join(out)


COMMANDS = {
    "analyze": Command(
        frozenset({"rack", "exposed", "seen"}),
        _solve_analyze,
        lambda r: cast("Analysis", r).to_json(),
        lambda r, args: render_analysis(cast("Analysis", r), 10 if args.top is None else args.top),
    ),
    "score": Command(
        frozenset({"rack", "exposed", "win"}),
        _solve_score,
        lambda r: cast("Payment", r).to_json(),
        lambda r, args: "\n".join(cast("Payment", r).explanation),
    ),
    "pass": Command(frozenset({"rack", "seen", "seed", "which"}), _solve_pass, _pass_json, _pass_text),
    "discard": Command(
        frozenset({"rack", "exposed", "seen", "others", "late"}), _solve_discard, _discard_json, _discard_text
    ),
}

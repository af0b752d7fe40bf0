"""Whether to stop the second Charleston (C2): its best pass must be expected
to gain enough."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from coach.advice.passes.evaluation import PassAdvice, evaluate_pass
from coach.notation.card import Card


@dataclass(frozen=True)
class StopVote:
    stop: bool
    gain: float  # tiles the best pass is expected to gain
    advice: PassAdvice
    explanation: tuple[str, ...]


STOP_BELOW = 0.25  # tiles: a smaller expected gain is not worth breaking a ready rack


def second_charleston_vote(card: Card, rack: Sequence[int], seed: int = 0, seen: Sequence[int] | None = None) -> StopVote:
    """Should this player stop the second Charleston (C2)?"""
    return stop_vote(evaluate_pass(card, rack, "second-left", seed=seed, seen=seen))


def stop_vote(advice: PassAdvice) -> StopVote:
    """Stop the second Charleston when its best pass is expected to gain too little (C2)."""
    gain = advice.current - advice.best.expected
    stop = gain < STOP_BELOW
    if stop and gain <= 0:
        text = (
            f"Stop the second Charleston: your rack is {advice.current} away and every pass is "
            "expected to leave you further away. Any one player may stop it (C2)."
        )
    elif stop:
        text = (
            f"Stop the second Charleston: your rack is {advice.current} away and even the best pass "
            f"is expected to gain only {gain:.2f} tiles. Any one player may stop it (C2)."
        )
    else:
        text = (
            f"Keep passing: the best pass ({advice.best.label()}) is expected to bring you "
            f"{gain:.1f} tiles closer than the {advice.current} you are now (C2)."
        )
    return StopVote(stop, gain, advice, (text,))

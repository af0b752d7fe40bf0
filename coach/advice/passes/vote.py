"""The votes of the Charleston, valued by the pass evaluation: whether to
stop the second Charleston (C2), and how many tiles to offer across in the
courtesy pass (C3). Each compares what the evaluation expects each choice
to leave, in tiles away, as a pass is graded."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from coach.advice.passes.evaluation import (
    MARGIN,
    EvaluationOptions,
    PassAdvice,
    PassOption,
    courtesy_advice,
    evaluate_pass,
)
from coach.notation.card import Card
from coach.rules.table_rules import LEAGUE, TableRules


@dataclass(frozen=True)
class StopVote:
    stop: bool
    gain: float  # tiles the best pass is expected to gain over the rack as it is (negative: it loses)
    advice: PassAdvice
    explanation: tuple[str, ...]

    def cost(self, stop: bool) -> float:
        """Tiles a vote is expected to give up against the evaluation's vote:
        0 for the advised vote; keeping on passes up the gain of stopping,
        stopping passes up the best pass's gain. Graded in the same tiles as
        a pass (`pass_grade`'s MARGIN and CLOSE)."""
        if stop == self.stop:
            return 0.0
        return max(self.gain, 0.0) if stop else max(-self.gain, 0.0)


# Stopping keeps the rack as it is (its tiles-away, exact); passing on is
# worth the best pass's expected tiles-away. Keep passing only when the
# best pass is expected to gain more than MARGIN, the gap the evaluation
# cannot tell from none: a ready rack is not broken for no gain.
STOP_BELOW = MARGIN


def second_charleston_vote(card: Card, rack: Sequence[int], seed: int = 0, seen: Sequence[int] | None = None,
                           rules: TableRules = LEAGUE) -> StopVote:
    """Should this player stop the second Charleston (C2)? Its first pass goes
    left at every table (with three players too, TR4)."""
    return stop_vote(evaluate_pass(card, rack, "second-left", seed=seed, seen=seen, rules=rules))


def stop_vote(advice: PassAdvice) -> StopVote:
    """Stop the second Charleston when its best pass (the evaluation of
    `advice`, the second Charleston's first pass) is expected to gain no
    more than STOP_BELOW tiles on the rack as it is (C2)."""
    gain = advice.current - advice.best.expected
    stop = gain <= STOP_BELOW
    if stop and gain <= 0:
        text = (
            f"Stop the second Charleston: your rack is {advice.current} away and every pass is "
            f"expected to leave you further away (the best, {advice.best.label()}, {advice.best.expected:.2f} on average). "
            "Any one player may stop it (C2)."
        )
    elif stop:
        text = (
            f"Stop the second Charleston: your rack is {advice.current} away and even the best pass "
            f"is expected to gain only {gain:.2f} tiles, within the {MARGIN} tile margin. Any one player may stop it (C2)."
        )
    else:
        text = (
            f"Keep passing: the best pass ({advice.best.label()}) is expected to leave you {advice.best.expected:.2f} tiles away, "
            f"{gain:.2f} closer than the {advice.current} you are now (C2)."
        )
    return StopVote(stop, gain, advice, (text,))


@dataclass(frozen=True)
class CourtesyOffer:
    count: int  # tiles to offer across, 0-3
    values: tuple[float, ...]  # expected tiles-away after the best courtesy pass of each size, 0-3
    passes: tuple[PassOption, ...]  # that pass, for each size
    explanation: tuple[str, ...]


def courtesy_offer(card: Card, rack: Sequence[int], seed: int = 0, seen: Sequence[int] | None = None,
                   rules: TableRules = LEAGUE) -> tuple[int, tuple[str, ...]]:
    """How many tiles to offer across in the courtesy pass (C3), and why:
    `courtesy_offer_values` made into words."""
    offer = courtesy_offer_values(card, rack, seed, seen, rules)
    return offer.count, offer.explanation


def courtesy_offer_values(card: Card, rack: Sequence[int], seed: int = 0, seen: Sequence[int] | None = None,
                          rules: TableRules = LEAGUE) -> CourtesyOffer:
    """The offer whose best courtesy pass is expected to leave the rack
    nearest. The smaller of the two offers moves (C3), so offering more
    only allows more; the best pass of each size is found by one courtesy
    evaluation, then those four passes are refined on the same draws (a
    fair comparison between sizes). A larger offer must gain more than
    MARGIN over the best smaller one to be made: tiles passed for no
    gain the evaluation can find are not offered."""
    first = courtesy_advice(card, rack, seed=seed, seen=seen, rules=rules)
    best_of = _best_by_size(first)
    refined = evaluate_pass(card, rack, "courtesy", seed=seed, seen=seen, options=EvaluationOptions(include=[o.tiles for o in best_of if o.tiles]),
                            rules=rules)
    passes = tuple(refined.option(o.tiles) for o in best_of)
    values = tuple(o.expected for o in passes)
    count = 0
    for size in range(1, len(values)):
        if values[size] < values[count] - MARGIN:
            count = size
    words = ", ".join(f"{size}: {value:.2f}" for size, value in enumerate(values))
    chosen = passes[count]
    if count == 0:
        text = (
            f"Offer nothing across: no courtesy pass is expected to leave you more than {MARGIN} tiles nearer than "
            f"the {first.current} you are now (expected tiles away by tiles passed, {words}). The smaller offer moves (C3)."
        )
    else:
        text = (
            f"Offer {count} across: the best courtesy pass of {count} ({chosen.label()}) is expected to leave you "
            f"{chosen.expected:.2f} tiles away, the nearest of the offers (expected tiles away by tiles passed, {words}). "
            "If the player across offers fewer, the smaller number moves (C3)."
        )
    return CourtesyOffer(count, values, passes, (text,))


def _best_by_size(advice: PassAdvice) -> list[PassOption]:
    """The nearest pass of each size 0-3 the rack allows."""
    best: dict[int, PassOption] = {}
    for o in advice.options:
        size = len(o.tiles)
        if size not in best or o.expected < best[size].expected:
            best[size] = o
    return [best[size] for size in sorted(best)]

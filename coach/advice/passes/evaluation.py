"""`evaluate_pass` and `with_pass`: every legal pass scored by what it is
expected to leave, the statistics that tell passes apart, and the advice
(`PassAdvice`, its `PassOption`s) they give.

Stages keep it fast and stable: every legal pass on a first set of
samples, then the most promising ones again on more samples, with their
spread (how many lines stay within reach); then the calls that matter
are made firm: sampled on, in doubling batches, until the one-sided 95%
interval of the paired gap to the best lies clear of MARGIN (or CAP), or,
for a graded first pass, worked out exactly over every three tiles that
could come back. A pass is as good as the best unless it is, at that
confidence, more than MARGIN (a tenth of a tile) worse; `pass_grade`
turns that into the one verdict every caller reads. Last, `_settled` ranks
them: when the nearest pass splits a pair or breaks a pung and a pass that
keeps it is as good (within MARGIN), that pass is the best instead.

At a table of its own (`rules`, coach.rules.table_rules) a rack may hold
blanks (TR1). A blank is never part of a hand, so the readings never see
one: passing it costs nothing in tiles away, and it would always look as
good as passing a tile no line uses. The coach's policy is to keep its
blanks, since on its turn a blank can be swapped for a discard: a pass as
good that keeps a blank is preferred, before one that keeps a pair (the
same rule as pairs and pungs, `_settled`). A joker that may go in the
courtesy pass (TR3) is kept first of all.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, partial

import numpy as np

from coach.advice.passes.candidates import candidate_passes, unseen_pool
from coach.advice.passes.kernel import (
    OTHER,
    Scorer,
    racks_after,
    sample_draws,
    screen_candidates,
)
from coach.common.kept import Kept
from coach.notation import tiles
from coach.notation.card import Card
from coach.reading.analysis import Analysis, analyze_rack
from coach.reading.tiles_away import Holding, tables_for
from coach.rules import blanks
from coach.rules.blanks import BLANK, split
from coach.rules.charleston import PASSES, PassError, check_pass, forwarded, passes
from coach.rules.table_rules import LEAGUE, TableRules

# A blank (TR1) is, to the kernel, a tile no reading can use: its OTHER.
assert BLANK == OTHER

SAMPLES = 96  # stage one: every legal pass
REFINE = 16  # stage two: this many leaders ...
REFINE_SAMPLES = 480  # ... on this many more samples
# Grading (issue 12): a pass is as good as the best unless, at one-sided 95%
# on the paired mean difference, it is worse by more than MARGIN tiles.
Z = 1.645
MARGIN = 0.1
# A pass's verdict, in tiles behind the best (`pass_grade`): "best", "as
# good" (within MARGIN at 95%), "close" (at most CLOSE behind), "worse".
# CLOSE is a third of a tile: a pass that much behind leaves you a whole
# tile further on in about one deal in three, the most one pass of the
# Charleston can cost and still be a slip, not a misreading of the rack:
# passing a tile a nearest line needs, or a pair, costs a half-tile or more
# (each such tile is a whole tile on the racks where that line stays
# nearest). It is the practice review's line between inaccuracy and mistake.
CLOSE = 0.35
GRADES = ("best", "as good", "close", "worse")
FLEX_SAMPLES = 128  # draws for flexibility, a tie-break only
CAP = 4096
KEEPING_RIVALS = 3  # passes keeping a pair the leader splits, worked out exactly beside it
EXACT_RIVALS = 4  # passes worked out exactly to find the best, the sampled leader among them  # draws at most for a pass whose call is still open


@dataclass(frozen=True)
class PassOption:
    """One legal pass and what it is expected to leave."""

    tiles: tuple[int, ...]  # own tiles passed, in tile order
    blind: int  # tiles coming in this same pass sent straight on, unseen; the rack keeps 3 - blind of them (C5)
    expected: float  # mean best tiles-away after the exchange
    stderr: float  # standard error of that mean
    samples: int
    flexibility: float | None = None  # mean lines within reach, for the closest options
    behind: float = 0.0  # expected tiles worse than the best pass, on shared samples
    behind_stderr: float = 0.0  # standard error of `behind` (paired samples)
    exact: bool = False  # expected and behind worked out over every tile that could come back

    @property
    def as_good_as_best(self) -> bool:
        """Not told apart from the best: we cannot be 95% sure it is MARGIN tiles worse."""
        return self.behind - Z * self.behind_stderr <= MARGIN

    @property
    def grade(self) -> str:
        """The verdict on this pass: see `pass_grade`."""
        return pass_grade(self)

    @property
    def codes(self) -> list[str]:
        return [blanks.code(t) for t in self.tiles]

    def label(self) -> str:
        own = ", ".join(blanks.name(t) for t in self.tiles)
        if not self.blind:
            return own or "nothing"
        sent_on = forwarded(self.blind)  # the words the table uses (C5)
        return f"{own} and {sent_on}" if own else sent_on


@dataclass(frozen=True)
class PassAdvice:
    card: Card
    rack: tuple[int, ...]  # the rack's tiles before the pass
    which: str  # a key of PASSES
    options: tuple[PassOption, ...]  # ranked, best first
    current: int  # best tiles-away of the rack as it is
    seed: int
    rules: TableRules = LEAGUE  # the table's rules: blanks in the rack and the pool (TR1), a courtesy joker (TR3)

    @property
    def best(self) -> PassOption:
        return self.options[0]

    @cached_property
    def analysis(self) -> Analysis:
        """The rack's analysis, made once for every explanation of this advice
        (and shared with whatever else read this rack: `analyze_rack`); a
        blank is never part of a hand, so the analysis never sees one (TR1)."""
        return analyze_rack(self.card, split(self.rack)[0])

    def option(self, passed: Sequence[int], blind: int = 0) -> PassOption:
        key = (tuple(sorted(passed)), blind)
        for o in self.options:
            if (o.tiles, o.blind) == key:
                return o
        raise PassError("that pass is not one of the legal passes for this rack")


def pass_grade(option: PassOption) -> str:
    """One verdict for a pass, in tiles behind the best (one of GRADES):
    "best" when nothing was found better (the best pass itself, an exact
    tie, or a pass the evaluation values above the best); "as good" when it
    cannot be told from the best at 95% by more than MARGIN; "close" when it
    is at most CLOSE tiles behind; else "worse". The first-pass drill gives
    full marks for best and as good, half for close; the practice review
    reads best, good, inaccuracy and mistake."""
    if option.behind <= 0.0:
        return "best"
    if option.as_good_as_best:
        return "as good"
    if option.behind <= CLOSE:
        return "close"
    return "worse"


def broken_sets(rack: Sequence[int], passed: Sequence[int]) -> tuple[int, ...]:
    """The tiles the rack holds two or more of (a pair, a pung or more) that
    the pass gives at least one of, in tile order: a pass that splits a pair
    or breaks a natural pung (jokers never pass, C4; blanks, TR1, make no pair)."""
    held = tiles.counts(split(rack)[0])
    return tuple(t for t in sorted(set(passed)) if t != BLANK and held[t] >= 2)


def kept_first(rack: Sequence[int], passed: Sequence[int]) -> tuple[int, int, int]:
    """What a pass gives of what the coach keeps when it can, most kept first:
    jokers (a courtesy pass at a table that allows one, TR3), then blanks (TR1),
    then the tiles of pairs and pungs (`broken_sets`). By the League's rules
    only the last can be given: (0, 0, broken sets)."""
    return passed.count(tiles.JOKER), passed.count(BLANK), len(broken_sets(rack, passed))


_EXACT: Kept[float] = Kept(4096)  # exact expectations by (card, rack, seen, pass)


def _low_end(gap: float, se: float) -> float:
    return gap - Z * se


def _paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Mean of a - b over their common samples, and its standard error."""
    n = min(len(a), len(b))
    diff = a[:n].astype(np.float64) - b[:n]
    # diff.mean() and diff.std(ddof=1) step by step as numpy takes them (the
    # same sums, so the same bits), without their checks: called in loops.
    mean = np.add.reduce(diff) / n
    if n <= 1:
        return float(mean), 0.0
    deviation = diff - mean
    np.multiply(deviation, deviation, out=deviation)
    return float(mean), float(np.sqrt(np.add.reduce(deviation) / (n - 1)) / np.sqrt(n))


def _sampled_stats(scores: Sequence[np.ndarray], leader: int, skip: Container[int]) -> dict[int, tuple[float, float, float, float]]:
    """Each sampled pass's mean, its standard error, and `_paired` against
    the leader (0 for the leader itself): passes with as many samples are
    done together, a row each, with the same arithmetic as one at a time."""
    groups: dict[int, list[int]] = {}
    for i, s in enumerate(scores):
        if i not in skip:
            groups.setdefault(len(s), []).append(i)
    lead = scores[leader]
    out: dict[int, tuple[float, float, float, float]] = {}
    for n, members in groups.items():
        table = np.stack([scores[i] for i in members])
        means = table.mean(axis=1)
        stderr = table.std(axis=1, ddof=1) / np.sqrt(n) if n > 1 else np.zeros(len(members))
        k = min(n, len(lead))
        diff = table[:, :k].astype(np.float64) - lead[:k]
        gaps = diff.mean(axis=1)
        ses = diff.std(axis=1, ddof=1) / np.sqrt(k) if k > 1 else np.zeros(len(members))
        for row, i in enumerate(members):
            pair = (0.0, 0.0) if i == leader else (float(gaps[row]), float(ses[row]))
            out[i] = (float(means[row]), float(stderr[row]), *pair)
    return out


@dataclass(frozen=True)
class EvaluationOptions:
    """How hard `evaluate_pass` works, and what it must settle.

    Every candidate is scored on `samples` draws; the `refine` best (and
    the passes in `include`) on `refine_samples` more, with flexibility
    (unless `flexibility` is False: it only orders passes equally far
    behind the best, and a caller that reads neither its value nor that
    order, the first-pass drill's grade, saves a quarter of its time).
    Then batches of draws are added for the leader and every pass among
    those whose call against it is not yet firm, until all are firm or
    `cap` draws. With `exact` (and `firm`, the passes whose call must be
    settled), three tiles back are summed exactly instead; with
    `exact_only` too, the advice lists only the passes worked out exactly,
    the best first: all a grade reads (`with_pass` adds the learner's).
    With `screen`, only that many candidates are scored at all: those whose
    remaining tiles stand nearest a line, plus the passes in `include` (a
    learner's answer is always scored).
    """

    samples: int = SAMPLES
    refine: int = REFINE
    refine_samples: int = REFINE_SAMPLES
    screen: int | None = None
    include: Sequence[Sequence[int]] = ()
    cap: int = CAP
    firm: Sequence[Sequence[int]] | None = None
    exact: bool = False
    flexibility: bool = True
    exact_only: bool = False


# The first-pass drill's effort for a question (issue 12): few draws for every
# pass, more for the leaders, the leaders worked out exactly. The practice
# hand's review grades a pass with the same effort, so the two agree.
QUESTION_SCREEN = 48  # candidate passes scored by Monte Carlo (a learner's own is worked out exactly by with_pass)


def question_options(flexibility: bool = False, exact_only: bool = True) -> EvaluationOptions:
    """The effort of a drill question's evaluation (see QUESTION_SCREEN)."""
    return EvaluationOptions(
        samples=64, refine=8, refine_samples=192, screen=QUESTION_SCREEN, include=(), firm=(), exact=True,
        flexibility=flexibility, exact_only=exact_only,
    )


def evaluate_pass(
    card: Card,
    rack: Sequence[int],
    which: str = "first-right",
    seed: int = 0,
    seen: Sequence[int] | None = None,
    options: EvaluationOptions = EvaluationOptions(),
    rules: TableRules = LEAGUE,
) -> PassAdvice:
    """Score every legal pass for `rack` (13 or 14 tiles); best first.

    `seed` fixes the draws, `seen` holds the tiles the player has seen
    (not in the pool that passes come back from); `options` says how hard
    to work (`EvaluationOptions`). Sequentially, batches of draws are added for
    the leader and every pass among those whose call against it is not yet
    firm (see `PassOption.as_good_as_best`). `rules` are the table's: a rack
    may hold blanks (TR1), a joker may go in the courtesy pass (TR3), and a
    three-player table has no across or courtesy pass (TR4).
    """
    samples, refine, refine_samples, cap = options.samples, options.refine, options.refine_samples, options.cap
    screen, include, firm = options.screen, options.include, options.firm
    exact, flexibility, exact_only = options.exact, options.flexibility, options.exact_only
    rack = list(rack)
    if which not in passes(rules.players):
        if which in PASSES:
            raise PassError(f"with three players there is no {which.replace('-', ' ')} pass: nobody sits across (TR4)")
        raise PassError(f"unknown pass {which!r}: one of {', '.join(PASSES)}")
    candidates = candidate_passes(rack, which, rules)
    if not candidates:
        raise PassError("this rack has no three tiles that may be passed: jokers never pass (C4)")
    rng = np.random.default_rng(seed)
    pool = unseen_pool(rack, seen, rules)
    held = split(rack)[0]  # what the readings see: never a blank (TR1)
    after = racks_after(held, candidates)
    scorer = Scorer(card, held, candidates, after, takes=_takes(candidates))
    if screen is not None and len(candidates) > screen:
        picked = screen_candidates(scorer, candidates, screen, include)
        candidates, after = [candidates[i] for i in picked], after[picked]
        scorer = scorer.subset(picked)
    wanted = {tuple(sorted(p)) for p in include}
    draws = sample_draws(pool, samples, rng)
    scores: list[np.ndarray] = []

    def extend(which_ones: Sequence[int], total: int) -> None:
        """Score `which_ones` on the draws up to `total` (drawing more as needed)."""
        nonlocal draws
        if total > len(draws):
            draws = np.concatenate([draws, sample_draws(pool, total - len(draws), rng)])
        # Passes scored on as many draws go together: one flat scoring for all.
        groups: dict[int, list[int]] = {}
        for i in dict.fromkeys(which_ones):
            if len(scores[i]) < total:
                groups.setdefault(len(scores[i]), []).append(i)
        for have, group in groups.items():
            for i, more in zip(group, scorer.best_on(group, draws, have, total)):
                scores[i] = np.concatenate([scores[i], more])

    everyone = np.arange(len(candidates))
    scores = scorer.best_on(everyone.tolist(), draws, 0, samples)
    # Sums of whole numbers are exact in any order: these are the arrays' own mean().
    means = np.stack(scores).sum(axis=1, dtype=np.int64) / samples
    top = [int(i) for i in np.lexsort((everyone, means))[: max(1, refine)]]
    focus = list(dict.fromkeys(top + [i for i, (own, blind) in enumerate(candidates) if blind == 0 and own in wanted]))
    total = samples + refine_samples
    extend(focus, total)

    def leader_of() -> int:
        most = max(len(s) for s in scores)
        return int(min((i for i in everyone if len(scores[i]) == most), key=lambda i: (int(scores[i].sum(dtype=np.int64)) / most, i)))

    exact_set: dict[int, float] = {}
    if exact and firm is not None and all(takes_all == 3 for takes_all in scorer.takes):
        # Exact enumeration is cheap for three tiles back: no sampling noise
        # left in the call, only in which few passes were found to lead.
        must = {tuple(sorted(p)) for p in firm}
        left = np.bincount(pool, minlength=tiles.KINDS)
        leader = leader_of()
        rivals = [i for i in top if i != leader and _low_end(*_paired(scores[i], scores[leader])) <= 0]
        chosen = [leader] + rivals[: EXACT_RIVALS - 1]
        # When the leader splits a pair or breaks a pung (or gives a blank,
        # TR1, or a joker, TR3), the nearest few passes (on their own draws,
        # refined or not) that keep more of them whole, within MARGIN on the samples, are worked out too:
        # `_settled` may prefer one (the best every learner meets, whatever pass they give).
        given = kept_first(rack, candidates[leader][0])
        if any(given):
            keeping = [
                i for i in sorted(range(len(candidates)), key=lambda i: (int(scores[i].sum(dtype=np.int64)) / len(scores[i]), i))
                if i not in chosen and candidates[i][1] == 0 and kept_first(rack, candidates[i][0]) < given
            ]
            near = [i for i in keeping if _low_end(*_paired(scores[i], scores[leader])) <= MARGIN]
            # None near: the nearest keeper all the same, so the verdict can say what keeping costs.
            chosen += near[:KEEPING_RIVALS] or keeping[:1]
        chosen += [i for i, (own, blind) in enumerate(candidates) if blind == 0 and own in must and i not in chosen]
        for i in chosen:
            exact_set[i] = _exact_kept(card, rack, seen, candidates[i][0], partial(scorer.exact_mean, i, left), rules.blanks)  # run now, or not at all
        firm = []  # nothing left to sample
    if firm is None:
        judged, rivals = focus, top[:4]
    else:
        must = {tuple(sorted(p)) for p in firm}
        judged, rivals = [i for i, (own, blind) in enumerate(candidates) if blind == 0 and own in must], []
    while True:
        leader = leader_of()
        open_calls = []
        for i in dict.fromkeys(judged + rivals):
            if i == leader:
                continue
            gap, se = _paired(scores[i], scores[leader])
            low, high = gap - Z * se, gap + Z * se
            if (i in judged and low <= MARGIN < high) or (i in rivals and low <= 0 < high):
                open_calls.append(i)
        if not open_calls or total >= cap:
            break
        total = min(cap, total * 2)
        extend([leader] + open_calls, total)
    # Flexibility (lines within reach) for the refined passes, on their first draws.
    flex: dict[int, float] = {}
    if flexibility:
        reach = scorer.reach_on(focus, draws, min(FLEX_SAMPLES, len(draws)))
        for k, i in enumerate(focus):
            flex[i] = float(reach[k].mean())
    leader = min(exact_set, key=lambda i: (exact_set[i], i)) if exact_set else leader_of()
    reported = exact_set if exact_only and exact_set else range(len(candidates))
    sampled = _sampled_stats(scores, leader, exact_set) if reported is not exact_set else {}
    listed: list[PassOption] = []
    for i in reported:
        own, blind = candidates[i]
        n = len(scores[i])
        if i in exact_set:
            gap = exact_set[i] - exact_set[leader]
            listed.append(PassOption(own, blind, exact_set[i], 0.0, n, flex.get(i), gap, 0.0, exact=True))
            continue
        mean, stderr, gap, se = sampled[i]
        listed.append(PassOption(own, blind, mean, stderr, n, flex.get(i), gap, se))
    lead = next(o for o in listed if (o.tiles, o.blind) == candidates[leader])
    current = int(tables_for(card).line_distances(Holding.of(held)).min())
    return PassAdvice(card, tuple(sorted(rack)), which, _settled(listed, lead, rack), current, seed, rules)


def _ranked(lead: PassOption, rack: Sequence[int]) -> Callable[[PassOption], tuple]:
    """Best first: the leader, then by how far behind it on shared draws,
    fewer tiles of pairs and pungs given, more lines in reach, fewer blind tiles."""
    key = (lead.tiles, lead.blind)  # the same pass, whatever object stands for it after a rebase
    return lambda o: ((o.tiles, o.blind) != key, round(o.behind, 9), kept_first(rack, o.tiles), -(o.flexibility or 0.0), o.blind, o.tiles)


def _rebased(options: Sequence[PassOption], lead: PassOption) -> list[PassOption]:
    """The options with `behind` measured from `lead` instead (`lead` at 0).
    Exact gaps stay exact; a sampled gap's standard error is kept as it
    was (its pairing with the new reference is not known): a tie-break."""
    shift = lead.behind
    return [o if not shift else replace(o, behind=o.behind - shift) for o in options]


def _settled(options: Sequence[PassOption], lead: PassOption, rack: Sequence[int]) -> tuple[PassOption, ...]:
    """The options ranked, best first, from the evaluation's leader `lead`:
    when the leader splits a pair or breaks a pung (`broken_sets`), the
    nearest pass that keeps more of them whole and is as good as the leader
    (within MARGIN, exact when the leader is) becomes the best instead, and
    every gap is measured from it. A pair or a pung is kept unless the
    evaluation tells passing it apart from keeping it. At a table of its own
    a joker (TR3) and then a blank (TR1) are kept before a pair (`kept_first`)."""
    listed = sorted(_rebased(options, lead), key=_ranked(lead, rack))
    lead = listed[0]
    given = kept_first(rack, lead.tiles)
    if not any(given):
        return tuple(listed)
    keeping = [
        o for o in listed[1:]
        if kept_first(rack, o.tiles) < given and o.as_good_as_best and o.behind <= MARGIN and (o.exact or not lead.exact)
    ]
    if not keeping:
        return tuple(listed)
    fewest = min(kept_first(rack, o.tiles) for o in keeping)
    chosen = next(o for o in keeping if kept_first(rack, o.tiles) == fewest)
    chosen_se = chosen.behind_stderr
    moved = [replace(o, behind_stderr=chosen_se) if o is lead else o for o in listed]
    chosen = replace(chosen, behind_stderr=0.0)
    moved = [chosen if (o.tiles, o.blind) == (chosen.tiles, chosen.blind) else o for o in moved]
    return tuple(sorted(_rebased(moved, chosen), key=_ranked(chosen, rack)))



def _exact_kept(card: Card, rack: Sequence[int], seen: Sequence[int] | None, own: tuple[int, ...], work: Callable[[], float],
                blanks_in_play: int = 0) -> float:
    """A pass's exact expectation, kept by (card, rack, seen, pass): seed-free,
    so the same rack graded again, by any seed or learner, skips the sum. The
    blanks in play (TR1) change the tiles that can come back: they are in the key."""
    key = (id(card), tuple(sorted(rack)), tuple(seen or ()), own) + ((blanks_in_play,) if blanks_in_play else ())
    return _EXACT.get(key, work, owner=card)


def _takes(candidates: Sequence[tuple[tuple[int, ...], int]]) -> np.ndarray | None:
    """How many tiles come back for each pass, when some pass gives a blank
    (the kernel counts a blank as no tile given); None otherwise (TR1)."""
    if not any(BLANK in own for own, _ in candidates):
        return None
    return np.array([len(own) for own, _ in candidates], dtype=np.intp)


def listed_order(own: tuple[int, ...], blind: int) -> tuple[int, int, tuple[int, ...]]:
    """A pass's place among `candidate_passes`, as a sort key, without
    listing them (a few hundred tuples an answer): they come by blind count,
    then by tiles given (a courtesy pass: none first), then in tile order.
    test_pass_order holds it to the listing itself."""
    return blind, len(own), own


def with_pass(advice: PassAdvice, passed: Sequence[int], seen: Sequence[int] | None = None) -> PassAdvice:
    """`advice` (made with `exact=True`, its leaders worked out exactly) with
    the pass `passed` (no blind tiles) worked out exactly too: a learner's
    own pass, graded against a best that was found without knowing it, so
    that every learner answering the same question meets the same best pass
    and the evaluation is made once a question (issue 13). When the pass
    beats every pass worked out so far it leads, and the best is settled
    again from it (`_settled`: a pass as good that keeps pairs and pungs
    whole may still be the best).

    Raises PassError for a pass that is not legal from the rack."""
    if not advice.best.exact:
        raise ValueError("with_pass needs an advice whose best was worked out exactly (exact=True)")
    own = tuple(sorted(passed))
    check_pass(advice.rack, own, advice.which, rules=advice.rules)
    known = next((o for o in advice.options if o.tiles == own and o.blind == 0), None)
    if known is not None and known.exact:
        return advice
    rack = list(advice.rack)
    candidates = [(own, 0)]

    def work() -> float:
        held = split(rack)[0]
        scorer = Scorer(advice.card, held, candidates, racks_after(held, candidates), takes=_takes(candidates))
        return scorer.exact_mean(0, np.bincount(unseen_pool(rack, seen, advice.rules), minlength=tiles.KINDS))

    value = _exact_kept(advice.card, rack, seen, own, work, advice.rules.blanks)
    samples = known.samples if known is not None else 0
    flexibility = known.flexibility if known is not None else None
    best = advice.best  # behind 0: every gap is measured from it
    mine = PassOption(own, 0, value, 0.0, samples, flexibility, value - best.expected, 0.0, exact=True)
    options = [mine] + [o for o in advice.options if o is not known]
    # The leader: the nearest pass worked out exactly; an exact tie goes to
    # the pass listed first among the legal ones, as in evaluate_pass.
    lead = min((o for o in options if o.exact), key=lambda o: (o.expected, listed_order(o.tiles, o.blind)))
    if lead is not mine:  # the question's best stands, for every learner
        return replace(advice, options=tuple(sorted(options, key=_ranked(best, rack))))
    return replace(advice, options=_settled(options, lead, rack))


def courtesy_advice(card: Card, rack: Sequence[int], seed: int = 0, seen: Sequence[int] | None = None,
                    rules: TableRules = LEAGUE) -> PassAdvice:
    """The courtesy pass: 0 to 3 tiles across (C3); fewer is fine when nothing is useless.
    None at a three-player table (TR4: a PassError)."""
    return evaluate_pass(card, rack, "courtesy", seed=seed, seen=seen, rules=rules)

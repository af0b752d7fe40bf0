"""The Charleston (C1-C6) and the advice for every pass.

A pass is scored by what it is expected to leave: the best tiles-away of
the rack after giving the tiles and receiving as many from the tiles the
player cannot see. The expectation is a Monte Carlo average over seeded
samples of incoming tiles; every candidate pass is scored on the same
samples, so differences between passes are not noise of the draw.

Two stages keep it fast and stable: every legal pass on a first set of
samples, then the most promising ones again on many more samples, with
their spread (how many lines stay within reach) measured there too.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from coach import tiles
from coach.analysis import analyze
from coach.card import Card
from coach.explain import keep_note, tile_note
from coach.tiles_away import Holding, tables_for

# C1, C2: the direction of each pass; C3: the courtesy pass goes across.
FIRST_CHARLESTON = ("right", "across", "left")
SECOND_CHARLESTON = ("left", "across", "right")
PASSES = {
    "first-right": ("first", "right"),
    "first-across": ("first", "across"),
    "first-left": ("first", "left"),
    "second-left": ("second", "left"),
    "second-across": ("second", "across"),
    "second-right": ("second", "right"),
    "courtesy": ("courtesy", "across"),
}
# C5: the last pass of each Charleston may forward tiles just received, unseen.
BLIND_PASSES = ("first-left", "second-right")
SAMPLES = 96  # stage one: every legal pass
REFINE = 16  # stage two: this many leaders ...
REFINE_SAMPLES = 480  # ... on this many more samples
REACH_MARGIN = 2  # a line "within reach": at most this many tiles behind the best line
CHUNK = 4096


class PassError(ValueError):
    """A pass no player may make: a joker (C4), the wrong number of tiles, tiles not held."""


@dataclass(frozen=True)
class PassOption:
    """One legal pass and what it is expected to leave."""

    tiles: tuple[int, ...]  # own tiles passed, in tile order
    blind: int  # tiles just received forwarded unseen (C5)
    expected: float  # mean best tiles-away after the exchange
    stderr: float  # standard error of that mean
    samples: int
    flexibility: float | None = None  # mean lines within reach, for the closest options
    behind: float = 0.0  # expected tiles worse than the best pass, on shared samples
    behind_stderr: float = 0.0  # standard error of `behind` (paired samples)

    @property
    def as_good_as_best(self) -> bool:
        """Within two standard errors, or a twentieth of a tile, of the best pass."""
        return self.behind <= max(0.05, 2 * self.behind_stderr)

    @property
    def codes(self) -> list[str]:
        return [tiles.CODES[t] for t in self.tiles]

    def label(self) -> str:
        own = ", ".join(tiles.name(t) for t in self.tiles)
        if not self.blind:
            return own or "nothing"
        forwarded = f"{self.blind} received tile{'s' if self.blind > 1 else ''} passed on unseen"
        return f"{own} and {forwarded}" if own else forwarded


@dataclass(frozen=True)
class PassAdvice:
    card: Card
    rack: tuple[int, ...]  # the rack's tiles before the pass
    which: str  # a key of PASSES
    options: tuple[PassOption, ...]  # ranked, best first
    current: int  # best tiles-away of the rack as it is
    seed: int

    @property
    def best(self) -> PassOption:
        return self.options[0]

    def option(self, passed: Sequence[int], blind: int = 0) -> PassOption:
        key = (tuple(sorted(passed)), blind)
        for o in self.options:
            if (o.tiles, o.blind) == key:
                return o
        raise PassError("that pass is not one of the legal passes for this rack")


def check_pass(rack: Sequence[int], passed: Sequence[int], which: str = "first-right", blind: int = 0) -> None:
    """Raise PassError unless `passed` (+ `blind` unseen) is a legal pass from `rack`."""
    if which not in PASSES:
        raise PassError(f"unknown pass {which!r}: one of {', '.join(PASSES)}")
    if blind and which not in BLIND_PASSES:
        raise PassError("only the last pass of each Charleston may be blind (C5)")
    if tiles.JOKER in passed:
        raise PassError("a joker may never be passed in the Charleston (C4)")
    count = len(passed) + blind
    if which == "courtesy":
        if not 0 <= count <= 3:
            raise PassError(f"a courtesy pass moves 0 to 3 tiles, not {count} (C3)")
    elif count != 3:
        raise PassError(f"a Charleston pass moves exactly three tiles, not {count} (C1)")
    held = tiles.counts(rack)
    for t, c in enumerate(tiles.counts(passed)):
        if c > held[t]:
            raise PassError(f"you cannot pass {tiles.plural(t, c)}: your rack holds {held[t]}")


def candidate_passes(rack: Sequence[int], which: str) -> list[tuple[tuple[int, ...], int]]:
    """Every legal pass as (own tiles, blind count), identical tiles counted once."""
    naturals = sorted(t for t in rack if t != tiles.JOKER)  # C4
    sizes: list[tuple[int, int]]
    if which == "courtesy":
        sizes = [(n, 0) for n in range(4)]
    elif which in BLIND_PASSES:
        sizes = [(3 - b, b) for b in range(4)]
    else:
        sizes = [(3, 0)]
    out: list[tuple[tuple[int, ...], int]] = []
    for own, blind in sizes:
        for combo in sorted(set(itertools.combinations(naturals, own))):
            out.append((combo, blind))
    return out


def unseen_pool(rack: Sequence[int], seen: Sequence[int] | None = None) -> list[int]:
    """The tiles the player cannot see, one entry a tile."""
    left = list(tiles.COPIES)
    for t in rack:
        left[t] -= 1
    for t, c in enumerate(seen or ()):
        left[t] -= c
    return [t for t, c in enumerate(left) for _ in range(max(c, 0))]


def _sample_counts(pool: list[int], samples: int, take: int, rng: np.random.Generator) -> np.ndarray:
    """(samples, take, 36): one-hot counts of each sampled tile, drawn without replacement."""
    pool_arr = np.array(pool, dtype=np.intp)
    keys = rng.random((samples, len(pool_arr)))
    picks = pool_arr[np.argpartition(keys, take, axis=1)[:, :take]] if take else np.zeros((samples, 0), np.intp)
    onehot = np.zeros((samples, take, tiles.KINDS), dtype=np.int16)
    for j in range(take):
        onehot[np.arange(samples), j, picks[:, j]] = 1
    return onehot


def _scores(card: Card, after: np.ndarray, received: np.ndarray, flexibility: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """Best distance (and lines within reach) for every candidate x sample.

    `after`: (candidates, 36) counts once the pass is given; `received`:
    (candidates, samples, 36) counts arriving. Returns arrays (candidates, samples).
    """
    tables = tables_for(card)
    rows = (after[:, None, :] + received).reshape(-1, tiles.KINDS)
    best = np.empty(len(rows), dtype=np.int16)
    reach = np.empty(len(rows), dtype=np.int16) if flexibility else None
    for start in range(0, len(rows), CHUNK):
        chunk = rows[start : start + CHUNK]
        if flexibility:
            lines = tables.batch_line_distances(chunk)
            low = lines.min(axis=1)
            best[start : start + len(chunk)] = low
            assert reach is not None
            reach[start : start + len(chunk)] = (lines <= (low + REACH_MARGIN)[:, None]).sum(axis=1)
        else:
            best[start : start + len(chunk)] = tables.batch_reading_distances(chunk).min(axis=1)
    shape = after.shape[0], received.shape[1]
    return best.reshape(shape), (reach.reshape(shape) if reach is not None else None)


def _screen(
    card: Card,
    candidates: list[tuple[tuple[int, ...], int]],
    after: np.ndarray,
    keep: int,
    include: Sequence[Sequence[int]],
) -> tuple[list[tuple[tuple[int, ...], int]], np.ndarray]:
    """The `keep` candidates whose kept tiles stand nearest a line, and `include`."""
    lines = tables_for(card).batch_line_distances(after)
    low = lines.min(axis=1)
    close = (lines <= (low + REACH_MARGIN)[:, None]).sum(axis=1)
    order = np.lexsort((np.arange(len(candidates)), -close, low))
    chosen = set(order[:keep].tolist())
    wanted = {tuple(sorted(p)) for p in include}
    chosen |= {i for i, (own, blind) in enumerate(candidates) if blind == 0 and own in wanted}
    picked = sorted(chosen)
    return [candidates[i] for i in picked], after[picked]


def evaluate_pass(
    card: Card,
    rack: Sequence[int],
    which: str = "first-right",
    seed: int = 0,
    seen: Sequence[int] | None = None,
    samples: int = SAMPLES,
    refine: int = REFINE,
    refine_samples: int = REFINE_SAMPLES,
    screen: int | None = None,
    include: Sequence[Sequence[int]] = (),
) -> PassAdvice:
    """Score every legal pass for `rack` (13 or 14 tiles); best first.

    Stage one scores every candidate on `samples` draws; stage two scores
    the `refine` best again on `refine_samples` more, with flexibility.
    With `screen`, only that many candidates reach stage one: those whose
    remaining tiles stand nearest a line before anything comes back, plus
    the passes in `include` (a learner's answer is always scored).
    """
    rack = list(rack)
    if which not in PASSES:
        raise PassError(f"unknown pass {which!r}: one of {', '.join(PASSES)}")
    candidates = candidate_passes(rack, which)
    if not candidates:
        raise PassError("this rack has no three tiles that may be passed: jokers never pass (C4)")
    rng = np.random.default_rng(seed)
    pool = unseen_pool(rack, seen)
    base = np.array(tiles.counts(rack), dtype=np.int16)
    after = np.array([base - np.array(tiles.counts(own), dtype=np.int16) for own, _ in candidates])
    if screen is not None and len(candidates) > screen:
        candidates, after = _screen(card, candidates, after, screen, include)
    takes = np.array([len(own) for own, _ in candidates])

    def received(draws: np.ndarray) -> np.ndarray:
        # Candidates passing r own tiles receive the first r tiles of each sample.
        cumulative = np.concatenate([np.zeros_like(draws[:, :1]), np.cumsum(draws, axis=1)], axis=1)
        return cumulative[:, takes, :].transpose(1, 0, 2)

    first = _sample_counts(pool, samples, 3, rng)
    best, _ = _scores(card, after, received(first), flexibility=False)
    order = np.lexsort((np.arange(len(candidates)), best.mean(axis=1)))
    top = order[: max(1, refine)]
    # Stage two: the leaders again on many more samples, with flexibility.
    more = _sample_counts(pool, refine_samples, 3, rng)
    best2, reach = _scores(card, after[top], received(more)[top], flexibility=True)
    assert reach is not None
    refined = np.concatenate([best[top], best2], axis=1)
    leader = int(np.lexsort((-reach.mean(axis=1), refined.mean(axis=1)))[0])
    winner = int(top[leader])
    options = []
    for i, (own, blind) in enumerate(candidates):
        where = np.flatnonzero(top == i)
        if len(where):
            k = int(where[0])
            draws, diff, flex = refined[k], refined[k] - refined[leader], float(reach[k].mean())
        else:
            draws, diff, flex = best[i], best[i] - best[winner], None
        n = len(draws)
        options.append(
            PassOption(
                own, blind, float(draws.mean()), float(draws.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0,
                n, flex, float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0,
            )
        )
    # Best first: the refined options (measured on every sample) by lowest
    # expected distance, then more lines in reach, then fewer blind tiles;
    # after them the rest, measured on the first samples only.
    options.sort(
        key=lambda o: (o.flexibility is None, round(o.expected, 9), -(o.flexibility or 0.0), o.blind, o.tiles)
    )
    current = int(tables_for(card).line_distances(Holding.of(rack)).min())
    return PassAdvice(card, tuple(sorted(rack)), which, tuple(options), current, seed)



def explain_pass(advice: PassAdvice, option: PassOption) -> list[str]:
    """Per-tile reasons and how this pass compares with the best, in tiles."""
    card = advice.card
    analysis = analyze(card, Holding.of(advice.rack))
    lines: list[str] = []
    for t in dict.fromkeys(option.tiles):
        lines.append(tile_note(card, analysis, t, passing=True))
    if option.blind:
        lines.append(
            f"Passing {option.blind} of the tiles you receive on unseen is a blind pass, "
            "allowed on the last pass of each Charleston (C5)."
        )
    kept = [t for t in dict.fromkeys(advice.rack) if t not in option.tiles]
    notes = [n for n in (keep_note(card, analysis, t) for t in kept) if n]
    lines += notes[:2]
    if tiles.JOKER in advice.rack:
        lines.append("Your joker stays on your rack: jokers are never passed (C4).")
    best = advice.best
    if option is best or option.as_good_as_best:
        lines.append(
            f"This is the best pass: it leaves you {option.expected:.1f} tiles away on average "
            f"(you are {advice.current} away now)."
        )
    else:
        lines.append(
            f"The best pass, {best.label()}, leaves you {best.expected:.1f} tiles away on average; "
            f"this one leaves {option.expected:.1f}, {option.behind:.1f} tiles worse."
        )
    return lines


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


def courtesy_advice(card: Card, rack: Sequence[int], seed: int = 0, seen: Sequence[int] | None = None) -> PassAdvice:
    """The courtesy pass: 0 to 3 tiles across (C3); fewer is fine when nothing is useless."""
    return evaluate_pass(card, rack, "courtesy", seed=seed, seen=seen)

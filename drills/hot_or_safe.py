"""Hot or safe: late in a hand, which of these tiles is safest to throw? (D1)

The other players' exposures and the discards so far are on the table.
The truth comes from the core's discard advisor (`coach.advice.discard`, its defence): a tile
is hot when at least half of the hands an opponent's exposures still allow
need it (`danger`, said as a share: "2 in 3 of North's possible hands need
it"), and safe when it is not hot and was thrown twice
already without a call, or fits no line the exposures on the table allow.
A question offers three or four tiles of your rack and is asked only when
exactly one of them is safe and every other one is hot, so the answer is
plain by D1.

Level 1: the safe tile fits no exposure on the table. Level 2: it was
thrown twice without a call; where the table allows, it still fits some
exposure, so the two throws are what make it safe. Level 3: the safe
tile is one your own nearest line uses and the hot ones are tiles it has no
place for: late in a hand, defence matters more than your own rack.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache, partial
from itertools import combinations
from typing import Any

from coach.advice.discard import HOT_SHARE, danger, defend, wanted_share
from coach.common.kept import Kept
from coach.notation import tiles
from coach.notation.card import Card, Line
from coach.reading.analysis import analyze
from coach.reading.tiles_away import Exposure, Holding, fill
from coach.rules.catalog import cite
from coach.rules.scenes import Scene
from coach.rules.table import SEATS
from drills.kit import choice
from drills.kit.base import Level, Question, check_level, per_card, rng_for
from drills.kit.exposures import exposure_for
from drills.kit.wording import join, tile_label

NAME = "hot-or-safe"
TITLE = "Hot or safe?"
TEMPLATE = "choice"
LEVELS: tuple[Level, ...] = (
    Level(1, "Fits no exposure", "One tile fits nothing the other players have exposed; the rest feed their exposures."),
    Level(2, "Thrown twice", "One tile was already thrown twice and nobody called it; the rest are hot."),
    Level(3, "Defence first", "Late in the hand: throw the safe tile even when your own line wants it."),
)
RACK = 14  # your rack as you discard


@per_card
def _exposed_lines(card: Card) -> tuple[Line, ...]:
    """Lines marked X with a group that can be exposed: read on every try of a deal."""
    return tuple(ln for ln in card.lines if not ln.concealed and ln.has_group(3))


def _opponents(rng: random.Random, card: Card, you: str) -> list[tuple[str, tuple[Exposure, ...]]]:
    """One or two other players, each with one or two exposures from a real exposed line."""
    seats = [s for s in SEATS if s != you]
    rng.shuffle(seats)
    shown = []
    for seat in seats[: rng.choice((1, 2, 2))]:
        line = rng.choice(_exposed_lines(card))
        reading = rng.choice(line.readings)
        big = [g for g in reading.groups if g.size >= 3]
        groups = rng.sample(big, min(len(big), rng.choice((1, 2, 2))))
        exposures = tuple(exposure_for(rng, g.tile, g.size) for g in groups)
        shown.append((seat, exposures))
    return shown


def _table(rng: random.Random, card: Card, level: int) -> dict[str, Any] | None:
    """One try at a late-hand table for this level; None when it does not fit."""
    you = rng.choice(SEATS)
    opponents = _opponents(rng, card, you)
    hot, nothing, partly = _kinds(card, tuple(_groups(exposures) for _, exposures in opponents))
    if len(hot) < 2:
        return None
    rack: list[int] = []
    mine = None
    if level == 3:
        rack = _own_rack(rng, card, hot) or []
        if not rack:
            return None
        safe_pool: Sequence[int] = [t for t in nothing + partly if t in rack]
    else:
        safe_pool = nothing if level == 1 else (partly or nothing)
    if not safe_pool:
        return None
    safe = rng.choice(safe_pool)
    twice = level == 2 or (level == 3 and safe not in nothing)
    count = rng.choice((2, 3)) if level == 1 else rng.choice((2, 3, 3))
    hot_picks = rng.sample([t for t in hot if level != 3 or t not in rack], min(count, len(hot)))
    if len(hot_picks) < 2:
        return None
    candidates = [safe] + hot_picks
    discards = [safe, safe] if twice else []
    if level == 2 and rng.random() < 0.5:
        discards.append(hot_picks[0])  # once is not enough to make a tile safe
    quiet = [t for t in range(tiles.NATURALS) if t not in candidates]
    discards += [rng.choice(quiet) for _ in range(rng.randint(4, 7))]
    rng.shuffle(discards)
    if level == 3:
        rack = rack + hot_picks
    else:
        rack = list(candidates)
    filler = _filler(tuple(sorted(set(candidates))))
    while len(rack) < RACK:
        rack.append(rng.choice(filler))
    exposures = [e for _, exs in opponents for e in exs]
    counts = tiles.counts(rack + discards + [t for e in exposures for t in e.tiles])
    if any(c > cap for c, cap in zip(counts, tiles.COPIES)):
        return None
    seen = tuple(tiles.counts(discards))
    # Hot and safe as the discard advisor marks them (its offence, an
    # analysis per candidate, is not part of the question).
    judged = defend(card, candidates, seen, [exs for _, exs in opponents])
    if not judged[safe].safe or judged[safe].hot or not all(judged[t].hot for t in hot_picks):
        return None
    if level == 3:
        nearest = analyze(card, Holding.of(rack), seen).nearest
        used = list(nearest.fill.used) if nearest.fill else []
        # Offence and defence disagree: your line keeps every copy of the safe
        # tile and has no place for the hot ones.
        if used.count(safe) < rack.count(safe) or any(t in used for t in hot_picks):
            return None
        # "Your line has no place for it" is said of the line, not of one reading:
        # no other reading of it as near may use a hot tile either.
        holding = Holding.of(rack)
        if any(
            f.distance == nearest.distance and any(t in f.used for t in hot_picks)
            for f in (fill(r, holding) for r in nearest.line.readings)
        ):
            return None
        mine = nearest
    shares = [(seat, exposures, wanted_share(card, exposures)) for seat, exposures in opponents]
    return {
        "you": you, "opponents": shares, "safe": safe, "hot": hot_picks, "candidates": candidates,
        "discards": discards, "rack": rack, "twice": twice, "mine": mine,
    }


def _groups(exposures: tuple[Exposure, ...]) -> tuple[tuple[int, int], ...]:
    """What a player's exposures say of their possible hands: each one's tile and size (`danger`'s own key)."""
    return tuple(sorted((e.tile, e.size) for e in exposures))


_PLAYERS: Kept[tuple[int, int, int]] = Kept(4096)  # by card and a player's groups: about 1,400 sets on the house card


def _kinds(card: Card, players: tuple[tuple[tuple[int, int], ...], ...]) -> tuple[tuple[int, ...], ...]:
    """The tiles off the table in three kinds, each in tile order: hot for
    someone, needed by no hand the exposures allow, or needed by some, hot
    for nobody. Each player's part rests on their groups alone (`danger`),
    and a deal's tries meet the same sets again and again, so it is kept
    as bit masks over the tiles (`_player_bits`) and the players' are
    combined with a few integer operations (issue 26: the deal's arrays
    were most of a try), the same sets as the arrays gave."""
    hot_any, unwanted, shown = 0, ALL_TILES, 0
    for groups in players:
        hot, zero, tiles_shown = _PLAYERS.get((id(card), groups), partial(_player_bits, card, groups), owner=card)
        hot_any |= hot
        unwanted &= zero
        shown |= tiles_shown
    off_table = ALL_TILES & ~shown
    return _tiles_of(off_table & hot_any), _tiles_of(off_table & unwanted), _tiles_of(off_table & ~hot_any & ~unwanted)


ALL_TILES = (1 << tiles.NATURALS) - 1


def _player_bits(card: Card, groups: tuple[tuple[int, int], ...]) -> tuple[int, int, int]:
    """One player's exposures as bit masks over the natural tiles: those
    hot for them (wanted by at least HOT_SHARE of their possible hands),
    those none of their hands needs, and those their exposures show."""
    share = wanted_share(card, [Exposure(tile, size) for tile, size in groups]).tolist()
    hot = sum(1 << t for t in range(tiles.NATURALS) if share[t] >= HOT_SHARE)
    zero = sum(1 << t for t in range(tiles.NATURALS) if share[t] == 0)
    return hot, zero, sum({1 << tile for tile, _ in groups})


def _dealable(card: Card) -> set[tuple[tuple[int, int], ...]]:
    """Every player's groups `_opponents` can deal on `card`: one or two of the
    groups of three or more of a reading of an exposed line (about 1,400 sets
    on the house card)."""
    found: set[tuple[tuple[int, int], ...]] = set()
    for line in _exposed_lines(card):
        for reading in line.readings:
            big = [(g.tile, g.size) for g in reading.groups if g.size >= 3]
            for count in (1, 2):
                found.update(tuple(sorted(groups)) for groups in combinations(big, count))
    return found


def warm(card: Card) -> None:
    """Every dealable player's bit masks (and so their `danger`) worked out at
    once, when `drills.warm` is called (before gunicorn forks its workers):
    a deal's tries otherwise meet the sets for the first time one by one, in
    each worker, each costing a question about 0.2 ms more for its first few
    hundred questions (issue 26). Only what is kept, at most as many as kept."""
    sets = _dealable(card)
    if len(sets) > _PLAYERS.size:
        return
    for groups in sorted(sets):
        _PLAYERS.get((id(card), groups), partial(_player_bits, card, groups), owner=card)


@lru_cache(maxsize=16384)
def _tiles_of(mask: int) -> tuple[int, ...]:
    """The tiles of a bit mask, in tile order (shared: a tuple)."""
    return tuple(t for t in range(tiles.NATURALS) if mask >> t & 1)


@lru_cache(maxsize=4096)
def _filler(candidates: tuple[int, ...]) -> tuple[int, ...]:
    """The wall's tiles other than the candidates, in the wall's order (the rack's filler is drawn from it)."""
    return tuple(t for t in tiles.WALL if t not in candidates)


def _own_rack(rng: random.Random, card: Card, hot: tuple[int, ...]) -> list[int] | None:
    """Most of a reading of an exposed line, a few tiles short, leaving room for the hot tiles."""
    line = rng.choice(_exposed_lines(card))
    reading = rng.choice(line.readings)
    own = list(reading.tiles)
    if any(t in hot for t in own):
        return None
    rng.shuffle(own)
    return own[: rng.randint(9, 11)]


def generate(seed: int, level: int, card: Card) -> Question:
    check_level(LEVELS, level)
    rng = rng_for(NAME, seed, level)
    table = choice.dealt(f"level-{level} table on {card.name}", lambda: _table(rng, card, level))
    return _question(rng, seed, level, card, table)


def _question(rng: random.Random, seed: int, level: int, card: Card, table: dict[str, Any]) -> Question:
    wall = rng.randint(4, 16)
    facts = [f"Late in the hand: {wall} tiles are left on the wall. You are {table['you']}, and it is your turn to discard."]
    for seat, exposures, _ in table["opponents"]:
        facts.append(f"{seat} has exposed {join(['a ' + e.describe() for e in exposures])}.")
    thrown = ", ".join(tile_label(t) for t in table["discards"])
    facts.append(f"Thrown so far, and nobody called any of them: {thrown}.")
    mine = table["mine"]
    if mine is not None:
        facts.append(f"Your nearest line is {mine.line.id}, {mine.distance} tiles away.")
    why = _reasons(card, table)
    best = tile_label(table["safe"])
    prompt = "Which tile do you throw?" if level == 3 else "Which of these tiles is safest to throw?"
    draft = choice.Draft(
        prompt=prompt, facts=tuple(facts), best=best, why=(why[best], cite("D1")),
        wrong={c: text for c, text in why.items() if c != best}, rules=("D1",),
        rack=tuple(tiles.CODES[t] for t in sorted(table["rack"])),
        exposed=tuple(tuple(e.codes) for _, exposures, _ in table["opponents"] for e in exposures),
        scene=Scene(
            rack=tuple(tiles.CODES[t] for t in table["rack"]), seat=table["you"],
            others=tuple((seat, tuple(tuple(e.codes) for e in exposures)) for seat, exposures, _ in table["opponents"]),
            discards=tuple(tiles.CODES[t] for t in table["discards"]),
        ),
        order=tuple(tile_label(t) for t in table["candidates"]),
        # The table as the truth was computed from it, for checking it again.
        situation={
            "opponents": tuple(
                (seat, tuple(tuple(e.codes) for e in exposures)) for seat, exposures, _ in table["opponents"]
            ),
            "discards": tuple(tiles.CODES[t] for t in table["discards"]),
        },
    )
    return choice.question(rng, NAME, seed, level, card.name, draft, choice.SENTENCE)


def _reasons(card: Card, table: dict[str, Any]) -> dict[str, str]:
    """Why each candidate is safe or hot, each reason ending with D1."""
    safe = table["safe"]
    opponents = table["opponents"]
    mine = table["mine"]
    seats = [seat for seat, _, _ in opponents]
    whose = f"{seats[0]}'s exposures" if len(seats) == 1 else f"the exposures of {join(seats)}"
    if table["twice"]:
        reason = f"The {tile_label(safe)} was thrown twice already and nobody called it, so it is safe (D1)."
    else:
        reason = f"The {tile_label(safe)} fits no exposure on the table: no hand that {whose} allow needs it, so it is safe (D1)."
    if mine is not None:
        reason += f" Your own {mine.line.id} uses it, but late in the hand defence matters more than your own rack (D1)."
    why = {tile_label(safe): reason}
    for t in table["hot"]:
        text = f"The {tile_label(t)} is hot: {_need(card, opponents, t)} (D1)."
        if table["discards"].count(t) == 1:
            text += " It was thrown only once: it takes two throws without a call to make a tile safe (D1)."
        if mine is not None:
            text += (
                f" Your {mine.line.id} has no place for it, but late in the hand defence matters more"
                f" than your own rack (D1)."
            )
        why[tile_label(t)] = text
    return why


def _need(card: Card, opponents: list, tile: int) -> str:
    """How many of the possible hands of the opponent it helps most need the tile, in words."""
    seat, exposures, _ = max(opponents, key=lambda o: o[2][tile])
    return danger(card, exposures).words(tile, seat)


grade = choice.grade


# A nudge per level, toward what makes the one tile safe (D1), never naming it.
HINTS = {
    1: "Take the tiles one by one: which of them could no exposure on the table use?",
    2: "Read the discards: has one of these tiles been thrown twice with no call?",
    3: "Defence first, late in a hand: which tile helps none of the other players, even if your own line wants it?",
}


def hint(question: Question) -> str:
    return HINTS[question.level]

"""Dead or alive: is this hand dead, and what follows? (E1, E3, E4)

Level 1 shows a situation and asks whether the hand is dead, and if so
why: a wrong tile count after East's first discard, exposures that fit no
line, exposures when only a concealed line fits them, drawing out of turn,
discarding before drawing, a joker exchange before acquiring a tile, or a
wrong Mah Jongg laid down (E3). Every hand that could be checked tile by
tile is checked with the core: exposures against the card's readings
(`line_distances` for the exposed lines, `assign_exposures` for the
concealed ones), a declared Mah Jongg with `winning_lines` (E1). Each
situation has exactly one cause, or none; picking "dead" for the wrong
reason earns half a point.

Level 2 asks what follows (E4): a dead hand stops drawing, discarding and
calling but still pays the winner; it is called dead by another player,
proven by the tiles; nobody declares their own hand dead. And after a
Mah Jongg is shown, the others check it (E1): a right one wins, a wrong
one makes the hand dead.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

from coach.notation import tiles
from coach.notation.card import Card, Line, Reading
from coach.reading.tiles_away import Exposure, Holding, fill
from coach.rules import dead_hands as dead
from coach.rules.catalog import cite
from coach.rules.dead_hands import concealed_lines, exposed_lines
from coach.rules.mahjong import winning_lines
from coach.rules.ruling import Ruling
from coach.rules.table import SEATS
from drills.kit import choice, wording
from drills.kit.base import Level, Question, check_level, rng_for
from drills.kit.exposures import exposure_for
from drills.kit.wording import capitalised, join, line_text

NAME = "dead-or-alive"
TITLE = "Dead or alive?"
TEMPLATE = "choice"
LEVELS: tuple[Level, ...] = (
    Level(1, "Dead or alive?", "A tile count, exposures, a turn played wrong or a Mah Jongg laid down: is the hand dead, and why?"),
    Level(2, "What follows?", "Who may call a hand dead, what a dead hand still does, and what happens after a Mah Jongg is shown."),
)

NOT_DEAD = "Not dead"
COUNT = "Dead: wrong number of tiles"
NO_LINE = "Dead: its exposures fit no line"
CONCEALED = "Dead: exposed, but only a concealed line fits"
DREW = "Dead: drew out of turn"
EARLY = "Dead: discarded before drawing"
SWAP = "Dead: joker exchange before drawing"
FALSE_MJ = "Dead: wrong Mah Jongg"
CAUSES = (COUNT, NO_LINE, CONCEALED, DREW, EARLY, SWAP, FALSE_MJ)


# The core decides (coach/rules/dead_hands.py); each cause it names is one choice here.
CHOICE_OF = {
    None: NOT_DEAD, dead.COUNT: COUNT, dead.NO_LINE: NO_LINE, dead.CONCEALED_ONLY: CONCEALED,
    dead.DREW: DREW, dead.EARLY: EARLY, dead.SWAP: SWAP, dead.FALSE_MAH_JONGG: FALSE_MJ,
}


def verdict_choice(ruling: Ruling) -> str:
    """The choice that says what the core ruled: not dead, or dead for its cause (E3)."""
    return CHOICE_OF[ruling.facts["cause"]]


def words(exposures: tuple[Exposure, ...]) -> str:
    return join(["a " + e.describe() for e in exposures])


def _x_line(rng: random.Random, card: Card) -> tuple[Line, Reading]:
    line = rng.choice([ln for ln in card.lines if not ln.concealed and ln.has_group(3)])
    return line, rng.choice(line.readings)


def _exposures_from(rng: random.Random, reading: Reading, most: int = 2) -> tuple[Exposure, ...]:
    big = [g for g in reading.groups if g.size >= 3]
    picked = rng.sample(big, rng.randint(1, min(most, len(big))))
    return tuple(exposure_for(rng, g.tile, g.size) for g in picked)


def _partial(rng: random.Random, reading: Reading, exposures: tuple[Exposure, ...], size: int) -> list[int] | None:
    """A rack of `size` tiles on its way to `reading`, beside these exposures: some of
    the reading's other tiles and a few it cannot use."""
    left = list(reading.tiles)
    for e in exposures:
        for _ in range(e.size):
            left.remove(e.tile)
    rng.shuffle(left)
    rack = left[: rng.randint(max(0, size - 5), max(0, size - 2))]
    useful = set(reading.tiles)
    noise = [t for t in range(tiles.NATURALS) if t not in useful]
    rack += [rng.choice(noise) for _ in range(size - len(rack))]
    shown = rack + [t for e in exposures for t in e.tiles]
    if any(c > cap for c, cap in zip(tiles.counts(shown), tiles.COPIES)):
        return None
    return rack


def _declared(rng: random.Random, card: Card, right: bool) -> dict[str, Any] | None:
    """Fourteen tiles laid down for Mah Jongg: a real win, or one tile wrong."""
    line, reading = _x_line(rng, card)
    exposures = _exposures_from(rng, reading) if rng.random() < 0.7 else ()
    rack = list(reading.tiles)
    for e in exposures:
        for _ in range(e.size):
            rack.remove(e.tile)
    groups = {g.tile: g.size for g in reading.groups}
    # Jokers in some groups of three or more, as real winning hands have (J1).
    for t in sorted(set(rack)):
        if groups.get(t, 0) >= 3 and rng.random() < 0.3:
            rack[rack.index(t)] = tiles.JOKER
    joker_pair = False
    if not right:
        naturals = [t for t in rack if t != tiles.JOKER]
        small = [t for t in naturals if groups.get(t, 0) in (1, 2)]
        if small and rng.random() < 0.4:
            rack[rack.index(rng.choice(small))] = tiles.JOKER  # a joker where it may not stand (J2)
            joker_pair = True
        else:
            wrong = rng.choice([t for t in range(tiles.NATURALS) if t not in groups])
            rack[rack.index(rng.choice(naturals))] = wrong
    shown = rack + [t for e in exposures for t in e.tiles]
    if any(c > cap for c, cap in zip(tiles.counts(shown), tiles.COPIES)):
        return None
    holding = Holding.of(rack, exposures)
    wins = winning_lines(card, holding)
    if right != any(w.line is line for w in wins) or (not right and wins):
        return None
    if exposures and not exposed_lines(card, exposures):
        return None
    return {"line": line, "reading": reading, "holding": holding, "wins": wins, "joker_pair": joker_pair}


def _mismatch(found: dict[str, Any]) -> str:
    """What is wrong with a declared hand, against the line it was declared on."""
    line, reading, holding = found["line"], found["reading"], found["holding"]
    placed = fill(reading, holding)
    missing = join([f"{m.count} more {tiles.label(tiles.CODES[m.tile])}" for m in placed.missing])
    extra = join(["a Joker" if t == tiles.JOKER else f"the {tiles.label(tiles.CODES[t])}" for t in placed.unused])
    text = f"{line.id} would still need {missing} and has no place for {extra}"
    if found["joker_pair"]:
        text += ": a joker may never stand in a single or a pair (J2)"
    return text


def _no_line_exposures(rng: random.Random, card: Card) -> tuple[Exposure, ...] | None:
    """Two real groups from two different lines that no line holds together."""
    first = _exposures_from(rng, _x_line(rng, card)[1], 1)
    second = _exposures_from(rng, _x_line(rng, card)[1], 1)
    exposures = first + second
    if first[0].tile == second[0].tile:
        return None
    if exposed_lines(card, exposures) or concealed_lines(card, exposures):
        return None
    return exposures


def _concealed_only_exposures(rng: random.Random, card: Card) -> tuple[tuple[Exposure, ...], list[Line]] | None:
    lines = [ln for ln in card.lines if ln.concealed and ln.has_group(3)]
    if not lines:
        return None
    line = rng.choice(lines)
    exposures = _exposures_from(rng, rng.choice(line.readings))
    if exposed_lines(card, exposures):
        return None
    return exposures, concealed_lines(card, exposures)


# -- level 1: dead or alive? -----------------------------------------------------------
#
# Each builder makes one situation, or None when the deal misses: a dict of
# player, rack, exposed, facts, items (rule ids), best and why (a reason per
# choice, each ending with its rule ids); level 2 adds its own prompt.

NO_MAH_JONGG = "Nobody has declared Mah Jongg, so no wrong Mah Jongg was laid down (E3, E1)."
Situation = dict[str, Any]


def _seats(rng: random.Random) -> tuple[str, str]:
    player = rng.choice(SEATS)
    return player, rng.choice([s for s in SEATS if s != player])


def _situation(player: str, facts: list[str], best: str, why: dict[str, str], items: tuple[str, ...], **more: Any) -> Situation:
    return {"player": player, "rack": (), "exposed": (), "facts": facts, "best": best, "why": why, "items": items, **more}


def _count(rng: random.Random, card: Card, right: bool) -> Situation | None:
    """A rack and exposures to count: 13 between turns, 14 after a draw or before East's first discard."""
    player = rng.choice(SEATS)
    _, reading = _x_line(rng, card)
    exposures = _exposures_from(rng, reading, 1) if rng.random() < 0.6 else ()
    moment = rng.choice(("between", "drawn", "east") if right else ("between", "drawn"))
    if moment == "east":
        player = "East"
    expected = 13 if moment == "between" else 14
    size = expected if right else expected + rng.choice((-1, 1))
    rack = _partial(rng, reading, exposures, size - sum(e.size for e in exposures))
    if rack is None or (exposures and not exposed_lines(card, exposures)):
        return None
    turn = rng.choice([s for s in SEATS if s != player])
    facts = [{
        "between": f"East made the first discard a few turns ago. It is {turn}'s turn.",
        "drawn": f"East made the first discard a few turns ago. {player} has just drawn and not yet discarded.",
        "east": "The Charleston is over. East has not made the first discard yet.",
    }[moment], f"{player}'s rack and exposures are shown."]
    held = f"{len(rack)} on the rack" + (f" and {sum(e.size for e in exposures)} exposed" if exposures else "")
    when = {
        "between": "between turns every player holds 13",
        "drawn": "after drawing, before the discard, a player holds 14",
        "east": "before the first discard East holds 14 (S3), and the count is only checked after East's first discard",
    }[moment]
    count = f"{player} holds {size} tiles ({held}); {when} (E3)."
    best = verdict_choice(dead.dead_by_count(size, moment))
    if best == NOT_DEAD:
        why = {NOT_DEAD: count, COUNT: f"The count is right: {count}"}
    else:
        why = {COUNT: f"{count.rstrip('.')}, so the hand is dead.", NOT_DEAD: f"The count is wrong: {count}"}
    if exposures:
        fit = exposed_lines(card, exposures)[0]
        verb = "fits" if len(exposures) == 1 else "fit"
        exposed = "exposure" if len(exposures) == 1 else "exposures"
        why[NO_LINE] = f"{player}'s {exposed}, {words(exposures)}, {verb} {fit.id}, an exposed line (E3)."
    why[FALSE_MJ] = NO_MAH_JONGG
    items = ("E3", "S3") if moment == "east" else ("E3",)
    return _situation(player, facts, best, why, items, rack=rack, exposed=exposures)


def _no_line(rng: random.Random, card: Card) -> Situation | None:
    exposures = _no_line_exposures(rng, card)
    if exposures is None:
        return None
    player, _ = _seats(rng)
    shown = words(exposures)
    why = {
        NO_LINE: f"No line of the card has groups for {shown} together, so the hand is dead (E3).",
        NOT_DEAD: f"The exposures prove it: no line of the card has groups for {shown} together (E3).",
    }
    return _with_exposures(player, exposures, verdict_choice(dead.dead_by_exposures(card, exposures)), why, ("E3",))


def _concealed_only(rng: random.Random, card: Card) -> Situation | None:
    found = _concealed_only_exposures(rng, card)
    if found is None:
        return None
    exposures, hidden = found
    player, _ = _seats(rng)
    ids, shown = join([ln.id for ln in hidden]), words(exposures)
    why = {
        CONCEALED: (
            f"Only {ids}, concealed, {'has' if len(hidden) == 1 else 'have'} groups for {shown};"
            f" a concealed line allows no exposure (H4), so the hand is dead (E3)."
        ),
        NOT_DEAD: (
            f"No exposed line has groups for {shown}: only {ids}, concealed, and a concealed"
            f" line allows no exposure (H4, E3)."
        ),
    }
    return _with_exposures(player, exposures, verdict_choice(dead.dead_by_exposures(card, exposures)), why, ("E3", "H4"))


def _fits(rng: random.Random, card: Card) -> Situation | None:
    exposures = _exposures_from(rng, _x_line(rng, card)[1])
    fits = exposed_lines(card, exposures)
    player, _ = _seats(rng)
    verb = "fits" if len(exposures) == 1 else "fit"
    ids = join([ln.id for ln in fits[:3]])
    why = {
        NOT_DEAD: f"{capitalised(words(exposures))} {verb} {ids}{' and more' if len(fits) > 3 else ''}: the hand can still win (E3).",
        NO_LINE: f"{'It fits a line' if len(exposures) == 1 else 'Together they fit a line'}: {ids} (E3).",
        CONCEALED: f"{ids} {'is an exposed line' if len(fits) == 1 else 'are exposed lines'}, so exposing was allowed (E3, H4).",
    }
    return _with_exposures(player, exposures, verdict_choice(dead.dead_by_exposures(card, exposures)), why, ("E3", "H4"))


def _with_exposures(player: str, exposures: tuple[Exposure, ...], best: str, why: dict[str, str], items: tuple[str, ...]) -> Situation:
    """Exposures and a right tile count, so the exposures alone decide."""
    why[COUNT] = f"{player} holds 13 tiles between turns, the right number (E3)."
    why[FALSE_MJ] = NO_MAH_JONGG
    facts = [f"{player} has exposed {words(exposures)}.", f"{player} holds 13 tiles in all, between turns."]
    return _situation(player, facts, best, why, items, exposed=exposures)


def _turn(rng: random.Random, card: Card, kind: str) -> Situation:
    """A turn played out of order, or a call, which is no fault (K5)."""
    player, other = _seats(rng)
    name = tiles.label(tiles.CODES[rng.randrange(27)])
    items: tuple[str, ...] = ("E3",)
    event = {"drew": "drew-out-of-turn", "early": "discarded-before-drawing"}.get(kind, "called")
    best = verdict_choice(dead.dead_by_turn(event))
    if kind == "drew":
        facts = [f"Some turns into the hand, it is {other}'s turn. Before {other} draws, {player} takes a tile from the wall."]
        why = {
            DREW: f"{player} drew out of turn: it was {other}'s turn, so {player}'s hand is dead (E3).",
            NOT_DEAD: "Drawing out of turn makes a hand dead (E3).",
            EARLY: f"{player} did not discard; {player} drew when it was {other}'s turn (E3).",
        }
    elif kind == "early":
        facts = [f"Some turns into the hand, it is {player}'s turn. {player} throws the {name} without drawing a tile first."]
        why = {
            EARLY: f"A turn is draw, then discard: discarding before drawing makes {player}'s hand dead (E3).",
            NOT_DEAD: "Discarding before drawing makes a hand dead (E3).",
            DREW: f"It was {player}'s own turn; the fault is the discard before the draw (E3).",
        }
    else:
        facts = [f"{other} threw the {name}. {player} calls it for a pung, exposes the pung and then discards, without drawing."]
        why = {
            NOT_DEAD: "A call takes the place of the draw: expose, then discard (K5). Nothing makes the hand dead (E3).",
            EARLY: f"After a call there is no draw: the called tile was {player}'s tile for the turn (K5, E3).",
            DREW: f"{player} drew nothing; a call may take a discard out of turn (K5, E3).",
        }
        items = ("E3", "K5")
    why[FALSE_MJ] = NO_MAH_JONGG
    return _situation(player, facts, best, why, items)


def _swap(rng: random.Random, card: Card, early: bool) -> Situation:
    """A joker exchange before or after the draw (J4)."""
    player, holder = _seats(rng)
    tile = rng.randrange(27)
    group = wording.group(tile, rng.choice((3, 4, 5)))
    swap = f"hands {holder} the {tiles.label(tiles.CODES[tile])} and takes the joker from {holder}'s exposed {group}"
    best = verdict_choice(dead.dead_by_turn("exchanged-before-drawing" if early else "exchanged-after-drawing"))
    if early:
        facts = [f"Some turns into the hand, it is {player}'s turn. Before drawing, {player} {swap}."]
        why = {
            SWAP: (
                f"A joker exchange comes after you have acquired a tile (a draw or a call); exchanging"
                f" before drawing makes {player}'s hand dead (J4, E3)."
            ),
            NOT_DEAD: f"{player} exchanged before drawing, which makes the hand dead (J4, E3).",
            DREW: f"It was {player}'s own turn; the fault is the exchange before the draw (J4, E3).",
        }
    else:
        facts = [f"Some turns into the hand, it is {player}'s turn. {player} draws, then {swap}."]
        why = {
            NOT_DEAD: (
                f"On your own turn, after you have drawn, you may give the natural tile and take the joker;"
                f" {player} did it in the right order (J4). Nothing makes the hand dead (E3)."
            ),
            SWAP: f"{player} drew first, then exchanged: that is the right order (J4, E3).",
            EARLY: f"{player} drew before the exchange and has not discarded yet (J4, E3).",
        }
    why[FALSE_MJ] = NO_MAH_JONGG
    return _situation(player, facts, best, why, ("E3", "J4"))


def _shown(rng: random.Random, card: Card, right: bool) -> Situation | None:
    """A Mah Jongg laid down; the others check it (E1)."""
    found = _declared(rng, card, right)
    if found is None:
        return None
    player, _ = _seats(rng)
    holding, line = found["holding"], found["line"]
    facts = [
        f"{player} says \"Mah Jongg\" and lays down all 14 tiles, for {line_text(line, found['reading'])}.",
        "The others check the hand.",
    ]
    count = f"{player} laid down 14 tiles, the right number for Mah Jongg (E3, E1)."
    best = verdict_choice(dead.dead_by_mah_jongg(card, holding))
    if best == NOT_DEAD:
        why = {
            NOT_DEAD: f"The others check the hand: the tiles complete {line.id}, so {player} wins (E1).",
            FALSE_MJ: f"The Mah Jongg is right: the tiles complete {line.id} (E1, E3).",
            COUNT: count,
        }
    else:
        wrong = _mismatch(found)
        why = {
            FALSE_MJ: (
                f"The others check the hand (E1): {wrong}; no other line of the card is complete"
                f" either. A wrong Mah Jongg laid down makes the hand dead (E3)."
            ),
            NOT_DEAD: f"The hand laid down is not Mah Jongg: {wrong} (E1, E3).",
            COUNT: count,
        }
        if holding.exposures:
            fit = exposed_lines(card, holding.exposures)[0]
            why[NO_LINE] = f"The exposures fit {fit.id}; the fault is the hand laid down (E3)."
    items = ("E3", "E1", "J2") if found["joker_pair"] else ("E3", "E1")
    return _situation(player, facts, best, why, items, rack=holding.rack_tiles(), exposed=holding.exposures)


# -- level 2: what follows? ------------------------------------------------------------


def _proven_dead(rng: random.Random, card: Card) -> tuple[str, str, tuple[Exposure, ...], str] | None:
    """A player whose exposures no line holds together, a second player, and the proof in words."""
    exposures = _no_line_exposures(rng, card)
    if exposures is None:
        return None
    player, other = _seats(rng)
    return player, other, exposures, f"no line of the card has groups for {words(exposures)} together"


def _own_hand(rng: random.Random, card: Card) -> Situation | None:
    found = _proven_dead(rng, card)
    if found is None:
        return None
    player, _, exposures, proof = found
    keep = "Keep playing, and play defence"
    stop = "Stop drawing and discarding"
    best = stop if dead.who_calls_it_dead(own=True, proven=True) else keep  # nobody declares their own (E4)
    facts = [
        f"You are {player}. You have exposed {words(exposures)}.",
        "You notice that no line of the card allows both; nobody else has said anything.",
    ]
    why = {
        keep: (
            f"Your hand is dead by the tiles, since {proof} (E3); but nobody declares their own"
            f" hand dead: it is called dead by another player, proven by the tiles (E4)."
            f" Keep playing and throw safe tiles."
        ),
        "Announce that your hand is dead": "Nobody declares their own hand dead; another player calls it (E4).",
        stop: "A hand stops playing once another player calls it dead; nobody declares their own hand dead (E4).",
    }
    return _situation(player, facts, best, why, ("E4", "E3"), exposed=exposures, prompt="What do you do?")


def _called_dead(rng: random.Random, card: Card, then: str) -> Situation | None:
    """A hand called dead and proven by its exposures; `then`: "follows", "calls" or "pays"."""
    found = _proven_dead(rng, card)
    if found is None:
        return None
    player, caller, exposures, proof = found
    facts = [f"{player} has exposed {words(exposures)}.", f"{caller} called {player}'s hand dead, and the tiles prove it: {proof}."]
    later = rng.choice([s for s in SEATS if s != player])
    if then == "follows":
        stops = not any(dead.dead_hand_may(a) for a in ("draw", "discard", "call"))
        pays = dead.dead_hand_may("pay the winner")
        if not (stops and pays):
            return None  # the core and this question's choices disagree: ask another (E4)
        best = f"{player} stops drawing, discarding and calling, and still pays the winner"
        why = {
            best: "A dead hand no longer draws, discards or calls, but its player still pays the winner (E4).",
            f"{player} stops playing and pays nothing": "A dead hand still pays the winner (E4).",
            f"{player} plays on but cannot win": "A dead hand stops drawing, discarding and calling (E4).",
            "The hand is thrown in and dealt again": (
                "Only the dead hand stops; the other three play on, and the dead hand pays the winner (E4)."
            ),
        }
        return _situation(player, facts, best, why, ("E4", "E3"), exposed=exposures, prompt=f"What follows for {player}?")
    if then == "calls":
        open_tiles = [e for e in exposures if e.size - e.jokers < tiles.COPIES[e.tile]]
        if not open_tiles:
            return None  # every copy of the exposed tiles is on the table already
        facts.append(f"Later {later} throws the {tiles.label(tiles.CODES[rng.choice(open_tiles).tile])}.")
        best = "Yes, for an exposure" if dead.dead_hand_may("call") else "No: a dead hand makes no calls"
        why = {
            best: "A dead hand no longer draws, discards or calls, not even for Mah Jongg (E4).",
            "Yes, for an exposure": "A dead hand makes no calls at all (E4).",
            "Only for Mah Jongg": "A dead hand makes no calls, not even for Mah Jongg (E4).",
        }
        return _situation(player, facts, best, why, ("E4",), exposed=exposures, prompt=f"May {player} call it?")
    thrower = rng.choice([s for s in SEATS if s not in (player, later)])
    facts.append(f"Later {later} wins on a tile {thrower} threw.")
    best = f"Yes: {player} still pays the winner" if dead.dead_hand_may("pay the winner") else "No: a dead hand pays nothing"
    why = {
        best: "A dead hand stops playing, but its player still pays the winner (E4).",
        "No: a dead hand pays nothing": "A dead hand still pays the winner (E4).",
    }
    return _situation(player, facts, best, why, ("E4",), exposed=exposures, prompt=f"Does {player} pay {later}?")


def _unproven(rng: random.Random, card: Card) -> Situation:
    exposures = _exposures_from(rng, _x_line(rng, card)[1])
    ids = join([ln.id for ln in exposed_lines(card, exposures)[:3]])
    player, other = _seats(rng)
    facts = [
        f"{player} has exposed {words(exposures)}.",
        f"{player} holds 13 tiles in all, between turns.",
        f"{other} says {player}'s hand must be dead: {player} just threw a tile {other} thought {player} needed.",
    ]
    plays_on = f"{player} plays on: the tiles do not prove the hand dead"
    stops = f"{player}'s hand is dead: {player} stops playing"
    proven = bool(dead.dead_by_exposures(card, exposures))
    best = stops if dead.who_calls_it_dead(own=False, proven=proven) else plays_on
    why = {
        plays_on: (
            f"A hand is called dead by another player only when the tiles prove it (E4). {player}'s"
            f" exposures fit {ids}, and the tile count is right (E3)."
        ),
        stops: f"A guess is not proof: the exposures fit {ids} (E4, E3).",
        f"{player} must say whether the hand is dead": "Nobody declares their own hand dead; the tiles decide (E4).",
    }
    return _situation(player, facts, best, why, ("E4", "E3"), exposed=exposures, prompt="What follows?")


def _after_shown(rng: random.Random, card: Card, right: bool) -> Situation | None:
    """What follows a Mah Jongg laid down: a win, or a dead hand that still pays (E1, E3, E4)."""
    found = _declared(rng, card, right)
    if found is None:
        return None
    player, _ = _seats(rng)
    holding, line = found["holding"], found["line"]
    facts = [f"{player} says \"Mah Jongg\" and lays down all 14 tiles, for {line_text(line, found['reading'])}."]
    dead_hand = f"{player}'s hand is dead: the others play on, and {player} pays the winner"
    wins = f"{player} wins: the others check the hand, then pay"
    ends = "The hand ends and nobody pays"
    back = f"{player} takes the tiles back and plays on"
    items: tuple[str, ...]
    if not dead.dead_by_mah_jongg(card, holding):
        best, items = wins, ("E1",)
        why = {
            wins: f"Mah Jongg is declared and shown, and the others check it (E1): the tiles complete {line.id}.",
            dead_hand: f"The hand is right: it completes {line.id} (E1, E4).",
            back: "A shown Mah Jongg that the others find right ends the hand with a win (E1).",
            ends: f"The tiles complete {line.id}: {player} wins and is paid (E1).",
        }
    else:
        wrong = _mismatch(found)
        best, items = dead_hand, ("E1", "E3", "E4") + (("J2",) if found["joker_pair"] else ())
        why = {
            dead_hand: (
                f"The others check the hand (E1): {wrong}. A wrong Mah Jongg laid down is dead (E3); the other three"
                f" play on, and {player} still pays whoever wins (E4)."
            ),
            wins: f"The others check the hand, and it is not a win: {wrong} (E1).",
            back: "Once a wrong Mah Jongg is laid down the hand is dead; it cannot be taken back (E3, E4).",
            ends: f"Only {player}'s hand is dead: the other three play on, and {player} pays the winner (E4).",
        }
    return _situation(
        player, facts, best, why, items, rack=holding.rack_tiles(), exposed=holding.exposures, prompt="What follows?"
    )


Builder = Callable[[random.Random, Card], Situation | None]
LEVEL_KINDS: dict[int, dict[str, Builder]] = {
    1: {
        "count-wrong": partial(_count, right=False),
        "count-right": partial(_count, right=True),
        "no-line": _no_line,
        "concealed-only": _concealed_only,
        "fits": _fits,
        "drew": partial(_turn, kind="drew"),
        "early": partial(_turn, kind="early"),
        "called": partial(_turn, kind="called"),
        "swap-early": partial(_swap, early=True),
        "swap-ok": partial(_swap, early=False),
        "false-mj": partial(_shown, right=False),
        "true-mj": partial(_shown, right=True),
    },
    2: {
        "self": _own_hand,
        "called-dead": partial(_called_dead, then="follows"),
        "no-calls": partial(_called_dead, then="calls"),
        "still-pays": partial(_called_dead, then="pays"),
        "unproven": _unproven,
        "false-mj-next": partial(_after_shown, right=False),
        "true-mj-next": partial(_after_shown, right=True),
    },
}


# The nudge of each kind of question, by the same names; level 1 asks one thing of every deal
# ("is the hand dead?"), so its kinds share one nudge that names no cause (a cause's rule would hint at it).
# Both Mah Jongg kinds of level 2 ask what follows a Mah Jongg laid down: one kind too.
DEAD = "Go through what kills a hand: the tile count for this moment, the exposures against the card, the turn's order, a Mah Jongg shown."
KIND_HINTS: dict[str, tuple[str, str]] = {
    **{kind: ("dead", DEAD) for kind in LEVEL_KINDS[1]},
    "self": ("self", "Whose job is it to call a hand dead, and what does its player do until then?"),
    "called-dead": ("called-dead", "What may a dead hand no longer do, and does its player still owe the winner?"),
    "no-calls": ("no-calls", "Once a hand is dead, which moves are left to it?"),
    "still-pays": ("still-pays", "What does a dead hand stop doing, and is paying the winner one of those things?"),
    "unproven": ("unproven", "What would prove this hand dead, and is that proof on the table?"),
    "false-mj-next": ("mj-next", "Check the tiles against the line named: do they complete it? Then what happens to that hand and to the others?"),
    "true-mj-next": ("mj-next", "Check the tiles against the line named: do they complete it? Then what happens to that hand and to the others?"),
}


def _of_kind(kind: str, build: Builder, rng: random.Random, card: Card) -> Situation | None:
    """A situation of this kind, tagged with its kind's name (None when the deal misses)."""
    found = build(rng, card)
    return None if found is None else {**found, "kind": kind}


# -- the drill ------------------------------------------------------------------------


def generate(seed: int, level: int, card: Card) -> Question:
    check_level(LEVELS, level)
    rng = rng_for(NAME, seed, level)
    kinds = list(LEVEL_KINDS[level])
    first = rng.choice(kinds)
    order = [first] + [k for k in kinds if k != first]
    found = choice.dealt(f"level-{level} situation on {card.name}", *(partial(_of_kind, k, LEVEL_KINDS[level][k], rng, card) for k in order))
    return _question(rng, seed, level, card, found)


def _question(rng: random.Random, seed: int, level: int, card: Card, found: dict[str, Any]) -> Question:
    why: dict[str, str] = found["why"]
    best: str = found["best"]
    choices = [best] + [c for c in why if c != best]
    choices = choices[:4]
    wrong = {c: why[c] for c in choices[1:]}
    partial: dict[str, float] = {}
    if level == 1 and best in CAUSES:
        # Dead is right; only the reason is wrong.
        partial = {c: 0.5 for c in wrong if c in CAUSES}
        for c in partial:
            wrong[c] = f"The hand is dead, but not for that reason. {wrong[c]}"
    rules = tuple(found["items"])
    exposures: tuple[Exposure, ...] = tuple(found["exposed"])
    draft = choice.Draft(
        prompt=found.get("prompt", f"Is {found['player']}'s hand dead?"), facts=tuple(found["facts"]),
        best=best, why=(why[best], *(cite(r) for r in rules)), wrong=wrong, rules=rules,
        rack=tuple(tiles.CODES[t] for t in sorted(found["rack"])),
        exposed=tuple(tuple(e.codes) for e in exposures), partial=partial,
        kind=KIND_HINTS[found["kind"]][0], hint=KIND_HINTS[found["kind"]][1],
    )
    return choice.question(rng, NAME, seed, level, card.name, draft, choice.SENTENCE)


grade = choice.grade
hint = choice.hint

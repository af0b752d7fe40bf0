"""Calls: may you call this discard, for what, and who gets it (K1-K7, J3, H4).

Levels 1 and 2 show a discard, your rack and exposures, and the line you
play, read with actual suits. The line shown steers the deal, but the
verdict comes from the core (coach.rules.calls.call_ruling): a call for an
exposure is legal when some line still open to the hand has a group of the
discarded tile that the rack completes (K2; the player may switch aim, H3),
whether or not it is the line shown; on a concealed line the player keeps
it only by calling for Mah Jongg (K7), and the tile completing a hand
anywhere on the card is a call for Mah Jongg (K3). Where several sizes are
legal, each is credited.

Level 3 asks who gets a tile two players call (K4, by League rules: the
table variant and "first to speak" are named but never applied). Level 4
asks what a call changes: who plays next and who loses a turn, that no
tile is drawn after a call, and when a new exposure is locked (K5, K6).

Under a table's own rules (`generate(..., rules=)`) the levels also ask
those rules where they differ, saying so first: at a cold wall nothing may
be called in the last tiles (TR2), a blank swap is not a call and a
discarded blank is never called (TR1), the first to speak takes a discard
(TR6); with three players the seats are East, South and West (TR4).

Answers are one of the question's choices, as text.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from coach.notation import tiles
from coach.notation.card import GROUP_NAMES, Card, Group, Line, Reading
from coach.reading.tiles_away import Exposure, Holding, fill
from coach.rules import blanks
from coach.rules.calls import MAH_JONGG as MAH_JONGG_CALL
from coach.rules.calls import SIZES, GroupCall, after_call, call_ruling, may_rearrange, who_gets
from coach.rules.catalog import cite
from coach.rules.mahjong import winning_lines
from coach.rules.ruling import Ruling
from coach.rules.scenes import Scene
from coach.rules.table import next_seat, seats_between, seats_in_play, turns_after
from coach.rules.table_play import cold_wall_call, in_last_wall, last_wall
from coach.rules.table_rules import LEAGUE, WALL_COLD, TableRules
from drills.kit import choice
from drills.kit.base import Level, Question, check_level, per_card, rng_for
from drills.kit.exposures import exposure_for
from drills.kit.table import TABLE_SHARE, says
from drills.kit.wording import join, line_text, many, naturals_and_jokers, tiles_word
from drills.kit.wording import seats as seat_list

NAME = "calls"
TITLE = "Calling a discard"
TEMPLATE = "choice"
LEVELS: tuple[Level, ...] = (
    Level(1, "May you call it?", "A discard, your rack and your line: may you call it to expose a group, and is it still in time?"),
    Level(2, "Mah Jongg and concealed hands", "Your winning tile, a single or pair, a concealed line, a discarded joker."),
    Level(3, "Who gets the discard?", "Two players call the same tile: Mah Jongg or an exposure, and the order of the seats."),
    Level(4, "After the call", "Who plays next, who loses a turn, no draw after a call, and when an exposure locks."),
)

SEATS = tiles.SEATS
HAND = 13  # tiles a player holds while another player discards
NO = "No"
MAH_JONGG = "Yes, for Mah Jongg"
PAIR = "Yes, for a pair"


def for_group(size: int) -> str:
    return f"Yes, for a {GROUP_NAMES[size]}"


def prompt_for(tile: int, line: Line) -> str:
    """The question of levels 1 and 2. On a concealed line it names the line
    the learner keeps: K7 rules on a player who keeps a concealed line (the
    core's `call_ruling` takes that line), while a player free to switch aim
    (H3) could call for an exposure some exposed line allows. Asking "and
    still play it?" makes exactly one answer right, so no legal call is
    marked wrong."""
    if line.concealed:
        return f"May you call {the(tile)} and still play {line.id}? If so, for what?"
    return f"May you call {the(tile)}, and for what?"


# -- words ----------------------------------------------------------------------


def the(tile: int) -> str:
    return "a Joker" if tile == tiles.JOKER else f"the {tiles.label(tiles.CODES[tile])}"


# Turn order comes from the core (S5); the drill only names it.
after = next_seat
between = seats_between


# -- dealing a rack toward a line ---------------------------------------------------


def _deal(
    rng: random.Random,
    reading: Reading,
    target: int,
    held: int,
    exposed: tuple[int, ...],
    discard: int,
    complete: bool = False,
    jokers: bool = True,
    extra: tuple[int, ...] = (),
) -> tuple[list[int], tuple[Exposure, ...]] | None:
    """A 13-tile holding built on `reading`: the exposed groups laid down,
    `held` tiles of the target group on the rack, and the other groups
    either full (`complete`: one tile short of the hand) or partly held with
    at least one tile the reading cannot use. None if the set runs short."""
    groups = reading.groups
    exposures = []
    for i in exposed:
        g = groups[i]
        exposures.append(exposure_for(rng, g.tile, g.size, jokers))
    rack = list(extra)
    t = groups[target]
    # The discard is the target group's tile too: leave a copy of it in the set.
    part = _part(rng, t.tile, held, t.size, jokers, 0.4, reserve=1 if discard == t.tile else 0)
    if part is None:
        return None
    rack += part
    room = HAND - sum(e.size for e in exposures) - len(rack)
    if room < (0 if complete else 1):
        return None  # the exposures take too much of the 13 tiles
    others = [i for i in range(len(groups)) if i != target and i not in exposed]
    rng.shuffle(others)
    for i in others:
        g = groups[i]
        take = g.size if complete else min(rng.randint(0, g.size), max(0, room - 1))
        part = _part(rng, g.tile, take, g.size, jokers, 0.25)
        if part is None:
            return None
        rack += part
        room -= take
    if complete and room != 0:
        return None
    useful = set(reading.tiles) | {discard, tiles.JOKER}
    noise = [n for n in range(tiles.NATURALS) if n not in useful]
    rack += [rng.choice(noise) for _ in range(room)]
    counts = tiles.counts(rack + [discard] + [x for e in exposures for x in e.tiles])
    if any(c > cap for c, cap in zip(counts, tiles.COPIES)):
        return None
    return rack, tuple(exposures)


def _part(
    rng: random.Random, tile: int, take: int, size: int, jokers: bool, odds: float, reserve: int = 0
) -> list[int] | None:
    """`take` tiles toward a group of `size`: naturals, with jokers where the
    set runs out of naturals or now and then by chance; only groups of three
    or more take jokers (J1, J2)."""
    must = max(0, take + reserve - tiles.COPIES[tile])
    wild = max(must, 1 if take >= 2 and rng.random() < odds else 0)
    if wild and (not jokers or size < 3):
        return None if must else [tile] * take
    return [tile] * (take - wild) + [tiles.JOKER] * wild


class Truth:
    """What the shown line wants of the discard, for dealing and for words, and
    the core's ruling on the call (coach.rules.calls), which alone decides."""

    def __init__(self, card: Card, line: Line, reading: Reading, holding: Holding, discard: int):
        self.card, self.line, self.reading, self.holding, self.discard = card, line, reading, holding, discard
        placed = fill(reading, holding, line.concealed)
        self.reachable = placed.reachable
        open_groups = [g for i, g in enumerate(reading.groups) if i not in placed.exposed_groups]
        mine = [g for g in open_groups if g.tile == discard]
        self.sizes = sorted({g.size for g in mine if g.size >= 3})  # groups of the shown line it could complete
        self.small = sorted({g.size for g in mine if g.size < 3})  # singles and pairs of it
        self.naturals = holding.rack[discard] if discard != tiles.JOKER else 0
        self.jokers = holding.jokers
        self.legal = [s for s in self.sizes if self.naturals + self.jokers >= s - 1]  # on the shown line
        with_it = Holding.of(holding.rack_tiles() + [discard], holding.exposures)
        self.wins = winning_lines(card, with_it)
        self.after = fill(reading, with_it, line.concealed).distance
        self._rulings: dict[bool, Ruling] = {}

    @property
    def wins_line(self) -> bool:
        return any(w.line is self.line for w in self.wins)

    def ruling(self, stale: bool = False) -> Ruling:
        """The core's ruling, asked once per timing: the question and its reasons read it several times."""
        if stale not in self._rulings:
            self._rulings[stale] = call_ruling(self.card, self.holding, self.discard, self.line, "racked" if stale else "latest")
        return self._rulings[stale]

    def answers(self, stale: bool = False) -> list[str]:
        """Every right choice, as the core rules, the shown line's own group first."""
        decision = self.ruling(stale).decision
        if decision == (MAH_JONGG_CALL,):
            return [MAH_JONGG]
        if not decision:
            return [NO]
        sizes = sorted(decision, key=lambda s: (s not in self.legal, s))
        return [for_group(s) for s in sizes]

    def answer(self, stale: bool = False) -> str:
        """The right choice (the first of several where several sizes are legal)."""
        return self.answers(stale)[0]


# -- levels 1 and 2: may you call it? --------------------------------------------------

KINDS = {
    1: ("expose", "short", "locked", "late", "in-time", "joker"),
    2: ("mahjong", "pair", "concealed", "concealed-win", "joker-win"),
}


def _lines(card: Card, concealed: bool, with_big: bool) -> tuple[Line, ...]:
    """The card's concealed (or exposed) lines, only those with a group of three or more when `with_big`."""
    return _lines_by_kind(card)[concealed, with_big]


@per_card
def _lines_by_kind(card: Card) -> dict[tuple[bool, bool], tuple[Line, ...]]:
    """`_lines` for every kind at once, once per card: a deal reads them on every try."""
    return {
        (concealed, with_big): tuple(
            line for line in card.lines if line.concealed == concealed and (not with_big or line.has_group(3))
        )
        for concealed in (False, True)
        for with_big in (False, True)
    }


def _pick_group(rng: random.Random, reading: Reading, big: bool) -> int | None:
    """A group of the reading whose tile appears in no other group of it."""
    groups = reading.groups
    options = [
        i for i, g in enumerate(groups)
        if (g.size >= 3) == big and g.tile != tiles.FLOWER
        and sum(1 for h in groups if h.tile == g.tile) == 1
    ]
    return rng.choice(options) if options else None


def _exposable(rng: random.Random, reading: Reading, target: int, most: int) -> tuple[int, ...]:
    """Up to `most` groups of three or more, other than the target, to show as exposures."""
    options = [i for i, g in enumerate(reading.groups) if g.size >= 3 and i != target]
    rng.shuffle(options)
    return tuple(sorted(options[: rng.randint(0, min(most, len(options)))]))


def _situation(rng: random.Random, card: Card, kind: str) -> dict[str, Any] | None:
    """One try at a situation of this kind; None when the deal does not fit."""
    concealed = kind in ("concealed", "concealed-win")
    big = kind in ("expose", "short", "locked", "late", "in-time", "joker", "concealed", "joker-win")
    if kind == "concealed-win":
        big = rng.random() < 0.4
    lines = _lines(card, concealed, big)
    if not lines:
        return None
    line = rng.choice(lines)
    reading = rng.choice(line.readings)
    target = _pick_group(rng, reading, big)
    if target is None:
        return None
    g = reading.groups[target]
    discard = g.tile
    complete = kind in ("mahjong", "concealed-win", "joker-win")
    held = g.size - 1
    exposed: tuple[int, ...] = () if concealed else _exposable(rng, reading, target, 2)
    extra: tuple[int, ...] = ()
    jokers = True
    if kind == "short":
        held = rng.randint(max(0, g.size - 3), g.size - 2)
        jokers = False  # a joker on the rack could make up the group, and the question would blur
    elif kind == "locked":
        if g.size != 3:
            return None
        exposed = tuple(sorted(set(exposed) | {target}))
        held = 0
        if rng.random() < 0.5:
            extra = (g.tile,)  # the fourth tile stays on the rack (K6)
    elif kind in ("joker", "joker-win"):
        discard = tiles.JOKER
    dealt = _deal(rng, reading, target, held, exposed, discard, complete, jokers, extra)
    if dealt is None:
        return None
    rack, exposures = dealt
    holding = Holding.of(rack, exposures)
    truth = Truth(card, line, reading, holding, discard)
    if not truth.reachable:
        return None
    expected = {
        "expose": lambda: not truth.wins and truth.legal == [g.size],
        "in-time": lambda: not truth.wins and truth.legal == [g.size],
        "late": lambda: not truth.wins and truth.legal == [g.size],
        "short": lambda: not truth.wins and truth.sizes == [g.size] and not truth.legal,
        "locked": lambda: not truth.wins and not truth.sizes,
        "joker": lambda: not truth.wins,
        "mahjong": lambda: truth.wins_line and not truth.sizes,
        "pair": lambda: not truth.wins and not truth.sizes and truth.small,
        "concealed": lambda: not truth.wins and truth.legal == [g.size],
        "concealed-win": lambda: truth.wins_line,
        "joker-win": lambda: truth.wins_line,
    }[kind]
    if kind == "joker":
        # The joker would complete a group the line needs: the tempting call.
        if sum(1 for t in holding.all_tiles() if t == g.tile) >= tiles.COPIES[g.tile]:
            return None
        truth_for_group = Truth(card, line, reading, holding, g.tile)
        if truth_for_group.wins or truth_for_group.legal != [g.size]:
            return None
    if not expected():
        return None
    return {"kind": kind, "line": line, "reading": reading, "group": g, "holding": holding, "truth": truth}


def _holding_question(rng: random.Random, seed: int, level: int, card: Card, rules: TableRules = LEAGUE) -> Question:
    first = rng.choice(KINDS[level])
    kinds = [first] + [k for k in KINDS[level] if k != first]
    found = choice.dealt(f"level-{level} situation on {card.name}", *(partial(_situation, rng, card, k) for k in kinds))
    return _ask_call(rng, seed, level, card, found, rules)


def _seats_for(rng: random.Random, kind: str, rules: TableRules = LEAGUE) -> tuple[str, str]:
    """(you, the discarder); for the timing questions the next player is someone else."""
    taken = seats_in_play(rules.players)
    you = rng.choice(taken)
    options = [s for s in taken if s != you and (kind not in ("late", "in-time") or after(s, 1, rules.players) != you)]
    return you, rng.choice(options)


def _ask_call(rng: random.Random, seed: int, level: int, card: Card, found: dict[str, Any], rules: TableRules = LEAGUE) -> Question:
    kind, line, reading, g = found["kind"], found["line"], found["reading"], found["group"]
    holding: Holding = found["holding"]
    truth: Truth = found["truth"]
    d = truth.discard
    you, thrower = _seats_for(rng, kind, rules)
    nxt = after(thrower, 1, rules.players)
    facts = [f"You are {you}. {thrower} just threw {the(d)}."]
    thrown = [d]  # every discard the facts name, for the scene checker
    stale = kind == "late"
    timing = None
    if kind in ("late", "in-time"):
        timing = rng.choice(("racked", "discarded", "older")) if stale else "drawn"
        if timing == "older":
            later = rng.choice([t for t in range(tiles.NATURALS) if t != d and not holding.rack[t]])
            thrown.append(later)
            facts = [
                f"You are {you}. {thrower} threw {the(d)}; then {nxt} drew and threw {the(later)}."
            ]
        else:
            facts.append({
                "racked": f"{nxt}, next to play, has drawn a tile and put it on the rack.",
                "discarded": f"{nxt}, next to play, has drawn and already discarded.",
                "drawn": f"{nxt}, next to play, has drawn a tile but not yet put it on the rack.",
            }[timing])
    facts.append(f"You play {line_text(line, reading)}.")
    if holding.exposures:
        facts.append(f"You have exposed {join(['a ' + e.describe() for e in holding.exposures])}.")
    ruling = truth.ruling(stale)
    call = _Call(kind, truth, g, nxt, timing)
    why = _call_reasons(call)
    if ruling.rule == "K2":
        why = _k2_reasons(call, ruling, why)
    answers = truth.answers(stale)
    best = answers[0]
    if best not in why:
        why[best] = _legal(call, _call_of(ruling, best))
    also = [a for a in answers[1:] if a in why]
    items = {
        "expose": ("K2",), "short": ("K2",), "locked": ("K2", "K6"), "late": ("K1", "K2"),
        "in-time": ("K1", "K2"), "joker": ("J3",), "mahjong": ("K3", "K2"), "pair": ("K2", "K3"),
        "concealed": ("K7", "H4"), "concealed-win": ("K7", "H4", "K3"), "joker-win": ("J3", "K3"),
    }[kind]
    return _asked(
        rng, seed, level, card, prompt_for(d, line), facts, best, why, items,
        rack=tuple(tiles.CODES[t] for t in sorted(holding.rack_tiles())),
        exposed=tuple(tuple(e.codes) for e in holding.exposures), also=tuple(also),
        scene=Scene(rack=tuple(tiles.CODES[t] for t in holding.rack_tiles()), exposures=tuple(tuple(e.codes) for e in holding.exposures),
                    discards=tuple(tiles.CODES[t] for t in thrown), seat=you),
        kind=_call_kind(line, d), hint=CALL_HINTS[_call_kind(line, d)],
    )


# The nudge of each kind of "May you call ...?" question. It speaks to what is asked, the same for every
# answer: a nudge chosen by the answer's rule would hint at the answer.
CALL_HINTS = {
    "call": "Is this the newest discard, and would it finish a group of three or more that your line needs, or your whole hand?",
    "call-concealed": "Is that line marked C or X, and what does that let you call a discard for?",
    "call-joker": "Where did that joker come from: may a discarded joker ever be called, for anything?",
}


def _call_kind(line: Line, discard: int) -> str:
    """The kind of a level 1-2 call question: a thrown joker, a concealed line kept, or any other call."""
    return "call-joker" if discard == tiles.JOKER else "call-concealed" if line.concealed else "call"


def _asked(rng: random.Random, seed: int, level: int, card: Card, prompt: str, facts: list[str] | tuple[str, ...], best: str,
           why: dict[str, str], rules: tuple[str, ...], more: tuple[str, ...] = (), shown: int | None = None,
           **fields: Any) -> Question:
    """The question of a situation: the choices are `why`'s keys (the first
    `shown` of them) in its order before shuffling; every verdict ends with
    `more` and the rules cited."""
    order = tuple(why)[:shown]
    draft = choice.Draft(
        prompt=prompt, facts=tuple(facts), best=best, why=(why[best], *more, *(cite(r) for r in rules)),
        wrong={c: why[c] for c in order if c != best}, rules=tuple(rules), order=order, **fields,
    )
    return choice.question(rng, NAME, seed, level, card.name, draft, choice.SENTENCE)


@dataclass(frozen=True)
class _Call:
    """A call question of levels 1 and 2, as its reasons talk about it."""

    kind: str
    truth: Truth
    group: Group  # the group of the line the discard's tile belongs to
    nxt: str  # the player after the discarder
    timing: str | None  # for the timing questions: "racked", "discarded", "older" or "drawn"

    @property
    def name(self) -> str:
        return tiles.label(tiles.CODES[self.group.tile])

    @property
    def size(self) -> str:
        return GROUP_NAMES[self.group.size]

    @property
    def wanted(self) -> str:
        """ "kong of 6 Bams": the group the line wants."""
        return f"{self.size} of {many(self.group.tile)}"

    @property
    def line(self) -> str:
        return self.truth.line.id

    @property
    def held(self) -> str:
        return naturals_and_jokers(self.group.tile, self.truth.naturals, self.truth.jokers)

    @property
    def not_last(self) -> str:
        return (
            f"The {self.name} is not the last tile you need: with it you would still be"
            f" {tiles.plural(tiles.JOKER, self.truth.after).split(' ')[0]} {'tile' if self.truth.after == 1 else 'tiles'}"
            f" from {self.line}, and no line of the card would be complete (K3)."
        )


def _call_reasons(call: _Call) -> dict[str, str]:
    """Why each choice is right or wrong, each reason ending with its rule ids."""
    return REASONS[call.kind](call)


def _size_of(choice: str) -> int | None:
    """The exposure size (pung or more) a "Yes, for a ..." choice names, None
    for the other choices. A pair is no exposure: its reason is always
    `_pair_reply`, never what the lines of the card hold (K2, K3)."""
    for size in SIZES:
        if choice == for_group(size):
            return size
    return None


def _pair_reply(c: _Call, wins: bool = False) -> str:
    """The one reason a call for a pair is wrong: a pair is never called
    except for Mah Jongg (K2, K3). Neither the lines nor the rack matter:
    with more tiles or another line it would still be wrong."""
    reply = (
        "A pair is never called for an exposure: an exposure is a pung, kong, quint or sextet,"
        " and a pair may be called only as the last tile that wins the hand (K2, K3)."
    )
    if wins:
        reply += f" The {c.name} is that tile here, so call it for Mah Jongg."
    return reply


def _call_of(ruling: Ruling, choice: str) -> GroupCall:
    return next(c for c in ruling.facts["calls"] if for_group(c.size) == choice)


def _beside(c: _Call) -> str:
    exposures = c.truth.holding.exposures
    return f" beside your exposed {join([e.describe() for e in exposures])}" if exposures else ""


def _legal(c: _Call, call: GroupCall) -> str:
    """Why a call for this group is legal: the lines still open that take it (K2)."""
    size = GROUP_NAMES[call.size]
    held = naturals_and_jokers(c.group.tile, call.naturals, call.jokers)
    if c.line in call.lines:
        return (
            f"{c.line} takes a {size} of {many(c.group.tile)}; you hold the other {call.size - 1} ({held}),"
            f" so the {c.name} completes it and you may call it to expose the {size} (K2)."
        )
    named = join(list(call.lines[:3]) + (["more"] if len(call.lines) > 3 else []))
    one = len(call.lines) == 1
    return (
        f"{named} {'takes' if one else 'take'} a {size} of {many(c.group.tile)} and {'is' if one else 'are'}"
        f" still open to your hand{_beside(c)}; you hold the other {call.size - 1} ({held}), so you may call it"
        f" for the {size}, aiming at {call.lines[0]} instead of {c.line} (K2, H3)."
    )


def _illegal(c: _Call, size: int) -> str:
    """Why no call for a group of this size is legal (K2)."""
    name = GROUP_NAMES[size]
    if c.truth.naturals + c.truth.jokers < size - 1:
        return (
            f"A {name} takes {tiles_word(size - 1)} of yours besides the {c.name}, and you hold {c.held}:"
            f" a call must complete the group with tiles you already hold (K2)."
        )
    return (
        f"No line still open to your hand has a {name} of {many(c.group.tile)}{_beside(c)}: a call must"
        f" complete a group the card allows for your hand (K2)."
    )


def _k2_reasons(c: _Call, ruling: Ruling, why: dict[str, str]) -> dict[str, str]:
    """The reasons for the group choices and "No", from the core's K2 ruling:
    which lines still open to the hand take which groups of the discard."""
    calls: tuple[GroupCall, ...] = ruling.facts["calls"]
    legal = {call.size: call for call in calls}
    out = dict(why)
    for answer in why:
        size = _size_of(answer)
        if size is None:
            continue
        if size in legal:
            out[answer] = _legal(c, legal[size])
        elif not (c.kind == "locked" and size == 4):  # the locked pung keeps its own reason (K6)
            out[answer] = _illegal(c, size)
    if calls:
        first = min(calls, key=lambda call: (call.size not in c.truth.legal, call.size))
        reason = _legal(c, first)
        prefix = "" if c.kind != "in-time" else (
            f"It is not too late: the time to call ends only once {c.nxt} racks the drawn tile or discards (K1). "
        )
        out[NO] = f"{prefix}You may call it: {reason}"
        if c.kind == "in-time":
            best = for_group(first.size)
            out[best] = (
                f"{c.nxt} has drawn but not yet racked the tile, so the {c.name} is still the latest discard"
                f" and may be called (K1). {out[best]}"
            )
    elif NO in out and c.kind in ("short", "pair", "locked"):
        out[NO] += f" No other line still open to your hand has a group of {many(c.group.tile)} your rack completes (K2)."
    return out


def _why_expose(c: _Call) -> dict[str, str]:
    size = c.group.size
    base = (
        f"{c.line} needs a {c.wanted}; you hold the other {size - 1} ({c.held}),"
        f" so the {c.name} completes it and you may call it to expose the {c.size} (K2)."
    )
    if c.kind == "in-time":
        base = (
            f"{c.nxt} has drawn but not yet racked the tile, so the {c.name} is still the latest discard"
            f" and may be called (K1). " + base
        )
    wrong = size + 1 if size < 6 else size - 1
    return {
        for_group(size): base,
        for_group(wrong): (
            f"{c.line} needs a {c.wanted}, not a {GROUP_NAMES[wrong]}: a call must complete a group"
            f" the card allows for your hand (K2)."
        ),
        MAH_JONGG: c.not_last,
        NO: (
            f"You may call it: the {c.name} completes a {c.wanted} your line needs, with tiles you"
            f" already hold (K2)."
            if c.kind == "expose"
            else f"It is not too late: the time to call ends only once {c.nxt} racks the drawn tile or discards (K1)."
        ),
    }


def _why_short(c: _Call) -> dict[str, str]:
    size = c.group.size
    why = {
        NO: (
            f"{c.line} needs a {c.wanted}: that takes {tiles_word(size - 1)} of yours besides the {c.name},"
            f" and you hold {c.held}. A call must complete the group with tiles you already hold (K2)."
        ),
        for_group(size): f"A {c.size} needs {tiles_word(size - 1)} of yours besides the {c.name}; you hold {c.held} (K2).",
    }
    made = c.truth.naturals + c.truth.jokers + 1
    if made >= 3 and made != size:
        why[for_group(made)] = (
            f"You could lay down a {GROUP_NAMES[made]}, but {c.line} has no {GROUP_NAMES[made]}"
            f" of {many(c.group.tile)}: a call must complete a group the card allows for your hand (K2)."
        )
    why[MAH_JONGG] = c.not_last
    return why


def _why_locked(c: _Call) -> dict[str, str]:
    return {
        NO: (
            f"Your {c.wanted} is already exposed, and after your discard it was locked:"
            f" a pung never grows into a kong (K6). {c.line} has no other group of {many(c.group.tile)}"
            f" for the {c.name} to complete (K2)."
        ),
        for_group(4): f"Your exposed pung of {many(c.group.tile)} is locked: a pung never grows into a kong (K6).",
        MAH_JONGG: c.not_last,
    }


def _why_late(c: _Call) -> dict[str, str]:
    too_late = {
        "racked": f"{c.nxt} has already drawn and racked a tile, so the {c.name} can no longer be called (K1).",
        "discarded": f"{c.nxt} has already discarded, so the {c.name} can no longer be called (K1).",
        "older": f"The {c.name} is no longer the latest discard, and only the latest discard can be called (K1).",
    }[c.timing or "racked"]
    return {
        NO: f"{too_late} Your rack could have completed the {c.size}, but the time to call is over.",
        for_group(c.group.size): f"The {c.size} would fit your line, but it is too late: {too_late}",
        MAH_JONGG: f"It is too late for any call: {too_late}",
    }


def _why_joker(c: _Call) -> dict[str, str]:
    return {
        NO: "A discarded joker can never be called, not even for Mah Jongg (J3).",
        for_group(c.group.size): f"A joker would complete your {c.wanted}, but a discarded joker can never be called (J3).",
        MAH_JONGG: (
            "A joker would complete your hand, but a discarded joker can never be called,"
            " not even for Mah Jongg (J3)."
            if c.kind == "joker-win"
            else "A discarded joker can never be called, not even for Mah Jongg (J3); and it would not finish your hand (K3)."
        ),
    }


def _why_mahjong(c: _Call) -> dict[str, str]:
    why = {
        MAH_JONGG: (
            f"The {c.name} is the last tile your hand needs: it completes {c.line} as your {c.size}."
            f" A call for Mah Jongg may take any discard, a single or a pair too (K3)."
        ),
        NO: f"You may call it: it is the last tile you need, and Mah Jongg may take it even for a {c.size} (K3).",
        for_group(3): (
            f"The {c.name} finishes your hand, so call it for Mah Jongg (K3): {c.line} wants it as a {c.size},"
            f" and Mah Jongg may take it for that."
        ),
    }
    if c.group.size == 2:
        why[PAIR] = _pair_reply(c, wins=True)
    return why


def _why_pair(c: _Call) -> dict[str, str]:
    return {
        NO: (
            f"As you play it, {c.line} wants the {c.name} only as a {c.size}. Outside Mah Jongg a call must"
            f" complete a pung, kong, quint or sextet (K2); a single or pair may be called only as the"
            f" winning tile (K3), and this is not your last tile."
        ),
        PAIR: _pair_reply(c),
        # Replaced by the core's K2 reason (`_k2_reasons`): which lines take a pung, and whether the rack completes it.
        for_group(3): (
            f"As you play it, {c.line} has no pung of {many(c.group.tile)}: a call must complete a group the"
            f" card allows for your hand (K2)."
        ),
        MAH_JONGG: c.not_last,
    }


def _gives_up(c: _Call) -> str:
    """What an exposure would cost a concealed line, and where it would be legal (H4, K2, H3)."""
    calls = c.truth.ruling().facts.get("calls", ())
    if not calls:
        return f"An exposure would put {c.line} out of reach (H4)."
    call = calls[0]
    return (
        f"An exposed {GROUP_NAMES[call.size]} would be legal for {call.lines[0]} (K2), but it gives up {c.line}:"
        f" a concealed line allows no exposure (H4)."
    )


def _why_concealed(c: _Call) -> dict[str, str]:
    return {
        NO: (
            f"No: {c.line} is concealed (C), and on a concealed line you may call a discard"
            f" only for Mah Jongg (K7); the {c.name} is not your last tile. {_gives_up(c)}"
        ),
        for_group(c.group.size): (
            f"Not if you keep {c.line}: your rack would complete the {c.wanted}, but on a concealed line you"
            f" may call only for Mah Jongg (K7). {_gives_up(c)}"
        ),
        MAH_JONGG: c.not_last,
    }


def _why_concealed_win(c: _Call) -> dict[str, str]:
    expose = for_group(c.group.size) if c.group.size >= 3 else PAIR
    why = {
        MAH_JONGG: (
            f"The {c.name} is the last tile of {c.line}. On a concealed line the one call you may make"
            f" is for Mah Jongg (K7), and winning on a discard is allowed (H4, K3)."
        ),
        NO: (
            f"A concealed hand may still win on a discard: the {c.name} completes {c.line},"
            f" so call it for Mah Jongg (H4, K7)."
        ),
        expose: (
            f"On a concealed line you never call for an exposure (K7); the {c.name} completes"
            f" {c.line}, so call it for Mah Jongg (K3)."
        ),
    }
    if expose == PAIR:
        why[PAIR] = _pair_reply(c, wins=True)
    return why


REASONS = {
    "expose": _why_expose, "in-time": _why_expose, "short": _why_short, "locked": _why_locked,
    "late": _why_late, "joker": _why_joker, "joker-win": _why_joker, "mahjong": _why_mahjong,
    "pair": _why_pair, "concealed": _why_concealed, "concealed-win": _why_concealed_win,
}


# -- level 3: who gets the discard? --------------------------------------------------

PURPOSES = ("Mah Jongg", "a pung", "a kong", "a quint")
FIRST_TO_SPEAK = "Whoever spoke first"


def _calls_made(
    rng: random.Random, case: str, callers: list[str], likely_mj: str, likely_other: str
) -> tuple[dict[str, str], int, dict[str, str]]:
    """Two callers' purposes ("mj-vs-group": `likely_mj` calls for Mah Jongg three
    times in four), the tile thrown, and the claims the core rules on."""
    if case == "mj-vs-group":
        mj, other = (likely_mj, likely_other) if rng.random() < 0.75 else (likely_other, likely_mj)
        purposes = {mj: "Mah Jongg", other: rng.choice(PURPOSES[1:])}
    elif case == "group-vs-group":
        purposes = {s: rng.choice(PURPOSES[1:]) for s in callers}
    else:
        purposes = {s: "Mah Jongg" for s in callers}
    tile = rng.randrange(tiles.NATURALS)
    claims = {s: MAH_JONGG_CALL if purposes[s] == "Mah Jongg" else "exposure" for s in callers}
    return purposes, tile, claims


def _contest(rng: random.Random, seed: int, level: int, card: Card, rules: TableRules = LEAGUE) -> Question:
    if rules.first_to_speak:
        return _first_to_speak(rng, seed, level, card, rules)
    thrower = rng.choice(seats_in_play(rules.players))
    callers = rng.sample([s for s in seats_in_play(rules.players) if s != thrower], 2)
    case = rng.choice(("mj-vs-group", "mj-vs-group", "group-vs-group", "mj-vs-mj"))
    # Most often the caller for the exposure sits nearer: the case beginners get wrong.
    near, far = sorted(callers, key=lambda s: _distance(thrower, s))
    purposes, tile, claims = _calls_made(rng, case, callers, likely_mj=far, likely_other=near)
    award = who_gets(thrower, claims, players=rules.players)
    winner = award.decision
    loser = next(s for s in callers if s != winner)
    order = [after(thrower, k, rules.players) for k in range(1, rules.players)]
    facts: tuple[str, ...] = (
        f"{thrower} just threw {the(tile)}.",
        f"{callers[0]} calls it for {purposes[callers[0]]}; {callers[1]} calls it for {purposes[callers[1]]}.",
    )
    if rng.random() < 0.7:
        # Speed is the beginner's guess, so the quicker caller is the one who loses by the rules.
        facts += (f"{loser} spoke first.",)
    turn = f"after {thrower} come {join(order)}, in that order (S5)"
    mah_jongg_beats = award.facts["by"] == "purpose"
    if mah_jongg_beats:
        reason = (
            f"{winner} gets it: a call for Mah Jongg beats a call for an exposure, wherever the seats are (K4)."
        )
        loser_why = f"{loser} calls for an exposure, and a call for Mah Jongg beats it wherever the seats are (K4)."
        asks: tuple[str, ...] = ("K4",)
    else:
        purpose = "Mah Jongg" if purposes[winner] == "Mah Jongg" else "an exposure"
        reason = (
            f"{winner} gets it: both call it for {purpose}, and then the seat closest after the"
            f" discarder in turn order wins (K4); {turn}."
        )
        loser_why = f"{loser} sits further from {thrower} in turn order: {turn}, and the closer seat wins (K4)."
        asks = ("K4", "S5")
    why = {
        winner: reason,
        loser: loser_why,
        FIRST_TO_SPEAK: (
            "Speed does not decide: \"first to speak takes it\" is a table rule, off unless your table"
            " plays it (K4)."
        ),
    }
    notes: tuple[str, ...] = ()
    if not mah_jongg_beats:
        notes = (
            "Some tables play a variant: a caller who has already racked the tile or exposed for it keeps it."
            " The League rule, used here, goes by the seats (K4).",
        )
    return _asked(rng, seed, level, card, f"Who gets {the(tile)}?", facts, winner, why, asks, more=notes, kind="contest")


_distance = turns_after  # how many turns after the thrower a seat plays (S5)


NOBODY_GETS = "Nobody: two calls cancel out"


def _first_to_speak(rng: random.Random, seed: int, level: int, card: Card, rules: TableRules) -> Question:
    """Who gets a discard two players call, at a table where the first to speak takes it (TR6)."""
    thrower = rng.choice(seats_in_play(rules.players))
    callers = rng.sample([s for s in seats_in_play(rules.players) if s != thrower], 2)
    case = rng.choice(("mj-vs-group", "group-vs-group", "group-vs-group", "mj-vs-mj"))
    first, second = rng.sample(callers, 2)  # the order they spoke in
    # Most often the caller for the exposure spoke first: the case the table's rule does not decide.
    purposes, tile, claims = _calls_made(rng, case, callers, likely_mj=second, likely_other=first)
    # The claims in the order they were spoken: what the core reads at a table that plays TR6.
    spoken = {s: claims[s] for s in (first, second)}
    award = who_gets(thrower, spoken, first_to_speak=True, players=rules.players)
    winner = award.decision
    loser = next(s for s in callers if s != winner)
    facts = (
        says(rules, "TR6"),
        f"{thrower} just threw {the(tile)}.",
        f"{callers[0]} calls it for {purposes[callers[0]]}; {callers[1]} calls it for {purposes[callers[1]]}.",
        f"{first} spoke first.",
    )
    if award.facts["by"] == "purpose":
        why = {
            winner: f"{winner} gets it: a call for Mah Jongg beats a call for an exposure, even at your table, where otherwise the first to speak takes it (K4, TR6).",
            loser: f"{loser} spoke first, but calls only for an exposure, and Mah Jongg beats an exposure at every table (K4, TR6).",
        }
        asks: tuple[str, ...] = ("TR6", "K4")
    else:
        purpose = "Mah Jongg" if purposes[winner] == "Mah Jongg" else "an exposure"
        why = {
            winner: f"{winner} gets it: both call it for {purpose}, and at your table the first to speak takes it (TR6).",
            loser: f"{loser} spoke second; at your table the seats do not decide between calls for {purpose}, the first to speak does (TR6).",
        }
        asks = ("TR6",)
    why[NOBODY_GETS] = "A called tile always goes to one of the callers: the rules say which (K4, TR6)."
    return _asked(rng, seed, level, card, f"Who gets {the(tile)}?", facts, winner, why, asks, kind="first-to-speak",
                  hint="Do both callers want the tile for the same thing? If so, who spoke first?")


# -- level 4: after the call -------------------------------------------------------

AFTER_KINDS = ("next", "skipped", "draw", "rearrange", "locked-after")
DISCARD = "Discard a tile"
REPLACEMENT = "Draw a replacement tile, then discard"
DRAW = "Draw from the wall, then discard"
MAY = "Yes: before your discard it may be rearranged"
LOCKED = "No: the exposure is locked"


def _after_call(rng: random.Random, seed: int, level: int, card: Card, rules: TableRules = LEAGUE) -> Question:
    kind = rng.choice(AFTER_KINDS)
    if kind in ("next", "skipped"):
        return _turns(rng, seed, level, card, kind, rules)
    found = choice.dealt(f"called group on {card.name}", partial(_called, rng, card, need_kong=kind != "draw"))
    return _exposure_question(rng, seed, level, card, kind, found, rules)


def _turns(rng: random.Random, seed: int, level: int, card: Card, kind: str, rules: TableRules = LEAGUE) -> Question:
    taken = seats_in_play(rules.players)
    thrower = rng.choice(taken)
    caller = rng.choice([s for s in taken if s != thrower])
    tile = rng.randrange(tiles.NATURALS)
    size = rng.choice((3, 4, 5))
    facts: tuple[str, ...] = (
        f"{thrower} threw {the(tile)}.",
        f"{caller} called it for a {GROUP_NAMES[size]}, exposed the {GROUP_NAMES[size]} and discarded.",
    )
    ruling = after_call(thrower, caller, rules.players)
    order = f"after {caller} comes {ruling.decision} (S5)"
    if rules.players == 3:
        facts = (says(rules, "TR4"), *facts)
    if kind == "next":
        best = ruling.decision
        why = {
            best: f"A call takes the place of the caller's draw, and play continues to the caller's right (K5): {order}.",
        }
        for seat in taken:
            if seat in (caller, best):
                continue
            if seat == after(thrower, 1, rules.players):
                why[seat] = (
                    f"{seat} would have played next without the call, but play now continues to the"
                    f" caller's right (K5): {order}."
                )
            else:
                why[seat] = f"Play continues to the caller's right (K5): {order}."
        prompt = "Who plays next?"
        hint = "After a call, from which seat does play go on, and in which direction?"
        asks: tuple[str, ...] = ("K5", "S5")
    else:
        lost = list(ruling.facts["skipped"])
        best = seat_list(lost)
        passes = f"from {thrower}, play passes to {join([after(thrower, k, rules.players) for k in range(1, rules.players)])} (S5)"
        if lost:
            verb = "loses" if len(lost) == 1 else "lose"
            best_why = (
                f"Seats between the discarder and the caller lose their turn (K5): {passes},"
                f" so {best} {verb} a turn."
            )
        else:
            best_why = f"{caller} plays right after {thrower} anyway, so no seat is skipped (K5, S5)."
        why = {best: best_why}
        others = [s for s in taken if s not in (thrower, caller)]
        for option in [seat_list([]), seat_list(between(caller, thrower, rules.players))] + [seat_list([s]) for s in others]:
            if option not in why:
                why[option] = (
                    f"Only the seats between the discarder and the caller in turn order lose their turn (K5): {passes}."
                )
        prompt = "Whose turn is skipped?"
        hint = "Going round from the thrower in turn order, who would have played before the caller?"
        asks = ("K5", "S5")
    if rules.players == 3:
        asks = (*asks, "TR4")
        why["North"] = "North's seat is empty at your table: nobody sits there to play or to lose a turn (TR4)."
    # the best answer was put in first
    return _asked(rng, seed, level, card, prompt, facts, best, why, asks, shown=4, kind=kind, hint=hint)


def _called(rng: random.Random, card: Card, need_kong: bool) -> dict[str, Any] | None:
    """You have just called a tile for a group of your exposed line; before your discard."""
    line = rng.choice(_lines(card, concealed=False, with_big=True))
    reading = rng.choice(line.readings)
    options = [
        i for i, g in enumerate(reading.groups)
        if g.size >= 3 and g.tile != tiles.FLOWER and (g.size == 4 or not need_kong)
        and sum(1 for h in reading.groups if h.tile == g.tile) == 1
    ]
    if not options:
        return None
    target = rng.choice(options)
    g = reading.groups[target]
    exposed = _exposable(rng, reading, target, 1)
    dealt = _deal(rng, reading, target, g.size - 1, exposed, g.tile, jokers=False)
    if dealt is None:
        return None
    rack, exposures = dealt
    before = Holding.of(rack, exposures)
    truth = Truth(card, line, reading, before, g.tile)
    if truth.wins or truth.legal != [g.size]:
        return None
    return {"line": line, "reading": reading, "group": g, "rack": rack, "exposures": exposures}


def _exposure_question(rng: random.Random, seed: int, level: int, card: Card, kind: str, found: dict[str, Any],
                       rules: TableRules = LEAGUE) -> Question:
    line, reading, g = found["line"], found["reading"], found["group"]
    rack: list[int] = list(found["rack"])
    exposures: tuple[Exposure, ...] = found["exposures"]
    thrower = rng.choice(seats_in_play(rules.players))
    you = rng.choice([s for s in seats_in_play(rules.players) if s != thrower])
    name = tiles.label(tiles.CODES[g.tile])
    facts = [f"You are {you}. {thrower} threw the {name}.", f"You play {line_text(line, reading)}."]
    if kind == "draw":
        for _ in range(g.size - 1):
            rack.remove(g.tile)
        shown = exposures + (Exposure(g.tile, g.size),)
        facts.append(f"You called it and exposed a {GROUP_NAMES[g.size]} of {many(g.tile)}.")
        best = DISCARD
        why = {
            DISCARD: (
                "A call takes the place of your draw: you expose, then discard, and play goes on to your right."
                " There is no replacement draw, not even for a kong (K5)."
            ),
            REPLACEMENT: (
                "There is no replacement draw after a call, not even for a kong: the kong is part of your"
                " fourteen tiles (K5)."
            ),
            DRAW: "The called tile was your draw for this turn: a call replaces the draw (K5).",
        }
        asks: tuple[str, ...] = ("K5",)
        prompt = "What do you do now?"
        hint = "What does a call take the place of in your turn, and what is left to do?"
    else:
        # Three of the four tiles went down; the fourth stayed on the rack.
        rack.remove(g.tile)
        rack.remove(g.tile)
        shown = exposures + (Exposure(g.tile, 3),)
        kong = Holding.of([t for t in rack if t != g.tile], exposures + (Exposure(g.tile, 4),))
        allowed = fill(reading, kong, line.concealed).reachable  # the card allows the kong for this line
        assert allowed
        discarded = kind == "locked-after"
        best = MAY if may_rearrange(discarded, card_allows=allowed) else LOCKED
        if discarded:
            rack.remove(rng.choice([t for t in rack if t != g.tile]))
            facts.append(
                f"You called it for your kong but laid down only three {many(g.tile)}, kept the fourth"
                f" on your rack, and have already discarded."
            )
            why = {
                LOCKED: (
                    "After the discard that follows a call, the exposure is locked: a pung never grows into"
                    " a kong, and the fourth tile stays on your rack (K6)."
                ),
                MAY: "Only before that discard may a new exposure be rearranged; yours is locked now (K6).",
            }
        else:
            facts.append(
                f"You called it for your kong but laid down only three {many(g.tile)}, keeping the fourth"
                f" on your rack. You have not discarded yet."
            )
            why = {
                MAY: (
                    f"Before your discard you may rearrange the new exposure, as long as the called {name}"
                    f" stays in it and the grouping is one the card allows: {line.id} has a kong of"
                    f" {many(g.tile)} (K6)."
                ),
                LOCKED: "An exposure locks only with the discard that follows the call; you have not discarded yet (K6).",
            }
        asks = ("K6",)
        prompt = f"May you add your fourth {name} to make the kong?"
        kind = "add-to-kong"  # before or after the discard, the same question
        hint = "Have you discarded since the call, and does the card allow the bigger group?"
    return _asked(
        rng, seed, level, card, prompt, facts, best, why, asks,
        rack=tuple(tiles.CODES[t] for t in sorted(rack)), exposed=tuple(tuple(e.codes) for e in shown), kind=kind, hint=hint,
    )


# -- under a table's own rules: a cold wall (TR2), blanks (TR1) -----------------------------

COLD_NO = "No: at a cold wall nothing may be called"
MJ_ONLY = "Only for Mah Jongg"
NOT_IF_OTHERS = "Only if nobody else calls it"


def _cold_wall(rng: random.Random, seed: int, level: int, card: Card, rules: TableRules) -> Question:
    """May you call this discard at a cold wall? Only before the wall's end (TR2)."""
    kind = "expose" if level == 1 else "mahjong"
    found = choice.dealt(f"{kind} situation on {card.name}", partial(_situation, rng, card, kind))
    line, reading, g = found["line"], found["reading"], found["group"]
    holding: Holding = found["holding"]
    truth: Truth = found["truth"]
    d = truth.discard
    you, thrower = _seats_for(rng, kind, rules)
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    end = last_wall(dice).decision
    late = rng.random() < 0.7
    left = rng.randint(1, end) if late else rng.randint(end + 1, end + 24)
    assert in_last_wall(left, dice).decision == late
    ruling = cold_wall_call(rules.wall_end, late)
    league = truth.answer()
    c = _Call(kind, truth, g, after(thrower, 1, rules.players), None)
    remain = f"{tiles_word(left)} {'is' if left == 1 else 'are'} left"
    where = (f"{remain}, within the last {end}: the wall's end, where nothing may be called at your table" if late else
             f"{remain}, more than the last {end} that make the wall's end, so the cold wall does not apply yet")
    if kind == "expose":
        call = _call_of(truth.ruling(), league)
        why = {
            COLD_NO: (f"{where.capitalize()} (TR2)." if late else
                      f"The wall's end has not come: {where} (TR2)."),
            league: (f"Not here: {where}, not even for an exposure (TR2)." if late else
                     f"{where.capitalize()} (TR2). {_legal(c, call)}"),
            MJ_ONLY: (f"The {c.name} does not finish your hand, and at a cold wall not even Mah Jongg may be called in the wall's end (TR2, K3)." if late else
                      f"The {c.name} does not finish your hand, but it completes a group: {_legal(c, call)}"),
        }
        asks: tuple[str, ...] = ("TR2", "K2")
    else:
        why = {
            COLD_NO: (f"{where.capitalize()}: a win there must be picked from the wall, or made by a joker exchange or a blank swap, none of them a call (TR2)." if late else
                      f"The wall's end has not come: {where} (TR2)."),
            MAH_JONGG: ("At a cold wall not even Mah Jongg may be called in the wall's end: it is too late in the wall for any call (TR2)." if late else
                        f"{where.capitalize()} (TR2). The {c.name} completes {c.line}: call it for Mah Jongg (K3)."),
            NOT_IF_OTHERS: ("Nobody may call it at all: at a cold wall no discard is called in the wall's end (TR2)." if late else
                            f"Mah Jongg is yours to call whoever else wants it: a call to win beats any other (K4). {where.capitalize()} (TR2)."),
        }
        league = MAH_JONGG
        asks = ("TR2", "K3")
    best = league if ruling else COLD_NO
    facts = [says(rules, "TR2"), f"The wall's end is its last {end} tiles (East broke it {sum(dice)} stacks from the end); {remain}.",
             f"You are {you}. {thrower} just threw {the(d)}.", f"You play {line_text(line, reading)}."]
    if holding.exposures:
        facts.append(f"You have exposed {join(['a ' + e.describe() for e in holding.exposures])}.")
    return _asked(
        rng, seed, level, card, prompt_for(d, line), facts, best, why, asks,
        rack=tuple(tiles.CODES[t] for t in sorted(holding.rack_tiles())),
        exposed=tuple(tuple(e.codes) for e in holding.exposures),
        scene=Scene(rack=tuple(tiles.CODES[t] for t in holding.rack_tiles()), exposures=tuple(tuple(e.codes) for e in holding.exposures),
                    discards=(tiles.CODES[d],), seat=you),
        kind="cold-wall", hint="Has the wall's end come at your cold wall, and what may be called there?",
    )


SWAP_NOT_CALL = "No: a swap is not a call, and that tile could no longer be called"


def _swap_not_call(rng: random.Random, seed: int, level: int, card: Card, rules: TableRules) -> Question:
    """A blank swap is not a call (TR1): nobody may claim the tile taken."""
    assert not blanks.swap_is_call()
    you = rng.choice(seats_in_play(rules.players))
    other = rng.choice([s for s in seats_in_play(rules.players) if s != you])
    tile = rng.randrange(tiles.NATURALS - 1)  # a suit tile, Wind or Dragon: two of it make half a pung
    name = tiles.label(tiles.CODES[tile])
    assert blanks.may_swap(tile, rules)
    why = {
        SWAP_NOT_CALL: f"A blank swap is made on your own turn from the discards: it is not a call, and nobody may claim the {name} from you (TR1). Only the latest discard may ever be called (K1).",
        "Yes: a call for an exposure beats a swap": "A swap is no call, so there is nothing for a call to beat, and a tile thrown earlier can no longer be called by anyone (TR1, K1).",
        "Yes, but only for Mah Jongg": f"Not even for Mah Jongg: the {name} was thrown earlier, and only the latest discard may be called (K1, TR1).",
        f"Only if {other} sits next after you": "Seats decide only between players calling the latest discard; a swap is no call (TR1, K4).",
    }
    facts = (says(rules, "TR1"), f"You are {you}. On your turn, after your pick, you swap your blank for the {name} lying in the discards, thrown earlier.",
             f"{other} holds two {many(tile)} and would like a pung of them.")
    return _asked(rng, seed, level, card, f"May {other} call the {name} away from you?", facts, SWAP_NOT_CALL, why, ("TR1", "K1"),
                  scene=Scene(others=((other, ()),), discards=(tiles.CODES[tile],), offered=(tiles.CODES[tile],) * 2, seat=you),
                  kind="swap-not-call", hint="Is taking a tile with a blank a call, and which discard may anyone call?")


BLANK_NEVER = "No: a discarded blank is never called"


def _blank_discard(rng: random.Random, seed: int, level: int, card: Card, rules: TableRules) -> Question:
    """A blank in the discards can never be called (TR1)."""
    assert not blanks.discarded_blank_callable()
    you = rng.choice(seats_in_play(rules.players))
    thrower = rng.choice([s for s in seats_in_play(rules.players) if s != you])
    tile = rng.randrange(tiles.NATURALS - 1)
    why = {
        BLANK_NEVER: "A blank is never part of a hand, so a blank in the discards can never be called, for a group or to win (TR1).",
        "Yes, as a joker in your pung": "A blank is no joker: it stands for nothing and is never part of a hand (TR1).",
        MAH_JONGG: "Not even to win: a blank is never part of a hand, so it could never be your last tile (TR1).",
    }
    facts = (says(rules, "TR1"), f"You are {you}. {thrower} just threw a blank.",
             f"You hold two {many(tile)} and would like a pung of them, or your last tile.")
    return _asked(rng, seed, level, card, "May you call the blank?", facts, BLANK_NEVER, why, ("TR1",),
                  scene=Scene(offered=(tiles.CODES[tile],) * 2, seat=you),
                  kind="blank-discard", hint="What is a blank worth in a hand at your table, and may it ever be called?")


# The table's own kinds of question, by level, and the tables that play them.
OWN: dict[int, tuple[tuple[Callable[[TableRules], bool], Callable[..., Question]], ...]] = {
    1: ((lambda r: r.wall_end == WALL_COLD, _cold_wall), (lambda r: bool(r.blanks), _swap_not_call)),
    2: ((lambda r: r.wall_end == WALL_COLD, _cold_wall), (lambda r: bool(r.blanks), _blank_discard)),
    3: (),  # first to speak (TR6) is how level 3 asks at a table that plays it
    4: (),  # three players (TR4): the seats of level 4 at a table of three
}


# -- the drill ----------------------------------------------------------------------


TABLE_RULES = True  # generate(..., rules=) asks under a table's own rules (drills.generate)


def generate(seed: int, level: int, card: Card, rules: TableRules = LEAGUE) -> Question:
    check_level(LEVELS, level)
    rng = rng_for(NAME, seed, level)
    if rules == LEAGUE:
        if level in (1, 2):
            return _holding_question(rng, seed, level, card)
        if level == 3:
            return _contest(rng, seed, level, card)
        return _after_call(rng, seed, level, card)
    own = [ask for plays, ask in OWN[level] if plays(rules)]
    if own and rng.random() < TABLE_SHARE:
        asked = rng.choice(own)(rng, seed, level, card, rules)
    elif level in (1, 2):
        asked = _holding_question(rng, seed, level, card, rules)
    elif level == 3:
        asked = _contest(rng, seed, level, card, rules)
    else:
        asked = _after_call(rng, seed, level, card, rules)
    return dataclasses.replace(asked, rules=rules)






grade = choice.grade
hint = choice.hint

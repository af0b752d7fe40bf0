"""Jokers: where a joker may stand, and when a joker exchange is legal (J1-J8, E3).

Levels 1 and 2 show one group of a card line with a joker in place of one
of its tiles and ask whether the joker may stand there: pungs, kongs,
quints and sextets yes (J1); singles, pairs, the year's four digits,
anything in a Singles & Pairs line and a pair of Flowers no; a pung of
Flowers yes (J2). Level 2 adds the Flowers, the year, Singles & Pairs
lines and a third choice for the belief that only exposed groups take
jokers (J8).

Levels 3 and 4 describe a moment of play and a joker exchange, and ask
whether it is legal and, if not, which rule forbids it. Each situation is
built with exactly one fault (or none), so exactly one choice is true:
level 3 the turn itself (J4, and E3 when the exchange comes before the
draw), the exact tile (J4), the exposure keeping its size (J7) and
concealed hands (J8); level 4 exchanges around a call (J5) and the new
exposure being fixed once an exchange starts (J6).

Every group and exposure comes from a line of the given card, so the
tiles are ones a player could meet.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from coach.notation import tiles
from coach.notation.card import GROUP_NAMES, Card, Line, Reading, parse_pattern
from coach.rules import joker_exchange as exchange
from coach.rules import scenes
from coach.rules.catalog import cite
from coach.rules.joker_exchange import Exchange, exchange_ruling
from drills.kit import choice, wording
from drills.kit.base import Level, Question, check_level, rng_for

NAME = "jokers"
TITLE = "Jokers: where and when"
TEMPLATE = "choice"
LEVELS: tuple[Level, ...] = (
    Level(1, "May a joker stand here?", "Pungs and bigger groups take jokers; singles and pairs never do."),
    Level(2, "Flowers, years and Singles & Pairs", "The places beginners get wrong: Flower pairs and pungs, the year's digits, Singles & Pairs lines."),
    Level(3, "Is this exchange legal?", "Swapping a real tile for a joker: whose turn, which tile, what happens to the exposure."),
    Level(4, "Exchanges around a call", "Calling a discard and swapping for a joker in the same turn."),
)

SEATS = tiles.SEATS

YES = "Yes: a joker may stand here"
NO = "No: a joker may not stand here"
EXPOSED_ONLY = "Only if the group is exposed"

LEGAL = "Legal"
TIME = "Not legal: only on your turn, after you draw or call"
TILE = "Not legal: not the exact tile the joker stands for"
SIZE = "Not legal: the exposure must keep its size"
CALL = "Not legal: the call must stand on its own"
FIXED = "Not legal: the new exposure is fixed once a swap starts"
WORDS = ("one", "two", "three", "four", "five")  # how many more jokers a group needs
LEVEL_CHOICES = {3: (LEGAL, TIME, TILE, SIZE), 4: (LEGAL, TIME, TILE, CALL, FIXED)}
# The core decides an exchange (coach/rules/joker_exchange.py); each cause it names is one choice here.
CHOICE_OF = {
    None: LEGAL, exchange.TIME: TIME, exchange.TILE: TILE, exchange.SIZE: SIZE,
    exchange.CALL: CALL, exchange.FIXED: FIXED,
}


def _rule(x: Exchange) -> str:
    """The choice that says what the core ruled on this exchange (J4-J8)."""
    return CHOICE_OF[exchange_ruling(x).facts["cause"]]


@dataclass(frozen=True)
class Spot:
    """A place on a card line where a joker might be put: a group of the
    line, or one single of a token such as NEWS or the year."""

    line: Line
    part: int  # index of the token in the line
    index: int  # which single of the token; 0 for a group
    kind: str  # "group", "pair", "single", "year"
    form: int = 0  # which form of the line (Line.forms) the token belongs to

    @property
    def readings(self) -> list[Reading]:
        """The line's readings of this spot's form: the ones that have the spot."""
        return [r for r in self.line.readings if r.form == self.form]

    @property
    def first(self) -> Reading:
        return next(r for r in self.line.readings if r.form == self.form)

    def tiles_of(self, reading: Reading) -> tuple[int, ...]:
        return reading.parts[self.part].tiles

    def tile(self, reading: Reading) -> int:
        return self.tiles_of(reading)[self.index]


# -- where jokers may stand (levels 1 and 2) -----------------------------------


def _spots(card: Card) -> list[Spot]:
    """Every group and single of every line, sorted into the kinds the
    rules tell apart. Spots are the same in every reading of one form of a
    line (only suits and numbers change), so its first reading classifies them."""
    year = str(card.year) if card.year else None
    found: list[Spot] = []
    for line in card.lines:
        firsts = {r.form: r for r in reversed(line.readings)}  # a form may have been dropped
        for f, first in sorted(firsts.items()):
            tokens = parse_pattern(line.forms[f])
            for p, (token, part) in enumerate(zip(tokens, first.parts)):
                if part.is_group:
                    size = len(part.tiles)
                    found.append(Spot(line, p, 0, "group" if size >= 3 else "pair" if size == 2 else "single", f))
                else:
                    kind = "year" if token.symbols == year else "single"
                    found.extend(Spot(line, p, i, kind, f) for i in range(len(part.tiles)))
    return found


def _flower(spot: Spot) -> bool:
    return spot.tile(spot.first) == tiles.FLOWER


def _allowed(spot: Spot) -> bool:
    """J1, J2: a joker only in a group of three or more, never on a Singles & Pairs line."""
    return spot.kind == "group" and not spot.line.singles_and_pairs


def _category(spot: Spot) -> str:
    """The case the rules word separately, for picking a mix of questions."""
    if spot.line.singles_and_pairs:
        return "singles-and-pairs"
    if spot.kind == "year":
        return "year"
    if _flower(spot) and spot.kind in ("group", "pair"):
        return "flower-group" if spot.kind == "group" else "flower-pair"
    if spot.kind == "group" and spot.line.concealed:
        return "concealed-group"
    if spot.kind == "group" and len(spot.first.parts[spot.part].tiles) >= 5:
        return "big-group"
    return spot.kind


LEVEL_CATEGORIES: dict[int, dict[bool, tuple[str, ...]]] = {
    1: {True: ("group", "big-group", "concealed-group"), False: ("pair", "single")},
    2: {
        True: ("flower-group", "big-group", "concealed-group"),
        False: ("flower-pair", "year", "singles-and-pairs"),
    },
}


# The spots of the last cards asked about, by category: sorting a card's
# spots reads every pattern again, far slower than asking the question.
_SPOTS: dict[int, tuple[Card, dict[str, list[Spot]]]] = {}


def _spots_by_category(card: Card) -> dict[str, list[Spot]]:
    known = _SPOTS.get(id(card))
    if known is None or known[0] is not card:
        by_category: dict[str, list[Spot]] = {}
        for spot in _spots(card):
            by_category.setdefault(_category(spot), []).append(spot)
        if len(_SPOTS) > 8:
            _SPOTS.clear()
        known = _SPOTS[id(card)] = (card, by_category)
    return known[1]


def _pick_spot(rng: random.Random, card: Card, level: int) -> Spot:
    wanted = rng.random() < 0.5
    by_category = _spots_by_category(card)
    categories = [c for c in LEVEL_CATEGORIES[level][wanted] if by_category.get(c)]
    if not categories:  # a small card may lack a case: take the other answer's
        categories = [c for c in LEVEL_CATEGORIES[level][not wanted] if by_category.get(c)]
    if not categories:
        categories = sorted(by_category)
    return rng.choice(by_category[rng.choice(categories)])


def _spot_name(spot: Spot, reading: Reading, year: int | None) -> str:
    tile = spot.tile(reading)
    size = len(spot.tiles_of(reading))
    if spot.kind == "year":
        digit = str(year)[spot.index]
        return f"the {digit} of the year {year} (the {tiles.name(tile)})"
    if spot.kind == "single":
        return f"the single {tiles.name(tile)}"
    return f"the {GROUP_NAMES[size]} of {tiles.plural(tile, size).split(' ', 1)[1]}"


def _line_fact(line: Line, reading: Reading) -> str:
    kind = "concealed (C)" if line.concealed else "exposed (X)"
    form = f", {line.read_as(reading)}" if line.read_as(reading) else ""
    suits = f", read as {reading.describe()}" if reading.suits else ""
    # A line whose numbers moved says so, or "1111a" would seem to be a kong of 9 Bams.
    numbers = f", with the numbers {reading.numbers_read()}" if reading.shift else ""
    return f"Line {line.id}: {line.pattern}{form}, {kind}{suits}{numbers}."


def _spot_reason(spot: Spot, reading: Reading, year: int | None) -> tuple[list[str], list[str]]:
    """Why a joker may or may not stand at this spot: lines and the rules cited."""
    name = _spot_name(spot, reading, year)
    line = spot.line
    if line.singles_and_pairs:
        return [f"{line.id} is a Singles & Pairs line: such a hand never holds a joker, not even in {name} (J2)."], ["J2"]
    if spot.kind == "year":
        return [f"The four digits of the year are four singles, and a joker is never a single: not {name} (J2)."], ["J2"]
    if spot.kind == "single":
        return [f"A joker may never stand as a single tile, such as {name} (J2)."], ["J2"]
    if spot.kind == "pair":
        extra = "; Flowers are all alike, yet a pair of them takes no joker either" if _flower(spot) else ""
        return [f"A joker may never be part of a pair, such as {name}{extra} (J2)."], ["J2"]
    size = len(spot.tiles_of(reading))
    words = ("three", "four", "five", "six")[size - 3]
    lines = [f"{name[0].upper()}{name[1:]} is a group of {words}: a joker may stand for any tile of a pung, kong, quint or sextet (J1)."]
    rules = ["J1"]
    if _flower(spot):
        lines.append("Flowers are all the same tile, so three or more Flowers are a true group and a joker may fill it; only a Flower pair refuses one (J2).")
        rules.append("J2")
    if line.concealed:
        lines.append(f"{line.id} is concealed, and a concealed hand may still hold jokers in its groups (J8).")
        rules.append("J8")
    return lines, rules


def _where_question(rng: random.Random, card: Card, level: int, common: dict[str, Any]) -> Question:
    spot = _pick_spot(rng, card, level)
    first = spot.first.parts[spot.part].is_group
    # A token can read as a group in one suit and as singles in another
    # (D0 with Dots is two Soaps): keep to readings shaped like the first.
    reading = rng.choice([r for r in spot.readings if r.parts[spot.part].is_group == first])
    shown = list(spot.tiles_of(reading))
    if first:  # a group: jokers at its end, enough that a set holds its real tiles (T1)
        extra = max(1, len(shown) - tiles.COPIES[shown[0]])
        shown[len(shown) - extra:] = [tiles.JOKER] * extra
    else:
        shown[spot.index] = tiles.JOKER
    allowed = _allowed(spot)
    reason, rules = _spot_reason(spot, reading, card.year)
    best = YES if allowed else NO
    choices = [YES, NO] + ([EXPOSED_ONLY] if level == 2 else [])
    wrong: dict[str, tuple[str, list[str]]] = {
        YES: (
            "A joker fills only a pung, kong, quint or sextet, and never on a Singles & Pairs line (J2).",
            ["J2"],
        ),
        NO: (
            "A joker is refused only as a single, in a pair, in the year's digits or on a Singles & Pairs "
            "line; a group of three or more takes one (J1).",
            ["J1"],
        ),
        EXPOSED_ONLY: (
            "Exposed or not makes no difference: a group of three or more may hold jokers on the rack "
            "too, even in a concealed hand, and a single or pair takes none anywhere (J1, J2, J8).",
            ["J1", "J2", "J8"],
        ),
    }
    # The "only if exposed" choice tests J8 on every allowed group.
    exercised = ("J8",) if level == 2 and allowed and "J8" not in rules else ()
    name = _spot_name(spot, reading, card.year)
    jokers = shown.count(tiles.JOKER)
    more = ""
    if jokers > 1:
        rest = "one more joker fills" if jokers == 2 else f"{WORDS[jokers - 2]} more jokers fill"
        more = f" (a set has only {tiles.plural(shown[0], tiles.COPIES[shown[0]])}, so {rest} the rest)"
    facts = (
        _line_fact(spot.line, reading),
        f"A player puts a joker in {name}, as shown{more}.",
    )
    return _asked(
        rng, common, "May a joker stand here?", facts, best, reason, rules, wrong, choices,
        rack=tuple(tiles.CODES[t] for t in shown), exercised=exercised, kind="stand",
        # One nudge whatever the answer: the rule the answer rests on (J1 or J2) would give it away.
        hint="How big is the group the joker would stand in, and what kind of line is it part of?",
    )


# -- joker exchanges (levels 3 and 4) ------------------------------------------


def _big_groups(card: Card) -> list[tuple[int, int]]:
    """Every (tile, size) of a pung, kong, quint or sextet some line asks for."""
    found = {(g.tile, g.size) for line in card.lines for r in line.readings for g in r.groups if g.size >= 3}
    return sorted(found)


def _joker_count(rng: random.Random, tile: int, size: int, reserve: int, most: int = 2) -> int:
    """Jokers in an exposure of `size` tiles, at least one, and enough that
    its real tiles leave `reserve` copies of the tile for other hands (T1)."""
    low = max(1, size - (tiles.COPIES[tile] - reserve))
    return rng.randint(low, max(low, min(most, size - 1)))


def _exposure(tile: int, size: int, jokers: int) -> tuple[str, ...]:
    return (tiles.CODES[tile],) * (size - jokers) + ("J",) * jokers


def _shown(tile: int, size: int, jokers: int) -> str:
    names = [tiles.name(tile)] * (size - jokers) + ["Joker"] * jokers
    return f"{', '.join(names)} (a {wording.group(tile, size)})"


def _held(tile: int, count: int) -> str:
    """ "three 7 Craks", or "three 7 Craks and a joker" when a set has too few
    of the tile for `count` real ones with one more still to be called."""
    naturals = min(count, tiles.COPIES[tile] - 1)
    words = tiles.plural(tile, naturals)
    jokers = count - naturals
    if jokers:
        words += " and a joker" if jokers == 1 else f" and {tiles.plural(tiles.JOKER, jokers)}"
    return words


def _look_alike(rng: random.Random, tile: int, avoid: int | None = None) -> int:
    """A tile a hurried player might offer for `tile`: same number in another
    suit, a neighbour, another Dragon or Wind, a Dragon for a Flower."""
    code = tiles.CODES[tile]
    if tile < 27:
        number, suit = int(code[0]), code[1]
        options = [f"{number}{s}" for s in tiles.SUITS if s != suit]
        options += [f"{n}{suit}" for n in (number - 1, number + 1) if 1 <= n <= 9]
    elif code in tiles.WINDS:
        options = [w for w in tiles.WINDS if w != code]
    elif code in ("RD", "GD", "WD"):
        options = [d for d in ("RD", "GD", "WD") if d != code]
    else:  # the Flower
        options = ["WD", "RD", "GD"]
    options = [code for code in options if avoid is None or code != tiles.CODES[avoid]]
    return tiles.INDEX[rng.choice(options)]


@dataclass
class Moment:
    """One situation of play: what the learner reads and what decides it."""

    facts: list[str]
    best: str
    reason: list[str]
    rules: list[str]
    tile: int | None = None  # the tile offered for the joker, shown on its own
    exposed: tuple[tuple[str, ...], ...] = ()  # the learner's own exposures
    called: bool = False  # the turn began with a call, not a draw
    table: scenes.Scene = scenes.Scene()  # every tile and seat the facts name, for the scene checker


def _table(me: str, owner: str | None, theirs: tuple[str, ...], *, rack: tuple[str, ...] = (),
           mine: tuple[tuple[str, ...], ...] = (), offered: tuple[int, ...] = (), discard: int | None = None,
           order: tuple[str, ...] = ()) -> scenes.Scene:
    """The table a moment describes: tiles you hold, your exposures, the
    owner's exposure, the discard and the tiles offered that are not on your rack."""
    return scenes.Scene(
        rack=rack, exposures=mine, others=((owner, (theirs,)),) if owner else (),
        discards=(tiles.CODES[discard],) if discard is not None else (),
        offered=tuple(tiles.CODES[t] for t in offered), seat=me, order=order,
    )


def _hand(tile: int, count: int, *also: int) -> tuple[str, ...]:
    """The tiles `_held` names, and the other tiles held beside them."""
    naturals = min(count, tiles.COPIES[tile] - 1)
    return (tiles.CODES[tile],) * naturals + ("J",) * (count - naturals) + tuple(tiles.CODES[t] for t in also)


def _seats(rng: random.Random) -> tuple[str, str, str]:
    """You, the owner of the exposure, and the player whose turn comes before yours."""
    me = rng.randrange(4)
    before = SEATS[(me - 1) % 4]
    owner = rng.choice([s for s in SEATS if s != SEATS[me]])
    return SEATS[me], owner, before


def _drawn(me: str) -> str:
    return f"You are {me}. It is your turn: you drew a tile from the wall and have not discarded yet."


TOO_EARLY = [
    "An exchange comes after you acquire a tile, by a draw or a legal call, and before you discard; before the draw is too early (J4).",
    "Exchanging before acquiring a tile makes your hand dead (E3).",
]


def _scene_level_3(rng: random.Random, card: Card) -> Moment:
    me, owner, before = _seats(rng)
    tile, size = rng.choice(_big_groups(card))
    case = rng.choice(("draw", "own", "concealed", "wrong-tile", "before-draw", "not-your-turn", "size"))
    grows = case == "size" and rng.random() < 0.5
    jokers = _joker_count(rng, tile, size, reserve=2 if grows else 1)
    name = tiles.name(tile)
    theirs = f"{owner}'s exposure: {_shown(tile, size, jokers)}."
    group = _exposure(tile, size, jokers)
    table = _table(me, owner, group, offered=(tile,))
    if case == "draw":
        return Moment(
            [_drawn(me), theirs, f"You give {owner} {tiles.say(tile)} and take a joker."], _rule(Exchange(tile, tile)),
            [f"On your own turn, after you draw and before you discard, you may give the exact tile, the {name}, for a joker in any exposure (J4)."],
            ["J4"], tile, table=table,
        )
    if case == "own":
        return Moment(
            [_drawn(me), f"Your own exposure: {_shown(tile, size, jokers)}.",
             f"You put {tiles.say(tile)} from your rack in place of a joker and take the joker."],
            _rule(Exchange(tile, tile, own_exposure=True)),
            [f"A joker may be redeemed from any exposure, your own included, on your turn after you draw and before you discard, for the exact tile: the {name} (J4).",
             "The exposure stays the same group, with a real tile where the joker was (J7)."],
            ["J4", "J7"], tile, (group,), table=_table(me, None, (), mine=(group,), offered=(tile,)),
        )
    if case == "concealed":
        # A Singles & Pairs line could never use the joker, which would only puzzle.
        line = rng.choice([ln for ln in card.lines if ln.concealed and ln.takes_jokers] or list(card.lines))
        return Moment(
            [f"You are {me}, playing {line.id}, a concealed (C) line: nothing of yours is exposed.",
             "It is your turn: you drew a tile and have not discarded yet.", theirs,
             f"You give {owner} {tiles.say(tile)} and take a joker."],
            _rule(Exchange(tile, tile, concealed_hand=True)),
            ["A concealed hand may redeem jokers from other players' exposures: the exchange exposes nothing of yours (J8).",
             f"It is your turn, after your draw and before your discard, and the {name} is the exact tile (J4)."],
            ["J8", "J4"], tile, table=table,
        )
    if case == "wrong-tile":
        offered = _look_alike(rng, tile)
        return Moment(
            [_drawn(me), theirs, f"You offer {owner} {tiles.say(offered)} for a joker."], _rule(Exchange(tile, offered)),
            [f"A joker is redeemed only with the exact natural tile it stands for: here the {name}, not the {tiles.name(offered)} (J4)."],
            ["J4"], offered, table=_table(me, owner, group, offered=(offered,)),
        )
    if case == "before-draw":
        return Moment(
            [f"You are {me}. {before} has just discarded and nobody called: it is your turn.",
             "You have not drawn yet.", theirs, f"Before drawing, you give {owner} {tiles.say(tile)} for a joker."],
            _rule(Exchange(tile, tile, acquired=None)), list(TOO_EARLY), ["J4", "E3"], tile,
            table=_table(me, owner, group, offered=(tile,), order=(before, me)),
        )
    if case == "not-your-turn":
        turn = rng.choice([s for s in SEATS if s != me])
        return Moment(
            [f"You are {me}. It is {turn}'s turn: {turn} has just drawn a tile.", theirs,
             f"You give {owner} {tiles.say(tile)} for a joker now."],
            _rule(Exchange(tile, tile, your_turn=False)),
            [f"Joker exchanges happen only on your own turn, after your draw or call and before your discard; now it is {turn}'s turn (J4)."],
            ["J4"], tile, table=table,
        )
    # "size": an exchange that would change the exposure's size
    if grows:
        table = _table(me, owner, group, offered=(tile, tile))
        plan = f"You give {owner} two {wording.many(tile)} for one joker."
        became = f"{owner}'s {GROUP_NAMES[size]} would grow to {size + 1} tiles"
    else:
        jokers = max(jokers, 2)
        theirs = f"{owner}'s exposure: {_shown(tile, size, jokers)}."
        table = _table(me, owner, _exposure(tile, size, jokers), offered=(tile,))
        plan = f"You give {owner} one {name} and take two jokers."
        became = f"{owner}'s {GROUP_NAMES[size]} would shrink to {size - 1} tiles"
    return Moment(
        [_drawn(me), theirs, plan], _rule(Exchange(tile, tile, given=2 if grows else 1, taken=1 if grows else 2)),
        [f"An exchange swaps one joker for one exact tile; the exposure keeps its size and stays the same group, but here {became} (J7)."],
        ["J7"], tile, table=table,
    )


def _scene_level_4(rng: random.Random, card: Card) -> Moment:
    me, owner, before = _seats(rng)
    groups = _big_groups(card)
    case = rng.choice(("call-then-swap", "call-to-redeem", "short-call", "rearrange", "wrong-tile", "before-draw"))
    if case == "rearrange":  # the new exposure is all real tiles, so no bigger than the set allows
        pool = [g for g in groups if g[1] <= tiles.COPIES[g[0]]]
    else:
        pool = [g for g in groups if g[1] >= 4]
    called, size = rng.choice(pool or groups)
    other = rng.choice([g[0] for g in groups if g[0] != called] or [g[0] for g in groups])
    other_size = rng.choice([s for t, s in groups if t == other])
    wild = _joker_count(rng, other, other_size, reserve=1)
    theirs = f"{owner}'s exposure: {_shown(other, other_size, wild)}."
    group = _exposure(other, other_size, wild)
    turn = (before, me)
    c, o, many, kind = tiles.name(called), tiles.name(other), wording.many(called), GROUP_NAMES[size]
    discard = f"{before} discards {tiles.say(called)}."
    if case == "call-then-swap":
        return Moment(
            [f"You are {me}, on an exposed (X) line that needs a {kind} of {many}; you hold {_held(called, size - 1)}, and {tiles.say(other)}.", discard, theirs,
             f"You call, expose the {kind} of {many}, then give {owner} your {o} for the joker before discarding."],
            _rule(Exchange(other, other, acquired="call")),
            [f"The call stands on its own: the tiles you hold and the called {c} complete the {kind} (J5).",
             f"A legal call acquires your tile for the turn, so you may then swap the exact tile, the {o}, for a joker before you discard (J4)."],
            ["J5", "J4"], other, called=True,
            table=_table(me, owner, group, rack=_hand(called, size - 1, other), discard=called, order=turn),
        )
    if case == "call-to-redeem":
        mine = _joker_count(rng, called, size, reserve=1)
        return Moment(
            [f"You are {me}. You hold no {many}.", discard, f"{owner}'s exposure: {_shown(called, size, mine)}.",
             f"You call the {c} only to give it to {owner} for a joker."],
            _rule(Exchange(called, called, acquired="call", call_stands_alone=False)),
            [f"A discard may not be called just to redeem a joker: a call must complete a group of your own, and you hold no other {c} (J5)."],
            ["J5"], called, called=True,
            table=_table(me, owner, _exposure(called, size, mine), discard=called, order=turn),
        )
    if case == "short-call":
        return Moment(
            [f"You are {me}, on an exposed (X) line that needs a {kind} of {many}; you hold {_held(called, size - 2)}, and {tiles.say(other)}.", discard, theirs,
             f"You call the {c}, give {owner} your {o} for the joker, then expose the {c}, your tiles and that joker as the {kind}."],
            _rule(Exchange(other, other, acquired="call", call_stands_alone=False)),
            [f"A call must complete its exposure with tiles you already hold: you cannot call for a {kind} you can only finish by redeeming a joker (J5)."],
            ["J5"], other, called=True,
            table=_table(me, owner, group, rack=_hand(called, size - 2, other), discard=called, order=turn),
        )
    if case == "rearrange":
        return Moment(
            [f"You are {me}. {before} discarded {tiles.say(called)}; you called it and exposed a {kind} of {many}, all real tiles.",
             theirs, f"You gave {owner} your {o} and took the joker.",
             f"Before discarding, you put that joker in your new {kind} and take back one of your {many}."],
            _rule(Exchange(other, other, acquired="call", rearranged_after=True)),
            ["Once you start a joker exchange, the exposure you just made can no longer be rearranged, even before you discard (J6)."],
            ["J6"], other, (_exposure(called, size, 0),), called=True,
            table=_table(me, owner, group, mine=(_exposure(called, size, 0),), offered=(other,)),
        )
    if case == "wrong-tile":
        offered = _look_alike(rng, other, avoid=called)  # a set may hold no more of the called tile
        return Moment(
            [f"You are {me}, on an exposed (X) line that needs a {kind} of {many}; you hold {_held(called, size - 1)}, and {tiles.say(offered)}.",
             discard, theirs,
             f"You call, expose the {kind} of {many}, then offer {owner} your {tiles.name(offered)} for the joker."],
            _rule(Exchange(other, offered, acquired="call")),
            [f"The call itself is fine, but a joker is redeemed only with the exact tile it stands for: the {o}, not the {tiles.name(offered)} (J4)."],
            ["J4"], offered, called=True,
            table=_table(me, owner, group, rack=_hand(called, size - 1, offered), discard=called, order=turn),
        )
    # "before-draw"
    return Moment(
        [f"You are {me}. {before} discarded {tiles.say(called)} and nobody called it: it is your turn.",
         "You have not drawn yet.", theirs, f"Before drawing, you give {owner} {tiles.say(other)} for the joker."],
        _rule(Exchange(other, other, acquired=None)), list(TOO_EARLY), ["J4", "E3"], other,
        table=_table(me, owner, group, discard=called, offered=(other,), order=turn),
    )


# Why each exchange choice is wrong when it is, in a beginner's words.
WHY_NOT: dict[str, tuple[str, list[str]]] = {
    TIME: ("The timing is right: it is your turn, after you acquired a tile and before you discard (J4).", ["J4"]),
    TILE: ("The tile is right: it is the exact tile the joker stands for (J4).", ["J4"]),
    SIZE: ("The exposure keeps its size: one joker goes out, one exact tile comes in (J7).", ["J7"]),
    CALL: ("The call is not the problem here: it stands on its own, or there is no call at all (J5).", ["J5"]),
    FIXED: ("No exposure is being rearranged here, so that rule does not come in (J6).", ["J6"]),
}


def _exchange_question(rng: random.Random, card: Card, level: int, common: dict[str, Any]) -> Question:
    scene = _scene_level_3(rng, card) if level == 3 else _scene_level_4(rng, card)
    choices = list(LEVEL_CHOICES[level])
    wrong: dict[str, tuple[str, list[str]]] = {}
    for option in choices:
        if option == LEGAL:
            wrong[option] = (f"It breaks the rule above ({scene.rules[0]}).", scene.rules[:1])
        elif option == TIME and scene.called:
            wrong[option] = ("The moment is not what decides it: a swap may come right after a call, before your discard (J4).", ["J4"])
        else:
            wrong[option] = WHY_NOT[option]
    return _asked(
        rng, common, "Is this legal?", scene.facts, scene.best, scene.reason, scene.rules, wrong, choices,
        tile=tiles.CODES[scene.tile] if scene.tile is not None else None, exposed=scene.exposed, scene=scene.table,
    )


# -- asking and grading --------------------------------------------------------


def _asked(rng: random.Random, common: dict[str, Any], prompt: str, facts: tuple[str, ...] | list[str], best: str, reason: list[str],
           rules: list[str], wrong: dict[str, tuple[str, list[str]]], choices: list[str], **fields: Any) -> Question:
    """The question: the right choice, the lines that explain it (ending with
    the rules cited), and for every other choice the line that says why it
    is wrong (a wrong pick adds the rules that line cites)."""
    draft = choice.Draft(
        prompt=prompt, facts=tuple(facts), best=best, why=(*reason, *(cite(r) for r in dict.fromkeys(rules))),
        wrong={c: wrong[c][0] for c in choices if c != best}, rules=tuple(dict.fromkeys(rules)), order=tuple(choices),
        **fields,
    )
    return choice.question(rng, common["drill"], common["seed"], common["level"], common["card"], draft, choice.COLON, stated_rules=True)


def generate(seed: int, level: int, card: Card) -> Question:
    check_level(LEVELS, level)
    rng = rng_for(NAME, seed, level)
    common = {"drill": NAME, "seed": seed, "level": level, "card": card.name}
    if level <= 2:
        return _where_question(rng, card, level, common)
    return _exchange_question(rng, card, level, common)


grade = choice.grade
hint = choice.hint


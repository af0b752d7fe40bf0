"""Who pays what (P1-P6, H5, E2): a winning hand, how it was won, and the bill.

Every hand is built from a reading of a line on the given card, split into
rack and exposures, and then read back with `coach.rules.mahjong.winning_lines`;
the amounts come from `coach.rules.mahjong.score` and `pay`, never from this file.

Level 1 is a win on a discard or from the wall, hands with jokers (P1-P3).
Level 2 adds jokerless hands, Singles & Pairs lines among them (P4, P5).
Level 3 is the joker-exchange wins (P6) and the wall game (E2).
Level 4 is a hand that reads as more than one line (H5): the hands are found
by searching the card for tiles that complete two or more lines (on a card
where no tiles do, level 4 falls back to level 2's questions).

Choices are short strings: "Discarder 60, the others 30 each" or
"Each pays 60"; each wrong one keeps the sentence naming the rule it breaks.

Under a table's own rules (`generate(..., rules=)`) the bills are the
table's, said first where they differ: two payers with three players
(TR4), the thrower of the winning tile paying for the table at a hot wall
(TR2), and a win a blank swap completes paid as self-picked (TR1). The
amounts come from `coach.rules.mahjong.score` (two payers with
`players=3`) and `thrower_pays_all`, `coach.rules.table_play.hot_wall_pays`
and `hot_wall_excused`, and `coach.rules.blanks.swap_win_pays_as`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from coach.notation import tiles
from coach.notation.card import Card, Line
from coach.reading.tiles_away import Exposure, Holding
from coach.rules import blanks
from coach.rules.catalog import cite
from coach.rules.dead_hands import wall_game
from coach.rules.mahjong import (
    Doubling,
    Payment,
    Win,
    doublings,
    pay,
    pays_as,
    score,
    thrower_pays_all,
    winning_lines,
)
from coach.rules.ruling import Ruling
from coach.rules.table import seats_in_play
from coach.rules.table_play import hot_wall_excused, hot_wall_pays
from coach.rules.table_rules import LEAGUE, WALL_HOT, TableRules
from drills.kit import choice
from drills.kit.base import Level
from drills.kit.choice import Draft
from drills.kit.deal import MOST_JOKERS, by_jokers, joker_budget
from drills.kit.table import Kind, at_table
from drills.kit.table import says as says_table
from drills.kit.two_lines import multi_reading_hands
from drills.kit.wording import join, jokers_word, many

NAME = "payment"
TITLE = "Who pays what"
TEMPLATE = "choice"
LEVELS: tuple[Level, ...] = (
    Level(1, "Discard or self-picked", "A win on a discard or from the wall: who pays double?"),
    Level(2, "Jokerless hands", "No jokers doubles again, except on Singles & Pairs lines."),
    Level(3, "Joker swaps and wall games", "Wins by a joker exchange, and a wall nobody wins."),
    Level(4, "More than one line", "Tiles that read as two lines are paid as the one that pays most."),
)

SEATS = tiles.SEATS


# -- building winning hands ------------------------------------------------------------


@dataclass(frozen=True)
class WinningHand:
    """Fourteen tiles that win, with the lines they complete (best first)."""

    holding: Holding
    wins: tuple[Win, ...]

    @property
    def rack_codes(self) -> tuple[str, ...]:
        return tuple(tiles.CODES[t] for t in self.holding.rack_tiles())

    @property
    def exposed_codes(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(e.codes) for e in self.holding.exposures)

    @property
    def jokers(self) -> int:
        return self.holding.jokers + sum(e.jokers for e in self.holding.exposures)


def _group_jokers(rng: random.Random, line: Line, jokers: str) -> list[tuple[int, int, int]] | None:
    """(tile, size, jokers in it) for each group of a random reading of `line`.

    `jokers` is "none" (a natural hand, None if the reading cannot be one) or
    "some" (at least one joker, and every group keeps a natural tile so that
    it can be shown and exposed like a real group).
    """
    reading = rng.choice(line.readings)
    groups = list(reading.groups)
    left = list(tiles.COPIES)
    naturals = [0] * len(groups)
    # Singles and pairs take naturals first: they can never use a joker (J2).
    for i in sorted(range(len(groups)), key=lambda i: groups[i].size):
        naturals[i] = min(groups[i].size, left[groups[i].tile])
        left[groups[i].tile] -= naturals[i]
    short = [g.size - n for g, n in zip(groups, naturals)]
    if jokers == "none":
        if any(short):
            return None
    else:
        if any(n == 0 for n in naturals):
            return None
        spare = [i for i, g in enumerate(groups) if g.size >= 3 and naturals[i] > 1]
        at_least = 0 if any(short) else 1  # a hand that already needs a joker has one
        if len(spare) < at_least or sum(short) > MOST_JOKERS:
            return None
        # As many jokers as a real hand holds (drills.kit.deal), spread over a few groups.
        budget = joker_budget(rng, max(1, sum(short)))
        for i in rng.sample(spare, len(spare)):
            if sum(short) >= budget:
                break
            take = rng.randint(1, min(2, naturals[i] - 1, budget - sum(short)))
            naturals[i] -= take
            short[i] += take
    return [(g.tile, g.size, s) for g, s in zip(groups, short)]


def _split(
    rng: random.Random, groups: list[tuple[int, int, int]], line: Line, exposures: int
) -> tuple[list[int], list[Exposure]]:
    """Rack tiles and up to `exposures` exposed groups (never on a concealed line, H4)."""
    open_groups = [i for i, (_, size, j) in enumerate(groups) if size >= 3 and j < size]
    count = 0 if line.concealed else min(exposures, len(open_groups))
    shown = set(rng.sample(open_groups, count)) if count else set()
    rack: list[int] = []
    exposed: list[Exposure] = []
    for i, (tile, size, j) in enumerate(groups):
        if i in shown:
            exposed.append(Exposure(tile, size, j))
        else:
            rack += [tile] * (size - j) + [tiles.JOKER] * j
    return rack, exposed


def build_hand(
    rng: random.Random,
    card: Card,
    lines: Sequence[Line],
    jokers: str,
    exposures: int = 2,
    check: Callable[[WinningHand], bool] | None = None,
) -> WinningHand:
    """A hand that wins on exactly one line of `lines` and on no other line of the card."""
    def deal() -> WinningHand | None:
        line = rng.choice(list(lines))
        groups = _group_jokers(rng, line, jokers)
        if groups is None:
            return None
        rack, exposed = _split(rng, groups, line, rng.randint(0, exposures))
        holding = Holding.of(rack, exposed)
        wins = tuple(winning_lines(card, holding))
        if [w.line.id for w in wins] != [line.id]:
            return None  # another line reads these tiles too: that is level 4's question
        hand = WinningHand(holding, wins)
        return hand if check is None or check(hand) else None

    return choice.dealt(f"hand of {len(lines)} lines that fits ({jokers} jokers)", deal)


# -- words -----------------------------------------------------------------------------------


def says(discarder: int | None, other: int, rules: TableRules = LEAGUE) -> str:
    """A choice: "Discarder 60, the others 30 each" or "Each pays 60"; with
    three players (TR4) "Discarder 60, the other 30"; "the others nothing"."""
    if discarder is None:
        return f"Each pays {other}"
    if rules.players == 3:
        return f"Discarder {discarder}, the other {other or 'nothing'}"
    return f"Discarder {discarder}, the others {other or 'nothing'}" + (" each" if other else "")


def _two(rules: TableRules) -> str:
    """The losers other than the discarder, in words: "the other two", or "the other player" at three (TR4)."""
    return "the other two" if rules.players == 4 else "the other player"


def _all(rules: TableRules) -> str:
    """Every loser, in words: "all three", or "both" at three (TR4)."""
    return "all three" if rules.players == 4 else "both"


def _line_words(line: Line) -> str:
    return f"{line.id} ({line.section}), worth {line.value}"


# -- the situation ----------------------------------------------------------------------------


@dataclass(frozen=True)
class HowWon:
    """How the hand was won, in the words of the question."""

    kind: str  # "self", "discard", "exchange" (another's exposure), "own" (own exposure)
    winner: str
    discarder: str | None = None  # who threw the tile (discard, own)
    owner: str | None = None  # whose exposure gave the joker (exchange)
    tile: int | None = None  # the tile drawn, thrown or given
    exposed_jokers: int = 0  # jokers in your exposure when you made it (own)
    rules: TableRules = LEAGUE  # the table's rules: who sits at it (TR4)

    @property
    def ruling(self) -> Ruling:
        """How the core pays this way of winning (P2, P3, P6), with its reason."""
        return pays_as({"own": "own-exchange"}.get(self.kind, self.kind))

    @property
    def pays_as(self) -> str:
        """The way coach.rules.mahjong.score is asked."""
        return self.ruling.decision

    @property
    def losers(self) -> list[str]:
        return [s for s in seats_in_play(self.rules.players) if s != self.winner]

    def facts(self) -> list[str]:
        name = tiles.name(self.tile) if self.tile is not None else ""
        if self.kind == "self":
            return [f"You drew the {name} from the wall, and it completed your hand."]
        if self.kind == "discard":
            return [f"{self.discarder} threw the {name}, and you called it for Mah Jongg."]
        if self.kind == "exchange":
            assert self.tile is not None  # an exchange always names the tile given
            return [
                f"You drew the {name} and gave it to {self.owner} for the joker in {self.owner}'s exposed {many(self.tile)}.",
                "That joker completed your hand.",
            ]
        assert self.tile is not None  # a win on one's own exposure always names the tile called
        return [
            f"{self.discarder} threw the {name}; you called it and exposed it with {jokers_word(self.exposed_jokers)}.",
            f"Then you swapped {tiles.say(self.tile)} from your rack for one of those jokers, and it completed your hand."
            if self.exposed_jokers > 1
            else f"Then you swapped {tiles.say(self.tile)} from your rack for that joker, and the joker completed your hand.",
        ]


def _pick_win(rng: random.Random, kinds: Sequence[str], hand: WinningHand, rules: TableRules = LEAGUE) -> HowWon:
    kind = rng.choice(list(kinds))
    winner = rng.choice(seats_in_play(rules.players))
    others = [s for s in seats_in_play(rules.players) if s != winner]
    rack_naturals = [t for t in hand.holding.rack_tiles() if t != tiles.JOKER]
    if kind in ("self", "discard"):
        return HowWon(kind, winner, discarder=rng.choice(others) if kind == "discard" else None, tile=rng.choice(rack_naturals), rules=rules)
    if kind == "exchange":
        held = tiles.counts(hand.holding.all_tiles())
        # The tile handed over left your hand: one you hold none of, so that it and the
        # owner's exposed pair of it fit in a set of four (T1).
        given = rng.choice([t for t in range(tiles.NATURALS) if held[t] == 0])
        return HowWon(kind, winner, owner=rng.choice(others), tile=given, rules=rules)
    exposure = rng.choice([e for e in hand.holding.exposures if e.size - e.jokers >= 2])
    return HowWon(kind, winner, discarder=rng.choice(others), tile=exposure.tile, exposed_jokers=exposure.jokers + 1, rules=rules)


def _fits(kind: str) -> Callable[[WinningHand], bool] | None:
    """What a hand needs for this way of winning to be possible."""
    if kind == "exchange":
        return lambda hand: hand.holding.jokers > 0
    if kind == "own":
        return lambda hand: hand.holding.jokers > 0 and any(e.size - e.jokers >= 2 for e in hand.holding.exposures)
    return None


# -- the bill and its explanation ----------------------------------------------------------------


def _sum(value: int, amount: int, doubled: tuple[Doubling, ...]) -> str:
    """How one payment is made of the line's value: "30 × 2 for the discard × 2 for
    no jokers", each doubling named, so a short verdict keeps every reason for it."""
    assert value * 2 ** len(doubled) == amount, "the core's doublings make its payment"
    if not doubled:
        return "the value"
    return f"{value}" + "".join(f" × 2 for {d.why}" for d in doubled)


def _bill(payment: Payment, win: HowWon) -> str:
    """ "North pays 120 (30 × 2 for the discard × 2 for no jokers); East and West
    pay 60 each (30 × 2 for no jokers)." """
    line = payment.line
    assert line is not None
    theirs, each = doublings(line, win.pays_as, payment.jokerless)
    other = f"{payment.other} each ({_sum(line.value, payment.other, each)})"
    if payment.discarder is None:
        return f"{join(win.losers)} pay {other}"
    others = [s for s in win.losers if s != win.discarder]
    if len(others) == 1:  # three players (TR4): one other loser
        return f"{win.discarder} pays {payment.discarder} ({_sum(line.value, payment.discarder, theirs)}); {others[0]} pays {payment.other} ({_sum(line.value, payment.other, each)})"
    return f"{win.discarder} pays {payment.discarder} ({_sum(line.value, payment.discarder, theirs)}); {join(others)} pay {other}"


def _how_line(payment: Payment, win: HowWon) -> tuple[str, tuple[str, ...]]:
    """Why the win pays as it does, and the rules that say so."""
    two, every = _two(win.rules), _all(win.rules)
    if win.kind == "discard":
        return f"{win.discarder} threw the winning tile: the discarder pays double, {two} the value (P2).", ("P2",)
    if win.kind == "self":
        return f"You drew the winning tile from the wall: self-picked, so {every} pay double (P3).", ("P3",)
    if win.kind == "exchange":
        return (
            f"A joker from {win.owner}'s exposure completed your hand. It came from outside your hand on your own"
            f" turn, not from a discard, so the win pays as self-picked: {every} pay double (P6, P3).",
            ("P6", "P3"),
        )
    assert win.tile is not None  # a win on one's own exposure always names the discard taken
    return (
        f"Swapping with your own exposure brings no new tile into your hand: the last tile you took from outside"
        f" was {win.discarder}'s {tiles.name(win.tile)}, so the win counts as won on that discard."
        f" {win.discarder} pays double and {two} the value (P6, P2).",
        ("P6", "P2"),
    )


def _joker_line(payment: Payment, hand: WinningHand) -> tuple[str, tuple[str, ...]]:
    line = payment.line
    assert line is not None
    if payment.jokerless and line.singles_and_pairs:
        return (
            f"No jokers, but {line.id} is a Singles & Pairs line: it can never hold jokers, so it gets no jokerless double (P4).",
            ("P4",),
        )
    if payment.jokerless:
        if payment.discarder is None:
            return "No jokers anywhere in the hand: every payment doubles again, so each pays four times the value (P4, P5).", ("P4", "P5")
        return "No jokers anywhere in the hand: every payment doubles again (P4).", ("P4",)
    return f"The hand holds {jokers_word(hand.jokers)}, so there is no jokerless double (P4).", ("P4",)


def _payment_draft(
    card: Card, hand: WinningHand, win: HowWon, facts_lines: list[str], level: int, show_jokers_rule: bool
) -> Draft:
    rules = win.rules
    # Two losers at a table of three (TR4): each pays what the League says, and the total is theirs.
    payment = score(card, hand.holding, win.pays_as) if rules.players == 4 else score(card, hand.holding, win.pays_as, rules.players)
    line = payment.line
    assert line is not None, "a built hand always wins"
    if rules.players == 3:
        facts_lines = [says_table(rules, "TR4"), *facts_lines]
    best = says(payment.discarder, payment.other, rules)
    how, how_rules = _how_line(payment, win)
    jokers, joker_rules = _joker_line(payment, hand)
    several = len(hand.wins) > 1
    decisive = (("H5",) if several else ()) + how_rules + (joker_rules if payment.jokerless else ())
    # A Singles & Pairs line with no jokers is not doubled for it: said with the bill, which it decides.
    unjoked = "; a Singles & Pairs line gets no double for no jokers" if payment.jokerless and line.singles_and_pairs else ""
    decisive += ("TR4",) if rules.players == 3 else ()
    why = [f"{_bill(payment, win)}: {payment.total} in all{unjoked} ({', '.join(dict.fromkeys(decisive))})."]
    form = f" ({line.read_as(payment.reading)})" if payment.reading and line.read_as(payment.reading) else ""
    why.append(f"{line.id}{form} is worth {line.value} on the card: that is what each loser starts from (P1).")
    asks = ["P1", *how_rules]
    if several:
        why.append(_h5_line(hand, win, payment))
        asks.append("H5")
    why.append(how)
    if payment.jokerless or show_jokers_rule:
        why.append(jokers)
        asks += joker_rules
    wrong = _distractors(hand, win, payment, level)
    for reason in wrong.values():
        asks += [r for group in choice.CITED.findall(reason) for r in group.split(", ")]
    # The League's words for the bill say three losers: at a table of three, the table's rule is quoted instead.
    why.append(cite(how_rules[0]) if rules.players == 4 else cite("TR4"))
    if rules.players == 3:
        asks.append("TR4")
    return Draft(
        prompt="What does each player pay you?",
        facts=tuple(facts_lines),
        best=best,
        why=tuple(why),
        wrong=wrong,
        rules=tuple(dict.fromkeys(asks)),
        rack=hand.rack_codes,
        exposed=hand.exposed_codes,
        situation={
            "how": win.kind,
            "line": line.id,
            "value": line.value,
            "lines": [w.line.id for w in hand.wins],
            "jokerless": payment.jokerless,
            "singles_and_pairs": line.singles_and_pairs,
        },
    )


def _h5_line(hand: WinningHand, win: HowWon, payment: Payment) -> str:
    others = [
        f"{w.line.id} would bring {pay(w.line, win.pays_as, payment.jokerless)[2]}"
        for w in hand.wins
        if w.line is not payment.line
    ]
    assert payment.line is not None
    return (
        f"The tiles also read as {join([w.line.id for w in hand.wins if w.line is not payment.line])}; "
        f"a hand is paid as the line that pays most: {payment.line.id} brings {payment.total}, "
        f"{join(others)} (H5)."
    )


def _distractors(hand: WinningHand, win: HowWon, payment: Payment, level: int) -> dict[str, str]:
    """Wrong bills, each with the rule it breaks; the likeliest mistakes first."""
    line = payment.line
    assert line is not None
    rules = win.rules
    value, jokerless = line.value, payment.jokerless
    best = says(payment.discarder, payment.other, rules)
    options: list[tuple[str, str]] = []
    flipped = "self" if payment.discarder is not None else "discard"
    d, o, _ = pay(line, flipped, jokerless)
    options.append((says(d, o, rules), _wrong_kind(win)))
    if level >= 2 and not line.singles_and_pairs:
        d, o, _ = pay(line, win.pays_as, not jokerless)
        reason = (
            "The hand has no jokers, so every payment doubles again (P4)."
            if jokerless
            else f"The hand holds {jokers_word(hand.jokers)}: only a hand with no jokers at all doubles again (P4)."
        )
        options.append((says(d, o, rules), reason))
    if jokerless and line.singles_and_pairs:
        options.append((
            says(payment.discarder and payment.discarder * 2, payment.other * 2, rules),
            "Singles & Pairs lines never hold jokers, so they get no jokerless double (P4).",
        ))
    for w in hand.wins:
        if w.line is not line:
            d, o, _ = pay(w.line, win.pays_as, jokerless)
            options.append((
                says(d, o, rules),
                f"That is the bill for {w.line.id}; tiles that read as more than one line are paid as the line that pays most, {line.id} (H5).",
            ))
    options.append((
        f"Each pays {value}",
        f"The card value, {value}, is only the start (P1): "
        + ("the discarder pays double (P2)." if payment.discarder is not None else f"a self-picked win doubles it for {_all(rules)} (P3)."),
    ))
    if payment.discarder is not None:
        options.append((
            says(payment.other, payment.discarder, rules),
            f"The other way round: the discarder pays double and {_two(rules)} the value (P2).",
        ))
        options.append((
            says(payment.discarder, 0, rules),
            ("The other two pay too: on a discard each of them pays the value (P2)." if rules.players == 4 else
             "The other player pays too: on a discard the value (P2)."),
        ))
    else:
        options.append((
            f"Each pays {payment.other * 2}",
            "Self-picked doubles once (P3)"
            + (", and no jokers doubles once more (P4)." if jokerless else "; four times is only for a self-picked hand with no jokers (P5)."),
        ))
    wrong: dict[str, str] = {}
    for text, reason in options:
        if text != best and text not in wrong and len(wrong) < 4:
            wrong[text] = reason
    return wrong


def _wrong_kind(win: HowWon) -> str:
    two, every = _two(win.rules), _all(win.rules)
    if win.kind == "discard":
        return f"Not self-picked: {win.discarder} threw the winning tile, so only {win.discarder} pays double and {two} {'pay' if win.rules.players == 4 else 'pays'} the value (P2)."
    if win.kind == "self":
        return f"Nobody threw the winning tile: you drew it from the wall, so {every} pay double (P3)."
    if win.kind == "exchange":
        return (
            f"{win.owner} threw nothing: the joker came from {win.owner}'s exposure, not from a discard, so the win"
            f" pays as self-picked, {every} double (P6)."
        )
    return (
        f"Not self-picked: a joker from your own exposure brings no new tile, so the win counts as won on"
        f" {win.discarder}'s discard, the last tile you took; {win.discarder} pays double, {two} the value (P6)."
    )


# -- the levels ---------------------------------------------------------------------------------


def _opening(win: HowWon, lines: Sequence[Line]) -> list[str]:
    if len(lines) == 1:
        hand = f"Your hand is {_line_words(lines[0])}."
    else:
        hand = f"Your tiles read as {len(lines)} lines: " + "; ".join(_line_words(line) for line in lines) + "."
    return [f"You are {win.winner} and declare Mah Jongg.", hand]


# The nudge of each level's bill, whatever the answer: a nudge chosen by the answer's rule ("Who threw the
# winning tile?" for a discard, "the wall or a discard?" for a self-pick) would give the answer away.
BILL_HINTS = {
    "bill": "Where did the winning tile come from, the wall or a discard, and who pays double then?",
    "bill-jokers": "Where did the winning tile come from, and does the hand hold any jokers? Each double that applies doubles again.",
    "bill-swap": "Whose rack did the joker swap come from, and how does that make the win count?",
    "bill-lines": "If the tiles read as more than one line, which one is paid? Then: where did the winning tile come from?",
}


def _of_kind(draft: Draft, kind: str) -> Draft:
    """The bill with its kind and its kind's hint."""
    return replace(draft, kind=kind, hint=BILL_HINTS[kind])


def _level_1(rng: random.Random, card: Card, rules: TableRules = LEAGUE) -> Draft:
    lines = [line for line in card.lines if line.takes_jokers]
    hand = build_hand(rng, card, lines, "some")
    win = _pick_win(rng, ("self", "discard"), hand, rules)
    return _of_kind(_payment_draft(card, hand, win, _opening(win, [hand.wins[0].line]) + win.facts(), 1, False), "bill")


def _level_2(rng: random.Random, card: Card, rules: TableRules = LEAGUE) -> Draft:
    case = rng.choice(("singles-and-pairs", "jokerless", "jokerless", "jokers"))
    if case == "singles-and-pairs":
        lines = [line for line in card.lines if line.singles_and_pairs] or list(card.lines)
        hand = build_hand(rng, card, lines, "none")
    elif case == "jokerless":
        lines = [line for line in card.lines if line.takes_jokers]
        hand = build_hand(rng, card, lines, "none")
    else:
        lines = [line for line in card.lines if line.takes_jokers]
        hand = build_hand(rng, card, lines, "some")
    win = _pick_win(rng, ("self", "discard"), hand, rules)
    return _of_kind(_payment_draft(card, hand, win, _opening(win, [hand.wins[0].line]) + win.facts(), 2, True), "bill-jokers")


def _level_3(rng: random.Random, card: Card, rules: TableRules = LEAGUE) -> Draft:
    kind = rng.choice(("exchange", "own", "wall"))
    if kind == "wall":
        return _wall_game(rng, card, rules)
    lines = [line for line in card.lines if line.takes_jokers and (kind == "exchange" or not line.concealed)]
    hand = build_hand(rng, card, lines, "some", exposures=2, check=_fits(kind))
    win = _pick_win(rng, (kind,), hand, rules)
    return _of_kind(_payment_draft(card, hand, win, _opening(win, [hand.wins[0].line]) + win.facts(), 3, False), "bill-swap")


def _level_4(rng: random.Random, card: Card, rules: TableRules = LEAGUE) -> Draft:
    hands = multi_reading_hands(card)
    if not hands:  # a card with no such tiles cannot ask H5; its hardest plain bill instead
        return _level_2(rng, card, rules)
    row = by_jokers(rng, hands, lambda row: row[tiles.JOKER])  # as many jokers as a table sees, not six
    holding = Holding.of([t for t, c in enumerate(row) for _ in range(c)])
    hand = WinningHand(holding, tuple(winning_lines(card, holding)))
    win = _pick_win(rng, ("self", "discard"), hand, rules)
    lines = [w.line for w in hand.wins]
    return _of_kind(_payment_draft(card, hand, win, _opening(win, lines) + win.facts(), 4, hand.jokers == 0), "bill-lines")


def _wall_game(rng: random.Random, card: Card, rules: TableRules = LEAGUE) -> Draft:
    hand = build_hand(rng, card, list(card.lines), rng.choice(("some", "none")))
    rack = hand.holding.rack_tiles()
    rack.remove(rng.choice([t for t in rack if t != tiles.JOKER]))
    seat = rng.choice(seats_in_play(rules.players))
    line = hand.wins[0].line
    ended = wall_game(winner=None)
    best = "Nobody pays" if ended.decision == 0 else f"Each pays {ended.decision}"
    v = line.value
    wrong = {
        f"Each pays {v}": f"Nobody won, so nobody pays: the wall ran out, a wall game (E2). {line.id} is only paid when it is complete.",
        f"Each pays {2 * v}": "A wall game has no winner, and nobody pays anybody (E2).",
        says(2 * v, v, rules): "The last discard won nothing: when the wall runs out with no winner, nobody pays (E2).",
    }
    return Draft(
        prompt="What does each player pay?",
        facts=_said(rules, "TR4") + (
            f"You are {seat}, one tile short of {_line_words(line)}.",
            "The wall has run out: the last tile was drawn and thrown, and nobody called it.",
            "Nobody declared Mah Jongg.",
        ),
        best=best,
        why=("the wall ran out with no winner: a wall game, nobody pays, and the tiles are dealt again (E2).", cite("E2")),
        wrong=wrong,
        rules=("E2",) + (("TR4",) if rules.players == 3 else ()),
        rack=tuple(tiles.CODES[t] for t in sorted(rack)),
        exposed=hand.exposed_codes,
        situation={"how": "wall", "line": line.id, "value": v},
        kind="wall-game",
    )


BUILDERS: dict[int, tuple[choice.Builder, ...]] = {1: (_level_1,), 2: (_level_2,), 3: (_level_3,), 4: (_level_4,)}


# -- under a table's own rules: a hot wall (TR2), a blank swap (TR1) ------------------------------


def _said(rules: TableRules, *rule_ids: str) -> tuple[str, ...]:
    """The table's rules among `rule_ids` it plays, said first."""
    on = {"TR4": rules.players == 3, "TR1": bool(rules.blanks), "TR2": rules.wall_end == WALL_HOT}
    return tuple(says_table(rules, r) for r in rule_ids if on[r])


def _hot_wall(rng: random.Random, card: Card, rules: TableRules) -> Draft:
    """A win on a discard at a hot wall: in the wall's end the thrower pays for
    the whole table, unless every other copy of the tile was in sight (TR2)."""
    lines = [line for line in card.lines if line.takes_jokers]
    hand = build_hand(rng, card, lines, "some")
    win = _pick_win(rng, ("discard",), hand, rules)
    assert win.tile is not None and win.discarder is not None
    tile, thrower = win.tile, win.discarder
    hidden = hand.holding.rack[tile] - 1  # copies in your own rack besides the one won: out of the thrower's sight
    others = tiles.COPIES[tile] - 1
    most = others - hidden
    excused_possible = most == others
    late = rng.random() < 0.8
    excused = excused_possible and rng.random() < 0.3
    in_sight = others if excused else rng.randint(0, min(most, others - 1))
    excuse = hot_wall_excused(tile, in_sight)
    ruling = hot_wall_pays(rules.wall_end, late, excused=bool(excuse))
    league = payment = score(card, hand.holding, "discard", rules.players)
    line = payment.line
    assert line is not None
    hot = thrower_pays_all(payment)
    bill = hot if ruling else league
    best = says(bill.discarder, bill.other, rules)
    name = tiles.name(tile)
    when = ("It was thrown in the wall's end, among the tiles left behind at the break." if late else
            "It was thrown well before the wall's end.")
    sight = f"When it was thrown, {_in_sight_words(in_sight, tile)} in sight, in the discards and exposures or on {thrower}'s own rack."
    hot_words = (f"at a hot wall the player who throws the winning tile in the wall's end pays for the whole table: {thrower} pays"
                 f" {hot.discarder}, the discarder's double and the others' shares, and nobody else pays (TR2)")
    if ruling:
        why_best = f"{hot_words[0].upper() + hot_words[1:]}. {thrower} could not see every other {name}, so nothing excuses it."
    elif not late:
        why_best = (f"The {name} was thrown before the wall's end, so your table's hot wall does not come into it: the League's bill"
                    f" stands, the discarder double and {_two(rules)} the value (TR2, P2).")
    else:
        why_best = (f"Every other {name} was in sight when {thrower} threw it, all {tiles.NUMBER_WORDS[others]}, so no one could blame"
                    f" {thrower} for throwing it: {thrower} is excused, and the League's bill stands (TR2, P2).")
    wrong = {}
    if (bill.discarder, bill.other) != (league.discarder, league.other):
        wrong[says(league.discarder, league.other, rules)] = (
            f"That is the League's bill, but {thrower} threw the winning tile in the wall's end, and {_in_sight_words(in_sight, tile)}"
            f" in sight, not all {tiles.NUMBER_WORDS[others]}: at your hot wall the thrower pays for the whole table (TR2).")
    if (bill.discarder, bill.other) != (hot.discarder, hot.other):
        wrong[says(hot.discarder, hot.other, rules)] = (
            f"Only a thrower with no excuse pays for the table: {'the tile came before the wall' + chr(39) + 's end' if not late else 'every other ' + name + ' was in sight'}, so the League's bill stands (TR2, P2).")
    wrong[says(hot.discarder, league.other, rules)] = (
        "The winner's total does not change at a hot wall: the thrower pays the others' shares instead of them, not on top (TR2).")
    d, o, _ = pay(line, "self", payment.jokerless)
    wrong[says(None, o, rules)] = f"{thrower} threw the winning tile: it is no self-pick (P2, TR2)."
    facts = [says_table(rules, "TR2"), *_said(rules, "TR4"), " ".join(_opening(win, [line])), *win.facts(), f"{when} {sight}"]
    return Draft(
        prompt="What does each player pay you?",
        facts=tuple(facts),
        best=best,
        why=(why_best, f"{line.id} is worth {line.value} on the card: that is what each loser starts from (P1).", cite("TR2")),
        wrong={k: v for k, v in wrong.items() if k != best},
        rules=("TR2", "P2", "P1") + (("TR4",) if rules.players == 3 else ()),
        rack=hand.rack_codes,
        exposed=hand.exposed_codes,
        situation={"late": late, "in_sight": in_sight, "tile": tile, "hot": bool(ruling), "line": line.id, "value": line.value,
                   "jokerless": payment.jokerless},
        kind="hot-wall",
        hint="Was the winning tile thrown in the wall's end, and could the thrower see every other copy of it?",
    )


def _in_sight_words(n: int, tile: int) -> str:
    """ "two other 5 Dots were", "one other 5 Dot was", "no other 5 Dot was"."""
    if n == 0:
        return f"no other {tiles.name(tile)} was"
    if n == 1:
        return f"one other {tiles.name(tile)} was"
    return f"{tiles.NUMBER_WORDS[n]} other {many(tile)} were"


def _swap_win(rng: random.Random, card: Card, rules: TableRules) -> Draft:
    """A Mah Jongg a blank swap completes is paid as self-picked (TR1)."""
    lines = [line for line in card.lines if line.takes_jokers]
    hand = build_hand(rng, card, lines, "some")
    win = _pick_win(rng, ("self",), hand, rules)
    assert win.tile is not None
    how = blanks.swap_win_pays_as()
    payment = score(card, hand.holding, how.decision)
    line = payment.line
    assert line is not None
    bill = score(card, hand.holding, how.decision, rules.players)
    best = says(bill.discarder, bill.other, rules)
    name = tiles.name(win.tile)
    d, o, _ = pay(line, "discard", payment.jokerless)
    wrong = {
        says(d, o, rules): (f"Nobody threw the {name} to you: you took it from the discards on your own turn, with a blank, so the win pays"
                            f" as self-picked, {_all(rules)} double (TR1, P3)."),
        f"Each pays {line.value}": f"The card value, {line.value}, is only the start: a win paid as self-picked doubles it for {_all(rules)} (P1, P3, TR1).",
        "Nobody pays: a blank never wins": f"The blank never stands in your hand, but the {name} you took for it does, and your hand is complete: it is Mah Jongg (TR1, H1).",
    }
    facts = (says_table(rules, "TR1"), *_said(rules, "TR4"), f"You are {win.winner} and declare Mah Jongg. Your hand is {_line_words(line)}.",
             f"On your turn, after your pick, you swapped your blank for the {name} lying in the discards, and it completed your hand.")
    return Draft(
        prompt="What does each player pay you?",
        facts=facts,
        best=best,
        why=(f"{join(win.losers)} pay {bill.other} each: nobody threw that tile to you, so a win made by a blank swap is paid as"
             f" self-picked, {_all(rules)} double (TR1, P3). {bill.total} in all.", f"{line.id} is worth {line.value} on the card (P1).",
             cite("TR1")),
        wrong=wrong,
        rules=("TR1", "P3", "P1") + (("TR4",) if rules.players == 3 else ()),
        rack=hand.rack_codes,
        exposed=hand.exposed_codes,
        situation={"line": line.id, "value": line.value, "jokerless": payment.jokerless, "how": "blank-swap"},
        kind="blank-swap-win",
        hint="Who threw the tile you took with your blank, and how is a win paid when nobody threw it?",
    )


def _league(build: Callable[..., Draft]) -> Callable[[random.Random, Card, TableRules], Draft]:
    def asked(rng: random.Random, card: Card, rules: TableRules) -> Draft:
        return build(rng, card, rules)

    asked.__name__ = build.__name__
    return asked


HOT = lambda rules: rules.wall_end == WALL_HOT  # noqa: E731
BLANKS = lambda rules: bool(rules.blanks)  # noqa: E731
UNDER: dict[int, tuple[tuple[Kind, ...], tuple[Kind, ...]]] = {
    1: ((Kind(_league(_level_1)),), (Kind(_hot_wall, HOT), Kind(_swap_win, BLANKS))),
    2: ((Kind(_league(_level_2)),), (Kind(_hot_wall, HOT),)),
    3: ((Kind(_league(_level_3)),), (Kind(_swap_win, BLANKS), Kind(_hot_wall, HOT))),
    4: ((Kind(_league(_level_4)),), ()),
}


# -- the protocol ---------------------------------------------------------------------------------


TABLE_RULES = True  # generate(..., rules=) asks under a table's own rules (drills.generate)
generate = choice.asking(NAME, LEVELS, BUILDERS, choice.WHY_FIRST, under=at_table(UNDER))
grade = choice.grade
hint = choice.hint


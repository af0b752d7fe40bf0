"""Lessons: short pages of pictures, in teaching order, each ending with a
few check questions graded like a choice drill.

A lesson is data: panels (a few words and the tiles or card line they
talk about) and checks (a question, its right choice with why, and every
wrong choice with why not). The web layer shows them and the store keeps
which checks a learner got right; nothing is decided there. A check is
known to the server by its lesson and id, so a client can only say which
check it answers and what it picked.

Each lesson names the drills it prepares (`prepares`): today's practice
offers a lesson not yet done before the first of those drills.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from coach.notation import tiles
from coach.notation.card import Card, Line, Reading, Token, house_card, parse_pattern
from coach.reading.wants import reading_with, wanted
from coach.rules.mahjong import pay
from drills.kit import choice
from drills.kit.base import AnswerError, Question, Verdict


@dataclass(frozen=True)
class Panel:
    """One picture of a lesson, with the few words that explain it."""

    text: str
    tiles: tuple[str, ...] = ()  # tile codes shown in a row
    line: str | None = None  # a line of the app's card, shown as printed
    caption: str = ""  # what the tiles are, under them


@dataclass(frozen=True)
class Check:
    """A question at the end of a lesson: one right choice, each wrong one with why not."""

    id: str
    prompt: str
    best: str
    why: str  # why the best choice is right, citing its rule once
    wrong: dict[str, str]
    tiles: tuple[str, ...] = ()
    line: str | None = None  # a line of the app's card the question is about


@dataclass(frozen=True)
class Lesson:
    slug: str
    title: str
    summary: str
    panels: tuple[Panel, ...]
    checks: tuple[Check, ...]
    prepares: tuple[str, ...] = ()  # drill names this lesson comes before
    rules: tuple[str, ...] = field(default=())  # the rule ids it teaches

    def check(self, check_id: str) -> Check:
        for found in self.checks:
            if found.id == check_id:
                return found
        raise KeyError(f'the lesson "{self.title}" has no check "{check_id}"')


# -- what the lessons say about a card, read from the card ------------------------------------
# Every claim a lesson makes about a card (which line is concealed, what a line's tokens are,
# which tiles a family of hands wants, what a line pays) is computed here from the card the
# lesson is built for; tests/web/test_learn.py re-derives each claim from the card on its own.

# The colours the card prints its suit letters in (static/css/app.css: .suit-a, .suit-b, .suit-c).
COLOURS = {"a": "blue", "b": "red", "c": "green"}
# The Dragon each colour word could be mistaken for.
DRAGON_OF_COLOUR = {"red": "RD", "green": "GD"}
WORDS = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six"}


def year_tiles(card: Card) -> tuple[str, ...]:
    """The card's year as it is held: four singles in one suit, Soap for a zero (T4)."""
    return tuple("WD" if digit == "0" else f"{digit}D" for digit in str(card.year or 2026))


def year_text(card: Card) -> str:
    return str(card.year or 2026)


def _tokens(line: Line) -> list[Token]:
    return parse_pattern(line.pattern)


def _shown(token: Token) -> str:
    """A token as the card prints it, without its suit letter: "DDD", "222", "2026"."""
    return token.symbols


def _three_suits(line: Line) -> bool:
    return {t.suit for t in _tokens(line) if t.suit} == set(COLOURS) and line.suits is None and line.numbers == "fixed"


def example_line(card: Card) -> Line:
    """The line the reading lesson holds two ways: the first of three colours, fixed numbers."""
    return next(line for line in card.lines if _three_suits(line))


def _words_of(reading: Reading) -> str:
    return ", ".join(f"{COLOURS[letter].capitalize() if n == 0 else COLOURS[letter]} as {tiles.SUIT_PLURALS[suit]}"
                     for n, (letter, suit) in enumerate(reading.suits))


def _held(line: Line, suits: dict[str, str], first_number: int | None = None) -> Reading:
    found = reading_with(line, suits, first_number)
    if found is None:
        raise LookupError(f"{line.id} has no hand with {suits}")
    return found


def dragon_line(card: Card) -> tuple[Line, Token]:
    """The first line with a group of D (the Dragon of its colour's suit) and the year's 0."""
    for line in card.lines:
        tokens = _tokens(line)
        dragons = [t for t in tokens if t.is_group and t.symbols[0] == "D" and len(t.symbols) >= 3]
        if dragons and any("0" in t.symbols for t in tokens):
            return line, dragons[0]
    raise LookupError("the card has no line with a Dragon group and a year")


def like_line(card: Card) -> Line:
    """The first line of any like numbers: every number the same."""
    for line in card.lines:
        digits = {s for t in _tokens(line) for s in t.symbols if s.isdigit()}
        if line.numbers == "any" and len(digits) == 1 and line.suits is None:
            return line
    raise LookupError("the card has no line of any like numbers")


def same_colour_groups(card: Card) -> tuple[Line, Token, Token]:
    """The first line with two groups of different numbers printed in one colour."""
    for line in card.lines:
        groups = [t for t in _tokens(line) if t.suit and t.is_group and t.symbols[0].isdigit() and len(t.symbols) >= 3]
        for n, one in enumerate(groups):
            other = next((g for g in groups[n + 1:] if g.suit == one.suit and g.symbols[0] != one.symbols[0]), None)
            if other is not None and line.suits is None:
                return line, one, other
    raise LookupError("the card has no line with two groups in one colour")


def family(card: Card) -> tuple[str, tuple[Line, ...]]:
    """The card's year lines (the section named for its year), with the year."""
    for section in card.sections:
        if section.name == year_text(card):
            return section.name, section.lines
    return "", card.lines


def throwaways(card: Card, suits: tuple[str, ...] = ("D", "B"), most: int = 3) -> tuple[str, ...]:
    """Tiles no year hand in these suits wants, one of each kind first (a Wind,
    a Dragon, a number of the suit left out, then of the suits in), as the
    Charleston lesson shows them."""
    _, lines = family(card)
    used = wanted(lines, suits)
    left_out = [s for s in tiles.SUIT_PLURALS if s not in suits]
    kinds = [
        ["N", "E", "W", "S"],
        ["RD", "GD", "WD"],
        *[[f"{n}{s}" for n in range(9, 0, -1)] for s in [*left_out, *suits]],
    ]
    chosen: list[str] = []
    for kind in kinds:
        spare = [code for code in kind if tiles.INDEX[code] not in used]
        if spare and len(chosen) < most:
            chosen.append(spare[0])
    return tuple(chosen)


def _joker_value(card: Card) -> Line:
    """A line that takes jokers, of the smallest value: the payment checks' example."""
    return min((line for line in card.lines if line.takes_jokers), key=lambda line: (line.value, card.lines.index(line)))


def _like_words(reading: Reading, numbers: list[int] | None = None, honours: str | None = None) -> str:
    """ "55 Dots, 5555 Bams, 5555 Craks, NEWS": a hand of a like-numbers line
    in words, with other `numbers` for its suited parts or other `honours`."""
    parts, suited = [], 0
    for part in reading.parts:
        codes = [tiles.CODES[t] for t in part.tiles]
        suit = tiles.suit_of(part.tiles[0])
        if suit is not None:
            number = numbers[suited] if numbers else tiles.number_of(part.tiles[0])
            suited += 1
            parts.append(f"{str(number) * len(codes)} {tiles.SUIT_PLURALS[suit]}")
        else:
            parts.append(honours if honours is not None else "".join(codes))
    return ", ".join(parts)


def tiles_lesson(card: Card) -> Lesson:
    year, held = year_text(card), year_tiles(card)
    return Lesson(
        "tiles", "The tiles",
        "Three suits, four Winds, three Dragons, Flowers and Jokers: the 152 tiles of an American set.",
        panels=(
            Panel("Dots are the first suit: numbered 1 to 9, four of each.", tiles=tuple(f"{n}D" for n in range(1, 10))),
            Panel("Bams (bamboos) are the second suit, also 1 to 9. The 1 Bam is drawn as a bird.",
                  tiles=tuple(f"{n}B" for n in range(1, 10))),
            Panel("Craks (characters) are the third suit: a number over a Chinese character.",
                  tiles=tuple(f"{n}C" for n in range(1, 10))),
            Panel("Four Winds: North, East, West and South.", tiles=("N", "E", "W", "S")),
            Panel("Three Dragons, each belonging to a suit: Red goes with Craks, Green with Bams, and White with Dots "
                  "(T2). The White Dragon is called Soap.", tiles=("RD", "5C", "GD", "5B", "WD", "5D"),
                  caption="Each Dragon beside a tile of its suit"),
            Panel("Eight Flowers, all counted as the same tile (T3), and eight Jokers, the wild tiles.",
                  tiles=("F", "F", "J", "J")),
            Panel(f"In all 152 tiles: 108 suit tiles, 16 Winds, 12 Dragons, 8 Flowers and 8 Jokers (T1). "
                  f"Soap also stands for zero in the year {year} (T4).", tiles=held,
                  caption=f"{year} written with Soap as the zero"),
        ),
        checks=(
            Check("green-dragon", "Which suit does this Dragon go with?", "Bams",
                  "The Green Dragon goes with Bams (T2).",
                  {"Craks": "Craks go with the Red Dragon.", "Dots": "Dots go with Soap, the White Dragon."},
                  tiles=("GD",)),
            Check("crak", "Which tile is this?", tiles.name("7C"),
                  "A number over a Chinese character is a Crak (T1).",
                  {tiles.name("7B"): "Bams are drawn as bamboo sticks.", tiles.name("7D"): "Dots are drawn as circles."},
                  tiles=("7C",)),
            Check("soap", "What is this tile called?", "Soap",
                  f"This is the White Dragon, called Soap; in {year} it is the zero (T4).",
                  {"Joker": "A Joker says so on its face.", "Flower": "A Flower shows a flower picture."},
                  tiles=("WD",)),
            Check("count", "How many tiles are in a full American set?", "152",
                  "152: 108 suit tiles, 16 Winds, 12 Dragons, 8 Flowers and 8 Jokers (T1).",
                  {"144": "144 leaves out the eight Jokers.", "136": "136 leaves out the Flowers and the Jokers."}),
        ),
        prepares=("name-the-tile", "setup-and-turns"),
        rules=("T1", "T2", "T3", "T4"),
    )


def reading_lesson(card: Card) -> Lesson:
    example = example_line(card)
    first = _held(example, {"a": "D", "b": "B", "c": "C"})
    second = _held(example, {"a": "C", "b": "D", "c": "B"})
    dragons, dragon = dragon_line(card)
    colour = COLOURS[dragon.suit or "a"]
    # Held in a suit whose Dragon is not named like the colour, so the colour cannot give the answer away.
    suit = next(s for s in ("B", "D", "C") if tiles.DRAGON_OF_SUIT[s] != DRAGON_OF_COLOUR.get(colour))
    own = tiles.DRAGON_OF_SUIT[suit]
    lookalike = DRAGON_OF_COLOUR.get(colour) or next(d for d in ("RD", "GD") if d != own)
    size = WORDS[len(dragon.symbols)]
    like = like_line(card)
    like_tokens = _tokens(like)
    printed_digits = " ".join(_shown(t) for t in like_tokens if t.symbols[0].isdigit())
    fives = _held(like, {"a": "D", "b": "B", "c": "C"}, first_number=5)
    five_digits = " ".join(str(tiles.number_of(p.tiles[0])) * len(p.tiles) for p in fives.parts
                           if tiles.suit_of(p.tiles[0]) is not None)
    like_pattern = " ".join(t.symbols for t in like_tokens)
    honours = next((t.symbols for t in like_tokens if not t.suit and not t.is_group), None)
    wrong_like = {_like_words(fives, numbers=list(range(1, 1 + sum(tiles.suit_of(p.tiles[0]) is not None
                                                                  for p in fives.parts)))):
                  "Like numbers: the same number in every group."}
    if honours:
        wrong_like[_like_words(fives, honours=honours[0] * len(honours))] = (
            f"{honours} is {WORDS[len(honours)].lower()} different tiles: {WORDS[len(honours)].lower()} singles, "
            "not a group.")
    concealed = next(line for line in card.lines if line.concealed)
    colours, one, other = same_colour_groups(card)
    return Lesson(
        "reading-the-card", "Reading the card",
        "Each line of the card is one winning hand. Colours are suits, X and C say whether you may expose, "
        "D is a Dragon and 0 is Soap.",
        panels=(
            Panel("Each line of the card is one winning hand of exactly 14 tiles (H1). After the pattern: what it "
                  "pays, then X (you may expose groups) or C (concealed: no exposures before the winning tile) (H4).",
                  line=example.id),
            Panel("Colours are suits, but not fixed ones: blue is any suit you like, red is another, green the third. "
                  "One way to hold the line above:", tiles=tuple(tiles.CODES[t] for t in first.tiles),
                  caption=_words_of(first)),
            Panel("The same line held another way: any choice of three different suits is the same line.",
                  tiles=tuple(tiles.CODES[t] for t in second.tiles), caption=_words_of(second)),
            Panel("Groups are identical tiles: 2 a pair, 3 a pung, 4 a kong, 5 a quint, 6 a sextet. There are no "
                  f"runs: {year_text(card)} is four singles (H2).", tiles=("3B", "3B", "3B", "N", "N", "N", "N"),
                  caption="A pung of 3 Bams and a kong of North"),
            Panel(f"D is the Dragon of its colour's suit: {_shown(dragon)} in {tiles.SUIT_PLURALS[suit]} is "
                  f"{size.lower()} {tiles.plural(own, len(dragon.symbols)).split(' ', 1)[1]} (T2). 0 is Soap, the "
                  "zero of the year, in any colour (T4).", line=dragons.id),
            Panel(f"Year lines keep their digits. A line marked \u201cany\u201d, such as like numbers, may use any "
                  f"number, the same one wherever the card prints the same digit: {printed_digits} may be "
                  f"{five_digits}.", line=like.id),
        ),
        checks=(
            Check("concealed", "This line is marked C. May you call a discard to expose a pung for it?",
                  "Only the winning tile",
                  "A C line allows no exposure before the winning tile; winning on a discard is still allowed (H4).",
                  {"Yes, any pung": "Exposing a pung breaks a concealed line.",
                   "Never, not even to win": "You may still take a discard as your winning tile."},
                  line=concealed.id),
            Check("colours", f"{_shown(one)} and {_shown(other)} are printed in the same colour. What does that say?",
                  "Both in the same suit", "One colour on a line is one suit (H1).",
                  {"Each in a different suit": "Different suits are printed in different colours.",
                   "Any suit for each": "The colour ties them together: one suit for both."},
                  line=colours.id),
            Check("dragon", f"{colour.capitalize()} is held as {tiles.SUIT_PLURALS[suit]} here. Which tiles can "
                  f"{_shown(dragon)} be?", f"{size} {tiles.plural(own, len(dragon.symbols)).split(' ', 1)[1]}",
                  f"D is the Dragon of its colour's suit, and {tiles.name(own)} goes with "
                  f"{tiles.SUIT_PLURALS[suit]} (T2).",
                  {f"{size} {tiles.plural(lookalike, len(dragon.symbols)).split(' ', 1)[1]}":
                   f"{tiles.name(lookalike)} goes with {tiles.SUIT_PLURALS[tiles.SUIT_OF_DRAGON[lookalike]]}.",
                   f"Any {size.lower()} Dragons": "D names one Dragon: its suit's."},
                  line=dragons.id),
            Check("zero", f"In {year_text(card)} on the card, what is the 0?", "Soap",
                  "The zero of a year is Soap, the White Dragon (T4).",
                  {"A Flower": "Flowers are printed as F.", "A Joker": "A joker may never be a single of the year."}),
            Check("like", f"Which of these fits {like_pattern}, any like numbers?", _like_words(fives),
                  "The same number everywhere, in three different suits, as the colours say (H1).",
                  wrong_like, line=like.id),
        ),
        prepares=("nearest-hand", "mahjong-or-not", "first-pass"),
        rules=("H1", "H2", "H4", "T2", "T4"),
    )


def charleston_lesson(card: Card) -> Lesson:
    year, _ = family(card)
    unwanted = throwaways(card)
    hand = f"a {year} hand" if year else "a hand"
    return Lesson(
        "charleston", "The Charleston",
        "Before play, everyone passes tiles they do not want: right, across, left, and maybe back again.",
        panels=(
            Panel("Before the first turn, players pass tiles they do not want. The first Charleston is compulsory: "
                  "three tiles to the right, then three across, then three to the left (C1).",
                  tiles=unwanted, caption=f"Tiles {hand} in Dots and Bams never uses"),
            Panel("The second Charleston is optional and goes the other way: left, across, right. Any one player "
                  "may stop it (C2)."),
            Panel("Then the courtesy pass: 0 to 3 tiles with the player across. If you offer different numbers, the "
                  "smaller number moves (C3).", tiles=("9B", "N"), caption="Two tiles offered across"),
            Panel("Jokers are never passed, in any pass (C4).", tiles=("J",)),
            Panel("On the last pass of each Charleston (first: left; second: right) you may pass on some or all of "
                  "the three tiles coming to you without looking at them: a blind pass. They never enter your rack; "
                  "the rest come from your rack. Three tiles still move (C5).",
                  tiles=("3C", "7D", "E"), caption="The three tiles coming to you, passed on unseen"),
        ),
        checks=(
            Check("first", "Which way does the first pass of the first Charleston go?", "To the right",
                  "The first Charleston goes right, across, then left (C1).",
                  {"To the left": "Left is the last pass of the first Charleston.",
                   "Across": "Across is the second pass."}),
            Check("joker", "May you pass a Joker in the Charleston?", "No, never",
                  "Jokers are never passed, in any pass (C4).",
                  {"Yes, any time": "Passing a Joker is not allowed.",
                   "Only in the courtesy pass": "Not in the courtesy pass either."}, tiles=("J",)),
            Check("courtesy", "For the courtesy pass you offer 3 tiles; the player across offers 1. How many move?",
                  "1 each way", "When the two offer different numbers, the smaller number moves (C3).",
                  {"3 each way": "The larger number never moves.",
                   "None": "Both offered some: the smaller number moves."}),
            Check("stop", "One player wants to stop the second Charleston. What happens?", "It stops",
                  "The second Charleston is optional: any one player may stop it (C2).",
                  {"It goes on if the others want it": "One player is enough to stop it.",
                   "The first Charleston starts again": "Nothing is passed again."}),
        ),
        prepares=("first-pass", "charleston-rules"),
        rules=("C1", "C2", "C3", "C4", "C5"),
    )


CALLS = Lesson(
    "calls", "Calls and exposures",
    "Taking another player's discard to finish a group, laying it face up, and who gets a tile two people want.",
    panels=(
        Panel("Only the latest discard can be called, until the next player draws (K1).", tiles=("3B",),
              caption="The latest discard: the only one anyone may call"),
        Panel("You call a discard to complete a pung, kong, quint or sextet with tiles you already hold, and lay the "
              "group face up: an exposure (K2).", tiles=("5D", "5D", "5D"),
              caption="You held two 5 Dots; a 5 Dot was discarded: you expose a pung"),
        Panel("You may not call for a single or a pair, unless it is the last tile you need for Mah Jongg (K3).",
              tiles=("N", "N"), caption="A pair: called for only as the winning tile"),
        Panel("A call takes the place of your draw: expose, then discard; play goes on to your right (K5)."),
        Panel("If two players want the same discard, Mah Jongg beats an exposure; between equal calls, the player "
              "next in turn after the discarder gets it (K4)."),
        Panel("On a concealed (C) line you may call only for Mah Jongg (K7)."),
        Panel("Late in a hand, watch the exposures: a tile that plainly helps someone is a hot tile; one thrown "
              "twice with no call is a safe tile (D1)."),
    ),
    checks=(
        Check("pung", "You hold two 5 Dots and someone discards a 5 Dot. What may you call it for?", "A pung",
              "A call completes a pung or bigger group with tiles you hold (K2).",
              {"A pair": "Not for a pair, unless it wins the game.",
               "Nothing, it was discarded": "The latest discard may be called."}, tiles=("5D", "5D")),
        Check("old", "A 3 Bam was discarded two turns ago. May you call it now?", "No",
              "Only the latest discard can be called (K1).",
              {"Yes": "Once the next player has drawn, that discard is gone for good.",
               "Only for a kong": "No group makes an old discard callable."}),
        Check("both", "One player calls a discard for Mah Jongg, another for a pung. Who gets it?",
              "The Mah Jongg call", "Mah Jongg beats an exposure (K4).",
              {"The pung": "An exposure loses to Mah Jongg.",
               "Whoever spoke first": "Speed does not decide it under League rules."}),
    ),
    prepares=("calls", "hot-or-safe", "dead-or-alive"),
    rules=("K1", "K2", "K3", "K4", "K5", "K7", "D1"),
)



def jokers_lesson(card: Card) -> Lesson:
    return Lesson(
        "jokers", "Jokers",
        "Where a Joker may stand, where it may not, and how to win one back.",
        panels=(
            Panel("A Joker may stand for any tile in a pung, kong, quint or sextet (J1).",
                  tiles=("8B", "8B", "J"), caption="A pung of 8 Bams with a Joker"),
            Panel("Never in a single or a pair, never in a singles and pairs line, and never in the year's digits "
                  "(J2).", tiles=year_tiles(card), caption="The year: four singles, no Joker"),
            Panel("A discarded Joker can never be called, not even for Mah Jongg (J3)."),
            Panel("Joker exchange: on your turn, after you have drawn, give the exact tile a Joker stands for and "
                  "take the Joker, from any exposure (J4).", tiles=("7B", "7B", "J"),
                  caption="Holding a 7 Bam, you may take this Joker"),
        ),
        checks=(
            Check("pair", "May a Joker be one tile of a pair?", "No",
                  "A Joker never stands in a single or a pair (J2).",
                  {"Yes": "Pairs must be two real tiles.", "Only a pair of Flowers": "Not a pair of Flowers either."}),
            Check("discarded", "A player discards a Joker. May you call it to finish your pung?", "No",
                  "A discarded Joker can never be called (J3).",
                  {"Yes": "No call may take a discarded Joker.", "Only for Mah Jongg": "Not even for Mah Jongg."}),
            Check("exchange", "Across has exposed 7 Bam, 7 Bam, Joker. You hold a 7 Bam. When may you take the "
                  "Joker?", "On my turn, after I draw",
                  "A Joker exchange comes after you draw and before you discard (J4).",
                  {"Any time": "Only on your own turn.",
                   "On my turn, before I draw": "Exchanging before you draw makes your hand dead."},
                  tiles=("7B", "7B", "J")),
        ),
        prepares=("jokers",),
        rules=("J1", "J2", "J3", "J4"),
    )


def paying_lesson(card: Card) -> Lesson:
    example = example_line(card)
    line = _joker_value(card)
    value = line.value
    discarder, other, _ = pay(line, "discard", jokerless=False)
    _, each, _ = pay(line, "self", jokerless=False)
    jokerless, _, _ = pay(line, "discard", jokerless=True)
    return Lesson(
        "mahjong-and-paying", "Mah Jongg and paying",
        "Winning with 14 tiles on one line, and who pays what.",
        panels=(
            Panel("Mah Jongg is 14 tiles that match one line of the card, exposed groups included (H1). Declare it "
                  "and show your tiles; the others check them (E1).", line=example.id),
            Panel("Each loser pays the value printed on the winning line (P1)."),
            Panel("Won on a discard: the discarder pays double, the other two pay the value (P2)."),
            Panel("Self-picked, drawn from the wall: all three pay double (P3)."),
            Panel("Jokerless: the payments double again, except on singles and pairs lines (P4).",
                  tiles=year_tiles(card)),
            Panel("If the wall runs out with no winner, nobody pays (E2). A dead hand still pays the winner (E4)."),
        ),
        checks=(
            Check("discard", f"You win on a discard with a {value} line, with jokers. What does the discarder pay?",
                  str(discarder), "The discarder pays double the value (P2).",
                  {str(other): f"{other} is what each of the other two pays.",
                   str(jokerless): "Only a jokerless win doubles it again."}),
            Check("self-picked", f"You win self-picked on a {value} line, with jokers. What does each other player "
                  "pay?", str(each), "Self-picked: all three pay double (P3).",
                  {str(value): "Self-picked doubles every payment.",
                   str(value * 3): "Payments double; they do not triple."}),
            Check("wall", "The wall runs out and nobody has won. Who pays?", "Nobody",
                  "A wall game has no winner, so nobody pays (E2).",
                  {"The last discarder": "There is no winner to pay.", "East": "East pays nothing either."}),
        ),
        prepares=("payment", "mahjong-or-not"),
        rules=("H1", "E1", "E2", "P1", "P2", "P3", "P4"),
    )


# The table rules (coach.rules.table_rules), after the game they change: a group's
# own rules, each with the League rule it changes, in plain words.
TABLE_RULES = Lesson(
    "table-rules", "League rule or table rule?",
    "Every table plays the League's rules; a group may agree on a few of its own before play: blanks, a hot or "
    "cold wall, three players and more.",
    panels=(
        Panel("The League's rules are the ones every table plays. A table rule is one a group agrees on before the "
              "first tile is dealt; if the group agrees on nothing, the League's rules apply."),
        Panel("Blank tiles (TR1): some sets have a few blank tiles. At a table that plays them, on your turn you may "
              "swap a blank from your rack for a tile in the discards, but never for a joker. A blank is never part "
              "of a hand, and blanks may be passed in the Charleston.", tiles=("BL",)),
        Panel("A hot or cold wall (TR2): the last tiles of the wall are those left behind when East broke it. At a "
              "cold wall nobody may call a discard there, so a win must be picked. At a hot wall, whoever throws the "
              "winning tile there pays for everyone."),
        Panel("A joker in the courtesy pass (TR3): some tables let a joker go across in the courtesy pass. By the "
              "League's rules a joker is never passed (C4).", tiles=("J",)),
        Panel("Three players (TR4): North's seat stays empty and its tiles stay in the wall. Nobody sits across, so "
              "the Charleston passes right, then left, with no courtesy pass, and two players pay the winner."),
        Panel("Picking ahead (TR5) and first to speak (TR6): some tables let the next player look at the next wall "
              "tile before the calls are over, or give a discard to whoever called it first. By the League's rules "
              "you pick on your turn, and between two calls for the same thing the nearer seat gets it (K4)."),
        Panel("An all-blind pass (C6): if every player passes all three tiles on unseen, some tables end the "
              "Charleston there. By the League's rules nothing moves and the Charleston goes on (C5)."),
    ),
    checks=(
        Check("which", "Which of these is a table rule, not a League rule?", "A cold wall: no calls in the last tiles",
              "A cold wall is a table rule: a group plays it only if it agrees to (TR2).",
              {"The first Charleston passes right, across, then left": "That is a League rule: every table plays it.",
               "Mah Jongg beats a call for an exposure": "That is a League rule, played even at a table where the "
               "first to speak takes a discard."}),
        Check("joker", "By the League's rules, may a joker go across in the courtesy pass?", "No, never",
              "By the League's rules a joker is never passed, in any pass (C4).",
              {"Yes": "Some groups agree to it as a table rule, but the League does not allow it.",
               "Only if the two players agree": "Two players cannot agree on it alone: only a table that plays it "
               "as its own rule allows it."}, tiles=("J",)),
        Check("three", "Three play at your table. Which way do the first Charleston's passes go?", "Right, then left",
              "With three players nobody sits across, so the first Charleston passes right, then left (TR4).",
              {"Right, across, then left": "That is the Charleston for four players; at three nobody sits across.",
               "Left, then right": "That is the second Charleston at a table of three."}),
        Check("blank", "Your table plays blanks. What may you swap a blank for on your turn?",
              "A tile in the discards, but not a joker",
              "On your turn a blank from your rack may be swapped for any tile in the discards but a joker (TR1).",
              {"A joker in someone's exposure": "That is a joker exchange, made with the real tile, never a blank.",
               "The next tile of the wall": "A blank is swapped only for a tile in the discards."}),
        Check("speak", "Your table plays first to speak. Two players call the same discard, both for a pung. Who gets "
              "it?", "The one who spoke first",
              "At a table that plays it, between calls for the same thing the first to speak takes the discard (TR6).",
              {"The one nearer after the thrower": "That is the League's rule; your table agreed on first to speak.",
               "Neither: the tile stays in the discards": "One of the two callers gets it."}),
    ),
    prepares=("payment",),  # after the game it changes: the last drill in teaching order
    rules=("TR1", "TR2", "TR3", "TR4", "TR5", "TR6", "C6", "C4", "C5", "K4"),
)


def for_card(card: Card) -> tuple[Lesson, ...]:
    """The lessons in teaching order, every claim about a card read from `card`."""
    return (tiles_lesson(card), reading_lesson(card), charleston_lesson(card), CALLS, jokers_lesson(card),
            paying_lesson(card), TABLE_RULES)


LESSONS: tuple[Lesson, ...] = for_card(house_card())
BY_SLUG: dict[str, Lesson] = {lesson.slug: lesson for lesson in LESSONS}
# A right pick says why; a wrong one says why not, without giving the answer away: try again.
VOICE = choice.Voice(right="{reason}", shown='The answer is "{best}". {reason}', wrong=("{why} Try again.",))


def get(slug: str) -> Lesson:
    try:
        return BY_SLUG[slug]
    except (KeyError, TypeError):
        raise KeyError(f'there is no lesson "{slug}" (lessons: {", ".join(BY_SLUG)})') from None


def question(lesson: Lesson, check: Check) -> Question:
    """The check as a choice question; its choices in an order of their own,
    the same every time (the right one is not always first)."""
    choices = [check.best, *check.wrong]
    random.Random(f"lesson:{lesson.slug}:{check.id}").shuffle(choices)
    key = choice.answer_key(check.best, {**check.wrong, check.best: check.why}, voice=VOICE)
    return Question(
        drill=f"lesson:{lesson.slug}", seed=lesson.checks.index(check), level=1, card="", prompt=check.prompt,
        rack=check.tiles, choices=tuple(choices), key=key,
    )


def grade(slug: str, check_id: str, answer: object) -> tuple[Question, Verdict]:
    """The verdict on a check's answer; KeyError for an unknown lesson or
    check, AnswerError for an answer that is none of its choices."""
    lesson = get(slug)
    asked = question(lesson, lesson.check(check_id))
    if answer is None:
        raise AnswerError("pick one of the choices")
    return asked, choice.grade(asked, answer)


def finished(lesson: Lesson, passed: set[str] | frozenset[str]) -> bool:
    """Done once every check was answered right."""
    return all(check.id in passed for check in lesson.checks)


def needed_before(drill_names: list[str] | tuple[str, ...], done: set[str] | frozenset[str]) -> list[Lesson]:
    """Lessons not done yet that prepare a drill of `drill_names`, in the order
    the drills come (then teaching order): the first is the one to offer."""
    found: dict[str, Lesson] = {}
    for name in drill_names:
        for lesson in LESSONS:
            if name in lesson.prepares and lesson.slug not in done:
                found.setdefault(lesson.slug, lesson)
    return list(found.values())

"""Cards: the YAML card format of `docs/card-format.md`, validated and expanded.

A card line is a pattern with suit letters and, for some lines, a number
shift. Expanding it gives its readings: every concrete hand a player could
hold to win on that line (a list of groups, each a tile and a size).
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import Any

from coach.common.errors import CoachError
from coach.common.kept import Kept
from coach.notation import tiles
from coach.notation.yamlfile import MAX_BYTES, YamlError, capped, elide, key_line, line_of, read_text, show
from coach.notation.yamlfile import load as load_yaml

HOUSE_CARD = Path(__file__).parents[1] / "cards" / "house-2026.yaml"

DECORATION = set("+=-x")
SUIT_LETTERS = ("a", "b", "c")
SYMBOLS = set("0123456789DRGNEWSF")
NEEDS_SUIT = set("123456789D")
TAKES_SUIT = NEEDS_SUIT | {"0"}
NAMED = {"R": "RD", "G": "GD", "N": "N", "E": "E", "W": "W", "S": "S", "F": "F", "0": "WD"}
GROUP_NAMES = {1: "single", 2: "pair", 3: "pung", 4: "kong", 5: "quint", 6: "sextet"}
MAX_GROUP = 6

# Caps on what one card may hold, each refused with a message naming it.
# A League card has 60-80 lines and about 1,500 readings; the house card
# 61 lines and 949. The file's size, nesting and numbers are capped where
# it is loaded (coach.notation.yamlfile).
MAX_CARD_BYTES = MAX_BYTES
MAX_SECTIONS = 30
MAX_LINES = 200
MAX_FORMS = 12  # patterns of one printed line (`pattern` as a list)
MAX_READINGS_PER_LINE = 600
MAX_READINGS = 3_000
# What a line and a card may ASK the parser to try: every form's suit
# assignments times its number shifts, counted from the text before any is
# tried (issue 26). Readings a set cannot make are tried and dropped, so
# MAX_READINGS alone left a card of lines that never complete free to ask
# for ~2,900 tries a line. Real cards ask little (the house card 1,119 in
# all, 144 at most a line); twice the readings caps leave room for lines
# whose forms read the same hands twice. A try costs about 10 us, so a card
# at MAX_ASKED costs well under 0.1 s of CPU.
MAX_ASKED_PER_LINE = 1_200
MAX_ASKED = 6_000
MAX_PATTERN = 120  # characters of one pattern
MAX_SHIFTS = 9  # entries of a `numbers` list: no line has more distinct shifts
MAX_NAME = 100  # a card's name; " #<id>" makes its key, stored in 120 characters
MAX_SECTION_NAME = 80
MAX_ID = 40
MAX_NOTE = 300

CARD_KEYS = {"name", "year", "sections"}
SECTION_KEYS = {"name", "hands"}
HAND_KEYS = {"id", "pattern", "value", "concealed", "numbers", "note", "display", "suits", "only"}
# `only` takes suit codes leniently, as racks do (docs/card-format.md: case, aliases).
SUIT_WORDS = {
    word: suit
    for suit in tiles.SUITS
    for word in (suit.lower(), tiles.SUIT_NAMES[suit].lower(), tiles.SUIT_PLURALS[suit].lower())
} | {"dot": "D", "circle": "D", "circles": "D", "bamboo": "B", "bamboos": "B", "crack": "C", "cracks": "C",
     "character": "C", "characters": "C"}


NOT_LOADED = object()  # CardError.data when the refusal did not load the text this time


class CardError(CoachError, ValueError):
    """A card that breaks the format; every problem names where it is."""

    def __init__(self, problems: list[str], total: int | None = None):
        self.problems = capped(problems)  # at most 50 listed, then "and N more problems"
        self.total = len(problems) if total is None else total  # `total`: a refusal recalled, already capped
        # The text's YAML as the parse that refused it loaded it (None: it did not load), so
        # whoever shows the card as typed (the editor) need not load it again (issue 26);
        # NOT_LOADED for a refusal recalled, or made without loading the text.
        self.data: Any = NOT_LOADED
        more = f" (and {self.total - 1} more problems)" if self.total > 1 else ""
        super().__init__(self.problems[0] + more)


@dataclass
class Work:
    """What reading cards has cost this process, counted so that tests and the
    bench can see work done or saved without timing it. The app never reads it."""

    asked: int = 0  # parse_card calls
    parsed: int = 0  # texts read in full (neither kept nor refused before)
    recalled: int = 0  # refusals answered from memory, no second parse
    tried: int = 0  # readings tried: form x suit assignment x number shift


WORK = Work()


class OverBudget(CoachError, ValueError):
    """The parser was asked for more tries than its budget: a card problem."""


@dataclass
class Budget:
    """The tries a card may still make. The caps are checked from the text
    before a line is expanded; this counts the tries themselves, so the
    search stays bounded even where that count and the search disagree."""

    left: int

    def spend(self, tries: int = 1) -> None:
        """Take `tries` before they are made; OverBudget, none made, when there are not that many left."""
        if tries > self.left:
            raise OverBudget(f"more than {MAX_ASKED:,} readings tried")
        self.left -= tries
        WORK.tried += tries


@dataclass(frozen=True)
class Group:
    """Identical tiles standing together (H2): a single up to a sextet."""

    tile: int
    size: int

    @property
    def takes_jokers(self) -> bool:
        # J1, J2: jokers only in a pung, kong, quint or sextet.
        return self.size >= 3

    @property
    def kind(self) -> str:
        return GROUP_NAMES[self.size]

    def describe(self) -> str:
        if self.size == 1:
            return f"single {tiles.name(self.tile)}"
        return f"{self.kind} of {tiles.plural(self.tile, self.size).split(' ', 1)[1]}"


@dataclass(frozen=True)
class Part:
    """One printed token of a line, read with actual suits and numbers."""

    tiles: tuple[int, ...]
    is_group: bool
    groups: tuple[Group, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Computed once: every reading sharing this part shares its groups.
        if self.is_group:
            groups: tuple[Group, ...] = (Group(self.tiles[0], len(self.tiles)),)
        else:
            groups = tuple(Group(t, 1) for t in self.tiles)
        object.__setattr__(self, "groups", groups)


@dataclass(frozen=True)
class Reading:
    """A concrete hand: one assignment of suits to letters and one shift."""

    parts: tuple[Part, ...]
    suits: tuple[tuple[str, str], ...]  # (letter, suit) pairs
    shift: int
    form: int = 0  # which of its line's forms (Line.forms) this hand reads
    groups: tuple[Group, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Computed once: the analysis walks these groups for every rack.
        object.__setattr__(self, "groups", tuple(g for part in self.parts for g in part.groups))

    @property
    def tiles(self) -> tuple[int, ...]:
        return tuple(t for part in self.parts for t in part.tiles)

    def describe(self) -> str:
        """ "a = Dots, b = Bams": how the printed letters were read."""
        words = [f"{letter} = {tiles.SUIT_PLURALS[suit]}" for letter, suit in self.suits]
        return ", ".join(words)

    def numbers_read(self) -> str:
        """ "read 2 higher (1 as 3, 2 as 4)": how the printed numbers were read
        when the line's numbers moved; empty when they are read as printed."""
        if not self.shift:
            return ""
        printed = sorted({n - self.shift for t in self.tiles if (n := tiles.number_of(t)) is not None})
        way = f"{abs(self.shift)} {'higher' if self.shift > 0 else 'lower'}"
        return f"read {way} ({', '.join(f'{d} as {d + self.shift}' for d in printed)})"

    def printed(self) -> list[list[str]]:
        """The hand in the card's order, token by token, as tile codes."""
        return [[tiles.CODES[t] for t in part.tiles] for part in self.parts]


@dataclass(frozen=True)
class Line:
    """One printed line of a card. `pattern` is the text the card prints
    (`display`, else the first form), so whatever shows a line shows it as
    printed; `forms` are the patterns it stands for (docs/card-format.md, "One
    printed line, several forms"), and each reading names its form."""

    id: str
    section: str
    pattern: str
    value: int
    concealed: bool
    numbers: str | tuple[int, ...]
    note: str
    readings: tuple[Reading, ...] = field(repr=False)
    source_line: int = 0
    forms: tuple[str, ...] = ()  # () stands for (pattern,)
    suits: tuple[int, ...] | None = None  # None: each form's letters are different suits
    only: tuple[str, ...] | None = None  # None: all three suits

    def __post_init__(self) -> None:
        if not self.forms:
            object.__setattr__(self, "forms", (self.pattern,))

    @cached_property
    def singles_and_pairs(self) -> bool:
        """No group of three or more in any form: no jokers at all, no jokerless bonus (J2, P4).
        Worked out once a line (a verdict asks it of every line it names; a
        Singles and Pairs line has hundreds of readings to walk)."""
        return all(g.size <= 2 for r in self.readings for g in r.groups)

    def has_group(self, size: int = 3) -> bool:
        """Some form of the line holds a group of `size` tiles or more."""
        return any(g.size >= size for r in self.readings for g in r.groups)

    def form_of(self, reading: Reading) -> str:
        """The pattern `reading` was read from."""
        return self.forms[reading.form]

    def read_as(self, reading: Reading) -> str:
        """ "read as FFFF 2468a 444b 444c" when the printed line stands for
        more than that one pattern; "" when the printed line says it all."""
        form = self.form_of(reading)
        return "" if form == self.pattern and len(self.forms) == 1 else f"read as {form}"

    @property
    def takes_jokers(self) -> bool:
        return not self.singles_and_pairs


@dataclass(frozen=True)
class Section:
    name: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Card:
    name: str
    year: int | None
    sections: tuple[Section, ...]

    @property
    def lines(self) -> tuple[Line, ...]:
        return tuple(line for section in self.sections for line in section.lines)

    def line(self, line_id: str) -> Line:
        for line in self.lines:
            if line.id == line_id:
                return line
        raise KeyError(f'there is no line "{line_id}" on {self.name}')


@dataclass(frozen=True)
class Token:
    symbols: str
    suit: str | None

    @property
    def is_group(self) -> bool:
        return len(set(self.symbols)) == 1


def parse_token(text: str) -> Token | None:
    """One pattern token, or None for decoration. Raises ValueError."""
    if set(text) <= DECORATION:
        return None
    shown = elide(text)
    suit = None
    body = text
    if body[-1].lower() in SUIT_LETTERS:
        suit, body = body[-1].lower(), body[:-1]
    body = body.upper()
    if not body:
        raise ValueError(f'"{shown}" has a suit letter but no tiles')
    unknown = sorted(set(body) - SYMBOLS)
    if unknown:
        raise ValueError(f'"{shown}" has an unknown symbol "{unknown[0]}"')
    if suit is None and set(body) & NEEDS_SUIT:
        raise ValueError(f'"{shown}" needs a suit letter (a, b or c) for its numbers or D')
    if suit is not None and not set(body) & TAKES_SUIT:
        raise ValueError(f'"{shown}": the suit letter "{suit}" has no number or D to apply to')
    token = Token(body, suit)
    if token.is_group and len(body) > MAX_GROUP:
        raise ValueError(f'"{shown}" is a group of {len(body)}; a group holds 1 to {MAX_GROUP} tiles')
    return token


def parse_pattern(pattern: str) -> list[Token]:
    if len(pattern) > MAX_PATTERN:
        raise ValueError(f"a pattern has at most {MAX_PATTERN} characters (the cap), not {len(pattern)}")
    tokens = [parse_token(word) for word in pattern.split()]
    found = [t for t in tokens if t is not None]
    size = sum(len(t.symbols) for t in found)
    if size != 14:
        raise ValueError(f'pattern "{elide(" ".join(pattern.split()))}" has {size} tiles, not 14')
    return found


def shifts_for(tokens: list[Token], numbers: str | tuple[int, ...]) -> list[int]:
    """The number shifts a line allows (docs/card-format.md, "Numbers")."""
    digits = [int(s) for t in tokens for s in t.symbols if s in "123456789"]
    if numbers == "fixed" or not digits:
        return [0]
    low, high = min(digits), max(digits)
    if numbers == "any":
        return list(range(1 - low, 10 - high))
    assert not isinstance(numbers, str)  # "fixed" and "any" are the only words `_numbers` lets through
    for k in numbers:
        if not (1 <= low + k and high + k <= 9):
            bad = low + k if low + k < 1 else high + k
            raise ValueError(f"shift {k} moves a number to {bad}, outside 1-9")
    return list(dict.fromkeys(numbers))


@cache  # a few hundred possible arguments; expansion asks often
def _symbol_tile(symbol: str, suit: str | None, shift: int) -> int:
    if symbol in NAMED:
        return tiles.INDEX[NAMED[symbol]]
    assert suit is not None
    if symbol == "D":
        return tiles.INDEX[tiles.DRAGON_OF_SUIT[suit]]
    return tiles.suited(int(symbol) + shift, suit)


def completable(groups: tuple[Group, ...]) -> bool:
    """Can a real 152-tile set make this hand? Singles and pairs need
    naturals; the rest of each tile's shortfall needs jokers (J1, J2)."""
    return _completable([(g.tile, g.size) for g in groups])


def _completable(groups: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> bool:
    """`completable` for (tile, size) pairs: only the tiles the hand uses are looked at."""
    need: dict[int, int] = {}
    small: dict[int, int] = {}
    for tile, size in groups:
        need[tile] = need.get(tile, 0) + size
        if size < 3:  # J1, J2: no jokers in singles and pairs
            small[tile] = small.get(tile, 0) + size
    jokers = 0
    for tile, count in need.items():
        copies = tiles.COPIES[tile]
        if small.get(tile, 0) > copies:
            return False
        if count > copies:
            jokers += count - copies
    return jokers <= tiles.COPIES[tiles.JOKER]


@lru_cache(maxsize=4096)  # a token read with one suit and one shift is always the same part
def _part(token: Token, suit: str | None, shift: int) -> tuple[Part, tuple[tuple[int, int], ...]]:
    """The token as a Part, and its groups as (tile, size) pairs."""
    concrete = tuple(_symbol_tile(s, suit, shift) for s in token.symbols)
    # A token whose tiles are all the same tile is one group (so `D0a`
    # read with Dots is a pair of Soaps); any other token is singles.
    part = Part(concrete, len(set(concrete)) == 1 and len(concrete) <= MAX_GROUP)
    return part, tuple((g.tile, g.size) for g in part.groups)


class TooManyReadings(CoachError, ValueError):
    """A line read as more concrete hands than it may have."""


def suit_assignments(
    count: int, suits: tuple[int, ...] | None = None, only: tuple[str, ...] | None = None
) -> list[tuple[str, ...]]:
    """The suits `count` letters may take, one tuple per assignment
    (docs/card-format.md, "Suits that may coincide, and named suits")."""
    pool = tuple(s for s in tiles.SUITS if only is None or s in only)
    if suits is None:  # different letters, different suits
        return list(itertools.permutations(pool, count))
    return [combo for combo in itertools.product(pool, repeat=count) if len(set(combo)) in suits]


def expand(
    tokens: list[Token],
    numbers: str | tuple[int, ...],
    limit: int | None = None,
    *,
    suits: tuple[int, ...] | None = None,
    only: tuple[str, ...] | None = None,
    form: int = 0,
    seen: set[tuple[tuple[int, int], ...]] | None = None,
    budget: Budget | None = None,
) -> tuple[Reading, ...]:
    """Every concrete hand of a line (of one form of it); identical ones
    count once, also across forms when they share `seen`. With `limit`,
    TooManyReadings as soon as there are more than that many, so the work
    stays bounded by the cap rather than by the pattern; with `budget`,
    OverBudget as soon as more are tried than it has left (hands no set
    can make are tried too, and are not counted by `limit`)."""
    letters = sorted({t.suit for t in tokens if t.suit})
    shifts = shifts_for(tokens, numbers)
    seen = set() if seen is None else seen
    readings: list[Reading] = []
    for combo in suit_assignments(len(letters), suits, only):
        assignment = dict(zip(letters, combo))
        if budget is not None:
            budget.spend(len(shifts))  # counted a suit at a time: one call, not one per try
        for shift in shifts:
            pieces = [_part(t, assignment.get(t.suit or ""), shift) for t in tokens]
            key = tuple(sorted([pair for _, pairs in pieces for pair in pairs]))
            # The same key always gets the same answer: checked once.
            if key in seen:
                continue
            seen.add(key)
            if not _completable(key):
                continue
            readings.append(Reading(tuple(part for part, _ in pieces), tuple(assignment.items()), shift, form))
            if limit is not None and len(readings) > limit:
                raise TooManyReadings(f"more than {limit}")
    return tuple(readings)


def expand_forms(
    forms: list[list[Token]],
    numbers: str | tuple[int, ...],
    limit: int | None = None,
    suits: tuple[int, ...] | None = None,
    only: tuple[str, ...] | None = None,
    budget: Budget | None = None,
) -> tuple[Reading, ...]:
    """The union of the forms' concrete hands, each hand once (the first
    form that reads it names it)."""
    seen: set[tuple[tuple[int, int], ...]] = set()
    readings: list[Reading] = []
    for n, tokens in enumerate(forms):
        left = None if limit is None else limit - len(readings)
        readings.extend(expand(tokens, numbers, left, suits=suits, only=only, form=n, seen=seen, budget=budget))
    return tuple(readings)


@dataclass(frozen=True)
class Asked:
    """What a line asks the parser to try, counted from its text alone."""

    tries: int  # form x suit assignment x number shift, summed over the forms
    forms: int
    most_suits: int  # suit assignments of its most demanding form
    most_shifts: int  # number shifts of its most demanding form

    def say(self) -> str:
        """ "12 forms, up to 27 suit assignments x 9 number shifts each" """
        forms = f"{self.forms} forms, up to " if self.forms > 1 else ""
        each = " each" if self.forms > 1 else ""
        suits = f"{self.most_suits} suit assignment{'s' if self.most_suits != 1 else ''}"
        shifts = f"{self.most_shifts} number shift{'s' if self.most_shifts != 1 else ''}"
        return f"{forms}{suits} x {shifts}{each}"


def asked(
    forms: list[list[Token]],
    numbers: str | tuple[int, ...],
    suits: tuple[int, ...] | None = None,
    only: tuple[str, ...] | None = None,
) -> Asked:
    """How many readings `expand_forms` will try for these forms, before any is
    tried: the count of suit assignments (at most 27) times the shifts (at
    most 9) of each form, so a line's cost is known from its text."""
    tries, most_suits, most_shifts = 0, 0, 0
    for tokens in forms:
        n_suits = len(suit_assignments(len({t.suit for t in tokens if t.suit}), suits, only))
        n_shifts = len(shifts_for(tokens, numbers))
        tries += n_suits * n_shifts
        if n_suits * n_shifts > most_suits * most_shifts:
            most_suits, most_shifts = n_suits, n_shifts
    return Asked(tries, len(forms), most_suits, most_shifts)


def _numbers(value: object) -> str | tuple[int, ...]:
    if isinstance(value, str) and value.strip().lower() in ("fixed", "any"):
        return value.strip().lower()
    if isinstance(value, list) and len(value) > MAX_SHIFTS:
        raise ValueError(f'"numbers" lists at most {MAX_SHIFTS} shifts (the cap), not {len(value)}')
    if isinstance(value, list) and value and all(
        isinstance(k, int) and not isinstance(k, bool) for k in value
    ):
        return tuple(value)
    raise ValueError(f'"numbers" must be fixed, any or a list of whole-number shifts, not {show(value)}')


class _FieldProblem(CoachError, ValueError):
    """A problem with one field of a hand: reported at that field's own line."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


class _CardTooBig(CoachError, ValueError):
    """The card passed a cap of the whole card: nothing after it is read."""


def _label(value: object, limit: int) -> str | None:
    """Text or a number as a short label (a name, an id); None for anything else."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    return elide(str(value).strip(), limit)


def _check_text(raw: dict, key: str, limit: int) -> None:
    value = raw.get(key)
    if isinstance(value, str) and len(value) > limit:
        raise _FieldProblem(key, f'"{key}" has at most {limit} characters (the cap), not {len(value)}')


def _build_line(raw: object, section: str, budget: int, tries: Budget | None = None) -> Line:
    """One hand of the card; `budget` is how many readings the card has left,
    `tries` how many readings it may still try (MAX_ASKED)."""
    tries = Budget(MAX_ASKED) if tries is None else tries
    if not isinstance(raw, dict):
        raise ValueError("a hand must be a mapping with id, pattern and value")
    unknown = sorted(set(map(str, raw)) - HAND_KEYS)
    if unknown:
        raise _FieldProblem(unknown[0], f'unknown key "{elide(unknown[0])}" (allowed: {", ".join(sorted(HAND_KEYS))})')
    for key in ("id", "pattern", "value"):
        if key not in raw:
            raise ValueError(f'"{key}" is missing')
    if _label(raw["id"], MAX_ID) is None:
        raise _FieldProblem("id", f'"id" must be text such as "2026-1", not {show(raw["id"])}')
    _check_text(raw, "id", MAX_ID)
    pattern = _form_texts(raw["pattern"])
    value = raw["value"]
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise _FieldProblem("value", f'"value" must be a positive whole number, not {show(value)}')
    concealed = raw.get("concealed", False)
    if not isinstance(concealed, bool):
        raise _FieldProblem("concealed", f'"concealed" must be true or false, not {show(concealed)}')
    note = raw.get("note", "")
    if note is None:
        note = ""
    if not isinstance(note, (str, int, float)):
        raise _FieldProblem("note", '"note" must be text')
    _check_text(raw, "note", MAX_NOTE)
    try:
        numbers = _numbers(raw.get("numbers", "fixed"))
    except ValueError as error:
        raise _FieldProblem("numbers", str(error)) from None
    suits, only, display = _suits(raw.get("suits")), _only(raw.get("only")), _display(raw.get("display"))
    limit = min(MAX_READINGS_PER_LINE, budget)
    forms = _forms(pattern, numbers)
    _check_suits(forms, suits, only)
    # The work the line asks for is known from its text: refused before any is done.
    asks = asked(forms, numbers, suits, only)
    if asks.tries > MAX_ASKED_PER_LINE:
        raise _FieldProblem(
            "pattern",
            f"the line asks for {asks.tries:,} readings ({asks.say()}); a line may ask for at most "
            f"{MAX_ASKED_PER_LINE:,} (the cap): give it fewer forms, suits or number shifts",
        )
    if asks.tries > tries.left:
        raise _CardTooBig(
            f"the line asks for {asks.tries:,} readings, and with it the card asks for more than {MAX_ASKED:,} "
            "(the cap per card; the house card asks for about 1,100): split it into two cards"
        )
    try:
        readings = expand_forms(forms, numbers, limit, suits, only, budget=tries)
    except OverBudget:
        raise _CardTooBig(
            f"reading the card tried more than {MAX_ASKED:,} readings (the cap per card): split it into two cards"
        ) from None
    except TooManyReadings:
        if limit < MAX_READINGS_PER_LINE:
            raise _CardTooBig(
                f"with this line the card reads as more than {MAX_READINGS} concrete hands (the cap per card; "
                "a League card has about 1,500): split it into two cards"
            ) from None
        raise _FieldProblem(
            "pattern", f"the line reads as more than {MAX_READINGS_PER_LINE} concrete hands (the cap per line)"
        ) from None
    if not readings and not any(suit_assignments(len(_letters(f)), suits, only) for f in forms):
        raise _FieldProblem(
            "only" if only else "suits",
            "no form can take its suits: its letters need more different suits than "
            + ('"only" names' if only else '"suits" allows'),
        )
    if not readings:
        raise _FieldProblem(
            "pattern",
            "no tile set can complete it: it needs more of one tile as singles or pairs "
            "than a set holds, or more than 8 jokers",
        )
    texts = tuple(" ".join(text.split()) for text in pattern)
    return Line(
        id=str(raw["id"]),
        section=section,
        pattern=display or texts[0],
        value=value,
        concealed=concealed,
        numbers=numbers,
        note=str(note),
        readings=readings,
        source_line=line_of(raw),
        forms=texts,
        suits=suits,
        only=only,
    )


def _form_texts(value: object) -> list[str]:
    """`pattern` as its list of forms: one text, or a list of them."""
    example = 'text such as "FF 2026a 2222b 2222c"'
    if isinstance(value, list):
        if len(value) > MAX_FORMS:
            raise _FieldProblem("pattern", f'"pattern" lists at most {MAX_FORMS} forms (the cap), not {len(value)}')
        if not value:
            raise _FieldProblem("pattern", f'"pattern" lists no forms: give one pattern, or a list of {example}')
        for n, item in enumerate(value, start=1):
            if not isinstance(item, str) or not item.strip():
                raise _FieldProblem("pattern", f'form {n} of "pattern" must be {example}, not {show(item)}')
        return value
    if not isinstance(value, str) or not value.strip():
        raise _FieldProblem("pattern", f'"pattern" must be {example}')
    return [value]


def _forms(texts: list[str], numbers: str | tuple[int, ...]) -> list[list[Token]]:
    """Each form's tokens; a problem names the form when there are several."""
    forms: list[list[Token]] = []
    for n, text in enumerate(texts, start=1):
        where = f"form {n}: " if len(texts) > 1 else ""
        try:
            tokens = parse_pattern(text)
            shifts_for(tokens, numbers)  # reports bad shift lists before expansion
        except ValueError as error:
            raise _FieldProblem("pattern", where + str(error)) from None
        if tokens in forms:
            raise _FieldProblem("pattern", f"form {n} is form {forms.index(tokens) + 1} again")
        forms.append(tokens)
    return forms


def _letters(tokens: list[Token]) -> set[str]:
    return {t.suit for t in tokens if t.suit}


def _suits(value: object) -> tuple[int, ...] | None:
    """`suits`: how many different suits the letters may take."""
    if value is None:
        return None
    counts = [value] if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(counts, list) or not counts or not all(
        isinstance(k, int) and not isinstance(k, bool) for k in counts
    ):
        raise _FieldProblem(
            "suits", f'"suits" must list how many different suits the letters may take, such as [1, 2], not {show(value)}'
        )
    for k in counts:
        if not 1 <= k <= len(tiles.SUITS):
            raise _FieldProblem("suits", f'"suits" counts 1 to 3 different suits, not {elide(str(k))}')
    if len(set(counts)) < len(counts):
        raise _FieldProblem("suits", f'"suits" lists a count twice: {show(value)}')
    return tuple(sorted(counts))


def _only(value: object) -> tuple[str, ...] | None:
    """`only`: the suits the letters may take, as suit codes (D, B, C)."""
    if value is None:
        return None
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names:
        raise _FieldProblem("only", f'"only" must list suits such as [B, C], not {show(value)}')
    found: list[str] = []
    for name in names:
        suit = SUIT_WORDS.get(name.strip().lower()) if isinstance(name, str) else None
        if suit is None:
            raise _FieldProblem("only", f'"only" names suits as D, B or C (Dots, Bams, Craks), not {show(name)}')
        if suit in found:
            raise _FieldProblem("only", f'"only" names {tiles.SUIT_PLURALS[suit]} twice')
        found.append(suit)
    return tuple(s for s in tiles.SUITS if s in found)


def _display(value: object) -> str | None:
    """`display`: the printed text of the line, shown instead of the first form."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _FieldProblem("display", f'"display" must be the line as the card prints it, such as "FFFF 2468 222 222", not {show(value)}')
    if len(value) > MAX_PATTERN:
        raise _FieldProblem("display", f'"display" has at most {MAX_PATTERN} characters (the cap), not {len(value)}')
    return " ".join(value.split())


def _check_suits(forms: list[list[Token]], suits: tuple[int, ...] | None, only: tuple[str, ...] | None) -> None:
    """The problems `suits` and `only` can have against the line's forms."""
    most = max(len(_letters(tokens)) for tokens in forms)
    if only is not None and most == 0:
        raise _FieldProblem("only", '"only" names suits for the suit letters, but no form has a suit letter (a, b or c)')
    for k in suits or ():
        if k > most:
            has = f"has more than {most} suit letter{'s' if most > 1 else ''}" if most else "has a suit letter (a, b or c)"
            raise _FieldProblem("suits", f'"suits" counts {k} different suits, but no form {has}')
        if only is not None and k > len(only):
            raise _FieldProblem("suits", f'"suits" counts {k} different suits, but "only" names {len(only)}')


def _check_size(data: dict, source: str) -> list[dict]:
    """The card's sections, once their number and their lines' are within
    the caps: counted before any line is read, so an oversized card costs
    nothing more. Raises CardError otherwise."""
    raw_sections = data.get("sections")
    where = f"{source}, line {key_line(data, 'sections', line_of(data))}"
    if not isinstance(raw_sections, list) or not raw_sections:
        raise CardError([f'{where}: "sections" must be a list of sections, each with name and hands'])
    if len(raw_sections) > MAX_SECTIONS:
        raise CardError([f"{where}: a card has at most {MAX_SECTIONS} sections (the cap), not {len(raw_sections)}"])
    hands = sum(len(s["hands"]) for s in raw_sections if isinstance(s, dict) and isinstance(s.get("hands"), list))
    if hands > MAX_LINES:
        raise CardError([f"{where}: a card has at most {MAX_LINES} lines (the cap), not {hands}"])
    return raw_sections


_PARSED: Kept[Card] = Kept(8)


@dataclass(frozen=True)
class _Refusal:
    problems: tuple[str, ...]  # as CardError lists them: capped already
    total: int


# Refused cards by the sha256 of their text and the name messages give them
# (issue 26): a card sent again as it was (a retried upload, a preview of an
# unchanged text) gets its problems again without a second parse. Each is a
# few KB at most (50 short messages); per process, as every cache here.
_REFUSED: Kept[_Refusal] = Kept(64)


def parse_card(text: str, source: str = "card") -> Card:
    """Load and validate a card from YAML text; raise CardError listing every
    problem (the first 50). The work is bounded by the caps above.

    A valid card's text is read once for a few uses in a row (an upload
    checks it, stores it, then shows it): the last few are kept, keyed by
    the text itself, never by a name or an id. `source` only names the
    file in messages, so it plays no part in a valid card. A refused card
    is remembered by its content's hash with its problems."""
    WORK.asked += 1
    source = elide(source, 80)
    refused_key = (hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest(), source)
    refusal = _REFUSED.peek(refused_key)
    if refusal is not None:
        WORK.recalled += 1
        raise CardError(list(refusal.problems), total=refusal.total)
    try:
        return _PARSED.get(text, lambda: _parse_card(text, source))
    except CardError as error:
        _REFUSED.put(refused_key, _Refusal(tuple(error.problems), error.total))
        raise


def _parse_card(text: str, source: str) -> Card:
    WORK.parsed += 1
    try:
        data = load_yaml(text, max_bytes=MAX_CARD_BYTES, what="card file")
    except YamlError as error:
        refused = CardError([f"{source}: {problem}" for problem in error.problems])
        refused.data = None
        raise refused from None
    try:
        return _card_of(data, source)
    except CardError as error:
        error.data = data
        raise


def _card_of(data: Any, source: str) -> Card:
    """The card a loaded card file holds; CardError listing every problem."""
    if not isinstance(data, dict):
        raise CardError([f"{source}: a card is a mapping with name and sections"])
    problems: list[str] = []
    unknown = sorted(set(map(str, data)) - CARD_KEYS)
    if unknown:
        problems.append(f'{source}: unknown key "{elide(unknown[0])}" at the top (allowed: name, year, sections)')
    card_name = data.get("name")
    name_label = _label(card_name, MAX_NAME)
    if not name_label:
        problems.append(f'{source}: the card needs a "name"')
    elif len(str(card_name).strip()) > MAX_NAME:
        problems.append(f'{source}: the "name" has at most {MAX_NAME} characters (the cap), not {len(str(card_name).strip())}')
    year = data.get("year")
    if year is not None and (not isinstance(year, int) or isinstance(year, bool)):
        problems.append(f'{source}: "year" must be a whole number, not {show(year)}')
    try:
        raw_sections = _check_size(data, source)
    except CardError as error:
        raise CardError(problems + error.problems) from None
    sections: list[Section] = []
    seen_ids: dict[str, str] = {}
    readings = 0
    tries = Budget(MAX_ASKED)  # one budget for the whole card: no line is free
    for s_index, raw_section in enumerate(raw_sections, start=1):
        where = f"{source}, line {line_of(raw_section, line_of(data))}"
        if not isinstance(raw_section, dict):
            problems.append(f"{where}: section {s_index} must be a mapping with name and hands")
            continue
        raw_name = raw_section.get("name", "")
        s_name = str(raw_name).strip() if _label(raw_name, MAX_SECTION_NAME) is not None else ""
        label = f'section "{elide(s_name)}"' if s_name else f"section {s_index}"
        s_unknown = sorted(set(map(str, raw_section)) - SECTION_KEYS)
        if s_unknown:
            problems.append(f'{where}, {label}: unknown key "{elide(s_unknown[0])}" (allowed: name, hands)')
        if not s_name:
            problems.append(f'{where}, {label}: the section needs a "name" (text)')
        elif len(s_name) > MAX_SECTION_NAME:
            problems.append(f"{where}, {label}: a section name has at most {MAX_SECTION_NAME} characters (the cap)")
        raw_hands = raw_section.get("hands")
        if not isinstance(raw_hands, list) or not raw_hands:
            problems.append(f'{where}, {label}: "hands" must be a non-empty list')
            continue
        lines: list[Line] = []
        for h_index, raw_hand in enumerate(raw_hands, start=1):
            hand_line = line_of(raw_hand, line_of(raw_section))
            hand_where = f"{source}, line {hand_line}, {label}"
            hand_id = _label(raw_hand.get("id"), MAX_ID) if isinstance(raw_hand, dict) else None
            hand_label = f'hand "{hand_id}"' if hand_id is not None else f"hand {h_index}"
            if hand_id is not None and hand_id in seen_ids:
                problems.append(f"{hand_where}, {hand_label}: duplicate id, already used in {seen_ids[hand_id]}")
                continue
            if hand_id is not None:
                seen_ids[hand_id] = label
            try:
                line = _build_line(raw_hand, s_name, MAX_READINGS - readings, tries)
            except _CardTooBig as error:
                problems.append(f"{hand_where}, {hand_label}: {error}")
                raise CardError(problems) from None
            except _FieldProblem as error:
                field_line = key_line(raw_hand, error.field, hand_line)
                problems.append(f"{source}, line {field_line}, {label}, {hand_label}: {error}")
            except ValueError as error:
                problems.append(f"{hand_where}, {hand_label}: {error}")
            else:
                readings += len(line.readings)
                lines.append(line)
        sections.append(Section(s_name, tuple(lines)))
    if problems:
        raise CardError(problems)
    return Card(name=str(card_name).strip(), year=year, sections=tuple(sections))


def read_card_text(path: Path) -> str:
    """A card file's text, no more of it than the size cap; unreadable or
    oversized files become a CardError."""
    try:
        return read_text(path, MAX_CARD_BYTES, "card file")
    except YamlError as error:
        raise CardError([f"{path}: {error}"]) from None
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise CardError([f"{path}: cannot read the card file ({reason})"]) from None


def load_card(path: str | Path) -> Card:
    """Read a card file, no more of it than the size cap; unreadable or
    oversized files become a CardError too."""
    path = Path(path)
    return parse_card(read_card_text(path), source=path.name)


@lru_cache(maxsize=1)
def house_card() -> Card:
    return load_card(HOUSE_CARD)

"""The card editor's work, for whoever owns the card being written.

The editor shows a card's YAML beside the card as printed, and every
problem at its line. Nothing here knows who is asking: the routes (today
the teacher's, under /teach/cards/editor) pass the owner's id, so the same
functions serve any account's own cards.

- `preview(text)`: the printed card, or as much of it as reads, with each
  problem pinned to its line of the YAML (coach.notation.card.parse_card names the
  line of every problem; a card that does not parse is still shown from
  its raw YAML, its broken lines marked).
- `try_rack(text, rack)`: the nearest lines of the card being written for
  a typed rack (coach.reading.analysis).
- `store(session, owner_id, text, source)`: the upload's own checks and
  store (coach.store.teaching.teachers_cards.add_card after drills.weight), so the
  editor and the upload form accept and refuse the same cards.
- `read(text)`: the text parsed once for a request (the card, or its
  CardError); each of the above takes it as `parsed`, so a request parses
  the card's text once (issue 26).

The work is bounded as an upload's: parse_card keeps the size caps, a
rack is at most MAX_RACK characters, and the routes are rate-limited
(coach.web.infra.limits.card_editor).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from coach.notation import tiles
from coach.notation.card import (
    MAX_FORMS,
    MAX_ID,
    MAX_LINES,
    MAX_NOTE,
    MAX_PATTERN,
    MAX_SECTIONS,
    NOT_LOADED,
    SUIT_LETTERS,
    Card,
    CardError,
    Line,
    parse_card,
)
from coach.notation.yamlfile import YamlError, elide, key_line, line_of
from coach.notation.yamlfile import load as load_yaml
from coach.reading.analysis import analyze
from coach.reading.tiles_away import HoldingError, drop_tables, read_holding
from coach.store import own_cards
from coach.store.models import TeacherCard
from coach.store.teaching import teachers_cards
from coach.web.shared.drilling.views import pattern_tokens

SOURCE = "Your card"  # how messages name the card being written
# The preview's size is bounded by its input (issue 26: 10.7 KB in, 961 KB
# out). A token drawn in colour costs about 140 bytes of HTML for 2-3 typed,
# so at most MAX_DRAWN tokens are drawn (the house card draws 310); past
# them a line or form shows as its typed text, cut to MAX_PATTERN characters.
MAX_DRAWN = 1_000
MAX_FORMS_SHOWN = MAX_FORMS  # a draft may list more forms than a card may hold: "and N more"
MAX_SHOWN_TEXT = 120  # characters of a YAML line shown beside its problem
MAX_RACK = 200  # characters of a typed rack: 14 tiles with room for "5 dot" style names
NEAREST = 5  # lines shown for a tried rack
_LINE = re.compile(r"\bline (\d+)\b")
_WHERE = re.compile(rf"^{SOURCE}(, line \d+(, column \d+)?)?[,:] ?")
SUIT_NAMES = {"D": "Dots", "B": "Bams", "C": "Craks"}

# "Start from this year's layout": the sections a League card has, one
# example line to copy, and what each key means. Every section but the
# first is empty: the preview lists them as still to fill.
LAYOUT = """\
# A card in the coach's format. Each printed line of the card is one hand
# under its section; "How to write a card" explains every key.
name: "My card 2026"
year: 2026
sections:
  - name: "2026"
    hands:
      # An example line: change it to the card's first line, then add the others.
      - id: "2026-1"                      # unique on the card
        pattern: "FF 2026a 2222b 2222c"   # 14 tiles; a, b, c are suits, one colour each
        value: 25
        concealed: false                  # true is the card's C: no exposures
        numbers: fixed                    # fixed, any, or a list of shifts
        note: "Any 3 suits"
  - name: "2468"
    hands: []
  - name: "Any Like Numbers"
    hands: []
  - name: "Addition Hands"
    hands: []
  - name: "Quints"
    hands: []
  - name: "Consecutive Run"
    hands: []
  - name: "13579"
    hands: []
  - name: "Winds - Dragons"
    hands: []
  - name: "369"
    hands: []
  - name: "Singles and Pairs"
    hands: []
"""


@dataclass(frozen=True)
class Problem:
    """One problem of the card, at its line of the YAML (0: the whole card)."""

    line: int
    message: str
    text: str  # that line of the YAML, to show beside the message

    @property
    def said(self) -> str:
        """The message without "Your card, line 6, ": the line is shown beside it."""
        return _WHERE.sub("", self.message, count=1) or self.message


@dataclass(frozen=True)
class PrintedLine:
    """A line as the card prints it: tokens coloured by suit letter, value, X or C."""

    id: str
    tokens: list[dict[str, str]]
    value: Any
    concealed: bool
    note: str
    forms: list[list[dict[str, str]]] = field(default_factory=list)  # each form, when there are several
    extras: list[str] = field(default_factory=list)  # "any 1 or 2 suits", "Bams and Craks only", numbers
    broken: bool = False  # a problem is pinned to this line
    source_line: int = 0
    plain: str = ""  # the printed text as typed, when the preview has drawn its MAX_DRAWN tokens
    plain_forms: list[str] = field(default_factory=list)  # forms past MAX_DRAWN, as typed
    more_forms: int = 0  # forms past MAX_FORMS_SHOWN, counted only


@dataclass
class Room:
    """How many more tokens one preview may draw in colour (MAX_DRAWN)."""

    left: int = MAX_DRAWN
    cut: bool = False  # something was shown as typed instead

    def draw(self, tokens: list[dict[str, str]]) -> bool:
        """Take room for `tokens`; False (nothing taken) when there is not enough."""
        if len(tokens) > self.left:
            self.left = 0  # what follows is shown as typed too, so the card reads in order
            self.cut = True
            return False
        self.left -= len(tokens)
        return True


@dataclass(frozen=True)
class PrintedSection:
    name: str
    lines: list[PrintedLine]
    source_line: int = 0


@dataclass
class Preview:
    text: str
    card: Card | None  # None while the card has problems
    sections: list[PrintedSection]
    problems: list[Problem]
    total: int = 0  # problems in all (the list stops at 50)
    name: str = ""
    year: Any = None
    cut: bool = False  # some lines are shown as typed: the preview drew MAX_DRAWN tokens

    @property
    def lines(self) -> int:
        return sum(len(s.lines) for s in self.sections)

    @property
    def max_drawn(self) -> int:
        return MAX_DRAWN

    @property
    def readings(self) -> int:
        """Concrete hands of a card that reads (what the caps count)."""
        return sum(len(line.readings) for line in self.card.lines) if self.card else 0

    @property
    def problem_lines(self) -> list[int]:
        return sorted({p.line for p in self.problems if p.line})


def line_in(message: str) -> int:
    """The YAML line a problem names ("Your card, line 6, ..."), or 0."""
    found = _LINE.search(message)
    return int(found.group(1)) if found else 0


def pinned(text: str, messages: list[str]) -> list[Problem]:
    """Each message with its line and that line's text, in the card's order."""
    rows = text.splitlines()
    problems = []
    for message in messages:
        number = line_in(message)
        # The line beside its problem, cut short: never a long line of bad input echoed whole.
        shown = elide(rows[number - 1].strip(), MAX_SHOWN_TEXT) if 0 < number <= len(rows) else ""
        problems.append(Problem(number, message, shown))
    return sorted(problems, key=lambda p: p.line)


def _letter_of(word: str) -> str:
    return word[-1].lower() if len(word) > 1 and word[-1].lower() in SUIT_LETTERS else ""


def printed_tokens(shown: str, form: str | None = None) -> list[dict[str, str]]:
    """The printed text's tokens with suit colours. A `display` without suit
    letters ("FFFF 2468 222 222") borrows each token's letter from the form
    it prints, token by token, so the card keeps its colours."""
    tokens = pattern_tokens(shown)
    if form is None or any(t["suit"] for t in tokens):
        return tokens
    words = form.split()
    if len(words) != len(tokens):
        return tokens
    for token, word in zip(tokens, words):
        letter = _letter_of(word)
        if letter and word[:-1].upper() == token["text"].upper():
            token.update(suit=letter, label=f"{token['text']} in suit {letter}")
    return tokens


def _extras(numbers: Any, suits: Any, only: Any) -> list[str]:
    words = []
    if numbers == "any":
        words.append("any numbers")
    elif isinstance(numbers, (list, tuple)):
        words.append("shifts " + ", ".join(str(k) for k in numbers))
    if isinstance(suits, (list, tuple)) and suits:
        counts = [str(n) for n in suits]
        words.append("any " + " or ".join(counts) + (" suit" if counts == ["1"] else " suits"))
    if isinstance(only, (list, tuple)) and only:
        names = [SUIT_NAMES.get(str(s).upper(), str(s)) for s in only]
        words.append(" and ".join(names) + " only")
    return words


def _drawn(room: Room, shown: str, forms: list[str]) -> dict[str, Any]:
    """A line's printed text and forms, in colour while `room` lasts, else as typed."""
    cut = [elide(f, MAX_PATTERN) for f in forms[:MAX_FORMS_SHOWN]] if len(forms) > 1 else []
    tokens = printed_tokens(elide(shown, MAX_PATTERN), cut[0] if cut else (forms[0] if forms else None))
    drawn = room.draw(tokens)
    coloured: list[list[dict[str, str]]] = []
    plain_forms: list[str] = []
    for form in cut:
        form_tokens = pattern_tokens(form)
        if not plain_forms and room.draw(form_tokens):
            coloured.append(form_tokens)
        else:
            plain_forms.append(form)
    return dict(
        tokens=tokens if drawn else [],
        plain="" if drawn else elide(shown, MAX_PATTERN),
        forms=coloured,
        plain_forms=plain_forms,
        more_forms=max(0, len(forms) - MAX_FORMS_SHOWN) if len(forms) > 1 else 0,
    )


def _printed_line(line: Line, room: Room) -> PrintedLine:
    forms = list(getattr(line, "forms", None) or [line.pattern])
    return PrintedLine(
        id=line.id,
        value=line.value,
        concealed=line.concealed,
        note=line.note,
        extras=_extras(line.numbers, getattr(line, "suits", None), getattr(line, "only", None)),
        source_line=line.source_line,
        **_drawn(room, line.pattern, forms),
    )


def _raw_text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _draft_line(raw: dict, broken: bool, room: Room) -> PrintedLine:
    """A hand as typed, for a card that does not read yet: shown as far as it
    goes, every value cut to its cap (a draft's values are not checked yet)."""
    pattern = raw.get("pattern")
    forms = [_raw_text(p) for p in pattern if isinstance(p, str)] if isinstance(pattern, list) else [_raw_text(pattern)]
    forms = [f for f in forms if f]
    shown = _raw_text(raw.get("display")) or (forms[0] if forms else "")
    concealed = raw.get("concealed", False)
    note = raw.get("note")
    value = raw.get("value", "")
    return PrintedLine(
        id=_label(raw.get("id", ""), MAX_ID),
        value=elide(str(value), 20) if isinstance(value, (str, int, float)) else "",
        concealed=concealed is True,
        note=elide(str(note), MAX_NOTE) if isinstance(note, (str, int, float)) else "",
        extras=[elide(word, MAX_PATTERN) for word in _extras(raw.get("numbers"), raw.get("suits"), raw.get("only"))],
        broken=broken,
        source_line=line_of(raw),
        **_drawn(room, shown, forms),
    )


def _label(value: Any, limit: int = 100) -> str:
    return elide(str(value).strip(), limit) if isinstance(value, (str, int)) and not isinstance(value, bool) else ""


def _draft(text: str, problem_lines: set[int], room: Room, data: Any = NOT_LOADED) -> tuple[str, Any, list[PrintedSection]]:
    """The card's name, year and sections from its raw YAML (within the
    card's caps), each hand marked broken when a problem names a line inside it.
    `data`: the YAML as the refusing parse loaded it (CardError.data), else it is loaded here."""
    if data is NOT_LOADED:
        try:
            data = load_yaml(text, what="card file")
        except YamlError:
            return "", None, []
    if not isinstance(data, dict):
        return "", None, []
    name, year = _label(data.get("name")), _label(data.get("year"))
    if not isinstance(data.get("sections"), list):
        return name, year, []
    hands: list[tuple[Any, dict]] = []
    sections = []
    for raw in data["sections"][:MAX_SECTIONS]:
        if not isinstance(raw, dict):
            continue
        listed = found if isinstance(found := raw.get("hands"), list) else []
        own = [h for h in listed[: max(0, MAX_LINES - len(hands))] if isinstance(h, dict)]
        hands += [(raw, h) for h in own]
        sections.append((raw, own))
    # A hand runs from its first line to the next hand's or section's.
    starts = sorted({line_of(h) for _, h in hands} | {line_of(raw) for raw, _ in sections}) + [10**9]

    def broken(hand: dict) -> bool:
        start = line_of(hand)
        end = next(s for s in starts if s > start)
        return any(start <= n < end for n in problem_lines)

    printed = [
        PrintedSection(_label(raw.get("name")), [_draft_line(h, broken(h), room) for h in own], line_of(raw))
        for raw, own in sections
    ]
    return name, year, printed


Parsed = Card | CardError  # a card's text read once for a request: the card, or why it does not read


def read(text: str) -> Parsed:
    """The card being written, parsed once: each request reads its text here
    and hands the result to `preview`, `try_rack`, `name_taken` and `store`
    (issue 26: a save or preview used to parse the same text 2-3 times)."""
    try:
        return parse_card(text, source=SOURCE)
    except CardError as error:
        return error


def preview(text: str, parsed: Parsed | None = None) -> Preview:
    """The card as printed and every problem at its line. `parsed`: `read(text)`
    done already in this request."""
    if not text.strip():
        return Preview(text, None, [], [])
    card = read(text) if parsed is None else parsed
    if isinstance(card, CardError):
        error = card
        problems = pinned(text, error.problems)
        room = Room()
        name, year, sections = _draft(text, {p.line for p in problems}, room, error.data)
        return Preview(text, None, sections, problems, error.total, name, year, room.cut)
    room = Room()
    sections = [PrintedSection(s.name, [_printed_line(line, room) for line in s.lines]) for s in card.sections]
    return Preview(text, card, sections, [], 0, card.name, card.year, room.cut)


def name_taken(session: Session, owner_id: int, text: str, parsed: Parsed | None = None) -> Problem | None:
    """A card of the owner's already has this card's name: the problem at the
    `name` line (a saved card never changes, so an edit is saved under a new name)."""
    card = read(text) if parsed is None else parsed
    if isinstance(card, CardError):
        return None
    name = card.name[:120]
    if not any(row.name == name for row in teachers_cards.cards_of(session, owner_id)):
        return None
    number = name_line(text)
    message = (
        f"{SOURCE}, line {number}: you already have a card named \u201c{name}\u201d. A saved card never changes "
        f"(questions asked on it stay the same), so give this one a new name, such as \u201c{name[:100]} v2\u201d."
    )
    return pinned(text, [message])[0]


@dataclass(frozen=True)
class Nearest:
    """One line of the card for a tried rack."""

    id: str
    tokens: list[dict[str, str]]
    distance: int | None
    value: int
    reading: str
    missing: list[str]


@dataclass
class RackTry:
    rack: str
    lines: list[Nearest] = field(default_factory=list)
    problem: str = ""


def try_rack(text: str, rack: str, keep: Card | None = None, parsed: Parsed | None = None) -> RackTry:
    """The nearest lines of the card being written for a typed rack (13 or
    14 tiles), or the reason there are none. `keep`: a card whose tables
    stay cached (the app's own); any other card is read once and its
    tables are dropped after. `parsed`: `read(text)` done already."""
    rack = rack.strip()
    if not rack:
        return RackTry(rack, problem="Type a rack of 13 or 14 tiles, such as 1D 1D 2D 3D N N E E WD WD F F J.")
    if len(rack) > MAX_RACK:
        return RackTry("", problem=f"A rack is at most {MAX_RACK} characters (the cap): 13 or 14 tiles.")
    try:
        holding, _ = read_holding(rack)
    except (HoldingError, tiles.TileError, ValueError) as error:
        return RackTry(rack, problem=f"That rack cannot be read: {str(error).rstrip('.')}.")
    card = read(text) if parsed is None else parsed
    if isinstance(card, CardError):
        count = card.total
        return RackTry(rack, problem=f"Fix the card first: it has {count} {'problem' if count == 1 else 'problems'}.")
    try:
        results = analyze(card, holding).lines[:NEAREST]
    finally:
        if card is not keep:
            drop_tables(card)
    lines = []
    for result in results:
        missing = []
        if result.fill is not None:
            missing = [tiles.plural(m.tile, m.count) for m in result.fill.missing]
        lines.append(
            Nearest(
                id=result.line.id,
                tokens=printed_tokens(result.line.pattern, (getattr(result.line, "forms", None) or [None])[0]),
                distance=result.distance,
                value=result.line.value,
                reading=result.reading.describe() if result.reading is not None else (result.reason or "").capitalize(),
                missing=missing,
            )
        )
    return RackTry(rack, lines)


def store(
    session: Session, owner_id: int, text: str, source: str = SOURCE, parsed: Parsed | None = None
) -> tuple[TeacherCard | None, list[str], int]:
    """Check and store a card as an upload does (own_cards.save_card): (row,
    [], 0), or (None, problems, how many in all). A stored card never
    changes: saving an edit stores a new card. `parsed`: `read(text)` done
    already (with `source` SOURCE, as `read` names it)."""
    saved = own_cards.save_card(session, owner_id, text, source=source, card=parsed)
    if isinstance(saved, own_cards.CardProblems):
        return None, list(saved.problems), saved.count
    return saved, [], 0


def name_line(text: str) -> int:
    """The line of the card's `name`, where a name already taken is fixed (0 if unknown)."""
    try:
        data = load_yaml(text, what="card file")
    except YamlError:
        return 0
    return key_line(data, "name", 0) if isinstance(data, dict) else 0

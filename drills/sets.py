"""Drill sets: a teacher's list of drills, shared as a small YAML file.

A drill set is what a teacher hands a class: which drills, at which level,
how many questions each. With fixed seeds the whole class gets the same
questions (so they can be discussed together); with fresh seeds each
student gets their own.

The file format::

    # Mahjong Coach drill set
    set: "First lesson: the tiles"   # required: the title, 1 to 80 characters
    description: "..."                # optional: at most 500 characters
    card: house                       # optional: "house" (the app's own card, the default)
                                      #   or the name of one of the teacher's uploaded cards
    seeds: fixed                      # optional: fixed (the default) or fresh
    seed: 20261                       # optional: a whole number from 0 to 2**31 - 1; with fixed
                                      #   seeds the class's questions come from it. Chosen at
                                      #   random when missing.
    drills:                           # required: a list of 1 to 20 items
      - drill: name-the-tile          # required: a drill's name (see drills.DRILLS)
        level: 1                      # optional: one of that drill's levels, default 1
        questions: 5                  # optional: 1 to 20, default 5

At most 60 questions in all. Unknown keys are errors (a misspelt key would
otherwise be silently ignored), and so is `true` where a number belongs.
Every problem is reported at once, each naming its line and field, so a
teacher can fix a file in one go. The web form builder goes through the
same checks with `from_fields`, its messages naming the row and field.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import yaml

import drills

# Only `drills.DRILLS` is used, and only inside functions: drills/__init__.py
# may one day import this module, and the registry is complete by then.
from coach.common.errors import CoachError
from coach.notation.yamlfile import MAX_BYTES, YamlError, capped, elide, key_line, line_of, load, show

MAX_ITEMS = 20
MAX_QUESTIONS = 20
MAX_TOTAL = 60
MAX_TITLE = 80
MAX_DESCRIPTION = 500
MAX_SEED = 2**31 - 1
HOUSE = "house"
SEEDS = ("fixed", "fresh")
DEFAULT_LEVEL = 1
DEFAULT_QUESTIONS = 5

TOP_KEYS = ("set", "description", "card", "seeds", "seed", "drills")
ITEM_KEYS = ("drill", "level", "questions")
HEADER = "# Mahjong Coach drill set"
SAMPLES = Path(__file__).parent / "samples"
SAMPLE_FILES = ("first-lesson.yaml", "reading-the-card.yaml", "first-charleston.yaml")


@dataclass(frozen=True)
class SetItem:
    drill: str
    level: int
    questions: int


@dataclass(frozen=True)
class Slot:
    index: int  # 0-based position in the set
    drill: str
    level: int
    seed: int


@dataclass(frozen=True)
class DrillSet:
    title: str
    description: str
    card: str  # HOUSE or a teacher card's name
    seeds: str  # "fixed" | "fresh"
    seed: int
    items: tuple[SetItem, ...]

    @property
    def total(self) -> int:
        return sum(item.questions for item in self.items)

    def slots(self, seed: int | None = None) -> tuple[Slot, ...]:
        """Every question of the set in order: item order, then question order
        within an item. Seeds come from `seed` (default: the set's own), so
        fresh seeds only need a different base per student."""
        base = self.seed if seed is None else seed
        slots: list[Slot] = []
        for item in self.items:
            for _ in range(item.questions):
                index = len(slots)
                slots.append(Slot(index, item.drill, item.level, seed_for(base, index)))
        return tuple(slots)


class SetError(CoachError, ValueError):
    """A drill set that does not validate; `problems` lists every message."""

    def __init__(self, problems: list[str]):
        self.problems = capped(list(problems))  # at most 50 listed, then "and N more problems"
        self.total = len(problems)
        super().__init__("; ".join(self.problems))


def seed_for(base: int, index: int) -> int:
    """The question seed for slot `index`: the first 4 bytes of
    sha256(f"{base}:{index}"), big-endian, less the top bit (answers store
    seeds in a 32-bit integer column). A hash rather than base + index so
    that neighbouring bases do not share most of their questions."""
    digest = hashlib.sha256(f"{base}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


# -- where a problem is -------------------------------------------------------


class _Place(Protocol):
    """How a message names a field: by line in a file, by row in the form."""

    def top(self, key: str) -> str: ...

    def item(self, index: int, key: Any) -> str: ...


@dataclass
class _FilePlace:
    data: Mapping[str, Any]
    items: list[Any]

    def top(self, key: str) -> str:
        return f'line {key_line(self.data, key, 1)}, "{key}"'

    def item(self, index: int, key: Any) -> str:
        # An item that is not a mapping has no lines of its own: point at "drills".
        line = key_line(self.items[index], key, key_line(self.data, "drills", 1))
        return f'line {line}, drills item {index + 1}, "{elide(str(key))}"'


class _FormPlace:
    NAMES = {"set": "title"}  # the form calls the set's title "title"

    def top(self, key: str) -> str:
        return self.NAMES.get(key, key)

    def item(self, index: int, key: Any) -> str:
        return f"row {index + 1}, {elide(str(key))}"


# -- values -------------------------------------------------------------------


_NUMBER = re.compile(r"[+-]?\d{1,12}")


def _whole(value: Any, from_form: bool) -> int | None:
    """`value` as a whole number, or None. Booleans never count, even though
    Python makes them ints; the form sends numbers as text."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if from_form and isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
        return int(value.strip())
    return None


def _missing(value: Any) -> bool:
    # An empty form field and a key with no value both mean "use the default".
    return value is None or (isinstance(value, str) and not value.strip())


def _text(value: Any, key: str, limit: int, place: _Place, problems: list[str], required: bool) -> str:
    if _missing(value):
        if required:
            problems.append(f"{place.top(key)}: is missing (a title of 1 to {limit} characters)")
        return ""
    if not isinstance(value, str):
        problems.append(f"{place.top(key)}: must be text, not {show(value)}")
        return ""
    text = value.strip()
    if len(text) > limit:
        problems.append(f"{place.top(key)}: must be at most {limit} characters, not {len(text)}")
    return text


# -- the checks shared by the file and the form --------------------------------


def _build(
    data: Mapping[str, Any],
    items: list[Any] | None,
    cards: Collection[str] | None,
    seed_default: int | None,
    place: _Place,
    problems: list[str],
    from_form: bool = False,
) -> DrillSet | None:
    """Check every field, appending to `problems`; the set if there were none.
    `items` is None when the caller has already reported "drills" unusable."""
    title = _text(data.get("set"), "set", MAX_TITLE, place, problems, required=True)
    description = _text(data.get("description"), "description", MAX_DESCRIPTION, place, problems, required=False)

    card = data.get("card")
    if _missing(card):
        card = HOUSE
    elif not isinstance(card, str):
        problems.append(f"{place.top('card')}: must be the name of a card, not {show(card)}")
    elif cards is not None and card.strip() not in cards:
        problems.append(f"{place.top('card')}: {show(card)} is not one of your cards (you have: {', '.join(cards)})")
    else:
        card = card.strip()

    seeds = data.get("seeds")
    if _missing(seeds):
        seeds = "fixed"
    elif not isinstance(seeds, str) or seeds.strip() not in SEEDS:
        problems.append(f"{place.top('seeds')}: must be fixed or fresh, not {show(seeds)}")
    else:
        seeds = seeds.strip()

    raw_seed = data.get("seed")
    if _missing(raw_seed):
        seed: int | None = secrets.randbelow(MAX_SEED + 1) if seed_default is None else seed_default
    else:
        seed = _whole(raw_seed, from_form)
        if seed is None or not 0 <= seed <= MAX_SEED:
            problems.append(f"{place.top('seed')}: must be a whole number from 0 to {MAX_SEED}, not {show(raw_seed)}")

    set_items = _build_items(items, place, problems, from_form)

    if problems:
        return None
    assert isinstance(card, str) and isinstance(seeds, str) and seed is not None  # no problem: every field was read
    return DrillSet(title, description, card, seeds, seed, set_items)


def _build_items(items: list[Any] | None, place: _Place, problems: list[str], from_form: bool) -> tuple[SetItem, ...]:
    if items is None:
        return ()
    if not items:
        problems.append(f"{place.top('drills')}: needs at least one drill")
        return ()
    if len(items) > MAX_ITEMS:
        problems.append(f"{place.top('drills')}: at most {MAX_ITEMS} drills, not {len(items)}")
        items = items[: MAX_ITEMS + 1]  # the rest go unchecked: the work stays bounded by the cap

    registry = drills.DRILLS
    built: list[SetItem] = []
    for index, raw in enumerate(items):
        if not isinstance(raw, Mapping):
            problems.append(
                f"{place.item(index, 'drill')}: each item must be a mapping with drill, level and questions, not {show(raw)}"
            )
            continue
        for key in raw:
            if key not in ITEM_KEYS:
                problems.append(f'{place.item(index, key)}: unknown key (allowed: {", ".join(ITEM_KEYS)})')

        name = raw.get("drill")
        module = None
        if _missing(name):
            problems.append(f"{place.item(index, 'drill')}: is missing (one of {', '.join(registry)})")
        elif not isinstance(name, str) or name.strip() not in registry:
            problems.append(f"{place.item(index, 'drill')}: there is no drill {show(name)} (drills: {', '.join(registry)})")
        else:
            name = name.strip()
            module = registry[name]

        raw_level = raw.get("level")
        level = DEFAULT_LEVEL if _missing(raw_level) else _whole(raw_level, from_form)
        if module is not None:
            numbers = [lv.number for lv in module.LEVELS]
            if level not in numbers:
                problems.append(
                    f"{place.item(index, 'level')}: must be a whole number from {min(numbers)} to {max(numbers)} "
                    f"for {module.TITLE}, not {show(raw_level)}"
                )
        elif level is None or level < 1:  # the drill is unknown: only the shape can be checked
            problems.append(f"{place.item(index, 'level')}: must be a whole number from 1, not {show(raw_level)}")

        raw_questions = raw.get("questions")
        questions = DEFAULT_QUESTIONS if _missing(raw_questions) else _whole(raw_questions, from_form)
        if questions is None or not 1 <= questions <= MAX_QUESTIONS:
            problems.append(
                f"{place.item(index, 'questions')}: must be a whole number from 1 to {MAX_QUESTIONS}, not {show(raw_questions)}"
            )
            questions = None

        if module is not None and level is not None and questions is not None:
            assert isinstance(name, str)  # a known drill's name
            built.append(SetItem(name, level, questions))

    # Counting only the items that validated: the total is a true lower bound.
    total = sum(item.questions for item in built)
    if total > MAX_TOTAL:
        problems.append(f"{place.top('drills')}: at most {MAX_TOTAL} questions in all, not {total}")
    return tuple(built)


# -- the file -----------------------------------------------------------------


def parse_set(text: str, cards: Collection[str] | None = (HOUSE,), seed_default: int | None = None) -> DrillSet:
    """Validate a YAML drill set; SetError listing every problem otherwise.

    `cards` are the names the set may use for "card" (a missing card is
    HOUSE, always allowed); None takes any name (a stored set, checked
    when it was saved). A missing seed is `seed_default`, or chosen at
    random when that is None."""
    try:
        data = load(text, max_bytes=MAX_BYTES, what="drill set file")
    except YamlError as error:
        raise SetError(error.problems) from None
    if data is None:
        raise SetError(['the file is empty: a drill set needs at least "set" and "drills"'])
    if not isinstance(data, Mapping):
        raise SetError([f'line {line_of(data, 1)}: a drill set must be a mapping with "set" and "drills", not {show(data)}'])

    problems: list[str] = []
    for key in data:
        if key not in TOP_KEYS:
            problems.append(f'line {key_line(data, key, 1)}, "{elide(str(key))}": unknown key (allowed: {", ".join(TOP_KEYS)})')

    raw_items = data.get("drills")
    items: list[Any] | None = None
    if raw_items is None:
        problems.append(f'line {key_line(data, "drills", 1)}, "drills": is missing (a list of 1 to {MAX_ITEMS} drills)')
    elif not isinstance(raw_items, list):
        problems.append(f'line {key_line(data, "drills", 1)}, "drills": must be a list of drills, not {show(raw_items)}')
    else:
        items = raw_items

    drill_set = _build(data, items, cards, seed_default, _FilePlace(data, items or []), problems)
    if drill_set is None:
        raise SetError(problems)
    return drill_set


def from_fields(
    title: str,
    description: str,
    card: str,
    seeds: str,
    seed: int | str | None,
    items: list[tuple[str, Any, Any]],
    cards: Collection[str] = (HOUSE,),
) -> DrillSet:
    """The same checks for the web form builder: messages name the field and
    the row ("row 2, level: ..."). Numbers may come as text ("3"); an empty
    field takes its default, and an empty seed is chosen at random."""
    data = {"set": title, "description": description, "card": card, "seeds": seeds, "seed": seed}
    rows = [{"drill": drill, "level": level, "questions": questions} for drill, level, questions in items]
    problems: list[str] = []
    drill_set = _build(data, rows, cards, None, _FormPlace(), problems, from_form=True)
    if drill_set is None:
        raise SetError(problems)
    return drill_set


class _Dumper(yaml.SafeDumper):
    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        # Indent list items under "drills:", as people write them by hand.
        super().increase_indent(flow, False)


# YAML reads these as line breaks inside a plain or single-quoted scalar;
# double quotes keep them as escapes, so the text reads back unchanged.
_BREAKS = ("\x85", "\u2028", "\u2029")


def _represent_text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = '"' if any(mark in value for mark in _BREAKS) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _represent_text)


def dump_set(drill_set: DrillSet) -> str:
    """The set as canonical YAML; parse_set reads it back as an equal set."""
    data: dict[str, Any] = {"set": drill_set.title}
    if drill_set.description:
        data["description"] = drill_set.description
    data["card"] = drill_set.card
    data["seeds"] = drill_set.seeds
    data["seed"] = drill_set.seed
    data["drills"] = [
        {"drill": item.drill, "level": item.level, "questions": item.questions} for item in drill_set.items
    ]
    body = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=88)
    return f"{HEADER}\n{body}"


@cache
def sample_sets() -> tuple[DrillSet, ...]:
    """The sets shipped in drills/samples/, in teaching order."""
    return tuple(parse_set((SAMPLES / name).read_text(encoding="utf-8")) for name in SAMPLE_FILES)

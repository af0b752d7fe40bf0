"""Table rules: a group's own rules, as switches with the League's rules as default.

The digest's last section names the rules groups add of their own (blank
tiles, a hot or cold wall, a joker in the courtesy pass, a three-player
game, picking ahead, first to speak takes the discard) and C6, the
all-blind pass that ends the Charleston. Each is one switch here, with its
id (TR1-TR6 in the project's own words, C6 from the digest), its League
default, and the exact behaviour chosen where groups differ, written out
in docs/table-rules.md with the sources that describe it.

`TableRules` is a value: a practice hand, a question and a class each carry
one, and a record or a token stores it (`to_json`, `code`) so that a replay
or a regrade reads the rules the hand or question was played under.
`LEAGUE` is the League's rules: every switch off. A hand record made before
table rules existed was played with C6 on (the engine then always ended an
all-blind Charleston), so `from_record(None)` gives `BEFORE_SWITCHES`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from coach.common.errors import CoachError

# TR2's choices: the League has no special rule for the last tiles.
WALL_LEAGUE, WALL_COLD, WALL_HOT = "league", "cold", "hot"
WALL_ENDS: tuple[str, ...] = (WALL_LEAGUE, WALL_COLD, WALL_HOT)
BLANK_COUNTS: tuple[int, ...] = (0, 2, 4, 6, 8)  # TR1: sets carry up to about eight blanks
PLAYER_COUNTS: tuple[int, ...] = (4, 3)  # TR4


class TableRulesError(CoachError, ValueError):
    """Table rules that are not one of the allowed choices; the message names the switch."""


@dataclass(frozen=True)
class TableRules:
    """One table's rules. The defaults are the League's rules (`LEAGUE`)."""

    blanks: int = 0  # TR1: blank tiles in the set (0: none, the League's 152 tiles)
    wall_end: str = WALL_LEAGUE  # TR2: "cold" or "hot" for the last tiles of the wall
    joker_in_courtesy: bool = False  # TR3: a joker may go in the courtesy pass (League: never, C4)
    players: int = 4  # TR4: 3 for a three-player game
    picking_ahead: bool = False  # TR5: the next player may look at the next wall tile during the calls
    first_to_speak: bool = False  # TR6: between calls for the same purpose, the first spoken wins (League: nearest seat, K4)
    air_mahjong: bool = False  # C6: all four passing all three blind ends the Charleston

    def __post_init__(self) -> None:
        if self.blanks not in BLANK_COUNTS or isinstance(self.blanks, bool):
            raise TableRulesError(f"blanks (TR1) is one of {', '.join(map(str, BLANK_COUNTS))}")
        if self.wall_end not in WALL_ENDS:
            raise TableRulesError(f'the wall\'s end (TR2) is one of "{WALL_LEAGUE}", "{WALL_COLD}" or "{WALL_HOT}"')
        if self.players not in PLAYER_COUNTS or isinstance(self.players, bool):
            raise TableRulesError("players (TR4) is 4, or 3 for a three-player game")
        for name in ("joker_in_courtesy", "picking_ahead", "first_to_speak", "air_mahjong"):
            if not isinstance(getattr(self, name), bool):
                raise TableRulesError(f"{name} ({SWITCHES_BY_NAME[name].rule_id}) is true or false")

    # -- reading --------------------------------------------------------------------

    @property
    def is_league(self) -> bool:
        return self == LEAGUE

    def changed(self) -> tuple[Switch, ...]:
        """The switches set away from the League's rules, in catalog order."""
        return tuple(s for s in SWITCHES if getattr(self, s.name) != s.default)

    def rule_ids(self) -> tuple[str, ...]:
        """The ids of the table rules in play: what a verdict shows it assumed."""
        return tuple(s.rule_id for s in self.changed())

    def with_(self, **changes: Any) -> TableRules:
        """A copy with some switches changed (checked like a new value)."""
        return replace(self, **changes)

    # -- storing --------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Only the switches away from the League's rules: {} for the League."""
        return {s.name: getattr(self, s.name) for s in self.changed()}

    @classmethod
    def from_json(cls, data: Any) -> TableRules:
        """From `to_json`'s form; an unknown name or a bad value is a TableRulesError."""
        if data is None:
            return LEAGUE
        if not isinstance(data, Mapping):
            raise TableRulesError("table rules are an object of switches, such as {\"blanks\": 4}")
        unknown = sorted(str(k)[:40] for k in data if k not in SWITCHES_BY_NAME)
        if unknown:
            raise TableRulesError(f'there is no table rule "{unknown[0]}" (the switches: {", ".join(SWITCHES_BY_NAME)})')
        return cls(**dict(data))

    @classmethod
    def from_record(cls, data: Any) -> TableRules:
        """The rules a stored hand was played under; a record without any was played
        before the switches, with C6 on (`BEFORE_SWITCHES`)."""
        return BEFORE_SWITCHES if data is None else cls.from_json(data)

    def code(self) -> str:
        """A short text for question tokens and URLs: "" for the League, else the
        changed switches' codes joined by "." (e.g. "b4.cold.3p")."""
        return ".".join(s.code_of(getattr(self, s.name)) for s in self.changed())

    @classmethod
    def from_code(cls, text: str) -> TableRules:
        if not isinstance(text, str) or len(text) > 64:
            raise TableRulesError("table rules code is a short text")
        if not text:
            return LEAGUE
        values: dict[str, Any] = {}
        for part in text.split("."):
            switch, value = _decode_part(part)
            if switch.name in values:
                raise TableRulesError(f"table rules code names {switch.rule_id} twice")
            values[switch.name] = value
        return cls(**values)


@dataclass(frozen=True)
class Switch:
    """One table rule: its field in `TableRules`, id, name, default and words."""

    name: str
    rule_id: str
    title: str
    default: Any
    choices: tuple[Any, ...]
    description: str  # one line: what the switch does when on
    league: str  # one line: what the League rule is instead

    def code_of(self, value: Any) -> str:
        if self.name == "blanks":
            return f"b{value}"
        if self.name == "wall_end":
            return str(value)
        if self.name == "players":
            return f"{value}p"
        return _FLAG_CODES[self.name]

    def describe(self, value: Any) -> str:
        """This switch's setting in a few words, for a settings page or a verdict."""
        if self.name == "blanks":
            return "no blanks" if value == 0 else f"{value} blanks"
        if self.name == "wall_end":
            return {WALL_LEAGUE: "no rule for the wall's end", WALL_COLD: "cold wall", WALL_HOT: "hot wall"}[value]
        if self.name == "players":
            return f"{value} players"
        return ("on" if value else "off")


_FLAG_CODES = {"joker_in_courtesy": "jc", "picking_ahead": "pa", "first_to_speak": "fs", "air_mahjong": "air"}

SWITCHES: tuple[Switch, ...] = (
    Switch(
        "blanks", "TR1", "Blank tiles", 0, BLANK_COUNTS,
        "Blank tiles join the set. On your turn you may swap a blank from your rack"
        " for a discarded tile other than a joker; a blank is never part of a hand.",
        "League rules use no blanks: a blank only replaces a lost tile.",
    ),
    Switch(
        "wall_end", "TR2", "Hot or cold wall", WALL_LEAGUE, WALL_ENDS,
        "From the tiles left behind at the break: a cold wall allows no calls, so a win"
        " must be picked; a hot wall makes a player who throws the winning tile pay for"
        " everyone, unless all the other copies of it were in sight.",
        "League rules play the last tiles like all the others.",
    ),
    Switch(
        "joker_in_courtesy", "TR3", "Jokers in the courtesy pass", False, (False, True),
        "A joker may go across in the courtesy pass.",
        "League rules never let a joker be passed, in any pass (C4).",
    ),
    Switch(
        "players", "TR4", "Three players", 4, PLAYER_COUNTS,
        "Three players: North's seat stays empty and its tiles stay in the wall; the"
        " Charleston passes right and left only, with no courtesy pass; two players pay.",
        "League play is for four players.",
    ),
    Switch(
        "picking_ahead", "TR5", "Picking ahead", False, (False, True),
        "The next player may look at the next wall tile while a discard can still be"
        " called; if it is called, that tile goes back to the wall.",
        "League rules: you pick only on your turn, once the discard can no longer be called.",
    ),
    Switch(
        "first_to_speak", "TR6", "First to speak takes it", False, (False, True),
        "When two players call a discard for the same purpose, the first to speak gets it."
        " Mah Jongg still beats an exposure.",
        "League rules give it to the seat nearest after the discarder (K4).",
    ),
    Switch(
        "air_mahjong", "C6", "All-blind pass ends the Charleston", False, (False, True),
        "If all four players pass on all three tiles unseen, the Charleston ends there:"
        " no vote, no courtesy pass, East discards.",
        "League rules: nothing moves on that pass and the Charleston goes on.",
    ),
)
SWITCHES_BY_NAME: dict[str, Switch] = {s.name: s for s in SWITCHES}
SWITCHES_BY_ID: dict[str, Switch] = {s.rule_id: s for s in SWITCHES}

LEAGUE = TableRules()
BEFORE_SWITCHES = TableRules(air_mahjong=True)  # how every hand stored before the switches was played


def _decode_part(part: str) -> tuple[Switch, Any]:
    for name, flag in _FLAG_CODES.items():
        if part == flag:
            return SWITCHES_BY_NAME[name], True
    if part in (WALL_COLD, WALL_HOT):
        return SWITCHES_BY_NAME["wall_end"], part
    if part.startswith("b") and part[1:].isdigit() and len(part) <= 3:
        return SWITCHES_BY_NAME["blanks"], int(part[1:])
    if part.endswith("p") and part[:-1].isdigit() and len(part) <= 3:
        return SWITCHES_BY_NAME["players"], int(part[:-1])
    raise TableRulesError(f'"{part[:12]}" is not a table rules code')


def names(rules: TableRules) -> list[str]:
    """Each changed switch in words, "TR1 Blank tiles: 4 blanks", for a verdict's footer."""
    return [f"{s.rule_id} {s.title}: {s.describe(getattr(rules, s.name))}" for s in rules.changed()]

"""One hand of American mahjong, from the deal to Mah Jongg or a wall game.

A hand is its seed, its card, its table rules and the list of actions
taken: `replay` rebuilds every state exactly from them. `Hand.apply` takes
one action and refuses an illegal one with the rule id that forbids it
(`HandError`); `Hand.waiting` says whose move it is and what kind. The 152
tiles (and the table's blanks, TR1) are all somewhere in every state: a
rack, an exposure, the discards or the wall (`Hand.census`, `Hand.full_set`).

The order of play, by rule id:
- S1-S3: dice choose the break; the deal gives East 14 tiles, the others 13.
- C1-C6: the first Charleston (right, across, left; the left pass may be
  blind), a vote on the second (any one player stops it), the second
  (left, across, right; the right pass may be blind), the courtesy pass
  across (0-3 tiles, the smaller offer moves). Jokers never pass. A blind
  pass forwards some of the tiles coming to you in that same pass, unseen,
  and they never enter your rack (C5); if all four forward all three,
  nothing moves and the Charleston goes on, or, with the table rule C6
  switched on, it ends there and East discards.
- S4: East discards first without drawing; then each turn draws,
  may exchange for jokers (J4-J7), and discards.
- K1-K7: only the latest discard can be called; Mah Jongg beats an
  exposure, then the seat nearest after the discarder; a call replaces
  the draw; an exposure must complete a group an open line allows, with
  tiles already held; on a concealed line only Mah Jongg (H4).
- H1, H5, E1, P1-P6: Mah Jongg is checked against the card and paid as
  the line that pays most; E2: the wall runs out, nobody pays.

The table rules (`Hand.rules`, docs/table-rules.md), each off by the
League's rules, switch on:
- TR1: blanks in the wall, passed and discarded like any tile but never
  called and never part of a hand; on a turn, after a draw or a call, one
  blank may be swapped for a tile of the discards, not a joker ("blank").
  A blank is `tiles.BLANK`, outside the 36 kinds: `holding` never counts it.
- TR2: the last wall (`in_last_wall`): cold, no call at all; hot, the
  thrower of the winning tile pays for the table unless every other copy
  of it was in sight.
- TR3: a joker may go in the courtesy pass.
- TR4: three players, East, South and West (`seats`): North is not dealt,
  the Charleston has no across pass and no courtesy, two losers pay.
- TR5: the next player may see the next wall tile while a discard may be
  called (`picked_ahead`; what a seat knows of the wall: `known_next`).
- TR6: between calls of the same purpose the first spoken wins (the order
  of `answers`).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from coach.common.errors import CoachError
from coach.notation import tiles
from coach.notation.card import Card
from coach.reading.tiles_away import Exposure, Holding
from coach.rules.calls import exposure_calls, who_gets
from coach.rules.charleston import BLIND_PASSES, COURTESY, has_courtesy, may_pass_joker, receiver, steps
from coach.rules.mahjong import Payment, score, thrower_pays_all, winning_lines
from coach.rules.table import next_seat, seats_in_play
from coach.rules.table_play import (
    cold_wall_call,
    hot_wall_excused,
    in_last_wall,
    last_wall,
    may_swap_now,
    may_take_with_blank,
    picks_ahead,
)
from coach.rules.table_rules import LEAGUE, WALL_COLD, WALL_HOT, TableRules

SEATS = tiles.SEATS  # East, South, West, North: play passes to the right (S5)
MAH_JONGG, EXPOSE = "mahjong", "expose"
BLANK_SWAP = "blank"  # the action kind of a blank swap (TR1)
MOST_PLACES = 1000  # a discard's place on the floor is below this (the whole set is 160 tiles at most)


class HandError(CoachError, ValueError):
    """An action the rules do not allow now; `rule` names the rule id."""

    def __init__(self, message: str, rule: str):
        super().__init__(f"{message} ({rule})")
        self.message = message
        self.rule = rule


@dataclass(frozen=True)
class Action:
    """One move by one seat. `tiles` are tile codes; the other fields
    belong to some kinds only (see `KINDS`)."""

    seat: str
    kind: str
    tiles: tuple[str, ...] = ()
    blind: int = 0  # pass: how many of the tiles coming in this pass go straight on, unseen (C5)
    go: bool = True  # vote: True to play the second Charleston (C2)
    count: int = 0  # offer: tiles offered in the courtesy pass (C3)
    size: int = 0  # call to expose: the group's size (K2)
    owner: str = ""  # exchange: whose exposure the joker is taken from (J4)
    group: int = 0  # exchange: which of the owner's exposures
    place: int = 0  # blank swap: which discard, by its place in `Hand.discards` (TR1)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "kind": self.kind}
        if self.tiles:
            data["tiles"] = list(self.tiles)
        for name, default in (
            ("blind", 0), ("go", True), ("count", 0), ("size", 0), ("owner", ""), ("group", 0), ("place", 0),
        ):
            if getattr(self, name) != default:
                data[name] = getattr(self, name)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        if not isinstance(data, dict) or not isinstance(data.get("seat"), str) or not isinstance(data.get("kind"), str):
            raise HandError('an action is {"seat": ..., "kind": ...}', "H1")
        raw = data.get("tiles", [])
        if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw) or len(raw) > 14:
            raise HandError("an action's tiles are a list of tile codes", "T1")
        try:
            codes = tuple(tiles.table_code_of(t) for t in raw)  # a blank too (TR1): the engine says where it may go
        except ValueError as error:
            raise HandError(str(error), "T1") from None

        def whole(name: str, default: int, most: int = 100) -> int:
            value = data.get(name, default)
            if isinstance(value, float) and value.is_integer():  # JSON Schema's "integer" counts 2.0 as 2 (issue 26)
                value = int(value)
            if not isinstance(value, int) or isinstance(value, bool) or not -1 < value < most:
                raise HandError(f'"{name}" is a small whole number', "H1")
            return value

        go = data.get("go", True)
        owner = data.get("owner", "")
        if not isinstance(go, bool) or not isinstance(owner, str):
            raise HandError('"go" is true or false and "owner" a seat', "H1")
        return cls(
            data["seat"], data["kind"], codes, whole("blind", 0), go, whole("count", 0), whole("size", 0), owner,
            whole("group", 0), whole("place", 0, MOST_PLACES),
        )


@dataclass
class Exposed:
    """An exposed group on the table; `jokers` of its tiles are jokers (J7)."""

    tile: int
    size: int
    jokers: int

    def as_exposure(self) -> Exposure:
        return Exposure(self.tile, self.size, self.jokers)


@dataclass
class Result:
    winner: str | None  # None: a wall game (E2)
    how: str  # "discard", "self", "exchange" or "wall" (a win completed by a blank swap is "self", TR1)
    payment: Payment | None
    pays: dict[str, int]  # seat -> amount won (+) or paid (-)


@dataclass
class Hand:
    """The state of one hand; change it only with `apply`."""

    card: Card
    seed: int
    dice: tuple[int, int, int]
    racks: dict[str, list[int]]
    wall: list[int]
    exposed: dict[str, list[Exposed]] = field(default_factory=lambda: {s: [] for s in SEATS})
    discards: list[tuple[str, int]] = field(default_factory=list)  # the floor, in order
    phase: str = "charleston"  # "charleston", "play" or "over"
    step: str = "first-right"  # one of coach.rules.charleston.STEPS
    passes: dict[str, Action] = field(default_factory=dict)  # pass, vote or offer actions this step
    # The tiles the last pass put in each rack (never the ones forwarded unseen, C5).
    received: dict[str, list[int]] = field(default_factory=lambda: {s: [] for s in SEATS})
    courtesy: dict[str, int] = field(default_factory=dict)  # seat -> tiles it exchanges across (C3)
    turn: str = "East"
    acquired: str | None = "deal"  # how the player on turn got their 14th tile: "deal", "draw", "call"
    called_from: str | None = None  # after a call: who threw the tile (P6)
    latest: tuple[str, int] | None = None  # the discard that may be called now (K1)
    answers: dict[str, Action] = field(default_factory=dict)  # call / no-call on the latest discard
    may_call: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # seat -> purposes, for the latest discard
    win_how: str = "self"  # how a Mah Jongg declared on this turn is paid (P3, P6)
    result: Result | None = None
    actions: list[Action] = field(default_factory=list)
    rules: TableRules = LEAGUE  # the table's own rules (coach.rules.table_rules; docs/table-rules.md)
    swapped: bool = False  # TR1: the player on turn has swapped a blank this turn (one a turn)
    hot_throw: bool = False  # TR2: the latest discard was thrown hot (a win on it makes its thrower pay for all)
    # TR5: the seats that have seen the tile at the front of the wall by picking ahead
    # (it stays there when the discard is called; the seat still knows it).
    looked: list[str] = field(default_factory=list)

    # -- what the table shows ---------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats in play, in turn order: all four, or East, South and West (TR4)."""
        return seats_in_play(self.rules.players)

    @property
    def last_wall(self) -> int:
        """How many tiles the last wall holds: those left behind at the break, the
        end of `wall` as `deal` builds it (2 x the dice total, S2, TR2)."""
        return int(last_wall(self.dice).decision)

    @property
    def in_last_wall(self) -> bool:
        """Whether play has come to the last wall: every tile still to be drawn is
        one left behind at the break (TR2; whatever the table's wall rule)."""
        return bool(in_last_wall(len(self.wall), self.dice))

    def full_set(self) -> Counter[int]:
        """The table's whole set: the 152 tiles (T1) and its blanks (TR1)."""
        found = Counter(tiles.WALL)
        if self.rules.blanks:
            found[tiles.BLANK] = self.rules.blanks
        return found

    def holding(self, seat: str) -> Holding:
        """The seat's tiles as the card reads them: never a blank (TR1)."""
        rack = self.racks[seat]
        if self.rules.blanks and tiles.BLANK in rack:
            rack = [t for t in rack if t != tiles.BLANK]
        return Holding(tuple(tiles.counts(rack)), tuple(e.as_exposure() for e in self.exposed[seat]))

    def picked_ahead(self, seat: str) -> int | None:
        """The next wall tile, for the one seat that may pick ahead now (TR5): while
        the latest discard may still be called, the seat whose turn comes next.
        None for every other seat, at any other time, and without the table rule."""
        if not self.rules.picking_ahead or self.latest is None or not self.wall:
            return None
        return self.wall[0] if seat == picks_ahead(self.latest[0], self.rules.players).decision else None

    def known_next(self, seat: str) -> int | None:
        """The next wall tile if `seat` has seen it by picking ahead (TR5): now, or
        while a discard was called since (the tile went back, the seat still knows it)."""
        ahead = self.picked_ahead(seat)
        if ahead is not None:
            return ahead
        return self.wall[0] if seat in self.looked and self.wall else None

    def census(self) -> Counter[int]:
        """Every tile of the set, wherever it is now: always `full_set`, the 152
        (T1) and the table's blanks (TR1)."""
        found: Counter[int] = Counter(self.wall)
        for seat in SEATS:
            found.update(self.racks[seat])
            for group in self.exposed[seat]:
                found.update(group.as_exposure().tiles)
        found.update(tile for _, tile in self.discards)
        return found  # tiles chosen for a pass stay in their rack until all four have chosen

    def waiting(self) -> dict[str, str]:
        """Each seat that must act now, and the kind of action it owes."""
        if self.phase == "over":
            return {}
        if self.phase == "charleston":
            kind = {"vote": "vote", "offer": "offer", "courtesy": "courtesy"}.get(self.step, "pass")
            seats = [s for s in self.seats if s not in self.passes]
            if self.step == "courtesy":
                seats = [s for s in seats if self.courtesy.get(s, 0) > 0]
            return {s: kind for s in seats}
        if self.latest is not None:
            return {s: "call" for s in self.callers() if s not in self.answers}
        return {self.turn: "turn"}

    def callers(self) -> list[str]:
        """The seats that may call the latest discard for something (K1-K3, K7, J3)."""
        return list(self.may_call) if self.latest is not None else []

    def call_purposes(self, seat: str, tile: int) -> list[tuple[str, int]]:
        """What `seat` may call `tile` for: ("mahjong", 0) and ("expose", size) each allowed."""
        if tile == tiles.JOKER or tile == tiles.BLANK:
            return []  # J3; a blank is never called (TR1)
        if self.rules.wall_end == WALL_COLD and not cold_wall_call(WALL_COLD, self.in_last_wall):
            return []  # TR2: a cold wall's last tiles are never called
        holding = self.holding(seat)
        out: list[tuple[str, int]] = []
        if winning_lines(self.card, Holding.of(holding.rack_tiles() + [tile], holding.exposures)):
            out.append((MAH_JONGG, 0))  # K3
        out += [(EXPOSE, call.size) for call in exposure_calls(self.card, holding, tile)]  # K2, K7, J5
        return out

    def exchanges(self, seat: str) -> list[tuple[str, int, int]]:
        """Joker exchanges open to the player on turn: (owner, group, tile) (J4)."""
        if self.phase != "play" or self.latest is not None or seat != self.turn or self.acquired not in ("draw", "call"):
            return []
        rack = Counter(self.racks[seat])
        return [
            (owner, index, group.tile)
            for owner in SEATS
            for index, group in enumerate(self.exposed[owner])
            if group.jokers and rack[group.tile]
        ]

    def blank_swaps(self, seat: str) -> list[tuple[int, int]]:
        """Blank swaps open to the player on turn: (place in `discards`, tile) (TR1).
        The latest discard is never among them while it may be called: its
        callers answer before anyone's turn."""
        if self.phase != "play" or self.latest is not None or seat != self.turn:
            return []
        if not may_swap_now(self.acquired, self.swapped, tiles.BLANK in self.racks[seat]):
            return []
        return [(place, tile) for place, (_, tile) in enumerate(self.discards) if may_take_with_blank(tile)]

    # -- moves --------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Take one action, or raise HandError with the rule that forbids it."""
        if action.seat not in SEATS:
            raise HandError(f'there is no seat "{action.seat[:12]}": the seats are {", ".join(SEATS)}', "S5")
        if action.seat not in self.seats:
            raise HandError(f"{action.seat}'s seat is empty: three play, East, South and West", "TR4")
        owed = self.waiting().get(action.seat)
        if self.phase == "over":
            raise HandError("the hand is over", "E1")
        if owed is None:
            if action.kind == "call" and self.phase == "play" and self.discards:
                cold = cold_wall_call(self.rules.wall_end, self.in_last_wall)
                if not cold:
                    raise HandError(cold.facts["why"], cold.rule)
            if action.kind == BLANK_SWAP and self.phase == "play":
                raise HandError("a blank swap is made on your own turn, after you pick or call a tile", "TR1")
            rule = "K1" if self.latest is not None else ("C1" if self.phase == "charleston" else "S4")
            raise HandError(f"it is not {action.seat}'s move now", rule)
        handler = {
            "pass": self._pass, "vote": self._vote, "offer": self._offer, "courtesy": self._courtesy,
            "call": self._call, "turn": self._turn,
        }[owed]
        handler(action)
        self.actions.append(action)

    def _take(self, seat: str, codes: tuple[str, ...], rule: str) -> list[int]:
        """The tiles named, checked to be in the seat's rack (not removed)."""
        wanted = Counter(tiles.TABLE_INDEX[c] for c in codes)
        rack = Counter(self.racks[seat])
        for tile, n in wanted.items():
            if rack[tile] < n:
                raise HandError(f"{seat} does not hold {tiles.plural(tile, n)}", rule)
        return [tiles.TABLE_INDEX[c] for c in codes]

    def _pass(self, action: Action) -> None:
        direction = self.step.split("-", 1)[1]
        if action.kind != "pass":
            raise HandError(f"{action.seat} must pass three tiles {direction}", "C1")
        if action.blind and self.step not in BLIND_PASSES:
            raise HandError("a blind pass is only allowed on the last pass of each Charleston", "C5")
        if action.blind > 3:
            raise HandError("a blind pass forwards at most the three tiles coming to you", "C5")
        if len(action.tiles) + action.blind != 3:
            raise HandError("three tiles move in every Charleston pass", "C1" if self.step.startswith("first") else "C2")
        chosen = self._take(action.seat, action.tiles, "C1")  # own tiles: from the whole rack
        if tiles.JOKER in chosen:
            raise HandError("jokers are never passed", "C4")
        self.passes[action.seat] = action
        if len(self.passes) == len(self.seats):
            self._move_passes(direction)

    def _move_passes(self, direction: str) -> None:
        """All four have chosen: the tiles move at once (C1, C2, C5, C6).

        Seat s sends its own tiles, then the first `blind` tiles of what
        comes to it, unseen (C5); what comes to s is exactly what its
        sender sends, in that order. A forwarded tile never enters the
        forwarder's rack, so s keeps only the last 3 - blind of what comes
        to it. If all four forward all three, nothing is left to move: the
        Charleston ends there and East discards (C6). At a three-player table
        the same, around three seats (TR4).
        """
        seats, players = self.seats, self.rules.players
        blind = {s: self.passes[s].blind for s in seats}
        own = {s: [tiles.TABLE_INDEX[c] for c in self.passes[s].tiles] for s in seats}
        self.passes = {}
        if all(b == 3 for b in blind.values()):
            # Nothing is left to move (C5). With C6 switched on the Charleston
            # ends: no vote, no second Charleston, no courtesy pass; by the
            # League's rules nothing changes hands and it goes on.
            if self.rules.air_mahjong:
                self._start_play()
            else:
                self.received = {s: [] for s in SEATS}
                self._next_step()
            return
        sender = {receiver(s, direction, players): s for s in seats}

        def out(seat: str, k: int) -> int:
            # Position k of what `seat` sends. A seat forwarding all three
            # keeps the index; any other lowers it, so the chain ends (one
            # seat at least passes an own tile, else C6 above).
            while k >= 3 - blind[seat]:
                k -= 3 - blind[seat]
                seat = sender[seat]
            return own[seat][k]

        incoming = {s: [out(sender[s], k) for k in range(3)] for s in seats}
        for seat in seats:
            for tile in own[seat]:
                self.racks[seat].remove(tile)
        for seat in seats:
            kept = incoming[seat][blind[seat]:]  # the forwarded ones went on unseen
            self.racks[seat].extend(kept)
            self.received[seat] = kept
        self._next_step()

    def _vote(self, action: Action) -> None:
        if action.kind != "vote":
            raise HandError(f"{action.seat} must vote on the second Charleston", "C2")
        self.passes[action.seat] = action
        if len(self.passes) == len(self.seats):
            go = all(a.go for a in self.passes.values())  # C2: any one player may stop it
            self.passes = {}
            if go:
                self._next_step()
            elif has_courtesy(self.rules.players):
                self.step = "offer"
            else:
                self._start_play()  # TR4: no courtesy pass at a three-player table

    def _offer(self, action: Action) -> None:
        if action.kind != "offer" or not 0 <= action.count <= 3:
            raise HandError("the courtesy pass offers 0 to 3 tiles across", "C3")
        self.passes[action.seat] = action
        if len(self.passes) == len(self.seats):
            for seat in self.seats:
                other = receiver(seat, COURTESY)
                self.courtesy[seat] = min(self.passes[seat].count, self.passes[other].count)  # C3
            self.passes = {}
            self.step = "courtesy"
            if not any(self.courtesy.values()):
                self._start_play()

    def _courtesy(self, action: Action) -> None:
        need = self.courtesy.get(action.seat, 0)
        if action.kind != "courtesy" or len(action.tiles) != need:
            raise HandError(f"{action.seat} passes {need} across: the smaller of the two offers", "C3")
        chosen = self._take(action.seat, action.tiles, "C3")
        if tiles.JOKER in chosen and not may_pass_joker("courtesy", self.rules.joker_in_courtesy):
            raise HandError("jokers are never passed, not in the courtesy pass either", "C4")
        self.passes[action.seat] = action
        if all(s in self.passes for s in SEATS if self.courtesy.get(s, 0)):
            moving = {}
            for seat, chosen_action in self.passes.items():
                out = [tiles.TABLE_INDEX[c] for c in chosen_action.tiles]
                for tile in out:
                    self.racks[seat].remove(tile)
                moving[receiver(seat, COURTESY)] = out
            for seat, got in moving.items():
                self.racks[seat].extend(got)
            self.passes = {}
            self._start_play()

    def _next_step(self) -> None:
        order = steps(self.rules.players)
        at = order.index(self.step) + 1
        if at == len(order):
            self._start_play()  # TR4: the second Charleston's last pass ends it (no courtesy pass)
        else:
            self.step = order[at]

    def _start_play(self) -> None:
        self.phase, self.step, self.turn, self.acquired = "play", "", "East", "deal"  # S4: East throws first
        self.received = {s: [] for s in SEATS}

    def _turn(self, action: Action) -> None:
        seat = action.seat
        if action.kind == "discard":
            if len(action.tiles) != 1:
                raise HandError("a discard is one tile", "S4")
            (tile,) = self._take(seat, action.tiles, "S4")
            self.hot_throw = self.throw_is_hot(seat, tile)
            self.racks[seat].remove(tile)
            self.discards.append((seat, tile))
            self.latest, self.answers, self.acquired, self.called_from = (seat, tile), {}, None, None
            self.may_call = {s: p for s in self.seats if s != seat and (p := self.call_purposes(s, tile))}
            if not self.may_call:
                self._after_calls()
            elif self.rules.picking_ahead and self.wall:
                # TR5: the next player may look at the next wall tile while the calls are made.
                ahead = picks_ahead(seat, self.rules.players).decision
                if ahead not in self.looked:
                    self.looked.append(ahead)
            return
        if action.kind == "exchange":
            self._exchange(action)
            return
        if action.kind == BLANK_SWAP:
            self._blank_swap(action)
            return
        if action.kind == "mahjong":
            if tiles.BLANK in self.racks[seat]:
                raise HandError("a blank is never part of a hand: swap or throw every blank before Mah Jongg", "TR1")
            holding = self.holding(seat)
            if not winning_lines(self.card, holding):
                raise HandError("these tiles match no line of the card", "H1")
            self._finish(seat, self.win_how, self.called_from)
            return
        raise HandError(f"on {seat}'s turn: exchange a joker, declare Mah Jongg or discard", "S4")

    def throw_is_hot(self, seat: str, tile: int) -> bool:
        """TR2, at a hot wall: would `seat` throwing `tile` (from its rack) now be a
        throw that makes it pay for the table if it wins? Only in the last wall,
        and not when every other copy of the tile is in sight to the thrower:
        the discards, every exposure, the rest of its rack."""
        if self.rules.wall_end != WALL_HOT or not self.in_last_wall or tile >= tiles.NATURALS:
            return False
        in_sight = sum(1 for _, t in self.discards if t == tile) + self.racks[seat].count(tile) - 1
        in_sight += sum(g.size - g.jokers for s in self.seats for g in self.exposed[s] if g.tile == tile)
        return not hot_wall_excused(tile, in_sight)

    def _blank_swap(self, action: Action) -> None:
        """TR1: a blank from the rack for a tile of the discards (not a joker); the
        blank takes the tile's place on the floor, where nobody may take or call it."""
        if not self.rules.blanks:
            raise HandError("this table plays without blanks", "TR1")
        allowed = may_swap_now(self.acquired, self.swapped, tiles.BLANK in self.racks[action.seat])
        if not allowed:
            raise HandError(allowed.facts["why"], "TR1")
        if not 0 <= action.place < len(self.discards):
            raise HandError("there is no such discard", "TR1")
        tile = self.discards[action.place][1]
        takes = may_take_with_blank(tile)
        if not takes:
            raise HandError(takes.facts["why"], "TR1")
        if action.tiles != (tiles.CODES[tile],):
            raise HandError(f"name the tile you take: the {tiles.name(tile)}", "TR1")
        self.racks[action.seat].remove(tiles.BLANK)
        self.racks[action.seat].append(tile)
        self.discards[action.place] = (action.seat, tiles.BLANK)
        # TR1: nobody threw this tile to you, so a win it completes pays as self-picked (P3).
        self.swapped, self.win_how = True, "self"

    def _exchange(self, action: Action) -> None:
        if self.acquired not in ("draw", "call"):
            raise HandError("a joker exchange comes after you draw or call a tile", "J4")
        if action.owner not in SEATS or not 0 <= action.group < len(self.exposed[action.owner]):
            raise HandError("there is no such exposure", "J4")
        group = self.exposed[action.owner][action.group]
        if not group.jokers:
            raise HandError("that exposure holds no joker", "J4")
        if len(action.tiles) != 1 or tiles.INDEX[action.tiles[0]] != group.tile:
            raise HandError(f"give the exact tile the joker stands for: {tiles.name(group.tile)}", "J4")
        self._take(action.seat, action.tiles, "J4")
        self.racks[action.seat].remove(group.tile)
        self.racks[action.seat].append(tiles.JOKER)
        group.jokers -= 1  # J7: the exposure keeps its size and tile
        # P6: a win now pays as self-picked if the joker came from another's
        # exposure; from one's own, nothing new came in (after a call, the
        # called tile's thrower still pays).
        if action.owner != action.seat:
            self.win_how = "exchange"

    def _call(self, action: Action) -> None:
        assert self.latest is not None
        thrower, tile = self.latest
        purposes = self.may_call.get(action.seat, [])
        if action.kind == "no-call":
            self.answers[action.seat] = action
        elif action.kind == BLANK_SWAP:
            raise HandError("no blank swap while the latest discard may still be called: call it or let it go", "TR1")
        elif action.kind == "call":
            size = action.size if action.size else 0
            purpose = (MAH_JONGG, 0) if size == 0 else (EXPOSE, size)
            if purpose not in purposes:
                if purpose[0] == MAH_JONGG and tiles.BLANK in self.racks[action.seat]:
                    raise HandError("a blank is never part of a hand: no Mah Jongg while you hold one", "TR1")
                if purpose[0] == MAH_JONGG:
                    raise HandError(f"the {tiles.name(tile)} does not finish {action.seat}'s hand", "K3")
                raise HandError(
                    f"no open line lets {action.seat} expose {size} of the {tiles.name(tile)} with tiles already held", "K2"
                )
            self.answers[action.seat] = action
        else:
            raise HandError(f"{action.seat} calls the {tiles.name(tile)} or passes", "K1")
        if all(s in self.answers for s in self.callers()):
            self._after_calls()

    def _after_calls(self) -> None:
        assert self.latest is not None
        thrower, tile = self.latest
        claims = {a.seat: a for a in self.answers.values() if a.kind == "call"}  # in the order spoken
        if claims:
            # K4: Mah Jongg beats an exposure; then the seat nearest after the discarder
            # (TR6: the first to speak). `answers` keeps the order the calls came in.
            purposes = {s: MAH_JONGG if a.size == 0 else EXPOSE for s, a in claims.items()}
            winner = claims[who_gets(thrower, purposes, self.rules.first_to_speak, self.rules.players).decision]
            self.discards.pop()
            self.latest, self.answers, self.may_call = None, {}, {}
            if winner.size == 0:
                self.racks[winner.seat].append(tile)
                self._finish(winner.seat, "discard", thrower)
                return
            holding = self.holding(winner.seat)
            naturals = min(holding.rack[tile], winner.size - 1)
            jokers = winner.size - 1 - naturals
            for _ in range(naturals):
                self.racks[winner.seat].remove(tile)
            for _ in range(jokers):
                self.racks[winner.seat].remove(tiles.JOKER)
            self.exposed[winner.seat].append(Exposed(tile, winner.size, jokers))
            # K5: the call replaces the draw; the caller discards next.
            self.turn, self.acquired, self.called_from, self.win_how = winner.seat, "call", thrower, "discard"
            self.swapped = False
            return
        self.latest, self.answers, self.may_call = None, {}, {}
        if not self.wall:
            self.phase = "over"
            self.result = Result(None, "wall", None, {s: 0 for s in self.seats})  # E2
            return
        self.turn = next_seat(thrower, 1, self.rules.players)  # S5 (around three seats, TR4)
        self.racks[self.turn].append(self.wall.pop(0))
        self.acquired, self.called_from, self.win_how = "draw", None, "self"
        self.swapped, self.looked = False, []  # TR5: the tile looked at is drawn

    def _finish(self, seat: str, how: str, thrower: str | None) -> None:
        thrower = thrower if how == "discard" else None
        payment = score(self.card, self.holding(seat), how, self.rules.players)
        if thrower is not None and self.hot_throw and payment.line is not None:
            payment = thrower_pays_all(payment)  # TR2: thrown hot, in the last wall
        if self.swapped and how == "self" and payment.line is not None:
            said = "A blank swap completed the hand: nobody threw that tile, so it pays as self-picked (TR1)."
            payment = replace(payment, rules=tuple(dict.fromkeys(payment.rules + ("TR1",))), explanation=payment.explanation + (said,))
        pays = {s: 0 for s in self.seats}
        for other in self.seats:
            if other == seat:
                continue
            owed = payment.discarder if other == thrower and payment.discarder is not None else payment.other
            pays[other] -= owed
            pays[seat] += owed
        self.phase = "over"
        self.result = Result(seat, how, payment, pays)

    # -- the record -----------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The hand as JSON: seed, card, table rules, actions, and how it ended.
        "rules" is always written ({} for the League's): a record without it was
        made before the switches and reads back as `BEFORE_SWITCHES` (C6 on,
        `rules_of`)."""
        out: dict[str, Any] = {
            "seed": self.seed,
            "card": self.card.name,
            "dice": list(self.dice),
            "rules": self.rules.to_json(),
            "actions": [a.to_json() for a in self.actions],
            "over": self.phase == "over",
        }
        if self.result is not None:
            r = self.result
            out["result"] = {
                "winner": r.winner,
                "how": r.how,
                "line": r.payment.line.id if r.payment and r.payment.line else None,
                "pays": r.pays,
                "rules": list(r.payment.rules) if r.payment else ["E2"],
            }
        return out


def deal(card: Card, seed: int, rules: TableRules = LEAGUE) -> Hand:
    """A new hand from a seeded wall under a table's rules: dice for the break (S2), the deal (S3).

    The wall is the set shuffled, the table's blanks in it (TR1), turned so
    that it starts just left of the break: the deal and every draw take from
    its front, so its end, 2 x the dice total tiles, is what was left behind
    at the break, the last wall (TR2). At a three-player table North is not
    dealt and its tiles stay in the wall (TR4)."""
    rng = random.Random(seed)
    wall = list(tiles.WALL) + [tiles.BLANK] * rules.blanks
    rng.shuffle(wall)
    dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
    # S2: East breaks its wall at the dice count from the right; the deal
    # starts just left of the break. A shuffled wall makes this a rotation.
    east_wall = 2 * 19
    start = (east_wall - 2 * sum(dice)) % len(wall)
    wall = wall[start:] + wall[:start]
    racks: dict[str, list[int]] = {s: [] for s in SEATS}
    seats = seats_in_play(rules.players)
    for _ in range(3):  # S3: four at a time, three rounds
        for seat in seats:
            racks[seat] += wall[:4]
            del wall[:4]
    racks["East"] += [wall[0], wall[2]]  # East: the first and third top tile
    racks["South"].append(wall[1])
    racks["West"].append(wall[3])
    if "North" in seats:
        racks["North"].append(wall[4])
    del wall[: len(seats) + 1]
    return Hand(card=card, seed=seed, dice=dice, racks=racks, wall=wall, rules=rules)


def rules_of(record: dict[str, Any]) -> TableRules:
    """The table rules a hand record was played under: its "rules", or, for a
    record made before the switches existed (no "rules"), `BEFORE_SWITCHES`."""
    return TableRules.from_record(record.get("rules"))


def replay_record(card: Card, record: dict[str, Any]) -> Hand:
    """The hand rebuilt from a record as `Hand.record` writes it: its seed, its
    table rules (`rules_of`) and its actions (HandError on an illegal one)."""
    actions = record.get("actions")
    if not isinstance(record.get("seed"), int) or not isinstance(actions, list):
        raise HandError('a hand record has "seed" (a number) and "actions" (a list)', "H1")
    return replay(card, record["seed"], [Action.from_json(a) for a in actions], rules_of(record))


def replay(card: Card, seed: int, actions: list[Action], rules: TableRules = LEAGUE) -> Hand:
    """The hand rebuilt from its seed, table rules and actions (HandError on an illegal one)."""
    hand = deal(card, seed, rules)
    for action in actions:
        hand.apply(action)
    return hand

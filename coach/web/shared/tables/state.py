"""A table as it stands: its seats, its current hand replayed, and what each seat sees.

The hand is rebuilt from what the store keeps (seed, card, rules, actions:
`hand.replay`) and the answers held for the decision still open
(coach/play/people.py). Nothing here writes: coach/web/shared/tables/moves.py does.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from sqlmodel import Session

from coach.common import clock
from coach.notation import tiles
from coach.notation.card import Card
from coach.play.hand import EXPOSE, MAH_JONGG, Action, Hand, replay
from coach.play.people import CallRuling, TableSettings, owed
from coach.play.seat_view import seat_view, state_number
from coach.rules.calls import who_gets
from coach.store import tables as store
from coach.store.models import GameTable, TableHand, TableSeat
from coach.web.shared.cards import teachers as teacher_cards

Decision = tuple[str, int]  # a decision a person owes: its kind and the seat's state number
SEAT_NAMES = {"east": "East", "south": "South", "west": "West", "north": "North"}  # as a URL names them


def seat_named(raw: str) -> str | None:
    """The engine's seat name for a URL's ("east" -> "East"); None for anything else."""
    return SEAT_NAMES.get(raw.strip().lower()) if len(raw) <= 8 else None


def card_of(table: GameTable) -> Card:
    """The card the table plays: the house card, or a teacher's card it names."""
    card: Card = current_app.extensions["coach"].card
    return card if table.card == card.name else teacher_cards.find_card(table.card) or card


@dataclass
class TableState:
    """One table as loaded for a request: its seats in turn order, its latest hand
    (None before the first) replayed, the answers held, and its settings."""

    table: GameTable
    seats: list[TableSeat]
    row: TableHand | None
    hand: Hand | None
    held: list[Action] = field(default_factory=list)

    @property
    def id(self) -> int:
        assert self.table.id is not None
        return self.table.id

    @property
    def settings(self) -> TableSettings:
        return store.table_settings(self.table)

    @property
    def people(self) -> frozenset[str]:
        return store.people_at(self.seats)[0]

    @property
    def away(self) -> frozenset[str]:
        return store.people_at(self.seats)[1]

    @property
    def going(self) -> bool:
        """A hand is being played now."""
        return self.hand is not None and self.hand.phase != "over"

    def seat_of(self, learner_id: int | None) -> str | None:
        """This person's seat here, or None."""
        return next((s.seat for s in self.seats if learner_id is not None and s.learner_id == learner_id), None)

    def owing(self) -> dict[str, str]:
        """The people's seats that owe a decision now, and its kind."""
        if self.hand is None or self.hand.phase == "over":
            return {}
        return owed(self.hand, self.people, self.settings, self.held)

    def number(self, seat: str) -> int:
        """The state number `seat` sees, which its next move carries back."""
        assert self.hand is not None
        return state_number(self.hand, seat, self.held)

    def view(self, seat: str) -> dict[str, Any] | None:
        """What `seat` sees of the hand (coach/play/seat_view.py); None before the first hand."""
        if self.hand is None:
            return None
        return seat_view(self.hand, seat, self.people, self.settings, self.held)

    def decisions(self, held: list[Action] | None = None) -> dict[str, Decision]:
        """Each decision the people owe now (with `held`, once those answers are held),
        named by its kind and the seat's state number: the same pair is the same
        decision, still open (another's answer held, a presence change, any save
        that left it open); a new pair is a new decision put to the seat."""
        if self.hand is None or self.hand.phase == "over":
            return {}
        held = self.held if held is None else held
        return {
            seat: (kind, state_number(self.hand, seat, held))
            for seat, kind in owed(self.hand, self.people, self.settings, held).items()
        }

    def owed_record(self) -> dict[str, list[Any]]:
        """Each decision the people owe now and when it was put to them, as the hand
        keeps it ({seat: [kind, state number, ISO time]}, `TableHand.owed`): as the
        save that put it recorded, else the hand's last save or its deal (a decision
        owed since the deal, or a hand saved before the record was kept)."""
        if self.row is None:
            return {}
        recorded = store.owed_of(self.row)
        fallback = clock.as_utc(self.row.moved_at or self.row.started_at).isoformat()
        found: dict[str, list[Any]] = {}
        for seat, (kind, number) in self.decisions().items():
            entry = recorded.get(seat)
            same = isinstance(entry, list) and len(entry) == 3 and entry[:2] == [kind, number]
            found[seat] = [kind, number, str(entry[2]) if same and entry is not None else fallback]
        return found

    def owed_since(self) -> dict[str, datetime]:
        """When each decision owed now was put to its person (`owed_record`)."""
        return {seat: _moment(entry[2]) for seat, entry in self.owed_record().items()}

    def deadlines(self) -> dict[str, datetime]:
        """When each person owing a decision runs out of time: the moment it was put
        to them plus the table's turn timer; empty without a timer or a decision owed."""
        timer = self.settings.turn_timer
        if timer is None:
            return {}
        return {seat: began + timedelta(seconds=timer) for seat, began in self.owed_since().items()}

    def deadline(self, seat: str | None = None) -> datetime | None:
        """When `seat` runs out of time (None: the first of the people owing to run
        out), or None when it owes nothing or the table has no timer."""
        found = self.deadlines()
        if seat is not None:
            return found.get(seat)
        return min(found.values(), default=None)

    def expired(self, now: datetime) -> set[str]:
        """The people whose time for the decision they owe has run out by `now`."""
        return {seat for seat, ends in self.deadlines().items() if clock.as_utc(now) >= ends}

    @property
    def version(self) -> int:
        """A number that changes whenever anything a page shows changes: the hand
        (its number and save count) and every seat's person and presence. The
        push stream sends it; it is compared for change only, never ordered."""
        seats = ";".join(f"{s.seat}:{s.learner_id}:{int(s.present)}" for s in self.seats)
        hand = f"{self.row.number}:{self.row.version}" if self.row is not None else "-"
        return zlib.crc32(f"{hand}|{seats}".encode())


def _moment(raw: object) -> datetime:
    return clock.as_utc(datetime.fromisoformat(str(raw)))


def load_table(session: Session, table: GameTable) -> TableState:
    """The table with its seats and its latest hand replayed from the store."""
    assert table.id is not None
    seats = store.seats_of(session, table.id)
    row = store.current_hand(session, table.id)
    if row is None:
        return TableState(table, seats, None, None)
    hand = replay(card_of(table), row.seed, [Action.from_json(a) for a in store.actions_of(row)], store.hand_rules(row))
    return TableState(table, seats, row, hand, [Action.from_json(a) for a in store.held_of(row)])


def load_by_code(session: Session, code: str) -> TableState | None:
    """The table with this join code (as typed), loaded; None when there is none."""
    table = store.table_by_code(session, code)
    return load_table(session, table) if table is not None else None


def rulings(hand: Hand) -> list[tuple[int, CallRuling]]:
    """Every discard several seats called in this hand, with the rule that gave it
    (K4, or TR6 at a table playing "first to speak"), by the index of its last call:
    read back from the actions, so every seat's page can say why the tile went where it did."""
    found: list[tuple[int, CallRuling]] = []
    actions = hand.actions
    for n, action in enumerate(actions):
        if action.kind != "discard" or not action.tiles:
            continue
        claims: dict[str, str] = {}
        last = n
        for m in range(n + 1, len(actions)):
            answer = actions[m]
            if answer.kind not in ("call", "no-call"):
                break
            if answer.kind == "call":
                claims[answer.seat] = MAH_JONGG if answer.size == 0 else EXPOSE  # as people.advance tells them apart
                last = m
        if len(claims) >= 2:
            ruling = who_gets(action.seat, claims, hand.rules.first_to_speak, hand.rules.players)
            tile = tiles.TABLE_INDEX[action.tiles[0]]
            found.append((last, CallRuling(action.seat, tile, tuple(claims.items()), ruling)))
    return found


def ruling_words(ruling: CallRuling) -> str:
    """The ruling in a sentence: "West gets the 5 Dot: Mah Jongg comes before an exposure (K4)"."""
    tile = tiles.name(ruling.tile)
    winner = ruling.winner
    purposes = dict(ruling.claims)
    if ruling.rule == "TR6":
        why = "the first to call gets it at this table" if len({p == MAH_JONGG for p in purposes.values()}) == 1 else (
            "Mah Jongg comes before an exposure")
    elif len({p == MAH_JONGG for p in purposes.values()}) > 1:
        why = "Mah Jongg comes before an exposure"
    else:
        why = f"{winner} sits nearest after {ruling.thrower}, who threw it"
    return f"{winner} gets the {tile}: {why} ({ruling.rule})"


def result_of(hand: Hand, seats: list[TableSeat]) -> dict[str, Any] | None:
    """How the hand ended, as stored: the engine's result and who sat where at the end
    (`people`: seat -> learner id), which says who may read each seat's review."""
    if hand.phase != "over":
        return None
    result = dict(hand.record()["result"])
    result["people"] = {s.seat: s.learner_id for s in seats if s.learner_id is not None}
    return result


def stored_result(row: TableHand) -> dict[str, Any] | None:
    value = json.loads(row.result or "null")
    return value if isinstance(value, dict) else None

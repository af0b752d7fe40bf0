"""A hand where some seats are people: who owes a decision, and the rest played up to them (issue 28).

At a table of friends or a class, people sit in some seats and the coach's
computer players in the others. The hand is the engine's (coach/play/hand.py):
its actions replay it exactly. This module says what the engine cannot, that
some seats answer from other devices, at other times:

- `owed(hand, people, settings, held)`: the people who owe a decision now.
  After a discard each person who could call it (`could_call`: a legal call
  action exists for the seat, coach/play/legal.py) gets the choice. One who
  cannot is passed for when `auto_pass` is on ("pass for me when I cannot
  use it"); with it off every person but the thrower answers every discard,
  so nobody learns from being asked, or from the table waiting, that some
  seat could call (K1; the engine itself asks only the seats that could).
- `take(...)`: one person's move, checked; `advance(...)`: the computer
  players' moves, the passes made for people, and the coach's computer
  player's move for a person away from a table that does not wait, until a
  person present owes a decision or the hand ends.

Answers given together are held back (`held`) until every person owing one
has given theirs: the stop vote and the courtesy offer (`bots.TOGETHER`, C2,
C3) and the answers to a discard (K1). Nobody's answer enters the hand, and
so no seat's view or log, before all have answered; then they go in, the
people's in the order they came (the order spoken, TR6), then the computer
players' in `bots.next_to_act` order, as at the practice table, where the
learner is asked first. With `auto_pass` off a discard itself is held too,
the tile in plain view on the table but not yet in the hand: were it
thrown into the hand, the engine would move on at once whenever nobody
could call it. The held answers are stored with the hand's actions; the
actions alone replay the hand (`hand.replay`), and the held ones are the
answers of the one decision still open.

When several seats call one discard, the rule that gave it (K4, or TR6 at
a table playing "first to speak") comes back as a `CallRuling`, so the page
can say why the tile went where it did.

Every choice here is a pure function of the hand, the held answers and the
table's settings; the computer players' generators are seeded as
`bots.answer` seeds them, so the same actions always replay the same hand.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from coach.play.bots import STRENGTHS, TOGETHER, decide, next_to_act
from coach.play.hand import EXPOSE, MAH_JONGG, SEATS, Action, Hand, HandError
from coach.play.legal import canonical, legal_actions, refusal, trial_copy
from coach.rules.calls import who_gets
from coach.rules.ruling import Ruling

KINDS = ("friends", "waits", "class")  # a friends' table goes on without the away; the others wait
STAND_IN = "coach"  # the strength that plays for a person away or out of time: the coach's own move
NO_CALL = "no-call"
MOST_TIMER = 600  # seconds: a turn timer is at most ten minutes


@dataclass(frozen=True)
class TableSettings:
    """How a table plays: the computer players' strength, whether a person who cannot
    call a discard is passed for (`auto_pass`), whether the table waits for a person
    away (`waits_for_everyone`: off at friends' tables, on at class and "waits"
    tables), and the seconds a person has for a decision (`turn_timer`, None: no timer)."""

    strength: str = "club"
    auto_pass: bool = True
    waits_for_everyone: bool = False
    turn_timer: int | None = None

    def __post_init__(self) -> None:
        if self.strength not in STRENGTHS:
            raise ValueError(f"the computer players are one of {', '.join(STRENGTHS)}, not {self.strength!r}")
        if self.turn_timer is not None and not 5 <= self.turn_timer <= MOST_TIMER:
            raise ValueError(f"a turn timer is 5 to {MOST_TIMER} seconds, or none")

    @classmethod
    def for_kind(cls, kind: str, strength: str = "club", auto_pass: bool = True, turn_timer: int | None = None) -> TableSettings:
        """A table's settings by its kind: only a friends' table goes on without the away."""
        if kind not in KINDS:
            raise ValueError(f"a table is one of {', '.join(KINDS)}, not {kind!r}")
        return cls(strength, auto_pass, kind != "friends", turn_timer)

    def to_json(self) -> dict[str, Any]:
        return {"strength": self.strength, "auto_pass": self.auto_pass, "waits_for_everyone": self.waits_for_everyone,
                "turn_timer": self.turn_timer}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        timer = data.get("turn_timer")
        return cls(
            str(data.get("strength", "club")), bool(data.get("auto_pass", True)), bool(data.get("waits_for_everyone", False)),
            int(timer) if isinstance(timer, int) and not isinstance(timer, bool) else None,
        )


DEFAULT = TableSettings()  # a friends' table of club players, passing for those who cannot call


@dataclass(frozen=True)
class CallRuling:
    """Who got a discard several seats called, and by which rule (K4, or TR6)."""

    thrower: str
    tile: int
    claims: tuple[tuple[str, str], ...]  # (seat, MAH_JONGG or EXPOSE), in the order spoken
    ruling: Ruling  # decision: the seat that got the tile

    @property
    def winner(self) -> str:
        return str(self.ruling.decision)

    @property
    def rule(self) -> str:
        return self.ruling.rule


@dataclass
class Progress:
    """What `advance` left: the answers still held for the open decision, and the
    rulings on the calls it resolved on the way."""

    held: list[Action]
    rulings: list[CallRuling] = field(default_factory=list)


# -- who owes what ------------------------------------------------------------------------


def could_call(hand: Hand, seat: str) -> bool:
    """Whether `seat` has any legal call on the latest discard now (legal.py): the
    seats the engine asks. A seat with only "no call" open could not call."""
    return any(a.kind == "call" for a in legal_actions(hand, seat))


def pending_discard(held: Sequence[Action]) -> Action | None:
    """The discard held back (auto_pass off) until every person has answered it."""
    return held[0] if held and held[0].kind == "discard" else None


def thrown(hand: Hand, held: Sequence[Action]) -> Hand:
    """The hand with a held discard thrown, on a copy, to see who could call it:
    where nobody could, the copy has already moved on (so nobody could call it)."""
    discard = pending_discard(held)
    if discard is None:
        return hand
    trial = trial_copy(hand)
    trial.apply(discard)
    return trial


def _answered(held: Sequence[Action]) -> set[str]:
    return {a.seat for a in held if a.kind != "discard"}


@dataclass(frozen=True)
class _Open:
    """A discard open to calls: its thrower, the hand it may be called on (a copy
    with a held discard thrown), and the seats that could call it (legal.py)."""

    thrower: str
    table: Hand
    callers: frozenset[str]
    held: bool  # the discard is held (auto_pass off), not yet in the hand


def _window(hand: Hand, held: Sequence[Action]) -> _Open | None:
    """The open discard, worked out once for all that asks about it; else None."""
    discard = pending_discard(held)
    if discard is not None:
        thrower, table = discard.seat, thrown(hand, held)
    elif hand.latest is not None:
        thrower, table = hand.latest[0], hand
    else:
        return None
    callers = frozenset(s for s in table.seats if table.latest is not None and could_call(table, s))
    return _Open(thrower, table, callers, discard is not None)


def owed(hand: Hand, people: Collection[str], settings: TableSettings = DEFAULT, held: Sequence[Action] = ()) -> dict[str, str]:
    """The people (their seats) who owe a decision now, and its kind ("pass",
    "vote", "offer", "courtesy", "call" or "turn"), in seat order. After a
    discard: each person who could call it, and with `auto_pass` off (the
    discard then held, `take`) every person but the thrower; a person's held
    answer is given, so not owed."""
    return _owed(hand, people, settings, held, _window(hand, held))


def _owed(hand: Hand, people: Collection[str], settings: TableSettings, held: Sequence[Action], window: _Open | None) -> dict[str, str]:
    if hand.phase == "over":
        return {}
    if window is not None:
        done = _answered(held) | set(hand.answers)
        everyone = not settings.auto_pass and window.held
        return {
            s: "call" for s in SEATS
            if s in people and s in hand.seats and s != window.thrower and s not in done and (everyone or s in window.callers)
        }
    answered = _answered(held) if hand.phase == "charleston" and hand.step in TOGETHER else set()
    return {s: kind for s, kind in hand.waiting().items() if s in people and s not in answered}


def choices(hand: Hand, seat: str, people: Collection[str], settings: TableSettings = DEFAULT,
            held: Sequence[Action] = ()) -> list[Action]:
    """Every move `seat`, a person's, may make now: its legal actions, and on a
    discard it cannot call (auto_pass off) only "no call". Empty when it owes none."""
    return _choices(hand, seat, people, settings, held, _window(hand, held))


def _choices(hand: Hand, seat: str, people: Collection[str], settings: TableSettings, held: Sequence[Action],
             window: _Open | None) -> list[Action]:
    if seat not in _owed(hand, people, settings, held, window):
        return []
    if window is not None:
        return legal_actions(window.table, seat) if seat in window.callers else [Action(seat, NO_CALL)]
    return legal_actions(hand, seat)


def _gated(hand: Hand, window: _Open | None) -> bool:
    """Whether the decision now is answered by all at once: a discard's calls, the vote, the offer."""
    return window is not None or (hand.phase == "charleston" and hand.step in TOGETHER)


# -- moves ---------------------------------------------------------------------------------


def _hold_discard(action: Action, people: Collection[str], settings: TableSettings) -> bool:
    # auto_pass off: every other person answers the discard, so it waits for them.
    return action.kind == "discard" and not settings.auto_pass and any(s != action.seat for s in people)


def take(hand: Hand, action: Action, people: Collection[str], settings: TableSettings = DEFAULT,
         held: Sequence[Action] = ()) -> list[Action]:
    """A person's move: refused (HandError, with its rule id) unless it is one of
    `choices`; held when answered together, else played. The held answers after it."""
    if hand.phase == "over":
        raise HandError("this hand is over: see its review", "E1")
    window = _window(hand, held)
    open_ = _choices(hand, action.seat, people, settings, held, window)
    if not open_:
        rule = "K1" if window is not None else ("C1" if hand.phase == "charleston" else "S4")
        raise HandError(f"it is not {action.seat}'s move now", rule)
    move = canonical(action)
    if move not in open_:
        if window is not None and action.seat not in window.callers:
            raise HandError(f"{action.seat} cannot call this discard: pass", "K1")
        raise refusal(window.table if window is not None else hand, move)
    out = list(held)
    if _gated(hand, window):
        out.append(move)
    elif _hold_discard(move, people, settings):
        out = [move]
    else:
        hand.apply(move)
    return out


def stand_ins(people: Collection[str], away: Collection[str], settings: TableSettings,
              expired: Collection[str] = ()) -> frozenset[str]:
    """The people's seats the coach's computer player moves for now: each person away
    from a table that does not wait for them (a friends' table), and each whose turn
    timer ran out (`expired`, the web layer's clock), at any table."""
    late = {s for s in expired if s in people}
    if settings.waits_for_everyone:
        return frozenset(late)
    return frozenset(late | {s for s in away if s in people})


def _rng(hand: Hand, seat: str) -> random.Random:
    return random.Random(f"{hand.seed}:{seat}:{len(hand.actions)}")  # as bots.answer seeds them


def _move_of(hand: Hand, seat: str, people: Collection[str], settings: TableSettings) -> Action:
    """A computer player's move, or the coach's for a person it stands in for."""
    return decide(hand, seat, STAND_IN if seat in people else settings.strength, _rng(hand, seat))


def _flush(hand: Hand, held: Sequence[Action], people: Collection[str], settings: TableSettings) -> CallRuling | None:
    """Every person has answered: the held discard and answers go into the hand (the
    people's in the order they came), then the computer players answer in turn. A
    held "no call" of a seat that could not call is the table's, not the engine's."""
    discard = pending_discard(held)
    window = hand.latest is not None or discard is not None
    if discard is not None:
        hand.apply(discard)
    thrower_tile = hand.latest
    spoken: list[Action] = []
    for answer in held[1:] if discard is not None else held:
        # An answer to a discard nobody could call (the hand moved on), or a pass
        # for a seat that could not call, is the table's only: not the engine's.
        owes = hand.waiting().get(answer.seat)
        if owes is not None and (owes == "call" if window else owes in TOGETHER):
            hand.apply(answer)
            spoken.append(answer)
    if window:
        while hand.latest is not None and hand.latest == thrower_tile and (waiting := hand.waiting()):
            seat = next_to_act(hand, waiting)
            answer = _move_of(hand, seat, people, settings)
            hand.apply(answer)
            spoken.append(answer)
    else:
        step = hand.step
        while hand.phase == "charleston" and hand.step == step and (waiting := hand.waiting()):
            seat = next_to_act(hand, waiting)
            hand.apply(_move_of(hand, seat, people, settings))
    claims = [a for a in spoken if a.kind == "call"]
    if thrower_tile is None or len(claims) < 2:
        return None
    purposes = {a.seat: MAH_JONGG if a.size == 0 else EXPOSE for a in claims}
    ruling = who_gets(thrower_tile[0], purposes, hand.rules.first_to_speak, hand.rules.players)
    return CallRuling(thrower_tile[0], thrower_tile[1], tuple(purposes.items()), ruling)


def advance(hand: Hand, people: Collection[str], away: Collection[str] = (), settings: TableSettings = DEFAULT,
            held: Iterable[Action] = (), expired: Collection[str] = (), limit: int = 2000) -> Progress:
    """The computer players move, people are passed for and stood in for, until a
    person who is waited for owes a decision or the hand ends. Changes `hand`; the
    held answers and the rulings on calls come back. A seat in `expired` (its
    turn timer ran out) has the coach's move made for it once: for the decision
    it owes now, not the next."""
    progress = Progress(list(held))
    late = {s for s in expired if s in people}

    def stood_in(seat: str) -> None:
        late.discard(seat)  # one decision only: the person is waited for again after it

    for _ in range(limit):
        if hand.phase == "over":
            return progress
        covered = stand_ins(people, away, settings, late)
        waited = {s for s in people if s not in covered}
        window = _window(hand, progress.held)
        if _gated(hand, window):
            for seat in _owed(hand, people, settings, progress.held, window):
                if seat not in covered:
                    continue
                if window is None:  # the vote or the offer
                    move = _move_of(hand, seat, people, settings)
                elif seat in window.callers:
                    move = _move_of(window.table, seat, people, settings)
                else:
                    move = Action(seat, NO_CALL)  # could not call it: passed for
                progress.held.append(canonical(move))
                stood_in(seat)
            if any(s in waited for s in _owed(hand, people, settings, progress.held, window)):
                return progress
            ruling = _flush(hand, progress.held, people, settings)
            progress.held = []
            if ruling is not None:
                progress.rulings.append(ruling)
            continue
        movers = [s for s in hand.waiting() if s not in waited]
        if not movers:
            return progress
        seat = next_to_act(hand, movers)
        move = _move_of(hand, seat, people, settings)
        stood_in(seat)
        if _hold_discard(move, people, settings):
            progress.held = [move]
        else:
            hand.apply(move)
    raise RuntimeError(f"the hand of seed {hand.seed} did not reach a person's decision in {limit} moves")

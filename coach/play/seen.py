"""What a player seated at the table sees of a hand while it is played (issue 24, item 6).

A learner's view of a practice hand (the /play page and the JSON API) must
hold exactly what a player in that seat knows, nothing the engine knows
besides:

- Another seat's silent "no call" is never heard. The engine asks only the
  seats that could call a discard (K1-K3), so each such "no" would tell the
  learner that seat held tiles to call with. Calls made are said aloud and
  are seen.
- Another seat's passed tiles stay face down (C1-C3): the learner sees that
  tiles moved, not which. (The API shows the count; the page says nothing.)
- The wall stays face down, with one exception: at a table that allows
  picking ahead (TR5) the seat whose turn comes next sees the next wall
  tile while the latest discard may be called, and still knows it if the
  discard is called and the tile goes back (`next_tile`). No other seat
  ever sees it, and no seat sees any other wall tile.
- The move number counts the seat's own moves. Every stored state of a
  practice hand is one where the learner owes a move (the computer players
  answer inside the learner's request), so this count names the state
  exactly, and unlike a count of all actions it cannot be used to work out
  how many silent "no calls" were made in between.
"""

from __future__ import annotations

from coach.play.hand import Hand

SILENT = ("no-call",)  # a decision nobody at the table hears (K1)


def seen_by(hand: Hand, seat: str, number: int) -> bool:
    """Whether `seat` saw action `number` of the hand happen (its own, or said aloud)."""
    action = hand.actions[number]
    return action.seat == seat or action.kind not in SILENT


def seen_actions(hand: Hand, seat: str, start: int = 0) -> list[int]:
    """The numbers of the actions from `start` on that `seat` saw happen, in order."""
    return [n for n in range(start, len(hand.actions)) if seen_by(hand, seat, n)]


def next_tile(hand: Hand, seat: str) -> int | None:
    """The next wall tile if `seat` may know it (TR5), else None: the only wall
    tile a seat ever sees, and what the computer players may use of the wall."""
    return hand.known_next(seat)


def move_number(hand: Hand, seat: str) -> int:
    """How many moves `seat` has made: the number a move by it must carry back."""
    return sum(1 for a in hand.actions if a.seat == seat)

"""A hand's moves told as a player at the table hears them: one sentence each.

The table's "What just happened" and the API's `words` read these lines. A
move is told from one seat's point of view ("You passed ...", "South
threw ..."); what that seat could not see is told as nothing (an empty
string): another seat's passed tiles stay face down (C1-C3), and a
computer player's silent "no call" is never heard (`coach.play.seen`).

The sentences need only the list of actions, never the hand's state, so a
line reads the same whenever the log is drawn: the direction of a pass is
worked out from how many passes the seat had made before it (every pass of
the Charleston is made by every seat, in the order of C1 and C2, or of TR4
at a three-player table), and the stop vote's outcome is told with the last
vote (C2: any one player may stop it). The table's rules (`rules`) say how
many play; a blank swap (TR1) is told to everyone, the discards being in
plain view.
"""

from __future__ import annotations

from collections.abc import Sequence

from coach.notation import tiles
from coach.play.hand import BLANK_SWAP, Action
from coach.rules.charleston import PASSES, pass_steps
from coach.rules.table_rules import LEAGUE, TableRules

# The Charleston's passes in the order every seat makes them (C1, C2).
PASS_ORDER = pass_steps(4)
TOWARD = {"right": "to the right", "across": "across", "left": "to the left"}
COUNT_WORDS = ("no", "one", "two", "three")
VOTERS = 4  # every seat votes on the second Charleston (C2): three at a three-player table (TR4)


def listed(codes: Sequence[str]) -> str:
    """ "the 5 Dot, two Souths and the Soap": the tiles in card order, as a player says
    them (a tile passed twice is counted, never named twice)."""
    ordered = sorted(codes, key=tiles.sort_key)
    said = [
        f"the {tiles.name(code)}" if ordered.count(code) == 1 else tiles.plural(code, ordered.count(code))
        for code in dict.fromkeys(ordered)
    ]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def pass_step(actions: Sequence[Action], number: int, players: int = 4) -> str:
    """Which pass of the Charleston action `number` (a pass) was: "first-right" ... "second-right"
    (at a three-player table, right and left only, TR4)."""
    order = pass_steps(players)
    seat = actions[number].seat
    before = sum(1 for a in actions[:number] if a.seat == seat and a.kind == "pass")
    return order[min(before, len(order) - 1)]


def pass_sentence(who: str, codes: Sequence[str], blind: int, toward: str, owner: str = "your") -> str:
    """A pass told: "You passed the 5 Dot and the Soap to the left and 1 blind, sent on unseen (C5)."

    A blind tile is one of the three coming in that same pass, sent straight
    on without being looked at (C5): it is counted, never named."""
    if not blind:
        return f"{who} passed {listed(codes)} {toward}." if codes else f"{who} passed nothing {toward}."
    if not codes:
        to = "you" if owner == "your" else "them"
        return f"{who} passed {blind} tiles {toward}, all blind: the ones coming to {to} went straight on, unseen (C5)."
    own = COUNT_WORDS[len(codes)] if len(codes) < len(COUNT_WORDS) else str(len(codes))
    of_yours = f"{own} of {owner} tiles ({listed(codes)})"
    return f"{who} passed {of_yours} {toward} and {blind} blind, sent straight on unseen (C5)."


def whose(action: Action, seat: str) -> str:
    """Whose exposure a joker exchange took the joker from, as `seat` says it (J4)."""
    if action.owner == action.seat:
        return "your own" if action.seat == seat else "their own"
    return "your" if action.owner == seat else f"{action.owner}'s"


def vote_outcome(actions: Sequence[Action], number: int, voters: int = VOTERS) -> str:
    """After the last vote (the fourth, or the third with three players, TR4), what
    the table decided (C2); before it, nothing."""
    votes = [a for a in actions[: number + 1] if a.kind == "vote"]
    if len(votes) != voters:
        return ""
    if all(a.go for a in votes):
        return " Everyone voted to go on: the second Charleston begins (C2)."
    return " Any one player may stop it, so there is no second Charleston (C2)."


def tell(actions: Sequence[Action], number: int, seat: str, rules: TableRules = LEAGUE, full: bool = False) -> str:
    """Action `number` as `seat` heard it, one sentence (or two, the vote's outcome
    with it); an empty string for what `seat` did not see. `rules`: the table's.
    `full`: told to someone who sees every rack (a class's teacher watching, never
    a player): every seat by its name, its passes and its silent "no call" too."""
    action = actions[number]
    mine = full or action.seat == seat
    who = action.seat if full else "You" if mine else action.seat
    if full and action.kind == "no-call":
        return f"{who} let it go."
    if full and action.kind == "offer":
        return f"{who} offered {COUNT_WORDS[action.count] if action.count < len(COUNT_WORDS) else action.count} across."
    if action.kind == "discard":
        if action.tiles[0] == tiles.BLANK_CODE:
            return f"{who} threw a blank: nobody may call it (TR1)."
        return f"{who} threw the {tiles.name(action.tiles[0])}."
    if action.kind == BLANK_SWAP:
        return f"{who} swapped a blank for the {tiles.name(action.tiles[0])} from the discards (TR1)."
    if action.kind == "call":
        return f"{who} called {'Mah Jongg' if not action.size else f'for a group of {action.size}'}."
    if action.kind == "exchange":
        return f"{who} gave the {tiles.name(action.tiles[0])} for {whose(action, seat)} joker."
    if action.kind == "mahjong":
        return f"{who} declared Mah Jongg."
    if action.kind == "vote":
        choice = "play the second Charleston" if action.go else "stop the second Charleston"
        return f"{who} voted to {choice}.{vote_outcome(actions, number, rules.players)}"
    if not mine:
        return ""  # another seat's passed tiles stay face down (C1-C3); its offer is its own
    owner = "their" if full else "your"
    if action.kind == "courtesy":
        return pass_sentence(who, action.tiles, 0, "across", owner) if action.tiles else ""
    if action.kind == "pass":
        return pass_sentence(who, action.tiles, action.blind, TOWARD[PASSES[pass_step(actions, number, rules.players)][1]], owner)
    return ""

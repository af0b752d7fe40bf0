"""Whose tiles a question shows: "Your rack", "East's exposure", "West's discard".

A question's rack and exposures are the learner's in most drills, but some
show another player's (a hand called dead, a hand declared Mah Jongg), and
a few show the other players' exposures around the learner. The labels
come from the question's scene when it has one (the learner's seat, each
player's exposures, the discard) and otherwise from its facts ("You are
West.", "East has exposed ...", "A player declares Mah Jongg ...").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from drills.kit.base import Question

SEAT = r"(East|South|West|North)"
_YOU = re.compile(rf"\bYou are {SEAT}\b")
# A fact naming whose hand is on show: "East's rack and exposures are shown.", "West has exposed ...".
_OWNER = re.compile(rf"^{SEAT}(?:'s rack| has exposed| holds| says \"Mah Jongg\")")
_SOMEONE = re.compile(r"^A player\b")
_THROWN = re.compile(rf"\b(You|{SEAT}) (?:just )?(?:threw|throws|discards|discarded)\b")


@dataclass(frozen=True)
class Whose:
    """The labels of the tiles a question shows."""

    rack: str  # "Your rack", "East's rack", "The player's rack", "The rack"
    exposures: tuple[str, ...]  # one per group of `question.exposed`, in order
    discard: str | None = None  # the one discard the question is about, as a tile code
    discard_label: str = ""  # "East's discard", "Your discard"
    tile: str = "The tile"  # the tile shown on its own: "Your tile" when it is the learner's


def possessive(owner: str | None) -> str:
    """ "Your", "East's", "The player's", or "The" for a hand nobody holds."""
    if owner is None:
        return "The"
    if owner == "you":
        return "Your"
    if owner == "someone":
        return "The player's"
    return f"{owner}'s"


def _owner_of_hand(question: Question) -> str | None:
    """Who holds the rack (and, without a scene, the exposures) the question shows."""
    if question.scene is not None:
        return "you"  # a scene's rack is the learner's (coach.rules.scenes); others' tiles are by seat
    for fact in question.facts:
        found = _OWNER.match(fact)
        if found:
            return found.group(1)
        if _SOMEONE.match(fact):
            return "someone"
    if any(_YOU.search(fact) or fact.startswith("You ") for fact in question.facts):
        return "you"
    if question.exposed or question.rack:
        # "The hand: 14 tiles on the rack ..." shows a hand without saying whose.
        return None if any(fact.startswith("The hand") for fact in question.facts) else "you"
    return None


def _exposure_owners(question: Question, default: str | None) -> list[str | None]:
    scene = question.scene
    if scene is None:
        return [default] * len(question.exposed)
    # Each shown group is matched to the first unclaimed group of the scene that is the same.
    pool: list[tuple[tuple[str, ...], str]] = [(tuple(g), "you") for g in scene.exposures]
    pool += [(tuple(g), seat) for seat, groups in scene.others for g in groups]
    owners: list[str | None] = []
    for group in question.exposed:
        for n, (known, seat) in enumerate(pool):
            if known == tuple(group):
                owners.append(seat)
                del pool[n]
                break
        else:
            owners.append(default)
    return owners


def _discard(question: Question) -> tuple[str | None, str]:
    """The one discard a question is about, and whose it is, when its facts say who threw it."""
    scene = question.scene
    if scene is None or len(scene.discards) != 1:
        return None, ""
    for fact in question.facts:
        found = _THROWN.search(fact)
        if found:
            thrower = "you" if found.group(1) == "You" else found.group(1)
            return scene.discards[0], f"{possessive(thrower)} discard"
    return None, ""


def whose(question: Question) -> Whose:
    """The labels for `question`'s rack, exposures and discard."""
    owner = _owner_of_hand(question)
    exposures = tuple(f"{possessive(o)} exposure" for o in _exposure_owners(question, owner))
    discard, label = _discard(question)
    scene = question.scene
    mine = scene is not None and question.tile is not None and question.tile in (*scene.offered, *scene.rack)
    return Whose(
        rack=f"{possessive(owner)} rack", exposures=exposures, discard=discard, discard_label=label,
        tile="Your tile" if mine else "The tile",
    )

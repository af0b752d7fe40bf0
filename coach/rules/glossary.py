"""The glossary: the game's words a beginner meets, each with a short meaning.

Pure data and one finder: `find(text)` says where glossary words stand in
a text, so the web layer can mark them (escaping the text around them) with
a tooltip of their meaning. A word is found whole (never inside another
word), in any case, and only its first time in a text: a sentence that says
"pung" three times is marked once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Term:
    slug: str  # the anchor on /glossary
    word: str  # as the glossary lists it
    meaning: str  # one or two plain sentences
    forms: tuple[str, ...]  # regular expressions of the ways a text says it
    rule: str = ""  # the rule id in docs/rules.md, when one rule says it


def _term(word: str, meaning: str, *forms: str, rule: str = "") -> Term:
    slug = re.sub(r"[^a-z0-9]+", "-", word.lower()).strip("-")
    return Term(slug, word, meaning, forms or (re.escape(word.lower()),), rule)


TERMS: tuple[Term, ...] = (
    _term("Single", "One tile standing on its own in a hand, such as each digit of 2026. A joker may never be a single.",
          "singles?", rule="H2"),
    _term("Pair", "Two identical tiles. A joker may never be part of a pair.", "pairs?", rule="H2"),
    _term("Pung", "Three identical tiles, such as three 5 Dots. A joker may stand in for any of them.", "pungs?",
          rule="H2"),
    _term("Kong", "Four identical tiles. A joker may stand in for any of them.", "kongs?", rule="H2"),
    _term("Quint", "Five identical tiles. A set has only four of each tile, so a quint always holds a joker (or "
          "five flowers).", "quints?", rule="H2"),
    _term("Sextet", "Six identical tiles: always with jokers, or six flowers.", "sextets?", rule="H2"),
    _term("Singles and Pairs", "A card line made only of singles and pairs. It holds no jokers at all.",
          r"singles (?:and|&) pairs", rule="J2"),
    _term("Soap", "The White Dragon. It goes with Dots, and in year lines such as 2026 it is the zero.", "soaps?",
          rule="T4"),
    _term("Dragon", "One of the three honour tiles: Red goes with Craks, Green with Bams and White (Soap) with "
          "Dots. A set has four of each.", "dragons?", rule="T2"),
    _term("Wind", "One of the four direction tiles: North, East, West and South. A set has four of each; the "
          "seats at the table take the same names.", "winds?", rule="T1"),
    _term("Wall", "The tiles left face down after the deal, built as four walls of 19 stacks two high. Each turn "
          "starts with a draw from it.", "the wall", "walls?", rule="S2"),
    _term("X", "The mark of an exposed line on the card: you may call discards and lay groups face up before "
          "you win. Its opposite is C, concealed.", r"\(x\)", "x lines?", rule="H4"),
    _term("Like numbers", "Hands of one number only, the same number in each suit, such as 5 Dots, 5 Bams and "
          "5 Craks: you choose the number, and the card's lines say which suits and groups.",
          "like numbers?", "like-number", rule="H1"),
    _term("Flower", "One of eight picture tiles. All eight count as the same tile, and they count toward the "
          "14 like any other tile.", "flowers?", rule="T3"),
    _term("Joker", "One of the eight wild tiles. It may stand for any tile in a pung, kong, quint or sextet, never "
          "in a single or a pair.", "jokers?", rule="J1"),
    _term("Card", "The printed list of winning hands for the year. Every hand must match one of its lines.",
          "the card", rule="H1"),
    _term("Exposure", "Tiles laid face up on your rack after a call, for everyone to see. Exposed groups count "
          "toward your 14.", "exposures?", "exposed", "expose", rule="K2"),
    _term("Concealed", "A line marked C on the card: nothing may be exposed before the winning tile (you may still "
          "win on a discard).", "concealed", rule="H4"),
    _term("Discard", "The tile a player throws out, face up, at the end of a turn.", "discards?", "discarded",
          rule="S4"),
    _term("Call", "Claiming the latest discard to complete a group you expose, or to win.", "calls?", "calling",
          rule="K1"),
    _term("Charleston", "The passing of tiles before play: three tiles right, across, then left; then, if "
          "everyone agrees, a second round the other way.", "charlestons?", rule="C1"),
    _term("Courtesy pass", "After the Charleston, an optional swap of 0 to 3 tiles with the player across.",
          "courtesy pass(?:es)?", rule="C3"),
    _term("Blind pass", "On the last pass of a Charleston, passing on tiles you just received without looking at "
          "them.", "blind pass(?:es)?", rule="C5"),
    _term("Joker exchange", "On your turn, after you draw, giving the real tile a joker stands for in an "
          "exposure and taking the joker.", "joker exchanges?", rule="J4"),
    _term("Dead hand", "A hand that can no longer win, such as one with the wrong number of tiles. It stops "
          "playing but still pays the winner.", "dead hands?", rule="E4"),
    _term("Hot tile", "A discard that plainly helps another player, often one their exposures show they need.",
          "hot tiles?", rule="D1"),
    _term("Safe tile", "A discard unlikely to help anyone: already thrown twice with no call, or fitting no "
          "exposure on the table.", "safe tiles?", rule="D1"),
    _term("Mah Jongg", "Winning: 14 tiles that match one line of the card, declared and shown.", "mah jongg",
          rule="E1"),
    _term("Self-picked", "Winning with a tile you drew from the wall yourself: all three others pay double.",
          "self-picked", "self-pick", rule="P3"),
    _term("Jokerless", "A winning hand with no joker in it: its payments double.", "jokerless", rule="P4"),
    _term("Wall game", "A hand where the wall runs out and nobody wins. Nobody pays.", "wall games?", rule="E2"),
    # The table rules (coach.rules.table_rules): a group's own, each said as one.
    _term("Table rule", "A rule a group agrees on before play, such as blanks or a hot wall. If a group agrees on "
          "nothing, the League's rules apply.", "table rules?"),
    _term("League rules", "The rules every table plays, as the National Mah Jongg League writes them. A group may "
          "add table rules of its own.", "league rules?", "the league's rules"),
    _term("Blank", "A tile with nothing on it. The League's rules use none; at a table that plays blanks, on your "
          "turn you may swap one from your rack for a discarded tile other than a joker. A blank is never part of a "
          "hand.", "blanks?", rule="TR1"),
    _term("Cold wall", "A table rule: in the last tiles of the wall, those left behind when East broke it, nobody "
          "may call a discard, so a win there must be picked.", "cold walls?", rule="TR2"),
    _term("Hot wall", "A table rule: in the last tiles of the wall, whoever throws the winning tile pays for "
          "everyone, unless every other copy of it was in sight.", "hot walls?", rule="TR2"),
    _term("Three-player game", "A table rule for three: North's seat stays empty, the Charleston passes only right "
          "and left, and two players pay the winner.", r"three-player (?:games?|tables?|charlestons?)",
          "three players", rule="TR4"),
    _term("Picking ahead", "A table rule: the next player looks at the next wall tile before the calls on a discard "
          "are over. If the discard is called, the tile goes back.", "picking ahead", "picks? ahead", "picked ahead",
          rule="TR5"),
    _term("First to speak", "A table rule: when two players call a discard for the same thing, whoever spoke first "
          "gets it. By the League's rules the nearer seat does.", "first to speak", rule="TR6"),
)

BY_SLUG: dict[str, Term] = {t.slug: t for t in TERMS}


@dataclass(frozen=True)
class Found:
    start: int
    end: int
    term: Term


@lru_cache(maxsize=1)
def _finder() -> tuple[re.Pattern[str], dict[str, Term]]:
    """One regular expression of every form, longest first, so "joker exchange"
    wins over "joker" and "singles and pairs" over "singles"."""
    forms = sorted(((form, term) for term in TERMS for form in term.forms), key=lambda f: -len(f[0]))
    groups = {f"t{n}": term for n, (_, term) in enumerate(forms)}
    alternatives = "|".join(f"(?P<t{n}>{form})" for n, (form, _) in enumerate(forms))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE), groups


def find(text: str, skip: frozenset[str] = frozenset()) -> list[Found]:
    """Where glossary words stand in `text`, each term's first time only,
    leaving out the terms whose slugs are in `skip`."""
    pattern, groups = _finder()
    seen: set[str] = set(skip)
    found: list[Found] = []
    for match in pattern.finditer(text):
        term = groups[match.lastgroup or ""]
        if term.slug not in seen:
            seen.add(term.slug)
            found.append(Found(match.start(), match.end(), term))
    return found


def alphabetical() -> list[Term]:
    return sorted(TERMS, key=lambda t: t.word.casefold())

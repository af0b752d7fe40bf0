"""Set-up and turns: the dice, the walls, the deal, a turn and who plays next
(S1-S5), and changing your aim (H3).

Every question is a small situation drawn from the seed: the totals four
players roll, where the dice stop when East breaks the wall, how far the
deal has gone, who just discarded, how many hands have been played. The
answer is worked out from the rules as numbers and seats, not looked up.

Level 1 asks about seats and turns: who plays next, what East does first,
how many tiles each player holds after the deal, whether you may change
the line you aim at. Level 2 asks about the dice and the walls. Level 3
follows the deal step by step, when a discard is final, and how East
moves from hand to hand. Level 4 asks which of a few rules are the
League's and which a group plays only if it agrees to (the catalog's
`table_rule` flag, coach.rules.catalog).

Under a table's own rules (`generate(..., rules=)`, drills/kit/table.py)
the levels also ask those rules where they differ, saying so first: seats,
turns and the deal with three players (TR4), the set with blanks and the
blank swap (TR1), and picking ahead (TR5); the League's questions are asked
as the table plays them, or left out where the table changes their answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from coach.notation import tiles
from coach.notation.card import Card
from coach.rules import blanks, table, table_play
from coach.rules.catalog import RULES, Rule, cite
from coach.rules.table_rules import LEAGUE, SWITCHES_BY_ID, TableRules
from drills.kit import choice
from drills.kit.base import Level
from drills.kit.choice import Draft
from drills.kit.table import Kind, at_table, says
from drills.kit.wording import join

# A citation at the end of an explanation line: "(J2)", "(S3, T1)".

NAME = "setup-and-turns"
TITLE = "Set-up, deal and turns"
TEMPLATE = "choice"
LEVELS: tuple[Level, ...] = (
    Level(1, "Seats and turns", "Who plays next, what East does first, how many tiles after the deal, changing your aim."),
    Level(2, "Dice and walls", "Who becomes East, what a tie means, how the walls are built and where East breaks them."),
    Level(3, "The deal and the discard", "The deal step by step, when a discard is final, and who is East in the hands that follow."),
    Level(4, "League rule or table rule?", "Which rules every table plays, and which a group plays only if it agrees to."),
)

# Turn order: play passes to the right, counter-clockwise (S5), so the seat
# after each one is the player on its right.
SEATS = table.SEATS
NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana")
STACKS = table.STACKS
WALL_TILES = table.WALL_TILES
DEAL_ROUNDS = table.DEAL_ROUNDS
SET = table.SET_SIZE


_next = table.next_seat  # the core decides turn order (S5); the drill names it


def _numbers(best: int, near: list[int]) -> dict[str, int]:
    """Choices for a count: the right number and distinct wrong ones."""
    found = {str(best): best}
    for n in near:
        if n >= 0 and str(n) not in found:
            found[str(n)] = n
    return found


# -- level 1 -------------------------------------------------------------------


def _who_next(rng: random.Random, card: Card) -> Draft:
    seat = rng.choice(SEATS)
    nxt = table.plays_next(seat).decision
    others = {
        s: (f"{s} sits on {seat}'s left, and play passes to the right, counter-clockwise (S5)."
            if s == _next(seat, 3) else
            f"{s} sits across from {seat}; play passes to the right, to the next seat (S5)."
            if s == _next(seat, 2) else
            f"{seat} has just played; the turn moves on to the right (S5).")
        for s in SEATS if s != nxt
    }
    return Draft(
        prompt="Who plays next?",
        facts=(f"{seat} has just discarded, and nobody calls the tile.",),
        best=nxt, wrong=others,
        why=(f"Play passes to the right, counter-clockwise: the player on {seat}'s right is {nxt} (S5).", cite("S5")),
        rules=("S5",),
        hint="Which way does play move around the table?",  # the rule's own nudge fits
    )


EAST_FIRST = "Discard a tile, without drawing"
EAST_WRONG = {
    "Draw a tile, then discard": "East already holds 14 tiles after the deal, so East does not draw first (S3, S4).",
    "Wait for South to discard first": "East starts the play; South's turn comes after East's discard (S4, S5).",
    "Draw two tiles, then discard": "East already holds 14 tiles after the deal and draws nothing before the first discard (S3, S4).",
}


def _east_first(rng: random.Random, card: Card) -> Draft:
    return Draft(
        prompt="What does East do first?",
        facts=("The deal is over and so is the Charleston.", "East holds 14 tiles, the others 13."),
        best=EAST_FIRST, wrong=dict(EAST_WRONG),
        why=("East has 14 tiles after the deal and opens the play by discarding one, without drawing (S4).",
         cite("S4"), cite("S3")),
        rules=("S4", "S3"),
        hint="How many tiles does East hold when play begins, and how many does a hand hold once a tile is drawn?",
    )


def _after_deal(rng: random.Random, card: Card) -> Draft:
    seat = rng.choice(SEATS)
    best = table.after_the_deal(seat).decision
    counts = _numbers(best, [12, 13, 14, 15, 16])
    others = {}
    for text, n in counts.items():
        if n == best:
            continue
        if n == 12:
            others[text] = "12 is what everyone has after the three rounds of four; then the last tiles come (S3)."
        elif n == 14:
            others[text] = f"14 is East's count after the deal, and {seat} is not East (S3)."
        elif n == 13:
            others[text] = "13 is what the players other than East hold; East takes one more and has 14 (S3)."
        else:
            others[text] = f"Nobody holds {n} after the deal: East has 14, the others 13 (S3)."
    chosen = [str(best)] + rng.sample([t for t in others], 3)
    return Draft(
        prompt="How many tiles do you hold?",
        facts=(f"You are {seat}.", "The deal has just ended."),
        best=str(best), wrong={t: others[t] for t in chosen if t != str(best)},
        why=(f"Four tiles at a time for three rounds makes 12; then East takes two and the others one each, "
         f"so {seat} has {best} (S3).", cite("S3")),
        rules=("S3",),
        hint="Which seat are you? Add up the three rounds of four, then the tiles each seat takes last.",
    )


TURN_ORDER = "Draw, exchange for jokers if you wish, discard and name it"
TURN_WRONG = {
    "Discard, then draw": "Only East's very first turn starts with a discard; every other turn starts with a draw (S4).",
    "Exchange for jokers, draw, then discard": "A joker exchange comes after the draw, never before it (S4, J4).",
    "Draw, discard, then exchange for jokers": "Once you discard your turn is over; exchanges come between the draw and the discard (S4, J4).",
}


def _turn_order(rng: random.Random, card: Card, rules: TableRules = LEAGUE) -> Draft:
    seat = rng.choice(table.seats_in_play(rules.players)[1:])
    return Draft(
        prompt="In what order does your turn go?",
        facts=(f"You are {seat}, in the middle of a hand.", "Nobody has called the last discard: it is your turn."),
        best=TURN_ORDER, wrong=dict(TURN_WRONG),
        why=("A turn is: draw, exchange for jokers if you wish, then discard and name the tile (S4).", cite("S4")),
        rules=("S4",),
        hint="What starts an ordinary turn, what ends it, and where does a joker exchange fit?",
    )


SWITCH = "Switch: you may change your aim at any time"
SWITCH_WRONG = {
    "Stay: your aim is fixed once the Charleston ends": "No moment fixes your aim: you may switch at any time (H3).",
    "Switch, but only if you tell the table": "Nobody needs to know what you aim at; you may switch whenever you like (H3).",
    "Stay: you may change only before the first discard": "You may switch at any time, not only before the first discard (H3).",
}
WHEN = ("Just after the Charleston", "Halfway through the hand", "With a few tiles left in the wall")


def _change_aim(rng: random.Random, card: Card) -> Draft:
    first, then = rng.sample(list(card.lines), 2) if len(card.lines) > 1 else (card.lines[0], card.lines[0])
    return Draft(
        prompt="What may you do?",
        facts=(f"You started aiming at {first.id} ({first.pattern}).",
         f"{rng.choice(WHEN)}, your tiles suit {then.id} ({then.pattern}) better.",
         "Nothing of yours is exposed."),
        best=SWITCH, wrong=dict(SWITCH_WRONG),
        why=("You may aim at any line of the card and switch to another at any time (H3).", cite("H3")),
        rules=("H3",),
        hint="Does the card or the table ever hold you to the line you first aimed at?",
    )


# -- level 2 -------------------------------------------------------------------


def _roll(rng: random.Random) -> int:
    return rng.randint(1, 6) + rng.randint(1, 6)


def _dice_east(rng: random.Random, card: Card, rules: TableRules = LEAGUE) -> Draft:
    players = rng.sample(NAMES, rules.players)
    while True:
        totals = [_roll(rng) for _ in players]
        if totals.count(max(totals)) == 1:
            break
    east = table.east_by_dice(list(zip(players, totals))).decision
    rolls = ", ".join(f"{p} {t}" for p, t in zip(players, totals))
    others = {p: f"{p} rolled {t}, less than {east}'s {max(totals)}; the highest total is East (S1)."
              for p, t in zip(players, totals) if p != east}
    return Draft(
        prompt="Who is East?",
        facts=_first(rules, "TR4") + (f"{_players(rules)} players roll two dice each to choose East.", f"Totals: {rolls}."),
        best=east, wrong=others,
        why=(f"The highest total is East: {east} rolled {max(totals)} (S1).", cite("S1")),
        rules=("S1",) + _also(rules, "TR4"),
        hint="Compare the dice totals.",  # the rule's own nudge fits
    )


def _dice_tie(rng: random.Random, card: Card, rules: TableRules = LEAGUE) -> Draft:
    players = rng.sample(NAMES, rules.players)
    tied = rng.choice((2, 2, 3)) if rules.players == 4 else 2
    top = rng.randint(7, 12)
    totals = [top] * tied + [rng.randint(2, top - 1) for _ in range(rules.players - tied)]
    rng.shuffle(totals)
    tied_names = list(table.east_by_dice(list(zip(players, totals))).facts["tied"])
    rolls = ", ".join(f"{p} {t}" for p, t in zip(players, totals))
    best = f"{join(tied_names)} roll again"
    first = tied_names[0]
    low = min(zip(totals, players))[1]
    others = {
        f"All {_players(rules).lower()} roll again": "Only the tied players roll again; the others are out of it (S1).",
        f"{first} is East, having rolled first": "A tie is never broken by who rolled first: the tied players roll again (S1).",
        f"{low} is East": f"The highest total is East, never the lowest; {low} rolled {min(totals)} (S1).",
    }
    return Draft(
        prompt="What happens next?",
        facts=_first(rules, "TR4") + (f"{_players(rules)} players roll two dice each to choose East.", f"Totals: {rolls}."),
        best=best, wrong=others,
        why=(f"{join(tied_names)} tied on the highest total, {top}; a tie is broken by a new roll among the tied players only (S1).",
         cite("S1")),
        rules=("S1",) + _also(rules, "TR4"),
        hint="Is the highest total held by one player or by several, and what settles a tie?",
    )


def _dice_reroll(rng: random.Random, card: Card, rules: TableRules = LEAGUE) -> Draft:
    """After a tie, a player out of the re-roll may hold a higher first total
    than the re-roll's: only the re-roll among the tied counts."""
    players = rng.sample(NAMES, rules.players)
    top = rng.randint(8, 12)
    first = [top, top, rng.randint(5, top - 1), rng.randint(2, top - 1)][: rules.players]
    a, b = players[0], players[1]
    shown = list(zip(players, first))
    rng.shuffle(shown)  # the tied pair may sit anywhere in the list
    while True:
        again = [_roll(rng), _roll(rng)]
        if again[0] != again[1]:
            break
    east = table.east_by_dice([(a, again[0]), (b, again[1])]).decision
    loser = b if east == a else a
    rolls = ", ".join(f"{p} {t}" for p, t in shown)
    outsider = players[2]
    others = {
        loser: f"{loser} rolled {min(again)} in the re-roll, less than {east}'s {max(again)} (S1).",
        outsider: f"{outsider} was not tied for the highest total, so is out of the re-roll however the re-roll goes (S1).",
    }
    if rules.players == 4:
        others[players[3]] = f"{players[3]} was not tied for the highest total, so is out of the re-roll (S1)."
    return Draft(
        prompt="Who is East?",
        facts=_first(rules, "TR4") + (f"{_players(rules)} players roll two dice each to choose East.", f"Totals: {rolls}.",
         f"{a} and {b} roll again: {a} {again[0]}, {b} {again[1]}."),
        best=east, wrong=others,
        why=(f"{a} and {b} tied on {top}, so only they rolled again, and the higher re-roll, {east}'s {max(again)}, is East (S1).",
         cite("S1")),
        rules=("S1",) + _also(rules, "TR4"),
        hint="Who was tied in the first roll, and once they roll again, which totals count?",
    )


WALL_BUILD = "19 stacks, 2 tiles high"
WALL_WRONG = {
    "18 stacks, 2 tiles high": "Four walls of 18 stacks of 2 hold only 144 tiles; 19 stacks of 2 hold all 152 (S2).",
    "19 stacks, 4 tiles high": "Walls are two tiles high, not four (S2).",
    "38 tiles in one row": "A wall is two tiles high: 19 stacks of 2, 38 tiles (S2).",
}


def _wall(rng: random.Random, card: Card) -> Draft:
    return Draft(
        prompt="How is each wall built?",
        facts=("Each player builds a wall in front of the rack.", f"The four walls hold all {SET} tiles."),
        best=WALL_BUILD, wrong=dict(WALL_WRONG),
        why=(f"Each wall is 19 stacks of 2 tiles, 38 tiles; four walls make {4 * WALL_TILES} (S2).", cite("S2")),
        rules=("S2",),
        hint="How many tiles are there, how many walls share them, and how high is a wall?",
    )


def _break(rng: random.Random, card: Card) -> Draft:
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    n = table.wall_break((a, b)).decision
    best = f"{n} stacks from the right end of East's wall"
    neighbour = rng.choice(("South", "North"))
    others = {
        f"{n} stacks from the left end of East's wall": "East counts from the right end of the wall, not the left (S2).",
        f"{n} tiles from the right end of East's wall": f"East counts stacks, not tiles: {n} stacks of two (S2).",
        f"{n} stacks from the right end of {neighbour}'s wall": f"East breaks East's own wall, not {neighbour}'s (S2).",
    }
    return Draft(
        prompt="Where does East break the wall?",
        facts=("The walls are built; East rolls two dice to break the wall.", f"East rolls {a} and {b}."),
        best=best, wrong=others,
        why=(f"East counts as many stacks as the dice show, {a} + {b} = {n}, from the right end of East's own wall (S2).",
         cite("S2")),
        rules=("S2",),
        hint="Whose wall does East break, from which end, and what do the dice count: tiles or stacks?",
    )


def _left_of_break(rng: random.Random, card: Card) -> Draft:
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    ruling = table.wall_break((a, b))
    n, best = ruling.decision, ruling.facts["left"]
    counts = _numbers(best, [n, best + 1, best - 1, 2 * best, WALL_TILES - n])
    others = {}
    for text, k in counts.items():
        if k == best:
            continue
        if k == n:
            others[text] = f"{n} stacks are on the right of the break, the ones East counted (S2)."
        elif k == 2 * best:
            others[text] = f"{k} is the number of tiles there; the question asks for stacks (S2)."
        else:
            others[text] = f"A wall has 19 stacks and East counts {n} from the right end, leaving {best} (S2)."
    chosen = rng.sample([t for t in others], 3)
    return Draft(
        prompt="How many stacks of East's wall are on the left of the break?",
        facts=(f"East rolls {a} and {b} and breaks East's wall.",),
        best=str(best), wrong={t: others[t] for t in chosen},
        why=(f"East's wall has 19 stacks; East counts {n} from the right end and breaks there, "
         f"so {STACKS} - {n} = {best} stacks are on the left (S2).", cite("S2")),
        rules=("S2",),
        hint="Count the stacks: how many make a wall, and how many did East count off?",  # the rule's own nudge fits
    )


# -- level 3 -------------------------------------------------------------------


def _mid_deal(rng: random.Random, card: Card, rules: TableRules = LEAGUE) -> Draft:
    rounds_done = rng.randint(0, DEAL_ROUNDS - 1)
    upto = rng.randint(0, rules.players - 2)  # the last seat to take in the current round; the last seat has not yet
    seat = rng.choice(table.seats_in_play(rules.players))
    took = SEATS[: upto + 1]
    best = table.tiles_dealt(seat, rounds_done, took_this_round=seat in took).decision
    done = ("no round is complete", "one round is complete", "two rounds are complete")[rounds_done]
    now = f"in this round, {join(list(took))} {'has' if len(took) == 1 else 'have'} taken their four"
    counts = _numbers(best, [best + 4, best - 4, best + 1, best + 2, best - 1])
    others = {t: f"Each player takes four tiles a round, East first and on to the right; {seat} has {best} so far (S3)."
              for t in counts if counts[t] != best}
    chosen = rng.sample(list(others), 3)
    return Draft(
        prompt=f"How many tiles does {seat} hold now?",
        facts=_first(rules, "TR4") + ("The deal: each player takes four tiles at a time, East first, then to the right.",
         f"So far {done}; {now}."),
        best=str(best), wrong={t: others[t] for t in chosen},
        why=(f"{seat} has taken four in each complete round{' and four in this one' if seat in took else ''}: {best} tiles (S3).",
         cite("S3")),
        rules=("S3",) + _also(rules, "TR4"),
        hint="How many rounds of four has this player finished, and has their turn in this round come yet?",
    )


EAST_LAST = "The first and the third top tile"
EAST_LAST_WRONG = {
    "The two tiles of the next stack": "East's two last tiles are the first and the third top tile, not one stack (S3).",
    "The first and the second top tile": "East skips a tile: the first and the third top tile, the second going to the next player (S3).",
    "Two tiles from the end of the wall": "The deal goes on from where it was, not from the end of the wall (S3).",
}


def _east_last(rng: random.Random, card: Card) -> Draft:
    return Draft(
        prompt="Which two tiles does East take?",
        facts=("The three rounds of four are done: everyone holds 12 tiles.", "Now East takes two tiles and the others one each."),
        best=EAST_LAST, wrong=dict(EAST_LAST_WRONG),
        why=("After the three rounds, East takes the first and the third top tile and each other player one, "
         "so East has 14 and the others 13 (S3).", cite("S3")),
        rules=("S3",),
        hint="Picture the top tiles after the rounds of four: how can East take two while the next player still takes one?",
    )


def _wall_left(rng: random.Random, card: Card) -> Draft:
    ruling = table.wall_after_deal()
    dealt, best = ruling.facts["dealt"], ruling.decision
    counts = _numbers(best, [best - 1, best + 1, SET - 4 * 13, SET - 4 * 14, SET - 4 * 12])
    others = {t: f"East holds 14 and the three others 13 each, {dealt} tiles, so {SET} - {dealt} = {best} stay in the walls (S3, T1)."
              for t in counts if counts[t] != best}
    chosen = rng.sample(list(others), 3)
    return Draft(
        prompt="How many tiles are still in the walls?",
        facts=(f"A set has {SET} tiles, all built into the walls.", "The deal has just ended."),
        best=str(best), wrong={t: others[t] for t in chosen},
        why=(f"After the deal East has 14 and the others 13: {dealt} tiles dealt, {best} left in the walls (S3, T1).",
         cite("S3")),
        rules=("S3", "T1"),
        hint="How many tiles are in a set, and how many have the four players taken between them?",
    )


TILE_FINAL = {
    "touched": ("{seat} throws the {tile}; it touches the table.", "Then {seat} wants to take it back.",
                "No: it touched the table, so it is final",
                "A discard is final once it touches the table or is named; this one touched the table (S4)."),
    "named": ("{seat} says \u201c{tile}\u201d, still holding the tile above the table.", "Then {seat} wants to keep it and throw another.",
              "No: it was named, so it is final",
              "A discard is final once it touches the table or is named; {seat} named it (S4)."),
    "neither": ("{seat} lifts the {tile} from the rack to throw it.", "It has not touched the table and {seat} has not named it. {seat} would rather keep it.",
                "Yes: it is neither named nor on the table yet",
                "A discard is final once it touches the table or is named; this tile is neither yet, so {seat} may still change it (S4)."),
}
FINAL_WRONG = {
    "No: it touched the table, so it is final": "It has not touched the table (S4).",
    "No: it was named, so it is final": "Nobody named it (S4).",
    "Yes: it is neither named nor on the table yet": "It is already {how}, and from then on a discard is final (S4).",
    "Yes, until the next player draws": "The next player's draw does not matter: a discard is final once it touches the table or is named (S4).",
    "No: once lifted from the rack it must be thrown": "Lifting the tile does not make it a discard; touching the table or naming it does (S4).",
}


def _final(rng: random.Random, card: Card, rules: TableRules = LEAGUE) -> Draft:
    case = rng.choice(tuple(TILE_FINAL))
    final = table.discard_is_final(touched=case == "touched", named=case == "named")
    seat = rng.choice(table.seats_in_play(rules.players))
    code = rng.choice(tiles.CODES[: tiles.NATURALS])
    tile = f"{tiles.WIND_NAMES[code]} Wind" if code in tiles.WIND_NAMES else tiles.name(code)
    first, second, best, why = (part.format(seat=seat, tile=tile) for part in TILE_FINAL[final.facts["why"]])
    assert best.startswith("No" if final else "Yes")
    how = {"touched": "on the table", "named": "named"}.get(case, "")
    others = {c: w.format(how=how) for c, w in FINAL_WRONG.items() if c != best}
    if case == "neither":
        # "Yes, until the next player draws" would be right in its yes, wrong in its reason.
        others.pop("No: it touched the table, so it is final")
        others.pop("Yes, until the next player draws")
    else:
        others.pop("No: once lifted from the rack it must be thrown")
        others.pop("No: it was named, so it is final" if case == "touched" else "No: it touched the table, so it is final")
    return Draft(
        prompt=f"May {seat} change the discard?",
        facts=(first, second),
        best=best, wrong=others,
        why=(why, cite("S4")),
        rules=("S4",),
        hint="Where is the tile now: still in the hand, on the table, or said aloud?",
    )


def _next_east(rng: random.Random, card: Card, rules: TableRules = LEAGUE) -> Draft:
    players = rng.sample(NAMES, rules.players)
    hands = rng.randint(1, 3) if rules.players == 4 else rng.randint(1, 2)
    ruling = table.east_after(players, hands, rules.players)
    best, order = ruling.decision, list(ruling.facts["order"])
    seating = ", ".join(f"{p} {s}" for p, s in zip(players, SEATS))
    later = "the next hand" if hands == 1 else f"{hands} hands from now"
    around = "four" if rules.players == 4 else "three"
    others = {}
    for n, p in enumerate(players):
        if p == best:
            continue
        others[p] = (f"{p} is East again only after {around} hands; East stays East for one hand at a time (S5)." if n == 0 else
                     f"After each hand the player on East's right becomes East: {join(order)} in turn, so {best} (S5).")
    return Draft(
        prompt=f"Who is East {later}?",
        facts=_first(rules, "TR4") + (f"This hand the seats are: {seating}.", "Nobody changes seat between hands."),
        best=best, wrong=others,
        why=(f"After each hand the player on East's right becomes East, so East moves one seat to the right each hand: "
         f"{' then '.join(order)} (S5).", cite("S5")),
        rules=("S5",) + _also(rules, "TR4"),
        hint="After each hand, which way does the East seat move, and how many hands is that here?",
    )


# -- level 4: League rule or table rule? --------------------------------------------------
# Built from the catalog: a rule flagged `table_rule` is one a group plays only
# if it agrees to (TR1-TR6, C6); every other rule is the League's. A rule is
# shown by its plain words, less the "At this table" that would give it away.

LEAGUE_RULE, TABLE_RULE = "A League rule: every table plays it", "A table rule: only if your group agrees to it"
# The League rule each table rule changes or adds to, for the choices beside it.
CHANGES = {"TR1": "T1", "TR2": "E2", "TR3": "C4", "TR4": "S5", "TR5": "K1", "TR6": "K4", "C6": "C5"}
SHORT = 140  # characters: League rules longer than this are not shown as a choice


def claim(rule: Rule) -> str:
    """A rule in plain words as a claim, whoever's it is, without its last full
    stop (it is shown as a choice): "A joker may go across in the courtesy pass"."""
    text = rule.plain
    for lead in ("At this table ", "Table rule: "):
        if text.startswith(lead):
            text = text[len(lead):]
    return (text[:1].upper() + text[1:]).rstrip(".")


def _table_ids() -> list[str]:
    return [r.id for r in RULES.values() if r.table_rule]


def _league_ids(rng: random.Random, most: int, but: tuple[str, ...] = ()) -> list[str]:
    """League rules short enough to read as a choice, at random."""
    options = [r.id for r in RULES.values() if not r.table_rule and len(r.plain) <= SHORT and r.id not in but]
    return rng.sample(options, most)


def _what_instead(rule_id: str) -> str:
    """What the League says instead of a table rule, from the switch's own words,
    citing the table rule where they cite no League rule."""
    text = SWITCHES_BY_ID[rule_id].league
    return text if choice.CITED.search(text) else f"{text.rstrip('.')} ({rule_id})."


def _table_among(rng: random.Random, card: Card) -> Draft:
    tr = rng.choice(_table_ids())
    league = [CHANGES[tr], *_league_ids(rng, 2, but=(CHANGES[tr],))]
    best = claim(RULES[tr])
    wrong = {claim(RULES[r]): f"That is a League rule: every table plays it unless the group agrees otherwise ({r})." for r in league}
    return Draft(
        prompt="Which of these is a table rule, not a League rule?",
        facts=("A table rule is one a group plays only if it agrees to; the League's rules hold everywhere else.",),
        best=best, wrong=wrong,
        why=(f"A group plays it only if it agrees to: the League's rules do not have it ({tr}).", _what_instead(tr)),
        rules=(tr, *choice.cited([_what_instead(tr)])), exercised=tuple(league),
        hint="Which of these would a group have to agree on before the first tile is dealt?",
    )


def _league_among(rng: random.Random, card: Card) -> Draft:
    league = _league_ids(rng, 1)[0]
    tables = rng.sample(_table_ids(), 3)
    wrong = {claim(RULES[r]): f"That is a table rule: a group plays it only if it agrees to ({r})." for r in tables}
    return Draft(
        prompt="Which of these is a League rule, played at every table?",
        facts=("A table rule is one a group plays only if it agrees to; the League's rules hold everywhere else.",),
        best=claim(RULES[league]), wrong=wrong,
        why=(f"It is a League rule: every table plays it unless the group agrees otherwise ({league}).",),
        rules=(league,), exercised=tuple(tables),
        hint="Which of these holds at every table, whatever the group agreed before the deal?",
    )


def _which_kind(rng: random.Random, card: Card) -> Draft:
    table_rule = rng.random() < 0.5
    rule = RULES[rng.choice(_table_ids()) if table_rule else _league_ids(rng, 1)[0]]
    if table_rule:
        best, other = TABLE_RULE, LEAGUE_RULE
        why: tuple[str, ...] = (f"A group plays it only if it agrees to; the League's rules do not have it ({rule.id}).",
                                _what_instead(rule.id))
        wrong = {other: f"The League's rules do not have it: a group plays it only if it agrees to ({rule.id})."}
    else:
        best, other = LEAGUE_RULE, TABLE_RULE
        why = (f"It is one of the League's rules, played at every table unless the group agrees otherwise ({rule.id}).",)
        wrong = {other: f"Every table plays it: it is one of the League's rules ({rule.id})."}
    return Draft(
        prompt="Whose rule is this?",
        facts=(f"\u201c{claim(rule)}\u201d",),
        best=best, wrong=wrong,
        why=why,
        rules=tuple(dict.fromkeys((rule.id, *choice.cited(why)))),
        order=(LEAGUE_RULE, TABLE_RULE),
        hint="Would every table play this, or only a group that agreed to it before the deal?",
    )


# -- under a table's own rules (drills/kit/table.py) ---------------------------------------------


def _players(rules: TableRules) -> str:
    return "Four" if rules.players == 4 else "Three"


def _first(rules: TableRules, *rule_ids: str) -> tuple[str, ...]:
    """The table's rules among `rule_ids` that differ from the League's here, said first."""
    on = {"TR4": rules.players == 3, "TR1": bool(rules.blanks), "TR5": rules.picking_ahead}
    return tuple(says(rules, r) for r in rule_ids if on[r])


def _also(rules: TableRules, *rule_ids: str) -> tuple[str, ...]:
    """The rules among `rule_ids` this table plays, for the rules a question asks."""
    on = {"TR4": rules.players == 3, "TR1": bool(rules.blanks), "TR5": rules.picking_ahead}
    return tuple(r for r in rule_ids if on[r])


def _who_next_three(rng: random.Random, card: Card, rules: TableRules) -> Draft:
    seat = rng.choice(table.seats_in_play(rules.players))
    nxt = table.plays_next(seat, rules.players).decision
    others = {}
    for s in SEATS:
        if s == nxt:
            continue
        others[s] = (f"{seat} has just played; the turn moves on to the right (S5)." if s == seat else
                     "North's seat is empty at your table: nobody plays there (TR4)." if s == "North" else
                     f"{s} sits on {seat}'s left; play passes to the right, and with three the seat on {seat}'s right is {nxt} (TR4).")
    return Draft(
        prompt="Who plays next?",
        facts=(says(rules, "TR4"), f"{seat} has just discarded, and nobody calls the tile."),
        best=nxt, wrong=others,
        why=(f"Play passes to the right, and with three players the seat on {seat}'s right is {nxt}: East, South, West, then East again (TR4, S5).",
             cite("TR4")),
        rules=("TR4", "S5"),
        hint="With three at the table, who sits on this player's right?",
    )


NONE_DEALT = "None: its tiles stay in the wall"


def _north_tiles(rng: random.Random, card: Card, rules: TableRules) -> Draft:
    wrong = {
        "13": "13 is what South and West hold; North's seat is empty, so nothing is dealt to it (TR4).",
        "14": "14 is East's count; North's seat is empty, so nothing is dealt to it (TR4).",
        "4": "Nobody takes North's four a round: the deal goes East, South, West, and North's tiles stay in the wall (TR4).",
    }
    return Draft(
        prompt="How many tiles are dealt to North's seat?",
        facts=(says(rules, "TR4"), "The walls are built and broken; the deal begins."),
        best=NONE_DEALT, wrong=wrong,
        why=("With three players North's seat is empty: the deal goes East, South, West, and the 13 tiles North would"
             " take stay in the wall, which is that much longer (TR4).", cite("TR4")),
        rules=("TR4", "S3"),
        hint="Who sits at North's seat at your table, and where do the tiles nobody takes stay?",
    )


TURN_WITH_BLANKS = "Draw, swap a blank or exchange for jokers if you wish, then discard and name it"
TURN_WITH_BLANKS_WRONG = {
    "Swap a blank, draw, then discard": "A blank swap comes after you pick or call, like a joker exchange, never before (TR1, S4).",
    "Draw, discard, then swap a blank": "Once you discard your turn is over: a swap comes between the pick and the discard (TR1, S4).",
    "Discard, then draw": "Only East's very first turn starts with a discard; every other turn starts with a draw (S4).",
}


def _turn_with_blanks(rng: random.Random, card: Card, rules: TableRules) -> Draft:
    seat = rng.choice(table.seats_in_play(rules.players)[1:])
    return Draft(
        prompt="In what order does your turn go?",
        facts=(says(rules, "TR1"), f"You are {seat}, in the middle of a hand, and you hold a blank.",
               "Nobody has called the last discard: it is your turn."),
        best=TURN_WITH_BLANKS, wrong=dict(TURN_WITH_BLANKS_WRONG),
        why=("A turn is: draw, then any joker exchange or blank swap, then the discard, named (S4, TR1).", cite("TR1")),
        rules=("TR1", "S4"),
        hint="At your table, where in a turn does a blank swap fit: before the pick, or after it?",
    )


AHEAD_YES = "Yes: and it goes back on the wall if the discard is called"
AHEAD_WRONG = {
    "No: only once the discard can no longer be called": "That is the League's rule; at your table the next player may pick ahead (TR5).",
    "Yes, and it is South's to keep whatever happens": "If the discard is called, a tile picked ahead goes back on the wall (TR5).",
    "Yes: any player may look at it": "Only the player whose turn comes next may pick ahead (TR5).",
}


def _pick_ahead(rng: random.Random, card: Card, rules: TableRules) -> Draft:
    thrower = rng.choice(table.seats_in_play(rules.players))
    nxt = table.next_seat(thrower, 1, rules.players)
    code = rng.choice(tiles.CODES[: tiles.NATURALS])
    ruling = table_play.may_pick_ahead(rules.picking_ahead)
    assert ruling and ruling.rule == "TR5"
    wrong = {text.replace("South", nxt): why for text, why in AHEAD_WRONG.items()}
    return Draft(
        prompt=f"May {nxt} pick the next wall tile and look at it now?",
        facts=(says(rules, "TR5"), f"{thrower} has just thrown the {tiles.label(code)}, and nobody has called it yet.",
               f"{nxt} plays next."),
        best=AHEAD_YES, wrong=wrong,
        why=("At your table the next player may pick ahead while the discard can still be called; if anyone calls it,"
             " the tile goes back on the wall (TR5).", cite("TR5")),
        rules=("TR5", "K1"),
        hint="Whose turn comes next, and what does your table allow with the next wall tile while a discard may still be called?",
    )


BACK, DRAW_IT = "It goes back on the wall, unseen by the others", "It is their draw: they rack it"
PICKED_WRONG = {
    BACK: "Nobody called the discard, so the tile picked ahead is simply that player's draw (TR5).",
    DRAW_IT: "The discard was called, so the turn passes to the caller: the tile picked ahead goes back on the wall (TR5).",
    "The caller takes it too": "A caller takes only the discard; the tile picked ahead goes back on the wall (TR5, K5).",
    "It is thrown into the discards": "It was never racked, so it is no discard: it goes back on the wall, or is the draw if nobody calls (TR5).",
}


def _picked_ahead(rng: random.Random, card: Card, rules: TableRules) -> Draft:
    thrower = rng.choice(table.seats_in_play(rules.players))
    nxt = table.next_seat(thrower, 1, rules.players)
    called = rng.random() < 0.6
    ruling = table_play.picked_ahead(called)
    best = BACK if ruling.decision == "wall" else DRAW_IT
    caller = rng.choice([s for s in table.seats_in_play(rules.players) if s not in (thrower, nxt)] or [nxt])
    what = (f"Then {caller} calls {thrower}'s discard." if called else "Nobody calls the discard.")
    wrong = {c: why for c, why in PICKED_WRONG.items() if c != best and (called or c != "The caller takes it too")}
    return Draft(
        prompt=f"What becomes of the tile {nxt} picked ahead?",
        facts=(says(rules, "TR5"), f"{thrower} threw a tile; {nxt} picked the next wall tile ahead and looked at it.", what),
        best=best, wrong=wrong,
        why=((f"The discard was called, so the tile {nxt} picked ahead goes back on the wall, unseen by the others,"
              " and the caller plays on (TR5).") if called else
             f"Nobody called the discard, so the tile {nxt} picked ahead is simply {nxt}'s draw (TR5).", cite("TR5")),
        rules=("TR5",),
        hint="Was the discard called in the end, and what does your table do with a tile picked ahead then?",
    )


# The answers to "may you swap your blank for it?", by the core's reason (coach.rules.blanks).
SWAP_YES = "Yes"
SWAP_NO = {
    blanks.A_JOKER: "No: a joker is never taken for a blank",
    blanks.NOT_DRAWN: "No: first pick or call a tile",
    blanks.NOT_YOUR_TURN: "No: only on your own turn",
    blanks.STILL_CALLABLE: "No: the latest discard may still be called",
}


def _blank_swap(rng: random.Random, card: Card, rules: TableRules) -> Draft:
    case = rng.choice((None, None, blanks.A_JOKER, blanks.NOT_DRAWN, blanks.NOT_YOUR_TURN, blanks.STILL_CALLABLE))
    seat = rng.choice(table.seats_in_play(rules.players))
    before = table.next_seat(seat, -1, rules.players)
    code = rng.choice(tiles.CODES[: tiles.NATURALS])
    taken = tiles.JOKER if case == blanks.A_JOKER else tiles.INDEX[code]
    name = "a Joker" if taken == tiles.JOKER else f"the {tiles.label(code)}"
    situation = {
        None: f"It is your turn: you have picked a tile and not yet discarded. {name[0].upper() + name[1:]} lies in the discards, thrown earlier.",
        blanks.A_JOKER: "It is your turn: you have picked a tile and not yet discarded. A Joker lies in the discards, thrown earlier.",
        blanks.NOT_DRAWN: f"It is your turn, and you have not picked a tile yet. {name[0].upper() + name[1:]} lies in the discards, thrown earlier.",
        blanks.NOT_YOUR_TURN: f"It is {table.next_seat(seat, 1, rules.players)}'s turn. {name[0].upper() + name[1:]} lies in the discards, thrown earlier.",
        blanks.STILL_CALLABLE: (f"{before} has just thrown {name}. You play next: you have picked a tile but not yet put it"
                                " on your rack, so that discard may still be called."),
    }[case]
    ruling = blanks.may_swap(taken, rules, your_turn=case != blanks.NOT_YOUR_TURN, acquired=case != blanks.NOT_DRAWN,
                             callable_now=case == blanks.STILL_CALLABLE)
    why_of = {
        SWAP_YES: "on your turn, after you pick and before you discard, you may swap a blank for any discard but a joker or a blank (TR1).",
        SWAP_NO[blanks.A_JOKER]: "a blank may be swapped for any discard but a joker: a joker in the discards stays dead (TR1, J3).",
        SWAP_NO[blanks.NOT_DRAWN]: "a swap comes after you pick or call and before you discard, like a joker exchange (TR1, S4).",
        SWAP_NO[blanks.NOT_YOUR_TURN]: "a blank is swapped only on your own turn (TR1).",
        SWAP_NO[blanks.STILL_CALLABLE]: "the latest discard, while it may still be called, is not yet in the discards: call it or wait (TR1, K1).",
    }
    best = SWAP_YES if ruling else SWAP_NO[ruling.facts["why"]]
    holds = {
        SWAP_YES: "Not here: something stops this swap (TR1).",
        SWAP_NO[blanks.A_JOKER]: f"The tile here is {name}, not a joker (TR1)." if taken != tiles.JOKER else "",
        SWAP_NO[blanks.NOT_DRAWN]: "You have already picked a tile this turn (TR1, S4).",
        SWAP_NO[blanks.NOT_YOUR_TURN]: "It is your turn (TR1).",
        SWAP_NO[blanks.STILL_CALLABLE]: "That tile was thrown earlier: nobody may call it now (TR1, K1).",
    }
    others = [c for c in (SWAP_YES, *SWAP_NO.values()) if c != best]
    rng.shuffle(others)
    wrong = {c: holds[c] for c in others[:3]}
    why = (why_of[best][0].upper() + why_of[best][1:],)
    return Draft(
        prompt=f"May you swap your blank for {name}?",
        facts=(says(rules, "TR1"), f"You are {seat}, and you hold a blank.", situation),
        best=best, wrong=wrong,
        why=why + (cite("TR1"),),
        rules=tuple(dict.fromkeys(("TR1", "S4", *choice.cited(why)))),
        hint="Whose turn is it, has a tile been picked, and is the tile you would take a joker or the latest discard?",
    )


def _set_with_blanks(rng: random.Random, card: Card, rules: TableRules) -> Draft:
    ruling = blanks.set_ruling(rules)
    best, n = ruling.decision, rules.blanks
    options = {str(tiles.SET_SIZE): f"{tiles.SET_SIZE} is the League's set; your table adds its {n} blanks (TR1, T1).",
               str(tiles.SET_SIZE - n): f"The blanks are added to the {tiles.SET_SIZE} tiles, not taken from them (TR1).",
               str(tiles.SET_SIZE + 2 * n): f"Your table plays {n} blanks, not {2 * n} (TR1).",
               "144": f"144 leaves out the jokers; the League's set is {tiles.SET_SIZE}, and your table adds {n} blanks (T1, TR1)."}
    wrong = {k: v for k, v in options.items() if k != str(best)}
    return Draft(
        prompt="How many tiles are in the set your table plays with?",
        facts=(says(rules, "TR1"), "The tiles are turned face down and shuffled for the walls."),
        best=str(best), wrong=dict(list(wrong.items())[:3]),
        why=(f"The League's set is {tiles.SET_SIZE} tiles (T1), and your table shuffles its {n} blanks in with them: {best} (TR1).",
             cite("TR1")),
        rules=("TR1", "T1"),
        hint="How many tiles does the League's set hold, and what does your table add to it?",
    )


def _wall_left_table(rng: random.Random, card: Card, rules: TableRules) -> Draft:
    ruling = table.wall_after_deal(rules)
    dealt, best, size = ruling.facts["dealt"], ruling.decision, ruling.facts["set"]
    counts = _numbers(best, [best - 1, best + 1, size - 4 * 13 - 1, SET - 4 * 13 - 1, best + 13, best - rules.blanks])
    who = "East holds 14 and South and West 13" if rules.players == 3 else "East holds 14 and the three others 13"
    extra = []
    if rules.players == 3:
        extra.append("North's 13 stay in the wall")
    if rules.blanks:
        extra.append(f"the {rules.blanks} blanks are in the set too")
    also = f"; {join(extra)}" if extra else ""
    reason = f"{who}, {dealt} tiles dealt{also}, so {size} - {dealt} = {best} stay in the walls ({', '.join(_also(rules, 'TR4', 'TR1'))}, S3)."
    others = {t: reason for t in counts if counts[t] != best}
    chosen = rng.sample(list(others), 3)
    return Draft(
        prompt="How many tiles are still in the walls?",
        facts=_first(rules, "TR4", "TR1") + (f"The set your table plays with has {size} tiles, all built into the walls.",
                                               "The deal has just ended."),
        best=str(best), wrong={t: others[t] for t in chosen},
        why=(f"{who}: {dealt} tiles dealt{also}. {size} - {dealt} = {best} are left in the walls "
             f"({', '.join(_also(rules, 'TR4', 'TR1'))}, S3).", cite(ruling.rule)),
        rules=(*_also(rules, "TR4", "TR1"), "S3"),
        hint="How many tiles does your table's set hold, and how many of them leave the wall in the deal?",
    )


def _league(build: choice.Builder) -> Callable[[random.Random, Card, TableRules], Draft]:
    """A League kind no table rule changes, asked as it is."""
    def asked(rng: random.Random, card: Card, rules: TableRules) -> Draft:
        return build(rng, card)

    asked.__name__ = build.__name__
    return asked


def _four(rules: TableRules) -> bool:
    return rules.players == 4


def _three(rules: TableRules) -> bool:
    return rules.players == 3


UNDER: dict[int, tuple[tuple[Kind, ...], tuple[Kind, ...]]] = {
    1: ((Kind(_league(_who_next), _four), Kind(_league(_east_first)), Kind(_league(_after_deal), _four),
         Kind(_turn_order, lambda r: not r.blanks), Kind(_league(_change_aim))),
        (Kind(_who_next_three, _three), Kind(_north_tiles, _three), Kind(_turn_with_blanks, lambda r: bool(r.blanks)),
         Kind(_pick_ahead, lambda r: r.picking_ahead))),
    2: ((Kind(_dice_east), Kind(_dice_tie), Kind(_dice_reroll), Kind(_league(_wall), lambda r: not r.blanks),
         Kind(_league(_break)), Kind(_league(_left_of_break), lambda r: not r.blanks)),
        (Kind(_set_with_blanks, lambda r: bool(r.blanks)),)),
    3: ((Kind(_mid_deal), Kind(_league(_east_last)), Kind(_league(_wall_left), lambda r: _four(r) and not r.blanks),
         Kind(_final), Kind(_next_east)),
        (Kind(_wall_left_table, lambda r: _three(r) or bool(r.blanks)), Kind(_blank_swap, lambda r: bool(r.blanks)),
         Kind(_picked_ahead, lambda r: r.picking_ahead))),
    4: ((Kind(_league(_table_among)), Kind(_league(_league_among)), Kind(_league(_which_kind))), ()),
}


LEVEL_ASKS: dict[int, tuple[choice.Builder, ...]] = {
    1: (_who_next, _east_first, _after_deal, _turn_order, _change_aim),
    2: (_dice_east, _dice_tie, _dice_reroll, _wall, _break, _left_of_break),
    3: (_mid_deal, _east_last, _wall_left, _final, _next_east),
    4: (_table_among, _league_among, _which_kind),
}


# -- asking and grading --------------------------------------------------------


TABLE_RULES = True  # generate(..., rules=) asks under a table's own rules (drills.generate)
generate = choice.asking(NAME, LEVELS, LEVEL_ASKS, choice.COLON, stated_rules=True, under=at_table(UNDER))
grade = choice.grade
hint = choice.hint


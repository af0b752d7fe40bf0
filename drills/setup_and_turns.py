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
moves from hand to hand.
"""

from __future__ import annotations

import random

from coach.notation import tiles
from coach.notation.card import Card
from coach.rules import table
from coach.rules.catalog import cite
from drills.kit import choice
from drills.kit.base import Level
from drills.kit.choice import Draft
from drills.kit.wording import join

# A citation at the end of an explanation line: "(J2)", "(S3, T1)".

NAME = "setup-and-turns"
TITLE = "Set-up, deal and turns"
TEMPLATE = "choice"
LEVELS: tuple[Level, ...] = (
    Level(1, "Seats and turns", "Who plays next, what East does first, how many tiles after the deal, changing your aim."),
    Level(2, "Dice and walls", "Who becomes East, what a tie means, how the walls are built and where East breaks them."),
    Level(3, "The deal and the discard", "The deal step by step, when a discard is final, and who is East in the hands that follow."),
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


def _turn_order(rng: random.Random, card: Card) -> Draft:
    seat = rng.choice(SEATS[1:])
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


def _dice_east(rng: random.Random, card: Card) -> Draft:
    players = rng.sample(NAMES, 4)
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
        facts=("Four players roll two dice each to choose East.", f"Totals: {rolls}."),
        best=east, wrong=others,
        why=(f"The highest total is East: {east} rolled {max(totals)} (S1).", cite("S1")),
        rules=("S1",),
        hint="Compare the dice totals.",  # the rule's own nudge fits
    )


def _dice_tie(rng: random.Random, card: Card) -> Draft:
    players = rng.sample(NAMES, 4)
    tied = rng.choice((2, 2, 3))
    top = rng.randint(7, 12)
    totals = [top] * tied + [rng.randint(2, top - 1) for _ in range(4 - tied)]
    rng.shuffle(totals)
    tied_names = list(table.east_by_dice(list(zip(players, totals))).facts["tied"])
    rolls = ", ".join(f"{p} {t}" for p, t in zip(players, totals))
    best = f"{join(tied_names)} roll again"
    first = tied_names[0]
    low = min(zip(totals, players))[1]
    others = {
        "All four roll again": "Only the tied players roll again; the others are out of it (S1).",
        f"{first} is East, having rolled first": "A tie is never broken by who rolled first: the tied players roll again (S1).",
        f"{low} is East": f"The highest total is East, never the lowest; {low} rolled {min(totals)} (S1).",
    }
    return Draft(
        prompt="What happens next?",
        facts=("Four players roll two dice each to choose East.", f"Totals: {rolls}."),
        best=best, wrong=others,
        why=(f"{join(tied_names)} tied on the highest total, {top}; a tie is broken by a new roll among the tied players only (S1).",
         cite("S1")),
        rules=("S1",),
        hint="Is the highest total held by one player or by several, and what settles a tie?",
    )


def _dice_reroll(rng: random.Random, card: Card) -> Draft:
    """After a tie, a player out of the re-roll may hold a higher first total
    than the re-roll's: only the re-roll among the tied counts."""
    players = rng.sample(NAMES, 4)
    top = rng.randint(8, 12)
    first = [top, top, rng.randint(5, top - 1), rng.randint(2, top - 1)]
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
        players[3]: f"{players[3]} was not tied for the highest total, so is out of the re-roll (S1).",
    }
    return Draft(
        prompt="Who is East?",
        facts=("Four players roll two dice each to choose East.", f"Totals: {rolls}.",
         f"{a} and {b} roll again: {a} {again[0]}, {b} {again[1]}."),
        best=east, wrong=others,
        why=(f"{a} and {b} tied on {top}, so only they rolled again, and the higher re-roll, {east}'s {max(again)}, is East (S1).",
         cite("S1")),
        rules=("S1",),
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


def _mid_deal(rng: random.Random, card: Card) -> Draft:
    rounds_done = rng.randint(0, DEAL_ROUNDS - 1)
    upto = rng.randint(0, 2)  # the last seat to take in the current round; North has not yet
    seat = rng.choice(SEATS)
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
        facts=("The deal: each player takes four tiles at a time, East first, then to the right.",
         f"So far {done}; {now}."),
        best=str(best), wrong={t: others[t] for t in chosen},
        why=(f"{seat} has taken four in each complete round{' and four in this one' if seat in took else ''}: {best} tiles (S3).",
         cite("S3")),
        rules=("S3",),
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


def _final(rng: random.Random, card: Card) -> Draft:
    case = rng.choice(tuple(TILE_FINAL))
    final = table.discard_is_final(touched=case == "touched", named=case == "named")
    seat = rng.choice(SEATS)
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


def _next_east(rng: random.Random, card: Card) -> Draft:
    players = rng.sample(NAMES, 4)
    hands = rng.randint(1, 3)
    best = table.east_after(players, hands).decision
    seating = ", ".join(f"{p} {s}" for p, s in zip(players, SEATS))
    later = "the next hand" if hands == 1 else f"{hands} hands from now"
    others = {}
    for n, p in enumerate(players):
        if p == best:
            continue
        others[p] = (f"{p} is East again only after four hands; East stays East for one hand at a time (S5)." if n == 0 else
                     f"After each hand the player on East's right becomes East: {join(players[: hands + 1])} in turn, so {best} (S5).")
    return Draft(
        prompt=f"Who is East {later}?",
        facts=(f"This hand the seats are: {seating}.", "Nobody changes seat between hands."),
        best=best, wrong=others,
        why=(f"After each hand the player on East's right becomes East, so East moves one seat to the right each hand: "
         f"{' then '.join(players[: hands + 1])} (S5).", cite("S5")),
        rules=("S5",),
        hint="After each hand, which way does the East seat move, and how many hands is that here?",
    )


LEVEL_ASKS: dict[int, tuple[choice.Builder, ...]] = {
    1: (_who_next, _east_first, _after_deal, _turn_order, _change_aim),
    2: (_dice_east, _dice_tie, _dice_reroll, _wall, _break, _left_of_break),
    3: (_mid_deal, _east_last, _wall_left, _final, _next_east),
}


# -- asking and grading --------------------------------------------------------


generate = choice.asking(NAME, LEVELS, LEVEL_ASKS, choice.COLON, stated_rules=True)
grade = choice.grade
hint = choice.hint


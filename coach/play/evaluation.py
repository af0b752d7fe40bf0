"""The coach's one evaluation: every move open to a seat, valued.

`evaluate(hand, seat)` lists every legal action of the move the seat owes
(`coach.play.legal`), each with its value, best first; `coach_move` is the
first. The hint, the review, the replayed positions, the class-hand
dashboard and the strongest computer player ("coach") all ask this, so
they never disagree. It is a pure function of the position: the same
position always gets the same answer (its seeded draws come from the
hand's seed and the number of actions played).

The units, by the kind of move:

- The Charleston (a pass, the courtesy pass, the stop vote, the courtesy
  offer), in tiles: the pass evaluation of the first-pass drill
  (`coach.advice.passes`, the same options), the tiles away a pass is
  expected to leave once tiles come back; no joker ever comes back (C4).
  Value = minus that expectation.
- Play (a discard, a call or no call, a joker exchange, Mah Jongg), in
  points: what the move is expected to be worth to the player (P1-P6).
  Mah Jongg is worth its payment, exactly (on the turn, on a discard,
  through a joker exchange, P6). Any other move leaves a 13-tile holding
  whose chance to win the hand comes from `coach.play.outlook`, read on
  the live lines as near as the nearest or one more (a line whose needed
  tiles are all visible is out, E3), worth that chance times what a winner
  of the line most worth going for collects; a discard loses the chance
  that it hands an opponent Mah Jongg (D1: the model reads their
  exposures and the discards) times what that costs: the discarder pays
  double (P2) and its own chance is gone. A joker is never called (J3).
  An exposure is worth what it brings the hand nearer and no more: its
  jokers can be taken (J4), and a concealed line is out once you expose
  (H4); letting a tile go counts the risk of the discard it puts off.
  Two rules stand over the model: late in the hand a hot tile is worth
  less than a safe one as near (`_defence_first`, D1), and a joker is
  kept unless throwing it is clearly better (`_ranked`).

Under the table rules (docs/table-rules.md) the evaluation reads the hand
as its rules make it: a blank (TR1) is no part of any holding it values;
the Charleston's evaluation is the first-pass drill's under the hand's rules
(`evaluate_pass(..., rules=)`): it reads a rack's blanks and values a pass
that sends one (the coach keeps its blanks when a pass keeping them is as
good), a joker in the courtesy pass (TR3, kept first of all) and the passes
of a table of three (TR4); a blank thrown is worth the holding it leaves, handing nobody Mah
Jongg, and is thrown only when every other discard leaves the hand further
away (`_blank_rules`); a blank swap is worth the best discard after it, or
its payment as self-picked when it completes the hand, and is made only
when it brings the hand nearer than every move without it. A win is
worth what the table pays (two losers at three players, TR4), and at a hot
wall a throw in the last wall that would make its thrower pay for the whole
table costs that much when it deals in (TR2); in a cold wall's last tiles
nothing thrown can be called, so a discard hands nobody Mah Jongg and the
defence rule (D1) stands down (`nobody_calls`, TR2). Only the seats in play
are opponents.

Method and error: fitted models (no playouts), a few ms a move; their fit
on held-out self-play hands is in `outlook.json`'s note.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np

from coach.advice.discard import defend
from coach.advice.passes import (
    EvaluationOptions,
    PassAdvice,
    PassOption,
    evaluate_pass,
    question_options,
    stop_vote,
    with_pass,
)
from coach.advice.passes.vote import courtesy_offer_values
from coach.common.kept import Kept
from coach.notation import tiles
from coach.notation.card import Card
from coach.play import outlook
from coach.play.hand import BLANK_SWAP, EXPOSE, MAH_JONGG, SEATS, Action, Hand
from coach.play.legal import canonical, legal_actions, trial_copy
from coach.play.outlook import Prospect, deal_in_chance, model, prospects, seen_tiles, win_chance
from coach.reading.tiles_away import Exposure, Holding, tables_for
from coach.rules.charleston import BLIND_PASSES, PassError
from coach.rules.mahjong import score, winning_lines
from coach.rules.table_play import cold_wall_call

POINTS, TILES = "points", "tiles"
CHARLESTON = ("pass", "courtesy", "vote", "offer")
JOKER_KEEP = 2.0  # points: see _ranked
LATE_WALL = 40  # tiles left in the wall from which defence comes first (D1)
DEFENCE_POINTS = 5.0  # points a late hot tile is worth less than a safe one as near, at least (D1)
BLANK_KEEP = 1.0  # points: see _blank_rules (TR1)


@dataclass(frozen=True)
class Option:
    """One legal move and what the coach expects of it."""

    action: Action
    value: float  # in the evaluation's unit, higher is better
    wins_now: bool = False  # Mah Jongg now, or an exchange that completes the hand
    distance: int | None = None  # tiles away from the nearest live line after it
    line: str = ""  # that line
    outs: int = 0  # its live outs: unseen tiles that would bring it nearer
    worth: int = 0  # its value on the card (P1)
    win: float | None = None  # the share of hands won after it (play)
    deal_in: float = 0.0  # the chance it hands an opponent Mah Jongg now (a discard)
    danger_seat: str = ""  # the opponent most likely to call it
    hot: bool = False  # late in the hand, a hot tile thrown while a safe one was as near (D1)
    expected: float | None = None  # a pass: tiles away expected once tiles come back
    pass_option: PassOption | None = None


@dataclass(frozen=True)
class Evaluation:
    seat: str
    owed: str  # pass, courtesy, vote, offer, call, turn
    unit: str  # POINTS or TILES
    options: tuple[Option, ...]  # every legal move, best first
    advice: PassAdvice | None = None  # the pass evaluation behind a Charleston decision
    extra: dict[str, float] = field(default_factory=dict)  # facts for the words: current tiles away, vote gain

    @property
    def best(self) -> Option:
        return self.options[0]

    def find(self, action: Action) -> Option | None:
        wanted = canonical(action)
        return next((o for o in self.options if o.action == wanted), None)


_KEPT: Kept[Evaluation] = Kept(128)  # the hint, the review and a replay of the same positions share them


def position_seed(hand: Hand) -> int:
    """The seed of a position's draws: the hand's seed and how far it has gone."""
    return (hand.seed * 1009 + len(hand.actions) * 7919) % (2**31)


def nobody_calls(hand: Hand) -> bool:
    """TR2: a discard made now cannot be called at all (a cold wall's last tiles):
    it hands nobody Mah Jongg, and defence (D1) has nothing to guard against."""
    return not cold_wall_call(hand.rules.wall_end, hand.in_last_wall)


def evaluate(hand: Hand, seat: str) -> Evaluation:
    """Every legal move `seat` has now, valued, best first (see the module doc)."""
    owed = hand.waiting().get(seat)
    if owed is None:
        raise ValueError(f"{seat} has no move to make now")
    return _KEPT.get(_fingerprint(hand, seat), lambda: _evaluate(hand, seat, owed), owner=hand.card)


def _fingerprint(hand: Hand, seat: str) -> tuple:
    """Everything the evaluation reads of a position (a scene set by hand
    with the same seed and actions is another position)."""
    return (
        id(hand.card), seat, position_seed(hand), hand.phase, hand.step, hand.turn, hand.acquired, hand.win_how,
        hand.latest, len(hand.wall), tuple(sorted(hand.racks[seat])), tuple(hand.received[seat]),
        tuple(sorted(hand.courtesy.items())), tuple(hand.discards),
        tuple((s, g.tile, g.size, g.jokers) for s in SEATS for g in hand.exposed[s]),
        tuple(sorted((s, tuple(p)) for s, p in hand.may_call.items())),
        hand.rules, hand.swapped, hand.dice,
    )


def forget() -> None:
    """Empty the evaluations kept (a measurement that wants each worked out afresh)."""
    _KEPT.clear()


def coach_move(hand: Hand, seat: str) -> Action:
    """The coach's move: the best of `evaluate`."""
    return evaluate(hand, seat).best.action


def _evaluate(hand: Hand, seat: str, owed: str) -> Evaluation:
    try:
        if owed in ("pass", "courtesy"):
            return _passes(hand, seat, owed)
        if owed == "vote":
            return _vote(hand, seat)
        if owed == "offer":
            return _offer(hand, seat)
    except PassError:  # too few tiles to pass but jokers and blanks (TR1): every legal move alike
        return _unvalued(hand, seat, owed)
    if owed == "call":
        return _calls(hand, seat)
    return _turn(hand, seat)


# -- the Charleston, in tiles -------------------------------------------------------------------


def pass_effort(which: str) -> EvaluationOptions:
    """The first-pass drill's own effort for a pass without blind tiles (its
    leaders worked out exactly); a blind pass or the courtesy pass is sampled."""
    if which in BLIND_PASSES or which == "courtesy":
        return EvaluationOptions()
    return question_options()


def pass_advice(hand: Hand, seat: str) -> PassAdvice:
    """The pass evaluation for the pass `seat` owes, under the hand's table rules:
    the first-pass drill's own (`evaluate_pass(..., rules=)`), reading the rack's
    blanks (TR1), a joker the courtesy pass may take (TR3) and the passes of a
    table of three (TR4)."""
    which = "courtesy" if hand.step == "courtesy" else hand.step
    return evaluate_pass(
        hand.card, list(hand.racks[seat]), which, seed=position_seed(hand), options=pass_effort(which), rules=hand.rules,
    )


def _unvalued(hand: Hand, seat: str, owed: str) -> Evaluation:
    """Every legal move, valued alike: a Charleston decision the pass evaluation
    cannot read (fewer than three tiles to pass but jokers and blanks)."""
    options = tuple(Option(action, 0.0) for action in legal_actions(hand, seat))
    return Evaluation(seat, owed, TILES, options, None, {"current": 0})


def with_played(evaluation: Evaluation, played: Action) -> PassAdvice:
    """A pass evaluation's advice with the pass `played` worked out beside its
    leaders, as the first-pass drill grades a learner's pass (`with_pass`);
    a sampled evaluation (a blind pass) already lists every pass."""
    advice = evaluation.advice
    if advice is None:
        raise ValueError("only a Charleston pass has a pass evaluation")
    if played.blind or not advice.best.exact:
        return advice
    return with_pass(advice, tuple(sorted(tiles.TABLE_INDEX[c] for c in played.tiles)))


def _pass_action(seat: str, kind: str, option: PassOption) -> Action:
    return canonical(Action(seat, kind, tuple(tiles.TABLE_CODES[t] for t in option.tiles), blind=option.blind))


def _passes(hand: Hand, seat: str, owed: str) -> Evaluation:
    advice = pass_advice(hand, seat)
    count = hand.courtesy.get(seat, 3) if owed == "courtesy" else 3
    options = [
        Option(_pass_action(seat, owed, o), -o.expected, expected=o.expected, pass_option=o)
        for o in advice.options
        if owed != "courtesy" or len(o.tiles) == count
    ]
    if not options:  # the agreed count is more than the tiles it may read (TR1)
        return _unvalued(hand, seat, owed)
    return Evaluation(seat, owed, TILES, tuple(options), advice, {"current": advice.current})


def _vote(hand: Hand, seat: str) -> Evaluation:
    advice = evaluate_pass(hand.card, list(hand.racks[seat]), "second-left", seed=position_seed(hand), rules=hand.rules)
    vote = stop_vote(advice)
    go, stop = Action(seat, "vote", go=True), Action(seat, "vote", go=False)
    # Going on is worth the best pass's expected tiles; stopping keeps the rack as it is.
    keep = Option(stop, -float(advice.current), expected=float(advice.current))
    more = Option(go, -advice.best.expected, expected=advice.best.expected, pass_option=advice.best)
    ordered = (keep, more) if vote.stop else (more, keep)
    return Evaluation(seat, "vote", TILES, ordered, advice, {"current": advice.current, "gain": vote.gain})


def _offer(hand: Hand, seat: str) -> Evaluation:
    offer = courtesy_offer_values(hand.card, list(hand.racks[seat]), seed=position_seed(hand), rules=hand.rules)
    options = [
        Option(Action(seat, "offer", count=n), -value, expected=value, pass_option=offer.passes[n])
        for n, value in enumerate(offer.values)
    ]
    # The advised count first (a larger offer must gain more than MARGIN), then by value.
    options.sort(key=lambda o: (o.action.count != offer.count, -round(o.value, 9), o.action.count))
    current = int(tables_for(hand.card).line_distances(hand.holding(seat)).min())
    return Evaluation(seat, "offer", TILES, tuple(options), None, {"current": current})


# -- play, in points ----------------------------------------------------------------------------


def _payment_value(card: Card, holding: Holding, how: str, players: int = 4) -> float:
    """What the winner collects for this winning holding (P1-P6; two losers at three players, TR4)."""
    payment = score(card, holding, how, players)
    return float(payment.total)


def _gain(found: Prospect) -> float:
    """What a win of that line is worth, on average over how it is won."""
    return found.value * model().gain_per_value


def _holding_value(card: Card, holding: Holding, seen: np.ndarray, wall: int) -> tuple[float, float, Prospect]:
    """(points, win chance, prospect) of a 13-tile holding from here: its best
    prospect among the live lines as near as the nearest or one more (a player
    goes for the line most worth going for, not only the nearest)."""
    return _best_prospect(prospects(card, holding, seen), wall)


def _best_prospect(found: list[Prospect], wall: int) -> tuple[float, float, Prospect]:
    """(points, win chance, prospect) of the prospect most worth going for (see _holding_value)."""
    worth = [(win_chance(one, wall), one) for one in found]
    chance, best = max(worth, key=lambda pair: (pair[0] * _gain(pair[1]), -pair[1].distance))
    return chance * _gain(best), chance, best


def _discards(hand: Hand, seat: str, holding: Holding, seen: np.ndarray) -> list[Option]:
    """Every discard from a 14-tile holding, valued."""
    card, wall = hand.card, len(hand.wall)
    floor = Counter(t for _, t in hand.discards)
    others = {o: [e.as_exposure() for e in hand.exposed[o]] for o in hand.seats if o != seat}
    # P2: the discarder pays double; at a hot wall, a hot throw pays the whole table's share (TR2).
    hot_share = 4 if hand.rules.players == 4 else 3
    out = []
    kinds = sorted(set(holding.rack_tiles()))
    # Every discard's 13 tiles (the discard now seen) analysed in one call, not one analysis a discard (issue 26).
    racks = np.repeat(np.array([holding.rack], dtype=np.int16), len(kinds), axis=0)
    racks[np.arange(len(kinds)), kinds] -= 1
    seens = np.repeat(seen[None, :], len(kinds), axis=0)
    seens[np.arange(len(kinds)), kinds] += 1
    found_each = outlook.prospects_many(card, racks, holding.exposures, seens) if kinds else []
    cold = nobody_calls(hand)  # TR2: a cold wall's last tiles: no discard is called
    for tile, found_here in zip(kinds, found_each):
        points, chance, found = _best_prospect(found_here, wall)
        risks = {o: 0.0 if cold else deal_in_chance(card, tile, exposures, floor[tile], wall) for o, exposures in others.items()}
        safe = math.prod(1 - q for q in risks.values())
        deal = 1 - safe
        lost_to_deal_in = (hot_share if hand.throw_is_hot(seat, tile) else 2) * model().mean_value
        value = safe * points - deal * lost_to_deal_in
        worst = max(risks, key=lambda o: risks[o]) if deal > 0 else ""
        out.append(
            Option(
                Action(seat, "discard", (tiles.CODES[tile],)), value, distance=found.distance, line=found.line, win=chance, outs=found.outs, worth=found.value,
                deal_in=deal, danger_seat=worst,
            )
        )
    return out


def _defence_first(hand: Hand, seat: str, options: list[Option]) -> list[Option]:
    """D1, late in the hand (LATE_WALL tiles or fewer in the wall): a hot tile
    (at least half the hands an opponent's exposures allow need it, the
    danger figure of `coach.advice.discard`) is worth at least
    DEFENCE_POINTS less than the best safe tile (thrown twice already, or
    fitting no hand the exposures allow) that leaves you as near. The model
    sees few such moments; the rule says what a careful player does."""
    if len(hand.wall) > LATE_WALL or nobody_calls(hand):  # TR2: nothing thrown now can be called
        return options
    others = [[e.as_exposure() for e in hand.exposed[o]] for o in hand.seats if o != seat]
    if not any(others):
        return options
    floor = [0] * tiles.KINDS
    for _, tile in hand.discards:
        if tile != tiles.BLANK:  # a blank on the floor is no tile a hand needs (TR1)
            floor[tile] += 1
    judged = defend(hand.card, {tiles.INDEX[o.action.tiles[0]] for o in options}, floor, others)
    safe = [o for o in options if judged[tiles.INDEX[o.action.tiles[0]]].safe]
    out = []
    for o in options:
        tile = tiles.INDEX[o.action.tiles[0]]
        near = [s.value for s in safe if s.distance is not None and o.distance is not None and s.distance <= o.distance]
        if judged[tile].hot and near:
            o = replace(o, value=min(o.value, max(near) - DEFENCE_POINTS), hot=True)
        out.append(o)
    return out


def _safest_throw(hand: Hand, seat: str, holding: Holding) -> float:
    """The smallest chance of handing an opponent Mah Jongg among the tiles held
    (jokers aside: nobody can call one, J3, but nobody keeps a hand by throwing them)."""
    if tiles.BLANK in hand.racks[seat] or nobody_calls(hand):
        return 0.0  # a blank: nobody may call it (TR1); nor anything in a cold wall's last tiles (TR2)
    floor = Counter(t for _, t in hand.discards)
    others = [[e.as_exposure() for e in hand.exposed[o]] for o in hand.seats if o != seat]
    wall = len(hand.wall)
    return min(
        1 - math.prod(1 - deal_in_chance(hand.card, tile, exposures, floor[tile], wall) for exposures in others)
        for tile in set(holding.rack_tiles()) - {tiles.JOKER}
    ) if set(holding.rack_tiles()) - {tiles.JOKER} else 0.0


def _best_discard(options: list[Option], wall: int) -> Option:
    """The discard the coach would make of these (the ranking of `_ranked`)."""
    return _ranked(options, wall)[0]


def _blank_discard(hand: Hand, seat: str, holding: Holding, seen: np.ndarray) -> list[Option]:
    """Throwing a blank, if one is held (TR1): worth the holding it leaves (a blank
    is no part of it), and it hands nobody Mah Jongg: a blank is never called."""
    if tiles.BLANK not in hand.racks[seat]:
        return []
    points, chance, found = _holding_value(hand.card, holding, seen, len(hand.wall))
    action = Action(seat, "discard", (tiles.BLANK_CODE,))
    return [Option(action, points, distance=found.distance, line=found.line, win=chance, outs=found.outs, worth=found.value)]


def _after_move(hand: Hand, seat: str, action: Action) -> Option:
    """A joker exchange or a blank swap: Mah Jongg if it completes the hand (paid
    as the turn's win is, P6, TR1), else worth the best discard that follows."""
    trial = trial_copy(hand)
    trial.apply(action)
    after = trial.holding(seat)
    if winning_lines(hand.card, after) and tiles.BLANK not in trial.racks[seat]:
        return Option(action, _payment_value(hand.card, after, trial.win_how, hand.rules.players), wins_now=True, distance=0, win=1.0)
    seen = seen_tiles(trial, seat)
    follow = _defence_first(trial, seat, _discards(trial, seat, after, seen)) + _blank_discard(trial, seat, after, seen)
    best = _best_discard(_blank_rules(follow), len(trial.wall))
    return Option(action, best.value, distance=best.distance, line=best.line, win=best.win, outs=best.outs, worth=best.worth)


def _nearer_swaps(hand: Hand, holding: Holding, swaps: list[Action]) -> set[str]:
    """The codes of the tiles a blank swap would bring nearer any line (TR1), in one batch."""
    kinds = sorted({tiles.INDEX[a.tiles[0]] for a in swaps})
    if not kinds:
        return set()
    rows = np.repeat(np.array([holding.rack], dtype=np.int16), len(kinds), axis=0)
    rows[np.arange(len(kinds)), kinds] += 1
    after = tables_for(hand.card).batch_line_distances(rows, list(holding.exposures)).min(axis=1)
    now = int(tables_for(hand.card).line_distances(holding).min())
    return {tiles.CODES[k] for k, d in zip(kinds, after) if d < now}


def _turn(hand: Hand, seat: str) -> Evaluation:
    card = hand.card
    holding = hand.holding(seat)
    seen = seen_tiles(hand, seat)
    legal = legal_actions(hand, seat)
    thrown_blank = _blank_discard(hand, seat, holding, seen)
    nearer = _nearer_swaps(hand, holding, [a for a in legal if a.kind == BLANK_SWAP])
    options: list[Option] = []
    swapped: dict[tuple[str, ...], Option] = {}  # one blank swap a tile: its copies on the floor are the same move
    for action in legal:
        if action.kind == "mahjong":
            options.append(Option(action, _payment_value(card, holding, hand.win_how, hand.rules.players), wins_now=True, distance=0, win=1.0))
        elif action.kind == "exchange":
            options.append(_after_move(hand, seat, action))
        elif action.kind == BLANK_SWAP:
            same = swapped.get(action.tiles)
            if same is not None:
                option = replace(same, action=action)
            elif action.tiles[0] in nearer:
                option = _after_move(hand, seat, action)
            else:
                # A tile that brings no line nearer: the best after it is to throw it
                # again, which leaves the hand as throwing the blank would (TR1).
                option = replace(thrown_blank[0], action=action)
            swapped.setdefault(action.tiles, option)
            options.append(option)
    options += _defence_first(hand, seat, _discards(hand, seat, holding, seen)) + thrown_blank
    return Evaluation(seat, "turn", POINTS, tuple(_ranked(_blank_rules(options), len(hand.wall))), extra={"wall": len(hand.wall)})


def _blank_rules(options: list[Option]) -> list[Option]:
    """Two rules over the model for blanks (TR1), which it reads as dead tiles: a
    blank kept can later be swapped for a discard the hand needs. So a blank is
    thrown only when every other discard leaves the hand further away, and a
    blank swap is made only when it brings the hand nearer than every move
    without one: else it is worth BLANK_KEEP points less than the best of those."""
    discards = [o for o in options if o.action.kind == "discard" and o.action.tiles[0] != tiles.BLANK_CODE]
    plain = [o for o in options if o.action.kind != BLANK_SWAP and not o.wins_now]
    out = []
    for o in options:
        if o.action.kind == "discard" and o.action.tiles[0] == tiles.BLANK_CODE:
            as_near = [d.value for d in discards if d.distance is not None and o.distance is not None and d.distance <= o.distance]
            if as_near:
                o = replace(o, value=min(o.value, max(as_near) - BLANK_KEEP))
        elif o.action.kind == BLANK_SWAP and not o.wins_now and plain:
            nearest = min((p.distance for p in plain if p.distance is not None), default=None)
            if o.distance is None or (nearest is not None and o.distance >= nearest):
                o = replace(o, value=min(o.value, max(p.value for p in plain) - BLANK_KEEP))
        out.append(o)
    return out


def _is_joker_discard(option: Option) -> bool:
    return option.action.kind == "discard" and option.action.tiles[0] == tiles.CODES[tiles.JOKER]


def _ranked(options: list[Option], wall: int = 0) -> list[Option]:
    """Best first: Mah Jongg always (the most paid first), then by value; among
    equals keeping jokers, then the legal list's order. A joker is thrown only when it is worth more than JOKER_KEEP
    points over every other move, and before the late hand (LATE_WALL) only
    when every other discard leaves the hand further away: the model reads a
    joker's worth from the lines in reach now, and a joker kept can serve any
    line of three or more you switch to (J1)."""
    order = {id(o): n for n, o in enumerate(options)}

    # Mah Jongg first, whatever holding out for a bigger hand might be worth by the model:
    # a win in hand is certain, the model's chance is an average (E1, K3).
    def key(o: Option) -> tuple:
        return (not o.wins_now, -round(o.value, 6), _is_joker_discard(o), order[id(o)])

    ranked = sorted(options, key=key)
    if ranked and _is_joker_discard(ranked[0]):
        joker = ranked[0]
        early = wall > LATE_WALL
        keeper = next(
            (
                o for o in ranked
                if not _is_joker_discard(o) and (
                    o.value >= joker.value - JOKER_KEEP
                    or (early and o.action.kind == "discard" and o.distance is not None and joker.distance is not None
                        and o.distance <= joker.distance)
                )
            ),
            None,
        )
        if keeper is not None:
            ranked.remove(keeper)
            ranked.insert(0, keeper)
    return ranked


def _calls(hand: Hand, seat: str) -> Evaluation:
    assert hand.latest is not None
    card, (thrower, tile) = hand.card, hand.latest
    holding = hand.holding(seat)
    seen = seen_tiles(hand, seat)
    wall = len(hand.wall)
    options: list[Option] = []
    for action in legal_actions(hand, seat):
        if action.kind == "no-call":
            points, chance, found = _holding_value(card, holding, seen, wall)
            # A call's value counts the risk of the discard that follows it; letting the tile go
            # only puts that discard off a turn: count the safest tile held, as the coach would throw.
            deal = _safest_throw(hand, seat, holding)
            value = (1 - deal) * points - deal * 2 * model().mean_value
            options.append(Option(action, value, distance=found.distance, line=found.line, win=chance, outs=found.outs, worth=found.value))
        elif not action.size:  # K3: the call for Mah Jongg
            won = Holding.of(holding.rack_tiles() + [tile], holding.exposures)
            options.append(Option(action, _payment_value(card, won, "discard", hand.rules.players), wins_now=True, distance=0, win=1.0))
        else:
            counts = list(holding.rack)
            used = min(counts[tile], action.size - 1)
            counts[tile] -= used
            counts[tiles.JOKER] -= action.size - 1 - used
            after = Holding(tuple(counts), holding.exposures + (Exposure(tile, action.size, action.size - 1 - used),))
            now_seen = seen.copy()
            now_seen[tile] -= 1  # the called tile leaves the floor for the exposure, counted as own now
            if winning_lines(card, after):  # the exposure completes the hand: Mah Jongg follows at once (K3, P2)
                options.append(Option(action, _payment_value(card, after, "discard", hand.rules.players), wins_now=True, distance=0, win=1.0))
                continue
            # The discards after the call read the floor, the exposures and the wall, none of
            # which the call changes for them (the new exposure is in `after`): no copy of the hand.
            follow = _defence_first(hand, seat, _discards(hand, seat, after, now_seen)) + _blank_discard(hand, seat, after, now_seen)
            if not follow:  # nothing left to throw and no win: a call no player makes
                options.append(Option(action, -2 * model().mean_value * model().gain_per_value, distance=None))
                continue
            best = _best_discard(_blank_rules(follow), wall)
            options.append(Option(action, best.value, distance=best.distance, line=best.line, win=best.win, outs=best.outs, worth=best.worth))
    return Evaluation(seat, "call", POINTS, tuple(_ranked(options)), extra={"wall": wall, "thrower": SEATS.index(thrower)})


__all__ = ["CHARLESTON", "POINTS", "TILES", "EXPOSE", "MAH_JONGG", "Evaluation", "Option", "coach_move", "evaluate", "pass_advice", "with_played"]

"""The pass advice in English: why each tile goes or stays, and how a pass
compares with the best, in tiles.

Every number shown adds up: the expectations are shown to as many
decimals as it takes for the gap between the shown numbers to fall on the
same side of MARGIN and CLOSE as the true gap (`shown_decimals`), and the
gap stated is the difference of the numbers shown. A pass is never called
"clearly worse" unless its verdict is "worse" (more than CLOSE behind).
"""

from __future__ import annotations

from coach.advice.explain import COUNT_WORDS, NEAREST, keep_note, nearest_users, said_once, tile_note, with_line_words
from coach.advice.passes.evaluation import CLOSE, MARGIN, PassAdvice, PassOption, Z, broken_sets, pass_grade
from coach.notation import tiles
from coach.rules.blanks import BLANK, split
from coach.rules.charleston import forwarded

# The coach's policy on blanks (TR1), in plain words: a verdict says it where a rack holds one.
BLANK_POLICY = (
    "The coach keeps its blanks in the Charleston when a pass without them is as good: a blank is never part"
    " of a hand, but on your turn it can be swapped for a discard (TR1)."
)


def blank_note(passing: bool, worth_it: bool = False) -> str:
    """What a blank does for a rack, given away or kept (TR1)."""
    if not passing:
        return "Your blank stays: it is never part of a hand, but on your turn it can be swapped for a discard (TR1)."
    if worth_it:
        return ("The blank: it is never part of a hand, and here no pass that keeps it is as good, so it goes (TR1).")
    return "The blank is never part of a hand: passing it costs no tile now, but gives up a swap for a discard later (TR1)."

MAX_DECIMALS = 4


def _band(gap: float) -> int:
    """Which side of 0, MARGIN and CLOSE a gap in tiles falls."""
    return 0 if gap <= 0 else 1 if gap <= MARGIN else 2 if gap <= CLOSE else 3


def _gap(option: PassOption, best: PassOption | None, decimals: int) -> float:
    """The gap a reader sees: the difference of the shown expectations when
    both are exact (their difference is the gap), else the gap rounded."""
    if best is not None and option.exact and best.exact:
        return round(round(option.expected, decimals) - round(best.expected, decimals), decimals)
    return round(option.behind, decimals)


def shown_decimals(option: PassOption, best: PassOption | None = None) -> int:
    """Decimals to show `option`'s and `best`'s expectations (and the gap)
    with: one, unless the difference of the numbers so shown would cross
    MARGIN or CLOSE, or stray from the true gap by more than the last
    decimal shown ("6.8 ... 7.0, 0.1 tiles worse" for a gap of 0.12 is
    shown as 6.83 and 6.95, 0.12 tiles worse)."""
    for decimals in range(1, MAX_DECIMALS + 1):
        gap = _gap(option, best, decimals)
        # The same side of every threshold, and the true gap to the decimals shown (not 0.2 for 0.12).
        if _band(gap) == _band(option.behind) and abs(gap - option.behind) <= 0.5 * 10**-decimals + 1e-9:
            return decimals
    return MAX_DECIMALS


def tiles_away(value: float, decimals: int = 1) -> str:
    return f"{value:.{decimals}f}"


def gap_words(option: PassOption, best: PassOption | None = None, decimals: int | None = None) -> str:
    """How far behind the best pass (`best`, when given, is the one the gap
    is shown against), with its uncertainty, in plain words."""
    d = shown_decimals(option, best) if decimals is None else decimals
    gap = _gap(option, best, d)
    shown = f"{abs(gap):.{d}f}"
    grade = pass_grade(option)
    if gap < 0:
        return f"{shown} tiles nearer than the best pass on average, within the {MARGIN} tile margin: too close to call"
    if grade in ("best", "as good"):
        if gap == 0:
            return "as good as the best pass: no difference the samples can find" if not option.exact else "as good as the best pass"
        return f"about {shown} tiles worse than the best pass, too close to call"
    how = "clearly worse" if grade == "worse" else f"close to the best, but more than the {MARGIN} tile margin behind it"
    if option.exact:
        return f"{shown} tiles worse: {how}, counted over every three tiles that could come back"
    low = option.behind - Z * option.behind_stderr
    return f"{shown} tiles worse: {how} (95% sure it is at least {max(low, MARGIN):.{d}f} tiles worse)"


def broken_words(advice: PassAdvice, option: PassOption) -> str | None:
    """Why `option` may pass tiles of a pair or a pung (`broken_sets`), in
    plain words, or None when it keeps them all whole: which of the nearest
    lines use that tile, and that no pass keeping it was found as good."""
    broken = broken_sets(advice.rack, option.tiles)
    if not broken:
        return None
    held = tiles.counts(split(advice.rack)[0])
    parts: list[str] = []
    named = []
    for t in broken:
        given = option.tiles.count(t)
        group = {2: "pair", 3: "pung", 4: "kong"}.get(held[t], "group")
        plural = tiles.plural(t, 2).split(" ", 1)[1]
        what = f"both {plural}" if given == held[t] == 2 else f"all {COUNT_WORDS[given]} {plural}" if given == held[t] else f"{COUNT_WORDS[given]} of your {COUNT_WORDS[held[t]]} {plural}"
        users = nearest_users(advice.analysis, t)
        named += [r.line for r in users]
        if not users:
            why = f"none of your {COUNT_WORDS[NEAREST]} nearest lines uses {plural}"
        else:
            ids = " and ".join(r.line.id for r in users)
            why = f"only {ids} of your {COUNT_WORDS[NEAREST]} nearest lines {'uses' if len(users) == 1 else 'use'} {plural}"
        parts.append(f"Passing {what} breaks up your {group}: {why}")
    lead = "; ".join(parts)
    it = "it" if len(broken) == 1 else "them"
    text = f"{lead}. No pass that keeps {it} whole was found as good (within {MARGIN} tiles)."
    keeper = next((o for o in advice.options if len(broken_sets(advice.rack, o.tiles)) < len(broken) and o.behind > 0), None)
    if keeper is not None:
        d = shown_decimals(keeper, option)
        text += (
            f" The nearest found that keeps {it}, {keeper.label()}, leaves you {tiles_away(keeper.expected, d)} tiles away "
            f"on average, {gap_words(keeper, option, d)}."
        )
    return with_line_words(text, named)


def explain_pass(advice: PassAdvice, option: PassOption, yours: bool = True, decimals: int | None = None) -> list[str]:
    """Per-tile reasons and how this pass compares with the best, in tiles.

    `yours=False` explains the best pass shown beside a learner's own;
    `decimals` shows the expectations so (default: `shown_decimals` of the
    pass against the best), so that a verdict naming both shows each alike.
    """
    card = advice.card
    analysis = advice.analysis
    best = advice.best
    d = shown_decimals(option, best) if decimals is None else decimals
    lines: list[str] = []
    worth_it = option is best or pass_grade(option) in ("best", "as good")
    for t in dict.fromkeys(option.tiles):
        lines.append(blank_note(True, worth_it and option is best) if t == BLANK else tile_note(card, analysis, t, passing=True, worth_it=worth_it))
    if option is best:
        why = broken_words(advice, option)
        if why:
            lines.append(why)
    if option.blind:
        lines.append(
            f"Sending on {forwarded(option.blind)}, is a blind pass, allowed on the last pass of each "
            "Charleston (C5): those tiles never join your rack."
        )
    # Never advise keeping a tile the best pass gives away.
    kept = [t for t in dict.fromkeys(advice.rack) if t not in option.tiles and t not in best.tiles and t != BLANK]
    notes = [n for n in (keep_note(card, analysis, t) for t in kept) if n]
    lines += notes[:2]
    if BLANK in advice.rack:
        if BLANK not in option.tiles and BLANK not in best.tiles:
            lines.append(blank_note(False))
        lines.append(BLANK_POLICY)
    if tiles.JOKER in advice.rack:
        lines.append("Your joker stays on your rack: jokers are never passed (C4).")
    mine, theirs = tiles_away(option.expected, d), tiles_away(best.expected, d)
    if option is best and not yours:
        lines.append(f"The best pass leaves you {mine} tiles away on average (you are {advice.current} away now).")
    elif option is best:
        lines.append(f"This is the best pass: it leaves you {mine} tiles away on average (you are {advice.current} away now).")
    elif pass_grade(option) in ("best", "as good"):
        lines.append(
            f"This pass leaves you {mine} tiles away on average (you are {advice.current} away now): "
            f"{gap_words(option, best, d)} ({best.label()}, {theirs})."
        )
        if broken_sets(advice.rack, option.tiles) and not broken_sets(advice.rack, best.tiles):
            lines.append(f"The best pass, {best.label()}, keeps your pairs and pungs whole: as near, and a pair or pung is worth keeping.")
    else:
        lines.append(
            f"The best pass, {best.label()}, leaves you {theirs} tiles away on average; "
            f"this one leaves {mine}, {gap_words(option, best, d)}."
        )
    return said_once(lines)

"""The pass advice in English: why each tile goes or stays, and how a pass
compares with the best, in tiles."""

from __future__ import annotations

from coach.advice.explain import keep_note, tile_note
from coach.advice.passes.evaluation import MARGIN, PassAdvice, PassOption, Z
from coach.notation import tiles


def gap_words(option: PassOption) -> str:
    """How far behind the best pass, with its uncertainty, in plain words."""
    gap = max(option.behind, 0.0)
    if option.as_good_as_best:
        if gap < 0.05:
            return "as good as the best pass: no difference the samples can find"
        return f"about {gap:.1f} tiles worse than the best pass, too close to call"
    if option.exact:
        return f"{gap:.1f} tiles worse: clearly worse, counted over every three tiles that could come back"
    low = option.behind - Z * option.behind_stderr
    return (
        f"{gap:.1f} tiles worse: clearly worse "
        f"(95% sure it is at least {max(low, MARGIN):.1f} tiles worse)"
    )


def explain_pass(advice: PassAdvice, option: PassOption, yours: bool = True) -> list[str]:
    """Per-tile reasons and how this pass compares with the best, in tiles.

    `yours=False` explains the best pass shown beside a learner's own.
    """
    card = advice.card
    analysis = advice.analysis
    best = advice.best
    lines: list[str] = []
    for t in dict.fromkeys(option.tiles):
        lines.append(tile_note(card, analysis, t, passing=True))
    if option.blind:
        lines.append(
            f"Passing {option.blind} of the tiles you receive on unseen is a blind pass, "
            "allowed on the last pass of each Charleston (C5)."
        )
    # Never advise keeping a tile the best pass gives away.
    kept = [t for t in dict.fromkeys(advice.rack) if t not in option.tiles and t not in best.tiles]
    notes = [n for n in (keep_note(card, analysis, t) for t in kept) if n]
    lines += notes[:2]
    if tiles.JOKER in advice.rack:
        lines.append("Your joker stays on your rack: jokers are never passed (C4).")
    if option is best and not yours:
        lines.append(f"The best pass leaves you {option.expected:.1f} tiles away on average (you are {advice.current} away now).")
    elif option is best:
        lines.append(
            f"This is the best pass: it leaves you {option.expected:.1f} tiles away on average "
            f"(you are {advice.current} away now)."
        )
    elif option.as_good_as_best:
        lines.append(
            f"This pass leaves you {option.expected:.1f} tiles away on average (you are {advice.current} away now): "
            f"{gap_words(option)} ({best.label()})."
        )
    else:
        lines.append(
            f"The best pass, {best.label()}, leaves you {best.expected:.1f} tiles away on average; "
            f"this one leaves {option.expected:.1f}, {gap_words(option)}."
        )
    return lines

"""A drill's question on a page: what its templates need, and what its answer form sent.

The drill pages, today's practice, assignments, replayed positions and the
teacher's preview of a question all show a drill's stage and verdict
partials; they build their context here and read answers here alike.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from flask import current_app

from coach.web.shared.drilling import Asked

NO_ANSWER = "Pick an answer first, or press \u201cI don't know, show me\u201d."

# Stages that show the whole card (142 KB of HTML on the house card). A page sends it
# once: "Next question" says which card the page holds (its key) and, when the next
# question is on the same card, gets its stage without the card, which htmx keeps
# in place (hx-preserve). The key is the card's content, never its name or number.
KEEPS_CARD = frozenset({"nearest_hand"})


def template_base(module: ModuleType) -> str:
    """ "nearest-hand" -> "nearest_hand": the drill's page and partials; a
    drill answered by picking one of its choices may share "choice"."""
    return getattr(module, "TEMPLATE", None) or module.NAME.replace("-", "_")


def pattern_tokens(pattern: str) -> list[dict[str, str]]:
    """A card pattern as printed tokens, each with its suit letter for colour.

    The card prints suits in colours rather than letters; the letter stays
    in `suit` for the colour and in `label` for screen readers."""
    out = []
    for word in pattern.split():
        if set(word) <= set("+=-x"):
            out.append({"text": word, "suit": "", "label": word})
            continue
        body, suit = word, ""
        if word[-1].lower() in "abc" and len(word) > 1:
            body, suit = word[:-1], word[-1].lower()
        label = f"{body} in suit {suit}" if suit else body
        out.append({"text": body, "suit": suit, "label": label})
    return out


def drill_context(asked: Asked, verdict: Any = None, answer: Any = None, **extra: Any) -> dict[str, Any]:
    """What a drill's page, stage and verdict templates need."""
    base = template_base(asked.module)
    return dict(
        drill=asked.module,
        q=asked.question,
        token=asked.token,
        verdict=verdict,
        answer=answer,
        card=asked.card,
        base=base,
        card_key=card_key(asked) if base in KEEPS_CARD else None,
        **extra,
    )


def card_key(asked: Asked) -> str:
    """The card's content as a short key (the start of its sha256): the id of the
    card a page keeps, and what its "Next question" says it holds."""
    return str(current_app.extensions["coach"].digest(asked.card))[:16]


def given_answer(form) -> Any:
    """What an answer form sent: None for "show me", a list from a drill
    answered with several picks (checkboxes), else the text."""
    if "show" in form:
        return None
    if "answer_list" in form:
        return form.getlist("answer")
    return form.get("answer", "")


def no_answer(answer: Any) -> bool:
    """Nothing picked or typed (and not "show me"): asked again, not graded."""
    if answer is None:
        return False
    return not (answer if isinstance(answer, list) else answer.strip())


def picked_places(rack: tuple[str, ...], answer: Any) -> set[int]:
    """The rack places an answer of several tiles picked, each tile once (two 7 Craks
    picked check both 7 Craks): a form asked again keeps its picks."""
    left = list(answer) if isinstance(answer, list) else []
    places = set()
    for n, code in enumerate(rack):
        if code in left:
            left.remove(code)
            places.add(n)
    return places

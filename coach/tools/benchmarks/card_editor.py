"""The card editor's work, timed: a preview and a tried rack on the house
card, on a card at the caps and on a card with problems, each card parsed
afresh every time (best of 5). A printed benchmark, not a test:

    python -m coach.tools.benchmarks.card_editor
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

from coach.notation import card as card_module
from coach.notation.card import HOUSE_CARD, MAX_LINES, parse_card
from coach.tools.benchmarks.card_cost import forget_cards
from coach.web.shared.cards import editor as card_editor

RACK = "1D 1D 2D 3D N N E E WD WD F F J"


def best_ms(work: Callable[[], object], times: int = 5) -> float:
    spent = []
    for _ in range(times):
        forget_cards()  # no card read or refused before: as when a teacher types a new character
        start = time.perf_counter()
        work()
        spent.append(time.perf_counter() - start)
    return min(spent) * 1000


def main() -> None:
    house = HOUSE_CARD.read_text(encoding="utf-8")
    # One suit, any 5 consecutive numbers: 3 suits x 5 shifts = 15 hands a line, 3,000 in all (the cap).
    at_caps = "name: at the caps\nsections:\n  - name: runs\n    hands:\n" + "".join(
        f"      - {{id: R{i}, pattern: '11a 222a 3333a 444a 55a', value: 25, numbers: any}}\n" for i in range(MAX_LINES)
    )
    broken = house.replace("value: 25", "value: -1", 5)
    for text in (house, at_caps, broken):
        try:
            card = parse_card(text)
            label = f"{card.name}: {len(card.lines)} lines, {sum(len(line.readings) for line in card.lines)} hands"
        except card_module.CardError as error:
            label = f"a card with {error.total} problems"
        preview = best_ms(functools.partial(card_editor.preview, text))
        rack = best_ms(functools.partial(card_editor.try_rack, text, RACK))
        print(f"{label}: preview {preview:.0f} ms, try a rack {rack:.0f} ms")


if __name__ == "__main__":
    main()

"""What one card request costs the server (issue 26): the crafted card, the
cards at each cap of docs/card-format.md, and a plain small card, each
sent as the card editor's preview and save and as an upload (my cards).
Prints each request's CPU, its ratio to the plain card's in the same run,
the preview's bytes out against the text's bytes in, and the card parses
the request did; asserts nothing.

    python -m coach.tools.benchmarks.card_cost [--rounds 3]

CPU is `time.process_time()` around one request through the Flask test
client, median of the rounds, every card cache emptied first (a card
never seen); "again" is the same refused card sent a second time, which
must cost no parse. The goal: every request under 0.5 s of CPU.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import tempfile
import time
from collections.abc import Callable

from coach.common import settings
from coach.notation import card as card_module
from coach.notation.card import MAX_ASKED, MAX_ASKED_PER_LINE, MAX_CARD_BYTES, MAX_FORMS, MAX_LINES, MAX_PATTERN

GOAL_SECONDS = 0.5  # CPU per card request (issue 26's Done-when)
PASSWORD = "correct horse battery"
META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')

# Twelve different 4-tile tails: with them a form's readings never repeat another form's.
TAILS = ("N E W S", "N E W F", "N E S F", "N W S F", "E W S F", "N E W R",
         "N E W G", "N E S R", "N E S G", "N W S R", "N W S G", "E W S R")


def card_text(name: str, hands: list[str], sections: int = 1) -> str:
    """A card of `hands` (each one YAML flow mapping) in `sections` sections."""
    out = [f'name: "{name}"', "year: 2026", "sections:"]
    per = -(-len(hands) // sections)
    for s in range(sections):
        out.append(f'  - name: "S{s + 1}"\n    hands:')
        out.extend(f"      - {h}" for h in hands[s * per : (s + 1) * per])
    return "\n".join(out) + "\n"


def _forms(forms: list[str]) -> str:
    return "[" + ", ".join(f'"{f}"' for f in forms) + "]"


def crafted(lines: int = 16) -> str:
    """The repro: `lines` lines of 12 forms no tile set can make (five single
    1s of one suit), each form read in 27 suit assignments x 9 shifts:
    2,916 tries a line before the caps of issue 26, 0 readings kept."""
    forms = _forms([f"1a 1a 1a 1a 1a 1b 1b 1c 1c F {tail}" for tail in TAILS])
    hands = [f'{{id: "L{n}", pattern: {forms}, value: 25, numbers: any, suits: [1, 2, 3]}}' for n in range(1, lines + 1)]
    return card_text("Crafted", hands)


def crafted_at_the_line_cap() -> str:
    """The crafted card made to pass the per-line cap: 12 unmakeable forms of
    27 suit assignments x 3 shifts (972 tries a line), as many lines as
    64 KB holds: only the card's own budget (MAX_ASKED) stops it."""
    forms = _forms([f"1a 1a 1a 1a 1a 1b 1b 1c 1c F {tail}" for tail in TAILS])
    hand = '{{id: "L{n}", pattern: {forms}, value: 25, numbers: [0, 1, 2], suits: [1, 2, 3]}}'
    hands: list[str] = []
    while len(card_text("Crafted at the line cap", hands).encode()) < MAX_CARD_BYTES - 2048 and len(hands) < MAX_LINES:
        hands.append(hand.format(n=len(hands) + 1, forms=forms))
    return card_text("Crafted at the line cap", hands)


def most_lines() -> str:
    """MAX_LINES lines of one suit, any 5 consecutive numbers: 15 hands a line, 3,000 in all."""
    hands = [f"{{id: R{n}, pattern: '11a 222a 3333a 444a 55a', value: 25, numbers: any}}" for n in range(1, MAX_LINES + 1)]
    return card_text("Most lines", hands, sections=25)


def most_forms() -> str:
    """Lines of MAX_FORMS forms each (kongs of two winds or dragons, any number), 324 hands a line."""
    honours = "NEWSRG0"
    pairs = [(x, y) for i, x in enumerate(honours) for y in honours[i + 1 :]][:MAX_FORMS]
    forms = _forms([f"FF 1111a {x * 4} {y * 4}" for x, y in pairs])
    hands = [f'{{id: "F{n}", pattern: {forms}, value: 30, numbers: any}}' for n in range(1, 10)]
    return card_text("Most forms", hands)


def longest_patterns() -> str:
    """MAX_LINES lines whose pattern is MAX_PATTERN characters (decoration pads it)."""
    body = "1a 2a 3a 4a 5a 6a 7a 8a 9a N E W S F"
    pattern = body + (" +" * MAX_PATTERN)[: MAX_PATTERN - len(body)]
    hands = [f'{{id: "P{n}", pattern: "{pattern}", value: 25}}' for n in range(1, MAX_LINES + 1)]
    return card_text("Longest patterns", hands, sections=20)


def most_readings_per_line() -> str:
    """Lines of 567 hands each (MAX_READINGS_PER_LINE is 600): kongs of three
    consecutive numbers in 1, 2 or 3 suits (27 x 7 shifts) and a pair of winds."""
    forms = _forms([f"1111a 2222b 3333c {w}{w}" for w in "NEW"])
    hands = [f'{{id: "M{n}", pattern: {forms}, value: 50, numbers: any, suits: [1, 2, 3]}}' for n in range(1, 6)]
    return card_text("Most readings a line", hands)


def most_asked() -> str:
    """A card that reads but asks close to MAX_ASKED tries: lines of four forms,
    two no set can make, in 27 suit assignments x 9 shifts."""
    forms = _forms(["11a 11a 11a 11b 11c N E W S", "11a 11a 11a 11b 11c N E W F",
                    "11a 11b 11c 22a 22b 22c NN", "11a 11b 11c 22a 22b 22c EE"])
    hands = [f'{{id: "A{n}", pattern: {forms}, value: 50, numbers: any, suits: [1, 2, 3]}}'
             for n in range(1, MAX_ASKED // MAX_ASKED_PER_LINE + 2)]
    return card_text("Most asked", hands)


def most_bytes() -> str:
    """A card that reads, just under MAX_CARD_BYTES: long notes on many lines."""
    note = ("Any 3 suits, kongs of like numbers " * 10)[:300]
    hand = '{{id: "B{n}", pattern: "NNNN EEEE WWW SSS", value: 25, note: "{note}"}}'
    hands: list[str] = []
    while len(hands) < MAX_LINES and len(card_text("Most bytes", hands + [hand]).encode()) < MAX_CARD_BYTES - 2048:
        hands.append(hand.format(n=len(hands) + 1, note=note))
    return card_text("Most bytes", hands, sections=10)


PLAIN = card_text("Plain", ['{id: "E-1", pattern: "222a 444a 6666a 8888a", value: 25}',
                            '{id: "E-2", pattern: "FF 2222a 44b 66c 8888a", value: 25}'])

CARDS: dict[str, Callable[[], str]] = {
    "crafted 16 x 12": crafted,
    "crafted at the line cap": crafted_at_the_line_cap,
    "most lines": most_lines,
    "most forms": most_forms,
    "longest patterns": longest_patterns,
    "most readings a line": most_readings_per_line,
    "most asked": most_asked,
    "most bytes": most_bytes,
}


def forget_cards() -> None:
    """Every card cache of this process emptied: the next request reads its card anew."""
    card_module._PARSED.clear()
    card_module._REFUSED.clear()


def _csrf(client) -> str:
    match = META.search(client.get("/rules").get_data(as_text=True))
    assert match, "no CSRF meta tag"
    return match.group(1)


def _renamed(text: str, n: int) -> str:
    """The card under a name of its own: a saved card's name is taken after."""
    return re.sub(r'^name: "([^"]*)"', lambda m: f'name: "{m.group(1)} {n}"', text, count=1, flags=re.M)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ[settings.DATA_DIR.name] = folder
        for limit in (settings.LIMIT_CARD_EDITOR_LEARNER, settings.LIMIT_CARD_EDITOR_ADDRESS,
                      settings.LIMIT_CARD_UPLOAD_LEARNER):
            os.environ[limit.name] = "1000000/minute"
        from coach.web import create_app

        app = create_app({"TESTING": True, "SECRET_KEY": "bench"})
        client = app.test_client()
        token = _csrf(client)
        assert client.post("/signup", data={"csrf_token": token, "email": "cards@example.org", "password": PASSWORD}).status_code == 303
        token = _csrf(client)
        htmx = {"HX-Request": "true"}
        requests: dict[str, Callable[[str], object]] = {
            "preview": lambda text: client.post("/account/cards/editor/preview", data={"csrf_token": token, "card_text": text}, headers=htmx, content_type="multipart/form-data"),
            "save": lambda text: client.post("/account/cards/editor/save", data={"csrf_token": token, "card_text": text}, content_type="multipart/form-data"),
            "upload": lambda text: client.post("/account/cards", data={"csrf_token": token, "card_text": text}, content_type="multipart/form-data"),
        }
        texts = {"plain": lambda: PLAIN, **CARDS}
        rows = []
        serial = 0
        for label, make in texts.items():
            base_text = make()
            for kind, send in requests.items():
                spent, parses, again, again_parses, out = [], 0, [], 0, 0
                status = 0
                for _round in range(args.rounds):
                    serial += 1
                    text = _renamed(base_text, serial) if kind != "preview" else base_text
                    forget_cards()
                    before = card_module.WORK.parsed
                    start = time.process_time()
                    response = send(text)
                    spent.append(time.process_time() - start)
                    parses = card_module.WORK.parsed - before
                    status = response.status_code  # type: ignore[attr-defined]
                    out = len(response.get_data())  # type: ignore[attr-defined]
                    if status == 422 or kind == "preview":  # the same text again: remembered
                        before = card_module.WORK.parsed
                        start = time.process_time()
                        send(text)
                        again.append(time.process_time() - start)
                        again_parses = card_module.WORK.parsed - before
                rows.append((label, kind, len(base_text.encode()), status, statistics.median(spent), parses,
                             statistics.median(again) if again else None, again_parses, out))
        base = {kind: cpu for label, kind, _, _, cpu, *_ in rows if label == "plain"}
        print(f"card requests, CPU per request (median of {args.rounds}); goal: under {GOAL_SECONDS} s each")
        print(f"{'card':<24} {'request':<8} {'KB in':>6} {'status':>6} {'CPU ms':>8} {'x plain':>8} {'parses':>6} "
              f"{'again ms':>9} {'again parses':>12} {'KB out':>7} {'out/in':>6}")
        worst = 0.0
        for label, kind, size, status, cpu, parses, again_cpu, again_parses, out in rows:
            worst = max(worst, cpu, again_cpu or 0.0)
            again_text = f"{again_cpu * 1000:9.1f}" if again_cpu is not None else f"{'-':>9}"
            print(f"{label:<24} {kind:<8} {size / 1024:6.1f} {status:>6} {cpu * 1000:8.1f} {cpu / base[kind]:8.1f} "
                  f"{parses:>6} {again_text} {again_parses if again_cpu is not None else '-':>12} {out / 1024:7.1f} "
                  f"{out / size:6.1f}")
        print(f"worst request: {worst * 1000:.0f} ms CPU; under {GOAL_SECONDS} s: {'met' if worst < GOAL_SECONDS else 'not met'}")


if __name__ == "__main__":
    main()

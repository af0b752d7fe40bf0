"""What the card choice costs a drill page (issue 14, part 2): prints times, asserts nothing.

    python -m coach.tools.benchmarks.card_choice [--rounds 5] [--pages 40] [--drill name-the-tile]

The same drill page (level 1, the same seeds; questions cached after the first round), fetched in
turns through the Flask test client on a throwaway SQLite file by a
visitor (no database read), an account on the house card (the choice is
read: one row, plus the picker's list) and an account on its own card
(the choice, the card checked and parsed once, then cached). Rounds run
interleaved; each prints the median and min per page and the ratio to
the visitor's in the same round.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import tempfile
import time

from coach.common import settings

PASSWORD = "correct horse battery"
# A teacher's card of its own: two lines on evens.
OWN_CARD = """name: "Spring class"
year: 2026
sections:
  - name: "Evens"
    hands:
      - id: "E-1"
        pattern: "222a 444a 6666a 8888a"
        value: 25
        concealed: false
        numbers: fixed
        note: "One suit"
      - id: "E-2"
        pattern: "FF 2222a 44b 66c 8888a"
        value: 25
        concealed: false
        numbers: fixed
        note: "Any 3 suits"
"""
META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


def csrf(client) -> str:
    """The session's CSRF token, as a page carries it in its meta tag."""
    match = META.search(client.get("/rules").get_data(as_text=True))
    assert match, "no CSRF meta tag"
    return match.group(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--drill", default="name-the-tile")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ[settings.DATA_DIR.name] = folder
        os.environ[settings.LIMIT_DRILL_LEARNER.name] = "1000000/minute"
        os.environ[settings.LIMIT_DRILL_ADDRESS.name] = "1000000/minute"
        from coach.web import create_app

        app = create_app({"TESTING": True, "SECRET_KEY": "bench"})
        clients = {"visitor": app.test_client()}
        accounts = [("account, house card", False)]
        if "my_cards.upload" in app.view_functions:  # a tree before own cards measures the account alone
            accounts.append(("account, own card", True))
        for who, own in accounts:
            client = app.test_client()
            token = csrf(client)
            email = f"{'own' if own else 'house'}@example.org"
            assert client.post("/signup", data={"csrf_token": token, "email": email, "password": PASSWORD}).status_code == 303
            if own:
                sent = client.post("/account/cards", data={"csrf_token": csrf(client), "card_text": OWN_CARD, "use": "yes"})
                assert sent.status_code == 303
            clients[who] = client
        times: dict[str, list[float]] = {who: [] for who in clients}
        for _round in range(args.rounds):
            for who, client in clients.items():
                start = time.perf_counter()
                for seed in range(args.pages):
                    assert client.get(f"/drills/{args.drill}?level=1&seed={seed}").status_code == 200
                times[who].append((time.perf_counter() - start) / args.pages)
        base = statistics.median(times["visitor"])
        print(f"drill page ({args.drill}, level 1), {args.rounds} rounds of {args.pages} pages each")
        print(f"{'who':<22} {'median':>9} {'min':>9} {'x visitor':>10}")
        for who, seconds in times.items():
            median = statistics.median(seconds)
            print(f"{who:<22} {median * 1000:8.2f}ms {min(seconds) * 1000:8.2f}ms {median / base:10.2f}")


if __name__ == "__main__":
    main()

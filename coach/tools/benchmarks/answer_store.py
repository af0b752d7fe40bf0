"""What storing a drill answer costs beside the bare route (issue 26): the CPU
of loading the learner and storing one graded answer, and of the whole answer
request, each against a bare `/healthz` request in the same process. Prints
each one's CPU and its ratio to `/healthz`; asserts nothing.

    python -m coach.tools.benchmarks.answer_store [--rounds 7] [--answers 200] [--drill name-the-tile]

One guest (made by a first answer, kept by its cookies, as `coach load`'s
clients are) answers fresh questions at random levels with `load`'s
answers; every question is dealt and graded before the clock starts. Each
round measures, one after another:

- `/healthz`: the bare route through Flask's test client, with no cookie;
- `context`: a request context with the guest's cookies, and nothing in it;
- `learner`: the same, and the learner Flask-Login loads for it (the
  session check);
- `store`: the same, then `learners.record` (the learner as loaded, the
  answer and its skills' schedules written in one transaction);
- `answer`: POST /api/drills/<drill>/answers through the test client
  (the body read, the token checked, the answer graded and stored).

The kinds take turns, 20 operations of each at a time, so that the
machine's load falls on all of them alike. CPU is `time.process_time()`,
a mean per operation over a round; the figures are the medians of the
rounds, and each ratio the median of the rounds' ratios to their own
`/healthz`.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable

from coach.common import settings
from coach.tools.load import _answer_for
from drills.kit.base import Question, Verdict

BLOCK = 20  # operations of one kind in a row
LIFTED = (settings.LIMIT_DRILL_LEARNER, settings.LIMIT_DRILL_ADDRESS, settings.LIMIT_FIRST_PASS_ADDRESS)


def cpu_of(block: range, run: Callable[[int], object]) -> float:
    """CPU seconds of `run(i)` for each i of the block."""
    start = time.process_time()
    for i in block:
        run(i)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--answers", type=int, default=200, help="operations of each kind a round")
    parser.add_argument("--drill", default="name-the-tile")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ[settings.DATA_DIR.name] = folder
        os.environ.update(dict.fromkeys((limit.name for limit in LIFTED), "1000000/minute"))
        import drills
        from coach.web import create_app
        from coach.web.shared import learners

        app = create_app({"TESTING": True, "SECRET_KEY": "bench"})
        drilling = app.extensions["coach"]
        levels = len(drills.get(args.drill).LEVELS)
        rng = random.Random(26)
        bare = app.test_client()
        client = app.test_client()
        url = f"/api/drills/{args.drill}/answers"

        def asked() -> tuple[str, object]:
            """A fresh question's token, and load's answer to it."""
            with app.app_context():
                question = drilling.ask(args.drill, seed=rng.randrange(10**9), level=rng.randint(1, levels))
            return question.token, _answer_for(args.drill, question.question.public(), rng)

        def graded() -> tuple[Question, Verdict]:
            token, answer = asked()
            with app.app_context():
                question, verdict = drilling.grade(args.drill, token, answer)
            return question.question, verdict

        token, answer = asked()
        assert client.post(url, json={"token": token, "answer": answer}).get_json()["counted"]  # makes the guest
        cookies = "; ".join(f"{c.key}={c.value}" for c in (client._cookies or {}).values())  # its session and remember cookies

        def in_request(work: Callable[[], object]) -> object:
            with app.test_request_context(url, method="POST", headers={"Cookie": cookies}):
                return work()

        def one_round() -> dict[str, float]:
            answers = [graded() for _ in range(args.answers)]
            bodies = [dict(zip(("token", "answer"), asked(), strict=True)) for _ in range(args.answers)]
            counted: list[object] = []
            kinds: dict[str, Callable[[int], object]] = {
                "/healthz": lambda i: bare.get("/healthz"),
                "context": lambda i: in_request(lambda: None),
                "learner": lambda i: in_request(learners.current_user._get_current_object),
                "store": lambda i: counted.append(in_request(lambda: learners.record(*answers[i], 1000))),
                "answer": lambda i: counted.append(client.post(url, json=bodies[i]).get_json()["counted"]),
            }
            spent = dict.fromkeys(kinds, 0.0)
            for start in range(0, args.answers, BLOCK):  # kinds taken in turns: the machine's load falls on all alike
                block = range(start, min(start + BLOCK, args.answers))
                for label, run in kinds.items():
                    spent[label] += cpu_of(block, run)
            assert all(counted) and len(counted) == 2 * args.answers, "every question is fresh: each answer counts"
            return {label: total / args.answers for label, total in spent.items()}

        rounds = [one_round() for _ in range(args.rounds)]
        print(f"{args.drill}: {args.rounds} rounds of {args.answers} of each, CPU an operation: median of the rounds (range), "
              "and the median of each round's ratio to its /healthz")
        for label in rounds[0]:
            values = [spent[label] for spent in rounds]
            ratio = statistics.median(spent[label] / spent["/healthz"] for spent in rounds)
            spread = f"{min(values) * 1000:.3f}-{max(values) * 1000:.3f}"
            print(f"  {label:9} {statistics.median(values) * 1000:6.3f} ms ({spread})  {ratio:5.2f}x /healthz")
        for label, (more, less) in {
            "the learner's load (learner - context)": ("learner", "context"),
            "the answer's store (store - learner)": ("store", "learner"),
            "loading and storing (store - context)": ("store", "context"),
        }.items():
            paired = [spent[more] - spent[less] for spent in rounds]
            ratio = statistics.median((spent[more] - spent[less]) / spent["/healthz"] for spent in rounds)
            print(f"  {label:40} {statistics.median(paired) * 1000:6.3f} ms  {ratio:5.2f}x /healthz")

if __name__ == "__main__":
    main()

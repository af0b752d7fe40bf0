"""`python -m coach.tools.speed_page [bench options]`: docs/speed.md's goals section, from `coach bench`.

Runs `python -m coach bench` with the options given, and writes what it
printed (the figures and the table of issue 26's goals) between the two
markers of docs/speed.md, with the command, the time and the load average.
The page's figures are then what the bench printed, never copied by hand
(`make speed-page`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

BEGIN = "<!-- bench: begin (written by python -m coach.tools.speed_page; do not edit by hand) -->"
END = "<!-- bench: end -->"
PAGE = Path(__file__).parents[2] / "docs" / "speed.md"


def section(command: str, printed: str, when: str, load: str) -> str:
    """The generated section: how it was made, the figures as printed, then the goals' table."""
    figures, _, goals = printed.partition("\nGoals of issue 26")
    return (
        f"Measured {when} with `{command}`, load average {load} when it began "
        "(2 cores shared with other work: read the ratios, not the times).\n\n"
        f"```\n{figures.strip()}\n```\n\n"
        + (f"Goals of issue 26{goals.rstrip()}\n" if goals else "")
    )


def replace_section(page: str, text: str) -> str:
    """The page with its generated section replaced (or added at the end when it has none)."""
    if BEGIN in page and END in page:
        head, _, rest = page.partition(BEGIN)
        _, _, tail = rest.partition(END)
        return f"{head}{BEGIN}\n{text}{END}{tail}"
    return f"{page.rstrip()}\n\n{BEGIN}\n{text}{END}\n"


def main(argv: list[str]) -> int:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    done = subprocess.run([sys.executable, "-m", "coach", "bench", *argv], capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):  # 1: the fast tables disagreed with the baseline, which the page must show too
        sys.stderr.write(done.stderr)
        return done.returncode
    command = " ".join(["python -m coach bench", *argv])
    PAGE.write_text(replace_section(PAGE.read_text(encoding="utf-8"), section(command, done.stdout, when, load)), encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

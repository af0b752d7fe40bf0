"""Running the command line in-process and reading what it prints."""

from __future__ import annotations

import io
import json

from coach import cli


def run_json(argv: list[str], stdin_text: str = "") -> dict:
    code, out = run(argv, stdin_text)
    assert code == 0, out
    lines = out.splitlines()
    assert len(lines) == 1, out
    return json.loads(lines[0])


def run(argv: list[str], stdin_text: str = "") -> tuple[int, str]:
    """main() in-process: (exit status, standard output)."""
    out = io.StringIO()
    code = cli.main(argv, stdin=io.StringIO(stdin_text), stdout=out)
    return code, out.getvalue()

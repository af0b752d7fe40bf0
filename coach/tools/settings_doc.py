"""docs/settings.md, rendered from the settings' own declarations.

    python -m coach.tools.settings_doc            # writes docs/settings.md
    python -m coach.tools.settings_doc OUT.md     # writes elsewhere

Each setting is declared once, in coach.common.settings; this page is only
ever made from there (tests/test_settings.py checks the committed page
equals what this renders), so it never goes stale.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from coach.common.settings import HTTPS, SETTINGS, Setting

DOC = Path(__file__).resolve().parents[2] / "docs" / "settings.md"

INTRO = f"""\
# Settings

<!-- Made by `python -m coach.tools.settings_doc` from coach/common/settings.py: edit there, not here. -->

Every setting is an environment variable, and every one is optional. The
web app reads them all when it starts (`create_app`), and stops at once,
with one line naming each malformed one, when a value cannot be read; a
command that needs one setting reads that one only. An empty value (or
only spaces) is the same as none: the default. In tests, the configuration given to
`create_app` overrides the environment (`create_app({{"{HTTPS.name}": True}})`).
A setting marked secret is never shown back in a message.

A switch is `1` or `0` (also true/false, yes/no, on/off). A rate limit is
Flask-Limiter's notation, such as `10/minute` or `20/minute;200/hour`;
coach/web/infra/limits.py says why each default is what it is.
"""


def _default(setting: Setting[Any]) -> str:
    value = setting.default
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "`1`" if value else "`0`"
    return f"`{value}`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render(settings: Sequence[Setting[Any]] = SETTINGS) -> str:
    """The whole page, in the settings' declared order."""
    lines = [INTRO, "| Setting | Default | Meaning | Used by |", "| --- | --- | --- | --- |"]
    for setting in settings:
        meaning = ("Secret. " if setting.secret else "") + setting.meaning
        readers = ", ".join(f"`{reader}`" for reader in setting.used_by)
        lines.append(f"| `{setting.name}` | {_default(setting)} | {_cell(meaning)} | {_cell(readers)} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    out = Path(args[0]) if args else DOC
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(), encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

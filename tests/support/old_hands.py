"""A practice hand stored before the blind pass was made right (issue 24, C5),
and the migration that rewrites such records (0014_blind_pass)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# Played by the engine before issue 24 (its blind passes forwarded tiles
# already in the rack), with its final racks and floor, to replay against.
OLD_HAND = ROOT / "tests" / "data" / "old-blind-pass-hand.json"
MIGRATION = ROOT / "coach" / "store" / "migrations" / "versions" / "0014_blind_pass.py"


def old_hand() -> dict[str, Any]:
    return dict(json.loads(OLD_HAND.read_text()))


def migration() -> ModuleType:
    spec = importlib.util.spec_from_file_location("blind_pass_migration", MIGRATION)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

"""The shape every rule decision of the core returns: what was decided, the
rule id that decides it, and the facts behind it, so a drill can explain a
verdict without deciding anything itself (coach/rules/calls.py, dead.py,
exchange.py, table.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Ruling:
    """`decision` by rule `rule`; `facts` name what the decision rests on."""

    decision: Any
    rule: str
    facts: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __bool__(self) -> bool:
        return bool(self.decision)

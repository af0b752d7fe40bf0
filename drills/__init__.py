"""The drills, in teaching order.

Each drill is a module following the protocol of `drills/base.py`
(NAME, TITLE, LEVELS, generate, grade). The web app and the API list
them in the order of `DRILLS`: first the tiles, then reading a rack
against the card, then the first Charleston pass.
"""

from __future__ import annotations

from types import ModuleType

from drills import first_pass, name_the_tile, nearest_hand

_TEACHING_ORDER: tuple[ModuleType, ...] = (
    name_the_tile,
    nearest_hand,
    first_pass,
)

DRILLS: dict[str, ModuleType] = {module.NAME: module for module in _TEACHING_ORDER}


def get(name: str) -> ModuleType:
    """The drill module called `name`; KeyError naming the known drills otherwise."""
    try:
        return DRILLS[name]
    except (KeyError, TypeError):
        known = ", ".join(DRILLS)
        raise KeyError(f'there is no drill "{name}" (drills: {known})') from None

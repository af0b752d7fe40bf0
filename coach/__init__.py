"""Mahjong Coach: a trainer for American mahjong (National Mah Jongg League rules).

The core (tiles, card, tiles_away, analysis, mahjong, rules) is pure
Python over numpy and PyYAML, with no web or database code.
"""

__version__ = "0.1.0"

"""Hands that read as more than one line of a card, one of them paying most
(H5): what payment's level 4 bills and mahjong-or-not's level 3 asks about.

Found once per card by one search over every reading of every line, with the
fewest jokers each set of lines can be read together with; drills pick among
them with `drills.kit.deal.by_jokers`, so a hand holds as many jokers as a
real table sees. Moved here from the payment drill so that both drills share
one search (drills never import each other)."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from coach.notation import tiles
from coach.notation.card import Card
from coach.reading.tiles_away import tables_for
from coach.rules.mahjong import pay

_MULTI: dict[int, tuple[Card, tuple[tuple[int, ...], ...]]] = {}
_MULTI_LOCK = threading.Lock()


def multi_reading_hands(card: Card) -> tuple[tuple[int, ...], ...]:
    """Concealed hands (count vectors) that complete two or more lines paying different amounts.

    Every reading of every line is tried with each way of putting jokers in
    its groups of three or more (each group keeping a natural tile); for each
    set of lines read together, the hands with the fewest jokers are kept.
    """
    with _MULTI_LOCK:
        cached = _MULTI.get(id(card))
        if cached is not None and cached[0] is card:
            return cached[1]
    found = _search_multi(card)
    with _MULTI_LOCK:
        _MULTI[id(card)] = (card, found)
    return found


def _joker_variants(reading_groups: Sequence[Any]) -> list[list[int]]:
    small = [g for g in reading_groups if g.size < 3]
    big = [g for g in reading_groups if g.size >= 3]
    rows = []
    for kept in itertools.product(*[range(1, g.size + 1) for g in big]):
        row = [0] * tiles.KINDS
        for g in small:
            row[g.tile] += g.size
        for g, k in zip(big, kept):
            row[g.tile] += k
            row[tiles.JOKER] += g.size - k
        if row[tiles.JOKER] <= tiles.COPIES[tiles.JOKER] and all(
            row[t] <= tiles.COPIES[t] for t in range(tiles.NATURALS)
        ):
            rows.append(row)
    return rows


_COPIES = np.array(tiles.COPIES, dtype=np.int16)


def _joker_variant_rows(reading_groups: Sequence[Any]) -> np.ndarray:
    """`_joker_variants` as one (variants, KINDS) array, in the same order:
    every way of keeping 1..size naturals in each group of three or more at
    once, instead of a Python row and check each (issue 13: the card's
    search ran 1.2 s on a server's first level-4 question)."""
    base = np.zeros(tiles.KINDS, dtype=np.int16)
    big = []
    for g in reading_groups:
        if g.size < 3:
            base[g.tile] += g.size
        else:
            big.append(g)
    if not big:
        rows = base[None, :].copy()
    else:
        kept = np.indices([g.size for g in big]).reshape(len(big), -1).T + 1  # itertools.product's order
        rows = np.repeat(base[None, :], len(kept), axis=0)
        for j, g in enumerate(big):
            rows[:, g.tile] += kept[:, j]
            rows[:, tiles.JOKER] += g.size - kept[:, j]
    return rows[(rows <= _COPIES).all(axis=1)]


def _search_multi(card: Card) -> tuple[tuple[int, ...], ...]:
    table = tables_for(card)
    parts = [_joker_variant_rows(reading.groups) for line in card.lines for reading in line.readings]
    racks = np.concatenate(parts) if parts else np.zeros((0, tiles.KINDS), dtype=np.int16)
    if not len(racks):
        return ()
    best: dict[tuple[int, ...], tuple[int, list[tuple[int, ...]]]] = {}
    for start in range(0, len(racks), 4096):
        distances = table.batch_line_distances(racks[start : start + 4096])
        for i in np.flatnonzero((distances == 0).sum(axis=1) > 1):
            key = tuple(int(n) for n in np.flatnonzero(distances[i] == 0))
            row = tuple(int(c) for c in racks[start + i])
            jokers = row[tiles.JOKER]
            kept = best.get(key)
            if kept is None or jokers < kept[0]:
                best[key] = (jokers, [row])
            elif jokers == kept[0] and row not in kept[1]:
                kept[1].append(row)
    hands = []
    for key in sorted(best):
        rows_kept = best[key][1]
        jokerless = rows_kept[0][tiles.JOKER] == 0
        totals = sorted((pay(card.lines[n], "discard", jokerless)[2] for n in key), reverse=True)
        if totals[0] != totals[1]:  # otherwise no line pays more, and H5 decides nothing
            hands += sorted(rows_kept)
    return tuple(hands)



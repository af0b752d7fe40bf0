"""`analyze --json` lean: only the fields asked for (`--fields`), only the
nearest lines (`--top N`), many racks ranked at once (issue 13).

The answer is always the full answer cut down: the same lines in the same
order with the same values, only fewer keys or fewer lines; tests hold the
two equal. Racks without exposures are ranked together by
`CardTables.batch_rank` in chunks, racks with exposures together by
`tiles_away.batch_rank_exposed` (issue 26: the bar's mix is half exposed). The lines that show a reading, the tiles
used, missing or unused are explained by the same `LineResult.to_json`
as the full answer, only for the lines shown. Output is orjson, written
a chunk at a time, not flushed a line at a time.
"""

from __future__ import annotations

import argparse
import gc
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, TextIO, cast

import numpy as np
import orjson

from coach.cli.requests import BATCH_ERRORS, UsageError, checked_request, error_reply, request_holding
from coach.notation import tiles
from coach.reading.holding import OUT_OF_REACH, Exposure, Holding
from coach.reading.ranking import BatchRanking, FitCache, RankTables, batch_rank_exposed, shown_by_rack

if TYPE_CHECKING:  # a lean batch (ranked fields only) loads neither the card module nor the analysis (issue 26)
    from coach.notation.card import Card
    from coach.reading.analysis import Analysis
    from coach.reading.explained import Explainer
    from coach.reading.tiles_away import CardTables

# The keys of each line in the full answer (LineResult.to_json), in its order;
# "reason" is there only for a line out of reach.
FIELDS = (
    "id", "section", "distance", "value", "concealed", "note", "pattern",
    "dead", "live_outs", "reading", "uses", "missing", "unused", "reason",
)
# Fields known without explaining the line (no fill of its reading).
RANKED_FIELDS = frozenset(FIELDS[:9])
_DYNAMIC = ("distance", "dead", "live_outs")  # the rack's own; the rest are the line's
_DISTANCE = [str(d) for d in range(OUT_OF_REACH)] + ["null"]  # OUT_OF_REACH is shown as null
_BOOL = ("false", "true")
_PIECE_DISTANCES = 16  # distances 0-14, and OUT_OF_REACH last (tiles_away.HAND_SIZE is 14)
KEYS = frozenset({"rack", "exposed", "seen"})
CHUNK = 512  # lines read together: the arrays stay in the cache (issue 13: 2,048 was 3x slower; issue 26: 512
# is faster than 256 on the bar's mix, half of them bare racks, and no slower on bare racks alone)


def parse_fields(text: str | None) -> tuple[str, ...] | None:
    """`--fields id,distance` as a tuple in the full answer's order; None for all."""
    if text is None:
        return None
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in FIELDS]
    if unknown or not names:
        what = f'unknown field "{unknown[0][:40]}"' if unknown else "--fields names no field"
        raise UsageError(f"{what} (fields: {', '.join(FIELDS)})")
    return tuple(f for f in FIELDS if f in names)


def project(answer: dict, fields: Sequence[str] | None, top: int | None) -> dict:
    """The full answer cut down to `top` lines and `fields` keys."""
    hands = answer["hands"] if top is None else answer["hands"][:top]
    if fields is not None:
        hands = [{k: hand[k] for k in fields if k in hand} for hand in hands]
    return {"card": answer["card"], "hands": hands}


def _analysis_answer(result: Analysis, fields: Sequence[str] | None, top: int | None) -> dict:
    lines = result.lines if top is None else result.lines[:top]
    return project({"card": result.card.name, "hands": [r.to_json() for r in lines]}, fields, None)


class _Ranked:
    """Answers for racks ranked by `batch_rank`, line by line as `to_json` would.
    Explaining lines (a field beyond RANKED_FIELDS) needs the card's own
    tables (`CardTables`: its lines and readings); the ranked fields need
    only the rank tables."""

    def __init__(self, tables: RankTables, fields: Sequence[str] | None, top: int | None):
        self.tables = tables
        self.fields = fields
        self.top = top
        self.explain = fields is None or not RANKED_FIELDS.issuperset(fields)
        self.dynamic = tuple(k for k in fields or () if k in _DYNAMIC)
        self.dead_shown = "dead" in self.dynamic  # else a piece is the same alive or dead: one, not two
        self.head = '{"card":' + orjson.dumps(tables.card_name).decode() + ',"hands":['
        self.fits: FitCache = {}  # the readings each set of exposures fits, for the whole run
        self.static = tables.line_fields

    def answer(self, ranking: BatchRanking, row: int, holding: Holding) -> dict | str:
        """The answer as a dict, or as JSON text already (ranked fields only)."""
        order = ranking.order[row].tolist()
        if self.top is not None:
            order = order[: self.top]
        distance = ranking.distance[row].tolist()
        outs = ranking.live_outs[row].tolist()
        dead = ranking.dead[row].tolist()
        if self.explain:
            from coach.reading.analysis import LineResult

            best = ranking.best[row].tolist()
            card_tables = cast("CardTables", self.tables)  # run_analyze gives them when lines are explained
            lines, readings = card_tables.lines, card_tables.readings
            hands = []
            bare = not holding.exposures  # a bare rack's reachable lines: the explainer, the same words as to_json
            explainer, rack = self.explainer, holding.rack
            for n in order:
                d = distance[n]
                reachable = d != OUT_OF_REACH
                if bare and reachable:
                    hands.append(explainer.line(lines[n], readings[best[n]], rack, d, dead[n], outs[n]))
                    continue
                r = LineResult(lines[n], d if reachable else None, readings[best[n]] if reachable else None,
                               dead[n], outs[n], holding, n)
                hands.append(r.to_json())
            return project({"card": self.tables.card_name, "hands": hands}, self.fields, None)
        templates = self.templates
        if self.dynamic == ("distance",):  # the commonest: no tuple per line
            text = ",".join([templates[n] % _DISTANCE[distance[n]] for n in order])
        else:
            columns = {"distance": [_DISTANCE[d] for d in distance], "dead": [_BOOL[x] for x in dead], "live_outs": outs}
            picked = [columns[k] for k in self.dynamic]
            text = ",".join([templates[n] % tuple(c[n] for c in picked) for n in order])
        return self.head + text + "]}"

    @cached_property
    def explainer(self) -> Explainer:
        """Every line explained for bare racks, each reading's plan kept for the run (coach.reading.explained)."""
        from coach.reading.explained import Explainer

        return Explainer()

    @cached_property
    def pieces(self) -> list[bytes] | None:
        """Each line's JSON object for every distance and deadness, as bytes at
        (line * 16 + distance) * 2 + dead (distance 15 for out of reach), or
        at line * 16 + distance when deadness is not shown (issue 26: half
        the pieces to make), when those are the only values a rack changes
        (no explanation, no live outs); None otherwise."""
        if self.explain or "live_outs" in self.dynamic:
            return None
        shown = []  # the rack's own values a piece shows, for each (distance, dead) in piece order
        for distance in range(_PIECE_DISTANCES):
            d = distance if distance < _PIECE_DISTANCES - 1 else OUT_OF_REACH
            for dead in (0, 1):
                named = {"distance": _DISTANCE[d], "dead": _BOOL[dead]}
                shown.append(tuple(named[k] for k in self.dynamic))
        if not self.dead_shown:
            shown = shown[::2]
        return [(template % values).encode() for template in self.templates for values in shown]

    @cached_property
    def _line_codes(self) -> np.ndarray:
        return np.arange(self.tables.line_count, dtype=np.intp) * _PIECE_DISTANCES

    def picks(self, ranking: BatchRanking) -> np.ndarray:
        """Each rack's shown lines as indices into `pieces`, nearest first:
        every line's index worked out in card order by array arithmetic,
        then taken in each rack's order in one call (indexing the distance
        and deadness by the order, one element at a time, cost twice as much)."""
        n, lines = ranking.distance.shape
        code = np.minimum(ranking.distance, _PIECE_DISTANCES - 1).astype(np.intp)
        code += self._line_codes
        if self.dead_shown:
            code <<= 1
            code |= ranking.dead
        order = ranking.order if self.top is None else ranking.order[:, : self.top]
        return code.ravel().take(order + np.arange(0, n * lines, lines, dtype=np.intp)[:, None])

    def joined(self, picks: np.ndarray) -> list[bytes]:
        """Every rack's answer line (`answer`'s text, with its newline), from its `picks`."""
        assert self.pieces is not None  # answer_lines calls this only when there are pieces
        get = self.pieces.__getitem__
        head, tail = self.head.encode(), b"]}\n"
        return [head + b",".join(map(get, row)) + tail for row in picks.tolist()]

    @cached_property
    def framed(self) -> np.ndarray:
        """Every piece four ways, at `4 * piece + place`: first in its answer
        line (after the head), in the middle, last (with the tail), alone. An
        array of bytes objects: a chunk's picks are taken in one call, not
        one Python lookup a line of a rack (half the time of the join)."""
        head, tail = self.head.encode(), b"]}\n"
        out: list[bytes] = []
        for piece in self.pieces or ():
            out += (head + piece + b",", piece + b",", piece + tail, head + piece + tail)
        return np.fromiter(out, dtype=object, count=len(out))  # no element looked into, as np.array would

    def joined_all(self, picks: np.ndarray) -> bytes:
        """`joined` for every rack, as one text: one join for the whole chunk."""
        width = picks.shape[1]
        if width == 0:  # --top 0: every answer line is the head and the tail
            return b"".join(self.joined(picks))
        place = np.ones(width, dtype=np.intp)
        place[0], place[-1] = 0, 2
        if width == 1:
            place[0] = 3
        at = picks << 2
        at += place
        return b"".join(self.framed.take(at.ravel()).tolist())

    @cached_property
    def templates(self) -> list[str]:
        """Each line's JSON object with %s where a rack's own value goes, in FIELDS order."""
        out = []
        for line in self.static:
            parts = []
            for k in self.fields or ():
                value = "%s" if k in _DYNAMIC else orjson.dumps(line[k]).decode().replace("%", "%%")
                parts.append(f"{orjson.dumps(k).decode()}:{value}")
            out.append("{" + ",".join(parts) + "}")
        return out


_COPIES = tiles.COPIES
_FEWEST = min(_COPIES)
_COPIES_ARRAY = np.array(_COPIES, dtype=np.int16)
_NOTHING_SEEN = (0,) * tiles.KINDS
_INDEX = tiles.INDEX


def _plain_counts(text: object) -> list[int] | None:
    """Counts of tiles written as plain codes ("1D 2D N"), or None for
    anything else, which `_holding` reads (aliases, lists, mistakes)."""
    if not isinstance(text, str):
        return None
    vector = [0] * tiles.KINDS
    for word in text.split():
        index = _INDEX.get(word)
        if index is None:
            return None
        vector[index] += 1
    return vector


def _quick_holding(request: dict) -> tuple[Holding, tuple[int, ...]] | None:
    """The common line, {"rack": "..."} with maybe "seen", read without the
    general parser; None when any check would have something to say, so
    that `_holding` says it in its own words."""
    if "exposed" in request:
        return None
    rack = _plain_counts(request.get("rack"))
    seen_text = request.get("seen")
    if rack is None or sum(rack) not in (13, 14):
        return None
    if seen_text is None:  # the commonest: only the rack to hold within the set (no tile has fewer than 4)
        if max(rack) > _FEWEST and any(r > c for r, c in zip(rack, _COPIES)):
            return None
        return Holding(tuple(rack)), _NOTHING_SEEN
    seen = _plain_counts(seen_text)
    if seen is None or any(r + s > c for r, s, c in zip(rack, seen, _COPIES)):
        return None
    return Holding(tuple(rack)), tuple(seen)


def _quick_exposed(request: dict) -> tuple[Holding, tuple[int, ...]] | None:
    """A line with exposures, {"rack": "...", "exposed": ["5D 5D J"]} and
    maybe "seen", all in plain codes, read without the general parser; None
    when any check would have something to say (`_holding` says it)."""
    exposed = request.get("exposed")
    rack = _plain_counts(request.get("rack"))
    if type(exposed) is not list or not exposed or rack is None:
        return None
    size = sum(rack)
    shown = []
    naturals_shown: dict[int, int] = {}  # exposed naturals by kind, for the set's copies (T1)
    jokers_shown = 0
    for text in exposed:
        if type(text) is not str:
            return None
        words = text.split()
        kinds = set(words)
        kinds.discard("J")
        if len(kinds) != 1 or not 3 <= len(words) <= 6:  # one natural kind, jokers allowed (H2, K2)
            return None
        code = kinds.pop()
        tile = _INDEX.get(code)
        if tile is None:
            return None
        naturals = words.count(code)
        naturals_shown[tile] = naturals_shown.get(tile, 0) + naturals
        jokers_shown += len(words) - naturals
        shown.append(Exposure(tile, len(words), len(words) - naturals))
        size += len(words)
    if size not in (13, 14):
        return None
    seen_text = request.get("seen")
    if seen_text is None:  # the commonest: the rack and the exposures within the set
        if max(rack) > _FEWEST and any(r > c for r, c in zip(rack, _COPIES)):
            return None
        if rack[tiles.JOKER] + jokers_shown > _COPIES[tiles.JOKER]:
            return None
        if any(rack[t] + n > _COPIES[t] for t, n in naturals_shown.items()):
            return None
        return Holding(tuple(rack), tuple(shown)), _NOTHING_SEEN
    seen = _plain_counts(seen_text)
    if seen is None:
        return None
    total = [r + s for r, s in zip(rack, seen)]
    total[tiles.JOKER] += jokers_shown
    for t, n in naturals_shown.items():
        total[t] += n
    if any(t > c for t, c in zip(total, _COPIES)):
        return None
    return Holding(tuple(rack), tuple(shown)), tuple(seen)


def _loads(raw: str) -> object:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)  # the standard library's own message (and its limits) for a bad line


def _chunks(lines: Iterable[str], size: int) -> Iterator[list[str]]:
    chunk: list[str] = []
    for raw in lines:
        if raw.strip():
            chunk.append(raw)
            if len(chunk) == size:
                yield chunk
                chunk = []
    if chunk:
        yield chunk


def _rack_indices(request: object) -> list[int] | None:
    """The commonest line, {"rack": "1D 2D ..."} alone in plain codes: each
    tile's index; None for anything else, which `_quick_holding` or the
    general reader reads (and says what is wrong with, in its own words)."""
    if type(request) is not dict or len(request) != 1:
        return None
    text = request.get("rack")
    if type(text) is not str:
        return None
    words = text.split()
    if len(words) not in (13, 14):
        return None
    try:
        return list(map(_INDEX.__getitem__, words))
    except KeyError:
        return None


_EXPOSURES_READ: dict[str, Exposure | None] = {}  # an exposure's text, read once: a batch repeats a few dozen
_EXPOSURES_KEPT = 4096
_EXPOSED_KEYS = frozenset({"rack", "exposed"})


def _exposure_of(text: str) -> Exposure | None:
    """An exposure written in plain codes ("5D 5D J"), or None for anything
    the general reader has to read or refuse in its own words."""
    if text in _EXPOSURES_READ:
        return _EXPOSURES_READ[text]
    words = text.split()
    kinds = set(words)
    kinds.discard("J")
    found = None
    if len(kinds) == 1 and 3 <= len(words) <= 6:  # one natural kind, jokers allowed (H2, K2)
        code = kinds.pop()
        tile = _INDEX.get(code)
        if tile is not None:
            found = Exposure(tile, len(words), len(words) - words.count(code))
    if len(_EXPOSURES_READ) >= _EXPOSURES_KEPT:
        _EXPOSURES_READ.clear()
    _EXPOSURES_READ[text] = found
    return found


def _exposed_indices(request: object) -> tuple[list[int], tuple[Exposure, ...]] | None:
    """A line {"rack": "...", "exposed": ["5D 5D J", ...]} in plain codes and
    nothing else: each rack tile's index and the exposures, for counting with
    the chunk (the set's copies are checked then, as arrays); None for
    anything else, which `_quick_exposed` or the general reader reads."""
    if type(request) is not dict or request.keys() != _EXPOSED_KEYS:
        return None
    text, exposed = request["rack"], request["exposed"]
    if type(text) is not str or type(exposed) is not list or not exposed:
        return None
    shown = []
    size = 0
    for item in exposed:
        exposure = _exposure_of(item) if type(item) is str else None
        if exposure is None:
            return None
        shown.append(exposure)
        size += exposure.size
    words = text.split()
    if len(words) + size not in (13, 14):
        return None
    try:
        return list(map(_INDEX.__getitem__, words)), tuple(shown)
    except KeyError:
        return None


# The two commonest lines, as json.dumps writes them: {"rack": "..."} and
# {"rack": "...", "exposed": ["...", ...]}, recognised by their text. What
# is between the quotes is only trusted once it reads as plain codes and
# spaces: a quote, a backslash, a control or any other character makes a
# word no tile (`_plain_racks`) or an exposure none (`_listed_exposure`),
# and the line is read by orjson and the readers below, as always.
_RACK_HEAD = '{"rack": "'
_EXPOSED_AFTER_RACK = '", "exposed": ["'
_JSON_SPACE = " \t\n\r"
_PLAIN_CHARS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ ")
_LISTED_READ: dict[str, Exposure | None] = {}  # an exposure's text in a line, read once
_LISTS_READ: dict[str, tuple[Exposure, ...] | None] = {}  # and a line's list of them
_UNREAD = object()
# Each plain code's tile by its two bytes (a one-letter code's second is 0); -1 for none.
_TILE_OF_BYTES = np.full(1 << 16, -1, dtype=np.int16)
for _code, _tile in tiles.INDEX.items():
    _TILE_OF_BYTES[ord(_code[0]) << 8 | (ord(_code[1]) if len(_code) > 1 else 0)] = _tile


def _listed_exposure(text: str) -> Exposure | None:
    """An exposure's text as it stands in a line (between its quotes): the
    exposure if it is plain codes and spaces only, else None."""
    if text in _LISTED_READ:
        return _LISTED_READ[text]
    found = _exposure_of(text) if _PLAIN_CHARS.issuperset(text) else None
    if len(_LISTED_READ) >= _EXPOSURES_KEPT:
        _LISTED_READ.clear()
    _LISTED_READ[text] = found
    return found


def _line_shape(raw: str) -> tuple[str, tuple[Exposure, ...]] | None:
    """The rack's text (not yet trusted) and the exposures of a line in one
    of the two commonest shapes; None for any other line."""
    body = raw.rstrip(_JSON_SPACE)
    if not body.startswith(_RACK_HEAD):
        return None
    if body.endswith('"}'):
        return body[10:-2], ()
    if not body.endswith('"]}'):
        return None
    cut = body.find(_EXPOSED_AFTER_RACK)
    if cut < 0:
        return None
    listed = body[cut + 16 : -3]
    shown = _LISTS_READ.get(listed, _UNREAD)
    if shown is _UNREAD:  # a list's text read once, one tuple for all its lines: ranked a set at a time (issue 26)
        exposures = [_listed_exposure(text) for text in listed.split('", "')]
        shown = None if None in exposures else tuple(cast("list[Exposure]", exposures))
        if len(_LISTS_READ) >= _EXPOSURES_KEPT:
            _LISTS_READ.clear()
        _LISTS_READ[listed] = shown
    return None if shown is None else (body[10:cut], cast("tuple[Exposure, ...]", shown))


def _plain_racks(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Racks as a line writes them (between its quotes), counted at once:
    (counts (racks, KINDS), tiles on each rack), the tiles -1 for a rack
    with a word that is no plain code (any character but a code's and a
    space makes one). The words are found in the bytes of all the texts
    together by array arithmetic: split and looked up one by one they cost
    most of reading a line (issue 26)."""
    joined = "|".join(texts) + "|"
    if joined.count("|") != len(texts):  # a bar in a text: no plain code has one
        return np.zeros((len(texts), tiles.KINDS), dtype=np.int16), np.full(len(texts), -1, dtype=np.intp)
    buf = np.frombuffer(joined.encode(), dtype=np.uint8)
    bar = buf == 124
    solid = ((buf != 32) & ~bar).view(np.int8)
    edge = np.diff(solid, prepend=np.int8(0))  # 1 where a word starts, -1 just after one ends
    first, after = np.flatnonzero(edge == 1), np.flatnonzero(edge == -1)
    length = after - first
    tile = _TILE_OF_BYTES[(buf[first].astype(np.intp) << 8) | (buf[first + 1] * (length == 2))]
    wrong = (tile < 0) | (length > 2)
    rack = np.cumsum(bar)[first]  # the bars before a word: its rack
    words = np.bincount(rack, minlength=len(texts))
    words[np.bincount(rack, wrong, minlength=len(texts)) > 0] = -1
    cells = rack * tiles.KINDS + tile
    counts = np.bincount(cells[~wrong], minlength=len(texts) * tiles.KINDS).astype(np.int16)
    return counts.reshape(len(texts), tiles.KINDS), words


def _counted(flat: list[int], lengths: list[int]) -> np.ndarray:
    """Counts of many racks at once, (racks, KINDS), from their tiles' indices."""
    owner = np.repeat(np.arange(len(lengths), dtype=np.intp), lengths)
    cells = owner * tiles.KINDS + np.array(flat, dtype=np.intp)
    return np.bincount(cells, minlength=len(lengths) * tiles.KINDS).reshape(len(lengths), tiles.KINDS).astype(np.int16)


def _within_the_set(counts: np.ndarray, exposures: list[tuple[Exposure, ...]]) -> np.ndarray:
    """Which racks hold, with their exposures, no more copies than the set has (T1)."""
    shown = shown_by_rack(exposures)[0]
    return np.asarray(~((counts + shown) > _COPIES_ARRAY).any(axis=1))


def _refuse(raw: str, k: int, replies: list) -> None:
    """The general reader's own words for a line whose rack (and exposures)
    hold more copies than the set has, found with the chunk's counts."""
    try:
        request_holding(cast(dict, _loads(raw)), (13, 14))
        raise ValueError("a rack cannot hold more copies of a tile than the set has")
    except BATCH_ERRORS as error:
        replies[k] = error_reply(error)


def _joined_rankings(a: BatchRanking, b: BatchRanking) -> BatchRanking:
    """Two rankings' racks one after the other."""
    return BatchRanking(*(np.concatenate([x, y]) for x, y in zip(
        (a.distance, a.best, a.live_outs, a.dead, a.order), (b.distance, b.best, b.live_outs, b.dead, b.order)
    )))


def answer_lines(tables: RankTables, lines: Iterable[str], fields: Sequence[str] | None, top: int | None) -> Iterator[bytes]:
    """One JSON line (bytes, with its newline) per non-blank input line, in order;
    `tables` are the card's `CardTables` when a field explains lines."""
    ranked = _Ranked(tables, fields, top)
    for chunk in _chunks(lines, CHUNK):
        replies: list[dict | str | bytes | None] = [None] * len(chunk)
        # The commonest lines, a plain rack or one with exposures in plain
        # codes, are matched as text and counted for the whole chunk at once
        # (`_plain_racks`; the set's copies checked as arrays); the rest one
        # by one as before, the quick readers first, then the general one.
        plain_rows: list[int] = []
        plain_texts: list[str] = []
        shown_rows: list[int] = []
        shown_texts: list[str] = []
        shown_exposures: list[tuple[Exposure, ...]] = []
        others: list[int] = []
        for k, raw in enumerate(chunk):
            shape = _line_shape(raw)
            if shape is None:
                others.append(k)
            elif shape[1]:
                shown_rows.append(k)
                shown_texts.append(shape[0])
                shown_exposures.append(shape[1])
            else:
                plain_rows.append(k)
                plain_texts.append(shape[0])
        quick: list[int] = []  # plain racks counted with the chunk
        counts = np.zeros((0, tiles.KINDS), dtype=np.int16)
        if plain_rows:
            counts, words = _plain_racks(plain_texts)
            fine = (words == 13) | (words == 14)
            quick = plain_rows
            if not fine.all():
                others += [k for k, ok in zip(plain_rows, fine.tolist()) if not ok]
                quick = [k for k, ok in zip(plain_rows, fine.tolist()) if ok]
                counts = counts[fine]
        quick_exposed: list[int] = []  # and plain-coded ones with exposures
        exposed_counts = np.zeros((0, tiles.KINDS), dtype=np.int16)
        quick_exposures: list[tuple[Exposure, ...]] = []
        if shown_rows:
            exposed_counts, words = _plain_racks(shown_texts)
            tiles_shown: dict[int, int] = {}  # a tuple's id() -> its tiles, summed once (a list's lines share one tuple)
            words += [tiles_shown.get(id(own)) or tiles_shown.setdefault(id(own), sum(e.size for e in own)) for own in shown_exposures]
            fine = ((words == 13) | (words == 14)) & (words >= 0)
            quick_exposed, quick_exposures = shown_rows, shown_exposures
            if not fine.all():
                others += [k for k, ok in zip(shown_rows, fine.tolist()) if not ok]
                picked = fine.tolist()
                quick_exposed = [k for k, ok in zip(shown_rows, picked) if ok]
                quick_exposures = [e for e, ok in zip(shown_exposures, picked) if ok]
                exposed_counts = exposed_counts[fine]
        seen: tuple[int, ...] | np.ndarray | None  # a slow line's own, then the chunk's as an array
        slow: list[tuple[int, Holding]] = []
        slow_racks, slow_seens = [], []
        exposed: list[tuple[int, Holding]] = []  # ranked together too, by batch_rank_exposed
        exposed_seens: list[tuple[int, ...]] = []
        flat: list[int] = []
        lengths: list[int] = []
        exposed_flat: list[int] = []
        exposed_lengths: list[int] = []
        more_quick: list[int] = []
        more_exposed: list[int] = []
        more_exposures: list[tuple[Exposure, ...]] = []
        for k in sorted(others):
            try:
                request = _loads(chunk[k])
                indices = _rack_indices(request)
                if indices is not None:
                    more_quick.append(k)
                    flat.extend(indices)
                    lengths.append(len(indices))
                    continue
                read = _exposed_indices(request)
                if read is not None:  # the same for a rack with exposures, the commonest after a plain one
                    more_exposed.append(k)
                    exposed_flat.extend(read[0])
                    exposed_lengths.append(len(read[0]))
                    more_exposures.append(read[1])
                    continue
                request = checked_request(request, KEYS)
                holding, seen = _quick_holding(request) or _quick_exposed(request) or request_holding(request, (13, 14))
                if holding.exposures:
                    exposed.append((k, holding))
                    exposed_seens.append(seen)
                else:
                    slow.append((k, holding))
                    slow_racks.append(holding.rack)
                    slow_seens.append(seen)
            except BATCH_ERRORS as error:
                replies[k] = error_reply(error)
        if more_quick:
            quick = quick + more_quick
            counts = np.concatenate([counts, _counted(flat, lengths)])
        if more_exposed:
            quick_exposed = quick_exposed + more_exposed
            quick_exposures = quick_exposures + more_exposures
            exposed_counts = np.concatenate([exposed_counts, _counted(exposed_flat, exposed_lengths)])
        too_many = cast(np.ndarray, (counts > _COPIES_ARRAY).any(axis=1))
        if too_many.any():  # more copies than the set has: the general reader's own message
            for i in np.flatnonzero(too_many).tolist():
                _refuse(chunk[quick[i]], quick[i], replies)
            keep = ~too_many
            counts = counts[keep]
            quick = [k for k, ok in zip(quick, keep.tolist()) if ok]
        if quick_exposed:
            within = _within_the_set(exposed_counts, quick_exposures)
            if not within.all():  # some hold, with their exposures, more than the set has
                for i in np.flatnonzero(~within).tolist():
                    _refuse(chunk[quick_exposed[i]], quick_exposed[i], replies)
                picked = within.tolist()
                quick_exposed = [k for k, ok in zip(quick_exposed, picked) if ok]
                quick_exposures = [e for e, ok in zip(quick_exposures, picked) if ok]
                exposed_counts = exposed_counts[within]
        if quick_exposed:  # ahead of the general reader's, so that their rows come first
            exposed_racks = np.concatenate([
                exposed_counts, np.array([h.rack for _, h in exposed], dtype=np.int16).reshape(-1, tiles.KINDS)
            ])
            all_exposures = quick_exposures + [h.exposures for _, h in exposed]
        else:
            exposed_racks = np.array([h.rack for _, h in exposed], dtype=np.int16).reshape(-1, tiles.KINDS)
            all_exposures = [h.exposures for _, h in exposed]
        rows = quick + [k for k, _ in slow] + quick_exposed + [k for k, _ in exposed]
        if not rows:
            yield b"".join(_line(reply) for reply in replies)
            continue
        parts: list[BatchRanking] = []  # the plain racks' ranking, then the exposed ones'
        if quick or slow:
            racks = np.concatenate([counts, np.array(slow_racks, dtype=np.int16).reshape(-1, tiles.KINDS)])
            seen = None
            if any(any(s) for s in slow_seens):
                seen = np.zeros_like(racks)
                seen[len(quick) :] = np.array(slow_seens, dtype=np.int16)
            parts.append(tables.batch_rank(racks, seen))
        if all_exposures:
            exposed_seen = None  # the commonest: nothing seen
            if any(any(s) for s in exposed_seens):
                exposed_seen = np.zeros_like(exposed_racks)
                exposed_seen[len(exposed_racks) - len(exposed_seens) :] = np.array(exposed_seens, dtype=np.int16)
            parts.append(batch_rank_exposed(tables, exposed_racks, all_exposures, exposed_seen, ranked.fits))
        if ranked.pieces is not None:
            picks = np.concatenate([ranked.picks(r) for r in parts]) if len(parts) > 1 else ranked.picks(parts[0])
            if len(rows) == len(chunk):  # the commonest: no line refused, so one join for the chunk
                order = np.argsort(np.array(rows, dtype=np.intp))  # the racks back in the lines' order
                yield ranked.joined_all(picks if (order[1:] > order[:-1]).all() else picks[order])
                continue
            for k, line in zip(rows, ranked.joined(picks)):
                replies[k] = line
        else:
            ranking = parts[0] if len(parts) == 1 else _joined_rankings(parts[0], parts[1])
            holdings = [Holding(tuple(rack)) for rack in counts.tolist()] + [h for _, h in slow]
            holdings += [Holding(tuple(rack), shown) for rack, shown in zip(exposed_racks.tolist(), all_exposures)]
            for row, (k, holding) in enumerate(zip(rows, holdings)):
                replies[k] = ranked.answer(ranking, row, holding)
        yield b"".join(_line(reply) for reply in replies)


def _line(reply: dict | str | bytes | None) -> bytes:
    if isinstance(reply, bytes):  # a whole line already
        return reply
    return (reply.encode() if isinstance(reply, str) else orjson.dumps(reply)) + b"\n"


def _write(stdout: TextIO, data: bytes) -> None:
    buffer = getattr(stdout, "buffer", None)
    if buffer is not None:
        buffer.write(data)
    else:  # an in-memory text stream (tests, the bench)
        stdout.write(data.decode("utf-8"))


def _lean_fields(args: argparse.Namespace) -> tuple[str, ...] | None:
    """The fields of a lean batch (JSON lines in, ranked fields only, a valid
    --top): the rank tables answer it alone. None for anything else, which
    reads the card first, as it always did (its errors before any other)."""
    if args.rack is not None or args.fields is None or (args.top is not None and args.top < 0):
        return None
    try:
        fields = parse_fields(args.fields)
    except UsageError:
        return None
    return fields if fields is not None and RANKED_FIELDS.issuperset(fields) else None


def run_analyze(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, load_card: Callable[[str | None], Card]) -> int:
    """`analyze`: one rack (--rack), or JSON lines in batch. A lean batch
    reads the card's rank tables alone (`disk_cache.rank_tables_cached`),
    anything else the card (`load_card`, the command line's)."""
    lean = _lean_fields(args)
    if lean is not None:
        from coach.reading.disk_cache import rank_tables_cached

        return _batch(rank_tables_cached(args.card), lean, args.top, stdin, stdout)
    card = load_card(args.card)
    fields = parse_fields(args.fields)
    top = args.top
    if top is not None and top < 0:
        raise UsageError("--top must be 0 or more")
    if args.rack is None:
        from coach.reading.tiles_away import tables_for

        return _batch(tables_for(card), fields, top, stdin, stdout)
    if fields is not None and not args.json:
        raise UsageError("--fields chooses JSON fields: add --json")
    from coach.cli.commands import COMMANDS

    request = {key: getattr(args, key) for key in KEYS if getattr(args, key, None) is not None}
    result = cast("Analysis", COMMANDS["analyze"].solve(card, request))
    if args.json:
        _write(stdout, orjson.dumps(_analysis_answer(result, fields, top)) + b"\n")
    else:
        from coach.cli.text import render_analysis

        stdout.write(render_analysis(result, 10 if top is None else top) + "\n")
    return 0


def _batch(tables: RankTables, fields: Sequence[str] | None, top: int | None, stdin: TextIO, stdout: TextIO) -> int:
    if not gc.isenabled():  # the command's start-up ran without the collector (coach/__main__.py):
        gc.freeze()  # what it made stays for good, never walked again,
        gc.enable()  # and the racks' own garbage is collected as usual
    stdout.flush()
    for data in answer_lines(tables, stdin, fields, top):
        _write(stdout, data)
    stdout.flush()
    return 0

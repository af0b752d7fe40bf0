"""A card's compiled tables kept on disk, so a command starts without
parsing the YAML and compiling every reading again (issue 13, start-up).

The file is named by the BLAKE2b digest (32 bytes) of the card's text together with the
code that compiles it (card.py, tiles.py, tiles_away.py, ranking.py,
holding.py) and the numpy and Python versions: a changed card, or a
changed compiler, is another name, so a stale table is never read; it is
simply rebuilt. The folder is the cache setting
(`coach.common.settings.CACHE_DIR`) when set, else the user's cache folder
(platformdirs), which only that user writes: the file is a pickle, and a
pickle is only ever read from a folder the user owns. Anything wrong with
the cache (unwritable folder, a truncated or foreign file) falls back to
compiling as before; the cache can only save time, never change an answer.

Beside each card's tables (`tables-KEY.pickle`: the card, its readings and
the rank tables) the lean `analyze` batch keeps the rank tables alone
(`rank-KEY.pickle`, `ranking.RankTables.bare`): reading them needs neither
the card module nor its readings (issue 26: a command's start-up is most
of a lean batch's CPU). The card module is imported only to compile.
"""

from __future__ import annotations

import os
import pickle
import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from coach.common.settings import CACHE_DIR

try:  # the digest without hashlib, whose OpenSSL costs a command's start 2% (issue 26)
    from _blake2 import blake2b
except ImportError:  # an interpreter built without it: hashlib's, the same digest
    from hashlib import blake2b
from coach.reading.ranking import RankTables

if TYPE_CHECKING:
    from coach.notation.card import Card
    from coach.reading.tiles_away import CardTables

APP_NAME = "mahjong-coach"
FORMAT = 3  # bump when what is pickled changes shape without the sources changing
_PACKAGE = Path(__file__).parents[1]  # coach/
# The code the pickled tables depend on besides the card text (read, not imported: a lean start imports none of it).
COMPILERS = tuple(_PACKAGE / name for name in (
    "notation/card.py", "notation/tiles.py", "reading/tiles_away.py", "reading/ranking.py", "reading/holding.py",
))
HOUSE_CARD = _PACKAGE / "cards" / "house-2026.yaml"  # coach.notation.card.HOUSE_CARD


def cache_folder() -> Path:
    folder = CACHE_DIR.read(os.environ)
    if folder:
        return folder
    if sys.platform == "linux":
        # platformdirs' answer on Linux is the XDG rule itself; importing it
        # (with tempfile, random, shutil) costs a command's start more than
        # its work on one rack (issue 13). tests/core/test_analyze_batch.py holds the two equal.
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        return Path(xdg if os.path.isabs(xdg) else os.path.expanduser("~/.cache")) / APP_NAME
    from platformdirs import user_cache_dir

    return Path(user_cache_dir(APP_NAME, appauthor=False))


@lru_cache(maxsize=1)
def _code_fingerprint() -> bytes:
    """What the pickled tables depend on besides the card text."""
    import numpy

    digest = blake2b(f"{FORMAT} {numpy.__version__} {sys.version_info[:2]}".encode(), digest_size=32)
    for file in COMPILERS:
        digest.update(file.read_bytes())
    return digest.digest()


def cache_key(text: str) -> str:
    """The name of a card text's tables: its digest with the code's fingerprint."""
    digest = blake2b(_code_fingerprint(), digest_size=32)
    digest.update(text.encode("utf-8"))
    return digest.hexdigest()


def _load(file: Path) -> object:
    """The pickle in `file`, or None if there is none or it cannot be read
    (a truncated or foreign file: the caller rebuilds it)."""
    try:
        with open(file, "rb") as handle:
            return pickle.load(handle)
    except Exception:
        return None


def _store(folder: Path, file: Path, tables: RankTables) -> None:
    import tempfile  # only when writing: not on every start

    try:
        folder.mkdir(parents=True, exist_ok=True)
        # Write then rename: a reader in parallel sees the old file or the whole new one.
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".tables-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(tables, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temp, file)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    except OSError:
        pass  # a read-only or full disk only costs the next start its compile


_LOADED: dict[str, CardTables] = {}  # this process's: one object per card text


def tables_from_text(text: str, source: str = "card") -> CardTables:
    """Compiled tables of a card text, from the disk cache when it has them."""
    from coach.notation.card import Card, parse_card
    from coach.reading.tiles_away import CardTables, keep_tables

    key = cache_key(text)
    tables = _LOADED.get(key)
    if tables is not None:
        return tables
    folder = cache_folder()
    file = folder / f"tables-{key}.pickle"
    found = _load(file)
    if isinstance(found, CardTables) and isinstance(found.card, Card):
        tables = found
    else:
        tables = CardTables(parse_card(text, source))
        tables.warm_batch()  # kept in the file: `analyze` reads racks in batches
        _store(folder, file, tables)
    keep_tables(tables)
    _LOADED[key] = tables
    return tables


def load_card_cached(path: str | Path) -> Card:
    """`load_card`, with its tables ready: read from the cache or compiled and cached."""
    from coach.notation.card import read_card_text

    path = Path(path)
    return tables_from_text(read_card_text(path), source=path.name).card


def house_card_cached() -> Card:
    return load_card_cached(HOUSE_CARD)


def rank_tables_cached(path: str | Path | None) -> RankTables:
    """A card file's rank tables (the house card's for None), for the lean
    batch: read alone from the disk cache when it has them, with no card
    module imported and no reading unpickled; else as `load_card_cached`
    gets them (compiled or read whole), kept alone for the next start. A
    file that cannot be read, or is over the size cap, goes the same way,
    so that its error is the card module's own."""
    from coach.notation.yamlfile import MAX_BYTES, YamlError, read_text

    path = Path(path) if path else HOUSE_CARD
    try:
        text = read_text(path, MAX_BYTES, "card file")
    except (YamlError, OSError, UnicodeDecodeError):
        from coach.reading.tiles_away import tables_for

        return tables_for(load_card_cached(path))
    key = cache_key(text)
    if key in _LOADED:
        return _LOADED[key]
    folder = cache_folder()
    file = folder / f"rank-{key}.pickle"
    found = _load(file)
    if type(found) is RankTables:
        return found
    # Only a card the card module compiled from this very text has rank tables
    # under its key (a text it refuses never gets here twice: it raises).
    tables = tables_from_text(text, source=path.name)
    _store(folder, file, tables.bare())
    return tables


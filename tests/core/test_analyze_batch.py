"""The lean `analyze` batch mode (issue 13): --fields and --top cut the full
answer down without changing it, and the card tables' disk cache is keyed by
the card's content. Speed is measured by `python -m coach bench`, not here."""

from __future__ import annotations

import io
import json
import os
import pickle
from functools import lru_cache
from pathlib import Path

import orjson
import pytest

from coach import cli
from coach.cli.batch import FIELDS, KEYS, _quick_exposed, _quick_holding
from coach.cli.commands import COMMANDS
from coach.cli.requests import BATCH_ERRORS, error_reply, read_request, request_holding
from coach.notation import tiles
from coach.notation.card import HOUSE_CARD, house_card
from coach.notation.tiles import format_tiles
from coach.reading import disk_cache as card_cache
from coach.reading.ranking import RankTables
from coach.reading.tiles_away import CardTables
from coach.tools.bench import deal_racks

RACK = "2B 2B 0 2C 6C 6C 2D 2D J F F N E"


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("COACH_CACHE_DIR", str(folder))
    card_cache._LOADED.clear()
    return folder


def run(argv: list[str], stdin: str = "") -> list[dict]:
    out = io.StringIO()
    assert cli.main(argv, stdin=io.StringIO(stdin), stdout=out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def cut(answer: dict, fields: list[str] | None, top: int | None) -> dict:
    hands = answer["hands"][:top] if top is not None else answer["hands"]
    if fields is not None:
        hands = [{k: h[k] for k in fields if k in h} for h in hands]
    return {"card": answer["card"], "hands": hands}


def one_by_one(text: str) -> list[dict]:
    """The answers the way every line was answered before the batch path: analyze() per line."""
    card = house_card()
    answers = []
    for raw in text.splitlines():
        if not raw.strip():
            continue
        try:
            answers.append(COMMANDS["analyze"].solve(card, read_request(raw, KEYS)).to_json())
        except BATCH_ERRORS as error:
            answers.append(error_reply(error))
    return answers


def batch_input() -> str:
    lines = [{"rack": format_tiles(r)} for r in deal_racks(40)]
    lines[3]["seen"] = "1D 1D 5B N N"
    lines[7] = {"rack": "1B 1B 1B 2B 3B 3B N N N E E", "exposed": ["5D 5D J"]}  # batch_rank_exposed
    lines[9] = {"rack": "1B 2B 3B 3B N E E F F J", "exposed": ["5d 5D J"], "seen": "1D 5B"}  # the general reader, then the same
    lines[11] = {"rack": "1B 2B 3B 3B N E E", "exposed": ["5D 5D J", "F F F J"], "seen": "1D 5B"}
    lines[13] = {"rack": "1B 2B 3B 3B N E E 4C 4C 4C", "exposed": ["RD RD RD"]}
    lines[15] = {"rack": "5D 5D 5D 1B 2B 3B N E E W", "exposed": ["5D 5D J"]}  # five 5 Dots: refused in the general words
    lines[17] = {"rack": "J J J J J J 1B N E", "exposed": ["5D J J J"]}  # nine jokers
    lines[19] = {"rack": "1B 2B 3B 3B N E E", "exposed": ["5D 5D J", "F F F J"]}
    text = "".join(json.dumps(line) + "\n" for line in lines)
    # Plain codes, but more copies than the set has: counted with the chunk, then refused in the general words.
    too_many = '{"rack": "1D 1D 1D 1D 1D 2D 2D 3D 3D N N E E"}\n{"rack": "J J J J J J J J J N N E E"}\n'
    return text + '{"rack": "1X"}\n\n' + too_many + json.dumps({"rack": RACK}) + "\n"


@pytest.mark.parametrize(
    "fields, top",
    [(["id", "distance"], None), (["id", "distance"], 3), (["live_outs", "dead", "id"], None),
     (["reading", "missing", "id"], 5), (None, 2), (["reason", "distance"], None), (list(FIELDS), 1)],
)
def test_batch_fields_and_top_cut_the_full_answer(fields: list[str] | None, top: int | None) -> None:
    text = batch_input()
    full = run(["analyze"], text)
    assert full == one_by_one(text)
    argv = ["analyze", "--json"] + (["--fields", ",".join(fields)] if fields else []) + (["--top", str(top)] if top else [])
    lean = run(argv, text)
    assert len(lean) == len(full) == 44
    assert [a.get("error", "")[:12] for a in full[40:43]] == ['rack: "1X" i', "the rack hol", "the rack hol"]
    for whole, part in zip(full, lean):
        if "error" in whole:
            assert part == whole
            continue
        assert part == cut(whole, fields, top)
        assert len(part["hands"]) == (top or 61)
        if fields:
            assert all(set(h) <= set(fields) for h in part["hands"])


def test_fields_with_one_rack() -> None:
    [full] = run(["analyze", "--json", "--rack", RACK])
    [lean] = run(["analyze", "--json", "--rack", RACK, "--fields", "id,distance", "--top", "4"])
    assert lean == cut(full, ["id", "distance"], 4)
    assert [h["id"] for h in lean["hands"]] == [h["id"] for h in full["hands"][:4]]


@pytest.mark.parametrize(
    "argv, words",
    [(["--fields", "id,colour"], 'unknown field "colour"'), (["--fields", " , "], "names no field"),
     (["--top", "-1"], "--top"), (["--rack", RACK, "--fields", "id"], "add --json")],
)
def test_bad_fields_and_top_are_one_clear_error(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["analyze", *argv], stdin=io.StringIO(""), stdout=io.StringIO()) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]


@pytest.mark.parametrize(
    "request_",
    [{"rack": RACK}, {"rack": RACK, "seen": "1D 1D N"}, {"rack": RACK, "seen": "J J J J J J J J"},
     {"rack": "2B 2B 0 2C 6C 6C 2D 2D J F F N E"}, {"rack": "5D " * 5 + "1B " * 9}, {"rack": "1D 2D"},
     {"rack": "1d 2B 2B 2C 6C 6C 2D 2D J F F N E"}, {"rack": "N\u00a0E " + "F " * 8 + "J J W"},
     {"rack": RACK, "seen": ["1D"]}, {"rack": RACK, "exposed": []}, {"rack": ["1D"] * 13}, {"rack": None}],
)
def test_quick_reading_agrees_with_the_general_parser(request_: dict) -> None:
    quick = _quick_holding(request_)
    try:
        general = request_holding(request_, (13, 14))
    except (ValueError, TypeError):
        assert quick is None  # the general parser explains the mistake
        return
    assert quick is None or quick == general


@pytest.mark.parametrize(
    "request_",
    [{"rack": "1B 2B 3B 3B N E E F F J", "exposed": ["5D 5D J"]}, {"rack": "1B 2B 3B 3B N E E F F J", "exposed": ["5D 5D J"], "seen": "1D N"},
     {"rack": "1B 2B 3B 3B N E E", "exposed": ["5D 5D J", "F F F J"]}, {"rack": "1B 2B 3B 3B N E E", "exposed": ["5D 5D J", "F F F F J J J"]},
     {"rack": "1B 2B 3B 3B N E E F F J", "exposed": ["5D 5D 6D"]}, {"rack": "1B 2B 3B 3B N E E F F J", "exposed": ["J J J"]},
     {"rack": "1B 2B 3B 3B N E E F F J", "exposed": ["5D 5D"]}, {"rack": "1B 2B 3B 3B N E E F J", "exposed": ["5D 5D J"]},
     {"rack": "5D 5D 3B 3B N E E F F J", "exposed": ["5D 5D J"]}, {"rack": "1B 2B 3B 3B N E E F F J", "exposed": ["5D 5D J"], "seen": "J J J J J J J"},
     {"rack": "1B 2B 3B 3B N E E F F J", "exposed": ["5d 5D J"]}, {"rack": "1B 2B 3B 3B N E E F F J", "exposed": [["5D", "5D", "J"]]},
     {"rack": "1B 2B 3B 3B N E E F F J", "exposed": "5D 5D J"}, {"rack": RACK, "exposed": []}, {"rack": None, "exposed": ["5D 5D J"]},
     {"rack": "1B 2B 3B 3B N E E F F J", "exposed": ["5D 5D J"], "seen": ["1D"]},
     {"rack": "5D 5D 5D 3B N E E F F J", "exposed": ["5D 5D J"]}, {"rack": "J J J J J J 3B N E", "exposed": ["5D J J J"]},
     {"rack": "J J J J J 3B N E E", "exposed": ["5D J J J"]}, {"rack": "1B 2B 3B 3B N E E F F J", "exposed": ["5D 5D J"], "seen": "5D 5D"},
     {"rack": "1B 2B 3B 3B N E E", "exposed": ["5D 5D J", "5D 5D J J"]}, {"rack": "1B 2B 3B 3B N E E", "exposed": ["5D 5D J", "5D 5D J J"], "seen": "N"}],
)
def test_quick_exposed_reading_agrees_with_the_general_parser(request_: dict) -> None:
    quick = _quick_exposed(request_)
    try:
        general = request_holding(request_, (13, 14))
    except (ValueError, TypeError):
        assert quick is None  # the general parser explains the mistake
        return
    assert quick is None or quick == general


def test_the_bench_mix_answers_as_one_by_one() -> None:
    """The bar's mix (every second rack exposed) through the lean and the full batch."""
    from coach.tools.bench_goals import exposed_mix

    text = "".join(json.dumps(line) + "\n" for line in exposed_mix(deal_racks(60)))
    full = run(["analyze"], text)
    assert full == one_by_one(text)
    assert run(["analyze", "--json", "--fields", "id,distance"], text) == [cut(whole, ["id", "distance"], None) for whole in full]


def mixed_lines() -> str:
    """A few hundred batch lines of every kind: the bar's mix (plain racks and
    racks with a pung exposed), racks with seen tiles, exposures with jokers
    and with seen tiles, an alias, two exposures, and lines refused."""
    from coach.tools.bench_goals import exposed_mix

    racks = deal_racks(400)
    lines: list[object] = list(exposed_mix(racks[:300]))
    for n, rack in enumerate(racks[300:]):
        text = format_tiles(rack)
        kept = format_tiles(rack[:-3])
        lines.append([
            {"rack": text, "seen": "1D 5B N N WD"},
            {"rack": kept, "exposed": ["F F J"]},
            {"rack": kept, "exposed": ["N J J"], "seen": "1D 2D"},
            {"rack": text.lower()},
        ][n % 4])
    lines[7] = {"rack": "1B 2B 3B 3B N E E", "exposed": ["5D 5D J", "F F F J"]}
    lines[11] = {"rack": "5D 5D 5D 1B 2B 3B N E E W", "exposed": ["5D 5D J"]}  # five 5 Dots
    lines[13] = {"rack": "1D 1D 1D 1D 1D 2D 2D 3D 3D N N E E"}
    lines[17] = "{oops"
    lines[19] = {"rack": "1X 2D"}
    return "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)


@lru_cache(maxsize=1)
def mixed_answers() -> tuple[dict, ...]:
    return tuple(one_by_one(mixed_lines()))


@pytest.mark.parametrize(
    "fields, top",
    [("id,distance", None), ("distance,id", 5), ("id", None), ("dead,id", None), ("live_outs,distance,id", None),
     ("id,section,distance,value,concealed,note,pattern,dead,live_outs", 3), ("reading,id", 2), ("reason,distance", None)],
)
def test_lean_batch_is_the_full_answer_cut_down_byte_for_byte(fields: str, top: int | None) -> None:
    """Every line the batch writes is the one-by-one answer cut down, as orjson
    writes it: the same bytes, from the card's tables and then (ranked fields
    only) from the rank tables alone, read back from the disk cache (issue 26)."""
    text = mixed_lines()
    names = [f for f in FIELDS if f in fields.split(",")]
    want = [
        orjson.dumps(whole if "error" in whole else cut(whole, names, top)).decode()
        for whole in mixed_answers()
    ]
    argv = ["analyze", "--json", "--fields", fields] + (["--top", str(top)] if top is not None else [])
    first = _output(argv, text)
    assert first == want
    card_cache._LOADED.clear()  # the next run reads what the first kept on disk
    assert _output(argv, text) == want


def _output(argv: list[str], text: str) -> list[str]:
    out = io.StringIO()
    assert cli.main(argv, stdin=io.StringIO(text), stdout=out) == 0
    return out.getvalue().splitlines()


def test_lean_batch_reads_the_rank_tables_alone(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = mixed_lines()
    argv = ["analyze", "--json", "--fields", "id,distance"]
    first = _output(argv, text)
    [rank_file] = cache_dir.glob("rank-*.pickle")
    assert type(pickle.loads(rank_file.read_bytes())) is RankTables
    card_cache._LOADED.clear()

    def compile_again(*args: object, **kwargs: object) -> None:
        raise AssertionError("the card was read: the rank tables were not")

    monkeypatch.setattr(card_cache, "tables_from_text", compile_again)
    assert _output(argv, text) == first
    rank_file.write_bytes(b"not a pickle")  # a broken file is rebuilt, and answers the same
    monkeypatch.undo()
    monkeypatch.setenv("COACH_CACHE_DIR", str(cache_dir))
    card_cache._LOADED.clear()
    assert _output(argv, text) == first
    assert type(pickle.loads(rank_file.read_bytes())) is RankTables


def test_a_lean_batch_starts_without_the_card_module(cache_dir: Path) -> None:
    """Start-up (issue 26): a lean batch reads its rank tables from the disk
    cache and imports neither the card module (nor YAML) nor the analysis
    for lines in plain codes, the commonest."""
    import subprocess
    import sys

    code = (
        "import sys; from coach.cli import main; main(['analyze', '--json', '--fields', 'id,distance']);"
        "print(sorted(m for m in ('coach.notation.card', 'coach.reading.tiles_away', 'coach.reading.analysis', 'yaml')"
        " if m in sys.modules), file=sys.stderr)"
    )
    plain = [{"rack": "1D 1D 2D 2D 3D 3D N N E E W W S"}, {"rack": "1B 2B 3B 3B N E E F F J", "exposed": ["5D 5D J"]}]
    lines = "".join(json.dumps(line) + "\n" for line in plain)  # plain codes: an alias goes through the general reader
    env = {**os.environ, "COACH_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(Path(cli.__file__).parents[2])}
    first = subprocess.run([sys.executable, "-c", code], input=lines, capture_output=True, text=True, check=True, env=env)
    again = subprocess.run([sys.executable, "-c", code], input=lines, capture_output=True, text=True, check=True, env=env)
    assert again.stderr.strip().splitlines()[-1] == "[]"
    assert again.stdout == first.stdout == "\n".join(_output(["analyze", "--json", "--fields", "id,distance"], lines)) + "\n"


def test_the_cache_names_the_code_it_depends_on() -> None:
    from coach.notation import card as card_module
    from coach.reading import holding, ranking, tiles_away

    assert card_cache.HOUSE_CARD == HOUSE_CARD
    assert set(card_cache.COMPILERS) == {Path(m.__file__ or "") for m in (card_module, tiles, tiles_away, ranking, holding)}


def test_no_two_word_alias_is_two_plain_codes() -> None:
    """The quick reading splits on spaces: it would misread "X Y" if that were one tile."""
    for alias in tiles.ALIASES:
        words = alias.split()
        assert len(words) == 1 or not all(w.upper() in tiles.INDEX for w in words), alias


def test_parser_choices_match_the_commands() -> None:
    from coach.rules.charleston import PASSES
    from coach.rules.mahjong import WINS

    assert cli.PASS_CHOICES == tuple(PASSES) and cli.WIN_CHOICES == WINS  # named there, not imported (issue 26)


# -- the tables' disk cache ------------------------------------------------


def test_tables_cached_by_content_and_rebuilt_when_the_card_changes(cache_dir: Path, tmp_path: Path) -> None:
    card_file = tmp_path / "card.yaml"
    text = HOUSE_CARD.read_text(encoding="utf-8")
    card_file.write_text(text, encoding="utf-8")
    first = card_cache.load_card_cached(card_file)
    files = sorted(cache_dir.glob("tables-*.pickle"))
    assert len(files) == 1 and card_cache.cache_key(text) in files[0].name
    card_cache._LOADED.clear()
    again = card_cache.load_card_cached(card_file)  # read back from the file
    assert again is not first and again == first
    changed = text.replace('name: "Mahjong Coach House Card 2026"', 'name: "Changed card"', 1)
    assert changed != text
    card_file.write_text(changed, encoding="utf-8")
    card_cache._LOADED.clear()
    assert card_cache.load_card_cached(card_file).name == "Changed card"
    assert len(list(cache_dir.glob("tables-*.pickle"))) == 2


def test_a_broken_cache_file_is_rebuilt_and_answers_do_not_change(cache_dir: Path) -> None:
    [fresh] = run(["analyze", "--json", "--rack", RACK])
    [file] = cache_dir.glob("tables-*.pickle")
    file.write_bytes(b"not a pickle")
    card_cache._LOADED.clear()
    assert run(["analyze", "--json", "--rack", RACK]) == [fresh]
    assert isinstance(pickle.loads(file.read_bytes()), CardTables)
    file.write_bytes(pickle.dumps({"not": "tables"}))
    card_cache._LOADED.clear()
    assert run(["analyze", "--json", "--rack", RACK]) == [fresh]


def test_an_unwritable_cache_folder_still_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder would go")
    monkeypatch.setenv("COACH_CACHE_DIR", str(blocker / "cache"))
    [answer] = run(["analyze", "--json", "--rack", RACK, "--top", "1"])
    assert len(answer["hands"]) == 1


@pytest.mark.parametrize("xdg", [None, "/tmp/xdg-cache-home", "relative/cache"])
def test_cache_folder_is_platformdirs_user_cache_dir(xdg: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Linux shortcut (no platformdirs import at start-up) names the folder platformdirs would."""
    from platformdirs import user_cache_dir

    monkeypatch.delenv("COACH_CACHE_DIR", raising=False)
    if xdg is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    assert card_cache.cache_folder() == Path(user_cache_dir(card_cache.APP_NAME, appauthor=False))


def test_a_command_starts_without_shutil_or_platformdirs() -> None:
    """Start-up (issue 13): `analyze --rack` imports none of what it does not use."""
    import subprocess
    import sys

    code = (
        "import sys; from coach.cli import main; main(['analyze', '--rack', '1D 1D 2D 2D 3D 3D N N E E W W S']);"
        "print(sorted(m for m in ('shutil', 'platformdirs', 'tempfile') if m in sys.modules), file=sys.stderr)"
    )
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "Rack:" in first.stdout  # this one may write the tables' cache (tempfile)
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert again.stderr.strip().splitlines()[-1] == "[]"
    assert again.stdout == first.stdout


def test_top_zero_answers_every_rack_with_no_line() -> None:
    text = "".join(json.dumps({"rack": format_tiles(r)}) + "\n" for r in deal_racks(3))
    lean = run(["analyze", "--json", "--fields", "id,distance", "--top", "0"], text)
    assert lean == [{"card": house_card().name, "hands": []}] * 3

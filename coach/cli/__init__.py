"""The command line: `python -m coach analyze | score | pass | discard | play | selfplay | review | serve | check-card | check-set | bench | reset-link`.

Every error exits with status 2 and one line on standard error that
names the problem. Batch mode (no --rack) reads one JSON object a line
and answers one JSON line each, in order; a bad line answers
{"error": "..."} and the next lines are still answered.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from collections.abc import Callable, Sequence
from typing import TextIO

from dataclasses import dataclass
from typing import TYPE_CHECKING

# One BLAS thread, set before numpy loads: a command's matrix products are
# small, and starting OpenBLAS's thread a core costs a command more CPU than
# they save (issue 13). A value the user set stands.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from coach import __version__
from coach.notation import tiles
from coach.notation.card import Card, CardError
from coach.reading.tiles_away import Fill, Holding, HoldingError, parse_exposure, read_holding

if TYPE_CHECKING:  # the commands import what they use when run: a quick start (issue 13)
    from datetime import timedelta

    from coach.reading.analysis import Analysis, LineResult
    from coach.advice.passes import PassAdvice
    from coach.advice.discard import DiscardAdvice
    from coach.rules.mahjong import Payment

# Choices named here so that building the parser imports no command's module;
# tests/core/test_cli.py holds them equal to coach.advice.passes.PASSES and coach.rules.mahjong.WINS.
PASS_CHOICES = ("first-right", "first-across", "first-left", "second-left", "second-across", "second-right", "courtesy")
WIN_CHOICES = ("self", "discard", "exchange")

PROG = "mahjong-coach"


class UsageError(Exception):
    pass


class _Formatter(argparse.HelpFormatter):
    """argparse's own, told the terminal's width: left to itself it imports
    shutil (and with it bz2 and lzma) to ask, on every start (issue 13)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        if width is None:
            try:
                width = int(os.environ.get("COLUMNS", 0)) or os.get_terminal_size(sys.__stdout__.fileno()).columns
            except (AttributeError, ValueError, OSError):
                width = 80
            width -= 2
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs.setdefault("formatter_class", _Formatter)  # the commands' parsers too
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # one line, not argparse's usage block
        raise UsageError(message)


def _card(path: str | None) -> Card:
    from coach.reading.disk_cache import house_card_cached, load_card_cached

    return load_card_cached(path) if path else house_card_cached()


# -- formatting -----------------------------------------------------------


def _part_text(codes: list[str]) -> str:
    if len(codes) >= 3 and len(set(codes)) == 1:
        return f"{codes[0]}×{len(codes)}"
    return " ".join(codes)


def _missing_text(f: Fill) -> str:
    if f.distance == 0:
        return "nothing: Mah Jongg!"
    # Two singles of one tile read better as one entry: "2D×2 (no joker)".
    counts: dict[tuple[int, bool], int] = {}
    for m in f.missing:
        counts[(m.tile, m.joker_ok)] = counts.get((m.tile, m.joker_ok), 0) + m.count
    words = []
    for (tile, joker_ok), count in counts.items():
        amount = f"×{count}" if count > 1 else ""
        words.append(f"{tiles.CODES[tile]}{amount} ({'joker ok' if joker_ok else 'no joker'})")
    return ", ".join(words)


def render_analysis(result: Analysis, top: int) -> str:
    holding = result.holding
    rack = tiles.format_tiles(holding.rack_tiles())
    out = [f"Card: {result.card.name}", f"Rack: {rack}  ({sum(holding.rack)} tiles)"]
    for n, e in enumerate(holding.exposures, start=1):
        out.append(f"Exposed {n}: {' '.join(e.codes)}  ({e.describe()})")
    out.append("")
    rows = [("line", "away", "value", "outs", "reading", "missing")]
    for r in result.lines[:top]:
        rows.append(_row(r))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        cells = [row[0].ljust(widths[0]), row[1].rjust(widths[1]), row[2].rjust(widths[2]),
                 row[3].rjust(widths[3]), row[4].ljust(widths[4]), row[5]]
        out.append("  ".join(cells).rstrip())
    hidden = len(result.lines) - top
    if hidden > 0:
        out.append(f"... and {hidden} more lines (--top N to see more, --json for all)")
    return "\n".join(out)


def _row(r: LineResult) -> tuple[str, str, str, str, str, str]:
    concealed = " C" if r.line.concealed else ""
    if r.distance is None or r.fill is None or r.reading is None:
        return (r.line.id + concealed, "-", str(r.line.value), "-", r.line.pattern, r.reason or "")
    reading = " · ".join(_part_text(p) for p in r.reading.printed())
    outs = "dead" if r.dead else str(r.live_outs)
    return (r.line.id + concealed, str(r.distance), str(r.line.value), outs, reading, _missing_text(r.fill))


# -- commands ---------------------------------------------------------------


# -- requests: the same fields from flags or from a JSON line ----------------


def _tiles_field(request: dict, key: str) -> str | list:
    value = request.get(key)
    if value is None:
        return ""
    if not isinstance(value, (str, list)):
        raise ValueError(f'"{key}" must be tiles as text such as "1D 2D N", or a list of codes')
    return value


def _exposures_field(request: dict, key: str) -> list:
    value = request.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError(f'"{key}" must be a list of groups such as ["5D 5D J"]')
    return value


def _holding(request: dict, sizes: tuple[int, ...], extra_seen: Sequence[str] = ()) -> tuple[Holding, tuple[int, ...]]:
    rack = _tiles_field(request, "rack")
    if rack == "" and "rack" not in request:
        raise ValueError('"rack" is missing')
    seen = _tiles_field(request, "seen")
    seen_codes = tiles.parse(seen, what="seen") if isinstance(seen, str) else [tiles.code_of(c) for c in seen]
    return read_holding(rack, _exposures_field(request, "exposed"), seen_codes + list(extra_seen), sizes)


@dataclass(frozen=True)
class Command:
    """A command that answers one request: from flags, or per JSON line in batch."""

    keys: frozenset[str]
    solve: Callable[[Card, dict], object]
    to_json: Callable[[object], dict]
    render: Callable[[object, argparse.Namespace], str]


def _solve_analyze(card: Card, request: dict) -> Analysis:
    from coach.reading.analysis import analyze

    holding, seen = _holding(request, (13, 14))
    return analyze(card, holding, seen)


def _solve_score(card: Card, request: dict) -> Payment:
    from coach.rules.mahjong import WINS, score

    win = request.get("win")
    if win not in WINS:
        raise ValueError(f'"win" must be one of {", ".join(WINS)}')
    holding, _ = _holding(request, (14,))
    return score(card, holding, win)


def _seed(request: dict) -> int:
    seed = request.get("seed", 0)
    if seed is None:
        return 0
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError('"seed" must be a whole number')
    return seed


def _solve_pass(card: Card, request: dict) -> tuple[PassAdvice, list[str]]:
    from coach.advice.passes import PASSES, evaluate_pass, explain_pass, stop_vote

    which = request.get("which") or "first-right"
    if which not in PASSES:
        raise ValueError(f'"which" must be one of {", ".join(PASSES)}')
    holding, seen = _holding(request, (13, 14))
    if holding.exposures:
        raise ValueError("the Charleston comes before any exposure: give the rack only")
    advice = evaluate_pass(card, holding.rack_tiles(), which, seed=_seed(request), seen=seen)
    explanation = explain_pass(advice, advice.best)
    if which == "second-left":  # before the second Charleston, anyone may stop it (C2)
        explanation = list(stop_vote(advice).explanation) + explanation
    return advice, explanation


def _pass_json(result: object) -> dict:
    from coach.advice.passes import stop_vote

    advice, explanation = result  # type: ignore[misc]
    extra = {"stop": stop_vote(advice).stop} if advice.which == "second-left" else {}
    return {
        **extra,
        "which": advice.which,
        "best": advice.best.codes,
        "blind": advice.best.blind,
        "current": advice.current,
        "ranked": [
            {
                "tiles": o.codes,
                "blind": o.blind,
                "expected": round(o.expected, 4),
                "stderr": round(o.stderr, 4),
                "behind": round(o.behind, 4),
                "samples": o.samples,
                "flexibility": None if o.flexibility is None else round(o.flexibility, 2),
            }
            for o in advice.options
        ],
        "explanation": explanation,
    }


def _pass_text(result: object, args: argparse.Namespace) -> str:
    from coach.advice.passes import PASSES

    advice, explanation = result  # type: ignore[misc]
    direction = PASSES[advice.which][1]
    out = [f"{advice.which} pass ({direction}); you are {advice.current} tiles away now.", ""]
    out.append(f"{'pass':<34} {'expected':>8} {'± se':>6} {'behind':>7}")
    for o in advice.options[: args.top]:
        out.append(f"{o.label():<34} {o.expected:>8.2f} {o.stderr:>6.2f} {o.behind:>7.2f}")
    out.append("")
    out += [f"- {line}" for line in explanation]
    return "\n".join(out)


def _other_players(request: dict) -> list[list]:
    """Other players' exposures: one entry a player, groups split by "|" or given as a list."""
    players = []
    for n, entry in enumerate(_exposures_field(request, "others"), start=1):
        groups = entry.split("|") if isinstance(entry, str) else entry
        if not isinstance(groups, list):
            raise ValueError('"others" must list each player\'s exposures, e.g. ["5D 5D 5D | N N N"]')
        players.append([parse_exposure(g, n) for g in groups])
    return players


def _solve_discard(card: Card, request: dict) -> DiscardAdvice:
    from coach.advice.discard import advise_discard

    others = _other_players(request)
    shown = [c for player in others for e in player for c in e.codes]
    # The others' tiles join the supply check; the advisor counts them as seen itself.
    holding, seen = _holding(request, (14,), extra_seen=shown)
    discards = list(seen)
    for code in shown:
        discards[tiles.INDEX[code]] -= 1
    late = request.get("late", False)
    if not isinstance(late, bool):
        raise ValueError('"late" must be true or false')
    return advise_discard(card, holding, discards, others, late=late)


def _discard_json(result: object) -> dict:
    advice: DiscardAdvice = result  # type: ignore[assignment]
    return {
        "best": tiles.CODES[advice.best.tile],
        "ranked": [
            {
                "tile": tiles.CODES[o.tile],
                "distance": o.distance,
                "live_outs": o.live_outs,
                "hot": o.hot,
                "safe": o.safe,
                "note": o.note,
            }
            for o in advice.options
        ],
        "explanation": list(advice.explanation),
    }


def _discard_text(result: object, args: argparse.Namespace) -> str:
    advice: DiscardAdvice = result  # type: ignore[assignment]
    out = [f"{'discard':<14} {'away':>4} {'outs':>5}  note"]
    for o in advice.options[: args.top]:
        flag = "HOT " if o.hot else ("safe " if o.safe else "")
        out.append(f"{tiles.name(o.tile):<14} {o.distance:>4} {o.live_outs:>5}  {flag}{o.note}".rstrip())
    out.append("")
    out += [f"- {line}" for line in advice.explanation]
    return "\n".join(out)


COMMANDS = {
    "analyze": Command(
        frozenset({"rack", "exposed", "seen"}),
        _solve_analyze,
        lambda r: r.to_json(),  # type: ignore[attr-defined]
        lambda r, args: render_analysis(r, 10 if args.top is None else args.top),  # type: ignore[arg-type]
    ),
    "score": Command(
        frozenset({"rack", "exposed", "win"}),
        _solve_score,
        lambda r: r.to_json(),  # type: ignore[attr-defined]
        lambda r, args: "\n".join(r.explanation),  # type: ignore[attr-defined]
    ),
    "pass": Command(frozenset({"rack", "seen", "seed", "which"}), _solve_pass, _pass_json, _pass_text),
    "discard": Command(
        frozenset({"rack", "exposed", "seen", "others", "late"}), _solve_discard, _discard_json, _discard_text
    ),
}


def read_request(raw: str | bytes, keys: frozenset[str], loads: Callable[[str | bytes], object] = json.loads) -> dict:
    """One batch line as a request: a JSON object with known keys only."""
    return checked_request(loads(raw), keys)


def checked_request(obj: object, keys: frozenset[str]) -> dict:
    """A batch line's JSON value as a request: an object with known keys only."""
    if not isinstance(obj, dict):
        raise ValueError('each line must be a JSON object such as {"rack": "1D 2D ..."}')
    unknown = sorted(set(obj) - keys)
    if unknown:
        raise ValueError(f'unknown key "{unknown[0]}" (allowed: {", ".join(sorted(keys))})')
    return obj


BATCH_ERRORS = (ValueError, TypeError, RecursionError)  # json.JSONDecodeError is a ValueError


def error_reply(error: BaseException) -> dict:
    """The answer to a bad batch line: {"error": ...}, in plain words."""
    if isinstance(error, json.JSONDecodeError):
        return {"error": f"not valid JSON ({error.msg} at column {error.colno})"}
    if isinstance(error, RecursionError):
        return {"error": "not valid input: the JSON is nested too deeply"}
    return {"error": str(error)}


def _batch(stdin: TextIO, stdout: TextIO, keys: frozenset[str], answer: Callable[[dict], dict]) -> int:
    for raw in stdin:
        if not raw.strip():
            continue
        try:
            reply = answer(read_request(raw, keys))
        except BATCH_ERRORS as error:
            reply = error_reply(error)
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
    return 0


def run_command(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    command = COMMANDS[args.command]
    card = _card(args.card)
    if args.command == "analyze":  # the lean batch mode: --fields, --top, orjson (issue 13)
        from coach.cli import batch as analyze_batch

        return analyze_batch.run_analyze(card, args, stdin, stdout)
    if args.rack is None:
        return _batch(stdin, stdout, command.keys, lambda obj: command.to_json(command.solve(card, obj)))
    request = {key: getattr(args, key) for key in command.keys if getattr(args, key, None) is not None}
    if args.command == "score" and "win" not in request:
        raise UsageError("score needs --win self, discard or exchange")
    result = command.solve(card, request)
    if args.json:
        stdout.write(json.dumps(command.to_json(result)) + "\n")
    else:
        stdout.write(command.render(result, args) + "\n")
    return 0


def cmd_check_card(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.notation.card import load_card  # no cache: a check reads and validates the file itself

    try:
        card = load_card(args.file)
    except CardError as error:
        for problem in error.problems:
            stdout.write(problem + "\n")
        raise
    from drills.kit.card_weight import weight_problem  # as the upload does: a card too heavy to drill on

    heavy = weight_problem(card)
    if heavy:
        stdout.write(heavy + "\n")
        raise UsageError(f"{args.file}: {heavy.split(':', 1)[0]}")
    readings = sum(len(line.readings) for line in card.lines)
    stdout.write(
        f"{card.name}: {len(card.sections)} sections, {len(card.lines)} lines, "
        f"{readings} readings. The card is valid.\n"
    )
    return 0


def cmd_check_set(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    # drills import the core, not the other way round: load them only here.
    from coach.notation.yamlfile import YamlError, read_text
    from drills.sets import HOUSE, MAX_BYTES, SetError, parse_set

    try:
        text = read_text(Path(args.file), MAX_BYTES, "drill set file")
    except YamlError as error:
        raise UsageError(f"{args.file}: {error}") from None
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise UsageError(f"{args.file}: cannot read the drill set ({reason})") from None
    try:
        drill_set = parse_set(text, cards=[HOUSE, *args.card], seed_default=0)
    except SetError as error:
        for problem in error.problems:
            stdout.write(f"{args.file}, {problem}\n")
        raise UsageError(f"{args.file}: {error.total} problem(s) in the drill set") from None
    stdout.write(
        f"{drill_set.title}: {len(drill_set.items)} drills, {drill_set.total} questions, "
        f"{drill_set.seeds} seeds, card {drill_set.card}. The set is valid.\n"
    )
    return 0


def cmd_simulate(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.tools import simulate_charleston as simulate

    args.progress = sys.stderr if args.verbose else None
    return simulate.run(args, stdout)


def cmd_play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.play.hand import SEATS
    from coach.play.bots import STRENGTHS, play

    strengths = [s.strip() for s in args.bots.split(",")]
    if len(strengths) == 1:
        strengths *= 4
    if len(strengths) != 4 or any(s not in STRENGTHS for s in strengths):
        raise UsageError(f"--bots is one strength or four, East first, each one of {', '.join(STRENGTHS)}")
    timings: list[float] = []
    hand = play(_card(args.card), args.seed, dict(zip(SEATS, strengths)), timings=timings)
    if args.timing and timings:
        ms = sorted(t * 1000 for t in timings)
        print(
            f"{len(ms)} bot decisions (process CPU): median {ms[len(ms) // 2]:.1f} ms, "
            f"p95 {ms[int(len(ms) * 0.95)]:.1f} ms, max {ms[-1]:.1f} ms",
            file=sys.stderr,
        )
    record = hand.record()
    record["bots"] = dict(zip(SEATS, strengths))
    stdout.write(json.dumps(record, indent=None if args.compact else 1) + "\n")
    return 0


def cmd_selfplay(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.tools import selfplay

    return selfplay.run(args, stdout)


def cmd_review(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.play.hand import Action, HandError
    from coach.play.review import review, review_text

    try:
        with open(args.record, "rb") as handle:
            raw = handle.read(4_000_001)
    except OSError as error:
        raise UsageError(f"cannot read {args.record}: {error.strerror or error}") from None
    if len(raw) > 4_000_000:
        raise UsageError("a hand record is at most 4 MB")
    try:
        record = json.loads(raw)
    except ValueError:
        raise UsageError(f"{args.record} is not JSON: write the record `play` prints") from None
    if not isinstance(record, dict) or not isinstance(record.get("seed"), int) or not isinstance(record.get("actions"), list):
        raise UsageError('a hand record has "seed" (a number) and "actions" (a list), as `play` prints it')
    card = _card(args.card)
    if record.get("card", card.name) != card.name:
        raise UsageError(f'the hand was played on "{record["card"]}": give that card with --card')
    try:
        actions = [Action.from_json(a) for a in record["actions"]]
        found = review(card, record["seed"], actions, args.seat)
    except HandError as error:
        raise UsageError(f"the record does not replay: {error}") from None
    stdout.write((json.dumps(found.to_json(), indent=1) if args.json else review_text(found)) + "\n")
    return 0


def cmd_serve(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.web.serve import PortTaken, serve

    try:
        serve(host=args.host, port=args.port)
    except PortTaken as taken:
        print(taken, file=sys.stderr)
        return 2
    return 0


def cmd_load(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.tools import load

    names = [name.strip() for name in args.drills.split(",") if name.strip()]
    if names == ["all"]:
        from drills import DRILLS

        names = list(DRILLS)
    if not names:
        raise UsageError("--drills names at least one drill")
    if args.think < 0 or args.think > 60:
        raise UsageError("--think is a pause in seconds, from 0 to 60")
    args.drills = names
    return load.run(args, stdout)


def cmd_bench(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.tools import bench

    return bench.run(args, stdout)


def cmd_reset_link(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.web.account.password_reset import print_link

    return print_link(args, stdout)


def _duration(text: str) -> timedelta:
    """ "30d", "12h" or "2w" (a bare number is days)."""
    from datetime import timedelta

    match = re.fullmatch(r"\s*(\d{1,6})\s*([dhw]?)\s*", text)
    unit = {"h": "hours", "w": "weeks"}.get(match.group(2), "days") if match else "days"
    age = timedelta(**{unit: int(match.group(1))}) if match else timedelta(0)
    if not timedelta(0) < age <= timedelta(days=36525):
        raise UsageError(f'--older-than must be a positive age up to 100 years, such as 30d, 12h or 2w, not "{text[:40]}"')
    return age


def cmd_purge_guests(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from sqlmodel import Session

    from coach.store.db import database_url, make_engine, migrate
    from coach.store.guests import purge_guests
    from coach.web.infra.places import instance_folder

    from datetime import datetime, timezone

    age = _duration(args.older_than)
    engine = make_engine(database_url(instance_folder()))
    try:
        migrate(engine)
        with Session(engine) as session:
            count = purge_guests(session, datetime.now(timezone.utc) - age, dry_run=args.dry_run)
    finally:
        engine.dispose()
    guests = "guest" if count == 1 else "guests"
    verb = "would be removed (dry run: nothing was deleted)" if args.dry_run else "removed"
    stdout.write(f"{count} {guests} with nothing done in the last {args.older_than.strip()} {verb}.\n")
    return 0


def _parser_analyze(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("analyze", help="rank every line of the card for a rack")
    p.add_argument("--card", metavar="FILE", help="a card file (default: the house card)")
    p.add_argument("--rack", help='concealed tiles, e.g. "1D 1D 2B WD F J N"; without it, read JSON lines from stdin')
    p.add_argument("--exposed", action="append", metavar="TILES", help='an exposed group, e.g. "5D 5D J" (repeatable)')
    p.add_argument("--seen", metavar="TILES", help="tiles seen: discards and other players' exposures")
    p.add_argument("--json", action="store_true", help="answer in JSON")
    p.add_argument("--top", type=int, help="only the N nearest lines (default: 10 in the table, all in JSON)")
    p.add_argument("--fields", help="JSON: only these fields of each line, e.g. id,distance (default: all)")
    p.set_defaults(func=run_command)


def _parser_score(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("score", help="is it Mah Jongg, and who pays what")
    p.add_argument("--card", metavar="FILE")
    p.add_argument("--rack", help="the 14 tiles less the exposures; without it, read JSON lines from stdin")
    p.add_argument("--exposed", action="append", metavar="TILES")
    p.add_argument("--win", choices=WIN_CHOICES, help="self-picked, on a discard, or by a joker exchange (P6)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_command)


def _parser_pass(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("pass", help="score every legal Charleston pass and explain the best")
    p.add_argument("--card", metavar="FILE")
    p.add_argument("--rack", help="13 or 14 tiles; without it, read JSON lines from stdin")
    p.add_argument("--which", choices=list(PASS_CHOICES), default="first-right", help="which pass (default first-right)")
    p.add_argument("--seen", metavar="TILES")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampled incoming tiles (default 0)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--top", type=int, default=10)
    p.set_defaults(func=run_command)


def _parser_discard(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("discard", help="which tile to throw, with hot and safe tiles (D1)")
    p.add_argument("--card", metavar="FILE")
    p.add_argument("--rack", help="your tiles after the draw; with exposures, 14 in all")
    p.add_argument("--exposed", action="append", metavar="TILES", help="your own exposures (repeatable)")
    p.add_argument("--others", action="append", metavar="TILES", help="another player's exposure (repeatable)")
    p.add_argument("--seen", metavar="TILES", help="the discards on the table")
    p.add_argument("--late", action="store_true", help="late in the hand: defence first (D1)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--top", type=int, default=14)
    p.set_defaults(func=run_command)


def _parser_simulate_charleston(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("simulate-charleston", help="the coach's passes against simple policies on real deals")
    p.add_argument("--deals", type=int, default=200, help="deals to play (default 200)")
    p.add_argument("--draws", type=int, default=80, help="draws after the Charleston before a wall game (default 80)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    p.add_argument("--samples", type=int, default=64, help="the coach's first-stage samples per pass (default 64)")
    p.add_argument("--card", metavar="FILE")
    p.add_argument("--verbose", action="store_true", help="progress on standard error")
    p.set_defaults(func=cmd_simulate)


def _parser_play(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("play", help="four computer players play a hand; prints its record (JSON)")
    p.add_argument("--seed", type=int, default=1, help="the wall's seed (default 1)")
    p.add_argument("--bots", default="club", help="beginner, club or shark; or four, East first, comma-separated")
    p.add_argument("--card", metavar="FILE")
    p.add_argument("--compact", action="store_true", help="the record on one line")
    p.add_argument("--timing", action="store_true", help="how long the bots' decisions took, on standard error")
    p.set_defaults(func=cmd_play)


def _parser_selfplay(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("selfplay", help="computer players against each other: wins, wall games, speed (a measurement)")
    p.add_argument("--hands", type=int, default=200, help="hands at each strength, and per pair of strengths (default 200)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    p.add_argument("--tables", choices=["same", "mixed", "all"], default="all", help="four of one strength, pairs, or both")
    p.add_argument("--check", action="store_true", help="count the 152 tiles after every action and replay each record")
    p.add_argument("--review-every", type=int, default=10, metavar="K", help="time the review of every Kth hand (0: none)")
    p.add_argument("--only", metavar="TABLES", help="only these tables, e.g. shark,beginner-shark (to split a long run)")
    p.add_argument("--card", metavar="FILE")
    p.set_defaults(func=cmd_selfplay)


def _parser_review(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("review", help="a coach's review of one player's decisions in a played hand")
    p.add_argument("record", metavar="HAND.json", help="the record `play` prints")
    p.add_argument("--seat", default="East", choices=["East", "South", "West", "North"], help="whose decisions (default East)")
    p.add_argument("--card", metavar="FILE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_review)


def _parser_serve(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("serve", help="serve the web app")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    p.set_defaults(func=cmd_serve)


def _parser_load(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("load", help="load-test the web API on loopback against a bare route")
    p.add_argument("--clients", type=int, default=16, help="concurrent clients (default 16)")
    p.add_argument("--seconds", type=float, default=5.0, help="length of each phase (default 5)")
    p.add_argument("--drills", default="name-the-tile,nearest-hand,first-pass", help="drills, comma-separated, or all")
    p.add_argument("--think", type=float, default=0.0, help="each client's mean pause between round trips, in seconds (default 0: none)")
    p.add_argument("--shared", action="store_true", help="every client the same questions in the same order, as a class on a drill set")
    p.add_argument("--port", type=int, help="test a server already running on 127.0.0.1:PORT instead of starting one")
    p.add_argument("--pid", type=int, help="with --port: that server's process id, to report its CPU a request")
    p.set_defaults(func=cmd_load)


def _parser_check_card(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("check-card", help="validate a card file and list every problem")
    p.add_argument("file")
    p.set_defaults(func=cmd_check_card)


def _parser_check_set(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("check-set", help="validate a drill set file (YAML) and list every problem")
    p.add_argument("file")
    p.add_argument("--card", action="append", default=[], metavar="NAME", help="a card name the set may use (repeatable)")
    p.set_defaults(func=cmd_check_set)


def _parser_purge_guests(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("purge-guests", help="delete guests with no answer (and no class joined) recently")
    p.add_argument("--older-than", required=True, metavar="AGE", help="e.g. 30d: guests whose last answer or creation is older")
    p.add_argument("--dry-run", action="store_true", help="only count them")
    p.set_defaults(func=cmd_purge_guests)


def _parser_bench(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("bench", help="measure analysis speed against a plain baseline")
    p.add_argument("--seconds", type=float, default=0.5, help="time per measurement a round (default 0.5)")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds: min and median over them (default 3)")
    p.add_argument("--racks", type=int, default=3000, help="racks piped through each whole process (default 3000)")
    p.add_argument("--no-web", action="store_true", help="skip the web answers")
    p.add_argument("--card", metavar="FILE")
    p.set_defaults(func=cmd_bench)


def _parser_reset_link(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("reset-link", help="print a password reset link for an account (an hour, once)")
    p.add_argument("email", help="the account's email address")
    p.add_argument("--base-url", help="the site's address (default: COACH_BASE_URL, else http://127.0.0.1:5000)")
    p.set_defaults(func=cmd_reset_link)


# Each command's parser, built only when asked for (argparse costs a start ~8 ms for all 16).
SUBPARSERS = {
    "analyze": _parser_analyze,
    "score": _parser_score,
    "pass": _parser_pass,
    "discard": _parser_discard,
    "simulate-charleston": _parser_simulate_charleston,
    "play": _parser_play,
    "selfplay": _parser_selfplay,
    "review": _parser_review,
    "serve": _parser_serve,
    "load": _parser_load,
    "check-card": _parser_check_card,
    "check-set": _parser_check_set,
    "purge-guests": _parser_purge_guests,
    "bench": _parser_bench,
    "reset-link": _parser_reset_link,
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `only` a command's name, only that command in it."""
    parser = _Parser(prog=PROG, description="Mahjong Coach: American mahjong analysis and drills.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, add in SUBPARSERS.items():
        if only is None or name == only:
            add(commands)
    return parser


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv and argv[0] in SUBPARSERS else None)
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            raise UsageError("choose a command: analyze, score, pass, discard, play, review, serve, check-card, check-set or bench (--help for more)")
        return args.func(args, stdin, stdout)
    except (UsageError, CardError, HoldingError, tiles.TileError, ValueError) as error:  # PassError is a ValueError
        message = " ".join(str(error).split()) or type(error).__name__
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except RecursionError:
        print(f"{PROG}: error: the input is nested too deeply", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0

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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

# One BLAS thread, set before numpy loads: a command's matrix products are
# small, and starting OpenBLAS's thread a core costs a command more CPU than
# they save (issue 13). A value the user set stands.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from coach import __version__
from coach.cli.requests import BATCH_ERRORS, UsageError, error_reply, read_request
from coach.common.blas import one_blas_thread
from coach.notation import tiles

if TYPE_CHECKING:  # the commands import what they use when run: a quick start (issues 13 and 26)
    from datetime import timedelta

    from coach.notation.card import Card
    from coach.rules.table_rules import TableRules

# Choices named here so that building the parser imports no command's module
# and a lean `analyze` no rules module (issue 26); tests/core/test_analyze_batch.py
# holds them equal to coach.rules.charleston.PASSES and coach.rules.mahjong.WINS.
PASS_CHOICES = ("first-right", "first-across", "first-left", "second-left", "second-across", "second-right", "courtesy")
WIN_CHOICES = ("self", "discard", "exchange")

PROG = "mahjong-coach"


class _Formatter(argparse.HelpFormatter):
    """argparse's own, told the terminal's width: left to itself it imports
    shutil (and with it bz2 and lzma) to ask, on every start (issue 13)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        if width is None:
            try:
                width = int(os.environ.get("COLUMNS", 0)) or os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]  # no __stdout__ (pythonw): the AttributeError is caught below
            except (AttributeError, ValueError, OSError):
                width = 80
            width -= 2
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _Formatter)  # the commands' parsers too
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # one line, not argparse's usage block
        raise UsageError(message)


def _card(path: str | None) -> Card:
    from coach.reading.disk_cache import house_card_cached, load_card_cached

    return load_card_cached(path) if path else house_card_cached()


# -- commands ---------------------------------------------------------------


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
    if args.command == "analyze":  # the lean batch mode: --fields, --top, orjson (issues 13 and 26)
        from coach.cli import batch as analyze_batch

        return analyze_batch.run_analyze(args, stdin, stdout, _card)
    from coach.cli.commands import COMMANDS

    command = COMMANDS[args.command]
    card = _card(args.card)
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
    from coach.notation.card import CardError, load_card  # no cache: a check reads and validates the file itself

    try:
        card = load_card(args.file)
    except CardError as error:
        for problem in error.problems:
            stdout.write(problem + "\n")
        raise
    from drills.weight import weight_problem  # as the upload does: a card too heavy to drill on

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
    from coach.play.bots import STRENGTHS, play
    from coach.play.hand import SEATS

    strengths = [s.strip() for s in args.bots.split(",")]
    if len(strengths) == 1:
        strengths *= 4
    if len(strengths) != 4 or any(s not in STRENGTHS for s in strengths):
        raise UsageError(f"--bots is one strength or four, East first, each one of {', '.join(STRENGTHS)}")
    timings: list[float] = []
    hand = play(_card(args.card), args.seed, dict(zip(SEATS, strengths)), timings=timings, rules=_rules(args.rules))
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


def _rules(code: str) -> TableRules:
    """Table rules from a code of `TableRules.code` ("b4.cold"), or a UsageError naming the fault."""
    from coach.rules.table_rules import TableRules, TableRulesError

    try:
        return TableRules.from_code(code or "")
    except TableRulesError as error:
        raise UsageError(f"--rules: {error}") from None


def cmd_selfplay(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.tools import selfplay

    if args.all_switches:
        from coach.tools import selfplay_switches

        if args.rules:
            raise UsageError("--all-switches plays every switch set itself: give --sets CODES instead of --rules")
        for code in (args.sets or "").split(","):
            _rules(code.strip())
        return selfplay_switches.run(args, stdout)
    _rules(args.rules)
    return selfplay.run(args, stdout)


def cmd_review(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.play.hand import Action, HandError, rules_of
    from coach.play.review import review, review_text
    from coach.rules.table_rules import TableRulesError

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
        rules = rules_of(record)  # `play` always writes them; a record without any predates the switches (C6 on)
    except TableRulesError as error:
        raise UsageError(f"the record's rules: {error}") from None
    try:
        actions = [Action.from_json(a) for a in record["actions"]]
        found = review(card, record["seed"], actions, args.seat, rules=rules)
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
    if not 1 <= args.start_timeout <= 3600:
        raise UsageError("--start-timeout is the seconds to wait for the server to start, from 1 to 3600")
    args.drills = names
    if args.flood:  # issue 26: learners' drills while addresses flood the sign-in form
        if args.port or not 1 <= args.flood <= 250:
            raise UsageError("--flood starts its own server, with 1 to 250 flooding addresses")
        from coach.tools import flood

        return flood.run(args, stdout)
    try:
        return load.run(args, stdout)
    except load.ServerDidNotStart as error:
        print(f"{PROG}: load: {error}", file=sys.stderr)
        return 1


def cmd_load_tables(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.tools import load, load_tables

    if not 1 <= args.tables <= 250:
        raise UsageError("--tables is from 1 to 250")
    if not 0 < args.think <= 60:
        raise UsageError("--think is a person's mean pause before a decision, in seconds, over 0 and at most 60")
    if not 1 <= args.seconds <= 3600 or not 1 <= args.workers <= 16 or not 1 <= args.start_timeout <= 3600:
        raise UsageError("--seconds is from 1 to 3600, --workers from 1 to 16, --start-timeout from 1 to 3600")
    try:
        return load_tables.run(args, stdout)
    except load.ServerDidNotStart as error:
        print(f"{PROG}: load-tables: {error}", file=sys.stderr)
        return 1


def cmd_bench(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.tools import bench

    return bench.run(args, stdout, main)


def cmd_reset_link(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach.web import create_app
    from coach.web.account.password_reset import print_link

    return print_link(create_app(), args, stdout)


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

    from coach.common import clock
    from coach.store.db import database_url, make_engine, migrate
    from coach.store.guests import purge_guests
    from coach.web.infra.places import instance_folder

    age = _duration(args.older_than)
    engine = make_engine(database_url(instance_folder()))
    try:
        migrate(engine)
        with Session(engine) as session:
            count = purge_guests(session, clock.now() - age, dry_run=args.dry_run)
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
    p.add_argument("--rules", default="", metavar="CODE", help='table rules, e.g. "b4.cold" (default: the League\'s)')
    p.set_defaults(func=cmd_play)


def _parser_selfplay(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("selfplay", help="computer players against each other: wins, wall games, speed (a measurement)")
    p.add_argument("--hands", type=int, default=200, help="hands at each strength, and per pair of strengths (default 200)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    p.add_argument("--tables", choices=["same", "mixed", "all"], default="all", help="four of one strength, pairs, or both")
    p.add_argument("--check", action="store_true", help="count the 152 tiles after every action and replay each record")
    p.add_argument("--review-every", type=int, default=10, metavar="K", help="time the review of every Kth hand (0: none)")
    p.add_argument("--only", metavar="TABLES", help="only these tables, e.g. shark,beginner-shark (to split a long run)")
    p.add_argument("--rules", default="", metavar="CODE", help='table rules, e.g. "b4.cold" or "3p.fs" (default: the League\'s; docs/table-rules.md)')
    p.add_argument("--all-switches", action="store_true",
                   help="check the engine under each table rule and each pair: tiles counted, records replayed (docs/table-rules.md)")
    p.add_argument("--switch-sets", choices=["singles", "pairs", "all"], default="all",
                   help="with --all-switches: each switch alone, each pair, or both (default)")
    p.add_argument("--sets", default="", metavar="CODES", help='with --all-switches: only these sets, e.g. "b2,cold,b4.3p"')
    p.add_argument("--strong-every", type=int, default=10, metavar="K",
                   help="with --all-switches: every Kth hand seats all four strengths (default 10; 0: quick ones only)")
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
    p.add_argument(
        "--flood", type=int, default=0, metavar="N",
        help="N addresses flood the sign-in form while the learners drill: their drill p95 quiet and flooded, and the ratio",
    )
    p.add_argument(
        "--start-timeout", type=float, default=120.0, metavar="S",
        help="seconds to wait for the server it starts to answer (default 120: a busy machine may need a minute)",
    )
    p.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON (coach bench reads them)")
    p.set_defaults(func=cmd_load)


def _parser_load_tables(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("load-tables", help="load-test live tables of simulated people: how soon a move reaches the others")
    p.add_argument("--tables", type=int, default=40, help="tables of four simulated people (default 40)")
    p.add_argument("--think", type=float, default=2.0, help="each person's mean pause before a decision, in seconds (default 2)")
    p.add_argument("--seconds", type=float, default=120.0, help="how long the tables play (default 120)")
    p.add_argument("--workers", type=int, default=2, help="the server's gunicorn workers (default 2)")
    p.add_argument("--seed", type=int, default=1, help="the simulated people's choices (default 1)")
    p.add_argument("--start-timeout", type=float, default=120.0, metavar="S", help="seconds to wait for the server it starts (default 120)")
    p.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    p.set_defaults(func=cmd_load_tables)


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
    p.add_argument("--no-load", action="store_true", help="skip the `coach load` runs behind the efficiency, capacity and class goals")
    p.add_argument("--load-runs", type=int, default=3, help="`coach load --clients 16 --drills all` runs: the median is the goal's (default 3)")
    p.add_argument("--load-seconds", type=float, default=2.0, help="each load phase's length (default 2)")
    p.add_argument("--class-seconds", type=float, default=5.0, help="each phase's length at a class's pace, 32 clients, --think 1 (default 5)")
    p.add_argument("--card", metavar="FILE")
    p.set_defaults(func=cmd_bench)


def _parser_reset_link(commands: argparse._SubParsersAction) -> None:
    from coach.common.settings import BASE_URL

    p = commands.add_parser("reset-link", help="print a password reset link for an account (an hour, once)")
    p.add_argument("email", help="the account's email address")
    p.add_argument("--base-url", help=f"the site's address (default: {BASE_URL.name}, else http://127.0.0.1:5000)")
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
    "load-tables": _parser_load_tables,
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
        if "numpy" in sys.modules:  # called in a process that has it (tests, the bench); else no BLAS is loaded
            one_blas_thread()  # yet, threadpoolctl would find none to limit, and OPENBLAS_NUM_THREADS above does it
        if args.command is None:
            raise UsageError("choose a command: analyze, score, pass, discard, play, review, serve, check-card, check-set or bench (--help for more)")
        return args.func(args, stdin, stdout)
    except (UsageError, tiles.TileError, ValueError) as error:  # CardError, PassError and HoldingError are ValueErrors
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

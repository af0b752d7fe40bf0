"""The command line: `python -m coach analyze | score | check-card | bench`.

Every error exits with status 2 and one line on standard error that
names the problem. Batch mode (no --rack) reads one JSON object a line
and answers one JSON line each, in order; a bad line answers
{"error": "..."} and the next lines are still answered.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from coach import tiles
from coach.analysis import Analysis, LineResult, analyze
from coach.card import Card, CardError, house_card, load_card
from coach.mahjong import WINS, score
from coach.tiles_away import Fill, Holding, HoldingError, read_holding

PROG = "mahjong-coach"


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage block
        raise UsageError(message)


def _card(path: str | None) -> Card:
    return load_card(path) if path else house_card()


# -- formatting -----------------------------------------------------------


def _part_text(codes: list[str]) -> str:
    if len(codes) >= 3 and len(set(codes)) == 1:
        return f"{codes[0]}×{len(codes)}"
    return " ".join(codes)


def _missing_text(f: Fill) -> str:
    if f.distance == 0:
        return "nothing: Mah Jongg!"
    words = []
    for m in f.missing:
        amount = f"×{m.count}" if m.count > 1 else ""
        words.append(f"{tiles.CODES[m.tile]}{amount} ({'joker ok' if m.joker_ok else 'no joker'})")
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


def _holding_from_json(obj: object, sizes: tuple[int, ...]) -> tuple[Holding, tuple[int, ...]]:
    if not isinstance(obj, dict):
        raise ValueError('each line must be a JSON object such as {"rack": "1D 2D ..."}')
    for key in ("rack", "seen"):
        if key in obj and obj[key] is not None and not isinstance(obj[key], (str, list)):
            raise ValueError(f'"{key}" must be tiles as text such as "1D 2D N", or a list of codes')
    if obj.get("rack") is None:
        raise ValueError('"rack" must be tiles as text such as "1D 2D N"')
    return read_holding(obj["rack"], obj.get("exposed") or (), obj.get("seen") or "", sizes)


def _check_keys(obj: object, allowed: set[str]) -> None:
    if isinstance(obj, dict):
        unknown = sorted(set(obj) - allowed)
        if unknown:
            raise ValueError(f'unknown key "{unknown[0]}" (allowed: {", ".join(sorted(allowed))})')
        if "rack" not in obj:
            raise ValueError('"rack" is missing')
        exposed = obj.get("exposed")
        if exposed is not None and not isinstance(exposed, list):
            raise ValueError('"exposed" must be a list such as ["5D 5D J"]')


def _batch(stdin: TextIO, stdout: TextIO, answer: Callable[[dict], dict]) -> int:
    for raw in stdin:
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
            reply = answer(obj)
        except json.JSONDecodeError as error:
            reply = {"error": f"not valid JSON ({error.msg} at column {error.colno})"}
        except RecursionError:
            reply = {"error": "not valid input: the JSON is nested too deeply"}
        except KeyError as error:
            reply = {"error": f"{error.args[0]!r} is missing"}
        except (ValueError, TypeError) as error:
            reply = {"error": str(error)}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
    return 0


def cmd_analyze(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    card = _card(args.card)
    if args.rack is None:
        def answer(obj: dict) -> dict:
            _check_keys(obj, {"rack", "exposed", "seen"})
            holding, seen = _holding_from_json(obj, (13, 14))
            return analyze(card, holding, seen).to_json()

        return _batch(stdin, stdout, answer)
    holding, seen = read_holding(args.rack, args.exposed or (), args.seen or "")
    result = analyze(card, holding, seen)
    if args.json:
        stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        stdout.write(render_analysis(result, args.top) + "\n")
    return 0


def cmd_score(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    card = _card(args.card)
    if args.rack is None:
        def answer(obj: dict) -> dict:
            _check_keys(obj, {"rack", "exposed", "win"})
            win = obj.get("win")
            if win not in WINS:
                raise ValueError(f'"win" must be one of {", ".join(WINS)}')
            holding, _ = _holding_from_json(obj, (14,))
            return score(card, holding, win).to_json()

        return _batch(stdin, stdout, answer)
    if args.win is None:
        raise UsageError("score needs --win self, discard or exchange")
    holding, _ = read_holding(args.rack, args.exposed or (), "", (14,))
    payment = score(card, holding, args.win)
    if args.json:
        stdout.write(json.dumps(payment.to_json()) + "\n")
    else:
        stdout.write("\n".join(payment.explanation) + "\n")
    return 0


def cmd_check_card(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    try:
        card = load_card(args.file)
    except CardError as error:
        for problem in error.problems:
            stdout.write(problem + "\n")
        raise
    readings = sum(len(line.readings) for line in card.lines)
    stdout.write(
        f"{card.name}: {len(card.sections)} sections, {len(card.lines)} lines, "
        f"{readings} readings. The card is valid.\n"
    )
    return 0


def cmd_bench(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from coach import bench

    return bench.run(args, stdout)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Mahjong Coach: American mahjong analysis and drills.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = commands.add_parser("analyze", help="rank every line of the card for a rack")
    p.add_argument("--card", metavar="FILE", help="a card file (default: the house card)")
    p.add_argument("--rack", help='concealed tiles, e.g. "1D 1D 2B WD F J N"; without it, read JSON lines from stdin')
    p.add_argument("--exposed", action="append", metavar="TILES", help='an exposed group, e.g. "5D 5D J" (repeatable)')
    p.add_argument("--seen", metavar="TILES", help="tiles seen: discards and other players' exposures")
    p.add_argument("--json", action="store_true", help="answer in JSON")
    p.add_argument("--top", type=int, default=10, help="lines shown in the table (default 10)")
    p.set_defaults(func=cmd_analyze)

    p = commands.add_parser("score", help="is it Mah Jongg, and who pays what")
    p.add_argument("--card", metavar="FILE")
    p.add_argument("--rack", help="the 14 tiles less the exposures; without it, read JSON lines from stdin")
    p.add_argument("--exposed", action="append", metavar="TILES")
    p.add_argument("--win", choices=WINS, help="self-picked, on a discard, or by a joker exchange (P6)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_score)

    p = commands.add_parser("check-card", help="validate a card file and list every problem")
    p.add_argument("file")
    p.set_defaults(func=cmd_check_card)

    p = commands.add_parser("bench", help="measure analysis speed against a plain baseline")
    p.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    p.add_argument("--card", metavar="FILE")
    p.set_defaults(func=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            raise UsageError("choose a command: analyze, score, check-card or bench (--help for more)")
        return args.func(args, stdin, stdout)
    except (UsageError, CardError, HoldingError, tiles.TileError, ValueError) as error:
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

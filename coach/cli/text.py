"""The command line's text (not --json) answers: the analysis table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from coach.notation import tiles

if TYPE_CHECKING:  # the analysis loads only when a command runs: a quick start (issue 13)
    from coach.reading.analysis import Analysis, LineResult
    from coach.reading.tiles_away import Fill


def part_text(codes: list[str]) -> str:
    if len(codes) >= 3 and len(set(codes)) == 1:
        return f"{codes[0]}×{len(codes)}"
    return " ".join(codes)


def missing_text(f: Fill) -> str:
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
        rows.append(line_row(r))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        cells = [row[0].ljust(widths[0]), row[1].rjust(widths[1]), row[2].rjust(widths[2]),
                 row[3].rjust(widths[3]), row[4].ljust(widths[4]), row[5]]
        out.append("  ".join(cells).rstrip())
    hidden = len(result.lines) - top
    if hidden > 0:
        out.append(f"... and {hidden} more lines (--top N to see more, --json for all)")
    return "\n".join(out)


def line_row(r: LineResult) -> tuple[str, str, str, str, str, str]:
    concealed = " C" if r.line.concealed else ""
    if r.distance is None or r.fill is None or r.reading is None:
        return (r.line.id + concealed, "-", str(r.line.value), "-", r.line.pattern, r.reason or "")
    reading = " · ".join(part_text(p) for p in r.reading.printed())
    outs = "dead" if r.dead else str(r.live_outs)
    return (r.line.id + concealed, str(r.distance), str(r.line.value), outs, reading, missing_text(r.fill))

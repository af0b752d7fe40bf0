"""`python -m coach calibrate`: fit the coach's outlook models on self-play hands.

A measurement that writes `coach/play/outlook.json` (see `coach.play.outlook`).
Computer players play N hands; at every discard two kinds of row are kept:

- the discarder's holding after the throw (its nearest live line, the
  wall), labelled with whether that seat went on to win the hand;
- for each other seat, the thrown tile against their exposures (the share
  of their possible hands that need it, D1), labelled with whether that
  seat called it for Mah Jongg (K3).

Each model is a logistic regression fitted by Newton's method with a small
ridge. Every fifth hand is held out; the note says how much better than a
constant each model predicts them (log loss), and a calibration table by
tenths of predicted chance is printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np

from coach.advice.discard import danger
from coach.common.blas import one_blas_thread
from coach.notation import tiles
from coach.notation.card import Card, house_card
from coach.play.bots import play
from coach.play.hand import SEATS, Action, Hand
from coach.play.outlook import MODEL_FILE, danger_features, prospect, seen_tiles, win_features

HOLD_OUT = 5  # every fifth hand is held out to measure the fit


@dataclass
class Rows:
    win_x: list[np.ndarray] = field(default_factory=list)
    win_key: list[tuple[int, str]] = field(default_factory=list)  # (hand, seat): labelled at the end
    danger_x: list[np.ndarray] = field(default_factory=list)
    danger_key: list[tuple[int, int, str]] = field(default_factory=list)  # (hand, discard number, seat)
    hand_of_win: list[int] = field(default_factory=list)
    hand_of_danger: list[int] = field(default_factory=list)


def _collect(card: Card, number: int, seed: int, strengths: dict[str, str], rows: Rows) -> Hand:
    discards = 0

    def watch(hand: Hand, action: Action, spent: float) -> None:
        nonlocal discards
        if action.kind != "discard":
            return
        seat, tile = action.seat, tiles.INDEX[action.tiles[0]]
        wall = len(hand.wall) + (0 if hand.latest is not None else 1)  # the next seat may have drawn already
        seen = seen_tiles(hand, seat)
        rows.win_x.append(win_features(prospect(card, hand.holding(seat), seen), wall))
        rows.win_key.append((number, seat))
        rows.hand_of_win.append(number)
        floor = Counter(t for _, t in hand.discards)
        for other in SEATS:
            if other == seat or tile >= tiles.NATURALS:
                continue
            exposures = [e.as_exposure() for e in hand.exposed[other]]
            share = danger(card, exposures).share(tile) if exposures else 0.0
            if exposures and share == 0.0:
                continue  # no possible hand needs it: the model says 0 without fitting
            rows.danger_x.append(danger_features(share, len(exposures), floor[tile] - 1, wall))
            rows.danger_key.append((number, discards, other))
            rows.hand_of_danger.append(number)
        discards += 1

    hand = play(card, seed, strengths, watch=watch)
    return hand


def _fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-2, rounds: int = 60) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(rounds):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) + ridge * w
        hess = x.T @ (x * (p * (1 - p))[:, None]) + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def _log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _report(name: str, w: np.ndarray, x: np.ndarray, y: np.ndarray, out: TextIO) -> str:
    p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
    base = np.full_like(p, y.mean() if len(y) else 0.5)
    model_loss, base_loss = _log_loss(p, y), _log_loss(base, y)
    out.write(f"{name}: {len(y)} held-out rows, rate {y.mean():.4f}; log loss {model_loss:.4f} against {base_loss:.4f} for a constant\n")
    out.write("  predicted   observed   rows\n")
    edges = np.quantile(p, np.linspace(0, 1, 11)) if len(p) else np.array([])
    for lo, hi in zip(edges[:-1], edges[1:]):
        inside = (p >= lo) & (p <= hi)
        if inside.any():
            out.write(f"  {p[inside].mean():9.4f}  {y[inside].mean():9.4f}  {int(inside.sum()):5d}\n")
    return f"{name} log loss {model_loss:.4f} vs {base_loss:.4f} constant on {len(y)} held-out rows"


def calibrate(card: Card, hands: int, first_seed: int, strengths: tuple[str, ...], out: TextIO, progress: TextIO | None) -> dict:
    rows = Rows()
    won: dict[tuple[int, str], bool] = {}
    mahjong_on: set[tuple[int, int, str]] = set()
    gains: list[float] = []
    for number in range(hands):
        seed = first_seed + number
        seats = {seat: strengths[(number + i) % len(strengths)] for i, seat in enumerate(SEATS)}
        hand = _collect(card, number, seed, seats, rows)
        result = hand.result
        assert result is not None
        for seat in SEATS:
            won[(number, seat)] = result.winner == seat
        if result.winner and result.payment and result.payment.line:
            gains.append(result.pays[result.winner] / result.payment.line.value)
            if result.how == "discard":
                thrown = sum(1 for a in hand.actions if a.kind == "discard") - 1  # the last discard was the winning tile
                mahjong_on.add((number, thrown, result.winner))
        if progress is not None and (number + 1) % 50 == 0:
            progress.write(f"{number + 1} hands\n")
    win_x = np.array(rows.win_x)
    win_y = np.array([won[k] for k in rows.win_key], dtype=float)
    danger_x = np.array(rows.danger_x)
    danger_y = np.array([k in mahjong_on for k in rows.danger_key], dtype=float)
    win_held = np.array(rows.hand_of_win) % HOLD_OUT == 0
    danger_held = np.array(rows.hand_of_danger) % HOLD_OUT == 0
    win_w = _fit(win_x[~win_held], win_y[~win_held])
    danger_w = _fit(danger_x[~danger_held], danger_y[~danger_held])
    notes = [
        _report("win chance", win_w, win_x[win_held], win_y[win_held], out),
        _report("deal-in chance", danger_w, danger_x[danger_held], danger_y[danger_held], out),
    ]
    # The model kept is refitted on every hand.
    model = {
        "win": [round(float(v), 6) for v in _fit(win_x, win_y)],
        "deal_in": [round(float(v), 6) for v in _fit(danger_x, danger_y)],
        "gain_per_value": round(float(np.mean(gains)), 4) if gains else 4.0,
        "mean_value": round(float(np.mean([line.value for line in card.lines])), 4),
        "hands": hands,
        "strengths": list(strengths),
        "card": card.name,
        "note": "; ".join(notes) + f" (every {HOLD_OUT}th of {hands} self-play hands held out)",
    }
    return model


def run(args: argparse.Namespace, out: TextIO, progress: TextIO | None = sys.stderr) -> int:
    one_blas_thread()
    card = house_card()
    model = calibrate(card, args.hands, args.seed, tuple(args.strengths.split(",")), out, progress)
    out.write(json.dumps(model, indent=1) + "\n")
    if args.write:
        MODEL_FILE.write_text(json.dumps(model, indent=1) + "\n")
        out.write(f"written to {MODEL_FILE}\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coach.tools.calibrate", description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=800)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--strengths", default="shark", help="comma-separated strengths, seated in turn")
    parser.add_argument("--write", action="store_true", help=f"write {MODEL_FILE.name}")
    return run(parser.parse_args(argv), sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())

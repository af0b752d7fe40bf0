"""The progress page (GET /progress): how the learner of this session is doing.

For the signed-in learner or the guest of this browser: the streak, today's
answers against the daily goal, accuracy per drill day by day as charts
drawn on the server (`charts`), the weakest skills with a link to practise
each, the last mistakes with their explanations and a link that replays
the very question, and the mastery of every skill in plain words.

Everything is read from the stored answers in one query; days are the
learner's own, in their time zone. A visitor with no answers yet gets a
short welcome and a way to start.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from types import ModuleType
from typing import Any

from flask import Blueprint, current_app, render_template, url_for
from markupsafe import Markup
from sqlmodel import Session, col, select

import drills
from coach.common import clock
from coach.notation import tiles
from coach.notation.card import Card
from coach.rules import catalog as rules
from coach.store.hands import HandStats, hand_stats
from coach.store.models import Attempt, Learner
from coach.store.progress import (
    MASTERY,
    MASTERY_WORDS,
    drill_skill,
    local_day,
    mastery,
    streak,
    zone,
)
from coach.web.infra import database
from coach.web.progress.charts import DayResult, accuracy_chart, goal_ring, long_date, percent
from coach.web.shared import learners
from coach.web.shared.cards import choice as card_choice
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.shared.drilling import Drilling
from coach.web.shared.mistakes import (
    drill_module,
    drill_title,
    json_list,
    known_rule,
    level_ok,
    recent_mistakes,
    tile_label,
)

bp = Blueprint("progress_page", __name__)

CHART_DAYS = 90  # the charts' window, ending today
WEAKEST = 4
WEAK_BELOW = 0.8  # accuracy under this, with at least MIN_ATTEMPTS, is a weak spot
MIN_ATTEMPTS = 2
SEED_SEARCH = 400  # seeds tried to find a question that asks one tile or rule
# Drills cheap enough to generate a few hundred questions per page view, so
# that "practise this" for a tile opens a question about that very tile.
SEARCHABLE = {"name-the-tile"}
MAX_SEED = 2**31


# -- what the page shows ----------------------------------------------------------------


@dataclass
class SkillRow:
    skill: str
    kind: str  # "drill", "tile" or "rule"
    label: str  # "Level 2 · Type the name", "5 Dot", "J2 · ..."
    group: str  # the drill's title, "Tiles" or "Rules"
    attempts: int = 0
    correct: int = 0
    mastery: str = "new"
    peak: str = "new"  # the highest mastery it reached
    tile: str | None = None
    rule: str | None = None
    url: str | None = None  # where to practise it
    carrier: tuple[str, int] | None = None  # an item's drill and level: where it was last missed, else seen
    cards: list[str] = field(default_factory=list)  # the cards it was practised on, as players name them
    results: list[bool] = field(default_factory=list, repr=False)

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0

    @property
    def word(self) -> str:
        return MASTERY_WORDS[self.mastery]

    @property
    def rank(self) -> int:
        return MASTERY.index(self.mastery)

    @property
    def dropping(self) -> bool:
        return MASTERY.index(self.peak) > self.rank

    @property
    def peak_word(self) -> str:
        return MASTERY_WORDS[self.peak]

    @property
    def weak(self) -> bool:
        return self.attempts >= MIN_ATTEMPTS and (self.accuracy < WEAK_BELOW or self.dropping)

    @property
    def why(self) -> str:
        """Why it is a weak spot, in a few words."""
        right = f"{self.correct} of {self.attempts} right"
        if self.dropping:
            return f"Slipped from “{self.peak_word}” to “{self.word}” · {right}"
        return f"{right} ({percent(self.accuracy)})"


@dataclass
class DrillChart:
    name: str
    title: str
    svg: Markup | None
    attempts: int
    correct: int
    days: list[DayResult]
    last_day: date | None

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0


# -- helpers ---------------------------------------------------------------------------------


def _drilling() -> Drilling:
    return current_app.extensions["coach"]


def _prefix_mastery(results: list[bool]) -> tuple[str, str]:
    """The mastery now, and the highest it reached after any answer.

    Mastery reads at most the last ten answers, so each prefix needs only those."""
    peak = 0
    for k in range(1, len(results) + 1):
        window = results[k - 10 : k] if k >= 10 else results[:k]
        peak = max(peak, MASTERY.index(mastery(window)))
    return mastery(results), MASTERY[peak]


def find_seed(module: ModuleType, level: int, item: str, start: int, answered: set[int], card: Card) -> int | None:
    """A seed, not yet answered, whose question exercises `item` (e.g. "tile:5D")."""
    for k in range(SEED_SEARCH):
        seed = (start + k) % MAX_SEED
        if seed in answered:
            continue
        if item in module.generate(seed, level, card).items:
            return seed
    return None


def _stable_seed(*parts: object) -> int:
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") % MAX_SEED


# -- reading the answers ------------------------------------------------------------------------


def load(session: Session, learner: Learner) -> list[Attempt]:
    """The learner's answers, oldest first."""
    return list(
        session.exec(
            select(Attempt).where(Attempt.learner_id == learner.id).order_by(col(Attempt.answered_at), col(Attempt.id))
        ).all()
    )


def build(learner: Learner, attempts: list[Attempt], now: datetime, card: Card | None = None) -> dict[str, Any]:
    """The page's context from the learner's answers (oldest first); `card`
    is the one their drills deal from now (the house card by default): the
    questions they may replay."""
    drilling: Drilling = current_app.extensions["coach"]
    card = card or drilling.card
    tz = zone(learner)
    today = local_day(now, tz)
    days_of = [local_day(a.answered_at, tz) for a in attempts]

    total = len(attempts)
    right = sum(1 for a in attempts if a.correct)
    done_today = sum(1 for d in days_of if d == today)
    goal = max(learner.daily_goal or 0, 1)
    stats = {
        "attempts": total,
        "correct": right,
        "accuracy": right / total if total else 0.0,
        "streak": streak(set(days_of), today),
        "practised_today": today in set(days_of),
        "today": done_today,
        "goal": goal,
        "ring": Markup(goal_ring(done_today, goal, f"{done_today} of {goal} answers today")),
        "time_zone": learner.time_zone,
        "days": len(set(days_of)),
    }

    # Charts: accuracy per drill per local day, on one shared window ending today.
    per_drill: dict[str, dict[date, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for a, day in zip(attempts, days_of):
        cell = per_drill[a.drill][day]
        cell[0] += 1
        cell[1] += int(a.correct)
    first_day = min(days_of) if days_of else today
    start = max(first_day, today - timedelta(days=CHART_DAYS - 1))
    charts = []
    for name in _drill_order(per_drill):
        days = [DayResult(day, n, c) for day, (n, c) in sorted(per_drill[name].items())]
        shown = [d for d in days if d.day >= start]
        title = drill_title(name)
        svg = (
            Markup(accuracy_chart(f"{title}: accuracy per day", shown, f"chart-{name}", start=start, end=today))
            if shown
            else None
        )
        charts.append(
            DrillChart(
                name=name,
                title=title,
                svg=svg,
                attempts=sum(d.attempts for d in days),
                correct=sum(d.correct for d in days),
                days=shown,
                last_day=days[-1].day if days else None,
            )
        )

    rows, answered = _skills(attempts)
    weakest: list[SkillRow] = []
    for row in sorted((r for r in rows.values() if r.weak), key=lambda r: (r.accuracy, r.rank, -r.attempts, r.skill)):
        if row.kind != "drill":  # found only for the few shown: it may generate questions
            row.url = _item_url(learner, row, answered, card)
        if row.url:
            weakest.append(row)
        if len(weakest) == WEAKEST:
            break

    mistakes = recent_mistakes(attempts, today, tz, card)

    return {
        "empty": False,
        "stats": stats,
        "charts": charts,
        "chart_start": start,
        "chart_days": (today - start).days + 1,
        "weakest": weakest,
        "any_weak_candidate": any(r.attempts >= MIN_ATTEMPTS for r in rows.values()),
        "mistakes": mistakes,
        "groups": _groups(rows),
        "mastery_scale": [MASTERY_WORDS[m] for m in MASTERY[1:]],
        "date_label": long_date,
        "signup_url": _signup_url() if learner.guest else None,
    }


def _signup_url() -> str | None:
    """Where a guest makes an account, when the app has accounts."""
    return url_for("accounts.signup") if "accounts.signup" in current_app.view_functions else None


def _drill_order(names) -> list[str]:
    known = [n for n in drills.DRILLS if n in names]
    return known + sorted(n for n in names if n not in drills.DRILLS)


def _skills(attempts: list[Attempt]) -> tuple[dict[str, SkillRow], dict[tuple[str, int], set[int]]]:
    """Every skill: each drill's levels (practised or not) and the finer items
    practised; and the seeds already answered, per drill and level."""
    rows: dict[str, SkillRow] = {}
    # Each drill level, in teaching order, so untried levels show as "Not tried yet".
    for module in drills.DRILLS.values():
        for level in module.LEVELS:
            skill = drill_skill(module.NAME, level.number)
            rows[skill] = SkillRow(
                skill,
                "drill",
                f"Level {level.number} · {level.title}",
                module.TITLE,
                url=url_for("pages.drill_page", name=module.NAME, level=level.number),
            )
    # Where each item was last missed, and last seen: "practise this" goes there.
    missed: dict[str, tuple[str, int]] = {}
    seen: dict[str, tuple[str, int]] = {}
    answered: dict[tuple[str, int], set[int]] = defaultdict(set)
    for a in attempts:
        answered[(a.drill, a.level)].add(a.seed)
        skill = drill_skill(a.drill, a.level)
        if skill not in rows:  # a drill or level the app no longer has
            rows[skill] = SkillRow(skill, "drill", f"Level {a.level}", drill_title(a.drill))
        rows[skill].results.append(bool(a.correct))
        if (title := teacher_cards.title(a.card)) not in rows[skill].cards:
            rows[skill].cards.append(title)
        for entry in json_list(a.items):
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)):
                continue
            item, ok = entry[0], bool(entry[1])
            row = rows.get(item) or _item_row(item)
            if row is None:
                continue
            rows[item] = row
            row.results.append(ok)
            seen[item] = (a.drill, a.level)
            if not ok:
                missed[item] = (a.drill, a.level)
    for row in rows.values():
        row.attempts = len(row.results)
        row.correct = sum(row.results)
        if row.results:
            row.mastery, row.peak = _prefix_mastery(row.results)
        if row.kind != "drill":
            row.carrier = missed.get(row.skill) or seen.get(row.skill)
    return rows, answered


def _item_row(item: str) -> SkillRow | None:
    kind, _, value = item.partition(":")
    if kind == "tile" and value in tiles.CODES:
        return SkillRow(item, "tile", tile_label(value), "Tiles", tile=value)
    if kind == "rule" and known_rule(value):
        return SkillRow(item, "rule", rules.rule(value).title, "Rules", rule=value)
    return None


def _item_url(learner: Learner, row: SkillRow, answered: dict[tuple[str, int], set[int]], card: Card) -> str | None:
    """Where to practise a tile or a rule: the drill (and level) that carried it,
    at a question that asks that very item where the drill is cheap to search."""
    carrier = row.carrier
    if row.kind == "tile":
        name = "name-the-tile"
        level = carrier[1] if carrier and carrier[0] == name else 1
    elif carrier is not None:
        name, level = carrier
    else:
        return None
    if not level_ok(name, level):
        return None
    module = drill_module(name)
    assert module is not None
    if name in SEARCHABLE:
        start = _stable_seed(learner.id, row.skill, row.attempts)
        seed = find_seed(module, level, row.skill, start, answered[(name, level)], card)
        if seed is not None:
            return url_for("pages.drill_page", name=name, level=level, seed=seed)
    return url_for("pages.drill_page", name=name, level=level)


def _groups(rows: dict[str, SkillRow]) -> list[dict[str, Any]]:
    """The mastery list: one group per drill (its levels), then tiles, then rules."""
    groups: list[dict[str, Any]] = []
    by_group: dict[str, list[SkillRow]] = defaultdict(list)
    for row in rows.values():
        if row.kind == "drill":
            by_group[row.group].append(row)
    for module in drills.DRILLS.values():
        levels = by_group.pop(module.TITLE, [])
        groups.append({"title": module.TITLE, "kind": "drill", "rows": levels, "name": module.NAME})
    for title, levels in by_group.items():
        groups.append({"title": title, "kind": "drill", "rows": levels, "name": None})
    tile_rows = sorted((r for r in rows.values() if r.kind == "tile"), key=lambda r: tiles.CODES.index(r.tile))
    rule_order: list[str | None] = list(rules.RULES)  # looked up by SkillRow.rule, set on every rule row
    rule_rows = sorted((r for r in rows.values() if r.kind == "rule"), key=lambda r: rule_order.index(r.rule))
    if tile_rows:
        groups.append({"title": "Tiles", "kind": "tile", "rows": tile_rows, "name": None})
    if rule_rows:
        groups.append({"title": "Rules", "kind": "rule", "rows": rule_rows, "name": None})
    return groups


# -- the route --------------------------------------------------------------------------------


@bp.get("/progress")
def progress():
    with database.reading() as session:
        learner = learners.current_learner(session)
        attempts = load(session, learner) if learner is not None else []
        hands = hand_stats(session, learner.id) if learner is not None and learner.id is not None else None
        if learner is None or not attempts:
            return _empty(account=learner is not None and not learner.guest, hands=hands)
        context = build(learner, attempts, clock.now(), card_choice.chosen_card())
    return render_template("progress.html", hands=hands, **context)


def _empty(account: bool, hands: HandStats | None = None):
    first = next(iter(drills.DRILLS.values()))
    return render_template("progress.html", empty=True, first=first, account=account, hands=hands)


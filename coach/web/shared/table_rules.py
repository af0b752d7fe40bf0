"""Table rules on the web (issue 27): which rules a request plays by, and the form that sets them.

Which rules a request uses (docs/table-rules.md):
- a question of an assignment, and its teacher's preview: the class's
  (`coach.store.teaching.classrooms.class_rules`);
- a practice hand, its table, replays, review and replayed positions: the
  rules stored with the hand (`coach.store.table_rules.hand_rules`); a new
  hand is dealt under its learner's own, a class hand's under the class's;
- anything else (a drill page, today's practice, the API when a question
  names no "table_rules"): the learner's own (`own_rules`). Visitors and
  guests play the League's: the rules are kept with an account.

The form (templates/partials/table_rules_form.html) is the same for a
learner's own rules and a class's: one select per switch, the League's rule
first, and a "Back to League rules" button. `from_form` reads it; a value
no select offers (a forged post) is a TableRulesError naming the switch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Flask, g
from flask import session as flask_session
from flask_login import current_user
from sqlmodel import Session

from coach.rules.table_rules import LEAGUE, SWITCHES, Switch, TableRules, TableRulesError, names
from coach.store import table_rules as store
from coach.store.models import Learner
from coach.web.infra import database
from coach.web.shared.learners import ACCOUNT, is_account

LEAGUE_BUTTON = "league"  # the form's "Back to League rules" button


def rules_of(session: Session, learner: Learner | None) -> TableRules:
    """A learner's own table rules; the League's for a visitor or a guest."""
    if learner is None or learner.id is None or learner.guest:
        return LEAGUE
    return store.learner_rules(session, learner.id)


def own_rules() -> TableRules:
    """This request's learner's own table rules (read once a request); the
    League's for visitors and guests.

    A question needs no learner loaded (issue 13: loading one, to check its
    session is live, was a third of a question's time), so the signed session
    cookie answers first: no sign-in, or a guest's (`learners.ACCOUNT`), is the
    League's with no database read at all; an account's rules are one read by
    the id the cookie names. (At worst a session ended elsewhere picks its own
    learner's rules for a question; its answer is checked as any other.) A
    cookie from before the flag, or a remember cookie alone, loads the learner."""
    cached = getattr(g, "own_table_rules", None)
    if cached is not None:
        return cached
    learner_id = _account_in_cookie()
    rules = LEAGUE
    if learner_id is not None:
        with database.reading() as session:
            rules = store.learner_rules(session, learner_id)
    g.own_table_rules = rules
    return rules


def _account_in_cookie() -> int | None:
    """The account this request is signed in as, from the signed cookie when it can say; None: a guest or nobody."""
    signed = flask_session.get("_user_id")  # Flask-Login's "<id>:<token>" (coach.web.shared.learners.SignedIn)
    number = signed.partition(":")[0] if isinstance(signed, str) else ""
    account = flask_session.get(ACCOUNT)
    if number.isdigit() and isinstance(account, bool):
        return int(number) if account else None
    return int(current_user.id) if is_account() else None


# -- the form ------------------------------------------------------------------------------


def _text(value: Any) -> str:
    """A switch's value as the form writes it: "on"/"off" for a flag."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


@dataclass(frozen=True)
class Field:
    """One switch as the form shows it: its select's choices, the League's first."""

    switch: Switch
    value: str  # the choice now

    @property
    def name(self) -> str:
        return self.switch.name

    @property
    def choices(self) -> list[tuple[str, str]]:
        league = self.switch.default
        first = [(_text(league), f"League rules ({self.switch.describe(league)})")]
        others = [(_text(v), _capital(self.switch.describe(v))) for v in self.switch.choices if v != league]
        return first + others

    @property
    def is_league(self) -> bool:
        return self.value == _text(self.switch.default)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def fields(rules: TableRules) -> list[Field]:
    return [Field(s, _text(getattr(rules, s.name))) for s in SWITCHES]


def _value(switch: Switch, raw: str) -> Any:
    """A posted value as the switch's type; TableRulesError (naming the switch) for one no select offers."""
    for choice in switch.choices:
        if raw == _text(choice):
            return choice
    offered = ", ".join(_text(c) for c in switch.choices)
    raise TableRulesError(f'{switch.rule_id} {switch.title}: "{raw[:20]}" is not a choice (the choices: {offered})')


def from_form(form: Mapping[str, Any]) -> TableRules:
    """The rules a settings form sent: the League's for "Back to League rules",
    else each switch as chosen (a switch not sent keeps the League's rule)."""
    if form.get(LEAGUE_BUTTON):
        return LEAGUE
    values = {}
    for switch in SWITCHES:
        raw = form.get(switch.name)
        if raw is None or raw == "":
            continue
        values[switch.name] = _value(switch, raw if isinstance(raw, str) else "")
    return TableRules(**values)


def form_context(rules: TableRules, action: str, whose: str, saved: bool = False, problem: str = "") -> dict[str, Any]:
    """What partials/table_rules_form.html needs. `whose`: "your" or "the class's"."""
    return {
        "rules_form": {
            "action": action,
            "fields": fields(rules),
            "rules": rules,
            "shown": names(rules),
            "whose": whose,
            "saved": saved,
            "problem": problem,
        }
    }


def install(app: Flask) -> None:
    # The verdicts and the practice table show the rules in play (partials/table_rules_note.html).
    app.jinja_env.globals.update(table_rules_names=names)

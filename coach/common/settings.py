"""Every setting of the coach, each declared once: its name, default, meaning and readers.

A setting is an environment variable named COACH_...; docs/settings.md lists
them all, rendered from `SETTINGS` by `python -m coach.tools.settings_doc`
(a test keeps the two equal). The app factory resolves them all at once
(`resolve`) into a `Settings` value kept in `app.extensions["settings"]`, the
test configuration given to `create_app` overriding the environment; a
command that needs one setting only reads that one (`Setting.read`), so a
mistake in another setting never stops it.

The rules, the same for every setting:

- an override (a key of `create_app`'s test configuration) beats the
  environment, whatever its value; an empty value (or only spaces, or None)
  means the default;
- a malformed value is a `SettingError` (a ValueError) of one line naming
  the setting and what it must be; a secret's value is never repeated.

This module is the bottom layer: it imports nothing else of the coach, and
little of Python's library (commands import it on every start).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Generic, TypeVar, cast

from coach.common.errors import CoachError

PREFIX = "COACH_"

T = TypeVar("T")


class SettingError(CoachError, ValueError):
    """A malformed setting, said in one line (the command line prints it as it is)."""


@dataclass(frozen=True)
class Setting(Generic[T]):
    """One setting: `parse` turns its text into a value, or raises ValueError
    with what the text must be ("must be a whole number from 1 to 64")."""

    name: str
    default: T
    parse: Callable[[str], T]
    meaning: str
    used_by: tuple[str, ...]  # the modules that read (or, for a command's own server, set) it
    secret: bool = False  # never shown back in an error message

    def read(self, environ: Mapping[str, str], overrides: Mapping[str, object] | None = None) -> T:
        """The value from `overrides` when named there, else from `environ`; the default when blank."""
        raw = overrides[self.name] if overrides is not None and self.name in overrides else environ.get(self.name)
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            return self.default
        text = raw if isinstance(raw, str) else str(raw)  # a test configuration may say True or 1
        try:
            return self.parse(text)
        except ValueError as error:
            shown = "" if self.secret else f", not {text[:20]!r}"
            raise SettingError(f"{self.name} {error}{shown}") from None


# -- how a setting's text is read -----------------------------------------------------


def text(raw: str) -> str:
    return raw


def folder(raw: str) -> Path:
    return Path(raw)


TRUE = ("1", "true", "yes", "on")
FALSE = ("0", "false", "no", "off")


def flag(raw: str) -> bool:
    word = raw.strip().lower()
    if word in TRUE:
        return True
    if word in FALSE:
        return False
    raise ValueError("must be 1 or 0 (or true/false, yes/no, on/off)")


def whole_number(low: int, high: int, what: str) -> Callable[[str], int]:
    """A parser of a whole number from `low` to `high`; `what` says what one must be when it is not."""

    def parse(raw: str) -> int:
        try:
            number = int(raw.strip())
        except ValueError:
            number = low - 1
        if not low <= number <= high:
            raise ValueError(f"must be {what}")
        return number

    return parse


def push_url(raw: str) -> str:
    """Where a save's wake-up goes to the other processes (coach/web/infra/push_relays.py)."""
    word = raw.strip()
    if word.lower() in PUSH_WORDS:
        return word.lower()
    if word.startswith(("redis://", "rediss://", "unix://")):
        return word
    raise ValueError("must be a Redis URL (redis://host:6379), or postgres, watch or local")


PUSH_WORDS = ("postgres", "watch", "local")


def rate_limit(raw: str) -> str:
    """A rate limit as Flask-Limiter reads it ("5/minute", "20/minute;200/hour"), checked
    at start: a limit it cannot read would be skipped at every request, the route unlimited."""
    # The web's library, imported only when a limit is read: commands never pay for it.
    from limits import parse_many

    try:
        parse_many(raw)
    except ValueError:
        raise ValueError('must be a rate limit such as "10/minute" or "20/minute;200/hour"') from None
    return raw


# -- the settings ---------------------------------------------------------------------

WEB = "coach.web"
LIMITS = "coach.web.infra.limits"
PASSWORD_RESET = "coach.web.account.password_reset"

# Where things are.
DATA_DIR: Setting[Path | None] = Setting(
    "COACH_DATA_DIR", None, folder,
    "The folder holding the instance's secret key and SQLite file. Unset: `instance/` in a checkout, "
    "else the user's data folder (platformdirs).",
    ("coach.web.infra.places", "coach.cli (purge-guests)", "coach.tools (bench, load)"),
)
SECRET_KEY: Setting[str | None] = Setting(
    "COACH_SECRET_KEY", None, text,
    "The key signing cookies, sessions and question tokens; the same on every server. "
    "Unset: the instance folder's `secret_key` file, made on first run.",
    (WEB,), secret=True,
)
DATABASE_URL: Setting[str | None] = Setting(
    "COACH_DATABASE_URL", None, text,
    "A database such as `postgresql+psycopg://coach@db-host/coach`. Unset: the SQLite file "
    "`coach.sqlite3` in the instance folder.",
    ("coach.store.db", WEB, "coach.cli (purge-guests)"), secret=True,
)
CARD: Setting[str | None] = Setting(
    "COACH_CARD", None, text,
    "A card file (YAML) to drill on instead of the house card.",
    (WEB,),
)
CACHE_DIR: Setting[Path | None] = Setting(
    "COACH_CACHE_DIR", None, folder,
    "Where a card's compiled tables are kept between commands. Unset: the user's cache folder.",
    ("coach.reading.disk_cache",),
)

# The server.
WORKERS: Setting[int | None] = Setting(
    "COACH_WORKERS", None, whole_number(1, 64, "a whole number from 1 to 64"),
    "gunicorn's worker processes for `python -m coach serve`. Unset: one per core, at most 4.",
    ("coach.web.serve",),
)
THREADS: Setting[int] = Setting(
    "COACH_THREADS", 8, whole_number(1, 64, "a whole number from 1 to 64"),
    "Threads in each worker for `python -m coach serve`.",
    ("coach.web.serve",),
)
STREAM_SLOTS: Setting[int] = Setting(
    "COACH_STREAM_SLOTS", 64, whole_number(0, 1000, "a whole number from 0 to 1000"),
    "Live table pages each worker keeps a stream open for (each holds one thread while open); "
    "`python -m coach serve` gives each worker this many threads on top of COACH_THREADS, so "
    "streams never take a drill's thread. A page refused a stream polls instead.",
    ("coach.web.infra.push", "coach.web.serve"),
)
PUSH_URL: Setting[str | None] = Setting(
    "COACH_PUSH_URL", None, push_url,
    "How a saved table move wakes the pages other processes serve: a Redis URL (pub/sub), "
    "`postgres` (LISTEN/NOTIFY on COACH_DATABASE_URL), `watch` (each process reads the versions of "
    "the tables its pages wait on every 0.2 s: one server on a SQLite file) or `local` (one process). "
    "Unset: COACH_RATELIMIT_STORAGE_URI when it is a Redis URL, else `postgres` on PostgreSQL, else `watch`.",
    ("coach.web.infra.push",), secret=True,
)
REVIEW_WORKERS: Setting[int] = Setting(
    "COACH_REVIEW_WORKERS", 1, whole_number(1, 16, "a whole number from 1 to 16"),
    "Threads in each server process that compute practice hands' reviews in the background "
    "(a review is computed once and kept; more wait their turn).",
    ("coach.web.shared.practice.reviews",),
)
HTTPS: Setting[bool] = Setting(
    "COACH_HTTPS", False, flag,
    "1 behind TLS: every cookie is Secure and every answer has a Strict-Transport-Security header.",
    ("coach.web.shared.learners",),
)
PROXY_COUNT: Setting[int] = Setting(
    "COACH_PROXY_COUNT", 0, whole_number(0, 10, "the number of reverse proxies in front of the coach (0-10)"),
    "How many reverse proxies stand in front of the app: the client's address is taken from their "
    "X-Forwarded-For (0: that header is never trusted).",
    (LIMITS,),
)
RATELIMIT_STORAGE_URI: Setting[str] = Setting(
    "COACH_RATELIMIT_STORAGE_URI", "coach-sqlite://", text,
    "Where rate limits are counted: by default a SQLite file in the instance folder "
    "(`ratelimits.sqlite3`) that every worker of a server shares; a shared store such as "
    "`redis://host:6379` when several machines' servers must count together; `coach-memory://` "
    "for each process's own memory.",
    (LIMITS,), secret=True,
)
SERVER_TIMING: Setting[bool] = Setting(
    "COACH_SERVER_TIMING", False, flag,
    "1: a Server-Timing header (the app's own wall and CPU time) on every answer; "
    "`python -m coach load` sets it on the server it starts.",
    ("coach.web.infra.server_timing", "coach.tools (bench, load)"),
)

# Mail, for password reset links.
SMTP_URL: Setting[str | None] = Setting(
    "COACH_SMTP_URL", None, text,
    "The mail server for password reset links: `smtp://user:password@host:port` (STARTTLS when offered) "
    "or `smtps://...` (TLS from the start). Mail goes out only with the base URL set too.",
    (PASSWORD_RESET,), secret=True,
)
BASE_URL: Setting[str | None] = Setting(
    "COACH_BASE_URL", None, text,
    "The site's address (`https://coach.example.org`) for links in mail, never taken from a request; "
    "also `python -m coach reset-link`'s.",
    (PASSWORD_RESET, "coach.cli (reset-link)"),
)
MAIL_FROM: Setting[str | None] = Setting(
    "COACH_MAIL_FROM", None, text,
    "The sender of mail. Unset: `Mahjong Coach <no-reply@HOST>`, HOST the base URL's.",
    (PASSWORD_RESET,),
)


def _limit(name: str, default: str, meaning: str) -> Setting[str]:
    return Setting(f"COACH_LIMIT_{name}", default, rate_limit, meaning, (LIMITS,))


# Rate limits (coach.web.infra.limits says why each figure).
LIMIT_SIGNIN_EMAIL_ADDRESS = _limit("SIGNIN_EMAIL_ADDRESS", "5/minute;30/hour", "Failed sign-ins per email from one address.")
LIMIT_SIGNIN_ADDRESS = _limit("SIGNIN_ADDRESS", "20/minute;200/hour", "Failed sign-ins per address, whatever the emails.")
LIMIT_SIGNIN_EMAIL = _limit(
    "SIGNIN_EMAIL", "30/minute;300/hour",
    "Failed sign-ins per email from every address; past it, only addresses that failed for that email themselves are held.",
)
LIMIT_SIGNUP_EMAIL = _limit("SIGNUP_EMAIL", "5/minute", "Sign-ups per email.")
LIMIT_SIGNUP_ADDRESS = _limit("SIGNUP_ADDRESS", "30/minute", "Sign-ups per address.")
LIMIT_JOIN_ADDRESS = _limit("JOIN_ADDRESS", "20/minute;200/hour", "Class codes that match no class, per address.")
LIMIT_DRILL_LEARNER = _limit("DRILL_LEARNER", "120/minute", "Questions and answers per learner.")
LIMIT_DRILL_ADDRESS = _limit("DRILL_ADDRESS", "1200/minute", "Questions and answers per address.")
LIMIT_FIRST_PASS_ADDRESS = _limit("FIRST_PASS_ADDRESS", "240/minute", "First-pass questions and answers per address.")
LIMIT_CARD_EDITOR_LEARNER = _limit("CARD_EDITOR_LEARNER", "60/minute", "Card editor previews, tried racks and saves per learner.")
LIMIT_CARD_EDITOR_ADDRESS = _limit("CARD_EDITOR_ADDRESS", "300/minute", "Card editor previews, tried racks and saves per address.")
LIMIT_FORGOT_EMAIL = _limit("FORGOT_EMAIL", "3/hour", "Password reset mails per email.")
LIMIT_FORGOT_ADDRESS = _limit("FORGOT_ADDRESS", "10/minute", "Password reset requests per address.")
LIMIT_PASSWORD_ADDRESS = _limit("PASSWORD_ADDRESS", "10/minute", "Failed password changes and resets per address.")
LIMIT_CARD_UPLOAD_LEARNER = _limit("CARD_UPLOAD_LEARNER", "10/minute", "Card uploads per account.")

SETTINGS: tuple[Setting[Any], ...] = (
    DATA_DIR, SECRET_KEY, DATABASE_URL, CARD, CACHE_DIR,
    WORKERS, THREADS, STREAM_SLOTS, PUSH_URL, REVIEW_WORKERS, HTTPS, PROXY_COUNT, RATELIMIT_STORAGE_URI, SERVER_TIMING,
    SMTP_URL, BASE_URL, MAIL_FROM,
    LIMIT_SIGNIN_EMAIL_ADDRESS, LIMIT_SIGNIN_ADDRESS, LIMIT_SIGNIN_EMAIL, LIMIT_SIGNUP_EMAIL, LIMIT_SIGNUP_ADDRESS, LIMIT_JOIN_ADDRESS,
    LIMIT_DRILL_LEARNER, LIMIT_DRILL_ADDRESS, LIMIT_FIRST_PASS_ADDRESS,
    LIMIT_CARD_EDITOR_LEARNER, LIMIT_CARD_EDITOR_ADDRESS,
    LIMIT_FORGOT_EMAIL, LIMIT_FORGOT_ADDRESS, LIMIT_PASSWORD_ADDRESS, LIMIT_CARD_UPLOAD_LEARNER,
)  # fmt: skip
BY_NAME: Mapping[str, Setting[Any]] = MappingProxyType({setting.name: setting for setting in SETTINGS})


# -- all of them at once ---------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """Every setting's value, by its `Setting`: `settings[HTTPS]` is a bool."""

    values: Mapping[str, object]

    def __getitem__(self, setting: Setting[T]) -> T:
        return cast(T, self.values[setting.name])

    def updated(self, overrides: Mapping[str, object]) -> Settings:
        """These settings with those named in `overrides` read anew from there (as `resolve` reads them)."""
        changed = _read_all(tuple(BY_NAME[name] for name in overrides if name in BY_NAME), {}, overrides)
        return Settings(MappingProxyType({**self.values, **changed}))


def resolve(environ: Mapping[str, str], overrides: Mapping[str, object] | None = None) -> Settings:
    """Every setting from the environment, those named in `overrides` from there instead; a
    SettingError of one line listing every malformed value, and every override naming no setting."""
    return Settings(MappingProxyType(_read_all(SETTINGS, environ, overrides or {})))


def _read_all(wanted: tuple[Setting[Any], ...], environ: Mapping[str, str], overrides: Mapping[str, object]) -> dict[str, object]:
    problems = [
        f"{name} is not a setting (docs/settings.md lists them)"
        for name in overrides
        if isinstance(name, str) and name.startswith(PREFIX) and name not in BY_NAME
    ]
    values: dict[str, object] = {}
    for setting in wanted:
        try:
            values[setting.name] = setting.read(environ, overrides)
        except SettingError as error:
            problems.append(str(error))
    if problems:
        raise SettingError("; ".join(problems))
    return values

"""Rate limits (Flask-Limiter) and a bound on password hashing.

What is limited, and why each figure (each is a setting, see
coach.common.settings: an environment variable, or the test configuration
given to create_app, which is how the tests lower them):

- Sign-in (issue 26): failures only count (`deduct_when`), so a whole
  class signing in from one school address (NAT) is never stopped by its
  own successful sign-ins. Each count backs off the place that fails, never
  the account, so no one can lock an owner out by failing on purpose:
  - per email from one address, 5 failed tries a minute and 30 an hour
    (guessing one account's password from one place);
  - per address, 20 failed tries a minute and 200 an hour, whatever the
    emails (one place guessing across many accounts);
  - per email from every address, a ceiling of 30 a minute and 300 an
    hour that holds only the addresses which have themselves failed for
    that email (in the per-email-and-address windows): many addresses
    guessing one account get one try each, while a sign-in from a clean
    address (the owner's) is never counted against it.
  An address with recent failures is also the first one turned away when
  password hashing is busy (coach.web.infra.hashing, `failing_address`).
  A try these limits refuse is answered before Flask reads the session or
  the CSRF token (`sign_in_refusal`, coach.web.account.early_refusal), so a
  flood past its limits costs about a bare request; it checked no password,
  so it counts as no failure. A failing address turned away "busy" is
  answered there too, and counted as here (`count_turned_away`).
- Sign-up: per email 5 a minute, per address 30 a minute (a class making
  accounts together at the start of a lesson).
- Join codes (`/join/<code>` and `/join`): per address, 20 misses a minute
  and 200 an hour. Only misses count, so a class typing the right code
  is never stopped; 32**6 codes make guessing at that rate hopeless.
- Drilling (new questions and answers, pages and API): per learner 120 a
  minute (a fast human asks and answers one question every few
  seconds; a script is stopped), per address 1200 a minute (a class of
  30 behind one address, each asking and answering a question every 3 s,
  stays under it). Guests not yet made (no cookie) are held by the
  per-address limit only. These, with first pass's below, are checked on
  every question and answer: Flask-Limiter's limits, checked as it checks
  them but resolved once and hit in one transaction
  (coach.web.infra.lean_limits).
- Password reset mails ("Forgot password?"): per email 3 an hour (no
  inbox is flooded through us), per address 10 a minute. Changing a
  password and setting one from a reset link: per address 10 tries a
  minute, failures only (each try costs a password hash).
- Card uploads (a teacher's or anyone's own card): per account 10 a
  minute; each is timed on a first-pass question when it is checked.
- First pass, the one drill whose questions and grading evaluate a whole
  card: per address 240 a minute on its routes (a class of 30, each a
  question every 15 s).
- The card editor (preview as one types, "try a rack", save), each a
  whole card read (about 0.1 s for a League-sized card, 0.4 s at the
  caps): per learner 60 a minute (a preview at each pause in typing,
  after 0.4 s of quiet), per address 300 a minute (a workshop of
  teachers typing their cards behind one address).

A limit hit answers 429 with `Retry-After`: `{"error": ...}` under /api,
a friendly page elsewhere, both saying when to try again.

Storage: a SQLite file in the instance folder (`coach-sqlite://`, see
coach.web.infra.limit_store), which every gunicorn worker of a server
writes, so a limit counts the workers' hits together; unless the storage
setting (`RATELIMIT_STORAGE_URI` in coach.common.settings) names another,
such as `redis://127.0.0.1:6379`, which several servers on several
machines must share for the limits to hold across them, or
`coach-memory://` (one process's memory, limits' memory store swept
inline, see `SweptMemoryStorage`; each worker then counts apart). If the
store goes away, each process falls back to its own memory.

Addresses: `request.remote_addr`. Behind a reverse proxy set `PROXY_COUNT`
(coach.common.settings) to the number of proxies in front of the app, and
werkzeug's ProxyFix takes the client's address from X-Forwarded-For;
without it that header is never trusted (anyone can send one).
An IPv6 client is counted by its /64 (`address_key`).

Password hashing has its own bound, in coach.web.infra.hashing.
"""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from flask import Flask, current_app, g, jsonify, make_response, request, session
from flask_limiter import Limiter, RateLimitExceeded
from flask_login import current_user
from limits import RateLimitItemPerSecond, WindowStats, parse_many
from limits.storage import MemoryStorage
from werkzeug.exceptions import ServiceUnavailable
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

from coach.common import settings
from coach.common.settings import Setting
from coach.web.infra import lean_limits, limit_store  # limit_store registers its storage scheme with limits

F = TypeVar("F", bound=Callable[..., Any])

KEY_PREFIX = "coach"  # every limit's keys in the storage start with it
BUSY_RETRY = 5  # seconds a "busy" answer (coach.web.infra.hashing) asks to wait


class SweptMemoryStorage(MemoryStorage):
    """limits' memory store, its expired entries swept inline at most once a
    second. The stock store starts a new `threading.Timer` 10 ms after almost
    every hit to sweep them: under a class's load a thread is made per request,
    and each start waits for the GIL behind the server's busy threads. Whether
    a request is over a limit never depended on the sweep (the moving window
    reads entries' times, a fixed window checks its expiry when read); the
    sweep only frees memory, which once a second does as well."""

    STORAGE_SCHEME = ["coach-memory"]
    SWEEP_EVERY = 1.0  # seconds

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: str):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._next_sweep = 0.0
        self._sweeping = threading.Lock()

    def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.monotonic()
        if now >= self._next_sweep and self._sweeping.acquire(blocking=False):
            try:
                self._next_sweep = now + self.SWEEP_EVERY
                self._MemoryStorage__expire_events()  # type: ignore[attr-defined]  # MemoryStorage's private sweep, name-mangled: invisible to the stubs
            finally:
                self._sweeping.release()


def address() -> str:
    """The client's address (ProxyFix has put the forwarded one here when configured)."""
    return address_key(request.remote_addr)


def address_key(remote: str | None) -> str:
    """An address's key in the limits, from REMOTE_ADDR (also read before Flask: `sign_in_refusal`).

    An IPv6 client is keyed by its /64: one home or one server is handed a
    whole /64 and can send from any of its 2**64 addresses, so keying the
    full address would give a flood a fresh allowance for every request. An
    IPv4 address written in IPv6 (`::ffff:192.0.2.7`) is keyed as the IPv4
    address it is."""
    if not remote:
        return "address:unknown"
    if ":" not in remote:
        return "address:" + remote  # IPv4 (or a test's name): as it comes, no parsing on the common path
    return "address:" + _ipv6_network(remote)


@functools.lru_cache(maxsize=4096)
def _ipv6_network(remote: str) -> str:
    """An IPv6 address's /64 (`2001:db8:1:2::/64`), or the IPv4 address it maps; what is not an address stays as it came."""
    try:
        parsed = ipaddress.IPv6Address(remote.partition("%")[0])  # a zone id (`fe80::1%eth0`) names the interface, not the client
    except ValueError:
        return remote[:64]
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.IPv6Network((parsed, 64), strict=False))


def _email() -> str:
    return email_key(request.form.get("email", ""))


def email_key(raw: object) -> str:
    """A form's email's key in the limits, however it is typed (also read before Flask: `sign_in_refusal`)."""
    return "email:" + (raw.strip().lower()[:254] if isinstance(raw, str) else "")


def _signed_session() -> str | None:
    """The sign-in the request's signed session cookie names ("<id>:<token>",
    see coach.web.shared.learners), without loading the learner: a question needs
    none, and loading one (a database read, to check the session is still
    live) was a third of its time (issue 13). The cookie is signed, so no one
    can count against another's sign-in; the token is part of the key, so a
    session signed out (or a stolen cookie of one) counts only against
    itself, never against the learner's live one. Without a session cookie
    (a remember cookie alone, say) the learner is loaded, as before."""
    user_id = session.get("_user_id")
    if isinstance(user_id, str) and user_id.partition(":")[0].isdigit():
        return user_id
    return str(current_user.get_id()) if current_user.is_authenticated else None


def _learner() -> str:
    signed = _signed_session()
    return f"learner:{signed}" if signed is not None else ""


def _no_learner() -> bool:
    return _signed_session() is None


def _not_first_pass() -> bool:
    return (request.view_args or {}).get("name") != "first-pass"


def _failed(response: Response) -> bool:
    # A sign-in that works redirects (303); a refused one shows the form again.
    # "Busy" (503) checked no password: for a clean address it is no failure (it
    # must not count as a failing one when it tries again), but a failing address
    # turned away is one still trying, and counting it brings on its 429 sooner,
    # which is answered before the form is even read.
    if response.status_code == 503:
        return bool(g.get("failing_address", False))
    return response.status_code != 303


def _failed_password(response: Response) -> bool:
    # What counts against an email (from one address, and its ceiling): a password
    # checked and refused. A "busy" answer checked none: counted for the address
    # (`_failed`), it must not make an owner who came back a little soon an address
    # "that has failed for this email", held by the ceiling a flood has passed.
    return response.status_code not in (303, 503)


def _missed(response: Response) -> bool:
    # No class behind the code: 404 for a look-up, 422 for the join form.
    return response.status_code in (404, 422)


def _setting(setting: Setting[str]) -> Callable[[], str]:
    return lambda: current_app.extensions["settings"][setting]


limiter = Limiter(
    key_func=address,
    strategy="moving-window",  # exact: no double burst at a window's edge
    key_prefix=KEY_PREFIX,
    in_memory_fallback_enabled=True,
    headers_enabled=False,  # Retry-After is set on a 429 below; no storage round trip on other answers
)

SIGN_IN_HERE_TRIES = "Too many sign-in attempts for this email from your network."
SIGN_IN_ADDRESS_TRIES = "Too many sign-in attempts from your network."
SIGN_IN_EMAIL_TRIES = "Too many sign-in attempts for this email, yours among them."
SIGN_UPS = "Too many sign-ups."
JOIN_TRIES = "Too many class codes that do not match a class."
DRILLING = "Too many questions and answers in a short time."
FIRST_PASS = "Too many first-pass questions from your network in a short time."
FORGOT = "Too many password reset requests."
PASSWORD_TRIES = "Too many password changes in a short time."
CARD_EDITOR = "Too many card previews in a short time."
CARD_UPLOADS = "Too many card uploads in a short time."
TOO_MANY_TITLE = "Slow down a little"  # every 429 page's title

# -- sign-in: every key and rate in one place (issue 26) ------------------------------

# The scopes: each count's name in the storage.
SCOPE_EMAIL_ADDRESS = "sign-in:email+address"
SCOPE_ADDRESS = "sign-in:address"
SCOPE_EMAIL = "sign-in:email"
SCOPE_BUSY = "sign-in:told-to-wait"
_TOLD_TO_WAIT = RateLimitItemPerSecond(1, BUSY_RETRY)  # a "busy" answer's Retry-After


def _email_address() -> str:
    return f"{_email()}|{address()}"


def _failures(setting: Setting[str], key: str, scope: str, resolved: settings.Settings | None = None) -> int:
    """Failed sign-ins counted so far for `key` by the limit `setting` names
    (the most in any of its windows), read from the limits' own storage so
    that it counts across workers and servers as the limit does. A store that
    cannot be read counts none: this only orders who is turned away first,
    and the limits themselves still hold."""
    try:
        items = parse_many((resolved if resolved is not None else current_app.extensions["settings"])[setting])
        return max(
            item.amount - limiter.limiter.get_window_stats(item, KEY_PREFIX, key, scope).remaining for item in items
        )
    except Exception:  # any storage error (Redis gone, a timeout): see above
        return 0


def failing(resolved: settings.Settings, where: str) -> bool:
    """Whether an address (its key) has failed a sign-in within the per-address
    windows, or comes back sooner than a "busy" answer asked it to (a person
    reads "try again in a few seconds"; a flood does not)."""
    if _failures(settings.LIMIT_SIGNIN_ADDRESS, where, SCOPE_ADDRESS, resolved) > 0:
        return True
    try:
        return not limiter.limiter.test(_TOLD_TO_WAIT, KEY_PREFIX, where, SCOPE_BUSY)
    except Exception:  # a store that cannot be read: as in _failures
        return False


def failing_address() -> bool:
    """`failing` for this request's address, noted for `_failed`."""
    g.failing_address = failed = failing(current_app.extensions["settings"], address())
    return failed


def count_turned_away(resolved: settings.Settings, raw_email: object, remote: str | None) -> None:
    """A failing address turned away "busy" before Flask (coach.web.account.early_refusal),
    counted as Flask's path counts it: a failure per address (`_failed`), none against
    the email (`_failed_password`: no password was checked)."""
    where = address_key(remote)
    for item in parse_many(resolved[settings.LIMIT_SIGNIN_ADDRESS]):
        limiter.limiter.hit(item, KEY_PREFIX, where, SCOPE_ADDRESS)


def _told_to_wait() -> None:
    with contextlib.suppress(Exception):  # a store that cannot be written: as in _failures
        limiter.limiter.hit(_TOLD_TO_WAIT, KEY_PREFIX, address(), SCOPE_BUSY)


def _clean_for_email() -> bool:
    # The ceiling holds only addresses that have failed for this email themselves.
    if request.method != "POST":
        return True
    g.sign_in_clean = clean = _failures(settings.LIMIT_SIGNIN_EMAIL_ADDRESS, _email_address(), SCOPE_EMAIL_ADDRESS) == 0
    return clean


def _counting_clean_failures(view: F) -> F:
    """Flask-Limiter skips an exempt limit entirely, its count too; but the
    ceiling counts every failure for the email (only its holding is for the
    failing addresses), so a clean address's failure is counted here."""

    @functools.wraps(view)
    def counted(*args: Any, **kwargs: Any) -> Response:
        try:
            response = make_response(view(*args, **kwargs))
        except ServiceUnavailable:  # hashing busy: a clean address is told to wait (see failing_address)
            if not g.get("failing_address", False):
                _told_to_wait()
            raise
        if g.pop("sign_in_clean", False) and _failed_password(response):
            try:
                for item in parse_many(current_app.extensions["settings"][settings.LIMIT_SIGNIN_EMAIL]):
                    limiter.limiter.hit(item, KEY_PREFIX, _email(), SCOPE_EMAIL)
            except Exception:  # a store that cannot be written: the other limits still hold
                pass
        return response

    return cast(F, counted)


_sign_in = [
    limiter.shared_limit(_setting(settings.LIMIT_SIGNIN_EMAIL_ADDRESS), scope=SCOPE_EMAIL_ADDRESS,
                         key_func=_email_address, methods=["POST"], deduct_when=_failed_password, error_message=SIGN_IN_HERE_TRIES),
    limiter.shared_limit(_setting(settings.LIMIT_SIGNIN_ADDRESS), scope=SCOPE_ADDRESS, methods=["POST"],
                         deduct_when=_failed, error_message=SIGN_IN_ADDRESS_TRIES),
    limiter.shared_limit(_setting(settings.LIMIT_SIGNIN_EMAIL), scope=SCOPE_EMAIL, key_func=_email, methods=["POST"],
                         deduct_when=_failed_password, exempt_when=_clean_for_email, error_message=SIGN_IN_EMAIL_TRIES),
]


@dataclass(frozen=True)
class SignInRefusal:
    """A POST /signin the limits above refuse: their message, and the seconds until
    the window that refused it lets one more through (Retry-After)."""

    message: str
    retry: int


def sign_in_refusal(resolved: settings.Settings, raw_email: object, remote: str | None) -> SignInRefusal | None:
    """What the limits in `_sign_in` answer a POST /signin from `remote` for
    `raw_email` (the form's field as sent), decided from those two alone,
    before Flask reads the session, the CSRF token or any learner
    (coach.web.account.early_refusal: a refused sign-in is nearly free). The
    same keys, windows and order as Flask-Limiter's check (each window once;
    the shortest windows first, then as listed), so it refuses exactly what
    they would; None lets the request on, where they are checked again.
    Reads only, like Flask-Limiter's check of a `deduct_when` limit: a refused
    try checked no password, so it counts as no failed one."""
    email, where = email_key(raw_email), address_key(remote)

    def windows(setting: Setting[str], key: str, scope: str, message: str) -> list[tuple[Any, WindowStats, str]]:
        return [
            (item, limiter.limiter.get_window_stats(item, KEY_PREFIX, key, scope), message)
            for item in parse_many(resolved[setting])
        ]

    here = windows(settings.LIMIT_SIGNIN_EMAIL_ADDRESS, f"{email}|{where}", SCOPE_EMAIL_ADDRESS, SIGN_IN_HERE_TRIES)
    counted = here + windows(settings.LIMIT_SIGNIN_ADDRESS, where, SCOPE_ADDRESS, SIGN_IN_ADDRESS_TRIES)
    if any(item.amount - stats.remaining > 0 for item, stats, _ in here):
        # This address has failed for this email itself: the email's ceiling holds it too (`_clean_for_email`).
        counted += windows(settings.LIMIT_SIGNIN_EMAIL, email, SCOPE_EMAIL, SIGN_IN_EMAIL_TRIES)
    for _, stats, message in sorted(counted, key=lambda window: window[0]):  # stable: as listed within a length
        if stats.remaining < 1:  # limits' test of one more: the count so far at most amount - 1
            return SignInRefusal(message, _seconds(stats.reset_time))
    return None


_sign_up = [
    limiter.limit(_setting(settings.LIMIT_SIGNUP_EMAIL), key_func=_email, methods=["POST"], error_message=SIGN_UPS),
    limiter.limit(_setting(settings.LIMIT_SIGNUP_ADDRESS), methods=["POST"], error_message=SIGN_UPS),
]
_forgot = [
    limiter.limit(_setting(settings.LIMIT_FORGOT_EMAIL), key_func=_email, methods=["POST"], error_message=FORGOT),
    limiter.limit(_setting(settings.LIMIT_FORGOT_ADDRESS), methods=["POST"], error_message=FORGOT),
]
_password = [
    limiter.shared_limit(_setting(settings.LIMIT_PASSWORD_ADDRESS), scope="password", methods=["POST"],
                         deduct_when=_failed, error_message=PASSWORD_TRIES),
]
# Look-ups and joins share one count of misses per address.
_join = [
    limiter.shared_limit(_setting(settings.LIMIT_JOIN_ADDRESS), scope="join", deduct_when=_missed,
                         error_message=JOIN_TRIES),
]
# Every question made and every answer graded shares these counts.
_drilling = [
    limiter.shared_limit(_setting(settings.LIMIT_DRILL_LEARNER), scope="drilling", key_func=_learner,
                         exempt_when=_no_learner, error_message=DRILLING),
    limiter.shared_limit(_setting(settings.LIMIT_DRILL_ADDRESS), scope="drilling", error_message=DRILLING),
    limiter.shared_limit(_setting(settings.LIMIT_FIRST_PASS_ADDRESS), scope="first-pass",
                         exempt_when=_not_first_pass, error_message=FIRST_PASS),
]

# Every preview, tried rack and save of the card editor shares these counts.
_card_editor = [
    limiter.shared_limit(_setting(settings.LIMIT_CARD_EDITOR_LEARNER), scope="card-editor", key_func=_learner,
                         exempt_when=_no_learner, error_message=CARD_EDITOR),
    limiter.shared_limit(_setting(settings.LIMIT_CARD_EDITOR_ADDRESS), scope="card-editor", error_message=CARD_EDITOR),
]

# Each card upload is checked by timing a first-pass question on it (up to a second of CPU).
_card_upload = [
    limiter.shared_limit(_setting(settings.LIMIT_CARD_UPLOAD_LEARNER), scope="card-upload", key_func=_learner,
                         methods=["POST"], error_message=CARD_UPLOADS),
]


def _applying(limits: list[Any]) -> Callable[[F], F]:
    def decorate(view: F) -> F:
        for limit in limits:
            view = limit(view)
        return view

    return decorate


# The decorators the blueprints use, under their @route line.
def sign_in(view: F) -> F:
    return _applying(_sign_in)(_counting_clean_failures(view))


sign_up = _applying(_sign_up)
join = _applying(_join)
# The hottest limits, checked on every question and answer: Flask-Limiter's, checked leanly
# (coach.web.infra.lean_limits). Their exemptions and keys other than the learner's only
# read the request; the learner's may load the learner, so it is called where Flask-Limiter would.
drilling = lean_limits.Lean(limiter, _drilling, pure=(address, _not_first_pass),
                            version=lambda: current_app.extensions["settings"])
forgot = _applying(_forgot)
password = _applying(_password)
card_editor = _applying(_card_editor)
card_upload = _applying(_card_upload)


# -- the app ------------------------------------------------------------------------


def _seconds(when: float) -> int:
    return max(1, int(when - time.time() + 0.999))


def wait_words(seconds: int) -> str:
    if seconds < 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = (seconds + 59) // 60
    return f"{minutes} minutes"


def refused_words(said: str, wait: str) -> str:
    """A 429's message: the limit's words, then how long to wait (`wait_words`)."""
    return f"{said} Try again in {wait}."


def _is_api() -> bool:
    from coach.web.infra import errors  # errors imports the api, which imports this module

    return errors._is_api()


def answer(status: int, title: str, message: str, retry: int):
    from coach.web.infra.errors import page_error

    if _is_api():
        body, status = jsonify(error=message), status
    else:
        body, status = page_error(status, title, message)
    return body, status, {"Retry-After": str(retry)}


def install(app: Flask) -> None:
    resolved = app.extensions["settings"]
    storage = resolved[settings.RATELIMIT_STORAGE_URI]
    if storage == limit_store.DEFAULT:  # the default: the instance folder's file, shared by the workers
        storage = limit_store.uri_for(Path(app.instance_path))
    app.config["RATELIMIT_STORAGE_URI"] = storage
    app.config.setdefault("RATELIMIT_ENABLED", True)  # said each time: the limiter object is shared
    proxies = resolved[settings.PROXY_COUNT]
    if proxies > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)  # type: ignore[method-assign]  # Flask's documented way to wrap the WSGI app
    limiter.init_app(app)

    @app.errorhandler(RateLimitExceeded)
    def too_many(error: RateLimitExceeded):
        hit = limiter.current_limit
        retry = _seconds(hit.reset_at) if hit is not None else 60
        said = error.description or "Too many requests."
        return answer(429, TOO_MANY_TITLE, refused_words(said, wait_words(retry)), retry)

"""A route's limits checked as Flask-Limiter checks them, at a fraction of its cost (issue 26).

Flask-Limiter's check of a decorated view resolves the view's limits anew on
every request (its limit strings parsed, the route's, blueprint's and meta
exemptions looked up), then hits each limit in a storage transaction of its
own: about 0.6-0.9 ms of a drill request's 1.9 ms, for its two or three counts.
`Lean` decorates a view with the same `RouteLimit`s, so Flask-Limiter registers
them as before (its middleware, its CLI and its own check know them), and
checks them itself the way Flask-Limiter's `__evaluate_limits` does:

- the limits Flask-Limiter resolves for the view (`resolve_limits`), in its
  order (shortest window first, then as declared), resolved once per view,
  endpoint and app settings (`version`) instead of once per request;
- each limit's exemption, scope, key and cost called in that order, skipped
  when exempt or when its key or scope is empty, then hit; the first refusal
  stops there: the limits hit before it stay counted, it and those after it
  are not (Flask-Limiter's `fail_on_first_breach`, its default);
- the hits of one request in one transaction on the coach-sqlite store
  (`SQLiteStorage.acquire_entries`), one at a time through the strategy on
  any other (memory, Redis), as Flask-Limiter hits them. A function not
  known to be `pure` (one that may touch the session, say) is called only
  after the hits before it are taken, as Flask-Limiter calls it;
- a refusal sets the request's current limit and raises the same
  RateLimitExceeded, so the 429, its message and its Retry-After are those
  of Flask-Limiter's path (coach.web.infra.limits.install).

Anything else is Flask-Limiter's own check, through its decorator: limits
switched off, the storage marked dead (its in-memory fallback, and its
checks for the storage's return), request filters, meta limits, on-breach
callbacks, a limit counted only on some answers (`deduct_when`), and a
storage error, after which the storage is marked dead as Flask-Limiter's
check marks it, and its check runs again on the fallback as its own does.
`lean = False` sends every request that way (the tests and
coach.tools.benchmarks.drill_limits compare the two).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Sequence
from typing import Any, TypeVar, cast

from flask import current_app, request
from flask_limiter import Limiter, RateLimitExceeded, RequestLimit, RouteLimit
from flask_limiter._limits import RuntimeLimit  # the resolved limit Flask-Limiter's own check walks
from flask_limiter.util import get_qualified_name
from limits.strategies import MovingWindowRateLimiter, RateLimiter

from coach.web.infra.limit_store import Entry, SQLiteStorage

F = TypeVar("F", bound=Callable[..., Any])
_PLANS = "coach.lean_limits"  # app.extensions: each view's resolved limits, by view and endpoint

Hit = tuple[RuntimeLimit, list[str], int]  # a limit, the identifiers of its key (prefix, key, scope), its cost
Plan = tuple[tuple[RuntimeLimit, bool], ...]  # a view's limits in the order checked, each with whether it is pure


class Lean:
    """A decorator applying `limits` (Flask-Limiter `RouteLimit`s) to a view, checked
    here; see the module's docstring. `pure`: the exemptions and key functions that
    only read the request (safe to call before the hits ahead of them are taken);
    `version`: a value whose identity changes when the limits' strings may have
    (the app's settings), so they are resolved again."""

    def __init__(self, limiter: Limiter, limits: Sequence[RouteLimit], pure: Collection[Callable[..., Any]],
                 version: Callable[[], object]):
        self.limiter = limiter
        self.limits = tuple(limits)
        self.pure = frozenset(pure)
        self.version = version
        self.lean = True

    def __call__(self, view: F) -> F:
        limited: Any = view
        for limit in self.limits:
            limited = limit(limited)  # Flask-Limiter registers each for the view, as without this class
        name = get_qualified_name(view)

        @functools.wraps(limited)
        def checked(*args: Any, **kwargs: Any) -> Any:
            if self.lean and self._checked(name):
                return current_app.ensure_sync(view)(*args, **kwargs)
            return limited(*args, **kwargs)  # Flask-Limiter's decorator: its check, then the view

        return cast(F, checked)

    # -- the check -------------------------------------------------------------------

    def _checked(self, name: str) -> bool:
        """Whether this request's limits were checked here (raising on a refusal);
        False leaves them to Flask-Limiter's check."""
        limiter = self.limiter
        if not (limiter.enabled and limiter.initialized) or limiter._storage_dead or limiter._request_filters \
                or limiter._meta_limits or limiter._on_breach is not None or not limiter._fail_on_first_breach:
            return False
        endpoint = limiter.identify_request()
        plan = self._plan(name, endpoint)
        if plan is None:
            return False
        try:
            self._evaluate(plan, endpoint)
        except RateLimitExceeded:
            raise
        except Exception:  # what Flask-Limiter's _check_request_limit does with a storage error
            if limiter._in_memory_fallback_enabled:
                if not limiter._storage_dead:
                    limiter.logger.warning("Rate limit storage unreachable - falling back to in-memory storage")
                    limiter._storage_dead = True
                # Marked dead by this request, or by another thread while this one waited on the
                # storage (Flask-Limiter's own check raises then): its check again, on the fallback.
                limiter.context.seen_limits.clear()
                return False
            if limiter._swallow_errors:
                limiter.logger.exception("Failed to rate limit. Swallowing error")
                return True
            raise
        return True

    def _plan(self, name: str, endpoint: str) -> Plan | None:
        """The view's limits in Flask-Limiter's order, each with whether its functions are
        pure; None when Flask-Limiter's check must do it (see the module's docstring)."""
        plans: dict[tuple[str, str], tuple[object, Plan | None]] = current_app.extensions.setdefault(_PLANS, {})
        version = self.version()
        held = plans.get((name, endpoint))
        if held is None or held[0] is not version:
            held = plans[(name, endpoint)] = (version, self._resolve(name, endpoint))
        return held[1]

    def _resolve(self, name: str, endpoint: str) -> Plan | None:
        defaults, decorated = self.limiter.limit_manager.resolve_limits(
            current_app, endpoint, request.blueprint, name, in_middleware=False, marked_for_limiting=True
        )
        if defaults or any(lim.deduct_when or lim.on_breach or lim.meta_limits for lim in decorated):
            return None
        return tuple(
            (lim, all(f is None or not callable(f) or f in self.pure for f in (lim.exempt_when, lim.key_func, lim.scope, lim.cost)))
            for lim in sorted(decorated, key=lambda lim: lim.limit)  # as Flask-Limiter sorts them: stable, by window
        )

    def _evaluate(self, plan: Plan, endpoint: str) -> None:
        limiter = self.limiter
        strategy = limiter.limiter
        method = request.method
        prefix = limiter._key_prefix
        done: list[Hit] = []  # hit already, none refused
        waiting: list[Hit] = []  # to hit together
        for lim, pure in plan:
            if not pure and waiting:  # hit what comes before a function that may change the request
                self._hit(strategy, done, waiting)
                waiting = []
            if lim.is_exempt or lim.method_exempt:
                continue
            scope = lim.scope_for(endpoint, method)
            key = lim.key_func()
            if not (key and scope):
                limiter.logger.error(f"Skipping limit: {lim.limit}. Empty value found in parameters.")
                continue
            waiting.append((lim, [prefix, key, scope] if prefix else [key, scope], lim.deduction_amount))
        self._hit(strategy, done, waiting)

    def _hit(self, strategy: RateLimiter, done: list[Hit], hits: list[Hit]) -> None:
        """Hit each of `hits` in turn up to the first refused (added to `done`); raise for that one."""
        taken = _hit_all(strategy, hits)
        done.extend(hits[:taken])
        if taken < len(hits):
            self._refuse(done, hits[taken])

    def _refuse(self, done: list[Hit], refused: Hit) -> None:
        # Flask-Limiter's bookkeeping of a breach: the request's limits so far, the
        # refused one last and current (its window gives the 429's Retry-After).
        limiter = self.limiter
        lim, args, _ = refused
        seen = [RequestLimit(limiter, hit[0].limit, hit[1], False, hit[0].shared) for hit in done]
        seen.append(RequestLimit(limiter, lim.limit, args, True, lim.shared))
        context = limiter.context
        context.view_rate_limit = seen[-1]
        context.view_rate_limits = seen
        limiter.logger.info("ratelimit %s (%s) exceeded at endpoint: %s", lim.limit, args[-2], args[-1])
        raise RateLimitExceeded(lim)


def _hit_all(strategy: RateLimiter, hits: list[Hit]) -> int:
    """How many of `hits` were taken, in turn, up to the first refused: in one
    transaction on the coach-sqlite store, else one `strategy.hit` at a time."""
    storage = strategy.storage
    if type(strategy) is MovingWindowRateLimiter and isinstance(storage, SQLiteStorage):
        # What MovingWindowRateLimiter.hit asks the storage for each, asked at once.
        entries: list[Entry] = [(lim.limit.key_for(*args), lim.limit.amount, lim.limit.get_expiry(), cost)
                                for lim, args, cost in hits]
        return storage.acquire_entries(entries)
    for taken, (lim, args, cost) in enumerate(hits):
        if not strategy.hit(lim.limit, *args, cost=cost):
            return taken
    return len(hits)

"""Flask's signed session cookie, each checked cookie remembered (issue 26).

Every request of a signed-in learner carries the same session cookie
until it changes, and Flask checked it afresh each time: the signature
(HMAC), base64, zlib and tagged JSON, about a tenth of a drill question's
CPU, none of which the bare /healthz route pays. Here a cookie that passed
the check is remembered by its exact text (with the key that checked it),
so the next request with it skips straight to its age check: the same
decision as checking again, since the same text under the same key always
verifies the same way; only its age moves, and that is checked every time,
as itsdangerous does (older than the lifetime, or signed in the future,
and the session is empty). A cookie that fails is never remembered.
Each request gets its own copy of the data: a request that changes its
session changes nothing remembered. A session holding only plain values
(text, numbers, true/false: a sign-in's and the CSRF secret, as every
drill request's does) is copied as a dict, the same copy as a deep one
there and a tenth of its cost; any other is copied deeply.
"""

from __future__ import annotations

import copy
import threading
import time
from collections import OrderedDict
from typing import Any

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature

_PLAIN = (str, int, float, bool, bytes, type(None))  # values no request can change in place
SIZE = 2048  # cookies remembered: a busy server's signed-in browsers of the last minutes (about 0.5 KB each)


class RememberingSessionInterface(SecureCookieSessionInterface):
    """`SecureCookieSessionInterface`, each verified cookie's data and signing time remembered."""

    def __init__(self) -> None:
        # (secret key, fallback keys, cookie text) -> (signed at, the data, whether its values are all plain)
        self._known: OrderedDict[tuple[Any, tuple[Any, ...], str], tuple[int, dict[str, Any], bool]] = OrderedDict()
        self._lock = threading.Lock()

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if not app.secret_key:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        key = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()), value)
        with self._lock:
            known = self._known.get(key)
            if known is not None:
                self._known.move_to_end(key)
        if known is None:
            serializer = self.get_signing_serializer(app)
            if serializer is None:
                return None
            try:
                data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
            except BadSignature:
                return self.session_class()
            plain = type(data) is dict and all(type(v) in _PLAIN for v in data.values())
            known = (int(signed.timestamp()), data, plain)
            with self._lock:
                self._known[key] = known
                while len(self._known) > SIZE:
                    self._known.popitem(last=False)
            return self.session_class(dict(data) if plain else copy.deepcopy(data))
        age = int(time.time()) - known[0]  # itsdangerous's own reckoning (TimestampSigner.unsign)
        if age > max_age or age < 0:
            return self.session_class()
        return self.session_class(dict(known[1]) if known[2] else copy.deepcopy(known[1]))


def install(app: Flask) -> None:
    app.session_interface = RememberingSessionInterface()

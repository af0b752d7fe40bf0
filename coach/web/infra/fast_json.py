"""JSON response bodies written by orjson: several times faster than the
standard library's `json` for a verdict, and every drill answer sends one.

Only `jsonify`'s compact bodies change writer; what they hold is the same:
dates, dataclasses and the like still go through Flask's own conversion
(orjson hands them to it), and anything orjson refuses (a whole number past
64 bits, keys that are not text) is written by Flask's provider as before.
The one difference is in the bytes: text outside ASCII is sent as UTF-8
(JSON's own encoding) rather than as \\u escapes. `dumps` (the templates'
`tojson`) is Flask's, unchanged.
"""

from __future__ import annotations

from typing import Any, cast

import orjson
from flask import Flask, Response
from flask.json.provider import DefaultJSONProvider

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_APPEND_NEWLINE


class OrjsonProvider(DefaultJSONProvider):
    sort_keys = False  # keys in the order the code writes them, as the app has always sent them
    _app: Flask  # `install` gives it a Flask app, whose responses are Flask's

    def response(self, *args: Any, **kwargs: Any) -> Response:
        if (self.compact is None and self._app.debug) or self.compact is False:
            return cast(Response, super().response(*args, **kwargs))  # indented for reading: Flask's
        obj = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(obj, default=self.default, option=_OPTIONS)
        except TypeError:  # orjson.JSONEncodeError: what only the standard library writes
            return cast(Response, super().response(*args, **kwargs))
        return self._app.response_class(body, mimetype=self.mimetype)


def install(app: Flask) -> None:
    app.json = OrjsonProvider(app)

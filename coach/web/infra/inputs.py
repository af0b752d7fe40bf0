"""Bounds on every input, checked once for the whole app before any view runs.

- Ids in URL paths (`<int:...>`) stop at the largest integer every
  database holds (2^31 - 1 on PostgreSQL): past it the route does not
  match, a 404, instead of a database error.
- Text: NUL bytes and other control characters are refused in every
  form field, query argument, uploaded file and JSON string. Tabs and
  line breaks are allowed only where a person writes several lines (a
  pasted card or drill set, a description, an uploaded file). PostgreSQL
  cannot store a NUL at all; elsewhere such characters only hide text.
- JSON bodies (`parse_json`): nested at most MAX_JSON_DEPTH deep (counted
  before parsing, so '[' * 60000 is a quick 400, not a RecursionError),
  numbers finite, whole numbers at most MAX_INT_DIGITS digits. The API
  reads its body with `json_body()` after its own route checks; a JSON
  body sent anywhere else is checked here.
- Hidden whole-number form fields that name rows (assignment, slot, after)
  stay within the database's integer range.

A refused API request answers 400 {"error": ...}. A refused form shows its
page again (the GET view of the same address, or of the page the form was
sent from) with the message on top, status 400; a form that has no page of
its own answers the error page.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, cast
from urllib.parse import urlsplit

from flask import Flask, current_app, g, make_response, request
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.routing import IntegerConverter, ValidationError

from coach.common.errors import CoachError
from coach.web.infra.errors import error_response, page_error
from coach.web.infra.htmx import is_htmx

MAX_DB_INT = 2**31 - 1  # PostgreSQL's integer; SQLite's is larger


def whole_number(value: Any) -> int | None:
    """A JSON number with nothing after the point, as an int: 3 and 3.0 alike,
    since JSON Schema's "integer", which the API's description promises,
    counts 3.0 as one (issue 26). None for anything else: true, 3.5, "3"."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None
MAX_JSON_DEPTH = 20
MAX_INT_DIGITS = 20
# Fields a person writes on several lines; everywhere else a tab or line break is refused too.
MULTILINE_FIELDS = frozenset({"card_text", "set_text", "description"})
# Hidden form fields holding a row's id or position.
ID_FIELDS = frozenset({"assignment", "slot", "after"})
LABELS = {
    "name": "Name",
    "email": "Email",
    "password": "Password",
    "current_password": "Current password",
    "card_text": "Card text",
    "set_text": "Drill set text",
    "card_file": "Card",
    "set_file": "Drill set",
    "code": "Join code",
    "time_zone": "Time zone",
    "daily_goal": "Daily goal",
}

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_OR_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
# A JSON string or a bracket: the brackets outside strings give the nesting depth.
_JSON_NESTING = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class InputError(CoachError, ValueError):
    """An input refused before any view sees it; the message says what and where."""


class DatabaseId(IntegerConverter):
    """`<int:...>` for ids: a number past the database's integer range matches no route (404)."""

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", MAX_DB_INT)
        super().__init__(map, *args, **kwargs)

    def to_python(self, value: str) -> Any:
        if len(value) > len(str(MAX_DB_INT)):  # never turn a thousand digits into an int
            raise ValidationError()
        return super().to_python(value)


# -- text ---------------------------------------------------------------------------------


def _describe(char: str) -> str:
    if char == "\t":
        return "a tab"
    if char in "\r\n":
        return "a line break"
    if "\ud800" <= char <= "\udfff":
        return f"half of a character pair (U+{ord(char):04X})"
    return f"a control character (U+{ord(char):04X}{', NUL' if char == chr(0) else ''})"


def text_problem(label: str, value: str, multiline: bool = False) -> str | None:
    """What is wrong with one text value, or None."""
    found = (_CONTROL if multiline else _CONTROL_OR_LINE).search(value)
    if found is None:
        return None
    where = ""
    if multiline:
        where = f" on line {value.count(chr(10), 0, found.start()) + 1}"
    allowed = "only tabs and line breaks are allowed" if multiline else "it must be one line of plain text"
    return f"{label} contains {_describe(found.group())}{where}, which is not allowed here: {allowed}."


def _label(field: str) -> str:
    return LABELS.get(field) or (field.replace("_", " ").strip().capitalize() or "A field")


def _out_of_range(value: str) -> bool:
    """A whole number (as int() reads it: signs, spaces, underscores) past the database's range."""
    if len(value) > 40:
        return True
    try:
        return abs(int(value)) > MAX_DB_INT
    except ValueError:
        return False  # not a number: the view says so


def form_problem(form: Any, files: Any, args: Any) -> str | None:
    """The first refused character in a form, its files or the query, as a message."""
    for key, value in args.items(multi=True):
        problem = text_problem(f"The address's \u201c{key[:40]}\u201d", key + "=" + value)
        if problem:
            return problem
    for key, value in form.items(multi=True):
        problem = text_problem("A field name", key) or text_problem(
            f"\u201c{_label(key)}\u201d", value, multiline=key in MULTILINE_FIELDS
        )
        if problem:
            return problem
        if key in ID_FIELDS and _out_of_range(value):
            return f"\u201c{_label(key)}\u201d must be a whole number from 0 to {MAX_DB_INT}."
    for key, upload in files.items(multi=True):
        data = upload.stream.read()
        upload.stream.seek(0)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            continue  # not text at all: the view says so
        problem = text_problem(f"The file for \u201c{_label(key)}\u201d", text, multiline=True)
        if problem:
            return problem + " Save it as plain text and try again."
    return None


# -- JSON ---------------------------------------------------------------------------------


def _refuse_constant(name: str) -> Any:
    raise InputError(f"{name} is not a JSON number: send a finite number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"the number {text[:40]} is too large: send a finite number")
    return value


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise InputError(f"a whole number has more than {MAX_INT_DIGITS} digits")
    return int(text)


def json_depth(raw: bytes, limit: int = MAX_JSON_DEPTH) -> int:
    """How deep the body's arrays and objects nest, counted up to `limit` + 1 and no further."""
    depth = deepest = 0
    for match in _JSON_NESTING.finditer(raw):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > limit:
                break
        elif token in (b"]", b"}"):
            depth -= 1
    return deepest


def _walk_strings(value: Any, path: str) -> str | None:
    if isinstance(value, str):
        return text_problem(f"\u201c{path}\u201d" if path else "The body", value)
    if isinstance(value, list):
        for index, item in enumerate(value):
            problem = _walk_strings(item, f"{path}[{index}]")
            if problem:
                return problem
    if isinstance(value, dict):
        for key, item in value.items():
            problem = text_problem("A key", key) or _walk_strings(item, f"{path}.{key[:40]}" if path else key[:40])
            if problem:
                return problem
    return None


def parse_json(raw: bytes) -> Any:
    """A JSON body, bounded: depth, finite numbers, whole-number digits, no control characters.

    Raises InputError with a message for the person who sent it."""
    if json_depth(raw) > MAX_JSON_DEPTH:
        raise InputError(f"the body nests arrays and objects more than {MAX_JSON_DEPTH} deep")
    try:
        data = json.loads(raw, parse_constant=_refuse_constant, parse_float=_finite, parse_int=_whole)
    except InputError as error:
        raise InputError(f"the body is not valid JSON: {error}") from None
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise InputError(f"the body is not valid JSON: {str(error)[:120]}") from None
    problem = _walk_strings(data, "")
    if problem:
        raise InputError(problem)
    return data


def json_body() -> Any:
    """This request's JSON body through `parse_json`, parsed once per request; InputError if refused."""
    if "json_body" not in g:
        g.json_body = parse_json(request.get_data(cache=True))
    return g.json_body


# -- the check before every request ----------------------------------------------------------


def _is_api() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def _is_json() -> bool:
    return request.mimetype == "application/json" or request.mimetype.endswith("+json")


def _form_page(message: str):
    """The page the form came from, shown again with the message (400); None when there is none."""
    if is_htmx():
        return None
    adapter = current_app.url_map.bind_to_environ(request.environ)
    targets = [request.path]
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc == request.host and referrer.path:
        targets.insert(0, referrer.path)
    for path in targets:
        try:
            rule, args = adapter.match(path, method="GET", return_rule=True)
        except HTTPException:
            continue
        # The page's own GET view renders the form again, empty: nothing sent is saved or echoed
        # (GET views read no form, and request.values leaves the form out of a GET).
        request.method = "GET"
        request.url_rule, request.view_args = rule, cast("dict[str, Any]", args)  # match gives a dict
        g.input_problem = message
        response = make_response(current_app.view_functions[rule.endpoint](**args))
        if response.status_code == 200:
            response.status_code = 400
        return response
    return None


def _refuse(message: str):
    if _is_api():
        return error_response(message, 400)
    if request.method == "POST":
        shown = _form_page(message)
        if shown is not None:
            return shown
    return page_error(400, "That was not accepted", message)


FORM_TYPES = frozenset(("application/x-www-form-urlencoded", "multipart/form-data"))  # what Werkzeug reads a form from
_NO_FIELDS: ImmutableMultiDict[str, Any] = ImmutableMultiDict()


def check_request():
    """Refuse a request with a control character or an out-of-range input, before its view runs."""
    for value in (request.view_args or {}).values():
        if isinstance(value, str) and _CONTROL_OR_LINE.search(value):
            raise NotFound()
    # The API reads its body with json_body() after its own checks (an unknown
    # drill is a 404 whatever the body); any other JSON body is checked here.
    if _is_json() and not _is_api() and request.content_length != 0:
        raw = request.get_data(cache=True)
        if raw.strip():
            try:
                g.json_body = parse_json(raw)
            except InputError as error:
                return _refuse(str(error))
    if request.mimetype in FORM_TYPES:
        problem = form_problem(request.form, request.files, request.args)
    else:  # no form to read: Werkzeug parses only these two types, and gives any other an empty form
        problem = form_problem(_NO_FIELDS, _NO_FIELDS, request.args)
    if problem:
        return _refuse(problem)
    return None


def install(app: Flask) -> None:
    """Call before any blueprint is registered (the id converter binds with the routes)
    and after CSRFProtect (a forged form is refused for that first)."""
    app.url_map.converters["int"] = DatabaseId
    app.before_request(check_request)

"""Error answers for the whole app: JSON under /api, HTML elsewhere.

Under /api every error, matched route or not, answers {"error": "..."};
an unexpected exception answers a JSON 500 that says nothing of its
cause (the traceback goes to the log). Pages answer a friendly error
page, or for an htmx request a small partial it can swap in.
"""

from __future__ import annotations

from flask import Flask, jsonify, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed

from coach.web.infra.htmx import render

API_MESSAGES = {
    404: "no such API route; see GET /api/drills",
    413: "the body is too large",
}


def _is_api() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def error_response(message: str, status: int):
    """The API's error shape, {"error": "..."}: the API's routes and the app-wide handlers for /api."""
    return jsonify(error=message), status


def page_error(status: int, title: str, message: str, links: list[tuple[str, str]] | None = None):
    """An HTML error: the whole page, or a partial for htmx to swap in. `links`
    (words, address) are the places the learner may have meant, by their names."""
    return render(
        "error.html", "partials/problem.html", status=status, title=title, message=message, links=links or [],
    ), status


def _allow(error: HTTPException) -> dict[str, str]:
    """A 405 says which methods the route does take (HTTP requires the Allow header);
    werkzeug's routing knows them, and a handler's own answer would drop them."""
    methods = getattr(error, "valid_methods", None) if isinstance(error, MethodNotAllowed) else None
    return {"Allow": ", ".join(sorted(methods))} if methods else {}


def install(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError):
        return page_error(
            400, "This page has expired",
            "The form's security token is missing or out of date. Reload the page and try again.",
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        status = error.code or 500
        if _is_api():
            if status == 405:
                body, _ = error_response(f"{request.method} is not allowed on {request.path}", 405)
                return body, 405, _allow(error)
            return error_response(API_MESSAGES.get(status, error.description or error.name), status)
        titles = {404: "Page not found", 405: "Not allowed", 413: "Too large"}
        message = "There is nothing here. The drills are one click away." if status == 404 else error.description
        body, status = page_error(status, titles.get(status, error.name), message or error.name)
        return body, status, _allow(error)

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        if isinstance(error, HTTPException):
            return http_error(error)
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        if _is_api():
            return error_response("the coach hit an unexpected error; it has been logged", 500)
        return page_error(500, "Something went wrong", InternalServerError.description)

"""Live tables over the test client (issue 28): open one, read a seat's state, post its moves."""

from __future__ import annotations

import re
from typing import Any

from sqlmodel import Session

from coach.play.hand import Action
from coach.store import tables as store
from coach.web.shared.tables.state import TableState, load_table
from tests.support.teaching import post


def open_one(client, **form: str) -> str:
    """A friends' table opened by this client (sitting in East); its code."""
    response = post(client, "/tables", {"strength": "club", "auto_pass": "1", "kind": "friends", "sit": "yes", **form})
    assert response.status_code == 303, response.get_data(as_text=True)
    match = re.fullmatch(r"/tables/([A-Z0-9]{6})", response.headers["Location"])
    assert match
    return match.group(1)


def loaded(app, code: str) -> TableState:
    with app.app_context(), Session(app.extensions["store"]) as session:
        table = store.table_by_code(session, code)
        assert table is not None
        return load_table(session, table)


def form_of(action: Action, number: int) -> dict[str, Any]:
    """The practice table's form fields for `action`, with the seat's state number."""
    data: dict[str, Any] = {"kind": action.kind, "number": str(number)}
    if action.tiles:
        data["tiles"] = list(action.tiles)
    if action.kind == "vote":
        data["go"] = "1" if action.go else "0"
    for name in ("blind", "count", "size", "group", "place"):
        if getattr(action, name):
            data[name] = str(getattr(action, name))
    if action.owner:
        data["owner"] = action.owner
    return data


def first_choice(app, code: str, seat: str) -> dict[str, Any]:
    """The form of `seat`'s first choice now."""
    state = loaded(app, code)
    view = state.view(seat)
    assert view is not None and view["choices"], f"{seat} owes nothing now"
    return form_of(Action.from_json(view["choices"][0]), view["move"])

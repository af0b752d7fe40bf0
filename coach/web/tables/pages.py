"""Tables with friends (issue 28): open one, join with its code, play a hand live.

    GET  /tables                        my tables, "Open a table", "Join with a code"
    POST /tables                        open a table -> 303 /tables/<code>
    POST /tables/join                   field `code` -> 303 /tables/<code>
    GET  /tables/<code>                 the table: seats, the host's controls, the hand as my seat sees it
    POST /tables/<code>/seats/<seat>    take a seat
    POST /tables/<code>/seats/<seat>/out  the host moves a person out (a computer player sits down)
    POST /tables/<code>/start           the host deals the next hand
    POST /tables/<code>/moves           my move: the practice table's form fields and `number`
    GET  /tables/<code>/view            the table as an htmx partial (fetched when the stream says "moved")
    GET  /tables/<code>/events          server-sent events: "moved" whenever the table changes
    GET  /tables/<code>/hands/<n>/review  my review of my own seat in hand n

Every change goes through coach/web/shared/tables/moves.py, which saves with
compare and set and publishes on the table's push topic after the commit. The
page never says more than the seat sees (coach/play/seat_view.py); the stream
carries only a version number, and each page fetches its own view.

Requests read in a strict `database.reading(strict=True)` session (the
database refuses a write in it): every write of a table is moves.py's, each
in a `database.writing()` session of its own taken only around the store's
call, and a guest made by a request is made in one too.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, col, select

from coach.notation import tiles
from coach.play.bots import STRENGTHS
from coach.play.hand import Action, HandError
from coach.play.people import KINDS, MOST_TIMER, TableSettings
from coach.store import tables as store
from coach.store.models import GameTable, Learner, TableHand
from coach.web.infra import database, limits
from coach.web.infra.htmx import is_htmx
from coach.web.infra.push import RECHECK, stream, table_topic
from coach.web.shared import learners
from coach.web.shared.practice.hands import STEP_WORDS
from coach.web.shared.table_rules import rules_of
from coach.web.shared.tables import moves
from coach.web.shared.tables.reviews import start_review
from coach.web.shared.tables.state import (
    TableState,
    card_of,
    load_table,
    ruling_words,
    rulings,
    seat_named,
    stored_result,
)

bp = Blueprint("tables", __name__, url_prefix="/tables")

MOVED = "The table moved on before your move arrived: here it is as it stands now."
NO_NUMBER = "Your move came without its number, so it was not played: choose it again below."
NOT_SEATED = "Only the person sitting in a seat moves for it: take a free seat first."
STREAM_TICK = 8.0  # seconds between an open stream's own looks at the table: well inside moves.GRACE
LOG_SHOWN = 12
CALL_LABELS = {3: "Call for a pung", 4: "Call for a kong", 5: "Call for a quint", 6: "Call for a sextet"}
WAITS_WORDS = {"pass": "to pass", "vote": "to vote", "offer": "to offer", "courtesy": "to pass", "call": "to decide", "turn": "to play"}


def waiting_line(owing: dict[str, str], waiting: list[str], away: Collection[str]) -> str:
    """Who the table waits for, said to the others. On a discard the seats are not
    named: with "pass for me when I cannot use it" on, only a person who could call
    is waited for, so a name would tell the table what that rack can use (K1)."""
    kinds = {owing[s] for s in waiting}
    if "call" in kinds:
        return "Waiting to hear whether anyone calls the discard"
    who = _and([s if s not in away else f"{s}, who is away" for s in waiting])
    return f"Waiting for {who} {WAITS_WORDS.get(kinds.pop(), 'to decide') if len(kinds) == 1 else 'to decide'}"


# -- reading the table ----------------------------------------------------------------------


def _learner(session: Session, create: bool = False) -> Learner | None:
    return learners.current_learner(session, create=create)


def _loaded(session: Session, code: str) -> TableState:
    table = store.table_by_code(session, code)
    if table is None:
        abort(404, description="There is no table with that code. Check the code with whoever opened it.")
    return load_table(session, table)


def _names(session: Session, state: TableState) -> dict[str, str]:
    """Each seat as the table shows it: the person's name (or "Guest"), else the computer player."""
    strength = state.settings.strength
    out = {}
    for seat in state.seats:
        if seat.learner_id is None:
            out[seat.seat] = f"Computer ({strength})"
        else:
            person = session.get(Learner, seat.learner_id)
            out[seat.seat] = (person.name if person is not None and person.name else "Guest")
    return out


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _choices_page(view: dict[str, Any]) -> dict[str, Any]:
    """The seat's choices (its `seat_view`) as the practice table's forms draw them."""
    choices = [Action.from_json(c) for c in view["choices"]]
    kinds = {c.kind for c in choices}
    calls = [
        {"size": c.size, "mahjong": c.size == 0, "label": "Mah Jongg!" if c.size == 0 else CALL_LABELS.get(c.size, f"Call for {c.size}")}
        for c in choices if c.kind == "call"
    ]
    return {
        "calls": calls,
        "can_pass_call": "no-call" in kinds,
        "can_win": "mahjong" in kinds,
        "exchanges": [{"owner": c.owner, "group": c.group, "tile": c.tiles[0]} for c in choices if c.kind == "exchange"],
        "swaps": [{"place": c.place, "tile": c.tiles[0]} for c in choices if c.kind == "blank"],
        "can_throw": "discard" in kinds,
        "blind_ok": any(c.kind == "pass" and c.blind for c in choices),
        "joker_ok": any(c.kind == "courtesy" and "J" in c.tiles for c in choices),
        "offers": sorted({c.count for c in choices if c.kind == "offer"}),
        "votes": "vote" in kinds,
        "mahjong_call": any(c["mahjong"] for c in calls),
    }


def _context(session: Session, state: TableState, learner: Learner | None, **extra: Any) -> dict[str, Any]:
    me = learner.id if learner is not None else None
    seat = state.seat_of(me)
    names = _names(session, state)
    view = state.view(seat) if seat is not None and state.hand is not None else None
    owing = state.owing()
    waiting = [s for s in owing if s != seat]
    away = state.away
    context: dict[str, Any] = {
        "state": state, "table": state.table, "code": state.table.code, "seat": seat, "names": names, "view": view,
        "is_host": me is not None and state.table.host_id == me, "away": away, "version": state.version,
        "hand_number": state.row.number if state.row is not None else None,
        "waiting_words": "", "ruling": None, "deadline": None, "page": {}, "step_words": "",
        "log_recent": [], "log_all": [], "result": None, "review_url": None, "settings": state.settings,
        "strength": state.settings.strength, "problem": None,
    }
    if state.hand is not None:
        if waiting and state.going:
            context["waiting_words"] = waiting_line(owing, waiting, away)
        found = rulings(state.hand)
        if found and found[-1][0] >= len(state.hand.actions) - 8:  # the latest ruling, while it is news
            context["ruling"] = ruling_words(found[-1][1])
        if seat is not None and seat in owing:
            context["deadline"] = state.deadline(seat)
    if view is not None:
        context["page"] = _choices_page(view)
        context["step_words"] = STEP_WORDS.get(view["step"], "")
        context["log_all"] = view["log"]
        context["log_recent"] = view["log"][-LOG_SHOWN:]
        if state.row is not None and state.row.finished_at is not None:
            context["result"] = view["result"]
            result = stored_result(state.row) or {}
            if str(result.get("people", {}).get(seat)) == str(me):
                context["review_url"] = url_for("tables.review_page", code=state.table.code, number=state.row.number)
    context["my_reviews"] = _my_reviews(session, state, me)
    return context | extra


def _my_reviews(session: Session, state: TableState, me: int | None) -> list[tuple[int, str]]:
    """Each finished hand of this table in which this person sat: its number and review's address."""
    if me is None:
        return []
    rows = session.exec(
        select(TableHand).where(TableHand.table_id == state.id, col(TableHand.finished_at).is_not(None)).order_by(col(TableHand.number))
    ).all()
    return [
        (row.number, url_for("tables.review_page", code=state.table.code, number=row.number))
        for row in rows if me in (stored_result(row) or {}).get("people", {}).values()
    ]


def _page(session: Session, state: TableState, learner: Learner | None, status: int = 200, **extra: Any):
    context = _context(session, state, learner, **extra)
    template = "tables/partials/table.html" if is_htmx() else "tables/table.html"
    return render_template(template, **context), status


NO_TABLE = "There is no table with that code. Check the code with whoever opened it."


def _table(session: Session, code: str) -> GameTable:
    table = store.table_by_code(session, code)
    if table is None:
        abort(404, description=NO_TABLE)
    return table


def _noticed(session: Session, table: GameTable, learner: Learner | None) -> TableState:
    """The table as it stands after this request's look (coach/web/shared/tables/moves.py
    `tick`): a seated person is heard from (presence), the away and the turn timer are
    noticed; the hand is replayed once."""
    return moves.tick(session, table, learner.id if learner is not None else None)


# -- my tables, open, join --------------------------------------------------------------------


def _home(session: Session, problem: str | None = None, status: int = 200):
    learner = _learner(session)
    rows = store.tables_of(session, learner.id) if learner is not None and learner.id is not None else []
    mine: dict[int, str] = {}
    for r in rows:
        found = store.seat_of(session, r.id, learner.id) if learner is not None and learner.id is not None and r.id is not None else None
        if found is not None and r.id is not None:
            mine[r.id] = found.seat
    return render_template(
        "tables/home.html", rows=rows, mine=mine, strengths=STRENGTHS, problem=problem, most_timer=MOST_TIMER,
        learner_id=learner.id if learner is not None else None,
    ), status


@bp.get("")
def home():
    with database.reading(strict=True) as session:
        return _home(session)


def _settings_from_form() -> tuple[str, TableSettings]:
    """The host's choices; ValueError names what is wrong."""
    kind = request.form.get("kind", "friends")
    if kind not in KINDS or kind == "class":  # a class table is opened from the teacher's pages
        raise ValueError("a table here is a friends' table or one that waits for everyone")
    strength = request.form.get("strength", "club")
    if strength not in STRENGTHS:
        raise ValueError(f"the computer players are one of {', '.join(STRENGTHS)}")
    raw = request.form.get("turn_timer", "").strip()
    timer = None
    if raw:
        if not raw.isdigit() or len(raw) > 4:
            raise ValueError(f"a turn timer is a number of seconds, 5 to {MOST_TIMER}, or empty for none")
        timer = int(raw)
    auto_pass = request.form.get("auto_pass", "") in ("1", "on", "yes", "true")
    return kind, TableSettings.for_kind(kind, strength, auto_pass, timer)


@bp.post("")
@limits.drilling
def open_table():
    with database.writing() as session:
        try:
            kind, settings = _settings_from_form()
        except ValueError as error:
            return _home(session, f"Not opened: {error}.", 422)
        learner = _learner(session, create=True)
        assert learner is not None and learner.id is not None
        sit = "East" if request.form.get("sit", "yes") in ("yes", "1", "on") else None
        card = current_app.extensions["coach"].card
        rules = rules_of(session, learner)  # the host's own table rules, as for a practice hand; each hand keeps its copy
        table = store.open_table(session, learner.id, card.name, kind, rules=rules, settings=settings, seat=sit)
        return redirect(url_for("tables.table_page", code=table.code), 303)


@bp.post("/join")
@limits.join
def join():
    code = store.normal_code(request.form.get("code", ""))
    with database.reading(strict=True) as session:
        table = store.table_by_code(session, code) if code else None
        if table is None:
            return _home(session, "There is no table with that code. Check it with whoever opened the table.", 404)
        return redirect(url_for("tables.table_page", code=table.code), 303)


# -- the table --------------------------------------------------------------------------------


@bp.get("/<code>")
@limits.join
def table_page(code: str):
    with database.reading(strict=True) as session:
        table = _table(session, code)
        if store.normal_code(code) != code:  # typed in lower case or with a dash: the table's own address
            return redirect(url_for("tables.table_page", code=table.code), 303)
        learner = _learner(session)
        state = _noticed(session, table, learner)
        return _page(session, state, learner)


@bp.get("/<code>/view")
def view(code: str):
    """The table as an htmx partial; 204 when the page already shows this version (`since`)."""
    with database.reading(strict=True) as session:
        learner = _learner(session)
        table = store.table_by_code(session, code)
        if table is None:
            if is_htmx():  # closed while the page was open (a class seating taken back): the page says so
                return render_template("tables/partials/closed.html"), 200, {"Cache-Control": "no-store"}
            abort(404, description=NO_TABLE)
        state = _noticed(session, table, learner)
        since = request.args.get("since", "")
        if since.isdigit() and len(since) < 12 and int(since) == state.version:
            return "", 204
        context = _context(session, state, learner)
        return render_template("tables/partials/table.html", **context), 200, {"Cache-Control": "no-store"}


@bp.get("/<code>/events")
def events(code: str):
    """The table's stream (coach/web/infra/push.py): "moved" with the table's version on
    open and whenever it changes. Each wake of an open stream is a sign of life of its
    person (presence) and a look at the turn timer; it wakes by the timer's deadline."""
    with database.reading(strict=True) as session:
        table = store.table_by_code(session, code)
        if table is None:
            abort(404)
        learner = _learner(session)
        me = learner.id if learner is not None else None
        table_id = table.id
        assert table_id is not None
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # the stream outlives the request
    wake = [STREAM_TICK]

    def version_now() -> int | None:
        with app.app_context(), database.reading(strict=True) as session:
            row = session.get(GameTable, table_id)
            if row is None:
                return None
            seated = store.seat_of(session, table_id, me) is not None if me is not None else False
            try:
                state = moves.tick(session, row, me if seated else None)
            except OperationalError:  # the database busy with another writer: this look only reads; the next one ticks
                session.rollback()
                state = load_table(session, row)
            left = moves.wake_in(state)
            wake[0] = min(STREAM_TICK, left) if left is not None else STREAM_TICK
            return state.version

    return stream(table_topic(table_id), version_now, recheck=lambda: min(wake[0], RECHECK))


def _redirect_or_page(session: Session, code: str, state: TableState, learner: Learner | None):
    if is_htmx():
        return _page(session, state, learner)
    return redirect(url_for("tables.table_page", code=code), 303)


@bp.post("/<code>/seats/<seat>")
@limits.drilling
def take_seat(code: str, seat: str):
    name = seat_named(seat)
    with database.reading(strict=True) as session:
        state = _loaded(session, code)
        if name is None or name not in {s.seat for s in state.seats}:
            abort(404, description="That seat is not at this table: East, South, West or North (North is empty at three).")
        learner = _learner(session)
    if learner is None:  # a guest, made in a write session of its own
        with database.writing() as writer:
            made = _learner(writer, create=True)
            assert made is not None
            writer.commit()
    with database.reading(strict=True) as session:
        state = _loaded(session, code)
        learner = _learner(session)
        assert learner is not None and learner.id is not None
        try:
            state = moves.sit(session, state.table, learner.id, name)
        except store.TableError as error:  # SeatTaken, AlreadySeated, a class table not theirs
            session.rollback()
            return _page(session, load_table(session, state.table), learner, 409, problem=f"{error}.")
        return _redirect_or_page(session, state.table.code, state, learner)


@bp.post("/<code>/seats/<seat>/out")
def move_out(code: str, seat: str):
    name = seat_named(seat)
    with database.reading(strict=True) as session:
        state = _loaded(session, code)
        learner = _learner(session)
        if learner is None or state.table.host_id != learner.id:
            abort(403, description="Only the table's host moves people out.")
        if name is None or name not in {s.seat for s in state.seats}:
            abort(404, description="That seat is not at this table.")
        try:
            state = moves.move_out(session, state.table, learner.id, name)
        except store.TableError as error:
            return _page(session, load_table(session, state.table), learner, 409, problem=f"{error}.")
        return _redirect_or_page(session, state.table.code, state, learner)


@bp.post("/<code>/start")
def start(code: str):
    with database.reading(strict=True) as session:
        state = _loaded(session, code)
        learner = _learner(session)
        if learner is None or learner.id is None or state.table.host_id != learner.id:
            abort(403, description="Only the table's host deals a hand.")
        try:
            state = moves.start_hand(session, state.table, learner.id).state
        except store.TableError as error:  # a hand going, or another start came first
            session.rollback()
            return _page(session, load_table(session, state.table), learner, 409, problem=f"Not dealt: {error}.")
        return _redirect_or_page(session, state.table.code, state, learner)


def _whole(name: str, default: int = 0) -> int:
    raw = request.form.get(name, "")
    return int(raw) if raw.isdigit() and len(raw) < 4 else default


def action_from_form(seat: str) -> Action:
    """The move as the practice table's forms send it; HandError names what is wrong."""
    kind = request.form.get("kind", "")[:12]
    picked = request.form.getlist("tiles")[:14] or ([request.form["tile"]] if request.form.get("tile") else [])
    try:
        codes = tuple(tiles.table_code_of(c) for c in picked)
    except ValueError:
        raise HandError("that is not a tile of the set", "T1") from None
    owner = request.form.get("owner", "")
    size = _whole("size")
    return Action(
        seat, kind, codes, blind=_whole("blind"), go=request.form.get("go", "1") == "1", count=_whole("count"),
        size=size, owner=owner if owner in tiles.SEATS else "", group=_whole("group"), place=_whole("place"),
    )


@bp.post("/<code>/moves")
@limits.drilling
def move(code: str):
    with database.reading(strict=True) as session:
        state = _loaded(session, code)
        learner = _learner(session)
        seat = state.seat_of(learner.id if learner is not None else None)
        if seat is None:
            abort(403, description=NOT_SEATED)
        number = request.form.get("number", "")
        if not (number.isdigit() and len(number) < 10):
            return _page(session, state, learner, 400, problem=NO_NUMBER)
        try:
            action = action_from_form(seat)
            moves.play_move(session, state.table, seat, action, int(number))
        except moves.StaleMove:
            session.rollback()
            return _page(session, load_table(session, state.table), learner, 409, problem=moves.ALREADY_PLAYED)
        except store.TableHandMoved:
            session.rollback()
            return _page(session, load_table(session, state.table), learner, 409, problem=MOVED)
        except moves.NoHand as error:
            return _page(session, state, learner, 409, problem=f"{error}.")
        except HandError as error:
            session.rollback()
            return _page(session, load_table(session, state.table), learner, 422, problem=f"{error.message} ({error.rule})")
        return _redirect_or_page(session, state.table.code, load_table(session, state.table), learner)


# -- my review --------------------------------------------------------------------------------


@bp.get("/<code>/hands/<int:number>/review")
def review_page(code: str, number: int):
    """My review of my own seat in hand `number`, once the hand is over: only the
    person who sat there when it ended reads it (404 for anyone else, as for none)."""
    with database.reading(strict=True) as session:
        table = store.table_by_code(session, code)
        learner = _learner(session)
        if table is None or table.id is None or learner is None or number < 1 or number > 100_000:
            abort(404)
        row = session.exec(select(TableHand).where(TableHand.table_id == table.id, TableHand.number == number)).first()
        result = stored_result(row) if row is not None and row.finished_at is not None else None
        seat = next((s for s, who in (result or {}).get("people", {}).items() if who == learner.id), None)
        if row is None or row.id is None or seat is None:
            abort(404, description="There is no review of yours for that hand: only the person who sat in a seat reads its review.")
        hand_id, table_code, card = row.id, table.code, card_of(table)
        winner = (result or {}).get("winner")
        line = (result or {}).get("line")
    state = start_review(hand_id, seat)
    context = {"state": state, "code": table_code, "number": number, "seat": seat, "winner": winner, "line": line,
               "card": card}
    page = render_template("tables/review_live.html" if is_htmx() else "tables/review.html", **context)
    return page, 200, {"Vary": "HX-Request"}

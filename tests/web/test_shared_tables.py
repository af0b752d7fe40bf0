"""A live table's moves as every web part plays them (coach/web/shared/tables, issue 28):
checked by number and by the seat's choices, saved by compare and set, published only
after the save; seats, the host's start and move out; presence and the turn timer
noticed lazily; each person's review of their own seat."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlmodel import Session

from coach.common import clock
from coach.play.hand import Action, HandError
from coach.play.people import TableSettings
from coach.store import reviews as review_store
from coach.store import tables as store
from coach.store.models import GameTable, TableHand, TableHandReview
from coach.web.infra.push import push, table_topic
from coach.web.shared.tables import moves
from coach.web.shared.tables.state import ruling_words, rulings, seat_named
from tests.support.people import person

SEED = 11


def _table(engine, host: int, settings: TableSettings | None = None, seat: str | None = "East") -> int:
    with Session(engine) as session:
        row = store.open_table(session, host, "x", settings=settings, seat=seat)
        assert row.id is not None
        return row.id


def _fresh(engine, table_id: int) -> tuple[Session, GameTable]:
    session = Session(engine)
    table = session.get(GameTable, table_id)
    assert table is not None
    return session, table


def _card_name(ctx) -> str:
    return ctx.extensions["coach"].card.name


@pytest.fixture
def table(ctx, engine):
    host = person(engine, "Hana")
    with Session(engine) as session:
        row = store.open_table(session, host, _card_name(ctx), seat="East")
        assert row.id is not None
        return row.id, host


def _started(engine, table_id: int, host: int):
    session, table = _fresh(engine, table_id)
    outcome = moves.start_hand(session, table, host, seed=SEED)
    return session, table, outcome


def test_only_the_host_starts_a_hand_and_the_computer_players_play_up_to_a_person(engine, table):
    table_id, host = table
    other = person(engine, "Omar")
    session, row = _fresh(engine, table_id)
    with pytest.raises(moves.NotHost):
        moves.start_hand(session, row, other)
    assert store.current_hand(session, table_id) is None
    ticket = push().ticket(table_topic(table_id))
    outcome = moves.start_hand(session, row, host, seed=SEED)
    assert outcome.state.owing() == {"East": "pass"}  # the first Charleston pass: the host's to choose (C1)
    assert push().ticket(table_topic(table_id)) > ticket  # published after the deal was saved
    with pytest.raises(store.TableError):  # one hand going at a time
        moves.start_hand(session, row, host)


def test_a_move_is_played_saved_and_published(engine, table):
    table_id, host = table
    session, row, outcome = _started(engine, table_id, host)
    state = outcome.state
    choice = Action.from_json(state.view("East")["choices"][0])
    version = state.row.version
    ticket = push().ticket(table_topic(table_id))
    after = moves.play_move(session, row, "East", choice, state.number("East"))
    assert after.state.row.version == version + 1
    assert push().ticket(table_topic(table_id)) > ticket
    with Session(engine) as other:
        assert any(a["seat"] == "East" for a in json.loads(store.current_hand(other, table_id).actions))


def test_a_stale_number_or_a_forged_move_is_refused_and_nothing_is_written(engine, table):
    table_id, host = table
    session, row, outcome = _started(engine, table_id, host)
    number = outcome.state.number("East")
    version = outcome.state.row.version
    with pytest.raises(moves.StaleMove):
        moves.play_move(session, row, "East", Action.from_json(outcome.state.view("East")["choices"][0]), number + 1)
    with pytest.raises(HandError):
        moves.play_move(session, row, "East", Action("East", "discard", ("5D",)), number)  # a discard in the Charleston
    with pytest.raises(HandError):  # South is a computer player's: no person owes a move there
        moves.play_move(session, row, "South", Action("South", "pass", ("5D", "6D", "7D")), outcome.state.number("South"))
    with Session(engine) as other:
        assert store.current_hand(other, table_id).version == version


def test_the_same_move_twice_is_played_once(engine, table):
    table_id, host = table
    session, row, outcome = _started(engine, table_id, host)
    choice = Action.from_json(outcome.state.view("East")["choices"][0])
    number = outcome.state.number("East")
    moves.play_move(session, row, "East", choice, number)
    with pytest.raises(moves.StaleMove):  # a double click: the seat has moved on
        moves.play_move(session, row, "East", choice, number)


def test_a_save_that_lost_the_race_raises_table_hand_moved(engine, table, monkeypatch):
    table_id, host = table
    session, row, outcome = _started(engine, table_id, host)
    choice = Action.from_json(outcome.state.view("East")["choices"][0])
    real = store.save_moves

    def first_another(s, hand_row, *args, **kwargs):  # another request saves between this one's read and write
        with Session(engine) as racer:
            theirs = racer.get(TableHand, hand_row.id)
            real(racer, theirs, store.actions_of(theirs), store.held_of(theirs), None)
        return real(s, hand_row, *args, **kwargs)

    monkeypatch.setattr(store, "save_moves", first_another)
    published = push().ticket(table_topic(table_id))
    with pytest.raises(store.TableHandMoved):
        moves.play_move(session, row, "East", choice, outcome.state.number("East"))
    assert push().ticket(table_topic(table_id)) == published  # nothing published for a move not saved


def test_seats_are_taken_and_only_the_host_moves_someone_out(engine, table):
    table_id, host = table
    guest = person(engine, "", guest=True)
    session, row = _fresh(engine, table_id)
    state = moves.sit(session, row, guest, "West")
    assert state.seat_of(guest) == "West" and state.people == {"East", "West"}
    with pytest.raises(store.SeatTaken):
        moves.sit(session, row, person(engine, "Pat"), "West")
    with pytest.raises(moves.NotHost):
        moves.move_out(session, row, guest, "East")
    state = moves.move_out(session, row, host, "West")
    assert state.people == {"East"}
    with pytest.raises(store.TableError):
        moves.move_out(session, row, host, "West")  # nobody there now


def test_a_person_unheard_from_is_away_and_the_coach_plays_their_turns_at_a_friends_table(engine, table):
    table_id, host = table
    friend = person(engine, "Fay")
    session, row = _fresh(engine, table_id)
    moves.sit(session, row, friend, "South")
    outcome = moves.start_hand(session, row, host, seed=SEED)
    assert set(outcome.state.owing()) == {"East", "South"}
    later = clock.now() + moves.GRACE + timedelta(seconds=1)
    state = moves.tick(session, row, friend, now=later)  # the friend is heard from; the host is not
    assert state.away == {"East"}
    assert "East" not in state.owing()  # the coach passed for the host
    state = moves.tick(session, row, host, now=later)  # the host comes back
    assert state.away == frozenset()


def test_a_turn_timer_runs_out_and_the_coach_moves_once_for_the_late(engine, ctx):
    host = person(engine, "Tia")
    with Session(engine) as session:
        made = store.open_table(session, host, _card_name(ctx), settings=TableSettings(turn_timer=30), seat="East")
        table_id = made.id
    session, row = _fresh(engine, table_id)
    outcome = moves.start_hand(session, row, host, seed=SEED)
    assert outcome.state.deadline() is not None
    assert moves.wake_in(outcome.state) <= 30.2
    def east_moves(state) -> int:
        return sum(1 for a in state.hand.actions if a.seat == "East")

    state = moves.tick(session, row, host, now=clock.now() + timedelta(seconds=10))
    assert east_moves(state) == 0  # not yet
    state = moves.tick(session, row, host, now=clock.now() + timedelta(seconds=31))
    assert east_moves(state) == 1  # the coach passed for East, once
    assert state.owing() == {"East": "pass"}  # and East is waited for again


def _timed_pair(engine, ctx, seconds: int = 30, kind: str = "friends"):
    """A table with a turn timer, the host in East and a friend in South, dealt:
    both owe the first Charleston pass (C1), put to them by the deal."""
    host, friend = person(engine, "Tia"), person(engine, "Fay")
    with Session(engine) as session:
        made = store.open_table(
            session, host, _card_name(ctx), kind=kind, settings=TableSettings.for_kind(kind, turn_timer=seconds), seat="East",
        )
        table_id = made.id
    session, row = _fresh(engine, table_id)
    moves.sit(session, row, friend, "South")
    outcome = moves.start_hand(session, row, host, seed=SEED)
    assert outcome.state.owing() == {"East": "pass", "South": "pass"}
    return session, row, host, friend, outcome.state


def _at(monkeypatch, moment):
    monkeypatch.setattr(clock, "now", lambda: moment)


def _moves_of(state, seat: str) -> int:
    return sum(1 for a in state.hand.actions if a.seat == seat)


def test_C1_a_turn_timer_runs_from_the_deal_not_from_a_friends_pass_saved_since(engine, ctx, monkeypatch):
    """South passes 20 s into East's 30: East's time still runs out 30 s after the
    deal that put the pass to them, and the coach passes for East then, once (at a
    table that waits: nobody plays for a person merely away)."""
    session, row, host, friend, state = _timed_pair(engine, ctx, kind="waits")
    dealt = clock.now()
    _at(monkeypatch, dealt + timedelta(seconds=20))
    south = Action.from_json(state.view("South")["choices"][0])
    after = moves.play_move(session, row, "South", south, state.number("South")).state
    assert after.owing() == {"East": "pass"}  # the step waits for East (C1)
    assert after.deadline("East") <= dealt + timedelta(seconds=30.5)  # from the deal, not from South's pass
    _at(monkeypatch, dealt + timedelta(seconds=31))
    state = moves.tick(session, row, friend)  # South's page: East is late
    assert _moves_of(state, "East") == 1  # the coach passed for East, once
    assert state.owing() == {"East": "pass", "South": "pass"}  # the next pass, put to both now
    assert state.deadline("East") == state.deadline("South") == dealt + timedelta(seconds=61)


def test_C1_a_turn_timer_is_not_restarted_by_presence_or_by_the_coach_playing_for_a_friend_away(engine, ctx, monkeypatch):
    """At a friends' table the coach passes for South, away (a save at the table);
    East is heard from meanwhile: neither gives East more time."""
    session, row, host, friend, state = _timed_pair(engine, ctx, seconds=60)
    dealt = clock.now()
    east_ends = state.deadline("East")
    _at(monkeypatch, dealt + moves.GRACE + timedelta(seconds=1))
    state = moves.tick(session, row, host)  # East is heard from; South is not, and goes away
    assert state.away == {"South"} and _moves_of(state, "South") == 1  # the coach passed for South: a save
    assert state.owing() == {"East": "pass"} and state.deadline("East") == east_ends
    _at(monkeypatch, east_ends + timedelta(seconds=1))
    state = moves.tick(session, row, host)
    assert _moves_of(state, "East") == 1  # East's time ran out 60 s after the deal


def _play_to_the_vote(session, row, state, monkeypatch):
    """East and South pass, a second apart, until both owe the stop vote (C2):
    answered together, each answer held until both have given theirs."""
    moment = clock.now()
    while set(state.owing().values()) != {"vote"}:
        moment += timedelta(seconds=1)
        _at(monkeypatch, moment)
        seat = next(iter(state.owing()))
        state = moves.play_move(session, row, seat, Action.from_json(state.view(seat)["choices"][0]), state.number(seat)).state
        assert state.going
    assert set(state.owing()) == {"East", "South"}
    return state, moment


def test_C2_a_person_who_has_voted_leaves_the_others_time_running(engine, ctx, monkeypatch):
    """A held answer (the stop vote, C2) is a save too: East keeps the time the vote
    was put to them, though South voted since."""
    session, row, host, friend, state = _timed_pair(engine, ctx, kind="waits")
    state, moment = _play_to_the_vote(session, row, state, monkeypatch)
    assert state.owed_since() == {"East": moment, "South": moment}  # put to both by the last pass
    _at(monkeypatch, moment + timedelta(seconds=25))
    state = moves.play_move(session, row, "South", Action.from_json(state.view("South")["choices"][0]), state.number("South")).state
    assert [a.seat for a in state.held] == ["South"] and state.owing() == {"East": "vote"}  # held until East votes
    assert state.owed_since() == {"East": moment}  # South's vote gave East no more time
    assert state.expired(moment + timedelta(seconds=31)) == {"East"}


def test_S4_a_person_who_takes_a_seat_mid_decision_gets_the_whole_turn_timer(engine, ctx, monkeypatch):
    """West, a computer player's seat, is taken while the vote is open (the computer
    players vote last): the newcomer's 30 s start when they sit, the others' do not."""
    session, row, host, friend, state = _timed_pair(engine, ctx, kind="waits")
    state, moment = _play_to_the_vote(session, row, state, monkeypatch)
    _at(monkeypatch, moment + timedelta(seconds=25))
    late = person(engine, "Lee")
    state = moves.sit(session, row, late, "West")
    assert state.owing() == {"East": "vote", "South": "vote", "West": "vote"}
    assert state.deadlines() == {
        "East": moment + timedelta(seconds=30), "South": moment + timedelta(seconds=30), "West": moment + timedelta(seconds=55),
    }
    _at(monkeypatch, moment + timedelta(seconds=31))
    state = moves.tick(session, row, late)  # East and South ran out: the coach votes for them, held for West
    assert sorted(a.seat for a in state.held) == ["East", "South"] and state.owing() == {"West": "vote"}
    assert state.deadline("West") == moment + timedelta(seconds=55)


def test_S4_a_turn_timer_running_out_is_saved_by_compare_and_set_and_a_move_first_stands(engine, ctx, monkeypatch):
    session, row, host, friend, state = _timed_pair(engine, ctx)
    dealt = clock.now()
    _at(monkeypatch, dealt + timedelta(seconds=31))
    stale = moves.load_table(session, row)
    assert stale.expired(clock.now()) == {"East", "South"}
    with Session(engine) as other:  # East passes just before the tick saves
        table = other.get(GameTable, row.id)
        east = Action.from_json(stale.view("East")["choices"][0])
        moves.play_move(other, table, "East", east, stale.number("East"))
    with pytest.raises(store.TableHandMoved):
        moves._advance(session, stale, stale.expired(clock.now()))
    session.rollback()
    state = moves.load_table(session, row)
    assert [a for a in state.hand.actions if a.seat == "East"] == [east]  # East's own pass, not the coach's


def test_each_person_gets_a_review_of_their_own_seat_when_the_hand_ends(engine, table):
    table_id, host = table
    session, row = _fresh(engine, table_id)
    moves.start_hand(session, row, host, seed=SEED)
    later = clock.now() + moves.GRACE + timedelta(seconds=1)
    state = moves.tick(session, row, None, now=later)  # the host has gone: the coach plays East to the end
    assert state.hand.phase == "over"
    result = json.loads(state.row.result)
    assert result["people"] == {"East": host}
    with Session(engine) as other:
        found = review_store.review_of(other, state.row.id, "East", TableHandReview)
        assert found is not None and found.status == review_store.DONE
        assert review_store.review_of(other, state.row.id, "South", TableHandReview) is None  # a computer player's seat


def test_seat_names_from_a_url():
    assert seat_named("west") == "West" and seat_named("NORTH") == "North"
    assert seat_named("middle") is None and seat_named("x" * 100) is None


def test_K4_a_ruling_is_read_back_from_the_actions(engine, ctx):
    from coach.play.hand import replay

    card = ctx.extensions["coach"].card
    hand = replay(card, SEED, [])
    assert rulings(hand) == []
    from coach.notation import tiles
    from coach.play.people import CallRuling
    from coach.rules.calls import who_gets

    ruling = CallRuling("South", tiles.TABLE_INDEX["5D"], (("West", "mahjong"), ("North", "expose")), who_gets("South", {"West": "mahjong", "North": "expose"}))
    assert ruling_words(ruling) == "West gets the 5 Dot: Mah Jongg comes before an exposure (K4)"


def test_K4_every_ruling_advance_made_is_read_back_from_the_actions(ctx):
    """Seed 74, East away at a friends' table: South and North both call one discard
    to expose, and K4 gives it to the seat nearest after the thrower."""
    from coach.play.hand import replay
    from coach.play.people import advance

    hand = replay(ctx.extensions["coach"].card, 74, [])
    made = advance(hand, ("East",), ("East",), TableSettings()).rulings
    assert made and [r for _, r in rulings(hand)] == made
    words = ruling_words(made[0])
    assert words.startswith(f"{made[0].winner} gets the ") and words.endswith("(K4)") and "nearest after" in words


def test_C1_a_pass_chosen_while_a_friend_passed_first_is_played_not_stale(engine, table):
    """Two people choose their first Charleston pass at once; the one who sends second
    still carries the number their page showed (C1: passes are chosen together)."""
    table_id, host = table
    friend = person(engine, "Fay")
    session, row = _fresh(engine, table_id)
    moves.sit(session, row, friend, "South")
    outcome = moves.start_hand(session, row, host, seed=SEED)
    east_number = outcome.state.number("East")
    east_choice = Action.from_json(outcome.state.view("East")["choices"][0])
    south_choice = Action.from_json(outcome.state.view("South")["choices"][0])
    moves.play_move(session, row, "South", south_choice, outcome.state.number("South"))
    after = moves.play_move(session, row, "East", east_choice, east_number)
    assert after.state.hand.step != outcome.state.hand.step  # every pass in: the tiles moved

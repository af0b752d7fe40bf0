"""Practice hands stored before the blind pass was made right (C5) still
replay: migration 0014_blind_pass rewrites each old "blind" pass (which sent
on tiles already in the rack) as the plain pass it was, so the hand rebuilds
to exactly the racks, floor and result it had."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from sqlmodel import Session

from coach.notation import tiles
from coach.notation.card import house_card
from coach.play.hand import SEATS, Action, HandError, replay
from coach.store.db import alembic_config, make_engine, migrate
from coach.store.models import PracticeHand
from tests.support.old_hands import migration, old_hand

BEFORE_BLIND_PASS = "0013_hand_reviews"


def rebuilt(actions: list[dict]) -> dict:
    record = old_hand()
    hand = replay(house_card(), record["seed"], [Action.from_json(a) for a in actions])
    return {
        "racks": {s: sorted(tiles.CODES[t] for t in hand.racks[s]) for s in SEATS},
        "discards": [[s, tiles.CODES[t]] for s, t in hand.discards],
        "result": hand.record().get("result"),
        "census": hand.census() == Counter(tiles.WALL),
    }


def test_C5_the_old_record_holds_blind_passes_the_new_rule_reads_otherwise():
    record = old_hand()
    assert sum(1 for a in record["actions"] if a.get("blind")) >= 4
    try:
        again = rebuilt(record["actions"])
    except HandError:
        return  # refused outright: the same actions no longer make a hand
    assert (again["racks"], again["discards"]) != (record["racks"], record["discards"])


def test_C5_an_old_blind_pass_is_rewritten_as_the_plain_pass_it_was():
    record = old_hand()
    rewritten = migration().plain_passes(record["actions"])
    assert rewritten is not None and len(rewritten) == len(record["actions"])
    assert not any(a.get("blind") for a in rewritten)
    for old, new in zip(record["actions"], rewritten, strict=True):
        if old.get("blind"):
            assert len(new["tiles"]) == 3 and new["tiles"][old["blind"]:] == old.get("tiles", [])
        else:
            assert new == old
    again = rebuilt(rewritten)
    assert again["census"]
    assert again["racks"] == record["racks"] and again["discards"] == record["discards"]
    assert again["result"] == record["result"]
    assert migration().plain_passes(rewritten) is None  # a record without old blind passes is left alone


@pytest.fixture
def old_database(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    from alembic import command

    command.upgrade(alembic_config(engine), BEFORE_BLIND_PASS)
    yield engine
    engine.dispose()


def test_C5_a_database_from_before_the_change_migrates_and_its_hand_still_replays(old_database):
    record = old_hand()
    with old_database.begin() as connection:
        connection.exec_driver_sql(
            "INSERT INTO learner (id, name, guest, role, time_zone, daily_goal, created_at) "
            "VALUES (1, '', 1, 'learner', 'UTC', 10, '2026-12-01 10:00:00.000000')"
        )
        result = dict(record["result"], accuracy=0.9, decisions=20, mistakes=1, replay=[])
        for hand_id, actions in ((1, record["actions"]), (2, record["actions"][:30])):
            connection.exec_driver_sql(
                "INSERT INTO practice_hand (id, learner_id, seed, card, seat, bots, actions, hints, result, created_at,"
                " updated_at, finished_at) VALUES (?, 1, ?, ?, 'East', 'club', ?, 0, ?, '2026-12-01 10:00:00.000000',"
                " '2026-12-01 10:30:00.000000', ?)",
                (hand_id, record["seed"], record["card"], json.dumps(actions), json.dumps(result if hand_id == 1 else None),
                 "2026-12-01 10:30:00.000000" if hand_id == 1 else None),
            )
        # Hand 1 was reviewed under 0013 from its old record; hand 3 holds no old blind pass, so no rewrite.
        connection.exec_driver_sql(
            "INSERT INTO practice_hand (id, learner_id, seed, card, seat, bots, actions, hints, result, created_at,"
            " updated_at) VALUES (3, 1, ?, ?, 'East', 'club', ?, 0, 'null', '2026-12-01 10:00:00.000000',"
            " '2026-12-01 10:30:00.000000')",
            (record["seed"], record["card"], json.dumps(record["actions"][:8])),
        )
        for hand_id in (1, 3):
            connection.exec_driver_sql(
                "INSERT INTO hand_review (hand_id, seat, status, attempt, moves, version, done, total, review, error,"
                " started_at, heartbeat_at) VALUES (?, 'East', 'done', 1, ?, 1, 0, 0, '{}', '',"
                " '2026-12-01 10:31:00.000000', '2026-12-01 10:31:00.000000')",
                (hand_id, len(record["actions"]) if hand_id == 1 else 8),
            )
    migrate(old_database)
    with old_database.connect() as connection:
        kept = [row[0] for row in connection.exec_driver_sql("SELECT hand_id FROM hand_review ORDER BY hand_id")]
    assert kept == [3]  # the review graded on the old record goes, to be made again; the other stays
    with Session(old_database) as session:
        finished, going = session.get(PracticeHand, 1), session.get(PracticeHand, 2)
        assert finished is not None and going is not None
        assert finished.finished_at is not None and json.loads(finished.result)["winner"] == record["result"]["winner"]
        again = rebuilt(json.loads(finished.actions))
        assert again["racks"] == record["racks"] and again["result"] == record["result"]
        # A hand still going when the change came (past its first blind pass) goes on from the same tiles.
        assert any(a.get("blind") for a in record["actions"][:30])
        partial = json.loads(going.actions)
        assert not any(a.get("blind") for a in partial) and len(partial) == 30
        assert rebuilt(partial)["census"]

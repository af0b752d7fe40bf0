"""No one can lock an owner out, and a sign-in flood waits behind everyone
else (issue 26, points 2 and 3).

The failure limits back off the address that fails, never the account
(coach.web.infra.limits); password hashing has one slot per process, and an
address that has been failing is the first turned away when it is taken
(coach.web.infra.hashing). Each test builds its own app (its own memory
store of limits) with the CSRF check off: an attacker fetches a token with
one GET, so it changes nothing here. Addresses are set as the app reads
them with no proxy in front: REMOTE_ADDR (docs/deployment.md).
"""

from __future__ import annotations

import shutil
import threading

import pytest

from coach.store.db import FILE_NAME
from coach.web import create_app
from coach.web.infra import hashing
from tests.support.app import TEST_PASSWORD_HASH

PASSWORD = "correct horse battery"
OWNER = "ann@example.org"


@pytest.fixture
def fresh_app(tmp_path, monkeypatch, migrated_database):
    """An app of its own (fresh limits), the owner's account made from an address of its own."""
    made = 0

    def make(**config):
        nonlocal made
        made += 1
        instance = tmp_path / f"instance-{made}"
        instance.mkdir()
        shutil.copyfile(migrated_database, instance / FILE_NAME)
        monkeypatch.setenv("COACH_DATA_DIR", str(instance))
        for name in ("COACH_SECRET_KEY", "COACH_CARD", "COACH_PROXY_COUNT", "COACH_RATELIMIT_STORAGE_URI"):
            monkeypatch.delenv(name, raising=False)
        app = create_app({
            "TESTING": True, "SECRET_KEY": "lockout-test", "WTF_CSRF_ENABLED": False,
            "TEST_PASSWORD_HASH": TEST_PASSWORD_HASH, **config,
        })
        made_account = app.test_client().post(
            "/signup", data={"email": OWNER, "password": PASSWORD}, environ_base={"REMOTE_ADDR": "10.99.0.1"}
        )
        assert made_account.status_code == 303
        return app

    return make


def sign_in(app, address: str, password: str = "wrong password", email: str = OWNER):
    """A sign-in from a browser of its own (a signed-in one would be sent on without a check)."""
    return app.test_client().post(
        "/signin", data={"email": email, "password": password}, environ_base={"REMOTE_ADDR": address}
    )


def refused_with_a_wait(response, words: str) -> None:
    assert response.status_code == 429
    assert 1 <= int(response.headers["Retry-After"]) <= 3600
    page = response.get_data(as_text=True)
    assert words in page and "Try again in" in page


# -- point 2: limits per email and address, never per account ------------------------------


def test_wrong_passwords_from_one_address_never_lock_the_owner_out(fresh_app):
    """The lockout repro: 12 wrong passwords for Ann from A; Ann from B still signs in."""
    app = fresh_app()
    statuses = [sign_in(app, "10.0.0.1").status_code for _ in range(5)]
    assert statuses == [422] * 5
    for _ in range(7):
        refused_with_a_wait(sign_in(app, "10.0.0.1"), "Too many sign-in attempts for this email from your network")

    owner = sign_in(app, "10.0.0.2", PASSWORD)
    assert owner.status_code == 303 and owner.headers["Location"].endswith("/account")
    # The failing address stays backed off, even with the right password: it is the one held.
    refused_with_a_wait(sign_in(app, "10.0.0.1", PASSWORD), "Too many sign-in attempts")


def test_an_address_guessing_across_many_emails_has_a_limit_of_its_own(fresh_app):
    app = fresh_app(COACH_LIMIT_SIGNIN_ADDRESS="4/minute")
    statuses = [sign_in(app, "10.0.0.7", email=f"user{n}@example.org").status_code for n in range(4)]
    assert statuses == [422] * 4
    refused_with_a_wait(sign_in(app, "10.0.0.7", email="user9@example.org"), "Too many sign-in attempts from your network")
    # Another address is not held by that count, nor is the owner.
    assert sign_in(app, "10.0.0.8", email="user9@example.org").status_code == 422
    assert sign_in(app, "10.0.0.8", PASSWORD).status_code == 303


def test_many_addresses_guessing_one_email_meet_a_ceiling_that_spares_clean_addresses(fresh_app):
    app = fresh_app(COACH_LIMIT_SIGNIN_EMAIL="3/minute")
    assert [sign_in(app, f"10.1.0.{n}").status_code for n in range(1, 4)] == [422] * 3  # the ceiling reached
    # An address that has failed for Ann is held by the ceiling (its own count would allow 4 more) ...
    refused_with_a_wait(sign_in(app, "10.1.0.1"), "Too many sign-in attempts for this email")
    # ... a new address gets one try, then is held too ...
    assert sign_in(app, "10.1.0.9").status_code == 422
    refused_with_a_wait(sign_in(app, "10.1.0.9"), "Too many sign-in attempts for this email")
    # ... and the owner, from an address that has not failed, signs in.
    assert sign_in(app, "10.1.0.50", PASSWORD).status_code == 303


# -- point 3: hashing never takes the drills' capacity; the flood waits behind -------------


@pytest.fixture
def one_slot(monkeypatch):
    """The hashing gate with one slot and room for one clean sign-in to wait (up to a minute:
    the tests release it themselves, long before)."""
    gate = hashing.Gate(slots=1, queue=1, wait=60.0)
    monkeypatch.setattr(hashing, "gate", gate)
    return gate


def test_a_signed_in_learner_drills_while_the_hashing_slot_is_held(fresh_app, one_slot):
    app = fresh_app()
    learner = app.test_client()
    signed_in = learner.post("/signin", data={"email": OWNER, "password": PASSWORD}, environ_base={"REMOTE_ADDR": "10.2.0.1"})
    assert signed_in.status_code == 303
    with one_slot.turn():  # a hash under way, and nothing else may hash
        assert learner.get("/drills/name-the-tile").status_code == 200
        asked = learner.post("/api/drills/name-the-tile/questions", json={})
        assert asked.status_code == 201
        answered = learner.post("/api/drills/name-the-tile/answers", json={"token": asked.get_json()["token"], "answer": "5D"})
        assert answered.status_code == 200
        assert one_slot.busy == 1 and one_slot.waiting == 0  # no drill request asked for a hash


def test_a_flooding_address_is_turned_away_before_a_clean_one(fresh_app, one_slot):
    app = fresh_app()
    assert sign_in(app, "10.3.0.66").status_code == 422  # the flooding address has failed

    clean: dict[str, int] = {}
    done = threading.Event()

    def owner_signs_in() -> None:
        clean["status"] = sign_in(app, "10.3.0.1", PASSWORD).status_code
        done.set()

    with one_slot.turn():  # someone's hash under way
        owner = threading.Thread(target=owner_signs_in)
        owner.start()
        with one_slot._changed:  # until the owner waits for the slot (no clock: the gate says so)
            assert one_slot._changed.wait_for(lambda: one_slot.waiting == 1, timeout=60)
        flooder = sign_in(app, "10.3.0.66", PASSWORD)  # even with the right password: it waits behind
        assert flooder.status_code == 503
        assert flooder.headers["Retry-After"] == str(hashing.BUSY_RETRY)
        assert "Try again in a few seconds" in flooder.get_data(as_text=True)
        assert not done.is_set()  # the owner is still waiting, ahead of it
    owner.join(60)
    assert clean == {"status": 303}  # the slot freed, the clean address's right password is accepted


def test_a_released_slot_goes_to_a_waiting_clean_sign_in_not_to_a_suspect(one_slot):
    taken: list[str] = []
    got, release = threading.Event(), threading.Event()

    def clean_waits() -> None:
        with one_slot.turn():
            taken.append("clean")
            got.set()
            release.wait(60)

    with one_slot.turn():
        waiter = threading.Thread(target=clean_waits)
        waiter.start()
        with one_slot._changed:
            assert one_slot._changed.wait_for(lambda: one_slot.waiting == 1, timeout=60)
        with pytest.raises(hashing.HashingBusy):  # a suspect, while a clean one waits: never ahead of it
            with one_slot.turn(suspect=True):
                taken.append("suspect")
    assert got.wait(60)
    with pytest.raises(hashing.HashingBusy):  # the slot went to the clean one, who holds it
        with one_slot.turn(suspect=True):
            taken.append("suspect")
    release.set()
    waiter.join(60)
    assert taken == ["clean"] and one_slot.busy == 0

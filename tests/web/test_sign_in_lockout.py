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

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from coach.web.infra import hashing, limits
from tests.support.app import TEST_PASSWORD_HASH, app_factory

PASSWORD = "correct horse battery"
OWNER = "ann@example.org"


@pytest.fixture
def fresh_app(tmp_path, monkeypatch, migrated_database):
    """An app of its own (fresh limits), the owner's account made from an address of its own."""
    new_app = app_factory(tmp_path, monkeypatch, migrated_database, "lockout-test")

    def make(**config):
        app = new_app(TEST_PASSWORD_HASH=TEST_PASSWORD_HASH, **config)
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


@dataclass
class Lanes:
    clean: hashing.Gate
    suspect: hashing.Gate

    @contextlib.contextmanager
    def both_taken(self) -> Iterator[None]:
        with self.clean.turn(), self.suspect.turn():
            yield


@pytest.fixture
def lanes(monkeypatch) -> Lanes:
    """Both hashing lanes, one slot each; room for one clean sign-in to wait (up to a
    minute: the tests release it themselves, long before), none for a suspect."""
    made = Lanes(hashing.Gate(slots=1, queue=1, wait=60.0), hashing.Gate(slots=1, queue=0, wait=0.0))
    monkeypatch.setattr(hashing, "clean_gate", made.clean)
    monkeypatch.setattr(hashing, "suspect_gate", made.suspect)
    return made


def test_a_signed_in_learner_drills_while_every_hashing_slot_is_held(fresh_app, lanes):
    app = fresh_app()
    learner = app.test_client()
    signed_in = learner.post("/signin", data={"email": OWNER, "password": PASSWORD}, environ_base={"REMOTE_ADDR": "10.2.0.1"})
    assert signed_in.status_code == 303
    with lanes.both_taken():  # hashes under way, and nothing else may hash
        assert learner.get("/drills/name-the-tile").status_code == 200
        asked = learner.post("/api/drills/name-the-tile/questions", json={})
        assert asked.status_code == 201
        answered = learner.post("/api/drills/name-the-tile/answers", json={"token": asked.get_json()["token"], "answer": "5D"})
        assert answered.status_code == 200
        assert lanes.clean.waiting == 0  # no drill request asked for a hash


def test_a_flooding_address_is_turned_away_before_a_clean_one(fresh_app, lanes):
    app = fresh_app()
    assert sign_in(app, "10.3.0.66").status_code == 422  # the flooding address has failed

    clean: dict[str, int] = {}
    done = threading.Event()

    def owner_signs_in() -> None:
        clean["status"] = sign_in(app, "10.3.0.1", PASSWORD).status_code
        done.set()

    with lanes.both_taken():  # hashes under way in both lanes
        owner = threading.Thread(target=owner_signs_in)
        owner.start()
        with lanes.clean._changed:  # until the owner waits for the slot (no clock: the gate says so)
            assert lanes.clean._changed.wait_for(lambda: lanes.clean.waiting == 1, timeout=60)
        flooder = sign_in(app, "10.3.0.66", PASSWORD)  # even with the right password: it never waits
        assert flooder.status_code == 503
        assert flooder.headers["Retry-After"] == str(limits.BUSY_RETRY)
        assert "Try again in a few seconds" in flooder.get_data(as_text=True)
        assert not done.is_set()  # the owner is still waiting, ahead of it
    owner.join(60)
    assert clean == {"status": 303}  # the slot freed, the clean address's right password is accepted


def test_a_flood_hashing_never_holds_the_slot_a_clean_address_needs(fresh_app, lanes):
    app = fresh_app()
    assert sign_in(app, "10.4.0.66").status_code == 422
    with lanes.suspect.turn():  # a flooding address's hash under way
        assert sign_in(app, "10.4.0.66").status_code == 503
        assert sign_in(app, "10.4.0.1", PASSWORD).status_code == 303


def test_a_failing_address_turned_away_counts_toward_its_limit_and_a_clean_one_does_not(fresh_app, lanes):
    app = fresh_app(COACH_LIMIT_SIGNIN_ADDRESS="3/minute")
    assert sign_in(app, "10.5.0.66").status_code == 422
    with lanes.both_taken():
        assert [sign_in(app, "10.5.0.66").status_code for _ in range(2)] == [503, 503]
        refused_with_a_wait(sign_in(app, "10.5.0.66"), "Too many sign-in attempts from your network")
        lanes.clean.queue = 0  # no room to wait: a clean address is told "busy" at once
        assert sign_in(app, "10.5.0.1", PASSWORD).status_code == 503
    assert sign_in(app, "10.5.0.1", PASSWORD).status_code == 303  # its busy answer counted no failure


def test_an_address_coming_back_sooner_than_told_is_handled_as_failing(fresh_app, lanes):
    """A busy answer says "try again in a few seconds" (Retry-After); a person does, a flood
    does not: back before then, an address is a suspect, and its busy answers count."""
    app = fresh_app(COACH_LIMIT_SIGNIN_ADDRESS="3/minute")
    lanes.clean.queue = 0
    with lanes.both_taken():
        assert [sign_in(app, "10.6.0.1", PASSWORD).status_code for _ in range(4)] == [503] * 4
        refused_with_a_wait(sign_in(app, "10.6.0.1", PASSWORD), "Too many sign-in attempts from your network")
        assert sign_in(app, "10.6.0.2", PASSWORD).status_code == 503  # another address: told to wait, no more



def test_an_owner_told_busy_who_tries_again_soon_is_not_held_by_the_emails_ceiling(fresh_app, lanes):
    """A flood over the email's ceiling, and hashing busy: the owner, from a clean address,
    is told "try again in a few seconds" and does, two seconds later. That try came back
    sooner than told and was turned away busy (fair), but it was counted as a failed
    password for the owner's email from that address, so the ceiling held the owner's
    address too: 429 for the rest of the window, with the right password, never wrong."""
    app = fresh_app(COACH_LIMIT_SIGNIN_EMAIL="3/minute")
    assert [sign_in(app, f"10.7.0.{n}").status_code for n in range(1, 5)] == [422] * 4  # the ceiling passed
    lanes.clean.queue = 0  # no room to wait: a clean address is told "busy" at once
    with lanes.both_taken():
        assert sign_in(app, "10.7.0.50", PASSWORD).status_code == 503  # told to wait
        assert sign_in(app, "10.7.0.50", PASSWORD).status_code == 503  # back too soon: a suspect, still busy
    owner = sign_in(app, "10.7.0.50", PASSWORD)  # hashing free again
    assert owner.status_code == 303, owner.get_data(as_text=True)[:300]

# -- IPv6: an address is its /64 --------------------------------------------------------------


@pytest.mark.parametrize(
    ("remote", "key"),
    [
        ("2001:db8:1:2::7", "address:2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "address:2001:db8:1:2::/64"),
        ("2001:DB8:1:2:0:0:0:1", "address:2001:db8:1:2::/64"),
        ("fe80::1%eth0", "address:fe80::/64"),
        ("::ffff:192.0.2.7", "address:192.0.2.7"),
        ("192.0.2.7", "address:192.0.2.7"),
        ("not:an:address", "address:not:an:address"),
        ("", "address:unknown"),
        (None, "address:unknown"),
    ],
)
def test_an_ipv6_client_is_keyed_by_its_64_and_a_mapped_ipv4_by_itself(remote, key):
    assert limits.address_key(remote) == key


def test_a_flood_from_one_ipv6_64_counts_as_one_address_however_many_addresses_it_uses(fresh_app):
    """A home or server holds a whole /64: new addresses from it never earn new tries."""
    app = fresh_app(COACH_LIMIT_SIGNIN_ADDRESS="4/minute")
    statuses = [
        sign_in(app, f"2001:db8:5:6::{n + 1:x}", email=f"user{n}@example.org").status_code for n in range(4)
    ]
    assert statuses == [422] * 4
    refused_with_a_wait(
        sign_in(app, "2001:db8:5:6:abcd::99", email="user9@example.org"), "Too many sign-in attempts from your network"
    )
    # Another /64 is another network, with tries of its own.
    assert sign_in(app, "2001:db8:5:7::1", email="user9@example.org").status_code == 422

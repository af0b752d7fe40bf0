"""What the tests' apps are made with: a secret key and a cheap password hash
(neither ever a production app's)."""

from __future__ import annotations

TEST_SECRET = "test-secret-key-not-for-production"

# One round of PBKDF2 instead of scrypt (0.2 s a hash) for the accounts the
# tests' apps make: the app honours it only when TESTING (coach/web/infra/limits.py).
TEST_PASSWORD_HASH = "pbkdf2:sha256:1"


def app_factory(tmp_path, monkeypatch, migrated_database, secret: str):
    """`make(**config)`: a new app in an instance folder of its own (fresh limits,
    a copy of the migrated database), with none of the COACH_* settings the
    environment may carry; each call makes another."""
    import shutil

    from coach.store.db import FILE_NAME
    from coach.web import create_app

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
        return create_app({"TESTING": True, "SECRET_KEY": secret, "WTF_CSRF_ENABLED": False, **config})

    return make

"""What the tests' apps are made with: a secret key and a cheap password hash
(neither ever a production app's)."""

from __future__ import annotations

TEST_SECRET = "test-secret-key-not-for-production"

# One round of PBKDF2 instead of scrypt (0.2 s a hash) for the accounts the
# tests' apps make: the app honours it only when TESTING (coach/web/infra/limits.py).
TEST_PASSWORD_HASH = "pbkdf2:sha256:1"

"""What the tests' apps are made with: a secret key (never a production
app's)."""

from __future__ import annotations

TEST_SECRET = "test-secret-key-not-for-production"


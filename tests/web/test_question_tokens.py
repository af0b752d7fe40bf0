"""Question tokens (coach/web/shared/drilling/tokens.py): itsdangerous's own text and decisions, faster (issue 26).

The server never trusts the client for what was asked: a token stands for
the question, so the faster signer must write exactly what
URLSafeSerializer writes (tokens issued before stay good) and refuse
exactly what it refuses.
"""

from __future__ import annotations

import random

import pytest
from itsdangerous import BadData, URLSafeSerializer

from coach.web.shared.drilling import TOKEN_SALT
from coach.web.shared.drilling.tokens import QuestionTokens

KEY = "a-secret-key-for-tests-only"


def payloads(count: int, seed: int = 26):
    rng = random.Random(seed)
    for _ in range(count):
        payload = {
            "drill": rng.choice(["name-the-tile", "first-pass", "x" * rng.randint(0, 80)]),
            "seed": rng.randrange(2**31),
            "level": rng.randint(1, 4),
            "card": rng.choice(["house-2026", "Mrs Lee's card \u00e9", "ab" * rng.randint(1, 60)]),
        }
        if rng.random() < 0.3:
            payload["rules"] = "b4" * rng.randint(1, 30)  # long and repetitive: zlib makes it shorter
        yield payload


def accepted(signer, token):
    try:
        return True, signer.loads(token)
    except BadData as error:
        return False, type(error)


def test_a_token_is_the_serializers_own_text_and_reads_back():
    reference = URLSafeSerializer(KEY, salt=TOKEN_SALT)
    tokens = QuestionTokens(KEY, TOKEN_SALT)
    compressed = 0
    for payload in payloads(2000):
        token = tokens.dumps(payload)
        assert token == reference.dumps(payload)
        assert tokens.loads(token) == payload
        compressed += token.startswith(".")
    assert compressed > 0  # the zlib branch of the serializer's payload was met too


@pytest.mark.parametrize("change", [
    lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),  # the signature altered
    lambda t: t.replace(".", "", 1) if not t.startswith(".") else t[1:],  # the payload altered
    lambda t: t + "=",  # padding itsdangerous's base64 reading tolerates
    lambda t: t.rpartition(".")[0],  # no signature
    lambda t: "",
    lambda t: "." + t,
])
def test_an_altered_token_is_accepted_or_refused_as_the_serializer_decides(change):
    reference = URLSafeSerializer(KEY, salt=TOKEN_SALT)
    tokens = QuestionTokens(KEY, TOKEN_SALT)
    for payload in payloads(200, seed=7):
        altered = change(reference.dumps(payload))
        assert accepted(tokens, altered) == accepted(reference, altered)


def test_a_token_signed_with_another_key_is_refused():
    other = URLSafeSerializer("another key", salt=TOKEN_SALT).dumps({"drill": "name-the-tile", "seed": 5, "level": 1, "card": "x"})
    ok, _ = accepted(QuestionTokens(KEY, TOKEN_SALT), other)
    assert not ok

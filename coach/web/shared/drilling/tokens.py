"""Question tokens signed and checked as itsdangerous's URLSafeSerializer does, with its HMAC keyed once (issue 26).

Every question is signed and every answer's token checked: itsdangerous
builds a new Signer for each, derives its key again (SHA-1 of salt and
secret) and keys a new HMAC, about three quarters of a token's cost. Here
the key is derived once and the HMAC keyed once; each token copies that
HMAC, so the bytes signed and the signature are the serializer's own: a
token is the same text as `URLSafeSerializer(secret, salt).dumps` makes,
and tokens issued before this module stay good.

Checking: a token whose signature is exactly the one this key gives its
payload (the text the serializer writes) is read by the serializer's own
payload loader; any other token (a bad signature, or one written another
way that itsdangerous still accepts) goes through the serializer's whole
check, so every token is accepted or refused as before, with the same errors.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from itsdangerous import URLSafeSerializer
from itsdangerous.encoding import base64_encode, want_bytes
from itsdangerous.signer import HMACAlgorithm

SEPARATOR = b"."  # itsdangerous's default between a payload and its signature


class QuestionTokens:
    """`dumps` and `loads` of `URLSafeSerializer(secret_key, salt=salt)`, faster; `serializer` is that serializer."""

    def __init__(self, secret_key: str | bytes, salt: str):
        self.serializer = URLSafeSerializer(secret_key, salt=salt)
        signer = self.serializer.make_signer()
        algorithm = signer.algorithm
        # Only the serializer's defaults are done here (HMAC-SHA1 on the key it derives, "." between);
        # any other set-up leaves every token to the serializer itself.
        self._mac: Any = None
        if type(algorithm) is HMACAlgorithm and signer.sep == SEPARATOR and signer.digest_method is signer.default_digest_method:
            self._mac = hmac.new(signer.derive_key(), digestmod=hashlib.sha1)

    def _signature(self, value: bytes) -> bytes:
        mac = self._mac.copy()
        mac.update(value)
        return base64_encode(mac.digest())

    def dumps(self, obj: Any) -> str:
        """The token for `obj`: the serializer's text."""
        if self._mac is None:
            return str(self.serializer.dumps(obj))
        value = want_bytes(self.serializer.dump_payload(obj))
        return (value + SEPARATOR + self._signature(value)).decode("utf-8")

    def loads(self, token: str | bytes) -> Any:
        """What the token holds; itsdangerous's BadData (BadSignature, BadPayload) when the serializer refuses it."""
        if self._mac is not None:
            value, separator, signature = want_bytes(token).rpartition(SEPARATOR)
            if separator and hmac.compare_digest(signature, self._signature(value)):
                return self.serializer.load_payload(value)
        return self.serializer.loads(token)

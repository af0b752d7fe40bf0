"""A tiny SMTP server on loopback for tests: it keeps every mail it is sent.

Enough of RFC 5321 for smtplib: EHLO (offering AUTH PLAIN, no STARTTLS),
AUTH PLAIN, MAIL, RCPT, DATA, RSET, NOOP, QUIT. Nothing leaves the machine.
"""

from __future__ import annotations

import base64
import email
import socketserver
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import Message


@dataclass
class Mailbox:
    messages: list[Message] = field(default_factory=list)
    logins: list[tuple[str, str]] = field(default_factory=list)
    port: int = 0


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def _say(self, line: str) -> None:
        self.wfile.write(line.encode("ascii") + b"\r\n")

    def handle(self) -> None:
        self._say("220 fake-smtp ready")
        while True:
            raw = self.rfile.readline(1000)
            if not raw:
                return
            command = raw.decode("ascii", "replace").strip()
            verb = command.split(" ", 1)[0].upper()
            if verb in ("EHLO", "HELO"):
                self._say("250-fake-smtp")
                self._say("250 AUTH PLAIN")
            elif verb == "AUTH":
                parts = command.split(" ")
                _, user, password = base64.b64decode(parts[2]).decode("utf-8").split("\0")
                self.server.mailbox.logins.append((user, password))
                self._say("235 accepted")
            elif verb == "DATA":
                self._say("354 go on")
                lines = []
                while (line := self.rfile.readline()) not in (b".\r\n", b""):
                    lines.append(line[1:] if line.startswith(b"..") else line)
                self.server.mailbox.messages.append(email.message_from_bytes(b"".join(lines)))
                self._say("250 kept")
            elif verb == "QUIT":
                self._say("221 bye")
                return
            else:  # MAIL, RCPT, RSET, NOOP
                self._say("250 ok")


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    mailbox: Mailbox


@contextmanager
def smtp_server() -> Iterator[Mailbox]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.mailbox = Mailbox(port=server.server_address[1])
    thread = threading.Thread(target=server.serve_forever, name="fake-smtp", daemon=True)
    thread.start()
    try:
        yield server.mailbox
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)

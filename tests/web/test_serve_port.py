"""`make run` / `serve` when the port is taken, and the address printed only once the server answers (issue 15, part 7)."""

import http.server
import io
import socket
import subprocess
import sys
import threading
import time

import pytest

from coach.web.serve import PortTaken, announce_when_answering, check_port


@pytest.fixture
def taken_port():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_taken_port_is_said_in_words_with_how_to_choose_another(taken_port):
    with pytest.raises(PortTaken) as taken:
        check_port("127.0.0.1", taken_port)
    said = str(taken.value)
    assert f"Port {taken_port} on 127.0.0.1 is already in use" in said
    assert f"PORT={taken_port + 1} make run" in said and f"--port {taken_port + 1}" in said


def test_a_free_port_passes_the_check():
    check_port("127.0.0.1", free_port())


def test_serve_on_a_taken_port_exits_at_once_with_the_message_and_no_traceback(taken_port):
    done = subprocess.run(
        [sys.executable, "-m", "coach", "serve", "--port", str(taken_port)],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "is already in use" in done.stderr and "make run" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert "Connection in use" not in done.stderr  # gunicorn's retries never start
    assert "Mahjong Coach on" not in done.stdout


class Healthy(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/healthz" else 404)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_the_address_is_printed_only_once_the_server_answers():
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    said = io.StringIO()

    def say(text, flush=False):
        said.write(text + "\n")

    thread = announce_when_answering(url, timeout=30, say=say)
    time.sleep(0.6)
    assert said.getvalue() == ""  # nothing listens yet: nothing printed
    server = http.server.HTTPServer(("127.0.0.1", port), Healthy)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    try:
        thread.join(timeout=20)
        assert said.getvalue() == f"Mahjong Coach on {url} (Ctrl+C stops it)\n"
    finally:
        server.shutdown()
        server.server_close()


def test_a_server_that_never_answers_is_reported_not_announced():
    said = io.StringIO()
    thread = announce_when_answering(f"http://127.0.0.1:{free_port()}/", timeout=0.5, say=lambda text, flush=False: said.write(text))
    thread.join(timeout=10)
    assert "did not answer" in said.getvalue() and "Mahjong Coach on" not in said.getvalue()

"""Every process of a server counts a limit together (issue 26, point 4).

Without Redis, the limits are kept in the instance folder's SQLite file
(coach.web.infra.limit_store), which every gunicorn worker writes: 20
join-code misses a minute is 20 for the server, not 20 for each of its
workers. Which worker the kernel hands a connection to is not ours to
choose, so the test makes the processes' turns certain: two `python -m
coach serve` processes of one worker each, on one instance folder (as two
workers share it), and the guesses alternate between them.
"""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from tests.support.servers import coach_server

pytestmark = pytest.mark.server  # gunicorn servers of its own


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_two_processes_on_one_folder_share_one_count_of_join_code_misses(tmp_path):
    env = {"COACH_WORKERS": "1", "COACH_THREADS": "2", "COACH_SECRET_KEY": "processes-share-limits"}
    folder = tmp_path / "site"
    with coach_server(env, folder) as (a, log_a), coach_server(env, folder) as (b, log_b):
        answers = [_status(f"{(a, b)[n % 2]}/join/ZZZZ{n:02d}") for n in range(30)]
    assert answers == [404] * 20 + [429] * 10  # 20 a minute in all, not 20 on each
    for log in (log_a, log_b):
        text = log.read_text(errors="replace")
        assert "Traceback" not in text, text[-3000:]

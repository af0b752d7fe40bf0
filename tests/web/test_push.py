"""The in-process part of the live push (coach/web/infra/push.py, issue 28)."""

from __future__ import annotations

import threading
import time

from coach.web.infra.push import Push


def test_a_publish_wakes_a_stream_waiting_on_its_topic():
    push = Push()
    ticket = push.ticket("table:1")
    woke: list[bool] = []
    waiter = threading.Thread(target=lambda: woke.append(push.wait("table:1", ticket, 5)))
    waiter.start()
    time.sleep(0.05)
    started = time.monotonic()
    push.publish("table:1")
    waiter.join(5)
    assert woke == [True]
    assert time.monotonic() - started < 1


def test_a_publish_between_reading_and_waiting_is_not_missed():
    push = Push()
    ticket = push.ticket("table:1")  # taken before the table is read
    push.publish("table:1")  # the table moves while this stream reads it
    assert push.wait("table:1", ticket, 0.01) is True


def test_another_topic_does_not_wake_a_stream():
    push = Push()
    ticket = push.ticket("table:1")
    push.publish("table:2")
    assert push.wait("table:1", ticket, 0.05) is False
    assert push.hub.waited_on() == []  # the condition is forgotten once nobody waits


def test_stream_slots_are_bounded_and_given_back():
    push = Push(slots=2)
    with push.stream_slot() as first, push.stream_slot() as second, push.stream_slot() as third:
        assert (first, second, third) == (True, True, False)
    with push.stream_slot() as again:
        assert again is True


def test_a_stream_sends_moved_at_once_and_again_after_a_publish():
    from flask import Flask

    from coach.web.infra import push as push_module

    app = Flask(__name__)
    push_module.install(app)
    versions = iter([3, 4])
    with app.test_request_context():
        hub = push_module.push()
        response = push_module.stream("table:9", lambda: next(versions), hold=5, recheck=5)
        body = iter(response.response)
        assert next(body).startswith("retry:")
        assert next(body) == "event: moved\ndata: 3\n\n"
        threading.Timer(0.05, lambda: hub.publish("table:9")).start()
        assert next(body) == "event: moved\ndata: 4\n\n"
        response.close()


def test_a_stream_refused_a_slot_answers_204_so_the_page_polls():
    from flask import Flask

    from coach.web.infra import push as push_module

    app = Flask(__name__)
    app.extensions["push"] = push_module.Push(slots=0)
    with app.test_request_context():
        assert push_module.stream("table:9", lambda: 1).status_code == 204


def test_a_stopping_server_ends_its_streams_at_once():
    from flask import Flask

    from coach.web.infra import push as push_module

    app = Flask(__name__)
    push_module.install(app)
    with app.test_request_context():
        hub = push_module.push()
        response = push_module.stream("table:9", lambda: 3, hold=60, recheck=60)
        body = iter(response.response)
        assert next(body).startswith("retry:") and next(body).startswith("event: moved")
        threading.Timer(0.05, hub.stop_streams).start()
        started = time.monotonic()
        assert list(body) == []  # the stream ends instead of waiting its 60 s
        assert time.monotonic() - started < 5
        response.close()


def test_each_worker_has_a_thread_per_stream_slot_on_top_of_the_drills_threads():
    from coach.web.serve import threads_per_worker

    assert threads_per_worker(8, 64) == 72

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

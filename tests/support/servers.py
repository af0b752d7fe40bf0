"""Stopping a waitress server cleanly from its own loop (the live server and the
throttled servers of the limits tests)."""

from __future__ import annotations


def stop_waitress(server, thread, seconds: float = 10.0) -> None:
    """Stop a waitress server running `server.run` in `thread`, from its own
    loop: once its task threads are idle (a client has its answer a little
    before waitress's thread is done), every channel, the listening socket and
    the trigger are closed by a thunk the loop runs itself. Closing them from
    another thread could pull a file out from under the loop's select()
    ("Bad file descriptor" in the server's thread, a flaky test)."""
    import time

    dispatcher = server.task_dispatcher
    deadline = time.monotonic() + seconds
    while (dispatcher.active_count or dispatcher.queue) and time.monotonic() < deadline:
        time.sleep(0.02)

    def close_all() -> None:
        for channel in list(server._map.values()):
            if channel is not server and channel is not server.trigger:
                channel.close()
        server.close()  # the listening socket and the trigger: the map is empty, the loop ends

    server.trigger.pull_trigger(close_all)
    thread.join(timeout=seconds)
    dispatcher.shutdown()

"""The server runs numpy's BLAS on one thread (issue 13): its own threads share the cores."""

from __future__ import annotations

import numpy  # noqa: F401  (loads the BLAS that threadpoolctl finds)
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from coach.web.infra import blas


def _blas_threads() -> list[int]:
    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_create_app_leaves_one_blas_thread(request: pytest.FixtureRequest) -> None:
    with threadpool_limits(limits=2, user_api="blas"):
        if set(_blas_threads()) != {2}:
            pytest.fail("numpy's BLAS is not visible to threadpoolctl")
        request.getfixturevalue("app")  # create_app, with BLAS on two threads before it
        assert set(_blas_threads()) == {1}


def test_one_blas_thread_lasts_beyond_the_call() -> None:
    with threadpool_limits(limits=2, user_api="blas"):
        blas.one_blas_thread()
        assert set(_blas_threads()) == {1}


def test_gunicorn_accepts_the_post_fork_hook() -> None:
    from gunicorn.config import Config

    from coach.web.serve import _post_fork

    config = Config()
    config.set("post_fork", _post_fork)  # gunicorn checks the hook takes (server, worker)
    config.post_fork(None, None)
    assert set(_blas_threads()) == {1}

"""One BLAS thread in the server (issue 13; coach.common.blas).

The few matrix products a request does (coach.reading.tiles_away, the first-pass
screen) are small; OpenBLAS's own threads only spin against gunicorn's
threads and workers for the same two cores, burning 1.4-2x the CPU under
a class's load. threadpoolctl sets the limit in the process that builds
the app and again in each worker after the fork.
"""

from __future__ import annotations

from flask import Flask

from coach.common.blas import one_blas_thread


def install(app: Flask) -> None:
    one_blas_thread()

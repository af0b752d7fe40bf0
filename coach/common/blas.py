"""One BLAS thread per process (issue 13).

The matrix products the coach does (coach.reading.tiles_away, the pass
screen) are small; OpenBLAS's own threads only spin against the other
work for the same cores. On a loaded 2-core machine they made self-play
20 times slower in CPU (40 s for 5 hands against 2 s). The server, the
command line and the tools each set the limit once, for good.
"""

from __future__ import annotations


def one_blas_thread() -> None:
    """Limit BLAS to one thread for good (not only inside a `with`)."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")

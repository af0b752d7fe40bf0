"""Serve the web app with gunicorn, a production WSGI server.

The app is built once, before the workers fork, so every worker signs
and checks question tokens with the same secret key (made on first run).
One worker per core, each with threads, lets both cores answer: a single
Python process would leave one idle.
"""

from __future__ import annotations

import os
from typing import Any

from gunicorn.app.base import BaseApplication

from coach.web import create_app
from coach.web.blas import one_blas_thread


class _Standalone(BaseApplication):  # gunicorn's documented custom-application pattern
    def __init__(self, application: Any, options: dict[str, Any]):
        self.options = options
        self.application = application
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key, value)

    def load(self) -> Any:
        return self.application


def _post_fork(server: Any, worker: Any) -> None:
    one_blas_thread()  # each worker keeps one BLAS thread after the fork


def serve(host: str = "127.0.0.1", port: int = 5000, workers: int | None = None, threads: int = 8) -> None:
    """Serve the coach on http://host:port until interrupted."""
    app = create_app()
    print(f"Mahjong Coach on http://{host}:{port}/ (Ctrl+C stops it)", flush=True)
    options = {
        "bind": f"{host}:{port}",
        "workers": workers or max(1, min(4, os.cpu_count() or 1)),
        "worker_class": "gthread",
        "threads": threads,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "proc_name": "mahjong-coach",
        "post_fork": _post_fork,
    }
    _Standalone(app, options).run()

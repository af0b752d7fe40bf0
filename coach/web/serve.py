"""Serve the web app with waitress, a production WSGI server."""

from __future__ import annotations

from waitress import serve as waitress_serve

from coach.web import create_app


def serve(host: str = "127.0.0.1", port: int = 5000, threads: int = 8) -> None:
    """Serve the coach on http://host:port until interrupted."""
    app = create_app()
    print(f"Mahjong Coach on http://{host}:{port}/ (Ctrl+C stops it)", flush=True)
    waitress_serve(app, host=host, port=port, threads=threads, ident="mahjong-coach")

"""The installable package (issue 17): the wheel serves the whole app from anywhere.

The slow test builds the sdist and the wheel as `make dist` does, installs
the wheel with its dependencies into a fresh virtual environment (pip may
reach PyPI; its cache keeps this quick), and runs the installed
`mahjong-coach` from a temporary folder, far from the checkout. Deselect
it with `-m "not slow"`; `make test` runs it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import coach
from coach.tools.load import _free_port
from coach.web.infra import places

ROOT = Path(__file__).resolve().parents[1]
HTMX = ROOT / "static" / "vendor" / "htmx.min.js"
# What the app needs at run time, as found in the wheel.
WHEEL_MUST_HOLD = [
    "coach/web/templates/base.html",
    "coach/web/templates/error.html",
    "coach/web/templates/partials/verdict.html",
    "coach/web/static/css/app.css",
    "coach/web/static/js/app.js",
    "coach/web/static/vendor/htmx.min.js",
    "coach/web/static/vendor/htmx-ext-sse.min.js",
    "coach/web/static/vendor/tile-glyphs.json",
    "coach/web/static/vendor/tile-glyphs-OFL.txt",
    "coach/play/outlook.json",  # the coach's fitted models: a hint or a review needs them
    "coach/cards/house-2026.yaml",
    "coach/store/migrations/env.py",
    "coach/store/migrations/script.py.mako",
    "coach/store/migrations/versions/0001_learners_and_attempts.py",
    "drills/samples/first-lesson.yaml",
]
# Clean environment for the installed command: nothing points back at the checkout.
DROPPED = ("PYTHONPATH", "COACH_SECRET_KEY", "COACH_DATABASE_URL", "COACH_CARD", "COACH_DATA_DIR", "VIRTUAL_ENV")


@dataclass(frozen=True)
class Installed:
    dist: Path
    build_log: str
    venv: Path
    home: Path  # a temporary folder far from the checkout, the current directory of every run

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    @property
    def command(self) -> Path:
        return self.venv / "bin" / "mahjong-coach"

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in DROPPED}
        env["PATH"] = f"{self.venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["XDG_DATA_HOME"] = str(self.home / "xdg-data")
        return {**env, **extra}

    def run(self, *args: str, timeout: float = 300, **extra_env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(a) for a in args], cwd=self.home, env=self.env(**extra_env),
            capture_output=True, text=True, timeout=timeout,
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    if not HTMX.is_file():
        pytest.fail(f"{HTMX.relative_to(ROOT)} is missing: run `make assets` first (`make test` does)")
    work = tmp_path_factory.mktemp("wheel")
    dist = work / "dist"
    # As `make dist`: an sdist, then the wheel built from that sdist, so both must be complete.
    build = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    home = work / "elsewhere"
    home.mkdir()
    result = Installed(dist, build.stdout + build.stderr, venv, home)
    (wheel,) = dist.glob("mahjong_coach-*.whl")
    # With its dependencies, as a deployment would; pip's cache saves the downloads, and
    # --no-compile the byte-compiling of numpy and SQLAlchemy. Generous: the machine may be busy.
    pip = result.run(
        result.python, "-m", "pip", "install", "--quiet", "--no-compile", "--disable-pip-version-check", wheel,
        timeout=900,
    )
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]
    return result


def _fetch(url: str, body: dict | None = None) -> tuple[int, str, bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


@pytest.fixture(scope="module")
def server(installed: Installed) -> Iterator[tuple[str, Path]]:
    """`mahjong-coach serve` from the temporary folder with a fresh data folder."""
    data = installed.home / "data"
    port = _free_port()
    process = subprocess.Popen(
        [str(installed.command), "serve", "--port", str(port)],
        cwd=installed.home, env=installed.env(COACH_DATA_DIR=str(data)),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            if process.poll() is not None:
                output = process.stdout.read().decode(errors="replace") if process.stdout else ""
                pytest.fail(f"mahjong-coach serve exited with {process.returncode}:\n{output[-3000:]}")
            try:
                if _fetch(base + "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("mahjong-coach serve did not answer /healthz within 180 s")
            time.sleep(0.2)
        yield base, data
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # gunicorn's master and its workers
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=20)
        if process.stdout:
            process.stdout.close()


@pytest.mark.slow
def test_build_carries_everything_without_warnings(installed: Installed):
    log = installed.build_log
    assert "Successfully built" in log
    # Issue 17: no deprecated license table, no data folder left out of the package list.
    for warning in ("deprecated", "absent from the `packages` configuration", "would be ignored"):
        assert warning not in log, f"the build warns: {warning!r}"
    (wheel,) = installed.dist.glob("mahjong_coach-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [name for name in WHEEL_MUST_HOLD if name not in names]
    assert not missing, f"the wheel lacks {missing}"
    every_template = {p.relative_to(ROOT).as_posix() for p in (ROOT / "templates").rglob("*.html")}
    assert {f"coach/web/{t}" for t in every_template} <= names
    assert zipfile.ZipFile(wheel).read("coach/web/static/vendor/htmx.min.js") == HTMX.read_bytes()
    metadata = zipfile.ZipFile(wheel).read(f"mahjong_coach-{coach.__version__}.dist-info/METADATA").decode()
    assert "License-Expression: LicenseRef-Proprietary" in metadata
    assert re.search(r"^Requires-Dist: platformdirs", metadata, re.M)
    (sdist,) = installed.dist.glob("mahjong_coach-*.tar.gz")
    with tarfile.open(sdist) as tar:
        in_sdist = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    assert {"templates/error.html", "static/vendor/htmx.min.js", "coach/cards/house-2026.yaml"} <= in_sdist


@pytest.mark.slow
def test_installed_command_works_from_any_folder(installed: Installed):
    where = installed.run(installed.python, "-c", "import coach, drills; print(coach.__file__); print(drills.__file__)")
    assert where.returncode == 0, where.stderr
    for line in where.stdout.split():
        assert Path(line).is_relative_to(installed.venv), f"imported from outside the install: {line}"

    version = installed.run(installed.command, "--version")
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"mahjong-coach {coach.__version__}"

    analyze = installed.run(installed.command, "analyze", "--rack", "2B 2B 0 2C 6C 6C 2D 2D J F F N E", "--json")
    assert analyze.returncode == 0, analyze.stderr
    answer = json.loads(analyze.stdout)
    assert answer["card"] == "Mahjong Coach House Card 2026"  # the house card was found in the install
    assert len(answer["hands"]) > 50 and answer["hands"][0]["distance"] is not None

    sample = installed.venv.glob("lib/python*/site-packages/drills/samples/first-lesson.yaml")
    check = installed.run(installed.command, "check-set", next(sample))
    assert check.returncode == 0, check.stderr
    assert "The set is valid." in check.stdout

    # The coach's evaluation reads its models from the install: a hand of coach players plays to its end.
    coached = installed.run(installed.command, "play", "--seed", "3", "--bots", "coach", "--compact")
    assert coached.returncode == 0, coached.stderr
    assert json.loads(coached.stdout)["over"] is True

    bad = installed.run(installed.command, "score", "--rack", "1D")
    assert bad.returncode == 2 and bad.stderr.startswith("mahjong-coach: error:")


@pytest.mark.slow
def test_instance_folder_defaults_to_the_user_data_folder_when_installed(installed: Installed):
    probe = installed.run(installed.python, "-c", "from coach.web import create_app; print(create_app().instance_path)")
    assert probe.returncode == 0, probe.stderr
    instance = Path(probe.stdout.strip())
    assert instance == installed.home / "xdg-data" / "mahjong-coach"  # platformdirs on Linux honours XDG_DATA_HOME
    assert (instance / "secret_key").is_file() and (instance / "coach.sqlite3").is_file()


@pytest.mark.slow
def test_installed_server_serves_pages_static_files_tiles_and_the_api(installed: Installed, server):
    base, data = server
    status, kind, body = _fetch(base + "/")
    assert status == 200 and kind.startswith("text/html")
    home = body.decode()
    assert "Name the tile" in home

    status, kind, body = _fetch(base + "/drills/name-the-tile?level=1")
    assert status == 200 and kind.startswith("text/html")
    assert 'name="token"' in body.decode()

    htmx = re.search(r'src="(/static/vendor/htmx\.min\.js[^"]*)"', home)
    assert htmx, "the home page loads no htmx"
    status, _, body = _fetch(base + htmx.group(1))
    assert status == 200 and body == HTMX.read_bytes()

    status, _, body = _fetch(base + "/static/css/app.css")
    assert status == 200 and body == (ROOT / "static" / "css" / "app.css").read_bytes()

    status, kind, body = _fetch(base + "/tiles/5D.svg")
    assert status == 200 and kind.startswith("image/svg+xml")
    assert body.lstrip().startswith(b"<svg") and len(body) > 200
    status, _, body = _fetch(base + "/tiles/GD.svg")  # the installed glyphs draw 發, with no font
    assert status == 200 and b"<path" in body and b"<text" not in body

    status, _, body = _fetch(base + "/api/drills/name-the-tile/questions", {"seed": 7, "level": 1})
    assert status == 201, body
    question = json.loads(body)
    status, _, body = _fetch(base + "/api/drills/name-the-tile/answers", {"token": question["token"], "answer": question["tile"]})
    assert status == 200, body
    verdict = json.loads(body)
    assert verdict["correct"] is True and verdict["best"] == question["tile"] and verdict["explanation"]

    # The fresh data folder given by COACH_DATA_DIR holds the key and the database.
    assert (data / "secret_key").is_file() and (data / "coach.sqlite3").is_file()


def test_a_checkout_keeps_its_instance_folder_and_top_level_assets(monkeypatch):
    monkeypatch.delenv("COACH_DATA_DIR", raising=False)
    assert places.in_checkout()
    assert places.instance_folder() == ROOT / "instance"
    assert places.asset_folder("templates") == ROOT / "templates"
    assert places.asset_folder("static") == ROOT / "static"
    monkeypatch.setenv("COACH_DATA_DIR", "somewhere")
    assert places.instance_folder() == Path("somewhere").resolve()


def test_version_prints_the_package_version(capsys):
    from coach.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"mahjong-coach {coach.__version__}\n"

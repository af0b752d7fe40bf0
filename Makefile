# Quick start: `make run` serves the coach, `make test` runs every test,
# `make test-fast` the quick loop (no browser, no servers, no wheel build).
# Both build their own virtual environment in .venv from pyproject.toml,
# and fetch htmx (pinned in package.json / package-lock.json) with npm,
# to be served from the app's own static files.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
CHECK_STAMP := $(VENV)/.installed-check
HTMX := static/vendor/htmx.min.js
# htmx's server-sent events extension: live tables' pages (issue 28).
HTMX_SSE := static/vendor/htmx-ext-sse.min.js
# The tile faces' characters as outlines, from the Noto Serif TC font npm fetches.
GLYPHS := static/vendor/tile-glyphs.json
ASSETS_STAMP := $(VENV)/.installed-assets
CHROMIUM := /usr/bin/chromium


.PHONY: run test test-fast check bench speed-page install install-test assets browser postgres redis clean dist

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(TEST_STAMP)

$(CHECK_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[check]'
	touch $(CHECK_STAMP)

install: $(STAMP)

install-test: $(TEST_STAMP)

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

$(HTMX): node_modules/.package-lock.json
	mkdir -p static/vendor
	cp node_modules/htmx.org/dist/htmx.min.js $(HTMX)

$(HTMX_SSE): node_modules/.package-lock.json
	mkdir -p static/vendor
	cp node_modules/htmx-ext-sse/dist/sse.min.js $(HTMX_SSE)

# fontTools (the `assets` extra) reads the font; the app only reads the JSON.
$(ASSETS_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[assets]'
	touch $(ASSETS_STAMP)

$(GLYPHS): node_modules/.package-lock.json $(ASSETS_STAMP) coach/web/tiles/glyphs.py coach/tools/build_glyphs.py
	$(PY) -m coach.tools.build_glyphs

assets: $(HTMX) $(HTMX_SSE) $(GLYPHS)

# Debian's Chromium for the browser tests; Playwright never downloads one.
browser:
	@if [ ! -x $(CHROMIUM) ]; then apt-get update && apt-get install -y chromium; fi

# Debian's PostgreSQL for the tests that run the store on it (a private
# throwaway server each run; nothing is left running).
postgres:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then apt-get update && apt-get install -y postgresql; fi

# Debian's Redis for the test that runs several servers sharing their rate
# limits (a private throwaway server each run; nothing is left running).
redis:
	@if [ ! -x /usr/bin/redis-server ]; then apt-get update && apt-get install -y redis-server; fi

# PORT=5001 make run when 5000 is taken.
PORT ?= 5000
run: $(STAMP) $(HTMX) $(HTMX_SSE) $(GLYPHS)
	$(PY) -m coach serve --port $(PORT)

# pytest keeps its bytecode and rewritten asserts between runs: these machines
# set PYTHONDONTWRITEBYTECODE, which would make every run compile every test
# module again (most of a run's first half minute). Both cores run the tests
# (pytest-xdist); the browser and server tests run in a step of their own,
# one at a time, as they start Chromium, PostgreSQL, Redis or servers.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest
CORES ?= 2

test: $(TEST_STAMP) $(HTMX) $(HTMX_SSE) $(GLYPHS) browser postgres redis
	$(PYTEST) -n $(CORES) -m "not browser and not server"
	$(PYTEST) -m "browser or server"

# Everything but the browser, the servers and the wheel build, with fewer
# Hypothesis examples (the "fast" profile in tests/conftest.py).
test-fast: $(TEST_STAMP) $(HTMX) $(HTMX_SSE) $(GLYPHS)
	$(PYTEST) -n $(CORES) -m "not browser and not server and not slow" --hypothesis-profile=fast

# The architecture (import contracts in .importlinter: layers, no cycles),
# the linter and the type checker, over the packages.
check: $(CHECK_STAMP)
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/ruff check coach drills tests
	$(VENV)/bin/mypy

# A wheel and an sdist in dist/ with the templates, static files (htmx and
# the tile glyphs included), the house card, the sample sets and the migrations.
dist: $(STAMP) $(HTMX) $(HTMX_SSE) $(GLYPHS)
	$(PY) -m pip install --quiet 'build>=1.2'
	rm -rf dist
	$(PY) -m build --outdir dist .

bench: $(STAMP)
	$(PY) -m coach bench

# docs/speed.md's goals section, rewritten from what `coach bench` prints (a few minutes).
speed-page: $(STAMP)
	$(PY) -m coach.tools.speed_page

clean:
	rm -rf $(VENV) build *.egg-info node_modules static/vendor/htmx.min.js static/vendor/htmx-ext-sse.min.js static/vendor/tile-glyphs* dist

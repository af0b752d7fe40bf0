# Quick start: `make run` serves the coach, `make test` runs every test.
# Both build their own virtual environment in .venv from pyproject.toml.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(PY) -m coach analyze --rack "2B 2B 0 2C 6C 6C 2D 2D J F F N E"

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m coach bench

clean:
	rm -rf $(VENV) build *.egg-info

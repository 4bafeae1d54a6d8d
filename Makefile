# Two entry points on a fresh machine: `make run` (the app) and `make test` (the tests).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test check install ingest bench load eval chromium clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch==2.13.0 (CPU) is pinned in pyproject.toml; llama-cpp-python builds from source once (~5 min).
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

ingest: install
	$(PY) -m assistant ingest

run: ingest
	$(PY) -m assistant serve

# Browser tests drive Debian's Chromium; install it when missing.
chromium:
	@test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

# The first, fast step of `make test` (seconds): lint, format and types of assistant/, configured in pyproject.toml.
check: install
	$(VENV)/bin/ruff check assistant/
	$(VENV)/bin/ruff format --check assistant/
	$(PY) -m mypy

# As root (as CI runs it) the disk tests can mount, so a skip of a test marked `required` fails.
test: install check chromium
	REQUIRED_TESTS_MUST_RUN=$$([ "$$(id -u)" = 0 ] && echo 1) $(PY) -m pytest -q -rs -p no:cacheprovider

eval: install
	$(PY) -m assistant eval --title-check

bench: install
	$(PY) bench/run.py

# Concurrent sessions: one app idle, during a catalogue ingest, and two apps on shared servers.
load: install
	$(PY) bench/load.py --sessions 8

clean:
	rm -rf data .pytest_cache

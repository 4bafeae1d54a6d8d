# Two entry points on a fresh machine: `make run` (the app) and `make test` (the tests).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

BENCH_STAMP := $(VENV)/.installed-bench
# Papers at each step of the scale bench (`make scale`, or `make bench SCALE=1`): about an hour and a
# half on 2 cores, as each step's ingest stops after 15 minutes (bench/SCALE.md).
SIZES ?= 2600,26000,260000

.PHONY: run test check install ingest bench scale load eval chromium clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch==2.13.0 (CPU) is pinned in pyproject.toml; llama-cpp-python builds from source once (~5 min).
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# The benches also draw plots: matplotlib, from the optional `bench` extra (not needed to run or test).
$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $(BENCH_STAMP)

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

bench: $(BENCH_STAMP)
	$(PY) bench/run.py
	$(if $(SCALE),$(PY) bench/scale.py --sizes $(SIZES))

# How cost grows with the number of papers: bench/SCALE.md and bench/scale.png.
scale: $(BENCH_STAMP)
	$(PY) bench/scale.py --sizes $(SIZES)

# Concurrent sessions: one app idle, during a catalogue ingest, and two apps on shared servers.
load: install
	$(PY) bench/load.py --sessions 8

clean:
	rm -rf data .pytest_cache

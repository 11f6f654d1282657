# Two commands set up everything: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test test-js install install-dev system-deps lint typecheck bench lock clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

## The server and what it needs (embedded SQLite; add `postgres` for PostgreSQL).
install: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[server]'

## Every extra and the test tools.
install-dev: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[all,dev]'

## Start the server on http://127.0.0.1:8000 (embedded SQLite in ./var).
run: install
	$(BIN)/secret-hitler serve

## Install everything the tests need (all extras, dev tools, Chromium, PostgreSQL, Node.js) and
## run the whole suite: the web client's unit tests (Node), then pytest in TEST_WORKERS processes
## (pytest-xdist; auto: two a core, tests/conftest.py). Tests that share a module's server or the
## worker's Chromium stay together by file, the rest spread one by one; each process has its own
## PostgreSQL, Redis and Chromium.
## `make test TEST_WORKERS=0`: one process. The 20 slowest tests are listed at the end.
TEST_WORKERS ?= auto
test: install-dev system-deps test-js
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup --durations=20

## The web client's unit tests (tests/web/js), by Node's own test runner: no npm package.
## Without Node this fails: it never skips.
test-js: system-deps
	@command -v node >/dev/null 2>&1 || { echo "make test-js: node not found: install Debian's nodejs (scripts/install-system-deps.sh, as root)" >&2; exit 1; }
	node --test tests/web/js/

system-deps:
	@bash scripts/install-system-deps.sh

lint: install-dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: install-dev
	$(BIN)/mypy

bench: install-dev
	$(BIN)/python benchmarks/engine_speed.py

## Regenerate requirements/server.lock (the server's deployment pins, from PyPI) after a change
## to the server or postgres extras.
lock: $(BIN)/python
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --extra server --extra postgres --extra cluster --universal \
		--python-version 3.11 --custom-compile-command "make lock" -o requirements/server.lock

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache

# Two commands set up everything: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test install install-dev system-deps lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-dev: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev,rl]'

## Start the server on http://127.0.0.1:8000 (embedded SQLite in ./data).
run: install
	$(BIN)/secret-hitler serve

## Install everything the tests need (dev extras, Chromium, PostgreSQL) and run the whole suite.
test: install-dev system-deps
	$(BIN)/python -m pytest

system-deps:
	@bash scripts/install-system-deps.sh

lint: install-dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: install-dev
	$(BIN)/mypy

bench: install-dev
	$(BIN)/python benchmarks/engine_speed.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache

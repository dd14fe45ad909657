# Two entry points: `make play` (a game against bots) and `make test` (every check CI runs).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck pytest clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/fengsheng play

lint: $(STAMP)
	$(BIN)/ruff check engine net bots fengsheng_tui tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -q

test: lint typecheck pytest

clean:
	rm -rf $(VENV)

# Two commands set up a fresh machine: `make run` (demo on SQLite) and `make test` (whole suite).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install migrate bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet pip==26.3
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

install: $(VENV)/.installed

migrate: install
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(BIN)/python manage.py load_demo
	@echo "Open http://$(HOST):$(PORT)/ - organiser login: organiser / mexican-train-demo (demo only)"
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

test: install
	$(BIN)/python manage.py check
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: install
	$(BIN)/python bench/seating.py
	$(BIN)/python bench/standings.py
	$(BIN)/python bench/entry_load.py

clean:
	rm -rf $(VENV) .test-db.sqlite3* staticfiles

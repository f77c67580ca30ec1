# Two commands set up a fresh machine: `make run` (demo on SQLite) and `make test` (whole suite).
# `make venue` serves the app to phones on the local network (see README, "Running it at the venue").
# `make run` installs only what the app needs (requirements.txt); `make test` and `make lint` add
# the test and development tools (requirements-dev.txt).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

VENUE_PORT ?= 8000
# Venue mode: production settings, plain HTTP on the local network; the secret key is made once
# and kept in var/ (not in git), so logins survive a restart.
VENUE_ENV = DJANGO_DEBUG=0 DJANGO_VENUE_MODE=1 DJANGO_PORT=$(VENUE_PORT) \
	DJANGO_SECRET_KEY="$$(cat var/secret_key)"

.PHONY: run organiser venue test lint install install-dev migrate bench simulate soak clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet pip==26.3
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet pip==26.3
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

migrate: install
	$(BIN)/python manage.py migrate --noinput

# The demo has a database of its own, so its published login never reaches the venue's database
# (db.sqlite3, or DATABASE_URL), which `make venue` and `make organiser` use.
DEMO_DATABASE_URL ?= sqlite:///$(CURDIR)/demo.sqlite3
RUN_ENV = DATABASE_URL="$(DEMO_DATABASE_URL)"

run: install
	$(RUN_ENV) $(BIN)/python manage.py migrate --noinput
	$(RUN_ENV) $(BIN)/python manage.py load_demo
	@echo "Open http://$(HOST):$(PORT)/ - organiser login: organiser / mexican-train-demo (demo only)"
	$(RUN_ENV) $(BIN)/python manage.py runserver $(HOST):$(PORT)

# A fresh clone's first step for a real event: install, migrate, and ask for the login.
organiser: migrate
	$(BIN)/python manage.py createsuperuser

venue: migrate
	@mkdir -p var
	@test -s var/secret_key || (umask 077 && $(BIN)/python -c \
		'import secrets; print(secrets.token_urlsafe(50))' > var/secret_key)
	@$(VENUE_ENV) $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@$(VENUE_ENV) $(BIN)/python manage.py check_no_demo_login $(if $(ALLOW_DEMO),--allow-demo)
	@$(VENUE_ENV) $(BIN)/python manage.py clearsessions
	$(VENUE_ENV) $(BIN)/python -m gunicorn -c config/gunicorn_venue.py config.wsgi

# One pytest process per core (pytest-xdist); a test run by hand can pass PYTEST_ARGS= to run in
# one process. CI measures coverage across the processes and fails under the floor that
# pyproject.toml keeps ([tool.coverage.report] fail_under).
PYTEST_ARGS ?= -n auto --dist worksteal
COVERAGE_ARGS = $(if $(filter true,$(CI)),--cov --cov-report=term)

test: install-dev
	$(BIN)/python manage.py check
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest $(PYTEST_ARGS) $(COVERAGE_ARGS)

# The simulated days (tests/simulation) on their own (the whole suite runs them too), and at
# length: SOAK_EVENTS two-day events on each core (SOAK_CORES), each run drawn afresh.
SOAK_CORES ?= 2
SOAK_EVENTS ?= 3000
simulate: install-dev
	$(BIN)/python -m pytest -n 0 -q -s tests/simulation

soak: install-dev
	@status=0; pids=""; for core in $$(seq $(SOAK_CORES)); do \
	  SIMULATED_SOAK=1 SIMULATED_EVENTS=$(SOAK_EVENTS) \
	    $(BIN)/python -m pytest -n 0 -q -s -p no:cacheprovider tests/simulation \
	    > soak-$$core.log 2>&1 & pids="$$pids $$!"; \
	done; \
	for pid in $$pids; do wait $$pid || status=1; done; \
	grep -h "simulated days:\|passed\|failed" soak-*.log; exit $$status

# Every check runs, so one pass lists every finding; any finding fails.
lint: install-dev
	@status=0; \
	echo "== ruff check"; $(BIN)/ruff check --output-format concise . || status=1; \
	echo "== ruff format --check"; $(BIN)/ruff format --check --output-format concise . || status=1; \
	echo "== import contracts"; $(BIN)/lint-imports --no-cache || status=1; \
	echo "== mypy"; $(BIN)/mypy || status=1; \
	echo "== code size"; $(BIN)/python .ci/code_size.py || status=1; \
	echo "== templates"; $(BIN)/djlint --check --lint templates || status=1; \
	exit $$status

# Every benchmark runs, so one pass shows every figure; any FAIL fails. Each judges its timings
# against a baseline measured in the same run, never against a number of seconds.
bench: install
	@status=0; \
	for name in seating standings entry_load abuse venue validation desk; do \
		echo "== bench/$$name.py"; $(BIN)/python bench/$$name.py || status=1; \
	done; \
	exit $$status

clean:
	rm -rf $(VENV) .test-db.sqlite3* staticfiles .mypy_cache .ruff_cache

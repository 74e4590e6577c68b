# Two commands do everything on a fresh machine with Python 3.11: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
# PostgreSQL, when one answers here (CI always has one): the tests that depend on the database
# run on it too, and the browser tests run there, as production runs.
POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/ledger
# Which tests each pass runs, by marker (pyproject.toml, docs/development.md): together, every
# test; both, those marked both_databases (tests/ledger/test_make_test.py checks all three).
# Browser tests, those marked postgresql (the migrations') and own_postgresql (bringing a
# PostgreSQL database of their own) run on PostgreSQL alone; make test-deep runs the postgresql
# ones on SQLite too.
ON_SQLITE := not browser and not postgresql and not own_postgresql or both_databases
ON_POSTGRES := both_databases or browser or postgresql or own_postgresql
ON_SQLITE_DEEP := not browser and not own_postgresql or both_databases
# Test processes side by side (pytest-xdist), a file to each: much of the suite waits on a browser,
# a server or a subprocess. docs/development.md has the before and after.
TEST_WORKERS ?= auto
# The port `make run` serves on, on every address of this machine: `make run PORT=8080`.
PORT ?= 8000
# Files in the order collected (tests/api's schemathesis, the longest single test, among the first),
# not xdist's most-tests-first, which left it to run alone at the end of each pass. Each pass
# ends with its 15 slowest steps: where the time goes (docs/development.md).
PYTEST := $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=15

.PHONY: run demo test test-deep check lint bench smoke clean

$(INSTALLED): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

## run: install, migrate the embedded SQLite database, serve on 0.0.0.0:8000 (or PORT=8080)
run: $(INSTALLED)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/python manage.py serve --port $(PORT)

## demo: install, migrate, fill an empty database with a demo (a table of every game, a tournament)
demo: $(INSTALLED)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo

## test: install, then lint, type-check and run every test: once on SQLite, and on PostgreSQL
## the tests that depend on the database and the browser tests (every test on SQLite without one)
test: $(INSTALLED) lint
	@if $(BIN)/python -c "import psycopg, sys; psycopg.connect(sys.argv[1], dbname='postgres', connect_timeout=3).close()" '$(POSTGRES_URL)' 2>/dev/null; then \
		echo "On SQLite: every test but the browser tests not marked both_databases (-m '$(ON_SQLITE)')"; \
		$(PYTEST) -m '$(ON_SQLITE)' || exit 1; \
		echo "On PostgreSQL ($(POSTGRES_URL)): the tests marked both_databases again, and the browser tests (-m '$(ON_POSTGRES)')"; \
		DATABASE_URL='$(POSTGRES_URL)' SECRET_KEY="$$($(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
			$(PYTEST) -m '$(ON_POSTGRES)'; \
	elif [ -n "$$REQUIRE_POSTGRES" ]; then \
		echo "PostgreSQL is required but does not answer at $(POSTGRES_URL)"; exit 1; \
	else \
		echo "PostgreSQL does not answer at $(POSTGRES_URL): every test runs on SQLite"; \
		$(PYTEST); \
	fi

## test-deep: make test at the full counts (every example, axe in every language and scheme, the
## migrations on both databases): after a change to the engine, the API's schema or the streams
test-deep:
	$(MAKE) test TEST_DEPTH=deep ON_SQLITE='$(ON_SQLITE_DEEP)'

## check: the quick loop between saves: lint, then on SQLite the tests that need no browser and
## no PostgreSQL, stopping at the first failure; schemathesis, a core for two minutes, is left
## to make test
check: $(INSTALLED) lint
	env -u DATABASE_URL $(PYTEST) -x -m 'not browser and not postgresql and not own_postgresql' -q \
		--deselect tests/api/test_schemathesis.py::test_the_api_conforms_to_its_schema

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict scoring ledger
	$(BIN)/lint-imports

## smoke: the production stack (PostgreSQL + gunicorn) on this machine, over HTTP; CI runs it
smoke: $(INSTALLED)
	POSTGRES_URL='$(POSTGRES_URL)' $(BIN)/python -m deploy.smoke

## bench: the scoring engine benchmark (hands per second, 1,000-hand recompute time)
bench: $(INSTALLED)
	$(BIN)/python manage.py bench_scoring

clean:
	rm -rf $(VENV) staticfiles

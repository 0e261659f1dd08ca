# Developer and CI entry points. `make run` and `make test` are all a newcomer needs.

PY ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Tests and production run on PostgreSQL; `make run` without DATABASE_URL uses SQLite.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/unoservice
# Type-checked packages (bench/ is checked once it exists).
MYPY_PATHS := $(wildcard unoservice games players streams notifications service bench tests)

.DEFAULT_GOAL := help
.PHONY: help install run test check-clients web-tools web-types check-web-types check-web icons lint format \
	check-cluster bench bench-bots bench-service bench-scale bench-streams bench-tournament \
	bench-web bench-cluster clean

help:
	@echo "make install  create $(VENV) and install the project with its dev tools"
	@echo "make run      migrate, then serve API and streams on http://localhost:8000 (with DATABASE_URL and"
	@echo "             CELERY_BROKER_URL set: web, worker and beat, from the Procfile)"
	@echo "make test     run the test suite (PostgreSQL at 127.0.0.1:5432 or DATABASE_URL)"
	@echo "make check-clients  generate Python and TypeScript clients from the schema, play games with them"
	@echo "make web-types  regenerate the web client's types (web/types/schema.d.ts) from the schema"
	@echo "make check-web-types  the checked-in types match the schema; tsc --checkJs --strict over web/"
	@echo "make check-web  check-web-types, then the web client in Debian's Chromium (Playwright)"
	@echo "make icons      the PNG icons again from the SVG ones (web/render_icons.py)"
	@echo "make check-cluster  a replica, nginx before two web nodes, two workers and a beat: the cluster test"
	@echo "make lint     ruff check, ruff format --check, mypy, lint-imports (the layers)"
	@echo "make format   ruff format and ruff check --fix"
	@echo "make bench    run the engine benchmark, beside RLCard's UnoGame (installs the bench extra)"
	@echo "make bench-bots  the bots' win rates and think times (BENCH_ARGS='--rounds 200 ...')"
	@echo "make bench-service  measure the HTTP service (gunicorn + PostgreSQL)"
	@echo "make bench-scale  the reads, an action and the sweep at 1,000 and 50,000 stored games"
	@echo "             (BENCH_ARGS='--small-only' or '--big 20000' ...)"
	@echo "make bench-streams  2,000 open event streams: delivery latency, memory, throughput"
	@echo "make bench-cluster  one and two web nodes behind nginx, with a replica: actions/s, reads/s"
	@echo "make bench-web  the web client in Chromium: page weights, time to show a game"
	@echo "make bench-tournament  pair a Swiss round of 10,000 players (target under 2 s)"

install: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || { $(PY) -m venv $(VENV) && $(BIN)/python -m pip install -q --upgrade pip; }
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $@

# With DATABASE_URL and CELERY_BROKER_URL set, web, worker and beat run together (Procfile, honcho);
# without, one uvicorn process (ASGI, so it serves the event streams too), with tasks run
# in-process and the streams told of new events in-process.
run: install
	$(BIN)/python manage.py migrate --noinput
	@if [ -n "$$DATABASE_URL" ] && [ -n "$$CELERY_BROKER_URL" ]; then \
		echo "web, worker and beat (Procfile) on http://localhost:8000"; \
		PATH="$(abspath $(BIN)):$$PATH" exec $(BIN)/honcho start --port 8000; \
	else \
		exec $(BIN)/python -m unoservice.serve --host 0.0.0.0 --port 8000; \
	fi

# The clients check (about 1.5 minutes) and the browser tests (check-web) have targets of their own
# (run by .ci/run), not part of `make test`: they need Node and Chromium.
test: install
	DATABASE_URL="$${DATABASE_URL:-$(TEST_DATABASE_URL)}" $(BIN)/pytest --ignore=tests/clients --ignore=tests/web --ignore=tests/cluster $(PYTEST_ARGS)

# Node 20 and npm: the pinned generators are installed with `npm ci` (package-lock.json).
check-clients: install
	cd tests/clients && { [ -x node_modules/.bin/tsc ] || npm ci --prefer-offline --no-audit --no-fund; }
	DATABASE_URL="$${DATABASE_URL:-$(TEST_DATABASE_URL)}" $(BIN)/pytest tests/clients $(PYTEST_ARGS)

# The web client (web/) needs no build: Node is only for its types and their check, and for
# axe-core, which the accessibility check (tests/web/test_accessibility.py) injects into pages.
WEB_BIN := web/node_modules/.bin
WEB_SCHEMA_TYPES := web/types/schema.d.ts

# Again when a tool is missing from an older node_modules (axe-core: the browser tests inject it).
web-tools:
	cd web && { { [ -x node_modules/.bin/tsc ] && [ -f node_modules/axe-core/axe.min.js ]; } || \
		npm ci --prefer-offline --no-audit --no-fund; }

# The served schema (what /api/schema/ answers) -> TypeScript types, in $(1).
define web_types
	$(BIN)/python manage.py spectacular --file $(1).yaml
	$(WEB_BIN)/openapi-typescript $(1).yaml -o $(1) --default-non-nullable false --silent
	rm -f $(1).yaml
endef

web-types: install web-tools
	$(call web_types,$(WEB_SCHEMA_TYPES))

check-web-types: install web-tools
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(MAKE) --no-print-directory _web_types_into OUT="$$tmp/schema.d.ts" && \
	if ! diff -u $(WEB_SCHEMA_TYPES) "$$tmp/schema.d.ts"; then \
		echo "$(WEB_SCHEMA_TYPES) is out of date: run make web-types"; exit 1; fi
	$(WEB_BIN)/tsc -p web/tsconfig.json
	$(WEB_BIN)/tsc -p web/tsconfig.sw.json

_web_types_into:
	$(call web_types,$(OUT))

# The browser tests need Chromium at /usr/bin/chromium (Debian's `chromium`; .ci/run installs it);
# Playwright never downloads a browser.
check-web: check-web-types
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 DATABASE_URL="$${DATABASE_URL:-$(TEST_DATABASE_URL)}" \
		$(BIN)/pytest tests/web $(PYTEST_ARGS)

# The PNG icons (iOS's apple-touch-icon, Android's 192 and 512 px), rendered from the SVG ones
# by Debian's Chromium: again after a change to an SVG icon, then commit them.
icons: install
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(BIN)/python web/render_icons.py

# The cluster test (about 2 minutes): a pg_basebackup replica of the PostgreSQL at 127.0.0.1:5432
# (it adds a `host replication` line to its pg_hba.conf once, as root), nginx, two web nodes,
# two Celery workers and a beat on Redis database 12 (UNO_CLUSTER_REDIS_URL).
check-cluster: install
	DATABASE_URL="$${DATABASE_URL:-$(TEST_DATABASE_URL)}" $(BIN)/pytest tests/cluster $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $(MYPY_PATHS)
	$(BIN)/lint-imports

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The bench extra (RLCard, for the line beside it) only when it is missing: no reinstall each run.
bench: install
	@$(BIN)/python -c "import rlcard" 2>/dev/null || $(BIN)/python -m pip install -q -e '.[dev,bench]'
	$(BIN)/python bench/engine.py

bench-service: install
	$(BIN)/python bench/service.py

# One database grown from about 1,000 games to 50,000 (docs/performance.md, "Cost against stored
# work"): e.g. make bench-scale BENCH_ARGS='--small-only'
bench-scale: install
	$(BIN)/python bench/scale.py $(BENCH_ARGS)

# The bots' strength (docs/bots.md): e.g. make bench-bots BENCH_ARGS='--rounds 200 --cpu'
bench-bots: install
	$(BIN)/python bench/bots.py $(BENCH_ARGS)

bench-streams: install
	$(BIN)/python bench/streams.py

# A Swiss round of 10,000 players: the standings and the pairing (docs/performance.md).
bench-tournament: install
	$(BIN)/python bench/tournament.py $(BENCH_ARGS)

bench-cluster: install
	$(BIN)/python bench/cluster.py $(BENCH_ARGS)

bench-web: install
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(BIN)/python bench/webclient.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis *.egg-info

# Quick start: `make run` and `make test`. Everything else sets itself up.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit collect site bench arena play-bench webapp-bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	@if [ -n "$$TELEGRAM_BOT_TOKEN" ] || grep -qs '^TELEGRAM_BOT_TOKEN=.' .env; then \
		$(VENV)/bin/truco bot; \
	else \
		$(VENV)/bin/truco sandbox; \
	fi

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict engine bot

# four workers, each with its own PostgreSQL database (tests/conftest.py), even on two
# cores: a test waiting on a process, the fake Telegram or the browser leaves the CPU to
# another worker. The whole suite keeps both cores busy nearly all the time
# (docs-dev/bot-bench-log.md, 2026-12-06 at 21 h): it is bound by its CPU, and each worker
# starts with its share of the tests marked long, so none of them starts last. The slowest
# tests are listed at the end, to show where a slow suite's time goes.
# Bytecode is written even where PYTHONDONTWRITEBYTECODE is set: without it every worker
# (and every bot a test starts) compiles the sources again, and pytest rewrites the asserts
# of every test module again, several CPU seconds each
WORKERS ?= 4
unit: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(VENV)/bin/pytest -q -n $(WORKERS) --dist worksteal --durations=15

# what the workers would each do first, done once while the checks run: the test modules
# with pytest's asserts, and the sources, compiled to bytecode
collect: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(VENV)/bin/pytest -q --collect-only -p no:randomly >/dev/null

# needs Node.js (the play page's Python is compiled by its own Pyodide, see site/_hooks/jogo.py)
site: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

# the site first: on a fresh machine its first build downloads Pyodide and compiles it with
# Node.js, a few CPU-heavy minutes that would otherwise land on the timed waits of the tests;
# the tests then read that build instead of making another (tests/site/conftest.py). The
# checks, the site and the tests' compilation do not depend on each other: they run side by
# side (each one's output kept together), then the tests
test: $(STAMP)
	$(MAKE) --no-print-directory -j 4 --output-sync=target lint typecheck site collect
	TRUCO_SITE_BUILT=build/site $(MAKE) --no-print-directory unit

# the pictures of site/telegram.md, taken from the sandbox (the real bot on the fake Telegram)
screenshots: $(STAMP)
	$(PY) site/_tools/screenshots.py

bench: $(STAMP)
	$(VENV)/bin/truco bench

# a quick strength check; the full table's commands are in results/arena.json
arena: $(STAMP)
	$(VENV)/bin/truco arena robot:medio random --matches 400 --jobs 2

# the "Jogar agora" page in headless chromium: bytes, cold/warm start, robot time in the browser
play-bench: $(STAMP)
	$(PY) tests/bench_jogo.py

# the Mini App in headless chromium: first paint and the table drawn, cold and warm cache
webapp-bench: $(STAMP)
	$(PY) tests/bench_webapp.py

clean:
	rm -rf $(VENV) build

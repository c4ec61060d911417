# simkit: `make run` sets everything up and runs the default experiment;
# `make test` sets everything up and runs the tests (CI runs this).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench install report check clean goldens lock

# Python keeps the compiled bytecode of simkit and the tests (__pycache__, ignored by git): a
# machine that sets PYTHONDONTWRITEBYTECODE made every test worker, run worker and command
# compile them again (a fresh clone's pytest: 200 s without, 184-187 s with; 2026-11-30).
unexport PYTHONDONTWRITEBYTECODE

# The exact versions of requirements.lock, then simkit itself. Nothing is compiled here: a run
# compiles the game and bots it plays, once (a line says so).
$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip==26.3
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e '.[dev,dask,ray]'
	touch $(STAMP)

install: $(STAMP)

# The default experiment: Under Falling Skies win rate by threat level, city and bot.
run: $(STAMP)
	$(BIN)/simkit sweep experiments/ufs-threat.toml --jobs 0

# Tests run on every core (pytest-xdist); `.venv/bin/python -m pytest` runs them in one process.
test: $(STAMP)
	SIMKIT_EVERY_BOT_LOOP=1 $(BIN)/simkit compile
	$(BIN)/python -m pytest -n auto
	$(BIN)/simkit check experiments/bands.toml --jobs 0

# The figures kept in git are replaced (simkit overwrites only files its own record says it
# wrote unchanged, and a fresh clone has no such record): git keeps the old ones.
bench: $(STAMP)
	for g in ufs aau ufoo eftaios ovni; do rm -f benchmarks/$$g.json; $(BIN)/simkit bench $$g --format json --output benchmarks/$$g.json || exit 1; done

# Rewrites tests/golden/*.json after an intended change of outcomes (review the diff). It plays
# the test suite's loops, one per game holding every bot (the same games as the loop of each
# bot set): about 20 s with make test's compile cache, instead of compiling a loop per case.
goldens: $(STAMP)
	SIMKIT_EVERY_BOT_LOOP=1 $(BIN)/python -m simkit.golden --update

# Rewrites requirements.lock from a fresh venv installed with pyproject.toml's ranges.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip==26.3
	.lock-venv/bin/python -m pip install --quiet '.[dev,dask,ray]'
	{ echo "# Exact versions of every package simkit's venv holds (make install and CI install these)."; \
	  echo "# Rewritten by \`make lock\` from a venv installed with the ranges of pyproject.toml."; \
	  .lock-venv/bin/python -m pip freeze --exclude-editable | grep -v '^simkit'; } > requirements.lock
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) runs .pytest_cache

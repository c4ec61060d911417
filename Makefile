# simkit: `make run` sets everything up and runs the default experiment;
# `make test` sets everything up and runs the tests (CI runs this).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench install report check clean goldens

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip==26.3
	$(BIN)/python -m pip install --quiet -e '.[dev,dask,ray]'
	$(BIN)/simkit compile
	touch $(STAMP)

install: $(STAMP)

# The default experiment: Under Falling Skies win rate by threat level, city and bot.
run: $(STAMP)
	$(BIN)/simkit sweep experiments/ufs-threat.toml --jobs 0

# Tests run on every core (pytest-xdist); `.venv/bin/python -m pytest` runs them in one process.
test: $(STAMP)
	$(BIN)/python -m pytest -n auto
	$(BIN)/simkit check experiments/bands.toml --jobs 0

# The figures kept in git are replaced (simkit overwrites only files its own record says it
# wrote unchanged, and a fresh clone has no such record): git keeps the old ones.
bench: $(STAMP)
	for g in ufs aau ufoo eftaios ovni; do rm -f benchmarks/$$g.json; $(BIN)/simkit bench $$g --format json --output benchmarks/$$g.json || exit 1; done

# Rewrites tests/golden/*.json after an intended change of outcomes (review the diff).
goldens: $(STAMP)
	$(BIN)/python -m simkit.golden --update

clean:
	rm -rf $(VENV) runs .pytest_cache

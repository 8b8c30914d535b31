# Two entry points (see README): `make demo` sets up and runs the sample dry run;
# `make test` sets up and runs the test suite. Both create .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# torch is pinned: the CPU build lies on disk here; an unpinned torch pulls a CUDA build.
TORCH := torch==2.13.0

.PHONY: setup demo test lint format clean

$(BIN)/migrate: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q $(TORCH) -e '.[parity,dev]'
	touch $(BIN)/migrate

setup: $(BIN)/migrate

# The dry run works on a scratch copy, so the committed sample is never touched.
demo: setup
	@scratch=$$(mktemp -d)/kernels_sample && cp -r kernels_sample $$scratch && \
	  echo "+ migrate plans/sample-jit-to-ops.yaml --dry-run --repo $$scratch" && \
	  $(BIN)/migrate plans/sample-jit-to-ops.yaml --dry-run --repo $$scratch && \
	  echo "(scratch copy left at $$scratch)"

test: setup
	OMP_NUM_THREADS=1 $(BIN)/python -m pytest -q -n 2 tests

lint: setup
	$(BIN)/ruff check migrate tests bench
	$(BIN)/ruff format --check migrate tests bench

format: setup
	$(BIN)/ruff format migrate tests bench
	$(BIN)/ruff check --fix migrate tests bench

clean:
	rm -rf $(VENV)

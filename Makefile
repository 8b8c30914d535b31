# Two entry points (see README): `make demo` sets up and runs the sample dry run;
# `make test` sets up and runs the test suite. Both create .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# torch is pinned: the CPU build lies on disk here; an unpinned torch pulls a CUDA build.
TORCH := torch==2.13.0
SCRATCH ?= $(shell mktemp -d)/kernels_sample

.PHONY: setup demo test lint format clean

$(BIN)/migrate: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q $(TORCH) -e '.[parity,dev]'
	touch $(BIN)/migrate

setup: $(BIN)/migrate

demo: setup
	rm -rf $(SCRATCH) && mkdir -p $(dir $(SCRATCH)) && cp -r kernels_sample $(SCRATCH)
	$(BIN)/migrate plans/sample-jit-to-ops.yaml --dry-run --repo $(SCRATCH)
	@echo "(scratch copy left at $(SCRATCH))"

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

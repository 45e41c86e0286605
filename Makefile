# scratchlearn developer commands. Each target creates .venv on first use, so a machine
# with nothing but python3 can run `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
# Keep freed memory in-process: on these VMs memory returned to the host costs seconds to touch
# again, which would swamp the timings (see benchmarks/README.md).
BENCH_ENV := GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=68719476736
PYTEST_WORKERS ?= 2

.PHONY: demo test bench lint format clean

$(VENV)/.created:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	touch $@

$(VENV)/.installed: $(VENV)/.created pyproject.toml
	$(PIP) install --quiet -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.created pyproject.toml
	$(PIP) install --quiet -e '.[dev]'
	touch $(VENV)/.installed $@

# The demo draws figures: it installs the plotting extra (matplotlib) with its own stamp.
$(VENV)/.installed-plot: $(VENV)/.created pyproject.toml
	$(PIP) install --quiet -e '.[plot]'
	touch $@

demo: $(VENV)/.installed-plot
	$(VENV)/bin/scratchlearn demo

test: $(VENV)/.installed-dev
	$(PY) -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile

bench: $(VENV)/.installed-dev
	$(BENCH_ENV) $(PY) -m benchmarks.run $(BENCH_ARGS)

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks

format: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check --fix src tests benchmarks
	$(VENV)/bin/ruff format src tests benchmarks

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .ruff_cache

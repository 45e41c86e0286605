# scratchlearn developer commands. Each target creates .venv on first use, so a machine
# with nothing but python3 can run `make demo` and `make test`.
#   make test-min  the suite on the oldest versions pyproject.toml allows: a separate .venv-min
#                  gets requirements-min.txt (every floor pinned exactly), then the package
#                  without re-resolving its dependencies, and `pip check` proves the set agrees.
#   make ci-fresh  what CI does on a new machine: clone HEAD into a temporary directory and run
#                  `make test` there from an empty venv (scripts/ci_fresh_clone.sh; CI_TARGETS
#                  chooses other targets, e.g. CI_TARGETS="test test-min").
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
VENV_MIN := .venv-min
PY_MIN   := $(VENV_MIN)/bin/python
# Keep freed memory in-process: on these VMs memory returned to the host costs seconds to touch
# again, which would swamp the timings (see benchmarks/README.md).
BENCH_ENV := GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=68719476736
PYTEST_WORKERS ?= 2

.PHONY: demo test test-min ci-fresh bench bench-dask bench-first-call lint format clean docs docs-test

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

# The documentation tool chain, pinned by docs/constraints.txt, beside the test dependencies (the
# user guide compares with scikit-learn and statsmodels while it is built).
$(VENV)/.installed-docs: $(VENV)/.created pyproject.toml docs/constraints.txt
	$(PIP) install --quiet -e '.[dev,docs]' -c docs/constraints.txt
	touch $(VENV)/.installed $(VENV)/.installed-dev $(VENV)/.installed-plot $@

demo: $(VENV)/.installed-plot
	$(VENV)/bin/scratchlearn demo

test: $(VENV)/.installed-dev
	$(PY) -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile

$(VENV_MIN)/.created:
	$(PYTHON) -m venv $(VENV_MIN)
	$(PY_MIN) -m pip install --quiet --upgrade pip
	touch $@

$(VENV_MIN)/.installed-min: $(VENV_MIN)/.created requirements-min.txt pyproject.toml
	$(PY_MIN) -m pip install --quiet -r requirements-min.txt
	$(PY_MIN) -m pip install --quiet --no-deps -e .
	$(PY_MIN) -m pip check
	touch $@

# Its own Hypothesis example database: the old Hypothesis misreads what a newer one saved.
test-min: $(VENV_MIN)/.installed-min
	SCRATCHLEARN_HYPOTHESIS_DB=$(VENV_MIN)/hypothesis-examples \
		$(PY_MIN) -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile

ci-fresh:
	scripts/ci_fresh_clone.sh $(CI_TARGETS)

bench: $(VENV)/.installed-dev
	$(BENCH_ENV) $(PY) -m benchmarks.run $(BENCH_ARGS)

# The fits on Dask (10^7 rows, minutes): never part of `make bench`. BENCH_ARGS="--scale 0.01"
# tries the harness on 1 % of the rows.
bench-dask: $(VENV)/.installed-dev
	$(BENCH_ENV) $(PY) -m benchmarks.run --slow $(BENCH_ARGS)

# First fit and call of every registered estimator in fresh processes, with an empty Numba cache
# (cold) and with the cache it filled (warm); 10-20 min, never part of `make bench` or `make test`.
# Writes benchmarks/results_first_call.md; BENCH_ARGS="--filter SVC" runs some.
bench-first-call: $(VENV)/.installed-dev
	$(BENCH_ENV) $(PY) -m benchmarks.first_call $(BENCH_ARGS)

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check src tests benchmarks docs examples
	$(VENV)/bin/ruff format --check src tests benchmarks docs examples

format: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check --fix src tests benchmarks docs examples
	$(VENV)/bin/ruff format src tests benchmarks docs examples

# The site, from nothing but python3: warnings are errors; the user guide's numbers and the
# gallery's figures are computed while it builds. Open docs/_build/html/index.html.
docs: $(VENV)/.installed-docs
	rm -rf docs/_build/html
	MPLBACKEND=Agg $(VENV)/bin/sphinx-build -b html -W --keep-going -q -j 1 docs docs/_build/html
	@echo "the site: docs/_build/html/index.html"

# The built site read in headless Chromium (Debian's chromium and chromium-driver, installed
# here when missing: apt-get needs root, as on CI).
docs-test: docs
	scripts/ensure_chromium.sh
	$(PY) -m pytest -q -p no:cacheprovider docs/tests

clean:
	rm -rf $(VENV) $(VENV_MIN) build dist src/*.egg-info .pytest_cache .ruff_cache
	rm -rf docs/_build docs/api docs/auto_examples docs/_generated docs/sg_execution_times.rst

"""The ``Examples`` sections of the public docstrings run, and print what they show.

Every registry estimator must have a numpydoc ``Examples`` section with at least one ``>>>``
line; every public class or function (a name in the ``__all__`` of a public module) whose
docstring holds ``>>>`` lines is run by the standard library's :mod:`doctest`, one test per
object. The suite runs ``pytest`` over ``tests/`` only (``testpaths``, no ``--doctest-modules``),
so this module is what collects and runs the examples.

The examples are written to print the same text on NumPy 1.25 and 2.x and on any BLAS: they
``print`` rounded values (never a bare NumPy scalar repr, which NumPy 2 writes as
``np.float64(...)``), and they show counts, shapes or scores where ties or random draws decide.
NumPy's print options are reset to their defaults around each run, so another test that changed
them cannot change what an example prints.
"""

import doctest
import importlib
import inspect
import pkgutil
import re
import warnings

import numpy as np
import pytest

from scratchlearn._registry import all_estimators

OPTIONFLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS

# NumPy's documented defaults (``legacy=False``: the current formatting, not 1.13's).
DEFAULT_PRINTOPTIONS = dict(
    edgeitems=3,
    threshold=1000,
    floatmode="maxprec",
    precision=8,
    suppress=False,
    linewidth=75,
    nanstr="nan",
    infstr="inf",
    sign="-",
    formatter=None,
    legacy=False,
)


def _public_modules():
    """``scratchlearn`` and every module below it whose dotted name has no ``_`` component."""
    found = []
    pending = ["scratchlearn"]
    while pending:
        name = pending.pop(0)
        module = importlib.import_module(name)
        found.append(module)
        for info in pkgutil.iter_modules(getattr(module, "__path__", [])):
            if not info.name.startswith("_"):
                pending.append(f"{name}.{info.name}")
    return found


def _estimator_cases():
    return [(f"{e.module}.{e.name}", e.cls) for e in all_estimators()]


def _doctest_cases():
    """(public dotted name, object) for the registry estimators and for every public class or
    function with a ``>>>`` line in its docstring, each object once (under the first public
    name found: the registry's, then the shortest module path)."""
    cases = {}
    for name, obj in _estimator_cases():
        cases.setdefault(id(obj), (name, obj))
    modules = sorted(_public_modules(), key=lambda m: (m.__name__.count("."), m.__name__))
    for module in modules:
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr, None)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            if ">>>" in (obj.__doc__ or ""):
                cases.setdefault(id(obj), (f"{module.__name__}.{attr}", obj))
    return sorted(cases.values(), key=lambda case: case[0])


ESTIMATORS = _estimator_cases()
DOCTESTS = _doctest_cases()


def examples_section(doc):
    """The text of the numpydoc ``Examples`` section of ``doc`` (up to the next section or the
    end), or None when there is none."""
    lines = inspect.cleandoc(doc or "").splitlines()
    underline = re.compile(r"^-{3,}\s*$")
    start = None
    for i in range(len(lines) - 1):
        if lines[i].strip() == "Examples" and underline.match(lines[i + 1].strip()):
            start = i + 2
            break
    if start is None:
        return None
    end = len(lines)
    for j in range(start, len(lines) - 1):
        header = lines[j].strip()
        if header and not lines[j].startswith(" ") and underline.match(lines[j + 1].strip()):
            if len(lines[j + 1].strip()) == len(header):
                end = j
                break
    return "\n".join(lines[start:end])


@pytest.fixture
def default_printoptions():
    with np.printoptions(**DEFAULT_PRINTOPTIONS):
        yield


def test_registry_is_covered():
    # About 54 estimators: an empty registry would make the parametrized tests vacuous.
    assert len(ESTIMATORS) >= 50
    names = {name for name, _ in DOCTESTS}
    assert {name for name, _ in ESTIMATORS} <= names


@pytest.mark.parametrize("name, cls", ESTIMATORS, ids=[name for name, _ in ESTIMATORS])
def test_estimator_has_examples(name, cls):
    section = examples_section(cls.__doc__)
    assert section is not None, f"{name}: the docstring has no numpydoc 'Examples' section"
    assert ">>>" in section, f"{name}: the 'Examples' section has no '>>>' example"


def test_examples_section_detector():
    # The check above must be able to fail: no section, a section without '>>>', and '>>>'
    # lines that sit in another section are all rejected.
    assert examples_section("Summary.\n\n    Parameters\n    ----------\n    a : int\n") is None
    no_prompt = "Summary.\n\n    Examples\n    --------\n    Fit it on iris.\n"
    assert ">>>" not in examples_section(no_prompt)
    elsewhere = (
        "Summary.\n\n    Examples\n    --------\n    See the guide.\n\n"
        "    Notes\n    -----\n    >>> 1 + 1\n    2\n"
    )
    assert ">>>" not in examples_section(elsewhere)
    good = "Summary.\n\n    Examples\n    --------\n    >>> print(1 + 1)\n    2\n"
    assert examples_section(good).startswith(">>> print(1 + 1)")


@pytest.mark.parametrize("name, obj", DOCTESTS, ids=[name for name, _ in DOCTESTS])
def test_docstring_examples_run(name, obj, default_printoptions):
    tests = doctest.DocTestFinder(recurse=False).find(obj, name, globs={})
    assert tests and any(t.examples for t in tests), f"{name}: no doctest found"
    runner = doctest.DocTestRunner(optionflags=OPTIONFLAGS)
    report = []
    failed = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for test in tests:
            failed += runner.run(test, out=report.append).failed
    assert failed == 0, "".join(report)
    # An example must not warn (no ConvergenceWarning, no RuntimeWarning from bad numerics):
    # a user copying it should see exactly what it shows. Deprecation noise of other libraries
    # is not the example's fault.
    ignored = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)
    raised = [w for w in caught if not issubclass(w.category, ignored)]
    assert not raised, f"{name}: the example warns: " + "; ".join(
        f"{w.category.__name__}: {w.message}" for w in raised
    )

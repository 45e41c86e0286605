"""The compiled kernels of the package obey the rules that keep a first call short.

DESIGN.md: every jitted function is cached (``cache=True``), so a user compiles it once per
machine. And none compiles a C-callable wrapper (``no_cfunc_wrapper=True``): nothing in the
package calls a kernel through a C pointer, and each wrapper is compiled, then linked into every
caller's module and optimised again (about 6% of the LLVM IR of a cold SVC fit; a cold SVC fit
5.6 -> 5.35 s and a cold 10-tree forest 3.3 -> 2.95 s on a 2-core VM, medians of four interleaved
pairs). A kernel added without these options fails here by name. Functions that are only ever
inlined (``inline="always"``) are never compiled on their own, so neither rule concerns them.
No kernel is compiled by this test: it reads the dispatchers' options.
"""

import importlib
import pkgutil

import pytest

numba = pytest.importorskip("numba")

from numba.core.caching import NullCache  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402

import scratchlearn  # noqa: E402


def _kernels():
    """{qualified name: dispatcher} of every jitted function defined in a scratchlearn module
    (every module is imported: one that fails to import fails the test)."""
    found = {}
    for info in pkgutil.walk_packages(scratchlearn.__path__, "scratchlearn."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == module.__name__:
                found[f"{module.__name__}.{name}"] = obj
    return found


def _compiled_alone(dispatcher):
    return dispatcher.targetoptions.get("inline", "never") == "never"


def test_the_walk_finds_the_kernels():
    # the families with kernels: a walk that found none would make the tests below vacuous
    names = set(_kernels())
    for kernel in (
        "scratchlearn.svm._smo_kernels.smo_loop",
        "scratchlearn.tree._builder.build_tree",
        "scratchlearn.cluster._kmeans_kernels._lloyd_rows",
        "scratchlearn.linear_model._cd_kernels._working_sets",
        "scratchlearn.neighbors._kd_tree_kernels.query_knn",
    ):
        assert kernel in names
    assert len(names) >= 90


def test_every_kernel_is_cached():
    uncached = [
        name
        for name, d in _kernels().items()
        if _compiled_alone(d) and isinstance(d._cache, NullCache)
    ]
    assert uncached == []


def test_no_kernel_compiles_a_c_wrapper():
    with_wrapper = [
        name
        for name, d in _kernels().items()
        if _compiled_alone(d) and not d.targetoptions.get("no_cfunc_wrapper")
    ]
    assert with_wrapper == []

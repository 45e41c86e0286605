"""The one list of public estimators, gathered from the families.

The command line, the demo, the common checks, the model-file round trip and the benchmarks all
read this list. Each family declares its own entries in ``<package>/_entries.py``; this module
holds only the machinery: :class:`Entry`, :class:`Family`, the look-up by name or alias, and
:func:`family_packages`, which finds the families on disk: every subpackage holding an
``_entries.py``. No list of families is written anywhere else.

An entry states what the class cannot: the family it belongs to, a one-line summary, the demo's
dataset and parameters, the scikit-learn counterpart. Its public ``module`` comes from the family
and its ``task`` from the class itself (:func:`task_of`: the mixins of :mod:`scratchlearn.base`,
"text" for estimators that read documents, "sequence" for sequence labellers, "neighbors" for
an index answering ``kneighbors``), so it is never written twice. What the command line draws
and prints for an estimator is read from the fitted model too (:mod:`scratchlearn.cli._tasks`),
so an entry names no module of the layers above it.

Loading is lazy. The ``_entries.py`` files are found by listing the package's folders and read
without importing their package (whose ``__init__`` imports the model code), so listing the
registry imports no model module; a class is imported the first time ``entry.cls`` or
``entry.task`` is asked for.

Adding a family
---------------
1. Write the family's package ``scratchlearn/<package>/`` with its model code.
2. Write ``scratchlearn/<package>/_entries.py`` defining ``FAMILY = Family(...)``::

       from scratchlearn._registry import Entry, Family

       FAMILY = Family(
           name="cluster",
           title="k-means and k-medoids",
           order=110,
           entries=[
               Entry(name="KMeans", summary="Lloyd's iterations", dataset="iris",
                     sklearn="sklearn.cluster.KMeans"),
           ],
           stories=("scratchlearn.cluster._showcase",),
       )

   Keyword arguments only. ``module`` defaults to ``scratchlearn.<package>``; ``order`` places
   the family in ``scratchlearn list``, the demo and the gallery (the course's order: optim
   10, ..., structured 140). A story module defines ``showcase() -> str`` (printed by
   ``scratchlearn demo``) and may define ``figures()`` (see :mod:`scratchlearn.cli._demo`).
3. Write ``benchmarks/cases_<package>.py`` (found by ``benchmarks/run.py``) and
   ``tests/<package>/``. The registry finds the new folder by its ``_entries.py``; the common
   checks, the bad-input catalogue, the model-file round trip, the CLI and the demo read the
   registry and cover the new estimators: no file outside the new folder is edited.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
from dataclasses import dataclass, field, replace
from functools import cache

__all__ = [
    "Entry",
    "Family",
    "TASKS",
    "all_estimators",
    "all_families",
    "dask_estimators",
    "family_packages",
    "get_entry",
    "kebab",
    "task_of",
]

#: Every task an estimator can have (see :func:`task_of`).
TASKS = (
    "classifier",
    "regressor",
    "clusterer",
    "transformer",
    "text",
    "ranker",
    "sequence",
    "neighbors",
)


def kebab(name: str) -> str:
    """``LogisticRegression`` → ``logistic-regression``, ``MultinomialNB`` → ``multinomial-nb``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "-", name).lower()


def task_of(cls) -> str:
    """The task of an estimator class, read from its mixins and tags.

    "sequence" when it labels sequences (``X_types`` has "sequences": lists of token lists);
    "text" when it reads documents only (``X_types`` has "text" and no "2darray"), else
    "ranker", "classifier", "regressor", "clusterer" or "transformer" by the
    :mod:`scratchlearn.base` mixin it inherits (a ranker is asked first: scikit-learn sees it
    as a regressor); else "neighbors" for an index of its training rows, which answers
    ``kneighbors`` and has no prediction, transform or labels. Raises ``TypeError`` for a class
    with none of them.
    """
    from .base import ClassifierMixin, ClusterMixin, RankerMixin, RegressorMixin, TransformerMixin

    x_types = cls()._scratch_tags()["X_types"]  # __init__ only stores defaults: cheap
    if "sequences" in x_types:
        return "sequence"
    if "text" in x_types and "2darray" not in x_types:
        return "text"
    mixins = (
        (RankerMixin, "ranker"),
        (ClassifierMixin, "classifier"),
        (RegressorMixin, "regressor"),
        (ClusterMixin, "clusterer"),
        (TransformerMixin, "transformer"),
    )
    for mixin, task in mixins:
        if issubclass(cls, mixin):
            return task
    if callable(getattr(cls, "kneighbors", None)):
        return "neighbors"
    raise TypeError(f"{cls.__name__} has no task: it inherits none of the base mixins")


@dataclass(frozen=True, kw_only=True)
class Entry:
    """One registered estimator.

    name : class name; summary : one line; dataset : showcase dataset for the demo and
    ``scratchlearn fit``; demo_params : hyperparameters the demo uses; sklearn : dotted path of
    the scikit-learn counterpart (benchmarks and oracles); check_params : hyperparameters that
    keep the common checks fast; expected_failed_checks : common checks known to fail, each
    with its reason; common_checks : False for estimators outside the scikit-learn estimator
    API (e.g. fit(y)). ``module`` (public module exporting the class) and ``family`` are filled
    in from the :class:`Family`; ``task`` is derived from the class (:func:`task_of`). What
    ``scratchlearn fit --plot`` draws and what it prints after the scores are read from the
    fitted model (:func:`scratchlearn.cli._tasks.own_picture`), not declared here.
    """

    name: str
    summary: str
    dataset: str | None = None
    demo_params: dict = field(default_factory=dict)
    sklearn: str | None = None
    check_params: dict = field(default_factory=dict)
    expected_failed_checks: dict = field(default_factory=dict)
    common_checks: bool = True
    module: str = ""
    family: str = ""

    @property
    def alias(self) -> str:
        return kebab(self.name)

    @property
    def cls(self):
        return getattr(importlib.import_module(self.module), self.name)

    @property
    def task(self) -> str:
        """One of :data:`TASKS` (imports the class)."""
        return _task_of_entry(self.module, self.name)

    def make(self, **params):
        """A new instance with ``check_params`` overridden by ``params``."""
        return self.cls(**{**self.check_params, **params})


@cache
def _task_of_entry(module: str, name: str) -> str:
    return task_of(getattr(importlib.import_module(module), name))


@dataclass(frozen=True, kw_only=True)
class Family:
    """A family's declaration: its entries, a title for ``scratchlearn list``, its demo stories.

    ``order`` places the family in ``scratchlearn list``, the demo and the gallery (families
    are sorted by ``order``, then by name). ``module`` is the public module exporting the
    classes (default ``scratchlearn.<package>``). ``stories`` are modules defining
    ``showcase() -> str`` (and optionally ``figures()``).
    """

    name: str
    title: str
    order: int = 1000
    entries: list = field(default_factory=list)
    module: str | None = None
    stories: tuple = ()


#: The folder of the ``scratchlearn`` package, where the families' folders are found.
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def family_packages() -> tuple[str, ...]:
    """The subpackages of ``scratchlearn`` that declare a family: the folders holding an
    ``_entries.py``, found by listing the package's folder (nothing is imported), by name."""
    return tuple(
        sorted(
            d.name
            for d in os.scandir(_PACKAGE_DIR)
            if d.is_dir() and os.path.isfile(os.path.join(d.path, "_entries.py"))
        )
    )


def _read_entries_file(package: str):
    """``scratchlearn/<package>/_entries.py`` executed on its own (its package is not imported)."""
    path = os.path.join(_PACKAGE_DIR, package, "_entries.py")
    name = f"{__package__}.{package}._entries"
    entries_spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(entries_spec)
    entries_spec.loader.exec_module(module)
    return module.FAMILY


@cache
def all_families() -> tuple[Family, ...]:
    """The families of :func:`family_packages`, their entries completed with module and family,
    sorted by their ``order`` (then name)."""
    families = []
    for package in family_packages():
        fam = _read_entries_file(package)
        module = fam.module or f"{__package__}.{package}"
        entries = [replace(e, module=module, family=fam.name) for e in fam.entries]
        families.append(replace(fam, module=module, entries=entries))
    return tuple(sorted(families, key=lambda fam: (fam.order, fam.name)))


def _entries() -> list[Entry]:
    return [e for fam in all_families() for e in fam.entries]


def _normal(name: str) -> str:
    """The look-up key of a name: lower case, without spaces, hyphens and underscores, so
    ``AdaBoostClassifier``, ``ada-boost-classifier`` and ``adaboost_classifier`` all agree."""
    return re.sub(r"[\s_-]", "", name.lower())


@cache
def _by_key() -> dict:
    """Normalised class name and alias -> entry; two entries sharing a key are a bug."""
    keys = {}
    for e in _entries():
        key = _normal(e.name)  # the alias normalises to the same key
        if key in keys:
            raise RuntimeError(f"{keys[key].name} and {e.name} share the look-up key {key!r}")
        keys[key] = e
    return keys


def __getattr__(name):  # FAMILIES is computed on first use, not at import
    if name == "FAMILIES":
        return {fam.name: fam.title for fam in all_families()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def all_estimators(family: str | None = None, task: str | None = None) -> list[Entry]:
    """Registered estimators, optionally of one family or task, in table order.

    Filtering by ``task`` imports the classes (the task is read from them).
    """
    return [
        e
        for e in _entries()
        if (family is None or e.family == family) and (task is None or e.task == task)
    ]


def dask_estimators() -> list[str]:
    """Names of the registered estimators whose fit accepts Dask input (their tag ``"dask"``):
    what :mod:`scratchlearn.utils._dask` names when it refuses Dask input (handed down to it by
    ``scratchlearn/__init__.py``). Imports every class, once, when first asked."""
    return [e.name for e in _entries() if _fits_on_dask(e.module, e.name)]


@cache
def _fits_on_dask(module: str, name: str) -> bool:
    cls = getattr(importlib.import_module(module), name)
    return bool(cls()._scratch_tags()["dask"])  # __init__ only stores defaults: cheap


def _closest(key: str, keys) -> list:
    """Keys that begin with ``key``, or that ``key`` begins with ("random-forest" and
    "lasso-regression" both find what was meant), else the nearest spellings by difflib (those
    within 0.1 of the best one's similarity, so a near-exact match comes alone)."""
    begins = [
        k for k in keys if min(len(k), len(key)) >= 3 and (k.startswith(key) or key.startswith(k))
    ]
    if begins:
        return begins[:4]
    import difflib  # only when a name was misspelt: it costs import scratchlearn 10-20 ms

    similarity = {k: difflib.SequenceMatcher(None, key, k).ratio() for k in keys}
    near = difflib.get_close_matches(key, keys, n=3)
    return [k for k in near if similarity[k] >= similarity[near[0]] - 0.1]


def get_entry(name: str) -> Entry:
    """Look up an estimator by class name or alias, ignoring case, hyphens and underscores.

    Raises ``KeyError`` whose message suggests the closest names, or lists them all.
    """
    key, keys = _normal(name), _by_key()
    if key in keys:
        return keys[key]
    close = [keys[k].alias for k in _closest(key, keys)]
    if close:
        hint = "did you mean " + " or ".join(filter(None, [", ".join(close[:-1]), close[-1]])) + "?"
    else:
        hint = "choose one of: " + ", ".join(e.alias for e in _entries())
    raise KeyError(f"unknown estimator {name!r}; {hint}")

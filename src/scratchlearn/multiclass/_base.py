"""The shell both multi-class strategies share: the base learner, its score, the classes.

Symbols: ``n`` samples, ``K`` classes ``c_1 < … < c_K`` (``classes_``), ``h`` a binary learner
trained on 0/1 targets, ``s_h(x)`` its real-valued score for class 1.

Each strategy reduces a K-class problem to binary problems, trains a clone of ``estimator`` on
each (on threads when ``n_jobs`` > 1: the learners are independent, so the result does not
depend on it) and combines the scores

.. math::  s_h(x) = \\begin{cases} h.\\mathrm{decision\\_function}(x) & \\text{if } h
           \\text{ has one,} \\\\ P_h(1 \\mid x) & \\text{otherwise,} \\end{cases}

as scikit-learn's meta-estimators do, so that theirs wrapping one of our learners and ours give
the same numbers.
"""

from __future__ import annotations

import numpy as np

from ..base import BaseEstimator, ClassifierMixin, clone
from ..utils._available_if import available_if
from ..utils._param_validation import N_JOBS, HasMethods
from ..utils.multiclass import check_classification_targets, encode_classes
from ..utils.parallel import n_workers, run_tasks

__all__ = ["_BaseMultiClass", "binary_score", "has_method"]


def binary_score(h, X):
    """``s_h(X)`` (n,): the decision function of ``h`` when it has one, else P_h(1 | x)."""
    if hasattr(h, "decision_function"):
        return np.ravel(h.decision_function(X))
    return h.predict_proba(X)[:, 1]


def _fit_clone(base, X, t):
    """A clone of ``base`` fitted on (X, t); one task of :func:`run_tasks`."""
    return clone(base).fit(X, t)


def is_pairwise(estimator) -> bool:
    """Does ``estimator`` read X as a precomputed (n, n) kernel or distance matrix?"""
    tags = getattr(estimator, "_scratch_tags", None)
    return bool(tags is not None and tags().get("pairwise", False))


def has_method(name):
    """``available_if``: the method exists when the fitted (or else the given) learner has it."""

    def check(meta):
        learners = getattr(meta, "estimators_", None) or [meta._base()]
        return hasattr(learners[0], name)

    return available_if(check, f"its estimator has no {name}.")


class _BaseMultiClass(ClassifierMixin, BaseEstimator):
    """Parameters, validation and threads of the two strategies (see the module docstring)."""

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "classes_": ("label", ("n_classes_",)),
        "estimators_": ("[estimator]", ("*",)),
    }

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "n_jobs": N_JOBS,
    }

    def __init__(self, estimator=None, *, n_jobs=None):
        self.estimator = estimator
        self.n_jobs = n_jobs

    def _base(self):
        """The learner to clone: ``estimator``, or ``LogisticRegression()`` when None."""
        if self.estimator is not None:
            return self.estimator
        from ..linear_model import LogisticRegression

        return LogisticRegression()

    def _scratch_tags(self):
        t = super()._scratch_tags()
        base = self._base()
        t.update(pairwise=is_pairwise(base))
        if hasattr(base, "_scratch_tags"):
            t.update(X_types=base._scratch_tags()["X_types"])
        return t

    def _check_fit(self, X, y):
        """Every parameter and data error, before any learner is fitted: (base, X, codes)."""
        self._validate_params()
        n_workers(self.n_jobs)
        base = self._base()
        if not (hasattr(base, "decision_function") or hasattr(base, "predict_proba")):
            raise ValueError(
                f"{type(self).__name__} needs an estimator with decision_function or "
                f"predict_proba; {type(base).__name__} has neither."
            )
        X, y = self._validate_data(X, y, accept_sparse=("csr", "csc"), dtype=np.float64)
        check_classification_targets(y)
        self.classes_, codes = encode_classes(y, type(self).__name__)
        return base, X, codes

    @property
    def n_classes_(self) -> int:
        return len(self.classes_)

    def _fit_learners(self, base, X, targets):
        """``[clone(base).fit(X_k, t_k) for (X_k, t_k) in targets]``, on ``n_jobs`` threads."""
        return run_tasks(_fit_clone, [(base, Xk, tk) for Xk, tk in targets], self.n_jobs)

    def _scores(self, Xs):
        """(n, L) scores ``s_h`` of the L learners, learner l reading ``Xs[l]``."""
        tasks = list(zip(self.estimators_, Xs))
        return np.column_stack(run_tasks(binary_score, tasks, self.n_jobs))

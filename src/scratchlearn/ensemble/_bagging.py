"""Bagging (Breiman 1996): average B copies of a learner, each fitted to its own random sample.

Symbols: n rows, d features, B = ``n_estimators``. Learner b sees the rows ``S_b`` (m draws of
{0..n−1}, with replacement when ``bootstrap``, m = ``max_samples``) and the features ``F_b``
(k of d, with replacement when ``bootstrap_features``, k = ``max_features``). The ensemble

.. math::  \\hat f(x) = \\frac{1}{B} \\sum_b \\hat f_b(x_{F_b})

averages the regressors' predictions, or the classifiers' class probabilities (``predict_proba``;
a learner without it casts a one-hot vote), and predicts the class of largest average. Averaging
B learners whose errors have variance σ² and pairwise correlation ρ leaves variance
``ρσ² + (1 − ρ)σ²/B``: bagging helps unstable, low-bias learners such as deep trees.

A bootstrap sample reaches a learner as integer ``sample_weight`` (row i counted c_i times) when
its ``fit`` accepts weights, so X is never copied; otherwise the rows are indexed. A row left out
of ``S_b`` (probability (1 − 1/n)ⁿ ≈ e⁻¹ ≈ 0.37 for m = n) is *out of bag* for learner b: the
average over the learners that did not see a row is an honest prediction for it, and
``oob_score_`` scores those predictions (accuracy or R²) over the rows that have one.

Randomness: one seed per learner is drawn from ``random_state`` before any fitting
(:func:`~scratchlearn.utils.parallel.spawn_seeds`); learner b draws its rows and features from its
own seed and gets that seed as its ``random_state``. So ``n_jobs`` (threads) never changes the
result, and ``warm_start`` adding learners equals fitting them at once.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..base import BaseEstimator, ClassifierMixin, RegressorMixin
from ..metrics import r2_score
from ..tree import DecisionTreeClassifier, DecisionTreeRegressor
from ..utils._param_validation import N_JOBS, Fraction, HasMethods, Interval
from ..utils.multiclass import check_classification_targets, class_codes
from ..utils.parallel import n_workers, progress_bar, run_tasks, spawn_seeds
from ..utils.validation import check_is_fitted, check_random_state, check_sample_weight
from ._base import (
    accepts_sample_weight,
    accumulate_oob,
    as_count,
    check_grows,
    check_oob_needs_bootstrap,
    oob_mean,
    seeded_clone,
)

__all__ = ["BaggingClassifier", "BaggingRegressor"]


def _draw(seed, n, m, d, k, bootstrap, bootstrap_features):
    """Rows S_b (m of n) and features F_b (k of d) of one learner, from its own seed."""
    rng = np.random.default_rng(seed)
    features = rng.integers(0, d, k) if bootstrap_features else np.sort(rng.permutation(d)[:k])
    rows = rng.integers(0, n, m) if bootstrap else np.sort(rng.permutation(n)[:m])
    return rows, features


def _fit_one(base, X, y, sw, rows, features, seed, weighted):
    """Fit a clone of ``base`` on X[rows][:, features] (rows as integer weights if ``weighted``)."""
    est = seeded_clone(base, seed)
    Xf = (
        X
        if features.shape[0] == X.shape[1] and np.all(features == np.arange(X.shape[1]))
        else (X[:, features])
    )
    if weighted:
        counts = np.bincount(rows, minlength=X.shape[0]).astype(np.float64)
        return est.fit(Xf, y, sample_weight=counts if sw is None else counts * sw)
    if sw is None:
        return est.fit(Xf[rows], y[rows])
    return est.fit(Xf[rows], y[rows], sample_weight=sw[rows])


class _BaseBagging(BaseEstimator):
    """Sampling, seeding, threads and the out-of-bag bookkeeping of both bagging estimators."""

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "estimators_": ("[estimator]", ("n_estimators",)),
        "estimators_samples_": ("[int]", ("n_estimators", "*")),
        "estimators_features_": ("[int]", ("n_estimators", "*")),
        "oob_score_": ("float64", (), "optional"),
        "oob_decision_function_": ("float64", ("n_samples", "n_classes_"), "optional"),
        "oob_prediction_": ("float64", ("n_samples",), "optional"),
    }

    def _check_fitted_state(self):
        """Learner i sees the features estimators_features_[i], all below n_features_in_."""
        for i, (h, f) in enumerate(zip(self.estimators_, self.estimators_features_)):
            if (
                np.any(f < 0)
                or np.any(f >= self.n_features_in_)
                or getattr(h, "n_features_in_", None) != len(f)
            ):
                raise ValueError(
                    f"estimators_features_[{i}] does not match estimators_[{i}] or n_features_in_"
                )

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_samples": [Interval(numbers.Integral, 1, None, closed="left"), Fraction()],
        "max_features": [Interval(numbers.Integral, 1, None, closed="left"), Fraction()],
        "bootstrap": ["boolean"],
        "bootstrap_features": ["boolean"],
        "oob_score": ["boolean"],
        "warm_start": ["boolean"],
        "n_jobs": N_JOBS,
        "random_state": ["random_state"],
        "verbose": [Interval(numbers.Integral, 0, None, closed="left"), "boolean"],
    }

    def __init__(
        self,
        estimator=None,
        n_estimators=10,
        *,
        max_samples=1.0,
        max_features=1.0,
        bootstrap=True,
        bootstrap_features=False,
        oob_score=False,
        warm_start=False,
        n_jobs=None,
        random_state=None,
        verbose=0,
    ):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.bootstrap_features = bootstrap_features
        self.oob_score = oob_score
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def _check_options(self, n: int, d: int):
        """Every option error, before any work: (m, k, base)."""
        check_oob_needs_bootstrap(self)
        if self.oob_score and self.warm_start:
            raise ValueError("oob_score=True is not available with warm_start=True.")
        n_workers(self.n_jobs)
        m = as_count(self.max_samples, n, "max_samples", "rows")  # ⌊f·n⌋, as scikit-learn
        k = as_count(self.max_features, d, "max_features", "features")
        base = self._default() if self.estimator is None else self.estimator
        return m, k, base

    def _fit(self, X, y, sample_weight):
        n, d = X.shape
        m, k, base = self._check_options(n, d)
        sw = None if sample_weight is None else check_sample_weight(sample_weight, X)
        weighted = accepts_sample_weight(base)
        if sw is not None and not weighted:
            raise ValueError(
                f"sample_weight was given, but {type(base).__name__}.fit does not accept it."
            )
        if not self.warm_start or not hasattr(self, "estimators_"):
            self.estimators_, self.estimators_samples_, self.estimators_features_ = [], [], []
        have = len(self.estimators_)
        check_grows(self, have, "learners")
        seeds = spawn_seeds(check_random_state(self.random_state), self.n_estimators)[have:]
        draws = [_draw(s, n, m, d, k, self.bootstrap, self.bootstrap_features) for s in seeds]
        tasks = [(base, X, y, sw, r, f, s, weighted) for (r, f), s in zip(draws, seeds)]
        with progress_bar(self.verbose, len(tasks), type(self).__name__, "learner") as bar:
            fitted = run_tasks(_fit_one, tasks, self.n_jobs, progress=bar)
        self.estimators_ += fitted
        self.estimators_samples_ += [r for r, _ in draws]
        self.estimators_features_ += [f for _, f in draws]
        self.n_features_in_ = d
        if self.oob_score:
            self._set_oob(X, y)
        return self

    def _outputs(self, X):
        """Each learner's output on its own features (threads when n_jobs > 1)."""
        tasks = [(h, X[:, f]) for h, f in zip(self.estimators_, self.estimators_features_)]
        return run_tasks(self._one_output, tasks, self.n_jobs)

    def _oob_pieces(self, X, width):
        """(O_b, f_b(x_{O_b}) (|O_b|, width)) for each learner b that left some row out."""
        n = X.shape[0]
        for h, rows, f in zip(
            self.estimators_, self.estimators_samples_, self.estimators_features_
        ):
            out = np.setdiff1d(np.arange(n), rows)  # O_b: the rows S_b missed, ascending
            if out.size:
                yield out, self._one_output(h, X[out][:, f]).reshape(out.size, width)

    def _oob_mean(self, X, width):
        """(OOB mean output (n, width), NaN for rows in every sample; mask of the others)."""
        sums, seen = accumulate_oob(self._oob_pieces(X, width), X.shape[0], width)
        return oob_mean(sums, seen, "estimator", stacklevel=5)  # (the caller of fit)


class BaggingClassifier(ClassifierMixin, _BaseBagging):
    """Bagging of a classifier: the average of the learners' class probabilities.

    The mathematics is in the module docstring of :mod:`scratchlearn.ensemble._bagging`.

    Parameters
    ----------
    estimator : classifier or None
        Default ``DecisionTreeClassifier()`` (fully grown).
    n_estimators : int >= 1
    max_samples, max_features : int >= 1 or float in (0, 1]
        Rows m and features k per learner (a fraction of n or d; an int larger than n or d is an
        error).
    bootstrap, bootstrap_features : bool
        Draw rows / features with replacement.
    oob_score : bool
        Score the out-of-bag predictions (needs ``bootstrap``).
    warm_start : bool
        Keep the fitted learners and add new ones up to ``n_estimators``.
    n_jobs : int or None
        Threads fitting and predicting learners; the results do not depend on it.
    random_state : None, int or Generator
    verbose : int
        A tqdm progress bar over learners when > 0.

    Attributes
    ----------
    estimators_, estimators_samples_ (the drawn row indices, with repeats),
    estimators_features_, classes_, n_classes_, n_features_in_, and with ``oob_score``:
    oob_score_, oob_decision_function_ (NaN for rows never out of bag).

    Examples
    --------
    >>> from scratchlearn.datasets import load_breast_cancer
    >>> from scratchlearn.ensemble import BaggingClassifier
    >>> from scratchlearn.model_selection import train_test_split
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> bag = BaggingClassifier(n_estimators=10, random_state=0).fit(X_train, y_train)
    >>> print(len(bag.estimators_), round(bag.score(X_test, y_test), 3))
    10 0.944
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"n_classes_": ("int", ()), "classes_": ("label", ("n_classes_",))}

    def _default(self):
        return DecisionTreeClassifier()

    def fit(self, X, y, sample_weight=None):
        """Fit the learners on their samples (integer-coded classes); returns self."""
        self._validate_params()
        X, y = self._validate_data(X, y, dtype=np.float64)
        check_classification_targets(y)
        classes, codes = class_codes(y)
        if (
            self.warm_start
            and hasattr(self, "classes_")
            and not np.array_equal(classes, self.classes_)
        ):
            raise ValueError("warm_start needs the same classes as the first fit.")
        self.classes_, self.n_classes_ = classes, len(classes)
        return self._fit(X, codes, sample_weight)

    def _one_output(self, h, X):
        """(n, K) probabilities of one learner, in the ensemble's class columns."""
        out = np.zeros((X.shape[0], self.n_classes_))
        cols = np.asarray(h.classes_, dtype=np.intp)
        if hasattr(h, "predict_proba"):
            out[:, cols] = h.predict_proba(X)
        else:
            out[np.arange(X.shape[0]), np.asarray(h.predict(X), dtype=np.intp)] = 1.0
        return out

    def _set_oob(self, X, codes):
        self.oob_decision_function_, has = self._oob_mean(X, self.n_classes_)
        pred = np.argmax(self.oob_decision_function_[has], axis=1)
        self.oob_score_ = float(np.mean(pred == codes[has]))

    def predict_proba(self, X):
        """(1/B) Σ_b p_b(x) (n, K)."""
        check_is_fitted(self)
        X = self._validate_data(X, reset=False, dtype=np.float64)
        return sum(self._outputs(X)) / len(self.estimators_)

    def predict_log_proba(self, X):
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X):
        """The class of largest average probability."""
        check_is_fitted(self)
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


class BaggingRegressor(RegressorMixin, _BaseBagging):
    """Bagging of a regressor: the average of the learners' predictions.

    Parameters and attributes as :class:`BaggingClassifier` (default learner
    ``DecisionTreeRegressor()``), with ``oob_prediction_`` (NaN for rows never out of bag) in
    place of ``oob_decision_function_`` and R² as ``oob_score_``.

    Examples
    --------
    >>> from scratchlearn.datasets import load_diabetes
    >>> from scratchlearn.ensemble import BaggingRegressor
    >>> from scratchlearn.model_selection import train_test_split
    >>> X, y = load_diabetes(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> bag = BaggingRegressor(n_estimators=10, random_state=0).fit(X_train, y_train)
    >>> print(len(bag.estimators_), round(bag.score(X_test, y_test), 2))
    10 0.38
    """

    def _default(self):
        return DecisionTreeRegressor()

    def fit(self, X, y, sample_weight=None):
        """Fit the learners on their samples; returns self."""
        self._validate_params()
        X, y = self._validate_data(X, y, dtype=np.float64, y_numeric=True)
        return self._fit(X, np.asarray(y, dtype=np.float64), sample_weight)

    def _one_output(self, h, X):
        return np.asarray(h.predict(X), dtype=np.float64)

    def _set_oob(self, X, y):
        pred, has = self._oob_mean(X, 1)
        self.oob_prediction_ = pred[:, 0]
        self.oob_score_ = float(r2_score(y[has], self.oob_prediction_[has]))

    def predict(self, X):
        """(1/B) Σ_b f_b(x)."""
        check_is_fitted(self)
        X = self._validate_data(X, reset=False, dtype=np.float64)
        return sum(self._outputs(X)) / len(self.estimators_)

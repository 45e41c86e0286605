"""Hyperparameter search by exhaustive grid and K-fold cross-validation.

Symbols
-------
θ_j : the j-th candidate setting of the hyperparameters (j = 0..J-1)
s_jk : test score of θ_j on fold k (k = 0..K-1)
s̄_j = (1/K) Σ_k s_jk : mean test score,  σ_j = sqrt((1/K) Σ_k (s_jk − s̄_j)²) : its spread

:class:`GridSearchCV` fits every candidate θ_j of a :class:`ParameterGrid` on every fold, ranks
the candidates by s̄_j (rank 1 is best; equal means share the lowest rank; failed candidates, whose
mean is NaN, rank last), chooses ``j* = argmin rank`` (the first of equals), and refits θ_j* on
all the data. It is itself an estimator: ``predict`` and friends go to the refitted model.
"""

from __future__ import annotations

import numbers
import time
import warnings
from collections.abc import Mapping, Sequence
from itertools import product

import numpy as np

from ..base import BaseEstimator, clone
from ..utils._available_if import available_if
from ..utils._param_validation import N_JOBS, HasMethods, Interval, StrOptions
from ..utils.parallel import progress_bar, run_tasks
from ..utils.validation import check_is_fitted
from ._split import check_cv
from ._validation import (
    _accepts_sample_weight,
    _check_scoring,
    _check_xy_groups,
    _estimator_kind,
    _fit_and_score,
    _query_score_params,
    _warn_or_raise_failures,
)

__all__ = ["ParameterGrid", "GridSearchCV"]


class ParameterGrid:
    """Every combination of the values of a grid, in a fixed order.

    ``param_grid`` is a dict ``{name: [values]}`` or a list of such dicts (their candidates are
    concatenated). Within a dict the names are sorted and the last name varies fastest, so
    ``{"b": [1, 2], "a": [3, 4]}`` gives ``a=3,b=1``, ``a=3,b=2``, ``a=4,b=1``, ``a=4,b=2``.
    """

    def __init__(self, param_grid):
        if isinstance(param_grid, Mapping):
            param_grid = [param_grid]
        if not isinstance(param_grid, Sequence) or isinstance(param_grid, str):
            raise TypeError(
                f"param_grid must be a dict or a list of dicts; got {type(param_grid).__name__}."
            )
        for grid in param_grid:
            if not isinstance(grid, Mapping):
                raise TypeError(f"param_grid must be a dict or a list of dicts; got {grid!r}.")
            for name, values in grid.items():
                if not isinstance(name, str):
                    raise TypeError(f"Parameter names must be strings; got {name!r}.")
                if isinstance(values, np.ndarray) and values.ndim > 1:
                    raise ValueError(
                        f"Parameter array for {name!r} should be one-dimensional, got "
                        f"shape {values.shape}."
                    )
                if isinstance(values, (str, bytes)) or not isinstance(
                    values, (Sequence, np.ndarray)
                ):
                    raise TypeError(
                        f"Parameter grid for parameter {name!r} needs to be a list or a numpy "
                        f"array, but got {values!r} (of type {type(values).__name__}) instead. "
                        "A single value needs to be wrapped in a list with one element."
                    )
                if len(values) == 0:
                    raise ValueError(
                        f"Parameter grid for parameter {name!r} needs to be a non-empty sequence."
                    )
        self.param_grid = list(param_grid)

    def __iter__(self):
        for grid in self.param_grid:
            names = sorted(grid)
            for combo in product(*(list(grid[n]) for n in names)):
                yield dict(zip(names, combo))

    def __len__(self) -> int:
        return sum(int(np.prod([len(v) for v in g.values()])) for g in self.param_grid)

    def __getitem__(self, index):
        if index < 0:
            index += len(self)
        if index < 0:
            raise IndexError("ParameterGrid index out of range")
        for grid in self.param_grid:
            names = sorted(grid)
            sizes = [len(grid[n]) for n in names]
            total = int(np.prod(sizes))
            if index >= total:
                index -= total
                continue
            out = {}
            for name, size in zip(reversed(names), reversed(sizes)):  # last name fastest
                index, pos = divmod(index, size)
                out[name] = list(grid[name])[pos]
            return dict(sorted(out.items()))
        raise IndexError("ParameterGrid index out of range")


def _delegate(name):
    """A method that forwards to ``best_estimator_.<name>``, present when the estimator has it."""

    def check(self):
        inner = self.best_estimator_ if hasattr(self, "best_estimator_") else self.estimator
        return hasattr(inner, name)

    def method(self, *args, **kwargs):
        self._check_refitted(name)
        return getattr(self.best_estimator_, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"``{name}`` of the estimator refitted with the best parameters."
    return available_if(check, f"the estimator it searches over has no {name!r}.")(method)


def _rank_min(means):
    """Rank 1 for the largest mean, equal means share the lowest rank, NaN ranks last."""
    means = np.asarray(means, dtype=float)
    if np.all(np.isnan(means)):
        return np.ones(len(means), dtype=np.int32)
    filled = np.where(np.isnan(means), np.nanmin(means) - 1.0, means)
    # rank_j = 1 + #{i : s̄_i > s̄_j}
    return (1 + np.sum(filled[None, :] > filled[:, None], axis=1)).astype(np.int32)


def _param_column(candidates, name):
    """``param_<name>`` of cv_results_: a masked array, masked where a candidate lacks it."""
    mask = np.array([name not in c for c in candidates])
    present = [c[name] for c in candidates if name in c]
    dtype = object
    try:
        arr = np.array(present)
        if arr.ndim == 1 and arr.dtype.kind in "biuf":
            dtype = arr.dtype
    except (ValueError, TypeError):
        pass
    data = np.empty(len(candidates), dtype=object)
    for j, c in enumerate(candidates):
        data[j] = c.get(name)
    if dtype is not object:
        data = np.array([c.get(name, 0) for c in candidates], dtype=dtype)
    return np.ma.MaskedArray(data, mask=mask, dtype=dtype)


class GridSearchCV(BaseEstimator):
    """Exhaustive search over a parameter grid, scored by cross-validation.

    Each candidate θ_j of ``ParameterGrid(param_grid)`` is fitted on the training part of every
    fold and scored on its test part; the candidate with the best mean test score s̄_j is refitted
    on all the data (``refit=True``).

    Parameters
    ----------
    estimator : estimator with ``fit``; cloned, never fitted itself.
    param_grid : dict or list of dicts of ``name -> list of values`` (nested names ``a__b``).
    scoring : None, str, callable, list or dict (see :func:`cross_validate`).
    n_jobs : None or int
        Run the fits on this many threads (-1: one per CPU); results do not depend on it.
    refit : bool, str or callable, default=True
        Refit the best candidate on all the data. With several scorers give the name of the one
        that picks the best; a callable takes ``cv_results_`` and returns ``best_index_``.
    cv : None, int, splitter or iterable of (train, test) pairs (see :func:`check_cv`).
    verbose : int, default=0
        > 0 shows a progress bar over the J·K fits on stderr; 0 is silent.
    error_score : 'raise' or number, default=nan
    return_train_score : bool, default=False

    Attributes
    ----------
    cv_results_ : dict of arrays, one entry per candidate (``params``, ``param_<name>``,
        ``split<k>_test_score``, ``mean_test_score``, ``std_test_score``, ``rank_test_score``,
        ``mean_fit_time``, ``std_fit_time``, ``mean_score_time``, ``std_score_time``; with several
        scorers ``_score`` becomes ``_<name>``).
    best_index_, best_params_, best_score_, best_estimator_, refit_time_, scorer_, n_splits_,
    multimetric_, classes_ (classifiers), n_features_in_.

    Examples
    --------
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.model_selection import GridSearchCV
    >>> from scratchlearn.neighbors import KNeighborsClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [1, 5, 15]}, cv=5).fit(X, y)
    >>> print(search.best_params_, round(search.best_score_, 3))
    {'n_neighbors': 5} 0.973
    >>> print(search.cv_results_["rank_test_score"].tolist())
    [3, 1, 2]
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"])],
        "param_grid": [dict, list],
        "scoring": [None, str, "callable", list, tuple, set, dict],
        "n_jobs": N_JOBS,
        "refit": ["boolean", str, "callable"],
        "cv": ["no_validation"],  # check_cv explains what cv may be
        "verbose": [Interval(numbers.Integral, 0, None, closed="left"), "boolean"],
        "error_score": [StrOptions({"raise"}), numbers.Real],
        "return_train_score": ["boolean"],
    }

    def __init__(
        self,
        estimator,
        param_grid,
        *,
        scoring=None,
        n_jobs=None,
        refit=True,
        cv=None,
        verbose=0,
        error_score=np.nan,
        return_train_score=False,
    ):
        self.estimator = estimator
        self.param_grid = param_grid
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.refit = refit
        self.cv = cv
        self.verbose = verbose
        self.error_score = error_score
        self.return_train_score = return_train_score

    # -- type and tags follow the searched estimator -----------------------------------------
    @property
    def _estimator_type(self):
        return _estimator_kind(self.estimator)

    def _scratch_tags(self) -> dict:
        t = super()._scratch_tags()
        inner = self.estimator
        if hasattr(inner, "_scratch_tags"):
            t.update(inner._scratch_tags())
            t["estimator_type"] = _estimator_kind(inner)  # a pipeline types itself by attribute
            return t
        t["estimator_type"] = _estimator_kind(inner)
        if hasattr(inner, "__sklearn_tags__"):
            try:  # a scikit-learn estimator: scikit-learn is importable
                st = inner.__sklearn_tags__()
            except Exception:  # noqa: BLE001 - untyped estimator, keep the defaults
                return t
            t.update(
                requires_y=st.target_tags.required,
                allow_nan=st.input_tags.allow_nan,
                pairwise=st.input_tags.pairwise,
                non_deterministic=st.non_deterministic,
            )
            if st.input_tags.sparse:
                t["X_types"] = t["X_types"] + ["sparse"]
        return t

    # -- fitting ---------------------------------------------------------------------------
    def _refit_metric(self, scorers, multimetric):
        if not multimetric:
            return "score"
        if callable(self.refit):
            return None
        if self.refit is False:
            return None
        if not isinstance(self.refit, str) or self.refit not in scorers:
            raise ValueError(
                "With several scorers, refit must be False, a callable, or the name of the "
                f"scorer that picks the best parameters (one of {sorted(scorers)}); got "
                f"refit={self.refit!r}."
            )
        return self.refit

    def fit(self, X, y=None, *, groups=None, **fit_params):
        """Score every candidate on every fold, pick the best, refit it on all the data."""
        self._validate_params()
        for stale in (
            "best_estimator_",
            "best_score_",
            "best_index_",
            "best_params_",
            "refit_time_",
        ):  # results of an earlier fit with other settings
            self.__dict__.pop(stale, None)
        X, y, groups = _check_xy_groups(X, y, groups, type(self).__name__, fit_params)
        if y is None and self._scratch_tags()["requires_y"]:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None: "
                f"{type(self.estimator).__name__} is supervised."
            )
        scorers, multimetric = _check_scoring(self.estimator, self.scoring)
        refit_metric = self._refit_metric(scorers, multimetric)
        candidates = list(ParameterGrid(self.param_grid))
        splitter = check_cv(self.cv, y, classifier=_estimator_kind(self.estimator) == "classifier")
        splits = list(splitter.split(X, y, groups))
        J, K = len(candidates), len(splits)
        tasks = [(c, tr, te) for c in candidates for tr, te in splits]  # candidate-major
        score_params = self._score_params(scorers, fit_params)

        def run(params, tr, te):
            return _fit_and_score(
                self.estimator,
                X,
                y,
                scorers,
                tr,
                te,
                parameters=params,
                fit_params=fit_params,
                return_train_score=self.return_train_score,
                error_score=self.error_score,
                score_params=score_params,
            )

        with progress_bar(self.verbose, J * K, f"GridSearchCV {J}x{K} fits", "fit") as bar:
            results = run_tasks(run, tasks, self.n_jobs, progress=bar)
        _warn_or_raise_failures(results)

        self.cv_results_ = self._format_results(candidates, scorers, results, J, K)
        self.multimetric_ = multimetric
        self.n_splits_ = K
        self.scorer_ = scorers if multimetric else scorers["score"]
        self._select_best(candidates, refit_metric)
        if self.refit:
            self._refit_best(X, y, fit_params)
        return self

    def _select_best(self, candidates, refit_metric):
        """Set ``best_index_``, ``best_params_`` (and ``best_score_``) from ``cv_results_``:
        the index a callable ``refit`` returns, else the candidate ranked first."""
        J = len(candidates)
        if callable(self.refit):
            index = self.refit(self.cv_results_)
            if not isinstance(index, numbers.Integral) or not 0 <= index < J:
                raise IndexError(
                    f"The refit callable returned {index!r}; it must return an int index into "
                    f"cv_results_ in [0, {J})."
                )
            self.best_index_ = int(index)
            self.best_params_ = candidates[self.best_index_]
        elif refit_metric is not None:
            self.best_index_ = int(np.argmin(self.cv_results_[f"rank_test_{refit_metric}"]))
            self.best_params_ = candidates[self.best_index_]
            self.best_score_ = float(
                self.cv_results_[f"mean_test_{refit_metric}"][self.best_index_]
            )

    def _refit_best(self, X, y, fit_params):
        """Fit a clone with ``best_params_`` on all the data as ``best_estimator_``."""
        best = clone(self.estimator).set_params(
            **{k: clone(v, safe=False) for k, v in self.best_params_.items()}
        )
        start = time.perf_counter()
        if y is None:
            best.fit(X, **fit_params)
        else:
            best.fit(X, y, **fit_params)
        self.refit_time_ = time.perf_counter() - start
        self.best_estimator_ = best

    def _score_params(self, scorers, fit_params):
        """A ``sample_weight`` given to fit also weights the scores, for scorers that take it.

        This is scikit-learn's rule (1.7+): a weighted fit evaluated unweighted would judge the
        candidates on a different population than the one they were fitted to. A ranker's
        ``qid`` goes to every scorer (each fold's slice), so NDCG is computed per query; give
        ``groups=qid`` with a group splitter as ``cv`` to keep each query in one fold.
        """
        out = _query_score_params(scorers, self.estimator, fit_params)  # a ranker's qid
        weights = fit_params.get("sample_weight")
        if weights is None:
            return out
        for name, scorer in scorers.items():
            if _accepts_sample_weight(scorer, self.estimator):
                out.setdefault(name, {})["sample_weight"] = weights
            else:
                warnings.warn(
                    f"The scorer {name!r} does not take sample_weight, so {type(self).__name__} "
                    "fitted with sample_weight scores its candidates unweighted.",
                    UserWarning,
                    stacklevel=3,
                )
        return out

    def _format_results(self, candidates, scorers, results, J, K):
        """cv_results_: flat per-fit results reshaped to (J candidates, K folds)."""
        out = {}

        def timing(key, name):
            a = np.array([r[key] for r in results], dtype=float).reshape(J, K)
            out[f"mean_{name}"] = a.mean(axis=1)
            out[f"std_{name}"] = a.std(axis=1)

        timing("fit_time", "fit_time")
        timing("score_time", "score_time")
        names = sorted({n for c in candidates for n in c})
        for name in names:
            out[f"param_{name}"] = _param_column(candidates, name)
        out["params"] = candidates
        sides = ["test"] + (["train"] if self.return_train_score else [])
        for scorer_name in scorers:
            suffix = "score" if len(scorers) == 1 and scorer_name == "score" else scorer_name
            for side in sides:
                a = np.array(
                    [r[f"{side}_scores"][scorer_name] for r in results], dtype=float
                ).reshape(J, K)  # (J, K)
                for k in range(K):
                    out[f"split{k}_{side}_{suffix}"] = a[:, k]
                mean = a.mean(axis=1)  # s̄_j
                out[f"mean_{side}_{suffix}"] = mean
                out[f"std_{side}_{suffix}"] = np.sqrt(np.mean((a - mean[:, None]) ** 2, axis=1))
                if side == "test":
                    out[f"rank_test_{suffix}"] = _rank_min(mean)
        return out

    # -- using the refitted model ------------------------------------------------------------
    def _check_refitted(self, what):
        if not self.refit:
            raise AttributeError(
                f"This {type(self).__name__} instance was initialized with refit=False. {what} is "
                "available only after refitting on the best parameters. You can refit an "
                "estimator manually using the best_params_ attribute."
            )
        check_is_fitted(self, "best_estimator_")

    predict = _delegate("predict")
    predict_proba = _delegate("predict_proba")
    predict_log_proba = _delegate("predict_log_proba")
    decision_function = _delegate("decision_function")
    transform = _delegate("transform")
    inverse_transform = _delegate("inverse_transform")
    score_samples = _delegate("score_samples")

    def score(self, X, y=None, **params):
        """The refit scorer (or the estimator's own ``score``) of the refitted best model."""
        self._check_refitted("score")
        if self.scoring is None:
            est = self.best_estimator_
            return est.score(X, **params) if y is None else est.score(X, y, **params)
        scorer = self.scorer_[self.refit] if self.multimetric_ else self.scorer_
        return scorer(self.best_estimator_, X, y, **params)

    @property
    def classes_(self):
        """The class labels of the refitted classifier."""
        self._check_refitted("classes_")
        return self.best_estimator_.classes_

    @property
    def n_features_in_(self):
        """Number of features seen by the refitted model."""
        try:
            check_is_fitted(self, "best_estimator_")
        except Exception as exc:
            raise AttributeError(
                f"{type(self).__name__} has no n_features_in_ before it is fitted with refit."
            ) from exc
        return self.best_estimator_.n_features_in_

    @property
    def feature_names_in_(self):
        """Feature names seen by the refitted model (when X was a DataFrame)."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.feature_names_in_

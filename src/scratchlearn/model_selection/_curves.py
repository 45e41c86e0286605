"""Learning and validation curves: fold scores along the training-set size or one hyperparameter.

Symbols as in :mod:`._validation`: K folds, fold k training on the indices T_k and testing on V_k.

Both functions reuse that module's fold machinery (a fresh clone fitted per task, the same scorer
and ``error_score`` handling) and return score tables of shape (n_ticks, K), one column per fold.
A learning curve grows the training part of each fold, which separates variance (a gap between the
training and test curves that narrows with more data) from bias (two low curves that meet early).
A validation curve keeps the folds fixed and sweeps one hyperparameter instead.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..utils.parallel import run_tasks
from ..utils.validation import check_random_state
from ._split import check_cv
from ._validation import (
    _check_error_score,
    _check_scoring,
    _check_xy_groups,
    _estimator_kind,
    _fit_and_score,
    _merge_params,
    _query_score_params,
    _warn_or_raise_failures,
)

__all__ = ["learning_curve", "validation_curve"]


def _translate_train_sizes(train_sizes, n_max):
    """Absolute training-set sizes: fractions of ``n_max`` (truncated, at least 1) or counts."""
    sizes = np.asarray(train_sizes)
    if sizes.ndim != 1 or sizes.size == 0:
        raise ValueError(f"train_sizes must be a non-empty 1-D array; got {train_sizes!r}.")
    if sizes.dtype.kind == "f":
        if not np.all(np.isfinite(sizes)) or sizes.min() <= 0.0 or sizes.max() > 1.0:
            raise ValueError(
                "train_sizes given as floats are fractions of the largest training set and must "
                f"lie in (0, 1]; got values in [{sizes.min()}, {sizes.max()}]."
            )
        absolute = np.clip((sizes * n_max).astype(np.int64), 1, n_max)
    elif sizes.dtype.kind in "iu":
        if sizes.min() <= 0 or sizes.max() > n_max:
            raise ValueError(
                "train_sizes given as ints are numbers of training samples and must lie in "
                f"[1, {n_max}] (the size of the smallest training fold); got values in "
                f"[{sizes.min()}, {sizes.max()}]."
            )
        absolute = sizes.astype(np.int64)
    else:
        raise ValueError(f"train_sizes must hold numbers; got dtype {sizes.dtype}.")
    unique = np.unique(absolute)
    if len(unique) < len(absolute):
        warnings.warn(
            f"Some train_sizes give the same number of samples and were merged: {unique}.",
            RuntimeWarning,
            stacklevel=3,
        )
    return unique


def learning_curve(
    estimator,
    X,
    y,
    *,
    groups=None,
    train_sizes=np.linspace(0.1, 1.0, 5),  # noqa: B008 - immutable in practice, sklearn's default
    cv=None,
    scoring=None,
    n_jobs=None,
    shuffle=False,
    random_state=None,
    error_score=np.nan,
    return_times=False,
    fit_params=None,
    params=None,
):
    """Training and test scores as a function of the number of training samples.

    For every fold k and every size m the estimator is fitted on the first m indices of T_k
    (after one random permutation of T_k per fold when ``shuffle=True``) and scored on those m
    samples and on V_k.

    Returns
    -------
    train_sizes_abs : ndarray (n_ticks,)  distinct absolute sizes, ascending.
    train_scores, test_scores : ndarray (n_ticks, K)
    fit_times, score_times : ndarray (n_ticks, K), only with ``return_times=True``.
    """
    fit_params = _merge_params(fit_params, params)
    X, y, groups = _check_xy_groups(X, y, groups, "learning_curve", fit_params)
    error_score = _check_error_score(error_score)
    scorers, multimetric = _check_scoring(estimator, scoring)
    if multimetric:
        raise ValueError("learning_curve takes a single scorer (a name or a callable).")
    splitter = check_cv(cv, y, classifier=_estimator_kind(estimator) == "classifier")
    splits = list(splitter.split(X, y, groups))
    if shuffle:
        rng = check_random_state(random_state)
        splits = [(rng.permutation(tr), te) for tr, te in splits]
    sizes = _translate_train_sizes(train_sizes, len(splits[0][0]))
    tasks = [(tr[:m], te) for tr, te in splits for m in sizes]
    score_params = _query_score_params(scorers, estimator, fit_params)  # a ranker's qid

    def run(tr, te):
        return _fit_and_score(
            estimator,
            X,
            y,
            scorers,
            tr,
            te,
            fit_params=fit_params,
            return_train_score=True,
            error_score=error_score,
            score_params=score_params,
        )

    results = run_tasks(run, tasks, n_jobs)
    _warn_or_raise_failures(results)

    def table(key, name=None):  # (K * n_ticks,) -> (n_ticks, K)
        vals = [r[key] if name is None else r[key][name] for r in results]
        return np.asarray(vals, dtype=float).reshape(len(splits), len(sizes)).T

    out = [sizes, table("train_scores", "score"), table("test_scores", "score")]
    if return_times:
        out += [table("fit_time"), table("score_time")]
    return tuple(out)


def validation_curve(
    estimator,
    X,
    y,
    param_name,
    param_range,
    *,
    groups=None,
    cv=None,
    scoring=None,
    n_jobs=None,
    error_score=np.nan,
    fit_params=None,
    params=None,
):
    """Training and test scores of every fold for each value of one hyperparameter.

    ``param_name`` may be nested (``"step__alpha"``). Returns ``(train_scores, test_scores)``,
    each of shape (len(param_range), K).
    """
    fit_params = _merge_params(fit_params, params)
    X, y, groups = _check_xy_groups(X, y, groups, "validation_curve", fit_params)
    error_score = _check_error_score(error_score)
    scorers, multimetric = _check_scoring(estimator, scoring)
    if multimetric:
        raise ValueError("validation_curve takes a single scorer (a name or a callable).")
    if not isinstance(param_name, str):
        raise ValueError(f"param_name must be the name of a parameter; got {param_name!r}.")
    if param_name not in estimator.get_params(deep=True):
        raise ValueError(
            f"Invalid parameter {param_name!r} for estimator {estimator!r}; valid parameters "
            f"are {sorted(estimator.get_params(deep=True))}."
        )
    values = list(param_range)
    if not values:
        raise ValueError("param_range is empty; give at least one value to try.")
    splitter = check_cv(cv, y, classifier=_estimator_kind(estimator) == "classifier")
    splits = list(splitter.split(X, y, groups))
    tasks = [(tr, te, v) for tr, te in splits for v in values]
    score_params = _query_score_params(scorers, estimator, fit_params)  # a ranker's qid

    def run(tr, te, v):
        return _fit_and_score(
            estimator,
            X,
            y,
            scorers,
            tr,
            te,
            parameters={param_name: v},
            fit_params=fit_params,
            return_train_score=True,
            error_score=error_score,
            score_params=score_params,
        )

    results = run_tasks(run, tasks, n_jobs)
    _warn_or_raise_failures(results)

    def table(key):  # (K * n_values,) -> (n_values, K)
        vals = [r[key]["score"] for r in results]
        return np.asarray(vals, dtype=float).reshape(len(splits), len(values)).T

    return table("train_scores"), table("test_scores")

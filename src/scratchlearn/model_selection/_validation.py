"""Estimating how well a model generalises: cross-validation and its shared fold machinery.

Symbols
-------
K : number of folds              (T_k, V_k) : training and test index sets of fold k
f̂_k : the model fitted on T_k    s(f̂, V) : a score of a fitted model on the samples V

K-fold cross-validation reports the K scores ``s(f̂_k, V_k)`` and usually their mean, an estimate
of the score of the model fitted on all the data. Every fold fits a fresh :func:`clone` of the
estimator, so no information leaks from one fold into the next.

Learning and validation curves, built on the same helpers, live in :mod:`._curves`.

Scores follow the "greater is better" convention: ``scoring=None`` uses the estimator's own
``score`` (accuracy for classifiers, R² for regressors); a string names a scorer of
:mod:`scratchlearn.metrics` (losses are negated, e.g. ``"neg_mean_squared_error"``); a callable
``scorer(estimator, X, y) -> float`` is used as it is.
"""

from __future__ import annotations

import inspect
import numbers
import time
import warnings

import numpy as np

from ..base import clone
from ..exceptions import FitFailedWarning
from ..utils.parallel import run_tasks
from ..utils.validation import check_consistent_length, num_samples
from ._split import _indexable, _refuse_dask_rows, _safe_indexing, check_cv

__all__ = [
    "cross_validate",
    "cross_val_score",
    "FitFailedWarning",
]


# --------------------------------------------------------------------------------------------
# helpers shared with _search
# --------------------------------------------------------------------------------------------
def _estimator_kind(estimator):
    """'classifier', 'regressor', ... for scratchlearn and scikit-learn estimators alike.

    Tried in turn: an ``_estimator_type`` attribute (scratchlearn mixins, pipelines), the
    scratchlearn tags, scikit-learn's tags (only scikit-learn objects have those alone).
    """
    kind = getattr(estimator, "_estimator_type", None)
    if kind is None and hasattr(estimator, "_scratch_tags"):
        kind = estimator._scratch_tags().get("estimator_type")
    if kind is None and hasattr(estimator, "__sklearn_tags__"):
        try:
            kind = estimator.__sklearn_tags__().estimator_type
        except Exception:  # noqa: BLE001 - an object with broken tags is simply untyped
            kind = None
    return kind


def _passthrough_score(estimator, X, y, **kwargs):
    """The scorer behind ``scoring=None``: the estimator's own ``score`` method."""
    return estimator.score(X, **kwargs) if y is None else estimator.score(X, y, **kwargs)


def _accepts_sample_weight(scorer, estimator, name="sample_weight") -> bool:
    """Whether ``scorer`` (or, for ``scoring=None``, ``estimator.score``) takes ``name``.

    A pipeline's ``score`` passes keyword arguments it does not name on to its final step's
    ``score``, so there the question goes on to the final step."""
    target = getattr(estimator, "score", None) if scorer is _passthrough_score else scorer
    try:
        parameters = inspect.signature(target).parameters
    except (TypeError, ValueError):
        return False
    if name in parameters:
        return True
    forwards = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    final = getattr(estimator, "_final_estimator", None)
    if scorer is _passthrough_score and forwards and final not in (None, "passthrough"):
        return _accepts_sample_weight(scorer, final, name)
    return False


def _fitted_qid(fit_params):
    """The query ids among the fit parameters: ``qid``, or a pipeline step's ``<step>__qid``."""
    fit_params = fit_params or {}
    if fit_params.get("qid") is not None:
        return fit_params["qid"]
    routed = [key for key in fit_params if key.endswith("__qid") and fit_params[key] is not None]
    if len({id(fit_params[key]) for key in routed}) > 1:
        raise ValueError(
            f"the fit parameters hold several query ids ({', '.join(routed)}): pass one qid, "
            "the rows' query ids, to the step that ranks"
        )
    return fit_params[routed[0]] if routed else None


def _query_score_params(scorers, estimator, fit_params):
    """A ``qid`` among the fit parameters is given to every scorer as well.

    A ranker's score (NDCG) is computed query by query, so scoring it without the query ids of
    the scored rows would treat them as one query: a silently wrong number. ``qid`` is then
    sliced to the rows of each side like the fit parameters. A scorer that does not take ``qid``
    is an error. A ranker inside a pipeline is fitted with ``<step>__qid``: that qid is the
    scorers' too (the pipeline's ``score`` passes it to the ranker's).
    """
    qid = _fitted_qid(fit_params)
    if qid is None:
        return {}
    for name, scorer in scorers.items():
        if not _accepts_sample_weight(scorer, estimator, "qid"):
            raise ValueError(
                f"qid was passed as a fit parameter, but the scorer {name!r} does not take qid, "
                "so it could not score query by query. Use scoring=None (the ranker's own "
                "score) or a scorer(estimator, X, y, qid) callable."
            )
    return {name: {"qid": qid} for name in scorers}


def _resolve_scorer(scoring):
    if callable(scoring):
        return scoring
    if isinstance(scoring, str):
        try:
            from ..metrics import get_scorer
        except ImportError as exc:
            raise ImportError(
                f"scoring={scoring!r} names a scorer of scratchlearn.metrics, which could not be "
                f"imported ({exc}). Pass a callable scorer(estimator, X, y) instead."
            ) from exc
        return get_scorer(scoring)
    raise ValueError(
        f"A scorer must be a string naming a metric or a callable scorer(estimator, X, y); "
        f"got {scoring!r}."
    )


def _check_scoring(estimator, scoring):
    """``(scorers, multimetric)`` with ``scorers`` a dict name -> scorer(estimator, X, y)."""
    if scoring is None:
        if not hasattr(estimator, "score"):
            raise TypeError(
                f"scoring=None uses the estimator's score method, but {estimator!r} has none. "
                "Pass scoring."
            )
        return {"score": _passthrough_score}, False
    if isinstance(scoring, str) or callable(scoring):
        return {"score": _resolve_scorer(scoring)}, False
    if isinstance(scoring, (list, tuple, set, frozenset)):
        names = list(scoring)
        if not names or not all(isinstance(n, str) for n in names):
            raise ValueError(
                "A list of scorers must be a non-empty list of metric names (strings); got "
                f"{scoring!r}. Use a dict to name callables."
            )
        if len(set(names)) != len(names):
            raise ValueError(f"The list of scorers has duplicate names: {scoring!r}.")
        return {n: _resolve_scorer(n) for n in names}, True
    if isinstance(scoring, dict):
        if not scoring or not all(isinstance(k, str) for k in scoring):
            raise ValueError(f"A dict of scorers needs string keys; got {scoring!r}.")
        return {k: _resolve_scorer(v) for k, v in scoring.items()}, True
    raise ValueError(
        "scoring must be None, a metric name, a callable, a list of metric names or a dict of "
        f"name -> scorer; got {scoring!r}."
    )


def _check_error_score(error_score):
    if isinstance(error_score, str) and error_score == "raise":
        return error_score
    if isinstance(error_score, numbers.Number) and not isinstance(error_score, bool):
        return error_score
    raise ValueError(f"error_score must be 'raise' or a number; got {error_score!r}.")


def _merge_params(fit_params, params):
    """scikit-learn 1.4+ calls the fit parameters ``params``; older code says ``fit_params``."""
    if fit_params and params:
        raise ValueError("Pass the fit parameters as params or as fit_params, not both.")
    return dict(params or fit_params or {})


def _slice_fit_params(fit_params, n_samples, indices):
    """Per-sample fit parameters (``sample_weight`` and the like) restricted to ``indices``."""
    out = {}
    for key, value in (fit_params or {}).items():
        if value is not None and not np.isscalar(value) and hasattr(value, "__len__"):
            if num_samples(value) == n_samples:
                value = _safe_indexing(value, indices)
        out[key] = value
    return out


def _score(scorers, estimator, X, y, error_score, score_params=None):
    scores = {}
    for name, scorer in scorers.items():
        try:
            value = scorer(estimator, X, y, **(score_params or {}).get(name, {}))
        except Exception:
            if error_score == "raise":
                raise
            warnings.warn(
                f"Scoring failed for scorer {name!r}; its score was set to {error_score}.",
                UserWarning,
                stacklevel=4,
            )
            value = error_score
        if hasattr(value, "item") and np.ndim(value) == 0:
            value = value.item()
        if not isinstance(value, numbers.Number):
            raise ValueError(
                f"Scorer {name!r} returned {value!r} ({type(value).__name__}); a scorer must "
                "return a single number."
            )
        scores[name] = value
    return scores


def _fit_and_score(
    estimator,
    X,
    y,
    scorers,
    train,
    test,
    *,
    parameters=None,
    fit_params=None,
    return_train_score=False,
    return_estimator=False,
    error_score=np.nan,
    score_params=None,
):
    """Fit a clone of ``estimator`` (with ``parameters`` set) on ``train``; score on ``test``.

    ``score_params`` maps a scorer name to per-sample keyword arguments (``sample_weight``),
    sliced to the rows each side is scored on.

    Returns a dict with ``test_scores`` (and ``train_scores``), ``fit_time``, ``score_time``,
    ``estimator`` and ``fit_error`` (the message of the exception a failed fit raised).
    """
    est = clone(estimator)
    if parameters:
        est.set_params(**{k: clone(v, safe=False) for k, v in parameters.items()})
    n = num_samples(X)
    X_train, y_train = _safe_indexing(X, train), _safe_indexing(y, train)
    X_test, y_test = _safe_indexing(X, test), _safe_indexing(y, test)
    fit_kw = _slice_fit_params(fit_params, n, train)
    result = {"fit_error": None, "estimator": est if return_estimator else None}
    start = time.perf_counter()
    try:
        if y_train is None:
            est.fit(X_train, **fit_kw)
        else:
            est.fit(X_train, y_train, **fit_kw)
    except Exception as exc:
        if error_score == "raise":
            raise
        result["fit_time"] = time.perf_counter() - start
        result["score_time"] = 0.0
        result["fit_error"] = f"{type(exc).__name__}: {exc}"
        result["test_scores"] = {name: error_score for name in scorers}
        if return_train_score:
            result["train_scores"] = {name: error_score for name in scorers}
        return result
    result["fit_time"] = time.perf_counter() - start
    start = time.perf_counter()
    score_params = score_params or {}

    def sliced(rows):
        return {name: _slice_fit_params(kw, n, rows) for name, kw in score_params.items()}

    result["test_scores"] = _score(scorers, est, X_test, y_test, error_score, sliced(test))
    result["score_time"] = time.perf_counter() - start
    if return_train_score:
        result["train_scores"] = _score(scorers, est, X_train, y_train, error_score, sliced(train))
    return result


def _warn_or_raise_failures(results) -> None:
    errors = [r["fit_error"] for r in results if r["fit_error"] is not None]
    if not errors:
        return
    if len(errors) == len(results):
        raise ValueError(
            f"All the {len(results)} fits failed. The first error was:\n{errors[0]}\n"
            "Set error_score='raise' to see the full traceback."
        )
    summary = "\n".join(f"{errors.count(e)} fits failed with: {e}" for e in dict.fromkeys(errors))
    warnings.warn(
        f"{len(errors)} of the {len(results)} fits failed; their scores are error_score.\n"
        f"{summary}",
        FitFailedWarning,
        stacklevel=3,
    )


def _check_xy_groups(X, y, groups, owner="cross-validation", fit_params=None):
    """Row-indexable X, y, groups of one length (raises otherwise); Dask input (X, y, groups
    or a per-sample fit parameter) is refused by ``owner``'s name before anything computes it."""
    _refuse_dask_rows(owner, X=X, y=y, groups=groups, **(fit_params or {}))
    X, y, groups = _indexable(X), _indexable(y), _indexable(groups)
    check_consistent_length(X, y, groups)
    if num_samples(X) == 0:
        raise ValueError("Cross-validation got X with 0 samples.")
    return X, y, groups


# --------------------------------------------------------------------------------------------
# public functions
# --------------------------------------------------------------------------------------------
def cross_validate(
    estimator,
    X,
    y=None,
    *,
    groups=None,
    scoring=None,
    cv=None,
    n_jobs=None,
    return_train_score=False,
    return_estimator=False,
    return_indices=False,
    fit_params=None,
    params=None,
    error_score=np.nan,
):
    """Fit and score a clone of ``estimator`` on every fold of ``cv``.

    Parameters
    ----------
    estimator : object with ``fit`` (and ``score`` when ``scoring=None``)
    X, y : training data; ``y=None`` for unsupervised estimators.
    groups : array-like of shape (n_samples,), optional; passed to ``cv.split`` (GroupKFold).
    scoring : None, str, callable, list of str or dict of name -> str/callable
    cv : None (5 folds), int, splitter or iterable of (train, test) pairs; an int gives
        stratified folds for a classifier with binary or multiclass y.
    n_jobs : None or int
        Fit folds on this many threads (-1: one per CPU); results are identical to n_jobs=None.
    return_train_score, return_estimator, return_indices : bool
        Also return training scores, the fitted estimators, the fold indices.
    fit_params, params : dict, optional
        Passed to ``fit`` (``params`` is scikit-learn's newer name); per-sample arrays such as
        ``sample_weight`` are sliced per fold. A ranker's ``qid`` is sliced for ``fit`` and
        also given, sliced, to the scorers (``score(X, y, qid=...)``); pass ``groups=qid`` with
        :class:`GroupKFold` or :class:`GroupShuffleSplit` as ``cv`` so queries stay whole.
    error_score : 'raise' or number, default=nan
        Score given to a fold whose fit raised (with a :class:`FitFailedWarning`).

    Returns
    -------
    dict of arrays of shape (K,): ``fit_time``, ``score_time``, ``test_score`` (``test_<name>``
    for several scorers), ``train_score`` / ``train_<name>``, and ``estimator`` / ``indices``.

    Examples
    --------
    >>> from scratchlearn.datasets import load_diabetes
    >>> from scratchlearn.linear_model import Ridge
    >>> from scratchlearn.model_selection import cross_validate
    >>> X, y = load_diabetes(return_X_y=True)
    >>> scoring = ["r2", "neg_mean_absolute_error"]
    >>> res = cross_validate(Ridge(alpha=0.1), X, y, cv=3, scoring=scoring)
    >>> print(sorted(k for k in res if k.startswith("test_")))
    ['test_neg_mean_absolute_error', 'test_r2']
    >>> print(res["test_r2"].round(3))
    [0.459 0.495 0.512]
    """
    fit_params = _merge_params(fit_params, params)
    X, y, groups = _check_xy_groups(X, y, groups, "cross_validate", fit_params)
    error_score = _check_error_score(error_score)
    scorers, multimetric = _check_scoring(estimator, scoring)
    splitter = check_cv(cv, y, classifier=_estimator_kind(estimator) == "classifier")
    splits = list(splitter.split(X, y, groups))
    tasks = [(estimator, X, y, scorers, tr, te) for tr, te in splits]
    score_params = _query_score_params(scorers, estimator, fit_params)

    def run(est, X_, y_, sc, tr, te):
        return _fit_and_score(
            est,
            X_,
            y_,
            sc,
            tr,
            te,
            fit_params=fit_params,
            return_train_score=return_train_score,
            return_estimator=return_estimator,
            error_score=error_score,
            score_params=score_params,
        )

    results = run_tasks(run, tasks, n_jobs)
    _warn_or_raise_failures(results)
    out = {
        "fit_time": np.array([r["fit_time"] for r in results]),
        "score_time": np.array([r["score_time"] for r in results]),
    }
    if return_estimator:
        out["estimator"] = [r["estimator"] for r in results]
    if return_indices:
        out["indices"] = {"train": [s[0] for s in splits], "test": [s[1] for s in splits]}
    sides = ["test"] + (["train"] if return_train_score else [])
    for side in sides:
        for name in scorers:
            key = f"{side}_{name}" if multimetric else f"{side}_score"
            out[key] = np.array([r[f"{side}_scores"][name] for r in results], dtype=float)
    return out


def cross_val_score(
    estimator,
    X,
    y=None,
    *,
    groups=None,
    scoring=None,
    cv=None,
    n_jobs=None,
    fit_params=None,
    params=None,
    error_score=np.nan,
):
    """The test score of each fold: ``cross_validate(...)["test_score"]`` (one scorer only).

    Examples
    --------
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.model_selection import cross_val_score
    >>> from scratchlearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> scores = cross_val_score(GaussianNB(), X, y, cv=5)
    >>> print(scores.round(3), round(scores.mean(), 3))
    [0.933 0.967 0.933 0.933 1.   ] 0.953
    """
    if scoring is not None and not (isinstance(scoring, str) or callable(scoring)):
        raise ValueError(
            "cross_val_score takes a single scorer (a name or a callable); use cross_validate "
            f"for several. Got scoring={scoring!r}."
        )
    result = cross_validate(
        estimator,
        X,
        y,
        groups=groups,
        scoring=scoring,
        cv=cv,
        n_jobs=n_jobs,
        fit_params=fit_params,
        params=params,
        error_score=error_score,
    )
    return result["test_score"]

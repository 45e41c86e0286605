"""Scorers: a metric bound to the estimator method that feeds it, for model selection.

A scorer is a callable ``scorer(estimator, X, y, sample_weight=None) -> float`` where greater is
always better: a loss ``L`` is reported as ``−L`` (hence the ``neg_`` names). Each scorer asks
the estimator for one kind of output:

* ``"predict"``: hard labels or values (accuracy, F1, R², errors);
* ``"predict_proba"``: class probabilities (log loss, multiclass ROC AUC);
* ``("decision_function", "predict_proba")``: a ranking score, the first method the estimator
  has (binary ROC AUC; for probabilities the column of ``classes_[1]``).

A ranker's scorers score query by query: ``scorer(estimator, X, y, qid=None)`` ranks the rows
of each query by ``predict(X)`` and averages the metric over the queries (``qid`` None: all
rows are one query, as for the ranker's own ``score``). ``"ndcg"`` is the mean NDCG with linear
gain over all ranks, the number ``ranker.score(X, y, qid=qid)`` returns; ``"ndcg@k"`` cuts the
ranking at rank k and ``"map"`` / ``"map@k"`` is the mean average precision (relevant: label
> 0), for any integer k ≥ 1 (``"ndcg@10"``). Model selection hands them the ``qid`` of the
scored rows (see :mod:`scratchlearn.model_selection`).

``get_scorer(name)`` returns a registered scorer, ``get_scorer_names()`` lists them, and
``check_scoring(estimator, scoring)`` resolves ``None`` to the estimator's own ``score``.
"""

from __future__ import annotations

import copy
import re
from functools import partial

import numpy as np

from . import _classification as C
from . import _clustering as K
from . import _ltr as L
from . import _ranking as Rk
from . import _regression as R

__all__ = [
    "make_scorer",
    "get_scorer",
    "get_scorer_names",
    "check_scoring",
    "check_multimetric_scoring",
]


class _Scorer:
    """``sign · score_func(y, response(estimator, X), **kwargs)``."""

    def __init__(self, score_func, sign, response_method, kwargs):
        self._score_func = score_func
        self._sign = sign
        self._response_method = response_method
        self._kwargs = kwargs

    def _response(self, estimator, X):
        methods = self._response_method
        methods = (methods,) if isinstance(methods, str) else methods
        for name in methods:
            if hasattr(estimator, name):
                out = getattr(estimator, name)(X)
                break
        else:
            raise AttributeError(
                f"{type(estimator).__name__} has none of the methods {list(methods)} needed by "
                f"the scorer {self!r}."
            )
        out = np.asarray(out)
        binary_ranking = self._score_func is Rk.roc_auc_score and "multi_class" not in self._kwargs
        if binary_ranking and name == "predict_proba" and out.ndim == 2 and out.shape[1] == 2:
            out = out[:, 1]  # probability of classes_[1], the positive class
        return out

    def __call__(self, estimator, X, y_true, sample_weight=None):
        y_pred = self._response(estimator, X)
        kwargs = dict(self._kwargs)
        if self._score_func is Rk.log_loss and hasattr(estimator, "classes_"):
            kwargs.setdefault("labels", estimator.classes_)
        if sample_weight is not None:
            kwargs["sample_weight"] = sample_weight
        return self._sign * float(self._score_func(y_true, y_pred, **kwargs))

    def __repr__(self):
        extra = "" if self._sign > 0 else ", greater_is_better=False"
        method = self._response_method
        extra += "" if method == "predict" else f", response_method={method!r}"
        extra += "".join(f", {k}={v!r}" for k, v in self._kwargs.items())
        return f"make_scorer({self._score_func.__name__}{extra})"


class _QueryScorer:
    """``score_func(y, predict(X), qid=qid, k=k)``: a learning-to-rank metric, mean over the
    queries that ``qid`` gives the rows (greater is better)."""

    def __init__(self, name, score_func, k=None):
        self._name = name
        self._score_func = score_func
        self._k = k

    def __call__(self, estimator, X, y_true, qid=None):
        return float(self._score_func(y_true, estimator.predict(X), qid=qid, k=self._k))

    def __repr__(self):
        return (
            f"{self._name!r} scorer: {self._score_func.__name__}(y, predict(X), qid, k={self._k})"
        )


#: The ranking scorers: name → metric of ``_ltr``; "<name>@k" cuts each query's ranking at k.
_QUERY_METRICS = {"ndcg": L.ndcg_score, "map": L.mean_average_precision}
_AT_K = re.compile(r"^(?P<name>[a-z]+)@(?P<k>[0-9]+)$")


def _query_scorer(scoring: str):
    """The ranking scorer named ``scoring`` ("ndcg", "ndcg@5", "map", "map@10"), or None."""
    match = _AT_K.match(scoring)
    name, k = (match["name"], int(match["k"])) if match else (scoring, None)
    if name not in _QUERY_METRICS:
        return None
    if k is not None and k < 1:
        raise ValueError(f"{scoring!r}: the cut-off k of {name}@k must be at least 1.")
    return _QueryScorer(scoring, _QUERY_METRICS[name], k)


class _PassthroughScorer:
    """Calls the estimator's own ``score`` method."""

    def __call__(self, estimator, X, y_true=None, sample_weight=None):
        if sample_weight is None:
            return float(estimator.score(X, y_true))
        return float(estimator.score(X, y_true, sample_weight=sample_weight))

    def __repr__(self):
        return "passthrough_scorer (estimator.score)"


def make_scorer(score_func, *, response_method="predict", greater_is_better=True, **kwargs):
    """Wrap a metric ``score_func(y_true, y_pred, **kwargs)`` into a scorer; a loss needs
    ``greater_is_better=False`` so that the scorer returns its negative."""
    if not callable(score_func):
        raise TypeError(f"score_func must be callable; got {score_func!r}.")
    return _Scorer(score_func, 1 if greater_is_better else -1, response_method, kwargs)


_RANK = ("decision_function", "predict_proba")
_SCORERS = {
    "accuracy": make_scorer(C.accuracy_score),
    "balanced_accuracy": make_scorer(C.balanced_accuracy_score),
    "roc_auc": make_scorer(Rk.roc_auc_score, response_method=_RANK),
    "roc_auc_ovr": make_scorer(
        Rk.roc_auc_score, response_method="predict_proba", multi_class="ovr"
    ),
    "roc_auc_ovo": make_scorer(
        Rk.roc_auc_score, response_method="predict_proba", multi_class="ovo"
    ),
    "neg_log_loss": make_scorer(
        Rk.log_loss, response_method="predict_proba", greater_is_better=False
    ),
    "r2": make_scorer(R.r2_score),
    "neg_mean_squared_error": make_scorer(R.mean_squared_error, greater_is_better=False),
    "neg_root_mean_squared_error": make_scorer(R.root_mean_squared_error, greater_is_better=False),
    "neg_mean_absolute_error": make_scorer(R.mean_absolute_error, greater_is_better=False),
    "neg_mean_poisson_deviance": make_scorer(R.mean_poisson_deviance, greater_is_better=False),
    "neg_mean_gamma_deviance": make_scorer(R.mean_gamma_deviance, greater_is_better=False),
    "rand_score": make_scorer(K.rand_score),
    "adjusted_rand_score": make_scorer(K.adjusted_rand_score),
}
for _name, _func in (
    ("precision", C.precision_score),
    ("recall", C.recall_score),
    ("f1", C.f1_score),
):
    _SCORERS[_name] = make_scorer(_func)
    for _avg in ("macro", "micro", "weighted"):
        _SCORERS[f"{_name}_{_avg}"] = make_scorer(partial(_func, average=_avg))
        _SCORERS[f"{_name}_{_avg}"]._score_func.__name__ = f"{_func.__name__}_{_avg}"


def get_scorer_names():
    """Sorted names accepted by :func:`get_scorer` (and "ndcg@k", "map@k" for any integer
    k ≥ 1)."""
    return sorted([*_SCORERS, *_QUERY_METRICS])


def get_scorer(scoring):
    """The scorer registered under ``scoring`` (a fresh copy), or ``scoring`` itself when it is
    already a callable; None stays None."""
    if scoring is None or callable(scoring):
        return scoring
    if isinstance(scoring, str) and scoring in _SCORERS:
        return copy.deepcopy(_SCORERS[scoring])
    found = _query_scorer(scoring) if isinstance(scoring, str) else None
    if found is not None:
        return found
    raise ValueError(
        f"{scoring!r} is not a valid scoring value. Use scratchlearn.metrics.get_scorer_names() "
        f"to get valid options: {', '.join(get_scorer_names())}, and ndcg@k, map@k for an "
        "integer k ≥ 1."
    )


def check_scoring(estimator, scoring=None, *, allow_none=False):
    """Resolve ``scoring`` for ``estimator``: a name, a callable, or None for the estimator's
    own ``score`` method (None is returned instead of raising when ``allow_none``)."""
    if not hasattr(estimator, "fit"):
        raise TypeError(
            f"estimator should be an estimator implementing 'fit' method, {estimator!r} was passed"
        )
    if isinstance(scoring, str) or callable(scoring):
        return get_scorer(scoring)
    if scoring is None:
        if hasattr(estimator, "score"):
            return _PassthroughScorer()
        if allow_none:
            return None
        raise TypeError(
            "If no scoring is specified, the estimator passed should have a 'score' method. "
            f"The estimator {estimator!r} does not."
        )
    raise ValueError(
        f"scoring must be a string, a callable or None; got {scoring!r}. For "
        "several metrics use check_multimetric_scoring."
    )


def check_multimetric_scoring(estimator, scoring):
    """Several scorers at once: a list/tuple/set of names or a dict ``{name: scorer or name}``;
    returns ``{name: scorer}``."""
    if isinstance(scoring, dict):
        items = scoring.items()
    elif isinstance(scoring, (list, tuple, set)):
        names = list(scoring)
        if not names or not all(isinstance(s, str) for s in names):
            raise ValueError(f"A list of scorers must be non-empty names; got {scoring!r}.")
        if len(set(names)) != len(names):
            raise ValueError(f"Duplicate scorer names in {scoring!r}.")
        items = ((s, s) for s in names)
    else:
        raise ValueError(f"scoring must be a list, tuple, set or dict; got {scoring!r}.")
    return {name: check_scoring(estimator, s) for name, s in items}

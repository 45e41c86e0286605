"""Pointwise learning to rank: regress the relevance labels, rank by the predictions.

Each row is scored on its own, ŝ(x) = f(x) with f a regressor fitted on (X, y) as if the labels
were numbers to predict: the query ids are checked but play no part in the fit (the regression
loss Σᵢ (f(xᵢ) − yᵢ)² does not compare rows of one query with each other), which is both the
approach's simplicity and its weakness against the pairwise and listwise rankers.
"""

from __future__ import annotations

import numpy as np

from ..base import clone
from ..utils._param_validation import HasMethods
from ..utils.validation import check_is_fitted
from ._base import BaseRanker, check_qid

__all__ = ["PointwiseRanker"]


class PointwiseRanker(BaseRanker):
    """Ranking by regression on the relevance labels: ``predict(X) = estimator.predict(X)``.

    Parameters
    ----------
    estimator : regressor or None, default=None
        Cloned and fitted on (X, y); None means ``scratchlearn.linear_model.Ridge()``.

    Attributes
    ----------
    estimator_ : the fitted clone of ``estimator``.

    Examples
    --------
    >>> from scratchlearn.datasets import load_modechoice
    >>> from scratchlearn.ranking import PointwiseRanker
    >>> data = load_modechoice()
    >>> ranker = PointwiseRanker().fit(data.data, data.target, qid=data.qid)
    >>> print(type(ranker.estimator_).__name__)
    Ridge
    >>> print(round(ranker.score(data.data, data.target, qid=data.qid), 3))
    0.853
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"n_features_in_": ("int", ()), "estimator_": ("estimator", None)}

    def _check_fitted_state(self):
        """The regressor was fitted on n_features_in_ features."""
        if getattr(self.estimator_, "n_features_in_", None) != self.n_features_in_:
            raise ValueError("estimator_ does not match n_features_in_")

    _parameter_constraints = {"estimator": [HasMethods(["fit", "predict"]), None]}

    def __init__(self, estimator=None):
        self.estimator = estimator

    def _regressor(self):
        if self.estimator is not None:
            return clone(self.estimator)
        from ..linear_model import Ridge

        return Ridge()

    def fit(self, X, y, qid=None, sample_weight=None):
        """Fit the regressor on the labels (passing ``sample_weight`` on); returns self."""
        self._validate_params()
        X, y = self._validate_data(X, y, dtype=np.float64, y_numeric=True)
        check_qid(qid, X.shape[0], type(self).__name__)
        regressor = self._regressor()
        if sample_weight is None:
            regressor.fit(X, y)
        else:
            regressor.fit(X, y, sample_weight=sample_weight)
        self.estimator_ = regressor
        return self

    def predict(self, X):
        """The regressor's predictions, used as ranking scores."""
        check_is_fitted(self, "estimator_")
        X = self._validate_data(X, reset=False, dtype=np.float64)
        return np.asarray(self.estimator_.predict(X), dtype=np.float64)

"""The estimator contract every scratchlearn model follows.

* ``__init__`` stores each keyword argument under its own name and does nothing else.
* ``fit`` validates hyperparameters (declared once in ``_parameter_constraints``) and data, learns
  attributes whose names end in ``_``, and returns ``self``. It never modifies hyperparameters or
  the caller's arrays.
* :class:`BaseEstimator` owns ``get_params`` / ``set_params`` / ``__repr__``, the feature-count
  and feature-name bookkeeping (``n_features_in_``, ``feature_names_in_``) and the bridge to
  scikit-learn's tags, which imports scikit-learn lazily: only scikit-learn ever calls it.
* Mixins add the ``score`` of each task and ``fit_transform`` / ``fit_predict``.
* Every prediction method (``predict``, ``predict_proba``, ``decision_function``,
  ``transform``, ...) answers a Dask array or DataFrame lazily, block by block: the class's
  own method on each row block (:mod:`scratchlearn.utils._dask_predict`), installed once per
  class by ``BaseEstimator.__init_subclass__``. ``fit`` on Dask input stays the affair of the
  estimators tagged ``"dask"``; the others refuse it by name.
"""

from __future__ import annotations

import copy
import inspect
import warnings

import numpy as np

from .utils._available_if import _AvailableIf
from .utils._dask import is_dask_collection, refuse_dask
from .utils._dask_predict import ROW_METHODS, compute_together, lazy_on_dask, marked
from .utils._fit_record import CONVERGED, record_fit
from .utils._param_validation import validate_params
from .utils._sparse import issparse
from .utils.validation import (
    check_array,
    check_sample_weight,
    check_X_y,
    get_feature_names,
    num_samples,
)

__all__ = [
    "BaseEstimator",
    "ClassifierMixin",
    "RegressorMixin",
    "TransformerMixin",
    "ClusterMixin",
    "RankerMixin",
    "clone",
    "is_classifier",
    "is_regressor",
]


def clone(estimator, *, safe: bool = True):
    """A new unfitted estimator with the same hyperparameters (deep-copied), recursively.

    Lists, tuples and sets of estimators are cloned element-wise; a non-estimator is deep-copied
    when ``safe`` is False and refused otherwise.
    """
    if isinstance(estimator, (list, tuple, set, frozenset)):
        return type(estimator)(clone(e, safe=safe) for e in estimator)
    if not hasattr(estimator, "get_params") or isinstance(estimator, type):
        if not safe:
            return copy.deepcopy(estimator)
        raise TypeError(
            f"Cannot clone object {estimator!r} (type {type(estimator).__name__}): it does not "
            "implement get_params, so it is not an estimator."
        )
    params = estimator.get_params(deep=False)
    new_params = {name: clone(value, safe=False) for name, value in params.items()}
    new = type(estimator)(**new_params)
    for name, value in new.get_params(deep=False).items():
        if value is not new_params[name]:
            raise RuntimeError(
                f"Cannot clone {type(estimator).__name__}: its constructor modifies the "
                f"parameter {name!r}; __init__ must store its arguments unchanged."
            )
    return new


def _default_tags() -> dict:
    return {
        "estimator_type": None,
        "requires_y": False,
        "requires_fit": True,
        "X_types": ["2darray"],  # also "sparse", "categorical", "string", "text", "1dlabels"
        "allow_nan": False,
        "positive_X": False,
        "positive_y": False,
        "multi_output": False,
        "binary_only": False,
        "multilabel": False,
        "poor_score": False,
        "non_deterministic": False,
        "pairwise": False,
        "preserves_dtype": ["float64"],
        "stateless": False,
        # fit accepts a Dask array / DataFrame and runs block by block (utils._blocks)
        "dask": False,
    }


class BaseEstimator:
    """Base class of every estimator: parameters, representation, tags, data bookkeeping."""

    _parameter_constraints: dict = {}

    def __init_subclass__(cls, **kwargs):
        """Wrap, once, each prediction method of the new class (its own or inherited from a
        mixin) so that a Dask X is answered block by block (:func:`lazy_on_dask`); methods
        marked ``answers_dask`` (their own Dask path, or wrapped already) are left alone."""
        super().__init_subclass__(**kwargs)
        for name in ROW_METHODS:
            attr = inspect.getattr_static(cls, name, None)
            if isinstance(attr, _AvailableIf) and not marked(attr.fn):
                setattr(cls, name, _AvailableIf(lazy_on_dask(attr.fn), attr.check, attr.reason))
            elif inspect.isfunction(attr) and not marked(attr):
                setattr(cls, name, lazy_on_dask(attr))

    # -- parameters -------------------------------------------------------------------------
    @classmethod
    def _get_param_names(cls) -> list[str]:
        init = cls.__init__
        if init is object.__init__:
            return []
        sig = inspect.signature(init)
        names = []
        for p in sig.parameters.values():
            if p.name == "self" or p.kind == p.VAR_KEYWORD:
                continue
            if p.kind == p.VAR_POSITIONAL:
                raise RuntimeError(
                    f"{cls.__name__}.__init__ takes *args; estimators must declare every "
                    "parameter explicitly."
                )
            names.append(p.name)
        return sorted(names)

    def get_params(self, deep: bool = True) -> dict:
        """The hyperparameters, and with ``deep`` those of nested estimators as ``outer__inner``."""
        out = {}
        for name in self._get_param_names():
            value = getattr(self, name)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                for sub, sub_value in value.get_params(deep=True).items():
                    out[f"{name}__{sub}"] = sub_value
            out[name] = value
        return out

    def set_params(self, **params):
        """Set hyperparameters, including nested ones written ``step__param``. Returns self."""
        if not params:
            return self
        valid = self.get_params(deep=True)
        nested: dict[str, dict] = {}
        for key, value in params.items():
            name, delim, sub = key.partition("__")
            if name not in valid:
                raise ValueError(
                    f"Invalid parameter {name!r} for estimator {type(self).__name__}. Valid "
                    f"parameters are: {sorted(self._get_param_names())!r}."
                )
            if delim:
                nested.setdefault(name, {})[sub] = value
            else:
                setattr(self, name, value)
                valid[name] = value
        for name, sub_params in nested.items():
            valid[name].set_params(**sub_params)
        return self

    def _validate_params(self) -> None:
        """Check every hyperparameter against ``_parameter_constraints`` (raises on the first)."""
        validate_params(
            self._parameter_constraints, self.get_params(deep=False), type(self).__name__
        )

    def _record_fit(self, n_iter, history, stop_reason, *, criterion, met=CONVERGED):
        """Set ``n_iter_``, ``history_``, ``stop_reason_`` and warn with ``ConvergenceWarning``
        when ``stop_reason`` is not in ``met``: the one fit record of every iterative estimator
        (see :mod:`scratchlearn.utils._fit_record` for the schema and the vocabulary)."""
        record_fit(self, n_iter, history, stop_reason, criterion=criterion, met=met, stacklevel=4)

    def __repr__(self) -> str:
        defaults = {
            p.name: p.default
            for p in inspect.signature(type(self).__init__).parameters.values()
            if p.default is not inspect.Parameter.empty
        }
        changed = []
        for name in self._get_param_names():
            value = getattr(self, name, None)
            if name in defaults and _same(value, defaults[name]):
                continue
            text = repr(value)
            if len(text) > 200:
                text = text[:180] + "..."
            changed.append(f"{name}={text}")
        return f"{type(self).__name__}({', '.join(changed)})"

    # -- tags ---------------------------------------------------------------------------------
    def _scratch_tags(self) -> dict:
        """Capabilities of this estimator; subclasses update the dict returned by ``super()``."""
        return _default_tags()

    def __sklearn_tags__(self):
        """Translate ``_scratch_tags`` for scikit-learn's common checks and meta-estimators."""
        from sklearn.utils import (
            ClassifierTags,
            InputTags,
            RegressorTags,
            Tags,
            TargetTags,
            TransformerTags,
        )

        t = self._scratch_tags()
        kind = t["estimator_type"]
        tags = Tags(
            estimator_type=kind,
            target_tags=TargetTags(
                required=t["requires_y"],
                positive_only=t["positive_y"],
                multi_output=t["multi_output"],
                single_output=True,
                one_d_labels="1dlabels" in t["X_types"],
            ),
            transformer_tags=(
                TransformerTags(preserves_dtype=list(t["preserves_dtype"]))
                if hasattr(self, "transform") or kind == "transformer"
                else None
            ),
            classifier_tags=(
                ClassifierTags(
                    poor_score=t["poor_score"],
                    multi_class=not t["binary_only"],
                    multi_label=t["multilabel"],
                )
                if kind == "classifier"
                else None
            ),
            regressor_tags=RegressorTags(poor_score=t["poor_score"])
            if kind == "regressor"
            else None,
            non_deterministic=t["non_deterministic"],
            requires_fit=t["requires_fit"],
            input_tags=InputTags(
                two_d_array="2darray" in t["X_types"],
                sparse="sparse" in t["X_types"],
                categorical="categorical" in t["X_types"],
                string="string" in t["X_types"] or "text" in t["X_types"],
                allow_nan=t["allow_nan"],
                positive_only=t["positive_X"],
                pairwise=t["pairwise"],
            ),
        )
        return tags

    # -- data bookkeeping ---------------------------------------------------------------------
    def _check_n_features(self, X, reset: bool) -> None:
        n = X.shape[1] if hasattr(X, "shape") and len(X.shape) > 1 else None
        if reset:
            if n is not None:
                self.n_features_in_ = n
            return
        if n is None or not hasattr(self, "n_features_in_"):
            return
        if n != self.n_features_in_:
            raise ValueError(
                f"X has {n} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input (it was fitted with "
                f"{self.n_features_in_})."
            )

    def _check_feature_names(self, X, reset: bool) -> None:
        names = get_feature_names(X)
        if reset:
            if names is not None:
                self.feature_names_in_ = names
            elif hasattr(self, "feature_names_in_"):
                del self.feature_names_in_
            return
        fitted = getattr(self, "feature_names_in_", None)
        if fitted is None and names is None:
            return
        name = type(self).__name__
        if names is not None and fitted is None:
            warnings.warn(
                f"X has feature names, but {name} was fitted without feature names",
                UserWarning,
                stacklevel=3,
            )
            return
        if names is None:
            warnings.warn(
                f"X does not have valid feature names, but {name} was fitted with feature names",
                UserWarning,
                stacklevel=3,
            )
            return
        if len(names) == len(fitted) and np.all(names == fitted):
            return
        raise ValueError(_feature_name_mismatch(fitted, names))

    def _validate_data(
        self, X="no_validation", y="no_validation", *, reset: bool = True, **check_params
    ):
        """Validate X (and y) and record or check ``n_features_in_`` / ``feature_names_in_``.

        ``reset=True`` (in ``fit``) records them; ``reset=False`` (in ``predict`` and friends)
        checks X against them. ``check_params`` go to :func:`check_array` / :func:`check_X_y`.
        """
        no_X = isinstance(X, str) and X == "no_validation"
        no_y = y is None or (isinstance(y, str) and y == "no_validation")
        # Before anything reads X (its column names) or records state: a Dask collection is
        # refused here by name, never computed (estimators that fit on Dask branch earlier).
        refuse_dask(X, type(self).__name__, "X")
        refuse_dask(y, type(self).__name__, "y")
        if not no_X:
            self._check_feature_names(X, reset=reset)
        if no_X and no_y:
            raise ValueError("Validation needs X, y or both.")
        if no_X:
            from .utils.validation import check_y

            return check_y(
                y, **{k: v for k, v in check_params.items() if k in ("multi_output", "y_numeric")}
            )
        if no_y:
            if y is None and self._scratch_tags()["requires_y"]:
                raise ValueError(
                    f"{type(self).__name__} requires y to be passed, but the target y is None."
                )
            check_params.pop("y_numeric", None)
            check_params.pop("multi_output", None)
            out = check_array(X, estimator=self, **check_params)
            self._check_n_features(out, reset=reset)
            return out
        X, y = check_X_y(X, y, estimator=self, **check_params)
        self._check_n_features(X, reset=reset)
        return X, y


def _same(a, b) -> bool:
    if a is b:
        return True
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True  # NaN defaults (e.g. encoded_missing_value) survive clone and load
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) or issparse(a):
        return False
    if type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return False
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - objects with odd __eq__ are simply shown
        return False


def _feature_name_mismatch(fitted, names) -> str:
    fitted_set, names_set = set(fitted), set(names)
    unexpected = sorted(names_set - fitted_set)
    missing = sorted(fitted_set - names_set)
    msg = "The feature names should match those that were passed during fit.\n"

    def listing(header, items, limit=5):
        out = header
        for item in items[:limit]:
            out += f"- {item}\n"
        if len(items) > limit:
            out += "- ...\n"
        return out

    if unexpected:
        msg += listing("Feature names unseen at fit time:\n", unexpected)
    if missing:
        msg += listing("Feature names seen at fit time, yet now missing:\n", missing)
    if not unexpected and not missing:
        msg += "Feature names must be in the same order as they were in fit.\n"
    return msg


def _check_score_weight(sample_weight, X) -> None:
    """Refuse, before predicting, a ``sample_weight`` that ``fit`` would refuse for this X.

    The mixins' ``score`` and the overrides that take ``sample_weight`` call it, so a weight of
    the wrong length is named with the length X needs ("sample_weight has 3 elements, but X has
    442 samples: ...", the message of ``fit``), not reported by the metric as "inconsistent
    numbers of samples: [442, 442, 3]". An X whose rows cannot be counted without computing
    (a Dask DataFrame), or that is not an array-like at all, is left to ``predict``, which
    names what is wrong with it.
    """
    if sample_weight is None or is_dask_collection(X) or is_dask_collection(sample_weight):
        return  # Dask: the metric checks the lengths once the predictions are computed
    try:
        n = num_samples(X)
    except TypeError:
        return
    check_sample_weight(sample_weight, n)


def _predicted(estimator, X, y, *others):
    """(y, ŷ = estimator.predict(X), *others) in memory for a score.

    A Dask X is predicted lazily, block by block, then ŷ, y and the others (weights, query
    ids; NumPy or Dask) are computed in one pass: the n predictions come into memory, not the
    n × d inputs, and the metric that follows is the in-memory one.
    """
    if not is_dask_collection(X):
        return (y, estimator.predict(X), *others)
    return compute_together(y, estimator.predict(X), *others)


class ClassifierMixin:
    """Adds mean accuracy as ``score``."""

    _estimator_type = "classifier"

    def _scratch_tags(self) -> dict:
        t = super()._scratch_tags()
        t.update(estimator_type="classifier", requires_y=True)
        return t

    def score(self, X, y, sample_weight=None) -> float:
        """Mean accuracy of ``predict(X)`` against y (weighted by ``sample_weight``)."""
        # Through the metric, so y and sample_weight are validated: a (n, 1) column once
        # broadcast against the (n,) predictions into an (n, n) comparison.
        from .metrics import accuracy_score

        _check_score_weight(sample_weight, X)
        y, y_pred, sample_weight = _predicted(self, X, y, sample_weight)
        return accuracy_score(y, y_pred, sample_weight=sample_weight)


class RegressorMixin:
    """Adds the coefficient of determination R² = 1 − SS_res / SS_tot as ``score``."""

    _estimator_type = "regressor"

    def _scratch_tags(self) -> dict:
        t = super()._scratch_tags()
        t.update(estimator_type="regressor", requires_y=True)
        return t

    def score(self, X, y, sample_weight=None) -> float:
        """R² of ``predict(X)`` against y (averaged over outputs), as ``metrics.r2_score``."""
        # Through the metric, so y and sample_weight are validated: a NaN in y once scored 1.0.
        from .metrics import r2_score

        _check_score_weight(sample_weight, X)
        y, y_pred, sample_weight = _predicted(self, X, y, sample_weight)
        return r2_score(y, y_pred, sample_weight=sample_weight)


class RankerMixin:
    """Adds the mean NDCG over queries as ``score``: the mixin of learning-to-rank estimators.

    A ranker is fitted with ``fit(X, y, qid=None)``: ``y`` holds relevance labels and ``qid``
    one query id per row; without ``qid`` every row belongs to one query. scikit-learn sees a
    ranker as a regressor that predicts scores (its tag ``estimator_type`` is "regressor",
    with ``poor_score`` because NDCG is not R²), so its common checks run unchanged;
    scratchlearn's registry reads the task "ranker" from this mixin.
    """

    _estimator_type = "ranker"

    def _scratch_tags(self) -> dict:
        t = super()._scratch_tags()
        t.update(estimator_type="regressor", requires_y=True, poor_score=True)
        return t

    def score(self, X, y, qid=None) -> float:
        """Mean over queries of NDCG (linear gain, all ranks) of ``predict(X)`` against ``y``."""
        from .metrics import ndcg_score

        y, scores, qid = _predicted(self, X, y, qid)  # predict validates X first
        return float(ndcg_score(y, scores, qid=qid))


class TransformerMixin:
    """Adds ``fit_transform``."""

    def _scratch_tags(self) -> dict:
        t = super()._scratch_tags()
        t.update(estimator_type=t["estimator_type"] or "transformer")
        return t

    def fit_transform(self, X, y=None, **fit_params):
        """``fit(X, y).transform(X)``; subclasses override it when both can share work."""
        if y is None:
            return self.fit(X, **fit_params).transform(X)
        return self.fit(X, y, **fit_params).transform(X)


class ClusterMixin:
    """Adds ``fit_predict`` returning ``labels_``."""

    _estimator_type = "clusterer"

    def _scratch_tags(self) -> dict:
        t = super()._scratch_tags()
        t.update(estimator_type="clusterer")
        return t

    def fit_predict(self, X, y=None, **fit_params):
        """Fit on X and return the cluster label of each sample."""
        self.fit(X, **fit_params)
        return self.labels_


class OneToOneFeatureMixin:
    """For transformers whose output column j comes from input column j."""

    def get_feature_names_out(self, input_features=None):
        """Output feature names: the input names (or ``x0, x1, ...``)."""
        from .utils.validation import check_is_fitted

        check_is_fitted(self, "n_features_in_")
        return _check_input_features(self, input_features)


def _check_input_features(estimator, input_features):
    """Input feature names for ``get_feature_names_out``: given, fitted, or ``x0..x{d-1}``."""
    fitted = getattr(estimator, "feature_names_in_", None)
    n = estimator.n_features_in_
    if input_features is None:
        if fitted is not None:
            return np.asarray(fitted, dtype=object)
        return np.asarray([f"x{i}" for i in range(n)], dtype=object)
    input_features = np.asarray(input_features, dtype=object)
    if fitted is not None and not np.array_equal(fitted, input_features):
        raise ValueError("input_features is not equal to feature_names_in_")
    if len(input_features) != n:
        raise ValueError(
            f"input_features should have length equal to number of features ({n}), got "
            f"{len(input_features)}"
        )
    return input_features


def is_classifier(estimator) -> bool:
    """True for classifiers (including pipelines and searches that end in one)."""
    return getattr(estimator, "_estimator_type", None) == "classifier"


def is_regressor(estimator) -> bool:
    """True for regressors."""
    return getattr(estimator, "_estimator_type", None) == "regressor"

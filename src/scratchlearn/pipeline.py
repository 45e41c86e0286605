"""Chaining transformers and a final estimator into one estimator.

A pipeline with steps (t_1, …, t_{m−1}, f) fits as

    X_0 = X,   X_s = t_s.fit_transform(X_{s−1}, y)   for s = 1..m−1,   f.fit(X_{m−1}, y)

and predicts (or transforms, scores, …) by pushing X through t_1..t_{m−1} with ``transform``
and calling the method of f. On a Dask array or DataFrame each step's ``transform`` and the
final method are lazy in turn (block by block, :mod:`scratchlearn.utils._dask_predict`), so
the pipeline's prediction is a lazy Dask array too. A step may be ``"passthrough"`` (or
None): it is skipped. Every hyperparameter of a step is reachable as ``<step name>__<param>``,
so a pipeline can be tuned by a grid search like any estimator; fit parameters are routed the
same way (``pipe.fit(X, y, clf__sample_weight=w)``).
"""

from __future__ import annotations

import time
from collections import defaultdict

from .base import BaseEstimator, _check_score_weight, clone
from .utils import Bunch
from .utils._available_if import available_if
from .utils._dask_predict import answers_dask
from .utils._param_validation import HasMethods
from .utils.validation import check_is_fitted

__all__ = ["Pipeline", "make_pipeline"]

_OWN_PARAMS = ("steps", "memory", "verbose")


def _is_passthrough(step) -> bool:
    return step is None or (isinstance(step, str) and step == "passthrough")


_MISSING_IN_STEPS = "its final step (or one of its steps) does not implement it."


def _step_methods(check):
    """``available_if(check)``; the method answers Dask input by its steps, each lazy in turn
    (so the generic path of :class:`~scratchlearn.base.BaseEstimator` steps aside)."""
    return lambda fn: available_if(check, _MISSING_IN_STEPS)(answers_dask(fn))


def _final_has(method):
    def check(pipe):
        final = pipe._final_estimator
        return not _is_passthrough(final) and hasattr(final, method)

    return _step_methods(check)


def _all_have(method):
    def check(pipe):
        return all(_is_passthrough(e) or hasattr(e, method) for _, e in pipe.steps)

    return _step_methods(check)


def _final_can_transform(pipe):
    final = pipe._final_estimator
    return _is_passthrough(final) or hasattr(final, "fit_transform") or hasattr(final, "transform")


def _fit_transform_one(transformer, X, y, params):
    if hasattr(transformer, "fit_transform"):
        return transformer.fit_transform(X, y, **params), transformer
    return transformer.fit(X, y, **params).transform(X), transformer


class Pipeline(BaseEstimator):
    """A sequence of transformers ending in any estimator, used as one estimator.

    Parameters
    ----------
    steps : list of (name, estimator) tuples
        Every step but the last must implement ``fit`` and ``transform`` (or be
        ``"passthrough"``/None); the last needs ``fit`` (or is ``"passthrough"``).
    memory : None or object with a ``cache`` method (e.g. ``joblib.Memory``)
        When given, fitted transformers are cached through it (each is cloned first).
    verbose : bool
        Print the time each step takes to fit.
    """

    _parameter_constraints = {
        "steps": [list, tuple],
        "memory": [None, HasMethods(["cache"])],
        "verbose": ["boolean"],
    }

    def __init__(self, steps, *, memory=None, verbose=False):
        self.steps = steps
        self.memory = memory
        self.verbose = verbose

    # -- parameters -----------------------------------------------------------------------
    def get_params(self, deep=True):
        """``steps``, ``memory``, ``verbose`` and, with ``deep``, each step by name and every
        step parameter as ``<name>__<param>``."""
        out = {"steps": self.steps, "memory": self.memory, "verbose": self.verbose}
        if not deep:
            return out
        try:
            pairs = [(name, est) for name, est in self.steps]
        except (TypeError, ValueError):
            return out
        for name, est in pairs:
            out[name] = est
            if hasattr(est, "get_params") and not isinstance(est, type):
                for key, value in est.get_params(deep=True).items():
                    out[f"{name}__{key}"] = value
        return out

    def set_params(self, **params):
        """Set ``steps``, replace a whole step by name, or set ``<name>__<param>``."""
        if "steps" in params:
            self.steps = params.pop("steps")
        try:
            names = [name for name, _ in self.steps]
        except (TypeError, ValueError):  # invalid steps are reported by fit, not here
            names = []
        for key in list(params):
            if key in names:
                steps = list(self.steps)
                steps[names.index(key)] = (key, params.pop(key))
                self.steps = steps
        nested = defaultdict(dict)
        for key, value in params.items():
            head, delim, rest = key.partition("__")
            if not delim:
                if head not in _OWN_PARAMS:
                    raise ValueError(
                        f"Invalid parameter {head!r} for estimator Pipeline. Valid parameters "
                        f"are: {sorted(list(_OWN_PARAMS) + names)!r}."
                    )
                setattr(self, head, value)
            elif head not in names:
                raise ValueError(
                    f"Invalid parameter {key!r} for Pipeline: there is no step named {head!r} "
                    f"(steps: {names})."
                )
            else:
                nested[head][rest] = value
        for name, sub in nested.items():
            self.named_steps[name].set_params(**sub)
        return self

    # -- structure ------------------------------------------------------------------------
    def _validate_steps(self):
        self._validate_params()
        try:
            names, estimators = zip(*self.steps)
        except (TypeError, ValueError):
            raise TypeError(
                "Pipeline steps must be a non-empty list of (name, estimator) tuples; got "
                f"{self.steps!r}."
            ) from None
        for name in names:
            if not isinstance(name, str):
                raise TypeError(f"Step names must be strings; got {name!r}.")
            if "__" in name:
                raise ValueError(f"Step names must not contain '__': got {name!r}.")
            if name in _OWN_PARAMS:
                raise ValueError(
                    f"Step name {name!r} conflicts with a constructor argument of Pipeline."
                )
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"Step names must be unique; duplicated: {dup}.")
        for name, est in zip(names[:-1], estimators[:-1]):
            if _is_passthrough(est):
                continue
            if not (hasattr(est, "fit") or hasattr(est, "fit_transform")) or not hasattr(
                est, "transform"
            ):
                raise TypeError(
                    "All intermediate steps should be transformers and implement fit and "
                    f"transform or be the string 'passthrough'. Step {name!r} ({est!r}, type "
                    f"{type(est).__name__}) does not."
                )
        final = estimators[-1]
        if not _is_passthrough(final) and not hasattr(final, "fit"):
            raise TypeError(
                "The last step of a Pipeline should implement fit or be the string "
                f"'passthrough'. Step {names[-1]!r} ({final!r}) does not."
            )

    @property
    def named_steps(self):
        """The steps as a Bunch: ``pipe.named_steps.scaler`` or ``pipe.named_steps["scaler"]``."""
        return Bunch(**dict(self.steps))

    @property
    def _final_estimator(self):
        est = self.steps[-1][1]
        return "passthrough" if est is None else est

    def _transformers(self):
        """The fitted non-final steps that actually transform (passthrough skipped)."""
        return [est for _, est in self.steps[:-1] if not _is_passthrough(est)]

    def __len__(self):
        return len(self.steps)

    def __getitem__(self, ind):
        """A sub-pipeline for a slice, a step for an int or a name."""
        if isinstance(ind, slice):
            if ind.step not in (None, 1):
                raise ValueError("Pipeline slicing only supports a step of 1.")
            return type(self)(self.steps[ind], memory=self.memory, verbose=self.verbose)
        if isinstance(ind, str):
            return self.named_steps[ind]
        return self.steps[ind][1]

    @property
    def _estimator_type(self):
        final = self._final_estimator
        if _is_passthrough(final):
            return "transformer"
        kind = getattr(final, "_estimator_type", None)
        if kind is None and hasattr(final, "__sklearn_tags__"):
            try:
                kind = final.__sklearn_tags__().estimator_type
            except Exception:  # noqa: BLE001 - a step without usable tags has no type
                kind = None
        return kind

    @property
    def classes_(self):
        """The class labels of the final step."""
        return self.steps[-1][1].classes_

    @property
    def n_features_in_(self):
        """Number of features seen by the first (non-passthrough) step."""
        for _, est in self.steps:
            if not _is_passthrough(est):
                return est.n_features_in_
        raise AttributeError("A pipeline of passthrough steps has no n_features_in_.")

    @property
    def feature_names_in_(self):
        """Feature names seen by the first (non-passthrough) step."""
        for _, est in self.steps:
            if not _is_passthrough(est):
                return est.feature_names_in_
        raise AttributeError("A pipeline of passthrough steps has no feature_names_in_.")

    def __sklearn_is_fitted__(self):
        for _, est in reversed(self.steps):
            if not _is_passthrough(est):
                try:
                    check_is_fitted(est)
                except Exception:  # noqa: BLE001 - scikit-learn's NotFittedError differs
                    return False
                return True
        return True

    def __sklearn_tags__(self):
        """The final step's tags (so ``is_classifier(pipe)`` works), with the input tags of
        the first step."""
        import copy

        from sklearn.utils import InputTags, Tags, TargetTags, TransformerTags, get_tags

        try:
            self._validate_steps()
            final = self._final_estimator
            if _is_passthrough(final):
                tags = Tags(
                    estimator_type="transformer",
                    target_tags=TargetTags(required=False),
                    transformer_tags=TransformerTags(),
                    input_tags=InputTags(),
                )
            else:
                tags = copy.deepcopy(get_tags(final))
            first = next((e for _, e in self.steps if not _is_passthrough(e)), None)
            if first is not None:
                first_tags = get_tags(first)
                tags.input_tags.sparse = first_tags.input_tags.sparse
                tags.input_tags.pairwise = first_tags.input_tags.pairwise
                tags.input_tags.string = first_tags.input_tags.string
                tags.input_tags.categorical = first_tags.input_tags.categorical
            return tags
        except (TypeError, ValueError, AttributeError):
            return Tags(
                estimator_type=None, target_tags=TargetTags(required=False), input_tags=InputTags()
            )

    # -- fitting --------------------------------------------------------------------------
    def _route(self, params):
        routed = {name: {} for name, _ in self.steps}
        for key, value in params.items():
            name, delim, param = key.partition("__")
            if not delim or name not in routed:
                raise ValueError(
                    f"Pipeline.fit does not accept the {key!r} parameter. Pass parameters to "
                    "specific steps as '<step name>__<parameter>', e.g. "
                    "'clf__sample_weight'."
                )
            routed[name][param] = value
        return routed

    def _log(self, i, name, start):
        if self.verbose:
            print(
                f"[Pipeline] (step {i + 1} of {len(self.steps)}) Processing {name}, "
                f"total={time.perf_counter() - start:6.1f}s"
            )

    def _fit_transformers(self, X, y, routed):
        fit_one = _fit_transform_one
        if self.memory is not None:
            fit_one = self.memory.cache(_fit_transform_one)
        steps = list(self.steps)
        Xt = X
        for i, (name, est) in enumerate(steps[:-1]):
            if _is_passthrough(est):
                continue
            start = time.perf_counter()
            if self.memory is not None:
                est = clone(est)
            Xt, fitted = fit_one(est, Xt, y, routed[name])
            steps[i] = (name, fitted)
            self._log(i, name, start)
        if self.memory is not None:
            self.steps = steps
        return Xt

    def fit(self, X, y=None, **params):
        """Fit every transformer in turn on the output of the previous one, then the final
        step. ``params`` are routed to steps as ``<name>__<param>``."""
        self._validate_steps()
        routed = self._route(params)
        Xt = self._fit_transformers(X, y, routed)
        name, final = self.steps[-1]
        if not _is_passthrough(final):
            start = time.perf_counter()
            final.fit(Xt, y, **routed[name])
            self._log(len(self.steps) - 1, name, start)
        return self

    @available_if(_final_can_transform, _MISSING_IN_STEPS)
    def fit_transform(self, X, y=None, **params):
        """Fit all steps and return the final step's transform of the training data."""
        self._validate_steps()
        routed = self._route(params)
        Xt = self._fit_transformers(X, y, routed)
        name, final = self.steps[-1]
        if _is_passthrough(final):
            return Xt
        if hasattr(final, "fit_transform"):
            return final.fit_transform(Xt, y, **routed[name])
        return final.fit(Xt, y, **routed[name]).transform(Xt)

    @_final_has("fit_predict")
    def fit_predict(self, X, y=None, **params):
        """Fit the transformers, then ``fit_predict`` of the final step."""
        self._validate_steps()
        routed = self._route(params)
        Xt = self._fit_transformers(X, y, routed)
        name, final = self.steps[-1]
        return final.fit_predict(Xt, y, **routed[name])

    # -- prediction -----------------------------------------------------------------------
    def _pre_transform(self, X):
        Xt = X
        for est in self._transformers():
            Xt = est.transform(Xt)
        return Xt

    @_final_has("predict")
    def predict(self, X, **params):
        """Transform X through the steps, then ``predict`` of the final step."""
        return self._final_estimator.predict(self._pre_transform(X), **params)

    @_final_has("predict_proba")
    def predict_proba(self, X, **params):
        """Transform X through the steps, then ``predict_proba`` of the final step."""
        return self._final_estimator.predict_proba(self._pre_transform(X), **params)

    @_final_has("predict_log_proba")
    def predict_log_proba(self, X, **params):
        """Transform X through the steps, then ``predict_log_proba`` of the final step."""
        return self._final_estimator.predict_log_proba(self._pre_transform(X), **params)

    @_final_has("decision_function")
    def decision_function(self, X, **params):
        """Transform X through the steps, then ``decision_function`` of the final step."""
        return self._final_estimator.decision_function(self._pre_transform(X), **params)

    @_final_has("score_samples")
    def score_samples(self, X):
        """Transform X through the steps, then ``score_samples`` of the final step."""
        return self._final_estimator.score_samples(self._pre_transform(X))

    @_final_has("score")
    def score(self, X, y=None, sample_weight=None, **params):
        """Transform X through the steps, then ``score`` of the final step."""
        _check_score_weight(sample_weight, X)  # before the transforms do any work
        if sample_weight is not None:
            params["sample_weight"] = sample_weight
        return self._final_estimator.score(self._pre_transform(X), y, **params)

    @_all_have("transform")
    def transform(self, X, **params):
        """Apply every step's ``transform`` (the final step included unless passthrough)."""
        Xt = self._pre_transform(X)
        final = self._final_estimator
        return Xt if _is_passthrough(final) else final.transform(Xt, **params)

    @_all_have("inverse_transform")
    def inverse_transform(self, X):
        """Apply every step's ``inverse_transform`` in reverse order."""
        Xt = X
        for _, est in reversed(self.steps):
            if not _is_passthrough(est):
                Xt = est.inverse_transform(Xt)
        return Xt

    def get_feature_names_out(self, input_features=None):
        """Feature names after every step's transformation."""
        names = input_features
        for name, est in self.steps:
            if _is_passthrough(est):
                continue
            if not hasattr(est, "get_feature_names_out"):
                raise AttributeError(
                    f"Estimator {name} does not provide get_feature_names_out. Did you mean to "
                    "call pipeline[:-1].get_feature_names_out()?"
                )
            names = est.get_feature_names_out(names)
        return names


def _name_steps(estimators):
    """Lower-case class names, with "-1", "-2", … added to names used more than once."""
    names = [est if isinstance(est, str) else type(est).__name__.lower() for est in estimators]
    counts = {n: names.count(n) for n in names}
    seen = defaultdict(int)
    out = []
    for n in names:
        if counts[n] > 1:
            seen[n] += 1
            out.append(f"{n}-{seen[n]}")
        else:
            out.append(n)
    return out


def make_pipeline(*steps, memory=None, verbose=False):
    """A :class:`Pipeline` whose step names are the lower-cased class names.

    Examples
    --------
    >>> from scratchlearn.datasets import load_wine
    >>> from scratchlearn.linear_model import LogisticRegression
    >>> from scratchlearn.pipeline import make_pipeline
    >>> from scratchlearn.preprocessing import StandardScaler
    >>> X, y = load_wine(return_X_y=True)
    >>> pipe = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y)
    >>> print(list(pipe.named_steps), round(pipe.score(X, y), 3))
    ['standardscaler', 'logisticregression'] 1.0
    """
    return Pipeline(list(zip(_name_steps(steps), steps)), memory=memory, verbose=verbose)

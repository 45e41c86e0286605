"""The fit record every iterative estimator leaves: ``n_iter_``, ``history_``, ``stop_reason_``.

One record, one vocabulary and one warning policy for every family (linear models, GLMs, SMO,
k-means, EM, ListNet, the perceptron), so that plots, reports and users read them one way.

``n_iter_``
    Iterations (Newton steps, L-BFGS iterations, epochs, coordinate-descent sweeps, Lloyd
    iterations) in scikit-learn's type for the estimator: an int for most, a (1,) array for
    :class:`~scratchlearn.linear_model.LogisticRegression`, a list for multi-target Lasso.
``history_``
    A dict of equal-length lists of floats, one entry for the starting point and one per
    iteration. The key ``"objective"`` always holds the quantity the estimator minimises, as
    its docstring writes it. Optional extras, named once here (:data:`HISTORY_KEYS`):

    - ``"grad_norm"``: the norm of the objective's gradient that the docstring names, ‖·‖∞ or
      ‖·‖₂ (0 at an unconstrained optimum);
    - ``"kkt_violation"``: for a solver of a box-constrained dual (SMO, dual coordinate
      descent), how far α is from the KKT conditions, in the measure its stopping rule compares
      with ``tol``: SMO's maximal violating pair m(α) − M(α), or the range PGmax − PGmin of
      the projected gradient. 0 at the optimum, where the gradient itself need not vanish, so
      it is not a gradient norm;
    - ``"dual_gap"``, ``"deviance"``, ``"step_size"``.

    A fit of k independent problems (multi-target coordinate descent, the pairs of a
    one-vs-one SVM) gives a list of k such dicts. A direct (non-iterative) solve leaves
    ``history_ = None``.
``stop_reason_``
    One of :data:`STOP_REASONS`.

The warning policy: a fit that ends without meeting its stopping criterion warns with
:class:`~scratchlearn.exceptions.ConvergenceWarning`, whatever the reason it stopped; a fit that
meets it never warns.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..exceptions import ConvergenceWarning

__all__ = ["STOP_REASONS", "CONVERGED", "HISTORY_KEYS", "record_fit"]

#: Why an iterative fit stopped. The first three mean its stopping criterion was met.
STOP_REASONS = {
    "grad_norm": "the gradient norm fell to the tolerance",
    "cost_change": "the objective changed by no more than the tolerance between iterations",
    "converged": (
        "the method's own criterion was met (duality gap, Newton decrement, centre shift, KKT "
        "violation, a direct solve, the end of an annealing schedule)"
    ),
    "max_iter": "the iteration budget ran out before the stopping criterion was met",
    "stalled": (
        "no step decreased the objective any further, before the stopping criterion was met: "
        "the objective's floating-point resolution was reached, or the problem is badly scaled"
    ),
    "separable": (
        "the classes are perfectly separated and unpenalised, so the optimum is at infinity; "
        "the fit stopped at finite coefficients that already separate them"
    ),
}

#: Stop reasons that mean the stopping criterion was met.
CONVERGED = frozenset({"grad_norm", "cost_change", "converged"})

#: Keys a ``history_`` dict may hold.
HISTORY_KEYS = ("objective", "grad_norm", "kkt_violation", "dual_gap", "deviance", "step_size")

_ADVICE = {
    "max_iter": "increase max_iter, or scale the features",
    "stalled": "scale the features, or ask for a tolerance the objective can resolve",
    "separable": "use a penalty for a finite, unique solution",
}


def _check_history(history, owner):
    """Lists of floats under known keys, all as long as ``history['objective']``."""
    if history is None:
        return None
    if isinstance(history, (list, tuple)):
        return [_check_history(h, owner) for h in history]
    unknown = set(history) - set(HISTORY_KEYS)
    if "objective" not in history or unknown:
        raise RuntimeError(  # a library bug, not a user error
            f"{owner} recorded a history with keys {sorted(history)}; the fit record needs "
            f"'objective' and allows only {HISTORY_KEYS}."
        )
    out = {key: [float(v) for v in np.ravel(values)] for key, values in history.items()}
    n = len(out["objective"])
    if any(len(values) != n for values in out.values()):
        raise RuntimeError(f"{owner} recorded history columns of different lengths.")
    return out


def record_fit(estimator, n_iter, history, stop_reason, *, criterion, met=CONVERGED, stacklevel=3):
    """Set ``n_iter_``, ``history_`` and ``stop_reason_``; warn unless the criterion was met.

    Parameters
    ----------
    estimator : the estimator being fitted.
    n_iter : int, ndarray or list, stored as given (scikit-learn's type for the estimator).
    history : dict (see the module docstring), list of dicts, or None.
    stop_reason : str, one of :data:`STOP_REASONS`.
    criterion : str
        The stopping criterion in words, for the warning (e.g. ``"‖∇F‖∞ <= tol=0.0001"``).
    met : set of str
        The stop reasons that mean this estimator's criterion was met (a subset of
        :data:`CONVERGED`; an estimator whose criterion is the gradient norm passes
        ``{"grad_norm", "converged"}`` so that an optimiser's cost-change stop warns).
    stacklevel : int
        Of the warning; the default points at the caller of ``fit``.
    """
    owner = type(estimator).__name__
    if stop_reason not in STOP_REASONS:
        raise RuntimeError(f"{owner} stopped for an undocumented reason {stop_reason!r}.")
    estimator.n_iter_ = n_iter
    estimator.history_ = _check_history(history, owner)
    estimator.stop_reason_ = stop_reason
    if stop_reason not in met:
        advice = _ADVICE.get(stop_reason, "tighten the solver's settings or scale the features")
        warnings.warn(
            f"{owner} stopped on {stop_reason!r} without meeting its stopping criterion "
            f"({criterion}): {STOP_REASONS[stop_reason]}. To fix: {advice}.",
            ConvergenceWarning,
            stacklevel=stacklevel,
        )

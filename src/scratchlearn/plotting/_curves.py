"""Curves: an optimiser's loss history, learning curves, and the fit of a regressor."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ._axes import as_2d, check_resolution, get_axes, padded_range

__all__ = [
    "plot_loss_curve",
    "plot_learning_curve",
    "plot_regression_fit",
    "plot_predicted_vs_true",
    "history_columns",
]

_OBJECTIVE_KEYS = ("J", "objective", "loss", "cost", "fun", "deviance", "value")
_GRAD_KEYS = ("grad_norm", "gradient_norm", "gnorm", "norm_grad")


def _column(record: Mapping, keys):
    for key in keys:
        if key in record and record[key] is not None:
            return np.asarray(record[key], dtype=np.float64).ravel()
    return None


def _history(history):
    """``(label, objective, grad_norm or None)`` from any history layout in use."""
    if (
        isinstance(history, (list, tuple))
        and history
        and all(isinstance(r, Mapping) for r in history)
    ):
        history = {k: [r.get(k) for r in history] for k in history[0]}
    if isinstance(history, Mapping):
        label = next((k for k in _OBJECTIVE_KEYS if history.get(k) is not None), None)
        if label is None:  # e.g. Lasso's {"dual_gap": [...]}: plot the one curve there is
            label = next((k for k in history if k not in _GRAD_KEYS), None)
        objective = None if label is None else _column(history, (label,))
        return label, objective, _column(history, _GRAD_KEYS)
    arr = np.asarray(history, dtype=np.float64)
    if arr.ndim == 1:
        return None, arr, None
    if arr.ndim == 2 and arr.shape[1] in (1, 2):
        return None, arr[:, 0], (arr[:, 1] if arr.shape[1] == 2 else None)
    raise ValueError(f"cannot read a loss history of shape {arr.shape}")


def history_columns(history):
    """``(objective, grad_norm or None)`` as float arrays from any history layout in use.

    Accepted: a mapping of columns (``{"J": [...], "grad_norm": [...]}``, the objective also
    spelled ``objective`` / ``loss`` / ``cost``; a mapping without any of those, such as
    ``{"dual_gap": [...]}``, gives its first column), a list of per-iteration mappings, a 1-D
    sequence of objective values, or an (n, 2) array of (objective, gradient norm) rows.
    """
    _, objective, grad = _history(history)
    if objective is None or objective.size == 0:
        raise ValueError("the history has no objective values (expected a 'J' or 'loss' entry)")
    return objective, grad


def _finite_points(values):
    """Iteration numbers and values where the value is finite (NaN: not computed that step)."""
    keep = np.isfinite(values)
    return np.flatnonzero(keep), values[keep]


def _use_log(values: np.ndarray, log_scale) -> bool:
    if not (isinstance(log_scale, (bool, np.bool_)) or log_scale == "auto"):
        raise ValueError(f"log_scale must be 'auto', True or False; got {log_scale!r}")
    finite = values[np.isfinite(values)]
    positive = finite.size > 0 and bool(np.all(finite > 0))
    if log_scale == "auto":
        return positive and float(finite.max()) / float(finite.min()) > 100.0
    if log_scale and not positive:
        raise ValueError("log_scale=True needs positive values; use log_scale=False")
    return bool(log_scale)


def plot_loss_curve(estimator_or_history, ax=None, log_scale="auto", label=None):
    """Plot the objective J per iteration and, when recorded, the gradient norm ‖∇J‖.

    Parameters
    ----------
    estimator_or_history : fitted estimator with ``history_``, or the history itself
        See :func:`history_columns` for the layouts understood. A pipeline is searched from its
        last step backwards for a ``history_``.
    ax : matplotlib Axes, optional
    log_scale : {"auto", True, False}, default="auto"
        Log y axes; "auto" uses them when the values are positive and span two decades.
    label : str, optional
        Legend label of the objective line (default "objective J").

    Iterations whose value is NaN (a quantity computed only every few steps, such as a
    duality gap) or infinite are left out of the line.

    Returns
    -------
    ax : matplotlib Axes
        The objective is ``ax.lines[0]``; the gradient norm is drawn on a twin y axis
        (``ax.grad_ax``, also in ``ax.figure.axes``) because its scale differs.
    """
    history = estimator_or_history
    owner = None
    if hasattr(history, "get_params") or hasattr(history, "steps"):
        owner = history
        candidates = [history] + [s[-1] for s in reversed(getattr(history, "steps", []))]
        found = [c for c in candidates if getattr(c, "history_", None) is not None]
        if not found:
            raise ValueError(f"{type(owner).__name__} has no history_ to plot")
        history = found[0].history_
    objective, grad = history_columns(history)
    name = _history(history)[0]
    name = "objective J" if name in (None, "J") else name.replace("_", " ")
    ax = get_axes(ax)
    it, objective = _finite_points(objective)
    ax.plot(
        it,
        objective,
        color="tab:blue",
        marker="." if objective.size < 50 else None,
        label=label or name,
    )
    ax.set_xlabel("iteration")
    ax.set_ylabel(name)
    if _use_log(objective, log_scale):
        ax.set_yscale("log")
    handles = ax.get_lines()
    if grad is not None and grad.size:
        twin = ax.twinx()
        it, grad = _finite_points(grad)
        twin.plot(
            it,
            grad,
            color="tab:orange",
            linestyle="--",
            label="gradient norm ‖∇J‖",
        )
        twin.set_ylabel("gradient norm ‖∇J‖")
        if _use_log(grad, log_scale):
            twin.set_yscale("log")
        ax.grad_ax = twin
        handles = handles + twin.get_lines()
    ax.legend(handles, [h.get_label() for h in handles], loc="upper right")
    ax.set_title("Loss curve" + (f" of {type(owner).__name__}" if owner is not None else ""))
    return ax


def plot_learning_curve(
    estimator, X, y, cv=5, train_sizes=None, scoring=None, ax=None, random_state=None
):
    """Training and validation score against the number of training samples.

    Runs :func:`scratchlearn.model_selection.learning_curve` and draws the mean score across
    folds with a band of ± one standard deviation, which shows bias (both curves low) and
    variance (a gap between them).

    Parameters
    ----------
    estimator : unfitted estimator
    X, y : training data
    cv : int or splitter, default=5
    train_sizes : array-like, optional
        Fractions (floats in (0, 1]) or counts; default ``linspace(0.1, 1.0, 5)``.
    scoring : str or callable, optional
        Default: the estimator's ``score``.
    ax : matplotlib Axes, optional
    random_state : int, optional
        Passed to ``learning_curve`` (which shuffles when given one).

    Returns
    -------
    ax : matplotlib Axes
        ``ax.lines[0]`` is the training mean and ``ax.lines[1]`` the validation mean.
    """
    from ..model_selection import learning_curve

    if train_sizes is None:
        train_sizes = np.linspace(0.1, 1.0, 5)
    kwargs = {"train_sizes": train_sizes, "cv": cv, "scoring": scoring}
    if random_state is not None:
        kwargs.update(shuffle=True, random_state=random_state)
    sizes, train_scores, test_scores = learning_curve(estimator, X, y, **kwargs)[:3]
    ax = get_axes(ax)
    for scores, name, colour in (
        (train_scores, "training", "tab:blue"),
        (test_scores, "validation", "tab:orange"),
    ):
        scores = np.asarray(scores, dtype=np.float64)  # (n_sizes, n_folds)
        mean, std = scores.mean(axis=1), scores.std(axis=1)
        ax.plot(sizes, mean, marker="o", color=colour, label=f"{name} score")
        ax.fill_between(sizes, mean - std, mean + std, color=colour, alpha=0.2)
    ax.set_xlabel("training samples")
    ax.set_ylabel(scoring if isinstance(scoring, str) else "score")
    ax.set_title(f"Learning curve of {type(estimator).__name__}")
    ax.legend(loc="best")
    return ax


def plot_regression_fit(estimator, X, y, ax=None, resolution: int = 200):
    """The data and a fitted one-feature regressor's prediction curve over the data's range.

    Returns
    -------
    ax : matplotlib Axes
        The samples are ``ax.collections[0]``; the curve is ``ax.lines[0]``, whose y data is
        ``estimator.predict`` at its x data.
    """
    X = as_2d(X, "plot_regression_fit", 1)
    y = np.asarray(y, dtype=np.float64)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},); got {y.shape}")
    lo, hi = padded_range(X[:, 0], 0.02)
    grid = np.linspace(lo, hi, check_resolution(resolution)).reshape(-1, 1)  # (r, 1)
    ax = get_axes(ax)
    ax.scatter(X[:, 0], y, s=15, alpha=0.7, color="tab:gray", label="data")
    ax.plot(
        grid[:, 0],
        np.asarray(estimator.predict(grid), dtype=np.float64).ravel(),
        color="tab:red",
        linewidth=2,
        label=f"{type(estimator).__name__} fit",
    )
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_title(f"Fit of {type(estimator).__name__}")
    ax.legend(loc="best")
    return ax


def plot_predicted_vs_true(y_true, y_pred, ax=None):
    """Predicted against true target values of a regressor, with the identity line y = x.

    Returns
    -------
    ax : matplotlib Axes
        The points are ``ax.collections[0]``, the identity line ``ax.lines[0]``.
    """
    y_true = np.asarray(y_true, dtype=np.float64).ravel()
    y_pred = np.asarray(y_pred, dtype=np.float64).ravel()
    if y_true.shape != y_pred.shape or y_true.size == 0:
        raise ValueError(
            f"y_true and y_pred must be non-empty and of the same length; got "
            f"{y_true.size} and {y_pred.size}"
        )
    if not (np.all(np.isfinite(y_true)) and np.all(np.isfinite(y_pred))):
        raise ValueError("y_true and y_pred must be finite (no NaN or infinity)")
    ax = get_axes(ax)
    ax.scatter(y_true, y_pred, s=15, alpha=0.7, label="samples")
    lo, hi = padded_range(np.concatenate([y_true, y_pred]), 0.02)
    ax.plot([lo, hi], [lo, hi], color="black", linestyle="--", linewidth=1, label="y = x")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("true value")
    ax.set_ylabel("predicted value")
    ax.set_title("Predicted vs true")
    ax.legend(loc="best")
    return ax

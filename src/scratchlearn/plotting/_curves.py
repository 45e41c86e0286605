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
    "history_curves",
]


#: The measure of convergence drawn beside the objective, the first of these a record has:
#: the gradient norm of a smooth solver, or the largest violation of the KKT conditions of a
#: dual one (SMO and dual coordinate descent: SVC, SVR, LinearSVC, RankSVM).
_MEASURES = {"grad_norm": "gradient norm ‖∇J‖", "kkt_violation": "KKT violation"}


def _measure(history: Mapping):
    """The key of the convergence measure that ``history`` records, or None."""
    return next((key for key in _MEASURES if key in history), None)


def _record(history: Mapping, where: str):
    """``(objective, measure or None)`` of one fit record ``{"objective": [...], ...}``, the
    measure being its ``grad_norm`` or ``kkt_violation`` (see ``_MEASURES``)."""
    if "objective" not in history:
        keys = ", ".join(map(repr, history)) or "none"
        raise ValueError(
            f"{where} has no 'objective' entry (its keys: {keys}); a fit record is a dict "
            "{'objective': [J0, J1, ...], 'grad_norm': [...] (optional)}"
        )
    objective = _values(history["objective"], f"{where}['objective']")
    key = _measure(history)
    if key is None:
        return objective, None
    grad = _values(history[key], f"{where}[{key!r}]")
    if grad.shape != objective.shape:
        raise ValueError(
            f"{where}[{key!r}] has {grad.size} values for {objective.size} objective values"
        )
    return objective, grad


def _values(values, where: str) -> np.ndarray:
    """A non-empty 1-D float array, or a ValueError naming ``where``."""
    if isinstance(values, (str, bytes, Mapping)):
        raise ValueError(f"{where} must be a sequence of numbers; got {type(values).__name__}")
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{where} must be a sequence of numbers") from None
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{where} must be a non-empty 1-D sequence; got shape {arr.shape}")
    return arr


def history_curves(history) -> list:
    """The curves of a fit record, as a list of ``(objective, measure or None)`` float arrays.

    The one schema of ``history_`` (and of ``OptimizeResult.history``):

    - a dict ``{"objective": [J0, J1, ..., Jk], "grad_norm": [...]}``: the objective at the
      start and after each iteration, the gradient norm (optional; for dual solvers the KKT
      violation ``"kkt_violation"`` takes its place) aligned with it; other keys
      (``"dual_gap"``, ``"step_size"``, ...) are ignored here. One curve.
    - a list of such dicts, one per independent problem (e.g. a multi-target Lasso): one curve
      each;
    - a bare 1-D sequence of objective values: one curve without gradient norm.

    Anything else (``None`` included: a direct solve has no history) raises ``ValueError``.
    """
    if history is None:
        raise ValueError("no history to plot: history_ is None (a direct solve)")
    if isinstance(history, Mapping):
        return [_record(history, "the history")]
    if isinstance(history, (list, tuple)) and history and isinstance(history[0], Mapping):
        if not all(isinstance(r, Mapping) for r in history):
            raise ValueError("a list history must hold only dicts, one per problem")
        return [_record(r, f"history[{k}]") for k, r in enumerate(history)]
    return [(_values(history, "the history"), None)]


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
    """Plot the objective J per iteration and, when recorded, the gradient norm ‖∇J‖ (or, for
    the dual solvers of the SVMs and RankSVM, the largest KKT violation).

    Parameters
    ----------
    estimator_or_history : fitted estimator with ``history_``, or the history itself
        See :func:`history_curves` for the schema. A pipeline is searched from its last step
        backwards for a ``history_``. A list of records (k independent problems) gives k lines.
    ax : matplotlib Axes, optional
    log_scale : {"auto", True, False}, default="auto"
        Log y axes; "auto" uses them when the values are positive and span two decades.
    label : str, optional
        Legend label of the objective line (default "objective J"; "problem i" is appended to
        each line when there are several).

    Iterations whose value is NaN (a quantity not computed at that step) or infinite are left
    out of the line.

    Returns
    -------
    ax : matplotlib Axes
        The objective of problem i is ``ax.lines[i]``; gradient norms are drawn on a twin y axis
        (``ax.grad_ax``, also in ``ax.figure.axes``) because their scale differs.
    """
    history, owner = _find_history(estimator_or_history)
    curves = history_curves(history)
    base = label or "objective J"
    names = [base] if len(curves) == 1 else [f"{base}, problem {i}" for i in range(len(curves))]
    colours = ["tab:blue"] if len(curves) == 1 else [f"C{i % 10}" for i in range(len(curves))]
    ax = get_axes(ax)
    for (objective, _), name, colour in zip(curves, names, colours):
        it, values = _finite_points(objective)
        ax.plot(it, values, color=colour, marker="." if values.size < 50 else None, label=name)
    ax.set_xlabel("iteration")
    ax.set_ylabel("objective J")
    if _use_log(np.concatenate([c[0] for c in curves]), log_scale):
        ax.set_yscale("log")
    handles = ax.get_lines()
    grads = [(g, colour) for (_, g), colour in zip(curves, colours) if g is not None]
    if grads:
        records = history if isinstance(history, (list, tuple)) else [history]
        measure = _MEASURES[next(k for k in map(_measure, records) if k is not None)]
        twin = ax.twinx()
        for grad, colour in grads:
            it, values = _finite_points(grad)
            shade = "tab:orange" if len(curves) == 1 else colour
            twin.plot(it, values, color=shade, linestyle="--", label=measure)
        twin.set_ylabel(measure)
        if _use_log(np.concatenate([g for g, _ in grads]), log_scale):
            twin.set_yscale("log")
        ax.grad_ax = twin
        handles = handles + twin.get_lines()[:1]
    ax.legend(handles, [h.get_label() for h in handles], loc="upper right")
    ax.set_title("Loss curve" + (f" of {type(owner).__name__}" if owner is not None else ""))
    return ax


def _find_history(obj):
    """``(history, owner)``: ``obj.history_`` of an estimator (or pipeline step), else ``obj``."""
    if not (hasattr(obj, "get_params") or hasattr(obj, "steps")):
        return obj, None
    candidates = [obj] + [s[-1] for s in reversed(getattr(obj, "steps", []))]
    found = [c for c in candidates if getattr(c, "history_", None) is not None]
    if not found:
        raise ValueError(f"{type(obj).__name__} has no history_ to plot")
    return found[0].history_, obj


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


def plot_regression_fit(
    estimator,
    X,
    y,
    ax=None,
    resolution: int = 200,
    label=None,
    color="tab:red",
    show_data: bool = True,
):
    """The data and a fitted one-feature regressor's prediction curve over the data's range.

    Call it once per model on the same ``ax`` (with ``show_data=False`` after the first) to
    compare several fits, e.g. polynomials of several degrees.

    Parameters
    ----------
    estimator : fitted regressor taking 1 feature
    X : array-like of shape (n_samples, 1) or (n_samples,)
    y : array-like of shape (n_samples,)
    ax : matplotlib Axes, optional
    resolution : int, default=200
        Points of the curve.
    label : str, optional
        Legend label of the curve (default "<class name> fit").
    color : matplotlib colour, default="tab:red"
    show_data : bool, default=True
        Draw the samples too.

    Returns
    -------
    ax : matplotlib Axes
        The samples are ``ax.collections[0]`` (when drawn); the new curve is ``ax.lines[-1]``,
        whose y data is ``estimator.predict`` at its x data.
    """
    X = as_2d(X, "plot_regression_fit", 1)
    y = np.asarray(y, dtype=np.float64)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},); got {y.shape}")
    lo, hi = padded_range(X[:, 0], 0.02)
    grid = np.linspace(lo, hi, check_resolution(resolution)).reshape(-1, 1)  # (r, 1)
    ax = get_axes(ax)
    if show_data:
        ax.scatter(X[:, 0], y, s=15, alpha=0.7, color="tab:gray", label="data")
    ax.plot(
        grid[:, 0],
        np.asarray(estimator.predict(grid), dtype=np.float64).ravel(),
        color=color,
        linewidth=2,
        label=label or f"{type(estimator).__name__} fit",
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

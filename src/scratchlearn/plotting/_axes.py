"""Small helpers shared by the plotting functions (matplotlib is imported only when called)."""

from __future__ import annotations

import numbers

import numpy as np


def get_axes(ax):
    """``ax`` itself, or the axes of a new pyplot figure when ``ax`` is None."""
    if ax is not None:
        return ax
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - exercised only without matplotlib
        raise ImportError(
            "scratchlearn.plotting needs matplotlib: pip install 'scratchlearn[plot]'"
        ) from exc
    _, ax = plt.subplots()
    return ax


def palette(n: int):
    """``n`` distinct colours: matplotlib's tab10 cycle, then tab20 for more classes."""
    from matplotlib import colormaps

    cmap = colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


def as_2d(X, name: str, n_features: int | None = None) -> np.ndarray:
    """X as a float array of shape (n, d), checking ``d`` when given."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim == 1 and n_features == 1:
        X = X.reshape(-1, 1)
    if X.ndim != 2 or (n_features is not None and X.shape[1] != n_features):
        want = f"(n_samples, {n_features})" if n_features else "(n_samples, n_features)"
        raise ValueError(f"{name} needs X of shape {want}; got shape {X.shape}")
    if X.shape[0] == 0:
        raise ValueError(f"{name} needs at least one sample")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} needs finite X (no NaN or infinity)")
    return X


def check_resolution(resolution) -> int:
    """The number of grid points per axis: an int of at least 2."""
    if (
        isinstance(resolution, (bool, np.bool_))
        or not isinstance(resolution, numbers.Integral)
        or resolution < 2
    ):
        raise ValueError(f"resolution must be an int of at least 2; got {resolution!r}")
    return int(resolution)


def padded_range(values: np.ndarray, fraction: float = 0.05) -> tuple[float, float]:
    """[min, max] widened by ``fraction`` of the span on each side (1 when the span is 0)."""
    lo, hi = float(np.min(values)), float(np.max(values))
    pad = (hi - lo) * fraction if hi > lo else 1.0
    return lo - pad, hi + pad


def legend_outside(ax, **kwargs):
    """A legend to the right of ``ax``, outside the data, top-aligned with it.

    With the constrained layout the figure makes room for it (the axes shrink); ``kwargs``
    go to ``ax.legend`` (``handles``, ``labels``, ``title``, ``fontsize``...).
    """
    kwargs.setdefault("fontsize", "small")
    return ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kwargs)

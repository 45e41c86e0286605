"""Plots for classifiers: decision regions of a 2-D model and the confusion matrix."""

from __future__ import annotations

import numpy as np

from ._axes import as_2d, check_resolution, get_axes, padded_range, palette

__all__ = ["plot_decision_regions", "plot_confusion_matrix"]


def plot_decision_regions(
    estimator,
    X,
    y,
    ax=None,
    resolution: int = 200,
    alpha: float = 0.3,
    feature_names=None,
    legend: bool = True,
    s: float = 25,
    support_vectors: bool = False,
):
    """Colour the plane by the class a fitted 2-feature classifier predicts, over the data.

    The plane spans the data's range plus 5% on each side and is sampled on a
    ``resolution × resolution`` grid; each grid point gets the colour of ``estimator.predict``
    there (a filled contour), and each sample is drawn in its true class's colour.

    Parameters
    ----------
    estimator : fitted classifier taking 2 features
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        True labels of the drawn samples.
    ax : matplotlib Axes, optional
        Axes to draw on; a new figure is made when None.
    resolution : int, default=200
        Grid points per axis.
    alpha : float, default=0.3
        Opacity of the regions.
    feature_names : pair of str, optional
        Axis labels (default ``x0`` and ``x1``).
    legend : bool, default=True
    s : float, default=25
        Marker size of the samples.
    support_vectors : bool, default=False
        For a fitted support vector machine: circle ``estimator.support_vectors_`` and, when
        ``decision_function`` gives one value per point (two classes), draw its level sets
        f = 0 (the decision boundary, solid) and f = ±1 (the margins, dashed).

    Returns
    -------
    ax : matplotlib Axes
        With the region contour as its first collection and one scatter per class after it.
    """
    from matplotlib.colors import ListedColormap

    X = as_2d(X, "plot_decision_regions", 2)
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},); got {y.shape}")
    resolution = check_resolution(resolution)
    ax = get_axes(ax)

    (x0_lo, x0_hi), (x1_lo, x1_hi) = padded_range(X[:, 0]), padded_range(X[:, 1])
    g0, g1 = np.meshgrid(
        np.linspace(x0_lo, x0_hi, resolution), np.linspace(x1_lo, x1_hi, resolution)
    )  # each (r, r)
    grid = np.column_stack([g0.ravel(), g1.ravel()])  # (r², 2)
    Z = np.asarray(estimator.predict(grid))
    if support_vectors and not hasattr(estimator, "support_vectors_"):
        raise ValueError(
            f"support_vectors=True needs a fitted support vector machine; "
            f"{type(estimator).__name__} has no support_vectors_"
        )

    classes = getattr(estimator, "classes_", None)
    classes = np.unique(y) if classes is None else np.asarray(classes)
    classes = np.union1d(classes, np.union1d(np.unique(y), np.unique(Z)))
    colours = palette(len(classes))
    Z_idx = np.searchsorted(classes, Z).reshape(g0.shape)  # class index of each grid point
    levels = np.arange(len(classes) + 1) - 0.5
    ax.contourf(g0, g1, Z_idx, levels=levels, cmap=ListedColormap(colours), alpha=alpha)

    for k, label in enumerate(classes):
        mask = y == label
        if np.any(mask):
            ax.scatter(
                X[mask, 0],
                X[mask, 1],
                color=colours[k],
                edgecolor="black",
                linewidth=0.5,
                s=s,
                label=str(label),
            )
    if support_vectors:
        _draw_margins(ax, estimator, grid, g0, g1, s)
    names = ("x0", "x1") if feature_names is None else tuple(feature_names)
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    ax.set_xlim(x0_lo, x0_hi)
    ax.set_ylim(x1_lo, x1_hi)
    ax.set_title(f"Decision regions of {type(estimator).__name__}")
    if legend:
        ax.legend(title="class", loc="best", fontsize="small")
    return ax


def _draw_margins(ax, estimator, grid, g0, g1, s):
    """The level sets f = −1, 0, +1 of a binary decision function, and circled support vectors."""
    F = np.asarray(estimator.decision_function(grid))
    if F.ndim == 1:
        ax.contour(
            g0,
            g1,
            F.reshape(g0.shape),
            levels=[-1.0, 0.0, 1.0],
            colors="black",
            linestyles=["dashed", "solid", "dashed"],
            linewidths=1.0,
        )
    sv = np.asarray(estimator.support_vectors_)
    if sv.ndim == 2 and sv.shape[1] == 2:
        ax.scatter(
            sv[:, 0],
            sv[:, 1],
            s=4 * s,
            facecolors="none",
            edgecolors="black",
            linewidths=1.2,
            label="support vectors",
        )


def plot_confusion_matrix(
    y_true,
    y_pred,
    labels=None,
    normalize=None,
    ax=None,
    cmap="Blues",
    values_format=None,
    colorbar: bool = True,
    display_labels=None,
):
    """Draw the confusion matrix C (rows: true class, columns: predicted class) with its values.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    labels : array-like, optional
        Classes to show, in order (default: every label seen in either input, sorted).
    normalize : {None, "true", "pred", "all"}, default=None
        Divide each row (``"true"``: recall per class), column (``"pred"``: precision per class)
        or the whole matrix by its sum. Rows or columns that sum to 0 stay 0.
    ax : matplotlib Axes, optional
    cmap : str, default="Blues"
    values_format : str, optional
        Format of the cell text (default ``"d"`` for counts, ``".2f"`` when normalised).
    colorbar : bool, default=True
    display_labels : list of str, optional
        Tick labels shown for ``labels`` (e.g. class names for integer codes).

    Returns
    -------
    ax : matplotlib Axes
        The matrix is ``ax.images[0]`` and each cell has a text.
    """
    from ..metrics import confusion_matrix

    if normalize not in (None, "true", "pred", "all"):
        raise ValueError(f"normalize must be None, 'true', 'pred' or 'all'; got {normalize!r}")
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if labels is None:
        labels = np.union1d(np.unique(y_true), np.unique(y_pred))
    labels = np.asarray(labels)
    C = np.asarray(confusion_matrix(y_true, y_pred, labels=labels), dtype=np.float64)  # (K, K)
    if normalize is not None:
        total = {
            "true": C.sum(axis=1, keepdims=True),
            "pred": C.sum(axis=0, keepdims=True),
            "all": C.sum(),
        }[normalize]
        with np.errstate(invalid="ignore", divide="ignore"):
            C = np.where(total > 0, C / np.where(total > 0, total, 1.0), 0.0)
    fmt = values_format or ("d" if normalize is None else ".2f")

    ax = get_axes(ax)
    image = ax.imshow(
        C, interpolation="nearest", cmap=cmap, vmin=0.0, vmax=max(float(C.max()), 1e-12)
    )
    threshold = (C.max() + C.min()) / 2.0
    for i in range(C.shape[0]):
        for j in range(C.shape[1]):
            value = int(round(C[i, j])) if fmt == "d" else C[i, j]
            ax.text(
                j,
                i,
                format(value, fmt),
                ha="center",
                va="center",
                color="white" if C[i, j] > threshold else "black",
            )
    names = [str(v) for v in (labels if display_labels is None else display_labels)]
    if len(names) != len(labels):
        raise ValueError(f"display_labels has {len(names)} names for {len(labels)} labels")
    ticks = np.arange(len(labels))
    ax.set_xticks(ticks, names)
    ax.set_yticks(ticks, names)
    ax.set_xlabel("predicted label")
    ax.set_ylabel("true label")
    ax.set_title("Confusion matrix" + (f" (normalised over {normalize})" if normalize else ""))
    if colorbar:
        ax.figure.colorbar(image, ax=ax)
    return ax

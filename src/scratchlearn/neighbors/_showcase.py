"""The neighbours part of the demo: ``showcase()`` returns a printable report.

On the wine measurements (13 features, 3 cultivars), standardised with the training split's
mean and deviation:

1. accuracy against k, on the training and the held-out rows: k = 1 fits the training set
   perfectly (each point is its own neighbour) and varies most; a large k smooths towards the
   majority class (the bias–variance picture);
2. the five distances side by side (Euclidean, Manhattan, Minkowski p = 3, cosine, and Hamming on
   the features binarised at their training medians, since Hamming counts differing values);
3. uniform against 1/d weighting;
4. decision regions on two features, uniform against 1/d votes at the same k (figure).
"""

from __future__ import annotations

import numpy as np

from ._classification import KNeighborsClassifier

__all__ = ["showcase", "figures"]

K_VALUES = (1, 3, 5, 9, 15, 25, 41, 61, 91)
FEATURES_2D = (0, 9)  # alcohol, colour intensity
K_REGIONS = 15  # the k of the regions figure: large enough for the two weightings to differ


def _wine():
    """(X_train, X_test, y_train, y_test, feature names), 70 / 30, standardised on train."""
    from ..datasets import load_wine

    data = load_wine()
    order = np.random.default_rng(0).permutation(data.data.shape[0])
    cut = int(0.7 * len(order))
    tr, te = order[:cut], order[cut:]
    mu, sd = data.data[tr].mean(axis=0), data.data[tr].std(axis=0)
    X = (data.data - mu) / sd
    return X[tr], X[te], data.target[tr], data.target[te], list(data.feature_names)


def _accuracy_against_k():
    Xtr, Xte, ytr, yte, _ = _wine()
    rows = []
    for k in K_VALUES:
        m = KNeighborsClassifier(n_neighbors=k).fit(Xtr, ytr)
        rows.append((k, m.score(Xtr, ytr), m.score(Xte, yte)))
    return np.array(rows)


def _distances():
    Xtr, Xte, ytr, yte, _ = _wine()
    out = []
    for label, params in (
        ("euclidean", {"metric": "euclidean"}),
        ("manhattan", {"metric": "manhattan"}),
        ("minkowski p=3", {"metric": "minkowski", "p": 3}),
        ("cosine", {"metric": "cosine"}),
    ):
        m = KNeighborsClassifier(n_neighbors=5, **params).fit(Xtr, ytr)
        out.append((label, m.score(Xte, yte)))
    med = np.median(Xtr, axis=0)
    m = KNeighborsClassifier(n_neighbors=5, metric="hamming").fit(Xtr > med, ytr)
    out.append(("hamming (binarised)", m.score(Xte > med, yte)))
    return out


def _weighting():
    Xtr, Xte, ytr, yte, _ = _wine()
    out = []
    for k in (5, 15, 41):
        scores = [
            KNeighborsClassifier(n_neighbors=k, weights=w).fit(Xtr, ytr).score(Xte, yte)
            for w in ("uniform", "distance")
        ]
        out.append((k, *scores))
    return out


def showcase() -> str:
    """The printed part of the story."""
    Xtr, Xte, *_ = _wine()
    lines = [f"k-NN on wine: {len(Xtr)} training / {len(Xte)} held-out rows, standardised"]
    lines.append("  accuracy against k (train / held-out):")
    curve = _accuracy_against_k()
    best = int(curve[np.argmax(curve[:, 2]), 0])
    for k, a_tr, a_te in curve:
        mark = "  <- best held-out" if int(k) == best else ""
        lines.append(f"    k = {int(k):3d}: {a_tr:.3f} / {a_te:.3f}{mark}")
    lines.append("  five distances (k = 5, held-out accuracy):")
    lines.extend(f"    {label:<20s} {acc:.3f}" for label, acc in _distances())
    lines.append("  uniform against 1/d weights (held-out accuracy):")
    lines.extend(f"    k = {k:2d}: uniform {u:.3f}, distance {d:.3f}" for k, u, d in _weighting())
    return "\n".join(lines) + "\n"


# -- figures (written by `scratchlearn demo` when matplotlib is installed) ---------------------
def _k_figure(fig) -> None:
    """Training and held-out accuracy against k."""
    fig.set_layout_engine("constrained")
    curve = _accuracy_against_k()
    ax = fig.add_subplot()
    ax.plot(curve[:, 0], curve[:, 1], marker="o", label="training")
    ax.plot(curve[:, 0], curve[:, 2], marker="o", label="held-out")
    ax.set_xscale("log")
    ax.set_xlabel("k (neighbours)")
    ax.set_ylabel("accuracy")
    ax.set_title("k-NN on wine: small k over-fits, large k under-fits")
    ax.legend(loc="lower left")


def _regions_figure(fig) -> None:
    """Decision regions on two features at k = K_REGIONS: uniform votes against 1/d votes."""
    from ..plotting import plot_decision_regions
    from ..plotting._axes import legend_outside

    fig.set_layout_engine("constrained")
    Xtr, _, ytr, _, names = _wine()
    X2 = Xtr[:, list(FEATURES_2D)]
    fig.set_size_inches(11, 4.5)
    axes = fig.subplots(1, 2, sharey=True)
    for ax, weights, how in zip(axes, ("uniform", "distance"), ("one vote each", "votes 1/d")):
        model = KNeighborsClassifier(n_neighbors=K_REGIONS, weights=weights).fit(X2, ytr)
        plot_decision_regions(
            model, X2, ytr, ax=ax, resolution=120, legend=False,
            feature_names=[f"{names[j]} (standardised)" for j in FEATURES_2D],
        )  # fmt: skip
        ax.set_title(
            f"weights={weights!r} ({how}), k = {K_REGIONS}\n"
            f"training accuracy {model.score(X2, ytr):.2f}"
        )
    axes[1].set_ylabel("")
    legend_outside(axes[1], title="cultivar")
    fig.suptitle("k-NN on two wine features: distance weighting lets the nearest points win")


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [("knn_accuracy_k.png", _k_figure), ("knn_regions.png", _regions_figure)]

"""The multi-class part of the demo: one-vs-rest against one-vs-one.

1. Handwritten digits (10 classes), Gaussian naive Bayes as the binary learner: 10 one-vs-rest
   learners on all rows against 45 one-vs-one learners on two classes' rows each, held-out
   accuracy, fit time, and how often the two strategies disagree. (One-vs-rest's "rest" is a
   mixture of nine digits, which one Gaussian per feature models badly; each one-vs-one learner
   only separates two digits.)
2. Wine on two measurements: where the two strategies draw different boundaries (figure).
"""

from __future__ import annotations

import time

import numpy as np

from ..linear_model import LogisticRegression
from ..naive_bayes import GaussianNB
from ._ovo import OneVsOneClassifier
from ._ovr import OneVsRestClassifier

__all__ = ["showcase", "figures"]

_WINE_FEATURES = (0, 6)  # alcohol, flavanoids


def _split(n, test_fraction=0.3, seed=0):
    order = np.random.default_rng(seed).permutation(n)
    n_test = int(round(test_fraction * n))
    return order[n_test:], order[:n_test]


def _digits():
    from ..datasets import load_digits

    data = load_digits()
    X = data.data / 16.0  # pixel intensities 0..16 → [0, 1]
    train, test = _split(X.shape[0])
    return X[train], data.target[train], X[test], data.target[test]


def _wine_two_features():
    from ..datasets import load_wine

    data = load_wine()
    X = data.data[:, _WINE_FEATURES]
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    names = [data.feature_names[j] + " (standardised)" for j in _WINE_FEATURES]
    return X, data.target, names


def _digits_section(lines):
    X, y, X_test, y_test = _digits()
    lines.append(
        f"Digits: {X.shape[0]} training / {X_test.shape[0]} held-out 8×8 images, 10 classes"
    )
    for base in (GaussianNB(),):
        preds = {}
        for cls in (OneVsRestClassifier, OneVsOneClassifier):
            start = time.perf_counter()
            model = cls(base).fit(X, y)
            seconds = time.perf_counter() - start
            preds[cls] = model.predict(X_test)
            rows = len(y) if cls is OneVsRestClassifier else round(2 * len(y) / 10)
            lines.append(
                f"  {cls.__name__}({type(base).__name__}): {len(model.estimators_)} learners "
                f"on ~{rows} rows each, fit {seconds:.2f} s, held-out accuracy "
                f"{np.mean(preds[cls] == y_test):.4f}"
            )
        differ = np.mean(preds[OneVsRestClassifier] != preds[OneVsOneClassifier])
        lines.append(f"    the two strategies disagree on {differ:.1%} of the held-out images")


def _wine_section(lines):
    X, y, _ = _wine_two_features()
    ovr = OneVsRestClassifier(LogisticRegression()).fit(X, y)
    ovo = OneVsOneClassifier(LogisticRegression()).fit(X, y)
    g = np.linspace(-3, 3, 121)
    grid = np.column_stack([np.repeat(g, g.size), np.tile(g, g.size)])  # (121², 2)
    differ = np.mean(ovr.predict(grid) != ovo.predict(grid))
    lines.append(
        f"Wine on alcohol and flavanoids (logistic regression): training accuracy "
        f"one-vs-rest {ovr.score(X, y):.4f}, one-vs-one {ovo.score(X, y):.4f}; the two "
        f"strategies assign {differ:.1%} of the square [-3, 3]² to different classes"
    )


def showcase() -> str:
    """The multi-class demo as text (no printing: the caller decides where it goes)."""
    lines: list[str] = []
    for section in (_digits_section, _wine_section):
        section(lines)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# -- figures (written by `scratchlearn demo` when matplotlib is installed) ---------------------
def _regions(fig) -> None:
    """Decision regions of one-vs-rest and one-vs-one logistic regression on two wine features."""
    from .. import plotting
    from ..plotting._axes import legend_outside

    fig.set_layout_engine("constrained")
    fig.set_size_inches(11, 4.8)
    X, y, names = _wine_two_features()
    axes = fig.subplots(1, 2, sharey=True)
    for ax, cls in zip(axes, (OneVsRestClassifier, OneVsOneClassifier)):
        model = cls(LogisticRegression()).fit(X, y)
        plotting.plot_decision_regions(model, X, y, ax=ax, feature_names=names, legend=False)
        ax.set_title(f"{cls.__name__}: {len(model.estimators_)} learners")
    axes[1].set_ylabel("")
    legend_outside(axes[1], title="cultivar")
    fig.suptitle("Logistic regression on two wine features: where the two strategies disagree")


def _confusion(fig) -> None:
    """Held-out confusion matrices of both strategies on the digits (Gaussian naive Bayes)."""
    from .. import plotting

    fig.set_layout_engine("constrained")
    fig.set_size_inches(11, 5)
    X, y, X_test, y_test = _digits()
    for k, cls in enumerate((OneVsRestClassifier, OneVsOneClassifier)):
        model = cls(GaussianNB()).fit(X, y)
        y_pred = model.predict(X_test)
        ax = fig.add_subplot(1, 2, k + 1)
        plotting.plot_confusion_matrix(y_test, y_pred, ax=ax, colorbar=False)
        ax.set_title(f"{cls.__name__}: accuracy {np.mean(y_pred == y_test):.3f}")
    fig.suptitle(
        f"Digits, Gaussian naive Bayes as the binary learner: {len(y_test)} held-out images"
    )


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [
        ("ovr_ovo_regions.png", _regions),
        ("ovr_ovo_confusion.png", _confusion),
    ]

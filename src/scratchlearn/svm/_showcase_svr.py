"""The ε-SVR part of the SVM demo: ``showcase()`` returns a printable report.

A noisy sine (80 points) fitted by RBF ε-SVR for several tube half-widths ε. The KKT conditions
say which points carry weight: inside the tube β = α − α* = 0, on its edge 0 < |β| < C, outside
|β| = C. So widening the tube drops support vectors, and the fit ignores more of the noise. Then
the diabetes data: the same solver against scikit-learn's LIBSVM (the test suite asserts the
bounds; here the numbers are printed).
"""

from __future__ import annotations

import numpy as np

from ._svr import SVR

__all__ = ["showcase", "figures"]

EPSILONS = (0.05, 0.2, 0.5)


def _sine():
    rng = np.random.default_rng(0)
    x = np.sort(rng.uniform(0, 2 * np.pi, 80))
    return x[:, None], np.sin(x) + rng.normal(0, 0.2, x.size)


def _tube_section(lines):
    X, y = _sine()
    lines.append("epsilon-SVR (RBF, C = 1) on a noisy sine, 80 points: the tube and its SVs")
    lines.append("  epsilon  support vectors  at |beta| = C  rms error vs sin(x)  SMO iterations")
    for eps in EPSILONS:
        m = SVR(C=1.0, epsilon=eps, gamma=0.5).fit(X, y)
        at_c = int(np.sum(np.abs(m.dual_coef_) >= 1.0 - 1e-12))
        rms = float(np.sqrt(np.mean((m.predict(X) - np.sin(X[:, 0])) ** 2)))
        lines.append(
            f"  {eps:7.2f}  {m.support_.size:15d}  {at_c:13d}  {rms:19.4f}  {m.n_iter_:14d}"
        )


def _diabetes_section(lines):
    from sklearn import svm as sk_svm  # the oracle, installed with the test extras

    from ..datasets import load_diabetes

    data = load_diabetes()
    X = (data.data - data.data.mean(0)) / data.data.std(0)
    y = (data.target - data.target.mean()) / data.target.std()
    lines.append("Diabetes (442 x 10, standardised), RBF SVR against LIBSVM at tol = 1e-3:")
    ours, theirs = SVR().fit(X, y), sk_svm.SVR().fit(X, y)
    diff = np.max(np.abs(ours.predict(X) - theirs.predict(X)))
    lines.append(
        f"  support vectors {ours.support_.size} (LIBSVM {theirs.support_.size}), "
        f"iterations {ours.n_iter_} (LIBSVM {int(np.ravel(theirs.n_iter_)[0])}), "
        f"largest prediction difference {diff:.1e}"
    )


def showcase() -> str:
    """The SVR demo as text (no printing: the caller decides where it goes)."""
    lines: list[str] = []
    _tube_section(lines)
    lines.append("")
    try:
        _diabetes_section(lines)
    except ImportError:
        lines.append("(scikit-learn not installed: the comparison with LIBSVM is skipped)")
    return "\n".join(lines).rstrip() + "\n"


def _tube_figure(fig) -> None:
    from ..plotting._axes import legend_outside

    fig.set_layout_engine("constrained")
    fig.set_size_inches(12, 4.4)
    X, y = _sine()
    grid = np.linspace(0, 2 * np.pi, 400)[:, None]
    axes = fig.subplots(1, len(EPSILONS), sharey=True)
    for ax, eps in zip(axes, EPSILONS):
        m = SVR(C=1.0, epsilon=eps, gamma=0.5).fit(X, y)
        f = m.predict(grid)
        ax.fill_between(grid[:, 0], f - eps, f + eps, alpha=0.2, label="ε-tube f(x) ± ε")
        ax.plot(grid[:, 0], f, label="f(x)")
        ax.scatter(X[:, 0], y, s=10, c="k", label="data")
        sv = m.support_
        ax.scatter(
            X[sv, 0], y[sv], s=60, facecolors="none", edgecolors="r",
            label="support vectors\n(on or outside the tube)",
        )  # fmt: skip
        ax.set_title(f"ε = {eps}\n{sv.size} support vectors")
        ax.set_xlabel("x")
    axes[0].set_ylabel("y = sin(x) + noise")
    legend_outside(axes[-1])
    fig.suptitle("ε-SVR (RBF kernel, C = 1) on a noisy sine: a wider tube, fewer support vectors")


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [("svr_epsilon_tube.png", _tube_figure)]

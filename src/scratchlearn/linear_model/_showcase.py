"""The linear-model part of the demo: bias and variance with polynomials, and a classifier.

``showcase()`` returns a short text report (models never print; the demo prints it):

1. polynomial regression of degrees 1, 3, 9 and 15 on a noisy sine, 20 training points and
   200 held-out points: the training error keeps falling with the degree while the held-out
   error falls (degree 1 under-fits) and then rises (degree 15 over-fits);
2. logistic regression on the Wisconsin breast-cancer data, standardised with the training
   set's statistics, with its held-out accuracy.
"""

from __future__ import annotations

import numpy as np

from ._least_squares import PolynomialRegression
from ._logistic import LogisticRegression

__all__ = ["showcase", "figures"]


def _mse(y, p):
    return float(np.mean((y - p) ** 2))


def _polynomial_table(rng) -> list[str]:
    def sample(n):
        x = rng.uniform(0.0, 1.0, n)
        return x[:, None], np.sin(2 * np.pi * x) + 0.3 * rng.standard_normal(n)

    X_tr, y_tr = sample(20)
    X_te, y_te = sample(200)
    lines = [
        "Polynomial regression, y = sin(2πx) + noise (σ = 0.3), 20 training / 200 held-out",
        f"  {'degree':>6}  {'train MSE':>10}  {'held-out MSE':>12}",
    ]
    for degree in (1, 3, 9, 15):
        m = PolynomialRegression(degree=degree).fit(X_tr, y_tr)
        lines.append(
            f"  {degree:>6}  {_mse(y_tr, m.predict(X_tr)):>10.4f}  "
            f"{_mse(y_te, m.predict(X_te)):>12.4f}"
        )
    lines.append("  degree 1 under-fits (both errors high); degree 15 over-fits (lowest training")
    lines.append("  error, huge held-out error); the noise variance 0.09 is the best held-out MSE.")
    return lines


def _breast_cancer(rng) -> list[str]:
    try:
        from ..datasets import load_breast_cancer
    except ImportError:  # the datasets module is written separately
        return ["Logistic regression: scratchlearn.datasets.load_breast_cancer unavailable."]
    data = load_breast_cancer()
    X, y = np.asarray(data.data, dtype=float), np.asarray(data.target)
    idx = rng.permutation(len(y))
    cut = int(0.7 * len(y))
    tr, te = idx[:cut], idx[cut:]
    mean, std = X[tr].mean(axis=0), X[tr].std(axis=0)
    std[std == 0] = 1.0
    X_tr, X_te = (X[tr] - mean) / std, (X[te] - mean) / std  # training statistics only
    m = LogisticRegression(C=1.0).fit(X_tr, y[tr])
    return [
        "Logistic regression on breast cancer (569 tumours, 30 features), 70/30 split",
        f"  solver={m.solver_}, {int(m.n_iter_[0])} iterations, stop: {m.stop_reason_}",
        f"  training accuracy {m.score(X_tr, y[tr]):.3f}, held-out accuracy "
        f"{m.score(X_te, y[te]):.3f}",
    ]


def showcase() -> str:
    """Text report of the two linear-model demonstrations (deterministic: seeded)."""
    rng = np.random.default_rng(0)
    return "\n".join(_polynomial_table(rng) + [""] + _breast_cancer(rng))


# -- figures (written by `scratchlearn demo` when matplotlib is installed) ---------------------
def _polynomial_fits(fig) -> None:
    """Degrees 1, 3 and 12 on 40 patients of the diabetes data: body-mass index → progression."""
    from .. import plotting
    from ..datasets import load_diabetes
    from ..plotting._axes import legend_outside

    fig.set_layout_engine("constrained")
    fig.set_size_inches(9, 5)
    data = load_diabetes()
    idx = np.random.default_rng(0).permutation(len(data.target))[:40]
    x, y = data.data[idx, 2], np.asarray(data.target, dtype=float)[idx]  # column 2: bmi
    ax = fig.add_subplot()
    for k, degree in enumerate((1, 3, 12)):
        model = PolynomialRegression(degree=degree).fit(x[:, None], y)
        label = f"degree {degree}\n(training R² {model.score(x[:, None], y):.2f})"
        plotting.plot_regression_fit(
            model, x, y, ax=ax, label=label, color=f"C{k}", show_data=k == 0
        )
    span = y.max() - y.min()
    ax.set_ylim(y.min() - 0.3 * span, y.max() + 0.3 * span)  # the degree-12 swings leave the data
    ax.set_xlabel("body-mass index (centred and scaled)")
    ax.set_ylabel("disease progression after one year")
    ax.set_title(
        "Polynomial regression on 40 diabetes patients:\n"
        "degree 1 under-fits, degree 12 over-fits (it chases the noise)"
    )
    legend_outside(ax, labelspacing=1.0)


def _loss_curve(fig) -> None:
    """Batch gradient descent on the logistic loss of the standardised breast-cancer data."""
    from .. import plotting
    from ..datasets import load_breast_cancer

    fig.set_layout_engine("constrained")
    data = load_breast_cancer()
    X = np.asarray(data.data, dtype=float)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    model = LogisticRegression(solver="gd").fit(X, data.target)  # defaults converge: no warning
    ax = plotting.plot_loss_curve(model.history_, ax=fig.add_subplot())
    ax.set_title(
        "LogisticRegression(solver='gd') on breast cancer:\n"
        f"{model.n_iter_[0]} iterations, stopped by {model.stop_reason_!r}"
    )


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [("polynomial_fits.png", _polynomial_fits), ("loss_curve.png", _loss_curve)]

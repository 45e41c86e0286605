"""The support vector machines part of the demo: ``showcase()`` returns a printable report.

1. The seed's five students, solved exactly: the hard margin (C = inf) with a linear kernel.
   Only students C (3 h, 70 %) and E (5 h, 80 %) touch the margin, so w is parallel to E − C:
   w = 2(E − C)/‖E − C‖² = (1/26, 5/26), b = −1 − w·C = −379/26, margin 2/‖w‖ = ‖E − C‖ = √104,
   α_C = α_E = 2/‖E − C‖² = 1/52 (the seed's weights 0.4, 0.02, −2.8 were invented, not trained).
2. XOR: no line separates the four points (the hard margin says so); a degree-2 polynomial and
   an RBF kernel do.
3. Soft margins on two iris measurements of two overlapping species: as C grows the margin
   narrows, fewer points sit inside it, and the slack Σξ shrinks.
"""

from __future__ import annotations

import numpy as np

from ._svc import SVC

__all__ = ["showcase", "figures"]

SOFT_CS = (0.01, 1.0, 100.0)


def _students():
    from ..datasets import load_student_pass

    data = load_student_pass()
    return data, SVC(kernel="linear", C=np.inf).fit(data.data, data.target)


def _student_section(lines):
    data, m = _students()
    names = np.array(["A", "B", "C", "D", "E"])
    (w1, w2), b = m.coef_[0], m.intercept_[0]
    lines.append("The seed's students (hours, attendance %): hard-margin linear SVM, exact")
    lines.append(f"  w = ({w1:.6f}, {w2:.6f})   exact (1/26, 5/26) = ({1 / 26:.6f}, {5 / 26:.6f})")
    lines.append(f"  b = {b:.6f}   exact -379/26 = {-379 / 26:.6f}")
    lines.append(f"  margin 2/||w|| = {m.margin_width_[0]:.6f}   exact sqrt(104) = {104**0.5:.6f}")
    lines.append(
        f"  support vectors: students {', '.join(names[m.support_])}, "
        f"alpha = {np.abs(m.dual_coef_[0]).round(6).tolist()} (exact 1/52 = {1 / 52:.6f})"
    )
    f_new = m.decision_function(data.new_sample)[0]
    label = data.target_names[m.predict(data.new_sample)[0]]
    lines.append(
        f"  new student (6 h, 75 %): f = {f_new:.6f} (exact 1/13 = {1 / 13:.6f}) -> {label}"
    )


def _xor_models():
    from ..datasets import load_xor

    X, y = load_xor(return_X_y=True)
    return (
        X,
        y,
        {
            "linear": SVC(kernel="linear", C=1.0),
            "poly (degree 2)": SVC(kernel="poly", degree=2, gamma=1.0, coef0=0.0, C=np.inf),
            "rbf": SVC(kernel="rbf", gamma=1.0, C=np.inf),
        },
    )


def _xor_section(lines):
    X, y, models = _xor_models()
    lines.append("XOR (4 points at (+-1, +-1)): which kernels separate the classes")
    try:
        SVC(kernel="linear", C=np.inf).fit(X, y)
    except ValueError as exc:
        lines.append(f"  linear, C=inf: ValueError: {str(exc).split(',')[0]}")
    for name, m in models.items():
        m.fit(X, y)
        lines.append(
            f"  {name:16s} training accuracy {m.score(X, y):.2f}, {m.support_.size} support vectors"
        )


def _iris_pair():
    """Petal length and width of versicolor (0) and virginica (1): two overlapping classes."""
    from ..datasets import load_iris

    data = load_iris()
    keep = data.target > 0
    return data.data[keep][:, 2:4], data.target[keep] - 1, data.feature_names[2:4]


def _soft_section(lines):
    X, y, _ = _iris_pair()
    lines.append("Soft margins, iris versicolor vs virginica (petal length, width), linear kernel")
    for C in SOFT_CS:
        m = SVC(kernel="linear", C=C).fit(X, y)
        inside = int(np.sum(m.slack_ > m.tol))  # a slack below tol is the stopping rule's
        lines.append(
            f"  C = {C:<6g}: margin {m.margin_width_[0]:.3f}, {m.support_.size:3d} support "
            f"vectors, {inside:3d} points inside the margin (sum of slack {m.slack_.sum():.2f}), "
            f"training accuracy {m.score(X, y):.3f}"
        )


def showcase() -> str:
    """The SVM demo as text (no printing: the caller decides where it goes)."""
    lines: list[str] = []
    for section in (_student_section, _xor_section, _soft_section):
        section(lines)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# -- figures (written by `scratchlearn demo` when matplotlib is installed) ---------------------
def _student_figure(fig) -> None:
    from ..plotting import plot_decision_regions

    fig.set_layout_engine("constrained")
    data, m = _students()
    ax = plot_decision_regions(
        m, data.data, data.target, ax=fig.add_subplot(),
        feature_names=("hours of study", "attendance (%)"), support_vectors=True,
    )  # fmt: skip
    for text in ax.get_legend().get_texts():  # the classes 0 and 1 by their names
        if text.get_text() in ("0", "1"):
            text.set_text(data.target_names[int(text.get_text())])
    ax.set_title(
        f"The seed's five students: the maximum-margin line (margin {m.margin_width_[0]:.2f})\n"
        "solid: f(x) = 0, dashed: f(x) = ±1, circled: the support vectors"
    )


def _xor_figure(fig) -> None:
    from ..plotting import plot_decision_regions

    fig.set_layout_engine("constrained")
    X, y, models = _xor_models()
    fig.set_size_inches(12, 4.4)
    for k, (name, m) in enumerate(models.items()):
        ax = fig.add_subplot(1, 3, k + 1)
        plot_decision_regions(m.fit(X, y), X, y, ax=ax, legend=False, support_vectors=True)
        ax.set_title(f"{name} kernel: training accuracy {m.score(X, y):.2f}")
    fig.suptitle("XOR: no line separates the classes; a degree-2 polynomial or an RBF kernel does")


def _soft_figure(fig) -> None:
    from ..plotting import plot_decision_regions

    fig.set_layout_engine("constrained")
    X, y, names = _iris_pair()
    fig.set_size_inches(13, 4.6)
    for k, C in enumerate(SOFT_CS):
        m = SVC(kernel="linear", C=C).fit(X, y)
        ax = fig.add_subplot(1, 3, k + 1)
        plot_decision_regions(
            m, X, y, ax=ax, feature_names=names, legend=False, support_vectors=True
        )
        ax.set_title(f"C = {C:g}: margin {m.margin_width_[0]:.2f}, {m.support_.size} SVs")
    fig.suptitle(
        "Soft margins on iris versicolor (blue) and virginica (orange): as C grows the margin "
        "(dashed) narrows and fewer points are support vectors (circled)"
    )


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [
        ("svm_students.png", _student_figure),
        ("svm_xor_kernels.png", _xor_figure),
        ("svm_soft_margins.png", _soft_figure),
    ]

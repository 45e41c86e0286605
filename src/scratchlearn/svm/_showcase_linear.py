"""The LinearSVC part of the demo: ``showcase()`` returns a printable report.

SMS spam as a bag of words (a 75 / 25 % split, the vocabulary learnt on the training part), one
linear SVM per loss at C = 0.1:

1. held-out accuracy, passes of the dual solver, and how many training messages sit on or
   inside the margin (yᵢ f(xᵢ) ≤ 1: the support vectors, αᵢ > 0);
2. the words with the largest weights towards spam and towards ham;
3. the figure: the training margins yᵢ f(xᵢ) under both losses. The hinge charges a violation
   linearly and leaves many points exactly on the margin (0 < αᵢ < C); the squared hinge
   charges it quadratically, so it pulls the worst violators in and lets more points sit a
   little inside the margin.
"""

from __future__ import annotations

import numpy as np

from ._linear import LinearSVC

__all__ = ["showcase", "figures"]

C = 0.1


def _fits():
    """(vocabulary in column order, test accuracy, margins, model) for each loss (cached)."""
    if _CACHE:
        return _CACHE
    from ..datasets import load_sms_spam
    from ..feature_extraction.text import CountVectorizer

    data = load_sms_spam()
    y = np.asarray(data.target)
    order = np.random.default_rng(0).permutation(len(y))
    tr, te = order[: int(0.75 * len(y))], order[int(0.75 * len(y)) :]
    messages = np.asarray(data.data, dtype=object)
    vec = CountVectorizer().fit(messages[tr])
    X_tr, X_te = vec.transform(messages[tr]), vec.transform(messages[te])
    words = np.empty(len(vec.vocabulary_), dtype=object)
    for word, col in vec.vocabulary_.items():
        words[col] = word
    for loss in ("hinge", "squared_hinge"):
        model = LinearSVC(loss=loss, C=C, random_state=0).fit(X_tr, y[tr])
        margins = np.where(y[tr] == 1, 1.0, -1.0) * model.decision_function(X_tr)
        _CACHE[loss] = (words, model.score(X_te, y[te]), margins, model)
    return _CACHE


_CACHE: dict = {}


def showcase() -> str:
    """The LinearSVC demo as text (no printing: the caller decides where it goes)."""
    lines = [f"LinearSVC (dual coordinate descent, C = {C}) on SMS spam, bag of words"]
    for loss, (_, accuracy, margins, model) in _fits().items():
        on_margin = np.isclose(margins, 1.0, atol=1e-3).sum()
        lines.append(
            f"  {loss}: test accuracy {accuracy:.4f}, {model.n_iter_} passes, "
            f"{(margins <= 1.0 + 1e-3).sum()} of {len(margins)} training messages on or inside "
            f"the margin ({on_margin} on it), {(margins < 0).sum()} misclassified"
        )
    words, _, _, model = _fits()["squared_hinge"]
    w = model.coef_[0]
    top = np.argsort(w)
    lines.append("  heaviest words towards spam: " + ", ".join(words[top[::-1][:10]]))
    lines.append("  heaviest words towards ham:  " + ", ".join(words[top[:10]]))
    return "\n".join(lines) + "\n"


# -- figures (written by `scratchlearn demo` when matplotlib is installed) ---------------------
def _margin_figure(fig) -> None:
    """Histograms of the training margins yᵢ f(xᵢ) under the hinge and the squared hinge."""
    from ..plotting._axes import legend_outside

    fig.set_layout_engine("constrained")
    fig.set_size_inches(10, 4.5)
    ax = fig.add_subplot()
    bins = np.linspace(-2.0, 4.0, 121)
    for loss, (_, accuracy, margins, _) in _fits().items():
        ax.hist(
            np.clip(margins, bins[0], bins[-1]), bins=bins, histtype="step", linewidth=1.5,
            label=f"{loss}\n(test accuracy {accuracy:.3f})",
        )  # fmt: skip
    ax.axvline(1.0, color="k", linestyle="--", linewidth=1, label="the margin, y f(x) = 1")
    ax.axvline(0.0, color="grey", linestyle=":", linewidth=1, label="decision boundary")
    ax.set_yscale("log")
    ax.set_xlabel("training margin y f(x) (clipped to [-2, 4]; below 0: misclassified)")
    ax.set_ylabel("messages")
    ax.set_title(f"LinearSVC on SMS spam, C = {C}: where the training messages sit")
    legend_outside(ax, labelspacing=1.0)


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [("linear_svc_margins.png", _margin_figure)]

"""The bagging and boosting part of the demo: ``showcase()`` returns a printable report.

1. AdaBoost-SAMME with decision stumps on the breast-cancer measurements: training and held-out
   error after 1, 2, … stumps (the staged curves), and the votes α the rounds earn.
2. Bagging against a single fully grown tree on the same split: the held-out accuracy, and the
   out-of-bag estimate beside it.
"""

from __future__ import annotations

import warnings
from functools import cache

import numpy as np

from ..tree import DecisionTreeClassifier
from ._adaboost_samme import AdaBoostClassifier
from ._bagging import BaggingClassifier

__all__ = ["showcase", "figures"]

N_STUMPS = 200


def _split():
    """Breast cancer, 70 % train / 30 % held out (a fixed permutation)."""
    from ..datasets import load_breast_cancer

    data = load_breast_cancer()
    order = np.random.default_rng(0).permutation(data.data.shape[0])
    cut = int(0.7 * len(order))
    tr, te = order[:cut], order[cut:]
    return data.data[tr], data.target[tr], data.data[te], data.target[te]


@cache
def _staged():
    """(model, training error, held-out error) after each stump."""
    X, y, X_te, y_te = _split()
    model = AdaBoostClassifier(n_estimators=N_STUMPS, random_state=0).fit(X, y)
    train = 1.0 - np.array(list(model.staged_score(X, y)))
    test = 1.0 - np.array(list(model.staged_score(X_te, y_te)))
    return model, train, test


def _boosting_section(lines):
    model, train, test = _staged()
    alpha = model.estimator_weights_[: len(model.estimators_)]
    lines.append(f"AdaBoost-SAMME, decision stumps, breast cancer ({len(train)} rounds)")
    lines.append("  stumps   train error   held-out error")
    for t in (1, 2, 5, 10, 20, 50, 100, 200):
        if t <= len(train):
            lines.append(f"  {t:6d}   {train[t - 1]:11.4f}   {test[t - 1]:14.4f}")
    best = int(np.argmin(test)) + 1
    lines.append(f"  lowest held-out error {test[best - 1]:.4f} after {best} stumps")
    lines.append(
        "  votes α = ln((1 − ε)/ε): first rounds "
        + ", ".join(f"{a:.3f}" for a in alpha[:5])
        + f"; median over all rounds {np.median(alpha):.3f}"
    )
    zero = int(np.argmax(train == 0.0)) + 1 if np.any(train == 0.0) else None
    if zero is not None:
        lines.append(
            f"  the training error reaches 0 after {zero} stumps; later rounds still move the "
            "held-out error, because they keep widening the vote margins"
        )


@cache
def _bagged():
    """(one tree, 50 bagged trees, held-out accuracy of the first 1, 2, … 50 bagged trees)."""
    X, y, X_te, y_te = _split()
    tree = DecisionTreeClassifier(random_state=0).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a row or two in every bootstrap sample
        bag = BaggingClassifier(n_estimators=50, oob_score=True, random_state=0).fit(X, y)
    votes = np.cumsum([h.predict_proba(X_te) for h in bag.estimators_], axis=0)  # (B, n, K)
    staged = np.mean(bag.classes_[np.argmax(votes, axis=2)] == y_te, axis=1)
    return tree, bag, staged


def _bagging_section(lines):
    X, y, X_te, y_te = _split()
    tree, bag, _ = _bagged()
    lines.append("Bagging 50 fully grown trees against one, same split")
    lines.append(f"  one tree:        held-out accuracy {tree.score(X_te, y_te):.4f}")
    lines.append(
        f"  bagged trees:    held-out accuracy {bag.score(X_te, y_te):.4f}, "
        f"out-of-bag estimate {bag.oob_score_:.4f}"
    )


def showcase() -> str:
    """The bagging and boosting demo as text (no printing)."""
    lines: list[str] = []
    for section in (_boosting_section, _bagging_section):
        section(lines)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _staged_figure(fig) -> None:
    """Training and held-out error against the number of stumps, and the votes α."""
    fig.set_layout_engine("constrained")
    model, train, test = _staged()
    rounds = np.arange(1, len(train) + 1)
    ax, ax_alpha = fig.subplots(2, 1, sharex=True, height_ratios=(2, 1))
    ax.plot(rounds, train, label="training error")
    ax.plot(rounds, test, label="held-out error")
    ax.set_ylabel("error")
    ax.set_title("AdaBoost-SAMME with stumps on breast cancer")
    ax.legend()
    ax_alpha.bar(rounds, model.estimator_weights_[: len(rounds)], width=1.0, color="grey")
    ax_alpha.set_xlabel("number of stumps")
    ax_alpha.set_ylabel("vote α")


def _bagging_figure(fig) -> None:
    """Held-out accuracy of the first B bagged trees against B, beside one tree's."""
    X, y, X_te, y_te = _split()
    fig.set_layout_engine("constrained")
    tree, bag, staged = _bagged()
    ax = fig.add_subplot()
    ax.plot(np.arange(1, len(staged) + 1), staged, marker="o", markersize=3, label="bagged trees")
    ax.axhline(tree.score(X_te, y_te), color="grey", linestyle="--", label="one tree")
    ax.axhline(bag.oob_score_, color="green", linestyle=":", label="out-of-bag estimate (50 trees)")
    ax.set_xlabel("number of bagged trees B")
    ax.set_ylabel("held-out accuracy")
    ax.set_title("Bagging fully grown trees on breast cancer")
    ax.legend()


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [
        ("adaboost_staged_error.png", _staged_figure),
        ("bagging_vs_one_tree.png", _bagging_figure),
    ]

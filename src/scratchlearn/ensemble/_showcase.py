"""The ensembles part of the demo: ``showcase()`` returns a printable report.

1. A random forest on the breast-cancer measurements: its out-of-bag accuracy beside the
   held-out accuracy (the OOB estimate needs no held-out set), and its most important features.
2. A forest against a single tree: held-out accuracy as trees are added (``warm_start``), for a
   random forest and for extra trees, from one tree (about the single tree's accuracy) to 100.

Figures: the feature-importance bar chart and the accuracy against the number of trees.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..tree import DecisionTreeClassifier
from ._forest import ExtraTreesClassifier, RandomForestClassifier

__all__ = ["showcase", "figures"]

SIZES = (1, 2, 5, 10, 20, 50, 100)


@cache
def _data():
    """Breast cancer, split 70 / 30 with a fixed permutation."""
    from ..datasets import load_breast_cancer

    data = load_breast_cancer()
    order = np.random.default_rng(0).permutation(data.data.shape[0])
    cut = int(0.7 * len(order))
    return data, order[:cut], order[cut:]


@cache
def _forest():
    data, tr, _ = _data()
    return RandomForestClassifier(n_estimators=100, oob_score=True, random_state=0).fit(
        data.data[tr], data.target[tr]
    )


@cache
def _curves():
    """Held-out accuracy after each size of SIZES, grown by warm_start (one forest per kind)."""
    data, tr, te = _data()
    X, y = data.data, data.target
    out = {}
    for kind in (RandomForestClassifier, ExtraTreesClassifier):
        model = kind(warm_start=True, random_state=0)
        scores = []
        for T in SIZES:
            model.set_params(n_estimators=T).fit(X[tr], y[tr])
            scores.append(model.score(X[te], y[te]))
        out[kind.__name__] = np.array(scores)
    tree = DecisionTreeClassifier(random_state=0).fit(X[tr], y[tr])
    return out, tree.score(X[te], y[te])


def _forest_section(lines):
    data, tr, te = _data()
    forest = _forest()
    lines.append(
        f"Random forest (100 trees) on breast cancer: {len(tr)} train / {len(te)} test rows"
    )
    lines.append(f"  out-of-bag accuracy {forest.oob_score_:.4f}  (from the training rows alone)")
    lines.append(f"  held-out accuracy   {forest.score(data.data[te], data.target[te]):.4f}")
    imp = forest.feature_importances_
    lines.append("  most important features (mean impurity decrease):")
    for j in np.argsort(imp)[::-1][:5]:
        lines.append(f"    {data.feature_names[j]:<24} {imp[j]:.3f}")


def _size_section(lines):
    curves, single = _curves()
    lines.append(f"A forest against a single tree (held-out accuracy; one CART tree: {single:.4f})")
    lines.append(f"  {'trees':<24}" + "".join(f"{T:>8}" for T in SIZES))
    for name, scores in curves.items():
        lines.append(f"  {name:<24}" + "".join(f"{s:>8.4f}" for s in scores))


def showcase() -> str:
    """The ensembles demo as text (no printing: the caller decides where it goes)."""
    lines: list[str] = []
    for section in (_forest_section, _size_section):
        section(lines)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# -- figures (written by `scratchlearn demo` when matplotlib is installed) ---------------------
def _importance_figure(fig) -> None:
    """The ten largest feature importances of the forest, as horizontal bars."""
    fig.set_layout_engine("constrained")
    data, _, te = _data()
    forest = _forest()
    imp = forest.feature_importances_
    top = np.argsort(imp)[::-1][:10][::-1]
    ax = fig.add_subplot()
    ax.barh([data.feature_names[j] for j in top], imp[top])
    ax.set_xlabel("mean impurity decrease (normalised)")
    held_out = forest.score(data.data[te], data.target[te])
    ax.set_title(
        "Random forest on breast cancer: the ten most important features\n"
        f"out-of-bag accuracy {forest.oob_score_:.3f}, held-out accuracy {held_out:.3f}",
        fontsize=10,
    )


def _size_figure(fig) -> None:
    """Held-out accuracy against the number of trees, with the single tree as a line."""
    fig.set_layout_engine("constrained")
    curves, single = _curves()
    ax = fig.add_subplot()
    for name, scores in curves.items():
        ax.plot(SIZES, scores, marker="o", label=name)
    ax.axhline(single, color="grey", linestyle="--", label="one DecisionTreeClassifier")
    ax.set_xscale("log")
    ax.set_xlabel("number of trees")
    ax.set_ylabel("held-out accuracy")
    ax.set_title("Breast cancer: a forest against a single tree")
    ax.legend()


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [
        ("forest_importances.png", _importance_figure),
        ("forest_vs_tree.png", _size_figure),
    ]

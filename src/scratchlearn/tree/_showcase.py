"""The trees part of the demo: ``showcase()`` returns a printable report.

1. ID3 on the seed's PlayTennis tables: the gains at the root and inside the Rain subset.
2. CART on the breast-cancer measurements: held-out accuracy of a fully grown tree, its size.
3. Minimal cost-complexity pruning: validation accuracy along the ccp_alpha path, from the
   over-fitted full tree to the under-fitted stump, and the alpha that a validation set picks.
4. Reduced-error pruning of the full tree on a held-out set.
"""

from __future__ import annotations

import functools

import numpy as np

from ._classes import DecisionTreeClassifier
from ._id3 import ID3Classifier

__all__ = ["showcase", "figures"]


def _split3(n, seed=0):
    """Train / validation / test index thirds (60 / 20 / 20 %)."""
    order = np.random.default_rng(seed).permutation(n)
    a, b = int(0.6 * n), int(0.8 * n)
    return order[:a], order[a:b], order[b:]


def _id3_section(lines):
    from ..datasets import load_play_tennis

    for n_rows in (6, 14):
        data = load_play_tennis(n_rows=n_rows)
        model = ID3Classifier().fit(
            data.data, np.asarray(data.target_names, dtype=object)[data.target]
        )
        lines.append(f"ID3 on the {n_rows}-day PlayTennis table")
        lines.extend(
            "  " + row for row in model.explain(feature_names=data.feature_names).splitlines()
        )
        lines.append("")


def _cart_data():
    from ..datasets import load_breast_cancer

    data = load_breast_cancer()
    return data, *_split3(data.data.shape[0])


@functools.cache
def _ccp_curve():
    """(alphas, train accuracy, validation accuracy, test accuracy) along the pruning path."""
    data, tr, va, te = _cart_data()
    X, y = data.data, data.target
    path = DecisionTreeClassifier(random_state=0).cost_complexity_pruning_path(X[tr], y[tr])
    alphas = path.ccp_alphas[:-1]  # the last alpha leaves only the root
    scores = []
    for a in alphas:
        m = DecisionTreeClassifier(random_state=0, ccp_alpha=a).fit(X[tr], y[tr])
        scores.append((m.score(X[tr], y[tr]), m.score(X[va], y[va]), m.score(X[te], y[te])))
    return alphas, np.array(scores)


def _cart_section(lines):
    data, tr, va, te = _cart_data()
    X, y = data.data, data.target
    full = DecisionTreeClassifier(random_state=0).fit(X[tr], y[tr])
    lines.append(
        f"CART (gini) on breast cancer: {len(tr)} train / {len(va)} validation / {len(te)} test"
    )
    lines.append(
        f"  fully grown: depth {full.get_depth()}, {full.get_n_leaves()} leaves, "
        f"train {full.score(X[tr], y[tr]):.4f}, test {full.score(X[te], y[te]):.4f}"
    )
    alphas, s = _ccp_curve()
    best = int(np.argmax(s[:, 1]))  # first alpha of highest validation accuracy
    lines.append("  cost-complexity pruning (validation accuracy along the path):")
    for i in np.unique(np.linspace(0, len(alphas) - 1, 6).round().astype(int)):
        mark = "  <- chosen" if i == best else ""
        lines.append(
            f"    ccp_alpha {alphas[i]:.5f}: train {s[i, 0]:.4f}  validation {s[i, 1]:.4f}{mark}"
        )
    lines.append(
        f"  chosen ccp_alpha {alphas[best]:.5f}: validation {s[best, 1]:.4f}, test {s[best, 2]:.4f}"
    )
    pruned = DecisionTreeClassifier(random_state=0).fit(X[tr], y[tr])
    report = pruned.prune(X[va], y[va])
    lines.append(
        f"  reduced-error pruning on the validation set: {report.nodes_before} -> "
        f"{report.nodes_after} nodes, validation {report.score_before:.4f} -> "
        f"{report.score_after:.4f}, test {pruned.score(X[te], y[te]):.4f}"
    )


def showcase() -> str:
    """The trees demo as text (no printing: the caller decides where it goes)."""
    lines: list[str] = []
    for section in (_id3_section, _cart_section):
        section(lines)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# -- figures (written by `scratchlearn demo` when matplotlib is installed) ---------------------
def _ccp_figure(fig) -> None:
    """Accuracy against ccp_alpha: the full tree over-fits, the stump under-fits; the alpha of
    highest validation accuracy (the one the report chooses) is marked."""
    from ..plotting._axes import legend_outside

    fig.set_layout_engine("constrained")
    fig.set_size_inches(9, 5)
    alphas, s = _ccp_curve()
    best = int(np.argmax(s[:, 1]))  # first alpha of highest validation accuracy, as reported
    ax = fig.add_subplot()
    for col, label in ((0, "train"), (1, "validation"), (2, "test")):
        ax.plot(alphas, s[:, col], marker="o", markersize=3, drawstyle="steps-post", label=label)
    ax.axvline(
        alphas[best], color="black", linestyle="--", linewidth=1,
        label=f"chosen ccp_alpha = {alphas[best]:.5f}\n(highest validation accuracy)",
    )  # fmt: skip
    ax.set_xscale("symlog", linthresh=max(float(alphas[1]) if len(alphas) > 1 else 1e-4, 1e-6))
    ax.set_xlabel("ccp_alpha (larger: more pruning)")
    ax.set_ylabel("accuracy")
    ax.set_title(
        "CART on breast cancer: accuracy along the cost-complexity path\n"
        "the full tree (left) over-fits, the most pruned trees (right) under-fit"
    )
    legend_outside(ax)


def _tree_figure(fig) -> None:
    """The tree a validation set picks on the ccp_alpha path, drawn."""
    from ._export import plot_tree

    fig.set_layout_engine("constrained")
    data, tr, va, te = _cart_data()
    alphas, s = _ccp_curve()
    best = float(alphas[int(np.argmax(s[:, 1]))])
    model = DecisionTreeClassifier(random_state=0, ccp_alpha=best).fit(
        data.data[tr], data.target[tr]
    )
    fig.set_size_inches(12, 7)
    ax = plot_tree(
        model,
        ax=fig.add_subplot(),
        feature_names=data.feature_names,
        class_names=list(data.target_names),
        fontsize=7,
    )
    test_accuracy = model.score(data.data[te], data.target[te])
    ax.set_title(f"CART pruned at ccp_alpha = {best:.5f} (test accuracy {test_accuracy:.3f})")


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [("tree_ccp_path.png", _ccp_figure), ("decision_tree.png", _tree_figure)]

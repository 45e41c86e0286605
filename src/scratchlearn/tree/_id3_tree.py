"""A fitted ID3 tree: its flat per-node storage, routing rows through it, reduced-error pruning,
and the text of :meth:`~scratchlearn.tree._id3.ID3Classifier.explain`.

Nodes are numbered in creation order (depth-first, children in category order), so a child's
index always exceeds its parent's: a loop over decreasing indices visits every subtree before
its root, which is what bottom-up pruning needs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ID3Tree", "route", "reduced_error_prune", "accuracy", "explain_tree"]


@dataclass
class ID3Tree:
    """A fitted ID3 tree as flat per-node arrays (node 0 the root, nodes numbered in the order
    they were created: depth-first, children in category order, so a child's index is always
    larger than its parent's). See :class:`ID3Classifier` for the meaning of every field."""

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        **{
            name: ("intp", ("n_nodes",))
            for name in ("feature", "parent", "depth", "n_node_samples")
        },
        "children": ("[dict]", ("n_nodes",)),
        "class_count": ("float64", ("n_nodes", "n_classes")),
        "impurity": ("float64", ("n_nodes",)),
        **{
            name: ("float64", ("n_nodes", "n_features")) for name in ("gain", "split_info", "score")
        },
    }

    def _check_fitted_state(self):
        """A node's children (category code -> node) come after it and name it as their parent;
        inner nodes split on a feature < n_features, leaves (feature -2) have no children."""
        d = self.gain.shape[1]
        for t, kids in enumerate(self.children):
            inner = self.feature[t] != -2
            if inner != bool(kids) or (inner and not 0 <= self.feature[t] < d):
                raise ValueError(f"tree_ node {t} has an invalid feature or children")
            for code, child in kids.items():
                if (
                    type(code) is not int
                    or type(child) is not int
                    or not t < child < len(self.children)
                    or self.parent[child] != t
                ):
                    raise ValueError(f"tree_ node {t} has an invalid child {child!r}")

    _scratchlearn_serializable = True  # model files (scratchlearn.io) store these fields

    feature: np.ndarray  # (n_nodes,) intp; −2 at a leaf
    children: list  # n_nodes dicts {category code: child node}; {} at a leaf
    parent: np.ndarray  # (n_nodes,) intp; −1 at the root
    depth: np.ndarray  # (n_nodes,) intp; the root has depth 0
    n_node_samples: np.ndarray  # (n_nodes,) intp, rows of positive weight
    class_count: np.ndarray  # (n_nodes, K) float64, weighted class counts
    impurity: np.ndarray  # (n_nodes,) float64, entropy H(S) in bits
    gain: np.ndarray  # (n_nodes, d) float64; NaN where not evaluated
    split_info: np.ndarray  # (n_nodes, d) float64; NaN where not evaluated
    score: np.ndarray  # (n_nodes, d) float64, the criterion; NaN for a non-candidate

    @property
    def node_count(self) -> int:
        return int(self.feature.shape[0])

    @property
    def majority(self) -> np.ndarray:
        """(n_nodes,) class index of each node's majority; ties go to the first class."""
        return np.argmax(self.class_count, axis=1)

    def subtree(self, keep) -> ID3Tree:
        """The tree restricted to the nodes where ``keep`` (n_nodes,) is True, renumbered
        compactly in the same order (the kept nodes must form a tree containing the root)."""
        new = np.cumsum(keep) - 1  # old index -> new index
        idx = np.flatnonzero(keep)
        children = [{c: int(new[k]) for c, k in self.children[t].items()} for t in idx]
        parent = np.where(self.parent[idx] >= 0, new[np.maximum(self.parent[idx], 0)], -1)
        return ID3Tree(
            feature=self.feature[idx],
            children=children,
            parent=parent.astype(np.intp),
            depth=self.depth[idx],
            n_node_samples=self.n_node_samples[idx],
            class_count=self.class_count[idx],
            impurity=self.impurity[idx],
            gain=self.gain[idx],
            split_info=self.split_info[idx],
            score=self.score[idx],
        )


def route(tree, codes):
    """For every row of ``codes`` (n, d), the node it stops at, and the rows reaching each node.

    A row follows the branch of its category at every internal node and stops at a leaf, or at
    an internal node that has no branch for its category (unseen there). Returns
    ``(stop (n,), reach list of row-index arrays per node)``.
    """
    stop = np.zeros(codes.shape[0], dtype=np.intp)
    reach = [np.empty(0, dtype=np.intp)] * tree.node_count
    stack = [(0, np.arange(codes.shape[0]))]
    while stack:
        t, rows = stack.pop()
        reach[t] = rows
        stop[rows] = t  # overwritten below by the children for rows that go on
        if tree.feature[t] < 0 or rows.shape[0] == 0:
            continue
        c = codes[rows, tree.feature[t]]
        for v, child in tree.children[t].items():
            stack.append((child, rows[c == v]))
    return stop, reach


def reduced_error_prune(tree, codes, y, w):
    """Reduced-error pruning: ``keep`` (n_nodes,) mask of the nodes that survive.

    Bottom-up (children have larger indices than parents, so decreasing index order visits a
    node after its whole subtree), a subtree becomes a leaf predicting its training majority
    whenever that leaf classifies the validation rows reaching it at least as well as the
    (already pruned) subtree does. ``y`` holds validation class indices (−1: a label never
    seen in training, always wrong), ``w`` the weights. A node no validation row reaches scores
    0 both ways and is pruned.
    """
    stop, reach = route(tree, codes)
    majority = tree.majority
    right = w * (y == majority[stop])  # (n,) correct weight of rows stopping at internal nodes
    leaf = np.array([w[r] @ (y[r] == majority[t]) for t, r in enumerate(reach)])  # as a leaf
    subtree = leaf.copy()  # correct weight of the current subtree on the rows reaching it
    is_leaf = tree.feature < 0
    for t in range(tree.node_count - 1, -1, -1):
        if is_leaf[t]:
            continue
        kids = list(tree.children[t].values())
        subtree[t] = subtree[kids].sum() + right[stop == t].sum()
        if leaf[t] >= subtree[t]:
            is_leaf[t], subtree[t] = True, leaf[t]
    keep = np.zeros(tree.node_count, dtype=bool)
    keep[0] = True
    for t in range(1, tree.node_count):  # kept: every ancestor kept and not made a leaf
        p = tree.parent[t]
        keep[t] = keep[p] and not is_leaf[p]
    return keep, is_leaf


# --------------------------------------------------------------------------- explain()


def _counts_text(counts, class_names):
    return "[" + ", ".join(f"{c}: {n:g}" for c, n in zip(class_names, counts, strict=True)) + "]"


def _node_table(tree, t, names, criterion):
    """The seed-style table of node t: every candidate attribute's gain, the chosen one marked."""
    evaluated = np.flatnonzero(~np.isnan(tree.gain[t]))
    score = tree.score[t]
    order = sorted(evaluated, key=lambda a: (np.isnan(score[a]), -np.nan_to_num(score[a]), a))
    width = max(len("attribute"), *(len(names[a]) for a in order))
    ratio = criterion == "gain_ratio"
    head = f"    {'attribute':<{width}}  {'gain':>10}"
    head += f"  {'split info':>10}  {'gain ratio':>10}" if ratio else ""
    lines = [head]
    for a in order:
        row = f"    {names[a]:<{width}}  {tree.gain[t, a]:>10.6f}"
        if ratio:
            r = "-" if np.isnan(score[a]) else f"{score[a]:.6f}"
            row += f"  {tree.split_info[t, a]:>10.6f}  {r:>10}"
        if a == tree.feature[t]:
            row += "  <- chosen"
        elif np.isnan(score[a]):
            row += "  (one value here: not a candidate)"
        lines.append(row)
    return lines


def _path(tree, t, names, categories):
    conds = []
    while tree.parent[t] >= 0:
        p = tree.parent[t]
        code = next(c for c, k in tree.children[p].items() if k == t)
        conds.append(f"{names[tree.feature[p]]} = {categories[tree.feature[p]][code]}")
        t = p
    return " AND ".join(reversed(conds)) or "(root)"


def _tree_lines(tree, names, categories, class_names):
    labels = [str(class_names[k]) for k in tree.majority]
    if tree.feature[0] < 0:
        return [f"(a single leaf) -> {labels[0]}  {_counts_text(tree.class_count[0], class_names)}"]
    lines = []

    def walk(t, level):
        a = tree.feature[t]
        for code, child in tree.children[t].items():
            cond = f"{'|   ' * level}|--- {names[a]} = {categories[a][code]}"
            counts = _counts_text(tree.class_count[child], class_names)
            if tree.feature[child] < 0:
                lines.append(f"{cond} -> {labels[child]}  {counts}")
            else:
                lines.append(f"{cond}  {counts}")
                walk(child, level + 1)

    walk(0, 0)
    return lines


def explain_tree(tree, *, criterion, names, categories, class_names):
    """The text of :meth:`ID3Classifier.explain`."""
    score = "gain ratio = Gain / SplitInfo" if criterion == "gain_ratio" else "information gain"
    out = [f"ID3 ({score}); entropies and gains in bits"]
    for t in np.flatnonzero(tree.feature >= 0):
        out.append("")
        out.append(f"Node {t}: {_path(tree, t, names, categories)}")
        counts = _counts_text(tree.class_count[t], class_names)
        out.append(f"    {tree.n_node_samples[t]} samples {counts}, H(S) = {tree.impurity[t]:.6f}")
        out.extend(_node_table(tree, t, names, criterion))
    out += ["", "Tree (a value not listed at a node predicts that node's majority):"]
    out += _tree_lines(tree, names, categories, class_names)
    return "\n".join(out)


def accuracy(tree, codes, y, w):
    """Weighted accuracy Σ w [ŷ = y] / Σ w of ``tree`` on encoded rows."""
    stop = route(tree, codes)[0]
    return float(w @ (tree.majority[stop] == y) / w.sum())

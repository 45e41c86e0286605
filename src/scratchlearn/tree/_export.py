"""Showing a fitted CART tree: a text listing of its rules, Graphviz DOT text, a matplotlib plot.

Each function takes a fitted estimator: anything with ``tree_`` (the flat arrays), plus
``classes_`` for a classifier, and ``feature_names_in_`` / ``criterion`` when present. A node is
described by the same lines everywhere:

    x3 <= 0.800          the split (internal nodes): a row goes left ("yes") when true
    gini: 0.667          the node's impurity under the estimator's criterion
    rows: 150            n_node_samples (and the total weight when it differs)
    p: [0.33, 0.67]      classifier: weighted class fractions; regressor: "value: 12.5"
    predicts: setosa     the class of largest fraction (classifier)

Node colours (``filled``) are the majority class's colour mixed with white in proportion to the
node's purity (p_max − 1/K)/(1 − 1/K); for a regressor one colour, deeper for larger values.
"""

from __future__ import annotations

import numbers
import os

import numpy as np

from ..exceptions import NotFittedError

__all__ = ["export_text", "export_graphviz", "plot_tree"]

# matplotlib's tab10 cycle, written out so that DOT export does not need matplotlib.
_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
            "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")  # fmt: skip


# -- what every exporter needs ----------------------------------------------------------------
def _fitted_tree(decision_tree):
    tree = getattr(decision_tree, "tree_", None)
    if tree is None:
        raise NotFittedError(
            f"{type(decision_tree).__name__} has no tree_: fit it before exporting it"
        )
    return tree


def _feature_names(decision_tree, tree, feature_names) -> list:
    """The given names, else ``feature_names_in_``, else x0, x1, …; one per feature."""
    n_features = int(getattr(tree, "n_features", 0)) or int(np.max(tree.feature, initial=-1)) + 1
    if feature_names is None:
        feature_names = getattr(decision_tree, "feature_names_in_", None)
    if feature_names is None:
        return [f"x{j}" for j in range(n_features)]
    names = [str(f) for f in feature_names]
    if len(names) != n_features:
        raise ValueError(
            f"feature_names has {len(names)} names; the tree has {n_features} features"
        )
    return names


def _class_names(decision_tree, tree, class_names):
    """The given names, else ``classes_`` as text; None for a regressor."""
    classes = getattr(decision_tree, "classes_", None)
    if classes is None and class_names is None:
        return None
    names = [str(c) for c in (classes if class_names is None else class_names)]
    K = np.asarray(tree.value).shape[-1]
    if len(names) != K:
        raise ValueError(f"class_names has {len(names)} names; the tree has {K} classes")
    return names


def _check_int(value, name: str, allow_none: bool = False):
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(f"{name} must be an int >= 0; got {value!r}")
    return int(value)


def _depths(tree) -> np.ndarray:
    """Depth of every node (root 0), by one pass in node order from the root down."""
    left, right = np.asarray(tree.children_left), np.asarray(tree.children_right)
    depth = np.zeros(left.shape[0], dtype=np.intp)
    stack = [0]
    while stack:
        t = stack.pop()
        if left[t] != -1:
            depth[left[t]] = depth[right[t]] = depth[t] + 1
            stack.extend((left[t], right[t]))
    return depth


def _node_lines(tree, t, features, classes, criterion, impurity, precision) -> list:
    """The lines describing node t (see the module docstring)."""
    p = precision
    lines = []
    if tree.children_left[t] != -1:
        lines.append(f"{features[tree.feature[t]]} <= {tree.threshold[t]:.{p}f}")
    if impurity:
        lines.append(f"{criterion}: {tree.impurity[t]:.{p}f}")
    rows, weight = int(tree.n_node_samples[t]), float(tree.weighted_n_node_samples[t])
    lines.append(f"rows: {rows}" if weight == rows else f"rows: {rows} (weight {weight:.{p}g})")
    value = np.asarray(tree.value[t]).ravel()
    if classes is None:
        lines.append(f"value: {value[0]:.{p}f}")
    else:
        lines.append("p: [" + ", ".join(f"{v:.{p}f}" for v in value) + "]")
        lines.append(f"predicts: {classes[int(np.argmax(value))]}")
    return lines


def _fill_rgb(tree, is_classifier: bool) -> np.ndarray:
    """(n_nodes, 3) colours in [0, 1]: base colour mixed with white by purity or by value."""
    value = np.asarray(tree.value)[:, 0, :]  # (n_nodes, K)
    hex_to_rgb = lambda h: np.array([int(h[i : i + 2], 16) for i in (1, 3, 5)]) / 255.0
    if is_classifier:
        K = value.shape[1]
        fractions = value / np.maximum(value.sum(axis=1, keepdims=True), 1e-300)
        base = np.array([hex_to_rgb(_PALETTE[k % len(_PALETTE)]) for k in np.argmax(value, 1)])
        strength = (fractions.max(axis=1) - 1 / K) / (1 - 1 / K) if K > 1 else np.ones(len(value))
    else:
        v = value[:, 0]
        span = v.max() - v.min()
        base = np.tile(hex_to_rgb(_PALETTE[0]), (len(v), 1))
        strength = (v - v.min()) / span if span > 0 else np.ones(len(v))
    strength = np.clip(strength, 0.0, 1.0)[:, None]
    return 1.0 - strength * (1.0 - base)  # white (1, 1, 1) at strength 0, base at 1


def _describe(decision_tree, feature_names, class_names):
    tree = _fitted_tree(decision_tree)
    features = _feature_names(decision_tree, tree, feature_names)
    classes = _class_names(decision_tree, tree, class_names)
    criterion = str(getattr(decision_tree, "criterion", "impurity"))
    return tree, features, classes, criterion


# -- text -------------------------------------------------------------------------------------
def export_text(
    decision_tree, *, feature_names=None, class_names=None, max_depth=10, decimals=2,
    show_weights=False,
) -> str:  # fmt: skip
    """The tree's rules as indented text, one line per branch and per leaf.

    Each split writes two branch lines, ``|--- name <= t`` then ``|--- name > t``, each followed,
    one level deeper (``|   `` more), by its subtree; a leaf writes ``|--- predicts: c`` (the
    class of largest fraction, or the regression value). Splits below ``max_depth`` levels are
    replaced by one line ``|--- ... subtree of depth k not shown``.

    Parameters
    ----------
    decision_tree : fitted CART estimator
    feature_names : sequence of str, optional
        Default ``feature_names_in_`` when the estimator has it, else x0, x1, ….
    class_names : sequence of str, optional
        Default ``classes_``.
    max_depth : int ≥ 0, default=10
        Levels of splits written.
    decimals : int ≥ 0, default=2
        Digits after the point of thresholds, values and weights.
    show_weights : bool, default=False
        Classifier leaves also show the weight of each class (fraction × weighted rows).

    Returns
    -------
    str, ending with a newline

    Examples
    --------
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.tree import DecisionTreeClassifier, export_text
    >>> iris = load_iris()
    >>> tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(iris.data, iris.target)
    >>> names = iris.feature_names
    >>> print(export_text(tree, feature_names=names, class_names=iris.target_names), end="")
    |--- petal width (cm) <= 0.80
    |   |--- predicts: setosa
    |--- petal width (cm) > 0.80
    |   |--- petal width (cm) <= 1.75
    |   |   |--- predicts: versicolor
    |   |--- petal width (cm) > 1.75
    |   |   |--- predicts: virginica
    """
    tree, features, classes, _ = _describe(decision_tree, feature_names, class_names)
    max_depth, d = _check_int(max_depth, "max_depth"), _check_int(decimals, "decimals")
    left, right = np.asarray(tree.children_left), np.asarray(tree.children_right)
    height = _heights(left, right)
    out = []

    def leaf_line(t):
        value = np.asarray(tree.value[t]).ravel()
        if classes is None:
            text = f"predicts: {value[0]:.{d}f}"
        else:
            text = f"predicts: {classes[int(np.argmax(value))]}"
            if show_weights:
                w = value * tree.weighted_n_node_samples[t]  # fractions × node weight
                text += "  weights: [" + ", ".join(f"{x:.{d}f}" for x in w) + "]"
        return text

    stack = [(0, 0)]  # a node and its depth, or a ready line and None; left branch first
    while stack:
        t, depth = stack.pop()
        if depth is None:
            out.append(t)
            continue
        bars = "|   " * depth
        if left[t] == -1:
            out.append(f"{bars}|--- {leaf_line(t)}")
        elif depth >= max_depth:
            out.append(f"{bars}|--- ... subtree of depth {height[t]} not shown")
        else:
            name, thr = features[tree.feature[t]], tree.threshold[t]
            out.append(f"{bars}|--- {name} <= {thr:.{d}f}")
            stack.append((right[t], depth + 1))
            stack.append((f"{bars}|--- {name} > {thr:.{d}f}", None))
            stack.append((left[t], depth + 1))
    return "\n".join(out) + "\n"


def _heights(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Levels of splits below each node (0 at a leaf)."""
    height = np.zeros(left.shape[0], dtype=np.intp)
    order, stack = [], [0]
    while stack:
        t = stack.pop()
        order.append(t)
        if left[t] != -1:
            stack.extend((left[t], right[t]))
    for t in reversed(order):  # children before parents
        if left[t] != -1:
            height[t] = 1 + max(height[left[t]], height[right[t]])
    return height


# -- Graphviz DOT -----------------------------------------------------------------------------
def _dot_quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def export_graphviz(
    decision_tree, out_file=None, *, feature_names=None, class_names=None, filled=False,
    impurity=True, rounded=False, precision=3,
):  # fmt: skip
    """The tree as Graphviz DOT text: one box per node, one edge per parent → child.

    Node ``i`` is the DOT node ``n{i}`` labelled with the lines of the module docstring; the edge
    to the left child is labelled "yes" (the split's condition holds), to the right "no". No
    Graphviz installation is needed to produce the text; ``dot -Tpng tree.dot`` draws it.

    Parameters
    ----------
    decision_tree : fitted CART estimator
    out_file : None, path or writable text file, default=None
        None returns the text; otherwise it is written there and None is returned.
    feature_names, class_names : sequence of str, optional
        As in ``export_text``.
    filled : bool, default=False
        Fill boxes with the majority class's colour (value for a regressor), paler when mixed.
    impurity : bool, default=True
        Show each node's impurity.
    rounded : bool, default=False
        Boxes with rounded corners.
    precision : int ≥ 0, default=3
        Digits after the point.

    Returns
    -------
    str or None
    """
    tree, features, classes, criterion = _describe(decision_tree, feature_names, class_names)
    precision = _check_int(precision, "precision")
    left, right = np.asarray(tree.children_left), np.asarray(tree.children_right)
    styles = [s for s, on in (("filled", filled), ("rounded", rounded)) if on]
    style = f', style="{", ".join(styles)}"' if styles else ""
    lines = [
        "digraph decision_tree {",
        f'    node [shape=box{style}, fontname="Helvetica"];',
        '    edge [fontname="Helvetica"];',
    ]
    colours = _fill_rgb(tree, classes is not None) if filled else None
    for t in range(left.shape[0]):
        text = _node_lines(tree, t, features, classes, criterion, impurity, precision)
        label = "\\n".join(_dot_quote(line) for line in text)
        fill = ""
        if filled:
            r, g, b = np.round(colours[t] * 255).astype(int)
            fill = f', fillcolor="#{r:02x}{g:02x}{b:02x}"'
        lines.append(f'    n{t} [label="{label}"{fill}];')
    for t in range(left.shape[0]):
        if left[t] != -1:
            lines.append(f'    n{t} -> n{left[t]} [label="yes"];')
            lines.append(f'    n{t} -> n{right[t]} [label="no"];')
    lines.append("}")
    dot = "\n".join(lines) + "\n"
    if out_file is None:
        return dot
    if isinstance(out_file, (str, os.PathLike)):
        with open(out_file, "w", encoding="utf-8") as f:
            f.write(dot)
    else:
        out_file.write(dot)
    return None


# -- matplotlib -------------------------------------------------------------------------------
def _layout(left: np.ndarray, right: np.ndarray, shown: np.ndarray):
    """(x, y) of the shown nodes: leaves of the shown tree at x = 0, 1, 2, … from left to right
    (in-order), a parent midway between its children, y = −depth."""
    x = np.full(left.shape[0], np.nan)
    y = np.full(left.shape[0], np.nan)
    order, stack, next_x = [], [(0, 0)], 0
    while stack:  # pre-order, left first: leaves come out left to right
        t, depth = stack.pop()
        order.append(t)
        y[t] = -depth
        if left[t] != -1 and shown[left[t]]:
            stack.extend(((right[t], depth + 1), (left[t], depth + 1)))
        else:
            x[t], next_x = next_x, next_x + 1
    for t in reversed(order):  # children before parents
        if np.isnan(x[t]):
            x[t] = (x[left[t]] + x[right[t]]) / 2
    return x, y, next_x


def plot_tree(
    decision_tree, *, ax=None, feature_names=None, class_names=None, filled=True, impurity=True,
    max_depth=None, fontsize=None, precision=3,
):  # fmt: skip
    """Draw the tree with matplotlib: a box per node (split, impurity, rows, value or class).

    Leaves are placed left to right in order, each parent midway above its children, one row
    per depth; boxes are coloured as in ``export_graphviz(filled=True)``. Nodes deeper than
    ``max_depth`` are not drawn; a drawn node whose children are hidden shows "(…)".

    Parameters
    ----------
    decision_tree : fitted CART estimator
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    feature_names, class_names : sequence of str, optional
    filled : bool, default=True
    impurity : bool, default=True
    max_depth : int ≥ 0, optional
        Deepest level drawn (root 0); all when None.
    fontsize : float, optional
        Default: smaller for wider trees, between 5 and 10.
    precision : int ≥ 0, default=3

    Returns
    -------
    ax : matplotlib Axes
        With one text artist (a box) per drawn node and one line per drawn edge.
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:  # pragma: no cover - exercised only without matplotlib
        raise ImportError("plot_tree needs matplotlib: pip install 'scratchlearn[plot]'") from exc
    from ..plotting._axes import get_axes

    tree, features, classes, criterion = _describe(decision_tree, feature_names, class_names)
    max_depth = _check_int(max_depth, "max_depth", allow_none=True)
    precision = _check_int(precision, "precision")
    left, right = np.asarray(tree.children_left), np.asarray(tree.children_right)
    depth = _depths(tree)
    shown = depth <= (depth.max() if max_depth is None else max_depth)
    x, y, n_columns = _layout(left, right, shown)
    colours = _fill_rgb(tree, classes is not None) if filled else np.ones((left.shape[0], 3))
    if fontsize is None:
        fontsize = float(np.clip(80 / max(n_columns, 1), 5, 10))

    ax = get_axes(ax)
    for t in np.flatnonzero(shown):
        if left[t] != -1 and shown[left[t]]:
            for c in (left[t], right[t]):
                ax.plot([x[t], x[c]], [y[t], y[c]], color="0.45", linewidth=1, zorder=1)
    for t in np.flatnonzero(shown):
        lines = _node_lines(tree, t, features, classes, criterion, impurity, precision)
        if left[t] != -1 and not shown[left[t]]:
            lines.append("(…)")
        box = dict(boxstyle="round,pad=0.4", facecolor=tuple(colours[t]), edgecolor="0.3")
        ax.text(x[t], y[t], "\n".join(lines), ha="center", va="center", fontsize=fontsize,
                bbox=box, zorder=2)  # fmt: skip
    ax.set_xlim(-0.6, n_columns - 0.4)
    ax.set_ylim(-depth[shown].max() - 0.6, 0.6)
    ax.set_axis_off()
    return ax

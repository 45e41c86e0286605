"""Text, DOT and matplotlib views of a fitted tree: exact text on a hand-made tree, structure
checks on scikit-learn's fitted trees (the same flat-array contract), plots on Agg."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from sklearn.datasets import load_diabetes, load_iris, load_wine  # noqa: E402
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor  # noqa: E402

from scratchlearn.exceptions import NotFittedError  # noqa: E402
from scratchlearn.tree._export import export_graphviz, export_text, plot_tree  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _hand_classifier():
    """x0 ≤ 1.5: [3 a, 1 b] (→ x1 ≤ 0.25: [3, 0] | [0, 1]) | [0 a, 2 b], weights 1 per row."""
    counts = np.array([[3, 3], [3, 1], [3, 0], [0, 1], [0, 2]], dtype=float)
    n = counts.sum(axis=1)
    p = counts / n[:, None]
    tree = SimpleNamespace(
        children_left=np.array([1, 2, -1, -1, -1]),
        children_right=np.array([4, 3, -1, -1, -1]),
        feature=np.array([0, 1, -2, -2, -2]),
        threshold=np.array([1.5, 0.25, -2.0, -2.0, -2.0]),
        impurity=1 - np.sum(p**2, axis=1),  # .5, .375, 0, 0, 0
        n_node_samples=n.astype(np.intp),
        weighted_n_node_samples=n,
        value=p[:, None, :],
        n_features=2,
    )
    return SimpleNamespace(tree_=tree, classes_=np.array(["a", "b"]), criterion="gini")


def _iris(**params):
    X, y = load_iris(return_X_y=True)
    return DecisionTreeClassifier(random_state=0, **params).fit(X, y)


# -- export_text ------------------------------------------------------------------------------
def test_export_text_by_hand():
    expected = (
        "|--- x0 <= 1.50\n"
        "|   |--- x1 <= 0.25\n"
        "|   |   |--- predicts: a\n"
        "|   |--- x1 > 0.25\n"
        "|   |   |--- predicts: b\n"
        "|--- x0 > 1.50\n"
        "|   |--- predicts: b\n"
    )
    assert export_text(_hand_classifier()) == expected


def test_export_text_names_weights_and_truncation():
    text = export_text(
        _hand_classifier(), feature_names=["size", "age"], class_names=["no", "yes"],
        max_depth=1, decimals=1, show_weights=True,
    )  # fmt: skip
    expected = (
        "|--- size <= 1.5\n"
        "|   |--- ... subtree of depth 1 not shown\n"
        "|--- size > 1.5\n"
        "|   |--- predicts: yes  weights: [0.0, 2.0]\n"
    )
    assert text == expected
    assert export_text(_hand_classifier(), max_depth=0) == (
        "|--- ... subtree of depth 2 not shown\n"
    )


def test_export_text_of_a_fitted_tree_lists_every_leaf_and_threshold():
    est = _iris()
    t = est.tree_
    text = export_text(est, decimals=4)
    leaf_lines = [line for line in text.splitlines() if "predicts:" in line]
    assert len(leaf_lines) == t.n_leaves
    internal = np.flatnonzero(t.children_left != -1)
    for node in internal:  # each split appears as a "<=" line and a ">" line
        rule = f"x{t.feature[node]} <= {t.threshold[node]:.4f}"
        assert rule in text and rule.replace("<=", ">") in text
    # the deepest leaf is indented by its depth: max_depth bars before its "|---"
    assert max(line.count("|   ") for line in leaf_lines) == t.max_depth


def test_export_text_uses_feature_names_in_and_regression_values():
    pd = pytest.importorskip("pandas")
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    assert isinstance(X, pd.DataFrame)
    est = DecisionTreeRegressor(max_depth=1, random_state=0).fit(X, y)
    t = est.tree_
    name = X.columns[t.feature[0]]
    expected = (
        f"|--- {name} <= {t.threshold[0]:.3f}\n"
        f"|   |--- predicts: {t.value[1, 0, 0]:.3f}\n"
        f"|--- {name} > {t.threshold[0]:.3f}\n"
        f"|   |--- predicts: {t.value[2, 0, 0]:.3f}\n"
    )
    assert export_text(est, decimals=3) == expected


def test_export_bad_input():
    with pytest.raises(NotFittedError, match="fit it before exporting"):
        export_text(DecisionTreeClassifier())
    with pytest.raises(ValueError, match="feature_names has 1 names; the tree has 2 features"):
        export_text(_hand_classifier(), feature_names=["only"])
    with pytest.raises(ValueError, match="class_names has 3 names; the tree has 2 classes"):
        export_graphviz(_hand_classifier(), class_names=["a", "b", "c"])
    with pytest.raises(ValueError, match="max_depth must be an int >= 0"):
        export_text(_hand_classifier(), max_depth=-1)
    with pytest.raises(ValueError, match="precision must be an int >= 0"):
        plot_tree(_hand_classifier(), ax=Figure().add_subplot(), precision=1.5)


# -- export_graphviz --------------------------------------------------------------------------
NODE = re.compile(r'^\s*n(\d+) \[label="((?:[^"\\]|\\.)*)"(?:, fillcolor="(#[0-9a-f]{6})")?\];$')
EDGE = re.compile(r'^\s*n(\d+) -> n(\d+) \[label="(yes|no)"\];$')


def _parse_dot(dot: str):
    """Node labels, fill colours and edges of our DOT text, checking nothing else is in it."""
    lines = dot.strip().splitlines()
    assert lines[0] == "digraph decision_tree {" and lines[-1] == "}"
    outside_quotes = re.sub(r'"(?:[^"\\]|\\.)*"', '""', dot)
    assert outside_quotes.count("{") == outside_quotes.count("}") == 1
    nodes, fills, edges = {}, {}, []
    for line in lines[3:-1]:
        if m := NODE.match(line):
            nodes[int(m[1])], fills[int(m[1])] = m[2], m[3]
        else:
            m = EDGE.match(line)
            assert m, f"unexpected DOT line {line!r}"
            edges.append((int(m[1]), int(m[2]), m[3]))
    return nodes, fills, edges


@pytest.mark.parametrize("filled", [False, True])
def test_export_graphviz_has_one_node_per_node_and_one_edge_per_child(filled):
    X, y = load_wine(return_X_y=True)
    est = DecisionTreeClassifier(random_state=0).fit(X, y)
    t = est.tree_
    nodes, fills, edges = _parse_dot(export_graphviz(est, filled=filled, rounded=True))
    assert sorted(nodes) == list(range(t.node_count))
    internal = np.flatnonzero(t.children_left != -1)
    expected = {(p, t.children_left[p], "yes") for p in internal}
    expected |= {(p, t.children_right[p], "no") for p in internal}
    assert len(edges) == 2 * len(internal) and set(edges) == expected
    for node, label in nodes.items():
        lines = label.split("\\n")
        assert f"rows: {t.n_node_samples[node]}" in lines
        assert f"gini: {t.impurity[node]:.3f}" in lines
        assert lines[-1] == f"predicts: {est.classes_[np.argmax(t.value[node])]}"
    if filled:
        pure = np.flatnonzero(t.impurity == 0)  # a pure node is its class's full colour
        palette = {0: "#1f77b4", 1: "#ff7f0e", 2: "#2ca02c"}
        for node in pure:
            assert fills[node] == palette[int(np.argmax(t.value[node]))]
    else:
        assert set(fills.values()) == {None}


def test_export_graphviz_quotes_names_and_writes_files(tmp_path):
    est = _hand_classifier()
    dot = export_graphviz(est, feature_names=['say "hi"', "back\\slash"], impurity=False)
    nodes, _, _ = _parse_dot(dot)
    assert nodes[0].startswith('say \\"hi\\" <= 1.500') and "gini" not in dot
    assert nodes[1].startswith("back\\\\slash <= 0.250")
    path = tmp_path / "tree.dot"
    assert export_graphviz(est, out_file=path) is None
    buffer = io.StringIO()
    assert export_graphviz(est, out_file=buffer) is None
    assert path.read_text(encoding="utf-8") == buffer.getvalue() == export_graphviz(est)


@pytest.mark.skipif(
    shutil.which("dot") is None,
    reason="the Graphviz `dot` program is not installed here; DOT structure is checked above",
)
def test_export_graphviz_renders_with_dot():
    dot = export_graphviz(_iris(), filled=True, rounded=True)
    svg = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True, check=True)
    assert svg.stdout.count('class="node"') == _iris().tree_.node_count


# -- plot_tree --------------------------------------------------------------------------------
def _boxes(ax):
    return [t for t in ax.texts if t.get_bbox_patch() is not None]


def test_plot_tree_draws_one_box_per_node_and_one_line_per_edge():
    est = _iris()
    t = est.tree_
    ax = plot_tree(est, ax=Figure().add_subplot())
    boxes = _boxes(ax)
    assert len(boxes) == len(ax.texts) == t.node_count
    assert len(ax.lines) == t.node_count - 1
    assert boxes[0].get_text().startswith(f"x{t.feature[0]} <= {t.threshold[0]:.3f}")
    # tidy layout: the root sits at y = 0 and midway between its children, leaves at distinct x
    root, xs = boxes[0].get_position(), [b.get_position()[0] for b in boxes]
    assert root[1] == 0
    assert root[0] == (xs[t.children_left[0]] + xs[t.children_right[0]]) / 2
    leaf_x = [xs[n] for n in np.flatnonzero(t.children_left == -1)]
    assert sorted(leaf_x) == list(range(t.n_leaves))


def test_plot_tree_colours_by_majority_class_and_respects_max_depth():
    est = _hand_classifier()
    ax = plot_tree(est, ax=Figure().add_subplot(), max_depth=1)
    boxes = _boxes(ax)
    assert len(boxes) == 3  # depths 0, 1, 1 of the five nodes
    assert boxes[1].get_text().endswith("(…)") and "(…)" not in boxes[2].get_text()
    # node 4 is pure class b: the second palette colour (#ff7f0e) itself
    np.testing.assert_allclose(
        boxes[2].get_bbox_patch().get_facecolor()[:3], np.array([0xFF, 0x7F, 0x0E]) / 255
    )
    # the root is 50/50: purity 0, white
    np.testing.assert_allclose(boxes[0].get_bbox_patch().get_facecolor()[:3], [1, 1, 1])


def test_plot_tree_makes_its_own_axes_for_a_regressor():
    X, y = load_diabetes(return_X_y=True)
    est = DecisionTreeRegressor(max_depth=2, random_state=0).fit(X, y)
    ax = plot_tree(est, impurity=False, fontsize=7)
    assert len(_boxes(ax)) == est.tree_.node_count
    assert all(b.get_fontsize() == 7 for b in _boxes(ax))
    assert "squared_error" not in _boxes(ax)[0].get_text()
    assert _boxes(ax)[0].get_text().endswith(f"value: {est.tree_.value[0, 0, 0]:.3f}")

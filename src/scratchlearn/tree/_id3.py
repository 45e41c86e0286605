"""ID3: Quinlan's decision tree for categorical features, one branch per category.

Symbols: ``S`` the training rows at a node, ``W(S)`` their total sample weight, ``K`` classes,
``p_k`` the weighted fraction of class k in S, ``A`` a categorical attribute, ``S_v`` the rows of
S whose attribute A equals v.

.. math::

    H(S) = -\\sum_k p_k \\log_2 p_k                                     \\quad\\text{(bits)}

    \\mathrm{Gain}(S, A) = H(S) - \\sum_v \\frac{W(S_v)}{W(S)} H(S_v)

    \\mathrm{SplitInfo}(S, A) = -\\sum_v \\frac{W(S_v)}{W(S)} \\log_2 \\frac{W(S_v)}{W(S)}

    \\mathrm{GainRatio}(S, A) = \\mathrm{Gain}(S, A) / \\mathrm{SplitInfo}(S, A)

The tree grows depth-first: a node splits on the attribute of largest score (gain, or gain
ratio), with one child per value of that attribute among the node's rows, and that attribute is
never tested again below it. Reduced-error pruning (:meth:`ID3Classifier.prune`) cuts it back
on a validation set.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np

from ..base import BaseEstimator, ClassifierMixin
from ..utils._param_validation import Interval, StrOptions
from ..utils.multiclass import check_classification_targets, class_codes
from ..utils.validation import (
    check_consistent_length,
    check_is_fitted,
    check_sample_weight,
    column_or_1d,
)
from ._id3_tree import ID3Tree, accuracy, explain_tree, reduced_error_prune, route
from ._prune import PruneReport

__all__ = ["ID3Classifier", "ID3Tree", "entropy"]

# Mathematically equal scores of different attributes are computed from different sums and may
# differ by a few ulps (~1e-16 bits); scores within TIE_TOL of the best are tied, and the first
# column wins, so that the tie rule does not depend on rounding.
TIE_TOL = 1e-12
# A numeric column with more distinct values than both of these is refused (one branch per value
# of a measurement is memorisation, not a split).
MAX_NUMERIC_CATEGORIES = 32


def entropy(counts):
    """H = −Σ_k p_k log₂ p_k in bits along the last axis of class ``counts`` (0 log 0 = 0)."""
    counts = np.asarray(counts, dtype=np.float64)
    p = counts / counts.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log2(p), 0.0)
    return terms.sum(axis=-1) + 0.0  # + 0.0 turns the −0.0 of a pure node into 0.0


def attribute_scores(codes, y, w, n_values, K, H):
    """Gain and split information of one attribute at a node.

    ``codes`` (m,) the attribute's category codes for the node's rows, ``y`` (m,) their class
    indices, ``w`` (m,) their (positive) weights, ``H`` the node's entropy. Returns
    ``(gain, split_info, n_present)``, ``n_present`` the number of values among the rows.
    """
    table = np.bincount(codes * K + y, weights=w, minlength=n_values * K).reshape(n_values, K)
    W_v = table.sum(axis=1)
    present = W_v > 0
    table, W_v = table[present], W_v[present]  # (m_v, K), (m_v,)
    f = W_v / W_v.sum()  # W(S_v) / W(S)
    # sorted before summing: the same multiset of terms gives the same bits whatever the order of
    # the categories (renaming categories cannot change a tie)
    gain = H - np.sort(f * entropy(table)).sum()
    split_info = np.sort(-f * np.log2(f)).sum() + 0.0
    return max(gain, 0.0), split_info, int(present.sum())  # gain ≥ 0 (Jensen): clamp rounding


# --------------------------------------------------------------------------- categorical input


def _sort_key(v):
    # numbers before strings, each in natural order, so categories_ is sorted even when mixed
    return (0, v, "") if isinstance(v, numbers.Number) else (1, 0, str(v))


def _refuse_numeric(where, why):
    return ValueError(
        f"ID3Classifier: {where} {why}. ID3 makes one branch per category, so it needs "
        "categorical features (strings or integer codes); use DecisionTreeClassifier, which "
        "splits numbers at thresholds, or discretise the column into a few bins first "
        "(e.g. with np.digitize)."
    )


def column_numbers(col, where):
    """The numbers (float64) of one column, refusing missing values and non-categories."""
    if col.dtype.kind in "biuUS":
        return np.empty(0)
    if col.dtype.kind == "f":
        values = col
    elif col.dtype.kind == "O":
        for v in col.tolist():
            if v is None or (isinstance(v, float) and v != v):
                values = np.array([np.nan])
                break
            if not isinstance(v, (str, bytes, numbers.Real)):
                raise TypeError(
                    f"ID3Classifier: {where} holds a {type(v).__name__} ({v!r}); categories "
                    "must be strings or integers."
                )
        else:
            values = np.array([v for v in col.tolist() if isinstance(v, numbers.Real)], float)
    else:
        raise TypeError(f"ID3Classifier: {where} has dtype {col.dtype}, not categorical.")
    if np.isnan(values).any():
        raise ValueError(
            f"ID3Classifier: missing values (None or NaN) in {where}; give every row a "
            "category (e.g. a 'missing' string) or drop those rows."
        )
    if np.isinf(values).any():
        raise ValueError(f"ID3Classifier: {where} has infinite values; categories are finite.")
    return values


def check_integral(values, where):
    """Refuse a column holding non-integral numbers (``values`` from :func:`column_numbers`)."""
    frac = values[values != np.round(values)]
    if frac.size:
        raise _refuse_numeric(where, f"holds non-integral numbers (e.g. {float(frac[0])!r})")


def column_categories(col, where):
    """Sorted distinct values of one validated column; numeric columns with too many refused."""
    if col.dtype.kind == "O":
        values = sorted(set(col.tolist()), key=_sort_key)
        cats = np.empty(len(values), dtype=object)
        cats[:] = values
        numeric = all(isinstance(v, numbers.Real) for v in cats)
    else:
        cats = np.unique(col)
        numeric = col.dtype.kind in "biuf"
    n = col.shape[0]
    if numeric and cats.shape[0] > MAX_NUMERIC_CATEGORIES and cats.shape[0] > n / 2:
        raise _refuse_numeric(
            where,
            f"has {cats.shape[0]} distinct numbers in {n} rows (more than "
            f"{MAX_NUMERIC_CATEGORIES} and more than half the rows): it looks like a "
            "measurement, not a category",
        )
    return cats


def encode(col, cats):
    """Codes (n,) of ``col`` in ``cats`` (indices); a value not in ``cats`` gets −1."""
    lookup = {v: i for i, v in enumerate(cats.tolist())}
    return np.fromiter((lookup.get(v, -1) for v in col.tolist()), np.intp, col.shape[0])


# --------------------------------------------------------------------------- growing


@dataclass
class _Builder:
    """Grows an ID3 tree depth-first over encoded data (rows of positive weight only)."""

    codes: np.ndarray  # (n, d) intp
    y: np.ndarray  # (n,) class indices
    w: np.ndarray  # (n,) positive weights
    n_values: list  # categories per attribute
    K: int
    criterion: str
    max_depth: int | None
    min_samples_split: int
    nodes: list = field(default_factory=list)

    def grow(self, rows, parent=-1, depth=0, used=frozenset()):
        counts = np.bincount(self.y[rows], weights=self.w[rows], minlength=self.K)
        d = self.codes.shape[1]
        node = dict(feature=-2, children={}, parent=parent, depth=depth, n=rows.shape[0])
        node.update(count=counts, H=float(entropy(counts)), gain=np.full(d, np.nan))
        node.update(split_info=np.full(d, np.nan), score=np.full(d, np.nan))
        t = len(self.nodes)
        self.nodes.append(node)
        if self._stops(counts, rows.shape[0], depth, used):
            return t
        for a in range(d):
            if a not in used:
                self._score(node, a, rows)
        if np.isnan(node["score"]).all():  # no attribute takes two values here
            return t
        a = _first_best(node["score"])
        node["feature"] = a
        col = self.codes[rows, a]
        for v in np.unique(col):  # one child per value present, in category order
            node["children"][int(v)] = self.grow(rows[col == v], t, depth + 1, used | {a})
        return t

    def _stops(self, counts, n_rows, depth, used):
        return (
            np.count_nonzero(counts) <= 1  # pure
            or len(used) == self.codes.shape[1]  # attributes exhausted
            or n_rows < self.min_samples_split
            or (self.max_depth is not None and depth >= self.max_depth)
        )

    def _score(self, node, a, rows):
        gain, split_info, n_present = attribute_scores(
            self.codes[rows, a], self.y[rows], self.w[rows], self.n_values[a], self.K, node["H"]
        )
        node["gain"][a], node["split_info"][a] = gain, split_info
        if n_present >= 2:  # one value: SplitInfo = 0 and the split would copy the node
            node["score"][a] = gain if self.criterion == "entropy" else gain / split_info

    def tree(self) -> ID3Tree:
        col = lambda key, dtype: np.array([nd[key] for nd in self.nodes], dtype=dtype)  # noqa: E731
        return ID3Tree(
            feature=col("feature", np.intp),
            children=[nd["children"] for nd in self.nodes],
            parent=col("parent", np.intp),
            depth=col("depth", np.intp),
            n_node_samples=col("n", np.intp),
            class_count=np.vstack([nd["count"] for nd in self.nodes]),
            impurity=col("H", np.float64),
            gain=np.vstack([nd["gain"] for nd in self.nodes]),
            split_info=np.vstack([nd["split_info"] for nd in self.nodes]),
            score=np.vstack([nd["score"] for nd in self.nodes]),
        )


def _first_best(score):
    """The first attribute whose score is within TIE_TOL of the best (NaN: not a candidate)."""
    best = np.nanmax(score)
    return int(np.flatnonzero(score >= best - TIE_TOL)[0])


# --------------------------------------------------------------------------- the estimator


class ID3Classifier(ClassifierMixin, BaseEstimator):
    """Quinlan's ID3 decision tree: multiway splits on categorical features.

    At each node the attribute of largest information gain (``criterion="entropy"``) or gain
    ratio (``"gain_ratio"``) among those not yet tested on the path is chosen, and the node gets
    one child per value of that attribute among its rows (see the module docstring for H, Gain,
    SplitInfo). Weights enter every count: W(S_v) and p_k are sums of ``sample_weight``; rows of
    weight 0 are left out of the tree (their categories count as unseen).

    A node becomes a leaf when (checked in this order) it is pure, every attribute has been used
    on its path, it has fewer than ``min_samples_split`` rows, or its depth is ``max_depth``
    (the root has depth 0), or when no remaining attribute takes two or more values among its
    rows. An attribute taking one value at a node is not a candidate: its gain is 0, its
    SplitInfo 0, and splitting on it would copy the node. A zero best gain does **not** stop
    the growth (Quinlan's 1986 ID3 stops only on purity or exhausted attributes; stopping on
    zero gain is C4.5's refinement, and it would leave XOR-like data unfitted). Scores within
    ``TIE_TOL`` = 1e-12 of the best are tied; the first column wins.

    A leaf (and every node) predicts its weighted majority class, ties going to the first class
    in ``classes_`` order. At prediction a row follows the branch of its category at each node;
    a category with no branch at a node (unseen there, or unseen in training) stops the row at
    that node, which predicts its own majority and class fractions.

    Features are categories: strings, booleans or integers (object arrays, string arrays,
    integer arrays, DataFrames of such columns; floats are accepted when every value is
    integral). Refused with a ValueError naming the column: missing values (None, NaN);
    non-integral numbers; a numeric column with more than 32 distinct values *and* more than
    n/2 of them (a measurement: use DecisionTreeClassifier or discretise first). String columns
    are never refused for their number of values.

    Parameters
    ----------
    criterion : {"entropy", "gain_ratio"}, default "entropy"
    max_depth : int ≥ 0 or None, default None
    min_samples_split : int ≥ 2, default 2
        A node with fewer rows (of positive weight) is a leaf.

    Attributes
    ----------
    classes_ : ndarray (K,)
    n_classes_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str (DataFrame input only)
    categories_ : list of d arrays, the sorted training values of each feature; category code c
        of feature j means ``categories_[j][c]``.
    tree_ : :class:`ID3Tree`, flat per-node arrays (node 0 the root; depth-first creation order,
        children in category order, so a child's index exceeds its parent's):
        ``feature`` (n_nodes,) the attribute tested, −2 at a leaf; ``children`` a list of dicts
        {category code: child node} ({} at a leaf); ``parent``, ``depth``; ``n_node_samples``
        rows; ``class_count`` (n_nodes, K) weighted class counts; ``impurity`` the entropy H(S);
        ``gain`` and ``split_info`` (n_nodes, d) for every attribute evaluated at the node (NaN
        for attributes used above it and at leaves that stopped before evaluating);
        ``score`` (n_nodes, d) the criterion, NaN for non-candidates; ``majority``.

    Examples
    --------
    >>> from scratchlearn.datasets import load_play_tennis
    >>> from scratchlearn.tree import ID3Classifier
    >>> X, y = load_play_tennis(return_X_y=True)
    >>> tree = ID3Classifier().fit(X, y)
    >>> print(tree.get_depth(), tree.get_n_leaves(), tree.score(X, y))
    2 5 1.0
    >>> days = [["Sunny", "Cool", "High", "Strong"], ["Overcast", "Hot", "High", "Weak"]]
    >>> print(tree.predict(days).tolist())
    [0, 1]
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "categories_": ("[label]", ("n_features_in_", "*")),
        "n_classes_": ("int", ()),
        "classes_": ("label", ("n_classes_",)),
        "tree_": ("ID3Tree", None),
    }

    def _check_fitted_state(self):
        """tree_ counts n_classes_ classes, splits on the fitted features and their categories."""
        tree = self.tree_
        if (
            tree.class_count.shape[1] != self.n_classes_
            or tree.gain.shape[1] != self.n_features_in_
        ):
            raise ValueError("tree_ does not match n_classes_ and n_features_in_")
        for t, kids in enumerate(tree.children):
            if kids and max(kids) >= len(self.categories_[tree.feature[t]]):
                raise ValueError(f"tree_ node {t} has a category code beyond categories_")

    _parameter_constraints = {
        "criterion": [StrOptions({"entropy", "gain_ratio"})],
        "max_depth": [Interval(numbers.Integral, 0, None, closed="left"), None],
        "min_samples_split": [Interval(numbers.Integral, 2, None, closed="left")],
    }

    def __init__(self, *, criterion="entropy", max_depth=None, min_samples_split=2):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split

    # -- data ---------------------------------------------------------------------------------
    def _where(self, j):
        names = getattr(self, "feature_names_in_", None)
        return f"feature {j}" + (f" ({names[j]!r})" if names is not None else "")

    def _check_X(self, X):
        """Validate X at predict time (column count and names as in fit; categories as is)."""
        return self._validate_data(X, reset=False, dtype=None, ensure_all_finite=False)

    def _codes(self, X, *, reset):
        """Category codes (n, d) of validated X; in fit (``reset``) also sets ``categories_``."""
        d = X.shape[1]
        # every column's missing values first, then numbers: a NaN is named as a NaN
        numbers_ = [column_numbers(X[:, j], self._where(j)) for j in range(d)]
        for j in range(d):
            check_integral(numbers_[j], self._where(j))
        if reset:
            self.categories_ = [column_categories(X[:, j], self._where(j)) for j in range(d)]
        cols = [encode(X[:, j], self.categories_[j]) for j in range(d)]
        return np.column_stack(cols)

    def _class_index(self, y):
        """Class indices of labels y (n,); −1 for a label not in ``classes_``."""
        idx = np.minimum(np.searchsorted(self.classes_, y), self.classes_.shape[0] - 1)
        return np.where(self.classes_[idx] == y, idx, -1)

    # -- fitting ------------------------------------------------------------------------------
    def fit(self, X, y, sample_weight=None):
        """Grow the tree on categorical X (n, d) and labels y (n,). Returns self."""
        self._validate_params()
        X = self._validate_data(X, reset=True, dtype=None, ensure_all_finite=False)
        if y is None:
            raise ValueError("ID3Classifier requires y to be passed, but the target y is None.")
        y = column_or_1d(y, warn=True)  # a column vector is ravelled with a warning
        check_consistent_length(X, y)
        if y.dtype.kind == "f" and np.isnan(y).any():
            raise ValueError("Input y contains NaN.")
        check_classification_targets(y)
        codes = self._codes(X, reset=True)
        sw = check_sample_weight(sample_weight, X)
        self.classes_, y_idx = class_codes(y)
        self.n_classes_ = self.classes_.shape[0]
        keep = sw > 0  # weight 0: as if absent
        builder = _Builder(
            codes=codes[keep],
            y=y_idx[keep],
            w=sw[keep],
            n_values=[c.shape[0] for c in self.categories_],
            K=self.n_classes_,
            criterion=self.criterion,
            max_depth=self.max_depth,
            min_samples_split=self.min_samples_split,
        )
        builder.grow(np.arange(int(keep.sum())))
        self.tree_ = builder.tree()
        return self

    # -- prediction ---------------------------------------------------------------------------
    def apply(self, X):
        """The node (n,) at which each sample stops: a leaf, or the node where its category has
        no branch."""
        check_is_fitted(self)
        return route(self.tree_, self._codes(self._check_X(X), reset=False))[0]

    def predict_proba(self, X):
        """Weighted class fractions (n, K) of the training rows at the node each sample stops."""
        leaves = self.apply(X)  # checks the fit first
        counts = self.tree_.class_count[leaves]
        return counts / counts.sum(axis=1, keepdims=True)

    def predict_log_proba(self, X):
        """log of :meth:`predict_proba` (−inf for a class absent at the node)."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X):
        """The majority class (ties: the first in ``classes_``) of the node each sample stops at."""
        leaves = self.apply(X)  # checks the fit first
        return self.classes_[self.tree_.majority[leaves]]

    def get_depth(self) -> int:
        """Depth of the deepest node (the root has depth 0)."""
        check_is_fitted(self)
        return int(self.tree_.depth.max())

    def get_n_leaves(self) -> int:
        """Number of leaves."""
        check_is_fitted(self)
        return int(np.count_nonzero(self.tree_.feature < 0))

    # -- explanation and pruning --------------------------------------------------------------
    def explain(self, feature_names=None, class_names=None) -> str:
        """The seed-style tables and the tree, as text.

        For every internal node, in node order: its path from the root, its rows and weighted
        class counts, its entropy H(S), and a table of every attribute evaluated there with its
        gain (and, for ``gain_ratio``, split info and gain ratio), best first, the chosen one
        marked; then the tree. Numbers to 6 decimals. ``feature_names`` default to
        ``feature_names_in_`` or ``x0, x1, …``; ``class_names`` to ``classes_``.
        """
        check_is_fitted(self)
        check_is_fitted(self)
        if feature_names is None:
            default = getattr(self, "feature_names_in_", None)
            feature_names = default if default is not None else range(self.n_features_in_)
            feature_names = [n if isinstance(n, str) else f"x{n}" for n in feature_names]
        if len(feature_names) != self.n_features_in_:
            raise ValueError(
                f"feature_names has {len(feature_names)} names for {self.n_features_in_} features."
            )
        if class_names is None:
            class_names = self.classes_.tolist()
        if len(class_names) != self.n_classes_:
            raise ValueError(
                f"class_names has {len(class_names)} names for {self.n_classes_} classes."
            )
        return explain_tree(
            self.tree_,
            criterion=self.criterion,
            names=[str(n) for n in feature_names],
            categories=self.categories_,
            class_names=list(class_names),
        )

    def prune(self, X_val, y_val, sample_weight=None):
        """Reduced-error pruning on a validation set, in place (see :func:`reduced_error_prune`).

        Returns the :class:`~scratchlearn.tree.PruneReport` the CART trees return too:
        ``nodes_before``, ``nodes_after``, ``leaves_before``, ``leaves_after``,
        ``score_before``, ``score_after`` (validation accuracy, weighted by ``sample_weight``)
        and ``nodes_removed``. The validation
        accuracy never drops (up to the rounding of weighted sums when weights are not
        integers). Raises ValueError on an empty validation set.
        """
        check_is_fitted(self)
        if not hasattr(X_val, "shape") and not isinstance(X_val, (list, tuple)):
            X_val = np.asarray(X_val, dtype=object)
        if len(X_val) == 0:
            raise ValueError("prune needs a non-empty validation set; X_val has 0 rows.")
        X_val, y_val = self._validate_data(
            X_val, y_val, reset=False, dtype=None, ensure_all_finite=False
        )
        codes = self._codes(X_val, reset=False)
        y, w = self._class_index(y_val), check_sample_weight(sample_weight, X_val)
        before = self.tree_
        keep, is_leaf = reduced_error_prune(before, codes, y, w)
        feature = np.where(is_leaf, -2, before.feature)
        children = [{} if is_leaf[t] else c for t, c in enumerate(before.children)]
        pruned = ID3Tree(**{**before.__dict__, "feature": feature, "children": children})
        self.tree_ = pruned.subtree(keep)
        return PruneReport(
            nodes_before=before.node_count,
            nodes_after=self.tree_.node_count,
            leaves_before=int(np.count_nonzero(before.feature < 0)),
            leaves_after=self.get_n_leaves(),
            score_before=accuracy(before, codes, y, w),
            score_after=accuracy(self.tree_, codes, y, w),
        )

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["2darray", "categorical", "string"])
        return t

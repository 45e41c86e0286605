"""Pruning a fitted CART tree: pure functions over its flat arrays.

A tree is any object with the flat arrays ``children_left``, ``children_right``, ``feature``,
``threshold``, ``impurity``, ``n_node_samples``, ``weighted_n_node_samples`` and ``value``
(a scikit-learn ``tree_`` qualifies); a pruned tree comes back as a dict of those eight arrays,
renumbered depth-first, left child first, so that ``Tree(**d)`` rebuilds it.

========  ==================================================================================
symbol    meaning
========  ==================================================================================
t         a node; T_t the branch rooted at t; |T_t| its number of leaves
w_t       weighted_n_node_samples[t]; w_root the total training weight
R(t)      (w_t / w_root) · impurity[t], the cost of t made a leaf
R(T_t)    Σ R(l) over the leaves l of T_t, the cost of the branch
g(t)      (R(t) − R(T_t)) / (|T_t| − 1), the alpha at which collapsing t breaks even
========  ==================================================================================

Minimal cost-complexity pruning (Breiman, Friedman, Olshen & Stone 1984, ch. 3) minimises
R_α(T) = R(T) + α|T|: the weakest link, the internal node of least g(t), is collapsed, and the
sequence of such collapses gives the nested subtrees T_α. Reduced-error pruning (Quinlan 1987)
collapses, bottom-up, every branch whose validation loss a single leaf does not exceed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ccp_path", "ccp_prune", "reduced_error_prune", "PruneReport", "ARRAY_KEYS"]

#: The eight flat arrays of a tree, the keys of every dict returned here.
ARRAY_KEYS = (
    "children_left",
    "children_right",
    "feature",
    "threshold",
    "impurity",
    "n_node_samples",
    "weighted_n_node_samples",
    "value",
)

_LEAF = -1  # children_left / children_right of a leaf
_UNDEFINED = -2  # feature and threshold of a leaf


def _arrays(tree) -> dict:
    """The tree's eight arrays (read only, never modified), checked for a consistent shape."""
    missing = [k for k in ARRAY_KEYS if not hasattr(tree, k)]
    if missing:
        raise TypeError(f"a tree needs the flat arrays {ARRAY_KEYS}; {tree!r} lacks {missing}")
    a = {k: np.asarray(getattr(tree, k)) for k in ARRAY_KEYS}
    n_nodes = a["children_left"].shape[0]
    if n_nodes == 0 or any(a[k].shape[0] != n_nodes for k in ARRAY_KEYS):
        shapes = {k: a[k].shape for k in ARRAY_KEYS}
        raise ValueError(f"a tree needs non-empty arrays of one length n_nodes; got {shapes}")
    return a


def _parents_and_preorder(left: np.ndarray, right: np.ndarray):
    """Parent of every node (-1 at the root) and the nodes in depth-first, left-first order."""
    parent = np.full(left.shape[0], -1, dtype=np.intp)
    order, stack = [], [0]
    while stack:
        t = stack.pop()
        order.append(t)
        if left[t] != _LEAF:
            parent[left[t]] = parent[right[t]] = t
            stack.extend((right[t], left[t]))  # left popped first
    return parent, np.asarray(order, dtype=np.intp)


def _subtree(a: dict, collapsed: np.ndarray) -> dict:
    """The arrays of the tree whose nodes in ``collapsed`` become leaves, renumbered compactly.

    Nodes below a collapsed node are dropped; the survivors are numbered depth-first, left child
    first (the order of a freshly built tree), and keep their impurity, counts and value.
    """
    left, right = a["children_left"], a["children_right"]
    kept, stack = [], [0]
    while stack:
        t = stack.pop()
        kept.append(t)
        if left[t] != _LEAF and not collapsed[t]:
            stack.extend((right[t], left[t]))
    kept = np.asarray(kept, dtype=np.intp)
    new_id = np.full(left.shape[0], _LEAF, dtype=np.intp)
    new_id[kept] = np.arange(kept.shape[0])

    out = {k: a[k][kept].copy() for k in ARRAY_KEYS}
    is_leaf = (left[kept] == _LEAF) | collapsed[kept]
    out["children_left"] = np.where(is_leaf, _LEAF, new_id[left[kept]]).astype(np.intp)
    out["children_right"] = np.where(is_leaf, _LEAF, new_id[right[kept]]).astype(np.intp)
    out["feature"] = np.where(is_leaf, _UNDEFINED, out["feature"]).astype(np.intp)
    out["threshold"] = np.where(is_leaf, float(_UNDEFINED), out["threshold"]).astype(np.float64)
    return out


# -- minimal cost-complexity pruning ----------------------------------------------------------
def _weakest_link_sequence(a: dict, collapsed: np.ndarray, stop_alpha: float = np.inf):
    """Collapse weakest links while the least g(t) ≤ ``stop_alpha``; yield (g, R(T_α)) per step.

    ``collapsed`` (bool, n_nodes, all False on entry) is marked in place with the nodes made
    leaves so far.

    R(T_t) and |T_t| are kept for every node and, after a collapse of t, corrected on t's
    ancestors by the change R(t) − R(T_t) and 1 − |T_t|, as is their g; a step costs one
    argmin over n_nodes plus the walk up.
    Among tied least g the lowest node index goes first (one node per step), so a tie shows
    as a repeated alpha in the path, as in scikit-learn's ``cost_complexity_pruning_path``.
    """
    left, right = a["children_left"], a["children_right"]
    w = a["weighted_n_node_samples"].astype(np.float64)
    R_node = w * a["impurity"].astype(np.float64) / w[0]  # R(t)
    parent, order = _parents_and_preorder(left, right)

    is_leaf = left == _LEAF
    R_branch = np.where(is_leaf, R_node, 0.0)  # R(T_t), summed bottom-up below
    n_leaves = is_leaf.astype(np.intp)  # |T_t|
    for t in order[::-1]:  # children before parents
        if not is_leaf[t]:
            R_branch[t] = R_branch[left[t]] + R_branch[right[t]]
            n_leaves[t] = n_leaves[left[t]] + n_leaves[right[t]]

    reachable = np.zeros(left.shape[0], dtype=bool)
    reachable[order] = True
    candidate = ~is_leaf & reachable  # internal nodes of the current subtree
    g = np.full(left.shape[0], np.inf)  # g(t) of the candidates, inf elsewhere
    g[candidate] = (R_node[candidate] - R_branch[candidate]) / (n_leaves[candidate] - 1)
    yield 0.0, R_branch[0]
    while not is_leaf[0] and not collapsed[0]:
        t = int(np.argmin(g))  # first index among ties
        alpha = g[t]
        if alpha > stop_alpha:
            return
        collapsed[t] = True
        g[t] = np.inf
        g[_descendants(left, right, t)] = np.inf
        dR, dn = R_node[t] - R_branch[t], 1 - n_leaves[t]
        R_branch[t], n_leaves[t] = R_node[t], 1
        s = parent[t]
        while s != -1:  # only the ancestors' R(T_s), |T_s| and so g(s) change
            R_branch[s] += dR
            n_leaves[s] += dn
            g[s] = (R_node[s] - R_branch[s]) / (n_leaves[s] - 1)
            s = parent[s]
        yield alpha, R_branch[0]


def _descendants(left: np.ndarray, right: np.ndarray, t: int) -> list:
    """Every node strictly below ``t``."""
    out, stack = [], [left[t], right[t]] if left[t] != _LEAF else []
    while stack:
        s = stack.pop()
        out.append(s)
        if left[s] != _LEAF:
            stack.extend((left[s], right[s]))
    return out


def ccp_path(tree) -> tuple[np.ndarray, np.ndarray]:
    """The minimal cost-complexity pruning path of a fitted tree.

    .. math::

        R(t) = \\frac{w_t}{w_{root}}\\,\\mathrm{impurity}_t,\\qquad
        g(t) = \\frac{R(t) - R(T_t)}{|T_t| - 1}

    Starting from the full tree, the internal node of least g(t) (the weakest link) is collapsed
    into a leaf, R(T_t) and |T_t| of its ancestors are updated, and this repeats until the root
    is a leaf.

    Parameters
    ----------
    tree : object with the eight flat arrays (e.g. an estimator's ``tree_``)

    Returns
    -------
    ccp_alphas : ndarray of shape (n_steps + 1,)
        0 for the full tree, then g of each collapsed node in order (non-decreasing).
    impurities : ndarray of shape (n_steps + 1,)
        R(T_α) = Σ R(l) over the leaves of the tree after each step; the last entry is R(root).
    """
    a = _arrays(tree)
    collapsed = np.zeros(a["children_left"].shape[0], dtype=bool)
    steps = np.array(list(_weakest_link_sequence(a, collapsed)))  # (n_steps + 1, 2)
    return steps[:, 0].copy(), steps[:, 1].copy()


def ccp_prune(tree, ccp_alpha: float) -> dict:
    """The subtree T_α kept for ``ccp_alpha``: weakest links collapsed while least g(t) ≤ α.

    Parameters
    ----------
    tree : object with the eight flat arrays
    ccp_alpha : float ≥ 0
        The complexity parameter α of R_α(T) = R(T) + α|T|. α = 0 means no pruning and returns
        the full tree, as an estimator's ``ccp_alpha=0`` does, even where a split left the cost
        unchanged (g(t) = 0); any α > 0 also collapses those.

    Returns
    -------
    dict of the eight arrays, renumbered depth-first, left child first.
    """
    alpha = float(ccp_alpha)
    if not np.isfinite(alpha) or alpha < 0:
        raise ValueError(f"ccp_alpha must be a finite float >= 0; got {ccp_alpha!r}")
    a = _arrays(tree)
    collapsed = np.zeros(a["children_left"].shape[0], dtype=bool)
    if alpha > 0:
        for _ in _weakest_link_sequence(a, collapsed, stop_alpha=alpha):
            pass
    return _subtree(a, collapsed)


# -- reduced-error pruning --------------------------------------------------------------------
@dataclass(frozen=True)
class PruneReport:
    """What reduced-error pruning did; scores are accuracy (classifier) or R² (regressor)."""

    nodes_before: int
    nodes_after: int
    leaves_before: int
    leaves_after: int
    score_before: float
    score_after: float

    @property
    def nodes_removed(self) -> int:
        return self.nodes_before - self.nodes_after


def _check_validation(a: dict, n_features, X_val, y_val, sample_weight):
    """X (n, d) finite floats reaching every feature the tree uses, y (n,), weights (n,) ≥ 0."""
    X = np.asarray(X_val, dtype=np.float64)
    y = np.asarray(y_val)
    if X.ndim != 2:
        raise ValueError(f"X_val must be 2-D (n_samples, n_features); got shape {X.shape}")
    if X.shape[0] == 0:
        raise ValueError("reduced-error pruning needs a non-empty validation set; got 0 rows")
    used = a["feature"][a["children_left"] != _LEAF]
    need = n_features if n_features is not None else (used.max() + 1 if used.size else 0)
    if X.shape[1] < need or (n_features is not None and X.shape[1] != n_features):
        raise ValueError(f"X_val has {X.shape[1]} features, but the tree was fitted on {need}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X_val contains NaN or infinity")
    if y.shape != (X.shape[0],):
        raise ValueError(f"y_val must have shape ({X.shape[0]},); got {y.shape}")
    if sample_weight is None:
        return X, y, np.ones(X.shape[0])
    sw = np.asarray(sample_weight, dtype=np.float64)
    if sw.shape != (X.shape[0],) or not np.all(np.isfinite(sw)) or np.any(sw < 0) or sw.sum() <= 0:
        raise ValueError(
            f"sample_weight must be {X.shape[0]} finite non-negative weights with a positive sum"
        )
    return X, y, sw


def _rows_reaching(a: dict, X: np.ndarray) -> list:
    """For every node, the indices of the rows of X that pass through it (x_f ≤ θ goes left)."""
    left, right = a["children_left"], a["children_right"]
    rows = [None] * left.shape[0]
    rows[0] = np.arange(X.shape[0])
    stack = [0]
    while stack:
        t = stack.pop()
        if left[t] != _LEAF:
            goes_left = X[rows[t], a["feature"][t]] <= a["threshold"][t]
            rows[left[t]], rows[right[t]] = rows[t][goes_left], rows[t][~goes_left]
            stack.extend((left[t], right[t]))
    return rows


def _node_losses(a: dict, y: np.ndarray, classes, is_classifier: bool):
    """loss(t, i): the validation loss of row i if node t predicts it (0/1 or squared error)."""
    value = a["value"][:, 0, :]  # (n_nodes, K)
    if is_classifier:
        labels = np.asarray(classes)[np.argmax(value, axis=1)]  # training majority of each node
        return lambda t, i: (labels[t] != y[i]).astype(np.float64)
    y = y.astype(np.float64)
    return lambda t, i: (y[i] - value[t, 0]) ** 2


def reduced_error_prune(tree, X_val, y_val, *, classes=None, sample_weight=None):
    """Reduced-error pruning (Quinlan 1987) of a fitted tree on a validation set.

    Nodes are visited bottom-up (post-order). At an internal node t reached by the validation
    rows S_t, the branch (as already pruned below t) is replaced by a leaf predicting t's
    training value (the class of largest ``value`` for a classifier, the node value for a
    regressor) when the leaf's weighted validation loss is not larger:

    .. math:: \\sum_{i \\in S_t} w_i\\,[\\ell(t, i) - \\ell(\\hat t(i), i)] \\le 0

    with ℓ the 0/1 loss (classifier) or the squared error (regressor) and t̂(i) the leaf of the
    current branch that row i reaches; so validation accuracy, or R², never drops. A node no
    validation row reaches has S_t empty, the sum is 0, and it is pruned: with no evidence for
    a split, the smaller tree is kept. A classifier node's class is the first of largest
    ``value`` on a tie. Rows are routed in float64 (left when x_f ≤ θ); scikit-learn's own
    trees route float32 copies of X, so for them pass ``X_val.astype(np.float32)`` to
    reproduce their predictions exactly.

    Parameters
    ----------
    tree : object with the eight flat arrays
    X_val : array-like of shape (n_val, n_features)
    y_val : array-like of shape (n_val,)
        Labels (compared with ``classes``) or regression targets.
    classes : array-like of shape (K,), optional
        The labels of ``value``'s last axis (an estimator's ``classes_``). Given, or with K > 1
        classes in ``value``, the tree is a classifier (labels 0..K−1 when not given);
        otherwise (K = 1 and no ``classes``) a regressor.
    sample_weight : array-like of shape (n_val,), optional

    Returns
    -------
    arrays : dict of the eight arrays of the pruned tree, renumbered depth-first, left first
    report : PruneReport
    """
    a = _arrays(tree)
    X, y, w = _check_validation(a, getattr(tree, "n_features", None), X_val, y_val, sample_weight)
    K = a["value"].shape[-1]
    is_classifier = classes is not None or K > 1
    if is_classifier:
        classes = np.arange(K) if classes is None else np.asarray(classes)
        if classes.shape != (K,):
            raise ValueError(f"classes must hold the tree's {K} class labels; got {classes.shape}")
    loss = _node_losses(a, y, classes, is_classifier)

    left = a["children_left"]
    rows = _rows_reaching(a, X)
    leaf_of = np.empty(X.shape[0], dtype=np.intp)  # leaf of the current tree reached by each row
    for t in np.flatnonzero(left == _LEAF):
        if rows[t] is not None:
            leaf_of[rows[t]] = t
    score = _score_function(y, w, is_classifier)
    score_before = score(loss, leaf_of)

    collapsed = np.zeros(left.shape[0], dtype=bool)
    _, preorder = _parents_and_preorder(left, a["children_right"])
    for t in preorder[::-1]:  # every child before its parent
        if left[t] == _LEAF:
            continue
        i = rows[t]
        if np.sum(w[i] * (loss(t, i) - loss(leaf_of[i], i))) <= 0:
            collapsed[t] = True
            leaf_of[i] = t

    pruned = _subtree(a, collapsed)
    report = PruneReport(
        nodes_before=int(preorder.shape[0]),
        nodes_after=int(pruned["children_left"].shape[0]),
        leaves_before=int(np.sum(left[preorder] == _LEAF)),
        leaves_after=int(np.sum(pruned["children_left"] == _LEAF)),
        score_before=score_before,
        score_after=score(loss, leaf_of),
    )
    return pruned, report


def _score_function(y, w, is_classifier: bool):
    """score(loss, leaf_of): weighted accuracy Σw(1 − ℓ)/Σw, or R² = 1 − Σwℓ / Σw(y − ȳ_w)²."""
    W = w.sum()
    i = np.arange(y.shape[0])
    if is_classifier:
        return lambda loss, leaf_of: float(np.sum(w * (1.0 - loss(leaf_of, i))) / W)
    y = y.astype(np.float64)
    ss_tot = np.sum(w * (y - np.sum(w * y) / W) ** 2)

    def r2(loss, leaf_of):
        ss_res = np.sum(w * loss(leaf_of, i))
        if ss_tot == 0:  # constant targets: R² is 1 for an exact fit, else 0 (as r2_score)
            return 1.0 if ss_res == 0 else 0.0
        return float(1.0 - ss_res / ss_tot)

    return r2

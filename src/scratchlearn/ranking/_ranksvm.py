"""RankSVM: a linear SVM without intercept on the differences of pairs inside each query.

Symbols
-------
X (n, d), y (n,)   rows and their relevance labels; queries given by ``qid``
(i, j)             an unordered pair of rows of one query with yᵢ ≠ yⱼ, taken once (i before
                   j in the query's row order)
zₚ = xᵢ − xⱼ       the pair's difference, tₚ = sign(yᵢ − yⱼ) ∈ {−1, +1}
w (d,)             the weights; a row's score is wᵀx

Objective (Herbrich et al. 2000; Joachims 2002)::

    min_w  ½‖w‖² + C Σₚ ℓ(tₚ wᵀzₚ),   ℓ(m) = max(0, 1 − m)  ("hinge")
                                      ℓ(m) = max(0, 1 − m)² ("squared_hinge")

No intercept: it would cancel in every difference. The problem is handed to the dual
coordinate descent of :func:`scratchlearn.svm._liblinear.dual_cd` (the solver of
``LinearSVC``), so the RankSVM here is only the construction of the pairs.

Large queries: a query of m rows has m(m − 1)/2 unordered pairs. With
``max_pairs_per_query = M`` and m(m − 1)/2 > M, M of those pairs are drawn uniformly without
replacement (by their index in the upper triangle, so the m² pairs are never materialised;
seeded by ``random_state``) and the ones with different labels are kept; a UserWarning says
how many queries were sampled.

References
----------
Herbrich, R., Graepel, T. and Obermayer, K. (2000). Large margin rank boundaries for ordinal
regression. In Advances in Large Margin Classifiers, MIT Press, 115–132.

Joachims, T. (2002). Optimizing search engines using clickthrough data. Proceedings of the 8th
ACM SIGKDD International Conference on Knowledge Discovery and Data Mining, 133–142.

Hsieh, C.-J., Chang, K.-W., Lin, C.-J., Keerthi, S. S. and Sundararajan, S. (2008). A dual
coordinate descent method for large-scale linear SVM. Proceedings of the 25th International
Conference on Machine Learning, 408–415.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from ..utils import check_random_state
from ..utils._param_validation import Interval, StrOptions
from ._base import BaseRanker

__all__ = ["RankSVM", "query_pairs", "rank_pairs"]


def _upper_triangle_pairs(m: int, k: np.ndarray):
    """(i, j), i < j, of the k-th pairs of the row-major upper triangle of an m × m matrix.

    Row i starts at offset oᵢ = Σ_{r<i} (m − 1 − r); i = max{i : oᵢ ≤ k}, j = i + 1 + k − oᵢ.
    """
    offsets = np.r_[0, np.cumsum(np.arange(m - 1, 0, -1))]  # (m,)
    i = np.searchsorted(offsets, k, side="right") - 1
    return i, i + 1 + (k - offsets[i])


def query_pairs(y_q, *, max_pairs=None, rng=None):
    """Index pairs (i, j) into one query's rows with y_q[i] ≠ y_q[j], each unordered pair once.

    All pairs i < j when ``max_pairs`` is None or m(m − 1)/2 ≤ ``max_pairs``; otherwise
    ``max_pairs`` of them drawn uniformly without replacement (``rng``) before the label filter.
    Returns (i, j, sampled).
    """
    m = len(y_q)
    n_all = m * (m - 1) // 2
    if max_pairs is None or n_all <= max_pairs:
        i, j = np.triu_indices(m, k=1)
        sampled = False
    else:
        k = np.sort(rng.choice(n_all, size=max_pairs, replace=False))
        i, j = _upper_triangle_pairs(m, k)
        sampled = True
    keep = y_q[i] != y_q[j]
    return i[keep], j[keep], sampled


def rank_pairs(X, y, queries, *, max_pairs_per_query=None, random_state=None):
    """The pair differences Z (p, d) and their signs t (p,), query after query.

    zₚ = xᵢ − xⱼ and tₚ = sign(yᵢ − yⱼ) for the pairs of :func:`query_pairs`. Returns
    (Z, t, n_sampled) with n_sampled the number of queries whose pairs were sampled.

    The queries kept whole are paired all at once, one block per query size m: the upper
    triangle i < j of an m × m grid shifted to each query's first position. Only the sampled
    queries are visited one by one, in query order, so that they draw from ``random_state`` in
    that order. A stable sort by query then lays the pairs out query after query, each query's
    pairs in the order of :func:`query_pairs`.
    """
    rng = check_random_state(random_state)
    order, starts, sizes = queries.order, queries.starts, queries.sizes
    n_all = sizes * (sizes - 1) // 2  # (Q,) unordered pairs of each query
    if max_pairs_per_query is None:
        sampled = np.zeros(len(starts), dtype=bool)
    else:
        sampled = n_all > max_pairs_per_query
    query, first, second = [], [], []  # per block: the query, first and second row of each pair
    for m in np.unique(sizes[~sampled]):
        qs = np.flatnonzero((sizes == m) & ~sampled)  # the whole queries of m rows
        i, j = np.triu_indices(m, k=1)  # (m(m − 1)/2,) each
        query.append(np.repeat(qs, len(i)))
        first.append(order[starts[qs, None] + i].ravel())  # (|qs|, m(m − 1)/2) flattened
        second.append(order[starts[qs, None] + j].ravel())
    for q in np.flatnonzero(sampled):
        rows = queries.rows(q)
        i, j, _ = query_pairs(y[rows], max_pairs=max_pairs_per_query, rng=rng)
        query.append(np.full(len(i), q))
        first.append(rows[i])
        second.append(rows[j])
    if query:
        by_query = np.argsort(np.concatenate(query), kind="stable")
        a, b = np.concatenate(first)[by_query], np.concatenate(second)[by_query]
    else:
        a = b = np.zeros(0, dtype=np.intp)
    keep = y[a] != y[b]  # equal labels say nothing about the order
    a, b = a[keep], b[keep]
    Z = X[a] - X[b]  # (p, d)
    t = np.sign(y[a] - y[b])  # (p,) in {−1, +1}
    return Z, t, int(np.count_nonzero(sampled))


class RankSVM(BaseRanker):
    """Pairwise learning to rank: a linear SVM on the differences of rows inside each query.

    .. math::

        \\min_w \\tfrac12\\|w\\|^2 + C \\sum_{(i,j)} \\ell\\big(\\operatorname{sign}(y_i - y_j)
        \\, w^T(x_i - x_j)\\big)

    over every unordered pair of rows of one query with different labels, once (no per-query
    reweighting); ℓ the hinge or squared hinge. Scores ``predict(X) = Xw``.

    Parameters
    ----------
    C : float, default=1.0
        Weight of the pair losses against ½‖w‖².
    loss : {"squared_hinge", "hinge"}, default="squared_hinge"
    tol : float, default=1e-4
        Stopping tolerance of the dual coordinate descent (its largest projected-gradient
        violation).
    max_iter : int, default=1000
        Passes of the dual coordinate descent over the pairs.
    max_pairs_per_query : int or None, default=None
        None: every pair. An int M: a query with more than M unordered pairs contributes M
        pairs drawn uniformly (then filtered to different labels), with a UserWarning.
    random_state : None, int or numpy.random.Generator
        Seeds the pair sampling and the coordinate order of the solver.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    n_pairs_ : int
        Pairs the SVM was trained on.
    n_iter_, history_, stop_reason_ :
        The solver's fit record: ``history_["objective"]`` the dual objective and
        ``history_["kkt_violation"]`` the spread M − m of the projected gradients (the KKT
        violation the stopping rule compares with ``tol``), per pass.

    Examples
    --------
    >>> from scratchlearn.datasets import load_modechoice
    >>> from scratchlearn.preprocessing import StandardScaler
    >>> from scratchlearn.ranking import RankSVM
    >>> data = load_modechoice()
    >>> X, y, qid = StandardScaler().fit_transform(data.data), data.target, data.qid
    >>> ranker = RankSVM(C=0.1, random_state=0).fit(X, y, qid=qid)
    >>> print(ranker.n_pairs_, ranker.coef_.shape, ranker.stop_reason_)
    630 (7,) converged
    >>> print(round(ranker.score(X, y, qid=qid), 3))
    0.856
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {"n_features_in_": ("int", ()), "coef_": ("float64", ("n_features_in_",))}

    _parameter_constraints = {
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
        "loss": [StrOptions({"squared_hinge", "hinge"})],
        "tol": [Interval(numbers.Real, 0, None, closed="neither")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_pairs_per_query": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        C=1.0,
        loss="squared_hinge",
        tol=1e-4,
        max_iter=1000,
        max_pairs_per_query=None,
        random_state=None,
    ):
        self.C = C
        self.loss = loss
        self.tol = tol
        self.max_iter = max_iter
        self.max_pairs_per_query = max_pairs_per_query
        self.random_state = random_state

    def fit(self, X, y, qid=None):
        """Build the pairs of every query and fit the SVM on their differences; returns self."""
        self._validate_params()
        X, y, queries = self._validate_ranking_data(X, y, qid)
        rng = check_random_state(self.random_state)
        Z, t, n_sampled = rank_pairs(
            X, y, queries, max_pairs_per_query=self.max_pairs_per_query, random_state=rng
        )
        if n_sampled:
            warnings.warn(
                f"RankSVM sampled {self.max_pairs_per_query} pairs in each of {n_sampled} "
                f"queries with more pairs than max_pairs_per_query.",
                UserWarning,
                stacklevel=2,
            )
        self.n_pairs_ = len(t)
        if self.n_pairs_ == 0:  # no two rows of a query differ: w = 0 minimises ½‖w‖²
            self.coef_ = np.zeros(X.shape[1])
            self._record_fit(0, None, "converged", criterion="no pairs: w = 0 is the optimum")
            return self
        from ..svm._liblinear import dual_cd

        res = dual_cd(
            Z,
            t,
            np.full(self.n_pairs_, float(self.C)),
            loss=self.loss,
            tol=self.tol,
            max_iter=self.max_iter,
            random_state=rng,
        )
        self.coef_ = np.asarray(res.w, dtype=np.float64)
        history = {"objective": res.history_objective, "kkt_violation": res.history_violation}
        self._record_fit(
            res.n_iter,
            history,
            res.status,
            criterion=f"projected-gradient violation <= tol={self.tol}",
        )
        return self

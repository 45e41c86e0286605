r"""Dual coordinate descent for the L2-regularised linear SVM (Hsieh et al. 2008, liblinear).

Symbols
-------
n, d      samples, features (d + 1 with an implicit bias feature of value B)
xᵢ, yᵢ    a row of X and its label in {−1, +1}
Cᵢ        the per-sample penalty (C × class weight × sample weight)
w         the primal weights, w = Σᵢ αᵢ yᵢ xᵢ, kept up to date after every coordinate step
α         the dual variables, 0 ≤ αᵢ ≤ Uᵢ

The primal problems, with ξᵢ(w) = max(0, 1 − yᵢ wᵀxᵢ):

.. math::

    \min_w \tfrac12\|w\|^2 + \sum_i C_i\,\xi_i(w)        \quad\text{(hinge)}
    \qquad
    \min_w \tfrac12\|w\|^2 + \sum_i C_i\,\xi_i(w)^2      \quad\text{(squared hinge)}

have the one dual

.. math::

    \min_\alpha f(\alpha) = \tfrac12\alpha^\top\bar Q\alpha - e^\top\alpha,
    \quad 0 \le \alpha_i \le U_i, \quad \bar Q = Q + D, \quad Q_{ij} = y_i y_j x_i^\top x_j,

with hinge: Uᵢ = Cᵢ, Dᵢᵢ = 0; squared hinge: Uᵢ = ∞, Dᵢᵢ = 1/(2Cᵢ). Since w = Σ αᵢyᵢxᵢ,
f(α) = ½‖w‖² + ½Σ Dᵢᵢαᵢ² − Σ αᵢ, and the partial derivative costs one sparse dot product:

.. math::

    G_i = \partial_i f(\alpha) = y_i w^\top x_i - 1 + D_{ii}\alpha_i .

One coordinate step minimises f exactly along αᵢ and clips to the box:
αᵢ ← min(max(αᵢ − Gᵢ/Q̄ᵢᵢ, 0), Uᵢ), then w ← w + (αᵢ_new − αᵢ_old) yᵢ xᵢ. An outer iteration
visits the active coordinates in a fresh random order.

Projected gradient, shrinking and the stopping rule (liblinear's ``solve_l2r_l1l2_svc``)
---------------------------------------------------------------------------------------
PGᵢ = Gᵢ, except PGᵢ = min(Gᵢ, 0) at αᵢ = 0 and PGᵢ = max(Gᵢ, 0) at αᵢ = Uᵢ (zero when the
gradient points out of the box); α is optimal iff PG = 0. During an outer iteration the solver
tracks M = max PGᵢ and m = min PGᵢ over the coordinates it visits. A coordinate at its lower
bound with Gᵢ > M̄ (the previous iteration's M, or +∞ when that was ≤ 0), or at its upper bound
with Gᵢ < m̄ (likewise −∞), is *shrunk*: removed from the active set for the rest of the pass.
When M − m ≤ tol the solver stops if no coordinate is shrunk; otherwise it restores all of them,
resets M̄ = +∞, m̄ = −∞ and goes on, so it only ever stops after a full pass whose range of
projected gradients is within ``tol``.

``tol`` is used as given, exactly as liblinear's dual solvers use it (its ``eps``): liblinear
rescales the tolerance only for its *primal* solvers (TRON, ``eps·max(min(n₊, n₋), 1)/n``),
never for this dual one, so ``tol`` means here what it means in
``sklearn.svm.LinearSVC(dual=True)``. Both M and m are values met during the pass while w moves,
as in liblinear; the exact projected gradient at the returned α may differ from them by the
change of w over the last pass. A ``tol`` below the rounding error of Gᵢ (about 1e-12 for
standardised data) is never met: shrunk coordinates are then never restored, and the solver
runs to ``max_iter`` (liblinear does the same); 1e-9 is a safe tight tolerance.

Deviations from liblinear: the permutation comes from a SplitMix64 stream inside the kernel,
seeded by one draw from ``random_state`` (so the whole solve is one compiled call), not from
liblinear's ``rand()``, so the iterates differ from scikit-learn's by the visiting order but
solve the same problem to the same rule; a sample with Cᵢ = 0 has its αᵢ fixed at 0 (the
limit of both losses), where liblinear's squared hinge would compute 0·∞.

Reference: C.-J. Hsieh, K.-W. Chang, C.-J. Lin, S. S. Keerthi, S. Sundararajan, "A dual
coordinate descent method for large-scale linear SVM", ICML 2008, Algorithm 1 and §3.2.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numba
import numpy as np
import scipy.sparse as sp

from ..utils.validation import check_random_state

__all__ = ["DualCDResult", "dual_cd", "dual_objective", "projected_gradient"]


@dataclass
class DualCDResult:
    """What :func:`dual_cd` returns.

    w : ndarray (d,) or (d + 1,) with a bias feature (its last entry the bias weight)
    alpha : ndarray (n,), the dual variables
    n_iter : int, outer iterations (full or shrunk passes), liblinear's count
    status : "converged" (a full pass with M − m ≤ tol) or "max_iter"
    history_violation : M − m of each recorded outer iteration
    history_objective : f(α) after each recorded outer iteration
    """

    w: np.ndarray
    alpha: np.ndarray
    n_iter: int
    status: str
    history_violation: list = field(default_factory=list)
    history_objective: list = field(default_factory=list)


# -- the Numba kernels --------------------------------------------------------------------------
# Row i of X is data[indptr[i]:indptr[i + 1]], its columns in indices (CSR), or, for dense X,
# the d contiguous entries from data[indptr[i]]. Which of the two is told by ``layout``, an
# empty array whose number of dimensions is the tag (_DENSE: 2, _CSR: 1): a dimension count is
# part of an array's Numba type, so each layout gets its own compiled kernels in which
# ``layout.ndim == 2`` is a constant, and each reads only its own rows. (A run-time flag kept
# both loops of both row operations in every coordinate step: 45 % of a dense pass, 20 % of a
# CSR one.) Only the layout a fit uses is compiled. Row sums are four interleaved
# partial sums s₀…s₃ added as (s₀ + s₁) + (s₂ + s₃): four independent chains keep the adder
# busy, and the order of additions is fixed (no fastmath), the same on every CPU. Every position
# (indptr, indices, index) is unsigned, so no access pays for negative-index wraparound, and
# rows are read in place (a slice per row would cost two reference-count calls).
_1, _2, _3, _4 = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)
_DENSE, _CSR = np.empty((0, 0)), np.empty(0)  # the layout tags: only their ndim is read


@numba.njit(cache=True, inline="always")
def _row_dot(w, data, indices, indptr, layout, i, B):
    """wᵀxᵢ (plus w_d·B for the bias feature when B > 0)."""
    dense = layout.ndim == 2
    start, stop = indptr[i], indptr[i + _1]
    m = start + (stop - start) // _4 * _4
    s0 = s1 = s2 = s3 = 0.0
    k = start
    if dense:  # column k − start
        while k < m:
            j = k - start
            s0 += w[j] * data[k]
            s1 += w[j + _1] * data[k + _1]
            s2 += w[j + _2] * data[k + _2]
            s3 += w[j + _3] * data[k + _3]
            k += _4
    else:
        while k < m:
            s0 += w[indices[k]] * data[k]
            s1 += w[indices[k + _1]] * data[k + _1]
            s2 += w[indices[k + _2]] * data[k + _2]
            s3 += w[indices[k + _3]] * data[k + _3]
            k += _4
    s = (s0 + s1) + (s2 + s3)
    while k < stop:
        s += (w[k - start] if dense else w[indices[k]]) * data[k]
        k += _1
    if B > 0.0:
        s += w[w.shape[0] - 1] * B
    return s


@numba.njit(cache=True, inline="always")
def _row_axpy(delta, w, data, indices, indptr, layout, i, B):
    """w ← w + δ·xᵢ (and the bias feature)."""
    dense = layout.ndim == 2
    start, stop = indptr[i], indptr[i + _1]
    k = start
    if dense:
        while k < stop:
            w[k - start] += delta * data[k]
            k += _1
    else:
        while k < stop:
            w[indices[k]] += delta * data[k]
            k += _1
    if B > 0.0:
        w[w.shape[0] - 1] += delta * B


@numba.njit(cache=True, inline="always")
def _below(state, k):
    """A uniform integer in [0, k), k < 2³², from SplitMix64 (Steele, Lea, Flood 2014): the top
    32 bits u of the output give ⌊u·k / 2³²⌋ (Lemire's multiply-shift; its bias, at most
    k / 2³², is far below anything a visiting order could show). ``state`` is a (1,) uint64
    array, advanced in place."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return ((z >> np.uint64(32)) * np.uint64(k)) >> np.uint64(32)


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)  # called by _solve only
def _sweep(data, indices, indptr, layout, B, P, alpha, w, index, state, active, bounds):
    """One outer iteration over ``index[:active]``: shuffle, then one exact step per coordinate.

    P (n, 4) holds each row's constants (yᵢ, Dᵢᵢ, Uᵢ, Q̄ᵢᵢ) side by side: one cache line per
    visited coordinate instead of four.

    bounds = (M̄, m̄), the shrinking thresholds. Returns the new active size and (M, m), the max
    and min projected gradient met (−∞, +∞ if none was visited).
    """
    M_old, m_old = bounds
    for s in range(active):  # liblinear's shuffle: swap s with a uniform j in [s, active)
        j = s + np.int64(_below(state, active - s))
        index[s], index[j] = index[j], index[s]
    M, m = -np.inf, np.inf
    s = 0
    while s < active:
        i = index[s]
        y_i, D_i, U_i, QD_i = P[i, 0], P[i, 1], P[i, 2], P[i, 3]
        if U_i == 0.0:  # Cᵢ = 0: αᵢ = 0 is fixed, its projected gradient is zero
            s += 1
            continue
        G = y_i * _row_dot(w, data, indices, indptr, layout, i, B) - 1.0 + D_i * alpha[i]
        PG = G
        if alpha[i] == 0.0:
            if G > M_old:  # at the lower bound and pushed further out: shrink
                active -= 1
                index[s], index[active] = index[active], index[s]
                continue
            PG = G if G < 0.0 else 0.0  # (no builtin min/max: see _solve)
        elif alpha[i] == U_i:
            if G < m_old:  # at the upper bound and pushed further out: shrink
                active -= 1
                index[s], index[active] = index[active], index[s]
                continue
            PG = G if G > 0.0 else 0.0
        M = PG if PG > M else M
        m = PG if PG < m else m
        if abs(PG) > 1e-12:
            a_old = alpha[i]
            if QD_i > 0.0:
                a = a_old - G / QD_i  # clipped to [0, Uᵢ]
                a = a if a > 0.0 else 0.0
                alpha[i] = a if a < U_i else U_i
            else:  # xᵢ = 0 under the hinge: f is linear in αᵢ, minimised at a bound
                alpha[i] = U_i if G < 0.0 else 0.0
            _row_axpy((alpha[i] - a_old) * y_i, w, data, indices, indptr, layout, i, B)
        s += 1
    return active, M, m


@numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)  # called by _solve only
def _objective(w, alpha, D):
    """f(α) = ½‖w‖² + Σ (½Dᵢᵢαᵢ − 1)αᵢ (as :func:`dual_objective`, without temporaries), each
    sum in four interleaved partial sums (it runs once per pass: one chain cost 5% of a pass)."""
    d, n = w.shape[0] // 4 * 4, alpha.shape[0] // 4 * 4
    s0 = s1 = s2 = s3 = 0.0
    for j in range(0, d, 4):
        s0 += w[j] * w[j]
        s1 += w[j + 1] * w[j + 1]
        s2 += w[j + 2] * w[j + 2]
        s3 += w[j + 3] * w[j + 3]
    for j in range(d, w.shape[0]):
        s0 += w[j] * w[j]
    f = 0.5 * ((s0 + s1) + (s2 + s3))
    s0 = s1 = s2 = s3 = 0.0
    for i in range(0, n, 4):
        s0 += (0.5 * D[i] * alpha[i] - 1.0) * alpha[i]
        s1 += (0.5 * D[i + 1] * alpha[i + 1] - 1.0) * alpha[i + 1]
        s2 += (0.5 * D[i + 2] * alpha[i + 2] - 1.0) * alpha[i + 2]
        s3 += (0.5 * D[i + 3] * alpha[i + 3] - 1.0) * alpha[i + 3]
    for i in range(n, alpha.shape[0]):
        s0 += (0.5 * D[i] * alpha[i] - 1.0) * alpha[i]
    return f + ((s0 + s1) + (s2 + s3))


@numba.njit(cache=True, no_cfunc_wrapper=True)
def _solve(data, indices, indptr, layout, B, y, alpha, w, D, U, tol, max_iter, every, index, state,
           P, hist):  # fmt: skip
    """The outer iterations with liblinear's shrinking and stopping rule (module docstring),
    after Q̄ᵢᵢ = ‖x̃ᵢ‖² + Dᵢᵢ = (Dᵢᵢ + ‖xᵢ‖²) + B² from the rows (no temporary of X's size).

    Returns (outer iterations, converged?, history): history (r, 2) holds M − m and f(α) of
    every ``every``-th iteration and of the last.

    The caller allocates the visiting order ``index`` (0..n−1, uint32: no wraparound test on
    αᵢ, yᵢ, …), the generator's ``state`` (1,) uint64, ``P`` (n, 4) and the first ``hist``
    (r₀, 2), and the extrema are conditional expressions: every NumPy allocator and builtin
    ``max``/``min`` compiled here would be one more implementation for a first fit to compile.
    """
    n = y.shape[0]
    for i in range(n):  # scalar loops: Numba compiles array-slice assignment slowly
        sq, k, stop = 0.0, indptr[i], indptr[i + _1]  # ‖xᵢ‖², entries in stored order
        while k < stop:
            sq += data[k] * data[k]
            k += _1
        P[i, 0], P[i, 1], P[i, 2], P[i, 3] = y[i], D[i], U[i], (D[i] + sq) + B * B  # Q̄ᵢᵢ
    active, M_old, m_old = n, np.inf, -np.inf
    it, r, converged = 0, 0, False
    while it < max_iter and not converged:
        bounds = (M_old, m_old)
        active, M, m = _sweep(
            data, indices, indptr, layout, B, P, alpha, w, index, state, active, bounds
        )
        it += 1
        done = M - m <= tol  # (−∞ when every coordinate was shrunk: restart in full)
        converged = done and active == n
        if it % every == 0 or converged or it == max_iter:
            if r == hist.shape[0]:  # grow the record
                grown = np.empty((2 * r, 2))
                for k in range(r):
                    grown[k, 0], grown[k, 1] = hist[k, 0], hist[k, 1]
                hist = grown
            gap = M - m
            hist[r, 0], hist[r, 1] = (gap if gap > 0.0 else 0.0), _objective(w, alpha, D)
            r += 1
        if done:  # converged, or restore the shrunk coordinates and check them in full
            active, M_old, m_old = n, np.inf, -np.inf
        else:
            M_old = M if M > 0.0 else np.inf
            m_old = m if m < 0.0 else -np.inf
    return it, converged, hist[:r]


# -- the Python driver --------------------------------------------------------------------------
def _row_arrays(X):
    """(data, indices, indptr, dense) through which the kernels read row i of X."""
    n, d = X.shape
    if d >= 2**32:
        raise ValueError(f"dual_cd reads column indices as uint32: d = {d} features is too many.")
    if sp.issparse(X):
        X = X.tocsr()  # X itself when it is CSR already
        indices = np.ascontiguousarray(X.indices)
        if indices.dtype == np.int32:  # column indices are ≥ 0: the same bits as uint32, no copy
            indices = indices.view(np.uint32)
        else:
            indices = indices.astype(np.uint32)
        return (
            np.ascontiguousarray(X.data, dtype=np.float64),
            indices,
            np.ascontiguousarray(X.indptr, dtype=np.uint64),
            False,
        )
    X = np.ascontiguousarray(X, dtype=np.float64)
    indptr = np.arange(n + 1, dtype=np.uint64) * np.uint64(d)  # row i is data[i·d : (i + 1)·d]
    return X.reshape(-1), np.zeros(0, dtype=np.uint32), indptr, True


def _box(C, loss):
    """(U, D): the upper bounds and the diagonal of the dual for the loss; Cᵢ = 0 fixes αᵢ = 0."""
    zero = C == 0.0
    if loss == "hinge":
        return C.copy(), np.zeros_like(C)
    U = np.where(zero, 0.0, np.inf)
    D = 0.5 / np.where(zero, 1.0, C)
    D[zero] = 0.0
    return U, D


def dual_objective(w, alpha, D):
    """f(α) = ½‖w‖² + ½Σ Dᵢᵢαᵢ² − Σαᵢ, with w = Σαᵢyᵢxᵢ."""
    return 0.5 * (w @ w) + 0.5 * (D @ alpha**2) - alpha.sum()


def projected_gradient(X, y, C, w, alpha, *, loss="squared_hinge", bias=0.0):
    """The exact PG(α) (n,) at a point (a check of the solution, computed with matrix products)."""
    U, D = _box(np.broadcast_to(np.asarray(C, dtype=np.float64), y.shape).copy(), loss)
    d = X.shape[1]
    z = np.asarray(X @ w[:d]).ravel() + (w[d] * bias if bias > 0 else 0.0)
    G = y * z - 1.0 + D * alpha
    PG = G.copy()
    PG[alpha == 0.0] = np.minimum(G[alpha == 0.0], 0.0)
    at_U = (alpha == U) & (alpha > 0.0)
    PG[at_U] = np.maximum(G[at_U], 0.0)
    PG[U == 0.0] = 0.0  # a box [0, 0]
    return PG


def dual_cd(
    X,
    y,
    C,
    *,
    loss="squared_hinge",
    tol=1e-4,
    max_iter=1000,
    random_state=None,
    record_every=1,
    bias=0.0,
):
    """Solve the linear SVM dual (module docstring) by coordinate descent with shrinking.

    Parameters
    ----------
    X : ndarray (n, d) float64, or scipy sparse (read as CSR)
    y : ndarray (n,) of −1.0 / +1.0
    C : float or ndarray (n,) ≥ 0, the per-sample penalty Cᵢ
    loss : "squared_hinge" or "hinge"
    tol : stop after a full pass whose projected gradients span M − m ≤ tol
    max_iter : the most outer iterations
    random_state : None, int or numpy Generator, for the visiting order
    record_every : record M − m and f(α) every this many outer iterations (and the last)
    bias : B > 0 appends an implicit feature of value B to every row (liblinear's ``-B``), so w
        has d + 1 entries; 0 for none

    Returns
    -------
    DualCDResult
    """
    if loss not in ("hinge", "squared_hinge"):
        raise ValueError(f"loss must be 'hinge' or 'squared_hinge'; got {loss!r}.")
    n, d = X.shape
    y = np.asarray(y, dtype=np.float64)
    if y.shape != (n,) or not np.all(np.abs(y) == 1.0):
        raise ValueError("y must be an (n,) array of −1 and +1.")
    C = np.broadcast_to(np.asarray(C, dtype=np.float64), (n,)).copy()
    if not np.all(np.isfinite(C) & (C >= 0.0)):
        raise ValueError("C must be finite and non-negative.")
    rng = check_random_state(random_state)
    data, indices, indptr, dense = _row_arrays(X)
    B = float(bias)

    U, D = _box(C, loss)
    alpha = np.zeros(n)
    w = np.zeros(d + (B > 0))
    seed = rng.integers(2**64, dtype=np.uint64)  # the kernel's own generator (_below)
    every = int(record_every)
    it, converged, hist = _solve(
        data, indices, indptr, _DENSE if dense else _CSR, B, y, alpha, w, D, U,
        float(tol), int(max_iter), every, np.arange(n, dtype=np.uint32),
        np.full(1, seed, dtype=np.uint64), np.empty((n, 4)),
        np.empty((min(int(max_iter) // every + 1, 1024), 2)),
    )  # fmt: skip
    status = "converged" if converged else "max_iter"
    return DualCDResult(w, alpha, it, status, hist[:, 0].tolist(), hist[:, 1].tolist())

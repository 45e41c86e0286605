"""The blocked top-k kernel against its plain reference (whole matrix, stable sort).

Tolerance on returned distances. Both sides sum d non-negative terms (``Σ(xₖ − yₖ)²``, or
``|xₖ − yₖ|ᵖ``) in some order; recursive summation of d non-negative terms has relative error
at most ``γ_d ≈ dε``, and the square (or p-th) root halves it and adds one rounding, so two such
evaluations differ by at most ``2(d + 2)ε`` relatively. Measured: ≤ 1.5e-16 relative on wine
(d = 13, bound 6.7e-15).
"""

import numpy as np
import pytest
from sklearn.datasets import load_digits, load_wine

from scratchlearn.metrics import _argkmin
from scratchlearn.metrics._argkmin import argkmin, argkmin_reference, radius_neighbors_blocked

EPS = np.finfo(np.float64).eps
METRICS = [
    ("euclidean", {}),
    ("sqeuclidean", {}),
    ("manhattan", {}),
    ("chebyshev", {}),
    ("minkowski", {"p": 3.0}),
    ("cosine", {}),
    ("hamming", {}),
]


@pytest.fixture(params=["compiled", "numpy"])
def path(request, monkeypatch):
    """The two ways of filling the Euclidean tiles (the module notes): the compiled loop over
    small products (d ≤ COMPILED_MAX_D, the default for these data) and the NumPy tiles."""
    if request.param == "numpy":
        monkeypatch.setattr(_argkmin, "COMPILED_MAX_D", 0)
    return request.param


def _wine():
    X = load_wine().data
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    return X[::3].copy(), X  # queries, indexed points


@pytest.mark.parametrize("metric,kw", METRICS)
def test_wine_matches_reference_in_small_tiles(metric, kw, path):
    Q, Y = _wine()
    if metric == "hamming":
        Q, Y = np.round(Q), np.round(Y)
    # 0.01 MiB: tiles of at most 1310 values, so both rows and columns of Y are blocked.
    d, i = argkmin(Q, Y, 7, metric=metric, metric_kwargs=kw, working_memory=0.01)
    dr, ir = argkmin_reference(Q, Y, 7, metric=metric, metric_kwargs=kw)
    np.testing.assert_allclose(d, dr, rtol=2 * (Y.shape[1] + 2) * EPS, atol=2 * 15 * EPS)
    if metric != "hamming":  # continuous data: no ties, the same neighbours in the same order
        np.testing.assert_array_equal(i, ir)


@pytest.mark.parametrize(
    "metric", ["euclidean", "sqeuclidean", "manhattan", "chebyshev", "hamming"]
)
def test_digits_ties_broken_by_index(metric, path):
    """Digits are small integers: these distances are exact on both sides (every product and
    sum is an integer below 2⁵³), so equal distances are equal bits and the order among them
    must be the stable one, by training index."""
    X = load_digits().data
    Q, Y = X[:200], X
    d, i = argkmin(Q, Y, 10, metric=metric, working_memory=0.05)
    dr, ir = argkmin_reference(Q, Y, 10, metric=metric)
    np.testing.assert_array_equal(i, ir)
    np.testing.assert_allclose(d, dr, rtol=2 * 66 * EPS)
    assert np.any(d[:, 1:] == d[:, :-1])  # the data do have ties


def test_numpy_tiles_stay_under_working_memory(monkeypatch):
    monkeypatch.setattr(_argkmin, "COMPILED_MAX_D", 0)
    Q, Y = _wine()
    seen = []
    real = _argkmin._tile_values

    def spy(Xb, Yall, j0, j1, metric, kw, out=None):
        T = real(Xb, Yall, j0, j1, metric, kw, out)
        seen.append(T.nbytes)
        return T

    monkeypatch.setattr(_argkmin, "_tile_values", spy)
    budget_mib = 0.002  # 2097 bytes: 262 float64 values per tile
    argkmin(Q, Y, 3, working_memory=budget_mib)
    assert len(seen) > 1 and max(seen) <= budget_mib * 2**20
    r, c = _argkmin._tile_shape(10_000, 50_000, None)
    assert 8 * r * c <= 8 * 2**20  # the default tile: 256 × 4096 float64 = 8 MiB


def test_compiled_tiles_stay_small(monkeypatch):
    """The compiled path's tiles (with their transposed rows of Y): within the working memory,
    and r·c·d ≤ 2¹⁸ so that a BLAS product never starts threads of its own under the search's
    workers."""
    Q, Y = _wine()
    seen = []
    real = _argkmin._argkmin_euclidean

    def spy(X, Yall, yy, r, c, best_val, best_idx, Xs, buf):
        seen.append((r, c, buf.nbytes))
        return real(X, Yall, yy, r, c, best_val, best_idx, Xs, buf)

    monkeypatch.setattr(_argkmin, "_argkmin_euclidean", spy)
    budget_mib = 0.002  # 2097 bytes: 262 float64 values per tile
    d, i = argkmin(Q, Y, 3, working_memory=budget_mib)
    ((r, c, nbytes),) = seen
    # the tile and its copy of the c rows of Y, transposed
    assert 8 * c * (r + Y.shape[1]) == nbytes <= budget_mib * 2**20 and c < Y.shape[0]
    for m, dim in [(50_000, 20), (50_000, 64), (100, 3)]:
        r, c = _argkmin._compiled_tile(m, dim, None)
        assert r * c * dim <= _argkmin.SERIAL_PRODUCT and c <= m
    assert _argkmin._compiled_tile(50_000, 64, None)[1] >= 64  # COMPILED_MAX_D's premise


def test_expanded_form_never_decides_a_returned_distance():
    """Rows far from the origin: ‖x‖² ≈ 1e12 while ‖x − y‖² ≈ 1, so the expanded form keeps
    about 4 digits; the returned distances are still exact to rounding (recomputed)."""
    rng = np.random.default_rng(0)
    Y = 1e6 + rng.normal(size=(300, 5))
    Q = 1e6 + rng.normal(size=(20, 5))
    d, i = argkmin(Q, Y, 4)
    ref = np.sqrt(((Q[:, None, :] - Y[i]) ** 2).sum(axis=2))  # same neighbours, exact
    np.testing.assert_allclose(d, ref, rtol=2 * 7 * EPS)


def test_threads_give_the_sequential_answer(path):
    """Whole blocks of query rows per worker: the answer does not depend on the thread count
    (digits: 1797 queries, 29 blocks of 64 on the compiled path, 8 of 256 on NumPy's)."""
    X = load_digits().data + 0.001 * np.arange(64)  # break the integer ties: a unique answer
    a = argkmin(X, X, 5, n_jobs=1)
    for n_jobs in (None, 2, 3, -1):
        b = argkmin(X, X, 5, n_jobs=n_jobs)
        np.testing.assert_array_equal(a[1], b[1])
        np.testing.assert_array_equal(a[0], b[0])


def test_both_paths_agree():
    """The compiled loop and the NumPy tiles recompute the same candidates exactly: the same
    neighbours, distances within the rounding of two evaluations of Σ(xₖ − yₖ)² (see the
    module docstring of the tests: 2(d + 2)ε relative)."""
    rng = np.random.default_rng(0)
    Y = rng.normal(size=(3000, 24))
    Q = rng.normal(size=(300, 24))
    d1, i1 = argkmin(Q, Y, 6)
    saved = _argkmin.COMPILED_MAX_D
    try:
        _argkmin.COMPILED_MAX_D = 0
        d2, i2 = argkmin(Q, Y, 6)
    finally:
        _argkmin.COMPILED_MAX_D = saved
    np.testing.assert_array_equal(i1, i2)
    np.testing.assert_allclose(d1, d2, rtol=2 * 26 * EPS)


def test_k_out_of_range_is_refused():
    Q, Y = _wine()
    with pytest.raises(ValueError, match="k <= m = 178.*k=179"):
        argkmin(Q, Y, 179)


def _radius_reference(Q, Y, radius, metric):
    """Every distance from the coordinate differences, then the indices within the radius."""
    D = argkmin_reference(Q, Y, Y.shape[0], metric=metric)  # (n, m), sorted by (distance, j)
    out = []
    for dist, ind in zip(*D):
        keep = dist <= radius
        order = np.argsort(ind[keep], kind="stable")  # index order, as radius_neighbors gives
        out.append((ind[keep][order], dist[keep][order]))
    return out


@pytest.mark.parametrize("metric", ["euclidean", "sqeuclidean"])
def test_radius_matches_reference(metric, path):
    """Digits: integer coordinates, so every squared distance is an exact integer on both sides
    and a point at exactly the radius must be in (the radius is one of the distances). Radius
    large enough that a block's hits outgrow the first arrays (the compiled path grows them)."""
    X = load_digits().data
    Q, Y = X[:150], X
    radius = 1681.0 if metric == "sqeuclidean" else 41.0  # 41² = 1681, a distance that occurs
    ind, dist = radius_neighbors_blocked(Q, Y, radius, metric=metric, working_memory=0.05)
    ref = _radius_reference(Q, Y, radius, metric)
    assert sum(len(i) for i in ind) > 8 * 64  # more than the first arrays hold
    on_the_sphere = 0
    for (i, d), (ir, dr) in zip(zip(ind, dist), ref):
        np.testing.assert_array_equal(i, ir)
        np.testing.assert_allclose(d, dr, rtol=2 * 66 * EPS)
        on_the_sphere += int(np.sum(dr == radius))
    assert on_the_sphere > 0  # the boundary was exercised


def test_radius_threads_give_the_sequential_answer(path):
    X = load_digits().data + 0.001 * np.arange(64)
    a = radius_neighbors_blocked(X, X, 30.0, n_jobs=1)
    for n_jobs in (None, 2, 3):
        b = radius_neighbors_blocked(X, X, 30.0, n_jobs=n_jobs)
        for x, y in zip(a[0] + a[1], b[0] + b[1]):
            np.testing.assert_array_equal(x, y)

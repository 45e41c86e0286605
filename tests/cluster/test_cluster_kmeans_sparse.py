"""KMeans and MiniBatchKMeans on CSR input: against scikit-learn's sparse KMeans (the oracle)
and against our own dense fit of the same data.

The sparse path reads only the stored entries and does not centre the rows; the dense path
centres them (KMeans) and takes its inner products by BLAS. The two therefore run the same
sequence of assignments and means with different rounding:

* a label decision argmin_j (‖μ_j‖² − 2x·μ_j) is exact unless two values tie within
  (d + 2)ε(‖x‖² + ‖μ‖²) (uncentred norms); each test first checks that every row's margin
  between its two nearest centres at the final centres exceeds 10× that bound;
* with equal labels, the centres are means of the same rows summed in another order (and, for
  the dense fit, centred then shifted back): ≤ 3nε·max|x| (see tests/dask/test_dask_kmeans.py);
* J: n terms, each relatively off by (d + 2)ε, in another order (nε·J), plus the centres' error
  to second order (J is stationary at the means).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import cluster as sk
from sklearn.datasets import load_digits

from scratchlearn.cluster import KMeans, MiniBatchKMeans, kmeans_plusplus

EPS = np.finfo(float).eps


def _digits():
    """Digits as CSR: pixel counts 0..16, half of them zero (a real sparse-ish data set)."""
    X = load_digits().data[:600]
    return sp.csr_matrix(X), X


def _text_like():
    """A sparse non-negative matrix of about 10 % density with a little structure: 3 groups of
    rows that favour different columns (tf-idf-like weights). Continuous values: integer data
    make exact distance ties at intermediate iterations, decided by rounding differently in the
    dense and sparse paths (scikit-learn's own dense and sparse fits then differ too)."""
    rng = np.random.default_rng(0)
    n, d = 400, 60
    X = sp.random(n, d, density=0.05, random_state=1, data_rvs=lambda m: rng.uniform(0.5, 2, m))
    X = X.toarray()
    X[np.arange(n) % 3 == 0, :10] += rng.binomial(1, 0.5, (134, 10)) * rng.uniform(1, 3, 10)
    X[np.arange(n) % 3 == 1, 10:20] += rng.binomial(1, 0.5, (133, 10)) * rng.uniform(1, 3, 10)
    return sp.csr_matrix(X), X


DATA = {"digits": _digits, "text": _text_like}


def _min_margin_ratio(X, centres):
    """min over rows of (second-nearest − nearest squared distance) / its rounding bound."""
    D = ((X[:, None, :] - centres[None]) ** 2).sum(-1)  # (n, k)
    D.sort(axis=1)
    bound = (X.shape[1] + 2) * EPS * ((X**2).sum(1) + (centres**2).sum(1).max())
    return float(np.min((D[:, 1] - D[:, 0]) / bound))


def _bounds(X, J):
    n, d = X.shape
    return {"centres": 3 * n * EPS * np.abs(X).max(), "J": (n + d + 2) * EPS * J}


@pytest.mark.parametrize(
    "name, k, algorithm, fmt",
    [
        ("digits", 10, "lloyd", sp.csr_matrix),
        ("digits", 8, "elkan", sp.csr_array),
        ("text", 3, "lloyd", sp.csr_array),
        ("text", 5, "elkan", sp.csr_matrix),
    ],
)
def test_same_init_matches_sklearn_sparse_and_our_dense_fit(name, k, algorithm, fmt):
    Xs, X = DATA[name]()
    Xs = fmt(Xs)
    init = X[np.random.default_rng(1).choice(X.shape[0], k, replace=False)]
    ours = KMeans(k, init=init, algorithm=algorithm).fit(Xs)
    theirs = sk.KMeans(k, init=init, n_init=1, algorithm=algorithm).fit(sp.csr_matrix(Xs))
    dense = KMeans(k, init=init, algorithm=algorithm).fit(X)
    assert _min_margin_ratio(X, ours.cluster_centers_) > 10  # no tie within rounding
    b = _bounds(X, theirs.inertia_)
    for other in (theirs, dense):
        np.testing.assert_array_equal(ours.labels_, other.labels_)
        assert ours.n_iter_ == other.n_iter_
        assert np.abs(ours.cluster_centers_ - other.cluster_centers_).max() <= b["centres"]
        assert abs(ours.inertia_ - other.inertia_) <= b["J"]
    # predict / transform / score on sparse rows against the dense methods at the same centres:
    # transform's squared distances by ‖x‖² − 2x·μ + ‖μ‖², each off by (d + 2)ε(‖x‖² + ‖μ‖²)
    np.testing.assert_array_equal(ours.predict(Xs), ours.predict(X))
    np.testing.assert_array_equal(ours.predict(Xs), theirs.predict(sp.csr_matrix(Xs)))
    D2, D2_dense = ours.transform(Xs) ** 2, ours.transform(X) ** 2
    sq = (X**2).sum(1)[:, None] + (ours.cluster_centers_**2).sum(1)[None]
    assert np.all(np.abs(D2 - D2_dense) <= 2 * (X.shape[1] + 2) * EPS * sq)
    assert abs(ours.score(Xs) - ours.score(X)) <= b["J"]
    assert ours.score(Xs) == pytest.approx(theirs.score(sp.csr_matrix(Xs)), abs=b["J"])


def test_history_of_the_sparse_fit_is_the_dense_one():
    # The per-iteration J (expanded form) of the uncentred sparse rows against the dense
    # centred rows: per term 2(d + 2)ε(‖x‖² + max‖x‖²) with uncentred norms, n terms.
    Xs, X = _text_like()
    init = X[:4]
    a, b = KMeans(4, init=init).fit(Xs), KMeans(4, init=init).fit(X)
    n, d = X.shape
    sq = (X**2).sum(1)
    bound = 2 * (d + 2) * EPS * (sq.sum() + n * sq.max()) + n * EPS * a.history_["objective"][0]
    assert len(a.history_["objective"]) == len(b.history_["objective"])
    assert np.abs(np.subtract(a.history_["objective"], b.history_["objective"])).max() <= bound


def test_weights_and_empty_clusters_on_sparse_rows():
    # integer weights (rows as if repeated) and two initial centres far from every row: they are
    # re-seeded with the rows farthest from their centres, the same rows as in the dense fit
    Xs, X = _text_like()
    w = np.random.default_rng(3).integers(1, 5, X.shape[0]).astype(float)
    init = np.vstack([X[:3], np.full((2, X.shape[1]), 50.0)])
    a = KMeans(5, init=init).fit(Xs, sample_weight=w)
    b = KMeans(5, init=init).fit(X, sample_weight=w)
    theirs = sk.KMeans(5, init=init, n_init=1).fit(Xs, sample_weight=w)
    assert len(np.unique(a.labels_)) == 5
    np.testing.assert_array_equal(a.labels_, b.labels_)
    np.testing.assert_array_equal(a.labels_, theirs.labels_)
    # weighted means Σwx / Σw and J = Σw‖x − μ‖²: the same relative rounding as unweighted
    # (integer weights multiply exactly), so the same bounds
    bd = _bounds(X, b.inertia_)
    assert np.abs(a.cluster_centers_ - b.cluster_centers_).max() <= bd["centres"]
    assert abs(a.inertia_ - b.inertia_) <= bd["J"]
    assert abs(a.inertia_ - theirs.inertia_) <= bd["J"]


@pytest.mark.parametrize("init", ["k-means++", "random"])
def test_seeding_on_sparse_rows_draws_the_dense_seeds(init):
    # The same generator draws the same seeds: the potentials (by ‖x‖² − 2x·y + ‖y‖², sparse or
    # dense products) differ by rounding only, so a draw changes only if a uniform number falls
    # within ~nε of a cumulative boundary (probability ~1e-12 here).
    Xs, X = _digits()
    w = np.ones(X.shape[0])
    if init == "k-means++":
        a = kmeans_plusplus(Xs, 6, w, np.random.default_rng(4))
        b = kmeans_plusplus(X, 6, w, np.random.default_rng(4))
        np.testing.assert_array_equal(a, b)
    km_s = KMeans(6, init=init, n_init=2, random_state=4).fit(Xs)
    km_d = KMeans(6, init=init, n_init=2, random_state=4).fit(X)
    np.testing.assert_array_equal(km_s.labels_, km_d.labels_)
    assert abs(km_s.inertia_ - km_d.inertia_) <= _bounds(X, km_d.inertia_)["J"]


def test_minibatch_on_sparse_rows_follows_the_dense_batches():
    # Same random_state, same batches. Each step's centre update (Wμ + S)/(W + W_B) sums the
    # batch of b rows in another order (sparse entries vs dense columns): ≤ (b + 2)ε·max|x| per
    # step, carried into the next step as a convex combination, so ≤ T(b + 2)ε·max|x| after T
    # steps, as long as no label decision falls within rounding (checked via the final labels).
    Xs, X = _digits()
    kw = {"batch_size": 64, "random_state": 2, "reassignment_ratio": 0.05}
    a = MiniBatchKMeans(8, **kw).fit(Xs)
    b = MiniBatchKMeans(8, **kw).fit(X)
    assert a.n_steps_ == b.n_steps_ and a.stop_reason_ == b.stop_reason_
    bound = a.n_steps_ * (64 + 2) * EPS * np.abs(X).max()
    assert np.abs(a.cluster_centers_ - b.cluster_centers_).max() <= bound
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert abs(a.inertia_ - b.inertia_) <= _bounds(X, b.inertia_)["J"]
    np.testing.assert_array_equal(a.predict(Xs[:50]), b.predict(X[:50]))
    # partial_fit on sparse batches
    m = MiniBatchKMeans(4, random_state=0)
    for i in range(0, 600, 100):
        m.partial_fit(Xs[i : i + 100])
    assert m.cluster_centers_.shape == (4, 64) and np.isfinite(m.inertia_)


def test_sparse_input_errors_are_clear():
    Xs, X = _digits()
    bad = Xs.copy()
    bad.data[5] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KMeans(3).fit(bad)
    km = KMeans(3, random_state=0).fit(Xs)
    with pytest.raises(ValueError, match="features"):
        km.predict(Xs[:, :10])
    # CSC (and COO) are converted to CSR, as scikit-learn does
    np.testing.assert_array_equal(km.predict(Xs.tocsc()), km.labels_)

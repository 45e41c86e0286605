"""Naive Bayes on Dask: fitted on a real LocalCluster block by block (the classes, and for
CategoricalNB the categories, gathered in the same pass), each variant matches its in-memory fit
on real data, and predicts lazily.

Bounds (ε = 2.2e-16):
- Counts (class_count_, feature_count_, category_count_) are sums of integer weights times 0/1
  or integer values, all below 2^53: exact in any order, so compared with array_equal, and so are
  the log-probabilities computed from them by the same arithmetic.
- GaussianNB's μ_jc and σ²_jc: as for StandardScaler (tests/dask/test_dask_scalers.py), the
  features here are non-negative, so two summation orders of N_c rows differ by at most
  2 (N_c + 4) ε (1 + |μ_jc| R_jc / σ²_jc) relatively (R_jc the range of feature j in class c);
  ε_floor and var_ (σ² + ε_floor) by at most the largest of these (at most 1e-11 here; measured
  below 2e-15, ≤ 6e-3 of the bound).
- Predictions of one fitted model on Dask blocks and on the whole array: each J_ic is a d-term
  dot product, whose rounding may change with the BLAS kernel the block size selects:
  |ΔJ_ic| ≤ 2 d ε Σ_j |a_ij| |b_jc| for the product's terms; a log posterior moves by at most
  2 max_c |ΔJ_ic| and a posterior P by at most P times that. The class (argmax) is then
  compared exactly: no row of these data is that close to a tie (checked by the bound).
"""

import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from _dask_cases import chunkings

from scratchlearn.datasets import (
    load_breast_cancer,
    load_car_evaluation,
    load_digits,
    load_iris,
    load_sms_spam,
    load_wine,
)
from scratchlearn.feature_extraction.text import CountVectorizer
from scratchlearn.naive_bayes import BernoulliNB, CategoricalNB, GaussianNB, MultinomialNB

EPS = np.finfo(np.float64).eps


def _int_weights(n, seed=0):
    return np.random.default_rng(seed).integers(0, 4, n).astype(float)  # zeros included


def _rows(X, chunks):
    return da.from_array(X, chunks=(chunks,) + X.shape[1:])


# -- GaussianNB -----------------------------------------------------------------------------
def _gaussian_rtol(X, y):
    """2 (N_c + 4) ε (1 + |μ_jc| R_jc / σ²_jc), (K, d) (module docstring)."""
    out = []
    for c in np.unique(y):
        Xc = X[y == c]
        mu, var = Xc.mean(axis=0), Xc.var(axis=0)
        out.append(2 * (Xc.shape[0] + 4) * EPS * (1 + np.abs(mu) * np.ptp(Xc, axis=0) / var))
    return np.array(out)


def _assert_within(got, want, rtol):
    ratio = np.abs(got - want) / (rtol * np.abs(want))
    assert np.all(ratio <= 1), ratio.max()


def _assert_gaussian_equal(got, ref, rtol):
    assert np.array_equal(got.classes_, ref.classes_)
    assert np.array_equal(got.class_count_, ref.class_count_)  # integer weights: exact
    _assert_within(got.theta_, ref.theta_, rtol)
    _assert_within(got.var_, ref.var_, rtol.max())
    _assert_within(got.epsilon_, ref.epsilon_, rtol.max())
    np.testing.assert_array_equal(got.class_prior_, ref.class_prior_)


def _gaussian_jll_bound(model, X):
    """2 d ε Σ_j (x̃²_ij + 2 |x̃_ij| |μ̃_jc|) / σ²_jc, (n, K): the terms of the two products of
    GaussianNB._joint_log_likelihood (x̃, μ̃ shifted by the training mean)."""
    m = model._x_mean[0]
    Xc, T, inv = np.abs(X - m), np.abs(model.theta_ - m), 1.0 / model.var_
    S = (Xc * Xc) @ inv.T + 2 * Xc @ (T * inv).T + np.abs(model.class_log_prior_)
    return 2 * X.shape[1] * EPS * S


def _assert_same_predictions(model, X, Xd, jll_bound):
    """Lazy Dask predictions equal the NumPy ones within the bound on |ΔJ| (docstring)."""
    outs = [model.predict(Xd), model.predict_proba(Xd), model.predict_log_proba(Xd)]
    assert all(isinstance(o, da.Array) for o in outs)
    label, proba, log_proba = da.compute(*outs)
    dlog = 2 * jll_bound.max(axis=1, keepdims=True)  # (n, 1)
    assert np.all(np.abs(log_proba - model.predict_log_proba(X)) <= dlog)
    P = model.predict_proba(X)
    assert np.all(np.abs(proba - P) <= P * dlog * 1.01)  # |e^a − e^b| ≤ e^b |a − b| (1 + |a − b|)
    J = np.sort(model.predict_joint_log_proba(X), axis=1)
    assert np.all(J[:, -1] - J[:, -2] > 2 * dlog[:, 0])  # no near-tie: argmax is comparable
    assert np.array_equal(label, model.predict(X))


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True)  # (178, 13), non-negative
    return X, y, _int_weights(y.shape[0]), _gaussian_rtol(X, y)


@pytest.mark.parametrize("chunks", chunkings(178), ids=lambda c: f"{len(c)}blocks")
def test_gaussian_matches_in_memory(client, wine, chunks):
    X, y, w, rtol = wine
    Xd = _rows(X, chunks)
    ref = GaussianNB().fit(X, y)
    got = GaussianNB().fit(Xd, da.from_array(y, chunks=50))  # y cut unlike X
    _assert_gaussian_equal(got, ref, rtol)
    # weights change the statistic (and the unweighted row moments take the other branch);
    # ddof, priors and var_smoothing only its use: one fit covers them
    params = {"ddof": 1, "priors": [0.2, 0.5, 0.3], "var_smoothing": 1e-3}
    ref = GaussianNB(**params).fit(X, y, sample_weight=w)
    got = GaussianNB(**params).fit(Xd, y, sample_weight=da.from_array(w, chunks=40))
    _assert_gaussian_equal(got, ref, rtol)
    _assert_same_predictions(got, X, Xd, _gaussian_jll_bound(got, X))


def test_gaussian_breast_cancer_and_one_row_blocks(client):
    X, y = load_breast_cancer(return_X_y=True)  # (569, 30), non-negative
    chunks = chunkings(569)[1]
    ref = GaussianNB().fit(X, y)
    got = GaussianNB().fit(_rows(X, chunks), y)
    _assert_gaussian_equal(got, ref, _gaussian_rtol(X, y))
    # 12 iris rows of all three classes, one per block: every block holds a single class,
    # so the classes and their moments are united only by the tree of merges
    X, y = load_iris(return_X_y=True)
    X, y = X[::13], y[::13]
    w = _int_weights(12, seed=1)
    ref = GaussianNB().fit(X, y, sample_weight=w)
    got = GaussianNB().fit(_rows(X, (1,) * 12), y, sample_weight=w)
    _assert_gaussian_equal(got, ref, _gaussian_rtol(X, y))


# -- BernoulliNB and MultinomialNB: exact counts ----------------------------------------------
def _assert_counts_equal(got, ref):
    for name in ("classes_", "class_count_", "feature_count_", "feature_log_prob_"):
        assert np.array_equal(getattr(got, name), getattr(ref, name)), name
    assert np.array_equal(got.class_log_prior_, ref.class_log_prior_)


def _linear_jll_bound(model, X):
    """2 d ε (Σ_j |x_ij| |W_cj| + |b_c|): J = X Wᵀ + b of the discrete models."""
    W = model.feature_log_prob_
    b = np.abs(model.class_log_prior_)
    if isinstance(model, BernoulliNB):  # J = X (log p − log(1 − p))ᵀ + Σ log(1 − p) + log π
        W = W - model._neg_log_prob
        b = b + np.abs(model._neg_log_prob).sum(axis=1)
    return 2 * X.shape[1] * EPS * (np.abs(X) @ np.abs(W).T + b)


@pytest.fixture(scope="module")
def digits():
    X, y = load_digits(return_X_y=True)
    return X[:300], y[:300], _int_weights(300)


@pytest.mark.parametrize("chunks", chunkings(300), ids=lambda c: f"{len(c)}blocks")
def test_bernoulli_counts_are_exact(client, digits, chunks):
    X, y, w = digits
    Xd = _rows(X, chunks)
    ref = BernoulliNB(binarize=7.0).fit(X, y, sample_weight=w)
    got = BernoulliNB(binarize=7.0).fit(Xd, y, sample_weight=da.from_array(w, chunks=70))
    _assert_counts_equal(got, ref)
    Xb = (X > 7).astype(float)  # binarize=None: X is 0/1 already; smoothing and prior options
    params = {"binarize": None, "alpha": 0.5, "fit_prior": False}
    ref = BernoulliNB(**params).fit(Xb, y)
    got = BernoulliNB(**params).fit(_rows(Xb, chunks), y)
    _assert_counts_equal(got, ref)
    _assert_same_predictions(got, Xb, _rows(Xb, chunks), _linear_jll_bound(got, Xb))


@pytest.fixture(scope="module")
def sms():
    docs, y = load_sms_spam(return_X_y=True)
    C = CountVectorizer(min_df=3).fit_transform(docs[:300])  # (300, 305) sparse counts
    return C, y[:300], _int_weights(300)


@pytest.mark.parametrize("chunks", chunkings(300), ids=lambda c: f"{len(c)}blocks")
def test_multinomial_counts_are_exact(client, sms, chunks):
    C, y, w = sms
    X = C.toarray()
    ref = MultinomialNB().fit(X, y, sample_weight=w)
    got = MultinomialNB().fit(_rows(X, chunks), da.from_array(y, chunks=64), sample_weight=w)
    _assert_counts_equal(got, ref)
    _assert_same_predictions(got, X, _rows(X, chunks), _linear_jll_bound(got, X))


def test_multinomial_on_sparse_blocks(client, sms):
    C, y, w = sms
    Cd = da.from_array(C, chunks=(100, -1), asarray=False)  # scipy CSR blocks
    ref = MultinomialNB(alpha=0.1).fit(C, y, sample_weight=w)
    got = MultinomialNB(alpha=0.1).fit(Cd, y, sample_weight=w)
    _assert_counts_equal(got, ref)
    assert np.array_equal(got.predict(Cd).compute(), ref.predict(C))


# -- CategoricalNB: categories found block by block -------------------------------------------
def _assert_categorical_equal(got, ref):
    assert np.array_equal(got.classes_, ref.classes_)
    assert np.array_equal(got.class_count_, ref.class_count_)
    assert np.array_equal(got.n_categories_, ref.n_categories_)
    for j in range(ref.n_features_in_):
        assert np.array_equal(got.categories_[j], ref.categories_[j]), j
        assert np.array_equal(got.category_count_[j], ref.category_count_[j]), j
        assert np.array_equal(got.feature_log_prob_[j], ref.feature_log_prob_[j]), j
    assert np.array_equal(got.class_log_prior_, ref.class_log_prior_)


@pytest.fixture(scope="module")
def car():
    X, y = load_car_evaluation(return_X_y=True)  # (1728, 6) strings, 4 classes
    return X, y, _int_weights(y.shape[0])


@pytest.mark.parametrize("chunks", chunkings(1728), ids=lambda c: f"{len(c)}blocks")
def test_categorical_counts_are_exact(client, car, chunks):
    X, y, w = car
    Xd = _rows(X, chunks)
    ref = CategoricalNB().fit(X, y)
    got = CategoricalNB().fit(Xd, y)
    _assert_categorical_equal(got, ref)
    params = {"min_categories": [5, 4, 6, 3, 4, 3], "alpha": 0.5, "class_prior": [0.4] + [0.2] * 3}
    ref = CategoricalNB(**params).fit(X, y, sample_weight=w)
    got = CategoricalNB(**params).fit(Xd, da.from_array(y, chunks=500), sample_weight=w)
    _assert_categorical_equal(got, ref)
    # J_ic adds the same table entries, feature by feature, in the same order: exact
    outs = [got.predict(Xd), got.predict_proba(Xd), got.predict_joint_log_proba(Xd)]
    assert all(isinstance(o, da.Array) for o in outs)
    label, proba, jll = da.compute(*outs)
    assert np.array_equal(jll, got.predict_joint_log_proba(X))
    assert np.array_equal(proba, got.predict_proba(X))
    assert np.array_equal(label, got.predict(X))


def test_categorical_one_row_blocks_and_dataframe(client, car):
    X, y, w = car
    X, y, w = X[::131], y[::131], w[::131]  # 14 rows, 2 classes, 3 or 4 categories each
    ref = CategoricalNB().fit(X, y, sample_weight=w)
    # one row per block: the categories of each feature are united only by the merges
    _assert_categorical_equal(CategoricalNB().fit(_rows(X, (1,) * 14), y, sample_weight=w), ref)
    names = ["buying", "maint", "doors", "persons", "lug_boot", "safety"]
    ddf = dd.from_pandas(pd.DataFrame(X, columns=names), npartitions=3)  # string columns
    got = CategoricalNB().fit(ddf, y, sample_weight=w)
    assert list(got.feature_names_in_) == names
    _assert_categorical_equal(got, ref)


# -- errors and partial_fit -------------------------------------------------------------------
def test_bad_blocks_raise_at_fit_and_partial_fit_adds_dask_batches(client, wine, car):
    X, y, _, rtol = wine
    Xn = X.copy()
    Xn[150, 2] = np.nan  # in the last of three blocks
    with pytest.raises(ValueError, match="NaN"):
        GaussianNB().fit(_rows(Xn, 60), y)
    with pytest.raises(ValueError, match="non-zero weight"):
        MultinomialNB().fit(_rows(X, 60), y, sample_weight=da.zeros(178, chunks=60))
    part = GaussianNB()
    for rows in (slice(0, 100), slice(100, 178)):
        part.partial_fit(_rows(X[rows], 40), y[rows], classes=[0, 1, 2])
    _assert_gaussian_equal(part, GaussianNB().fit(X, y), rtol)
    with pytest.raises(ValueError, match="labels not in classes_"):
        part.partial_fit(_rows(X[:10], 5), np.full(10, 7))

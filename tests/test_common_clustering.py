"""scikit-learn's clustering checks, run on every registered clusterer.

scikit-learn's ``check_estimator`` runs ``check_clustering`` and
``check_clusterer_compute_labels_predict`` only on subclasses of *its own* ``ClusterMixin``, so
on ours (they implement the protocol, not the class) they never ran. This module checks what
they check, for every estimator the registry lists with the task "clusterer":

* labels are integers (int32 or int64), consecutive from 0, fewer than ``n_clusters``
  (``n_components`` for a mixture), and recover scikit-learn's standardised blobs (adjusted
  Rand index > 0.4, scikit-learn's threshold);
* on well-separated blobs exactly ``n_clusters`` clusters are found, and they are the blobs;
* fitting twice gives the same labels, also on a read-only X;
* a permutation of the rows permutes the labels, up to a relabelling (the same partition);
* ``labels_`` equals ``fit_predict``, and ``predict`` on the training data equals ``labels_``
  (a mixture has no ``labels_``: there ``fit_predict`` equals ``fit(X).predict(X)``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score

try:
    from tests.test_determinism import ENTRIES, make
except ImportError:  # pragma: no cover - running the file on its own
    from test_determinism import ENTRIES, make

CLUSTERERS = [e for e in ENTRIES if e.task == "clusterer"]


def _with_k(entry, k):
    """The estimator with k clusters (``n_clusters``, or ``n_components`` for a mixture)."""
    est = make(entry)
    params = est.get_params(deep=False)
    name = "n_clusters" if "n_clusters" in params else "n_components"
    return est.set_params(**{name: k})


def _fit_labels(est, X):
    """Labels of the training rows: ``labels_`` where the estimator has it, else predict."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X)
    return est.labels_ if hasattr(est, "labels_") else est.predict(X)


def _same_partition(a, b) -> bool:
    """True when labellings a and b differ only by the names of the clusters."""
    pairs = {(int(p), int(q)) for p, q in zip(a, b)}
    return len(pairs) == len(set(a.tolist())) == len(set(b.tolist()))


def _separated_blobs(n=90, k=3):
    # centres 20 apart with unit spread: every point is nearer its own centre than any other
    centres = 20.0 * np.array([[0, 0], [1, 0], [0, 1], [1, 1]], dtype=float)[:k]
    X, y = make_blobs(n_samples=n, centers=centres, cluster_std=1.0, random_state=0)
    return X, y


def test_the_registry_lists_our_clusterers():
    names = {e.name for e in CLUSTERERS}
    assert {"KMeans", "MiniBatchKMeans", "KMedoids", "GaussianMixture"} <= names


@pytest.mark.parametrize("entry", CLUSTERERS, ids=lambda e: e.name)
def test_check_clustering(entry):
    """scikit-learn's ``check_clustering``: its data, its assertions."""
    X, y = make_blobs(n_samples=50, random_state=1)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    n_clusters = 3
    pred = _fit_labels(_with_k(entry, n_clusters), X)
    pred2 = _fit_labels(_with_k(entry, n_clusters), X)
    assert pred.dtype in (np.dtype(np.int32), np.dtype(np.int64))
    assert pred.shape == (50,)
    np.testing.assert_array_equal(pred, pred2)  # fitting twice gives the same labels
    assert adjusted_rand_score(y, pred) > 0.4
    # labels are consecutive integers from 0, and there are no more than n_clusters of them
    found = np.unique(pred)
    np.testing.assert_array_equal(found, np.arange(found[0], found[-1] + 1))
    assert found[0] == 0 and found[-1] <= n_clusters - 1


@pytest.mark.parametrize("entry", CLUSTERERS, ids=lambda e: e.name)
def test_read_only_input_and_refit(entry):
    X, _ = _separated_blobs()
    Xr = X.copy()
    Xr.setflags(write=False)
    est = _with_k(entry, 3)
    np.testing.assert_array_equal(_fit_labels(est, Xr), _fit_labels(_with_k(entry, 3), X))
    np.testing.assert_array_equal(X, Xr)  # never written


@pytest.mark.parametrize("k", [2, 3, 4])
@pytest.mark.parametrize("entry", CLUSTERERS, ids=lambda e: e.name)
def test_n_clusters_respected_on_separated_blobs(entry, k):
    X, y = _separated_blobs(n=30 * k, k=k)
    labels = _fit_labels(_with_k(entry, k), X)
    np.testing.assert_array_equal(np.unique(labels), np.arange(k))
    assert _same_partition(labels, y), "the clusters are not the blobs"


@pytest.mark.parametrize("entry", CLUSTERERS, ids=lambda e: e.name)
def test_row_permutation_permutes_the_labels(entry):
    """Shuffled rows give the same partition of the points (labels up to a relabelling)."""
    X, _ = _separated_blobs()
    perm = np.random.default_rng(0).permutation(X.shape[0])
    labels = _fit_labels(_with_k(entry, 3), X)
    shuffled = _fit_labels(_with_k(entry, 3), X[perm])
    assert _same_partition(labels[perm], shuffled)


@pytest.mark.parametrize("entry", CLUSTERERS, ids=lambda e: e.name)
def test_labels_equal_fit_predict_and_predict(entry):
    """``labels_`` = ``fit_predict`` = ``predict`` on the training data (scikit-learn's
    ``check_clusterer_compute_labels_predict``), on overlapping blobs where ties and borders
    exist; a mixture, without ``labels_``, must give ``fit_predict = fit(X).predict(X)``."""
    X, _ = make_blobs(n_samples=80, centers=3, cluster_std=2.5, random_state=3)
    est = _with_k(entry, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fp = _with_k(entry, 3).fit_predict(X)
        est.fit(X)
        assert fp.dtype.kind == "i"
        if hasattr(est, "labels_"):
            np.testing.assert_array_equal(fp, est.labels_)
        if hasattr(est, "predict"):
            np.testing.assert_array_equal(est.predict(X), fp)

"""Forests on a real LocalCluster: the same trees as the in-memory fit, bit for bit.

Every equality here is exact (``array_equal``), not a tolerance: the seeds are drawn in the
client before any task, each tree is the pure function ``grow_tree(seed, recipe, data,
targets)`` of the same float64 values, and the OOB sums run in tree order in one task. No
floating-point operation is reordered, so any difference at all is a bug (a seed sent to the
wrong tree, a row lost or duplicated when the blocks are concatenated, weights cast, ...).
"""

import dask.array as da
import dask.dataframe as dd
import numpy as np
import pytest
from _dask_cases import chunkings
from dask.utils import key_split
from distributed import get_task_stream

from scratchlearn.datasets import load_breast_cancer, load_diabetes, load_iris, load_wine
from scratchlearn.ensemble import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
    _forest_dask,
)
from scratchlearn.tree._tree import _FIELDS

# A few rows drawn by every one of 8 trees have no OOB value (NaN, compared as equal below).
pytestmark = pytest.mark.filterwarnings("ignore:.*no OOB prediction:UserWarning")

TREE_ARRAYS = _FIELDS  # every array a fitted tree holds


def _same_forest(local, cluster):
    """Tree by tree: the same seed and the same eight arrays; then the same importances."""
    assert len(local.estimators_) == len(cluster.estimators_)
    for a, b in zip(local.estimators_, cluster.estimators_):
        assert a.random_state == b.random_state
        for name in TREE_ARRAYS:
            assert np.array_equal(getattr(a.tree_, name), getattr(b.tree_, name)), name
    assert np.array_equal(local.feature_importances_, cluster.feature_importances_)


def _lazy_equal(dask_out, numpy_out):
    assert isinstance(dask_out, da.Array)  # lazy: nothing computed yet
    assert np.array_equal(dask_out.compute(), numpy_out)


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return X[:200], y[:200]


def test_random_forest_classifier_grows_the_local_trees_on_the_workers(client):
    X, y = load_breast_cancer(return_X_y=True)  # 569 x 30
    params = dict(
        n_estimators=8, oob_score=True, class_weight="balanced_subsample", max_samples=0.8
    )
    local = RandomForestClassifier(**params, random_state=0).fit(X, y)
    Xd = da.from_array(X, chunks=(chunkings(569)[1], 30))  # uneven blocks: 189, 379, 1
    with get_task_stream(client) as stream:
        forest = RandomForestClassifier(**params, random_state=0).fit(Xd, y)
    _same_forest(local, forest)
    # The data are prepared once (one forest_data task, then replicated), never per tree.
    names = [key_split(t["key"]) for t in stream.data]
    assert names.count("forest_data") == 1 and names.count("grow_tree") == 8
    assert np.array_equal(forest.oob_decision_function_, local.oob_decision_function_, True)
    assert forest.oob_score_ == local.oob_score_
    Xp = da.from_array(X, chunks=200)
    _lazy_equal(forest.predict_proba(Xp), local.predict_proba(X))
    _lazy_equal(forest.predict(Xp), local.predict(X))
    _lazy_equal(forest.apply(Xp), local.apply(X))
    with pytest.raises(TypeError, match="sparse matrix"):
        forest.decision_path(Xp)


def test_extra_trees_classifier_on_a_dask_dataframe_with_string_labels(client):
    frame = load_iris(as_frame=True)
    X, y = frame.data, np.asarray(frame.target_names)[frame.target]  # labels "setosa", ...
    local = ExtraTreesClassifier(n_estimators=8, class_weight="balanced", random_state=1)
    local.fit(X, y)
    Xd = dd.from_pandas(X, npartitions=3)
    forest = ExtraTreesClassifier(n_estimators=8, class_weight="balanced", random_state=1)
    forest.fit(Xd, y)  # y in memory beside a Dask X (a Dask y: the regressor's test)
    _same_forest(local, forest)
    assert list(forest.feature_names_in_) == list(X.columns)
    assert list(forest.classes_) == list(local.classes_)
    _lazy_equal(forest.predict(Xd), local.predict(X))
    _lazy_equal(forest.predict_log_proba(Xd), local.predict_log_proba(X))


def test_random_forest_regressor_with_dask_sample_weights(client, diabetes, rng):
    X, y = diabetes
    w = rng.integers(0, 3, size=y.shape[0]).astype(float)  # zeros: rows left out of every tree
    params = dict(n_estimators=8, oob_score=True, max_features=0.5, min_samples_leaf=2)
    local = RandomForestRegressor(**params, random_state=2).fit(X, y, sample_weight=w)
    forest = RandomForestRegressor(**params, random_state=2).fit(
        da.from_array(X), da.from_array(y, chunks=70), sample_weight=da.from_array(w, chunks=50)
    )
    _same_forest(local, forest)
    assert np.array_equal(forest.oob_prediction_, local.oob_prediction_, equal_nan=True)
    assert forest.oob_score_ == local.oob_score_
    _lazy_equal(forest.predict(da.from_array(X, chunks=64)), local.predict(X))


@pytest.mark.parametrize("chunks", chunkings(20), ids=lambda c: f"{len(c)}blocks")
def test_extra_trees_regressor_does_not_see_the_chunks(client, diabetes, chunks):
    X, y = diabetes[0][:20], diabetes[1][:20]
    local = ExtraTreesRegressor(n_estimators=8, bootstrap=True, oob_score=True, random_state=3)
    local.fit(X, y)
    forest = ExtraTreesRegressor(n_estimators=8, bootstrap=True, oob_score=True, random_state=3)
    forest.fit(da.from_array(X, chunks=(chunks, 10)), y)
    _same_forest(local, forest)
    assert np.array_equal(forest.oob_prediction_, local.oob_prediction_, equal_nan=True)
    _lazy_equal(forest.predict(da.from_array(X, chunks=(chunks, 10))), local.predict(X))


def test_warm_start_on_the_cluster_continues_the_seed_stream(client, capsys):
    X, y = load_wine(return_X_y=True)
    local = RandomForestClassifier(n_estimators=8, oob_score=True, random_state=4).fit(X, y)
    forest = RandomForestClassifier(n_estimators=4, warm_start=True, verbose=1, random_state=4)
    Xd = da.from_array(X, chunks=60)
    forest.fit(Xd, y)
    assert "4/4" in capsys.readouterr().err  # the bar counts the trees finished on the workers
    forest.set_params(n_estimators=8, oob_score=True)
    forest.fit(Xd, y)  # 4 more trees; the OOB sums mix old (sent) and new (futures) trees
    _same_forest(local, forest)
    assert np.array_equal(forest.oob_decision_function_, local.oob_decision_function_, True)


def test_nan_in_one_block_is_the_clear_error_at_fit_and_predict(client):
    X, y = load_wine(return_X_y=True)
    X = X.copy()
    X[100, 5] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        RandomForestClassifier(n_estimators=2).fit(da.from_array(X, chunks=50), y)
    with pytest.raises(ValueError, match="requires y to be passed"):
        RandomForestClassifier(n_estimators=2).fit(da.from_array(X, chunks=50), None)
    forest = RandomForestClassifier(n_estimators=2, random_state=0).fit(X[:90], y[:90])
    proba = forest.predict_proba(da.from_array(X, chunks=50))  # lazy: no error yet
    with pytest.raises(ValueError, match="NaN"):
        proba.compute()


def test_without_a_distributed_client_the_fit_is_the_in_memory_one(monkeypatch):
    monkeypatch.setattr(_forest_dask, "active_client", lambda: None)
    X, y = load_wine(return_X_y=True)
    local = ExtraTreesClassifier(n_estimators=4, random_state=5).fit(X, y)
    forest = ExtraTreesClassifier(n_estimators=4, random_state=5)
    forest.fit(da.from_array(X, chunks=50), da.from_array(y, chunks=50))
    _same_forest(local, forest)
    # X in memory beside a Dask y: y is computed (n values) and the fit is the in-memory one.
    yd = da.from_array(y, chunks=50)
    _same_forest(local, ExtraTreesClassifier(n_estimators=4, random_state=5).fit(X, yd))


class _SmallWorkers:
    """A stand-in client whose two workers have 1 MiB and no memory limit."""

    def scheduler_info(self, n_workers=-1):
        return {"workers": {"a": {"memory_limit": 2**20}, "b": {"memory_limit": 0}}}


def test_data_larger_than_a_worker_are_refused_before_anything_is_sent():
    # Random forest: 20 bytes per entry of X (X, Xᵀ, int32 sort); 2**20 / 20 = 52428.8.
    forest, small = RandomForestClassifier(), _SmallWorkers()
    _forest_dask.check_fits_on_a_worker(small, forest, 52428, 1)  # just fits
    with pytest.raises(ValueError, match=r"each worker holds X \(52429 x 1\)"):
        _forest_dask.check_fits_on_a_worker(small, forest, 52429, 1)
    # Extra trees sort nothing: 16 bytes per entry, 2**20 / 16 = 65536.
    _forest_dask.check_fits_on_a_worker(small, ExtraTreesRegressor(), 65536, 1)
    with pytest.raises(ValueError, match="memory limit of the smallest worker"):
        _forest_dask.check_fits_on_a_worker(small, ExtraTreesRegressor(), 65537, 1)


def test_the_four_forests_carry_the_dask_tag():
    # The tag is what check_array's refusal message and dask_estimators() list (the registry
    # import that dask_estimators() needs costs a second; the tag itself is what it reads).
    forests = (RandomForestClassifier, RandomForestRegressor, ExtraTreesClassifier)
    for cls in (*forests, ExtraTreesRegressor):
        assert cls()._scratch_tags()["dask"] is True

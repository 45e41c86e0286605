"""run_tasks on the cluster: ``with parallel_backend("dask")`` runs the searches', forests'
and bagging's independent tasks on the LocalCluster's workers, with the same results, in the
same order, as the local run (every seed is drawn before any task starts)."""

import numpy as np
import pytest

from scratchlearn import parallel_backend
from scratchlearn.datasets import load_breast_cancer, load_diabetes
from scratchlearn.ensemble import BaggingRegressor, RandomForestClassifier
from scratchlearn.linear_model import LogisticRegression
from scratchlearn.model_selection import GridSearchCV, cross_validate
from scratchlearn.pipeline import make_pipeline
from scratchlearn.preprocessing import StandardScaler
from scratchlearn.utils.parallel import run_tasks

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")

_TIMES = ("mean_fit_time", "std_fit_time", "mean_score_time", "std_score_time")


def _assert_same_results(a: dict, b: dict):
    assert a.keys() == b.keys()
    for key in a:
        if key in _TIMES or key.endswith("_time"):
            continue
        va, vb = a[key], b[key]
        if isinstance(va, np.ndarray) and va.dtype.kind == "f":
            np.testing.assert_array_equal(va, vb, err_msg=key)
        else:
            assert list(va) == list(vb), key


def test_tasks_run_on_the_workers_in_task_order(client):
    import os

    with parallel_backend("dask"):
        pids = run_tasks(lambda i: (i, os.getpid()), [(i,) for i in range(8)])
    assert [i for i, _ in pids] == list(range(8))
    assert os.getpid() not in {p for _, p in pids}  # ran in the worker processes


def test_n_jobs_caps_the_tasks_in_flight(client):
    with parallel_backend("dask"):
        out = run_tasks(lambda i: i * i, [(i,) for i in range(10)], n_jobs=2)
    assert out == [i * i for i in range(10)]


def test_grid_search_equals_the_local_run(client):
    bunch = load_breast_cancer()
    X, y = bunch.data, bunch.target
    pipe = make_pipeline(StandardScaler(), LogisticRegression())
    grid = {"logisticregression__C": [0.01, 0.1, 1.0, 10.0]}
    local = GridSearchCV(pipe, grid, cv=5).fit(X, y)
    with parallel_backend("dask"):
        remote = GridSearchCV(pipe, grid, cv=5).fit(X, y)
    _assert_same_results(local.cv_results_, remote.cv_results_)
    assert local.best_params_ == remote.best_params_
    np.testing.assert_array_equal(local.best_estimator_[-1].coef_, remote.best_estimator_[-1].coef_)


def test_cross_validate_equals_the_local_run(client):
    bunch = load_diabetes()
    est = BaggingRegressor(n_estimators=4, random_state=0)
    local = cross_validate(est, bunch.data, bunch.target, cv=3)
    with parallel_backend("dask"):
        remote = cross_validate(est, bunch.data, bunch.target, cv=3)
    _assert_same_results(local, remote)


def test_forest_and_bagging_equal_the_local_run(client):
    bunch = load_breast_cancer()
    X, y = bunch.data, bunch.target
    forest = RandomForestClassifier(n_estimators=6, max_depth=4, random_state=0)
    local = forest.fit(X, y).predict_proba(X)
    with parallel_backend("dask"):
        remote = RandomForestClassifier(n_estimators=6, max_depth=4, random_state=0).fit(X, y)
        remote_proba = remote.predict_proba(X)
    np.testing.assert_array_equal(local, remote_proba)
    bag = BaggingRegressor(n_estimators=5, random_state=0)
    Xd, yd = load_diabetes(return_X_y=True)
    local = bag.fit(Xd, yd).predict(Xd)
    with parallel_backend("dask"):
        remote = BaggingRegressor(n_estimators=5, random_state=0).fit(Xd, yd).predict(Xd)
    np.testing.assert_array_equal(local, remote)


def test_a_failing_task_names_the_candidate_and_fold_as_locally(client):
    bunch = load_breast_cancer()
    grid = {"C": [1.0, -1.0]}
    search = GridSearchCV(LogisticRegression(), grid, cv=3, error_score="raise")
    with pytest.raises(Exception) as local:
        search.fit(bunch.data, bunch.target)
    with parallel_backend("dask"), pytest.raises(Exception) as remote:
        search.fit(bunch.data, bunch.target)
    assert type(remote.value) is type(local.value)
    assert str(remote.value) == str(local.value)


def test_a_worker_killed_during_a_search_changes_nothing(client, tmp_path):
    import os

    bunch = load_breast_cancer()
    X, y = bunch.data[:200], bunch.target[:200]
    marker = str(tmp_path / "killed-once")

    def accuracy_or_die(est, X_, y_):
        """The first call anywhere on the cluster kills its worker process, mid-search.

        "First" is decided by an exclusive create, atomic across processes: with a test of
        the marker's existence, both workers could see no marker and both die (this
        happened in CI), which is the next test's case."""
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return float(np.mean(est.predict(X_) == y_))
        os._exit(1)

    grid = {"C": [0.1, 1.0, 10.0]}
    local = GridSearchCV(LogisticRegression(), grid, cv=3, scoring="accuracy").fit(X, y)
    pids = set(client.run(os.getpid).values())
    with parallel_backend("dask"):
        remote = GridSearchCV(LogisticRegression(), grid, cv=3, scoring=accuracy_or_die)
        remote.fit(X, y)
    assert os.path.exists(marker)  # a worker did die...
    client.wait_for_workers(2, timeout=60)
    assert set(client.run(os.getpid).values()) != pids  # ...and was restarted
    for key in ("mean_test_score", "std_test_score", "rank_test_score"):
        np.testing.assert_array_equal(local.cv_results_[key], remote.cv_results_[key])
    assert local.best_params_ == remote.best_params_


def test_every_worker_killed_at_once_during_a_search_changes_nothing(client, tmp_path):
    """The scattered task data die with the last worker that held them; the tasks that the
    scheduler cancels for want of them are submitted again with the data scattered anew."""
    import os
    import signal

    bunch = load_breast_cancer()
    X, y = bunch.data[:200], bunch.target[:200]
    marker = str(tmp_path / "killed-all-once")
    pids = sorted(client.run(os.getpid).values())

    def accuracy_or_kill_all(est, X_, y_):
        """The first call anywhere kills every worker process of the cluster, itself last."""
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return float(np.mean(est.predict(X_) == y_))
        for pid in pids:
            if pid != os.getpid():
                os.kill(pid, signal.SIGKILL)
        os._exit(1)

    grid = {"C": [0.1, 1.0, 10.0]}
    local = GridSearchCV(LogisticRegression(), grid, cv=3, scoring="accuracy").fit(X, y)
    with parallel_backend("dask"):
        remote = GridSearchCV(LogisticRegression(), grid, cv=3, scoring=accuracy_or_kill_all)
        remote.fit(X, y)
    assert os.path.exists(marker)
    client.wait_for_workers(2, timeout=60)
    assert not set(client.run(os.getpid).values()) & set(pids)  # every worker was replaced
    for key in ("mean_test_score", "std_test_score", "rank_test_score"):
        np.testing.assert_array_equal(local.cv_results_[key], remote.cv_results_[key])
    assert local.best_params_ == remote.best_params_


def test_the_backend_needs_a_client(monkeypatch):
    from scratchlearn.utils import parallel

    monkeypatch.setattr(parallel, "active_client", lambda: None)
    with pytest.raises(ValueError, match="needs an active dask.distributed Client"):
        with parallel_backend("dask"):
            pass


def test_unknown_backend_is_refused():
    with pytest.raises(ValueError, match="'threads' or 'dask'"):
        with parallel_backend("processes"):
            pass

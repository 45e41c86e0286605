"""Dask input where it is not supported: refused by name, before anything computes it.

Every registered estimator without the "dask" tag, every method of a fitted one, pipelines of
them and the model_selection functions are given Dask collections whose blocks raise
:class:`Computed` when computed. ``fit`` must refuse with a TypeError naming the estimator or
function (and, for estimators, listing those that do fit on Dask input). The prediction
methods of an estimator of 2-D arrays (``ROW_METHODS``: predict, predict_proba, transform,
...) must instead answer lazily, a Dask collection with nothing computed (their values are
tests/dask/test_dask_predict.py's); other methods (``inverse_transform``) may answer lazily or
refuse. A Computed error means something read the data first (``np.asarray``, ``len`` of a
DataFrame, iterating a bag), which on real data would have pulled the whole collection into
memory. No cluster is needed: nothing here schedules a task.
"""

import dask.array as da
import dask.bag as db
import numpy as np
import pytest

from _data import problem_for  # tests/ is on sys.path (rootdir conftest)
from scratchlearn import model_selection as ms
from scratchlearn._registry import all_estimators
from scratchlearn.pipeline import make_pipeline
from scratchlearn.utils._dask import dask_estimators, is_dask_collection
from scratchlearn.utils._dask_predict import ROW_METHODS
from scratchlearn.utils.validation import num_samples


class Computed(Exception):
    """Raised by a block of the test collections if anything computes it."""


def _boom(block):
    raise Computed("a Dask block was computed; refusals must not compute anything")


def exploding(a):
    """A Dask array of a's shape and dtype, in three row blocks that raise when computed."""
    a = np.asarray(a)
    dtype = float if a.dtype == object else a.dtype
    rows = max(1, -(-a.shape[0] // 3))
    return da.from_array(a, chunks=(rows,) + a.shape[1:]).map_blocks(_boom, dtype=dtype)


def exploding_bag(items):
    return db.from_sequence(list(items), npartitions=3).map_partitions(_boom)


def _tagged(cls) -> bool:
    return cls()._scratch_tags()["dask"]


UNTAGGED = [e for e in all_estimators() if not _tagged(e.cls)]
ids = [e.name for e in UNTAGGED]
# The message of an estimator's refusal lists the estimators that fit on Dask input.
ACCEPTED = ", ".join(sorted(dask_estimators())) or "none yet"

METHODS = (
    "predict",
    "predict_proba",
    "predict_log_proba",
    "decision_function",
    "score_samples",
    "transform",
    "inverse_transform",
    "score",
)


def _dask_X(entry, X):
    """Documents and sequences come as a Dask bag, everything else as a Dask array."""
    if entry.task in ("text", "sequence"):
        return exploding_bag(X)
    return exploding(X)


def _fit(est, X, y, **kw):
    return est.fit(X, **kw) if y is None else est.fit(X, y, **kw)


def _refused(owner, accepted=True):
    """pytest.raises for the refusal message of ``owner`` (with the accepted list or not)."""
    match = rf"^{owner} does not accept a Dask \w+ as \w+"
    if accepted:
        match += r".*fit on Dask input.*" + ACCEPTED.replace(", ", ".*")
    return pytest.raises(TypeError, match=match)


pytestmark = pytest.mark.filterwarnings("ignore::scratchlearn.exceptions.ConvergenceWarning")


def test_the_catalogue_covers_the_registry():
    # a newly tagged estimator leaves this catalogue by its tag, not by an edit here
    assert len(UNTAGGED) + len(dask_estimators()) == len(all_estimators())
    assert UNTAGGED


@pytest.mark.parametrize("entry", UNTAGGED, ids=ids)
def test_untagged_estimator_refuses_dask_everywhere(entry):
    X, y = problem_for(entry)
    if X is None:  # fit(y) estimators (LabelEncoder...): their input is y
        with pytest.raises(TypeError, match=r"Dask Array .*as y"):
            entry.make().fit(exploding(y))
        fitted = entry.make().fit(y)
        with pytest.raises(TypeError, match=r"Dask Array .*as y"):
            fitted.transform(exploding(y))
        return
    est = entry.make()
    with _refused(entry.name):
        _fit(est, _dask_X(entry, X), y)
    # nothing recorded from the refused input (feature count, names)
    assert not hasattr(est, "n_features_in_") and not hasattr(est, "feature_names_in_")
    if y is not None and entry.task not in ("text", "sequence"):  # text ignores y
        # y and sample_weight given as Dask beside an in-memory X: refused, not computed
        with pytest.raises(TypeError, match=r"Dask \w+ .*as y"):
            _fit(entry.make(), X, exploding(y))
    fitted = _fit(entry.make(), X, y)
    if entry.task in ("text", "sequence"):
        for method in ("transform", "predict"):
            if hasattr(fitted, method):
                with _refused(entry.name):
                    getattr(fitted, method)(_dask_X(entry, X))
        return
    X = np.asarray(X)
    for method in METHODS:
        if not hasattr(fitted, method):
            continue
        arg = X
        if method == "inverse_transform":
            arg = fitted.transform(X)
            if not isinstance(arg, np.ndarray):
                arg = arg.toarray()
        if method == "score":  # a number, computed on purpose (test_dask_predict.py)
            continue
        if method in ROW_METHODS:  # lazy, whatever the estimator: nothing computed yet
            out = getattr(fitted, method)(exploding(arg))
            assert is_dask_collection(out), f"{entry.name}.{method} returned {type(out)}"
            continue
        try:
            out = getattr(fitted, method)(exploding(arg))
        except TypeError as exc:
            with _refused(entry.name):
                raise exc
        else:
            assert is_dask_collection(out), f"{entry.name}.{method} returned {type(out)}"


def test_sample_weight_and_targets_given_as_dask_are_refused():
    from scratchlearn.linear_model import Lasso
    from scratchlearn.tree import DecisionTreeClassifier

    X, y = np.arange(24.0).reshape(12, 2), np.arange(12) % 2
    assert not _tagged(DecisionTreeClassifier) and not _tagged(Lasso)  # premise of this test
    with pytest.raises(TypeError, match="Dask Array was passed as sample_weight"):
        DecisionTreeClassifier().fit(X, y, sample_weight=exploding(np.ones(12)))
    fitted = DecisionTreeClassifier().fit(X, y)
    with pytest.raises(TypeError, match="Dask Array .*as y"):  # score's y, through the metric
        fitted.score(X, exploding(y))
    with pytest.raises(TypeError, match="Dask Array was passed as sample_weight"):
        Lasso().fit(X, y.astype(float), sample_weight=exploding(np.ones(12)))


def test_dask_dataframe_is_refused_without_reading_it():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    from scratchlearn.tree import DecisionTreeClassifier

    frame = pd.DataFrame({"a": np.arange(9.0), "b": np.ones(9)})
    ddf = dd.from_pandas(frame, npartitions=3).map_partitions(_boom, meta=frame.iloc[:0])
    est = DecisionTreeClassifier()
    with _refused("DecisionTreeClassifier"):
        est.fit(ddf, np.arange(9) % 2)
    assert not hasattr(est, "feature_names_in_")
    # the row count of a Dask DataFrame is not known without reading every partition
    with pytest.raises(TypeError, match="not known without computing"):
        num_samples(ddf)
    assert num_samples(exploding(np.zeros((7, 2)))) == 7  # an array's is: no compute


def test_pipeline_fit_refuses_at_its_first_untagged_step_and_predicts_lazily():
    from scratchlearn.preprocessing import PolynomialFeatures
    from scratchlearn.tree import DecisionTreeClassifier

    assert not _tagged(PolynomialFeatures) and not _tagged(DecisionTreeClassifier)
    X, y = np.arange(40.0).reshape(20, 2), np.arange(20) % 2
    pipe = make_pipeline(PolynomialFeatures(), DecisionTreeClassifier())
    with _refused("PolynomialFeatures"):
        pipe.fit(exploding(X), y)
    pipe.fit(X, y)
    for method in ("predict", "predict_proba"):  # each step lazy in turn: nothing computed
        assert is_dask_collection(getattr(pipe, method)(exploding(X)))


def test_model_selection_refuses_dask_by_function_name():
    from scratchlearn.neighbors import KNeighborsClassifier

    X, y, g = np.arange(40.0).reshape(20, 2), np.arange(20) % 2, np.arange(20) // 4
    est = KNeighborsClassifier(n_neighbors=1)
    Xd, yd = exploding(X), exploding(y)
    w = {"sample_weight": exploding(np.ones(20))}

    def no_list(owner):  # a function lists no estimators: none makes it work block by block
        return pytest.raises(TypeError, match=rf"^{owner} does not accept a Dask Array as \w+")

    with no_list("train_test_split"):
        ms.train_test_split(Xd, y, random_state=0)
    with no_list("train_test_split"):
        ms.train_test_split(X, y, stratify=yd, random_state=0)
    with no_list("cross_validate"):
        ms.cross_val_score(est, Xd, y, cv=2)
    with no_list("cross_validate"):
        ms.cross_validate(est, X, yd, cv=2)
    with no_list("cross_validate"):
        ms.cross_validate(est, X, y, cv=2, params=w)
    with no_list("GridSearchCV"):
        ms.GridSearchCV(est, {"n_neighbors": [1, 2]}, cv=2).fit(Xd, y)
    with no_list("learning_curve"):
        ms.learning_curve(est, Xd, y, cv=2, train_sizes=[0.5, 1.0])
    with no_list("validation_curve"):
        ms.validation_curve(est, X, yd, param_name="n_neighbors", param_range=[1, 2], cv=2)
    for splitter, args in (
        (ms.KFold(2), (Xd,)),
        (ms.StratifiedKFold(2), (X, yd)),
        (ms.GroupKFold(2), (X, y, exploding(g))),
        (ms.GroupShuffleSplit(2, test_size=0.4, random_state=0), (X, y, exploding(g))),
    ):
        with no_list(type(splitter).__name__):
            next(splitter.split(*args))

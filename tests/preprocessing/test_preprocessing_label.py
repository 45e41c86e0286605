"""LabelEncoder and LabelBinarizer on real targets (car evaluation classes, iris, wine)."""

from pathlib import Path

import numpy as np
import pytest
from sklearn import preprocessing as skp
from sklearn.datasets import load_iris

from _data import shared_data_dir  # tests/ is on sys.path (rootdir conftest)
from scratchlearn.exceptions import InvalidParameterError, NotFittedError
from scratchlearn.preprocessing import LabelBinarizer, LabelEncoder

DATA = Path(shared_data_dir())
CAR_Y = np.loadtxt(DATA / "car_evaluation" / "car.data", dtype=str, delimiter=",")[:, -1]
IRIS_Y = load_iris().target
TARGETS = {
    "car_str": CAR_Y,
    "car_obj": CAR_Y.astype(object),
    "iris_int": IRIS_Y,
    "iris_float": IRIS_Y.astype(float) * 2.0 - 1.0,
    "binary_str": np.where(IRIS_Y == 0, "setosa", "other"),
    "list": CAR_Y[:50].tolist(),
}


def test_by_hand():
    le = LabelEncoder().fit(["paris", "tokyo", "amsterdam", "tokyo"])
    assert le.classes_.tolist() == ["amsterdam", "paris", "tokyo"]
    assert le.transform(["tokyo", "amsterdam"]).tolist() == [2, 0]
    assert le.inverse_transform([1, 1, 0]).tolist() == ["paris", "paris", "amsterdam"]
    lb = LabelBinarizer().fit(["b", "a", "c"])
    np.testing.assert_array_equal(lb.transform(["c", "a"]), [[0, 0, 1], [1, 0, 0]])
    lb2 = LabelBinarizer(neg_label=-1, pos_label=2).fit(["yes", "no"])
    np.testing.assert_array_equal(lb2.transform(["yes", "no"]), [[2], [-1]])


@pytest.mark.parametrize("name", list(TARGETS))
def test_label_encoder_matches_sklearn(name):
    y = TARGETS[name]
    ours, ref = LabelEncoder().fit(y), skp.LabelEncoder().fit(y)
    assert ours.classes_.tolist() == ref.classes_.tolist()
    codes = ours.transform(y)
    np.testing.assert_array_equal(codes, ref.transform(y))
    np.testing.assert_array_equal(LabelEncoder().fit_transform(y), codes)
    np.testing.assert_array_equal(ours.inverse_transform(codes), np.asarray(y))


@pytest.mark.parametrize("name", list(TARGETS))
@pytest.mark.parametrize("labels", [(0, 1), (-1, 1), (-3, 7)])
def test_label_binarizer_matches_sklearn(name, labels):
    y = TARGETS[name]
    kw = dict(neg_label=labels[0], pos_label=labels[1])
    ours, ref = LabelBinarizer(**kw).fit(y), skp.LabelBinarizer(**kw).fit(y)
    assert ours.classes_.tolist() == ref.classes_.tolist()
    Y = ours.transform(y)
    np.testing.assert_array_equal(Y, ref.transform(y))
    assert Y.shape[1] == (1 if len(ours.classes_) == 2 else len(ours.classes_))
    np.testing.assert_array_equal(ours.inverse_transform(Y), np.asarray(y))
    np.testing.assert_array_equal(ours.inverse_transform(Y), ref.inverse_transform(Y))


def test_label_binarizer_scores_and_unseen_and_sparse():
    lb = LabelBinarizer().fit(["a", "b", "c"])
    scores = np.array([[0.1, 0.7, 0.2], [0.5, 0.2, 0.3]])
    assert lb.inverse_transform(scores).tolist() == ["b", "a"]
    # labels unseen at fit time give a row of neg_label, as in scikit-learn
    np.testing.assert_array_equal(lb.transform(["z"]), [[0, 0, 0]])
    np.testing.assert_array_equal(
        LabelBinarizer(sparse_output=True).fit(["a", "b", "c"]).transform(["c", "a"]).toarray(),
        [[0, 0, 1], [1, 0, 0]],
    )
    binary = LabelBinarizer().fit([0, 1])
    assert binary.inverse_transform(np.array([[0.2], [0.8]])).tolist() == [0, 1]
    assert binary.inverse_transform(np.array([[0.2], [0.8]]), threshold=0.9).tolist() == [0, 0]


def test_bad_input():
    le = LabelEncoder().fit(["a", "b"])
    with pytest.raises(ValueError, match=r"previously unseen labels: \['c', 'zz'\]"):
        le.transform(["a", "c", "zz", "c"])
    with pytest.raises(ValueError, match="unseen labels"):
        le.inverse_transform([0, 5])
    with pytest.raises(NotFittedError):
        LabelEncoder().transform(["a"])
    with pytest.raises(ValueError, match="1d array"):
        LabelEncoder().fit(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="strictly less"):
        LabelBinarizer(neg_label=1, pos_label=0).fit([0, 1])
    with pytest.raises(InvalidParameterError, match="pos_label"):
        LabelBinarizer(pos_label=1.5).fit([0, 1])
    with pytest.raises(ValueError, match="continuous"):
        LabelBinarizer().fit([0.5, 1.2])
    with pytest.raises(ValueError, match="3 column"):
        LabelBinarizer().fit(["a", "b", "c"]).inverse_transform(np.zeros((2, 2)))
    assert LabelEncoder().fit(["a"]).transform([]).shape == (0,)


def test_user_array_not_modified():
    y = CAR_Y.copy()
    LabelEncoder().fit(y).transform(y)
    LabelBinarizer().fit(y).transform(y)
    np.testing.assert_array_equal(y, CAR_Y)

"""Bundled real datasets: shapes, dtypes, classes, descriptions, caches, and the oracles
(scikit-learn's loaders, statsmodels' datasets, the shared copies' sha256)."""

import gzip
import hashlib
import os
from importlib import resources

import numpy as np
import pytest

import scratchlearn.datasets as D
from _data import SHARED_DATA  # tests/ is on sys.path (rootdir conftest)

# name -> (shape of data, kind, task, class counts or None, licence phrase in DESCR)
EXPECTED = {
    "iris": ((150, 4), "numeric", "classification", [50, 50, 50], "CC BY 4.0"),
    "wine": ((178, 13), "numeric", "classification", [59, 71, 48], "CC BY 4.0"),
    "breast_cancer": ((569, 30), "numeric", "classification", [212, 357], "CC BY 4.0"),
    "diabetes": ((442, 10), "numeric", "regression", None, "no explicit licence"),
    "digits": ((1797, 64), "numeric", "classification", None, "CC BY 4.0"),
    "sms_spam": ((5574,), "text", "classification", [4827, 747], "CC BY 4.0"),
    "mushroom": ((8124, 22), "categorical", "classification", [4208, 3916], "CC BY 4.0"),
    "car_evaluation": (
        (1728, 6),
        "categorical",
        "classification",
        [1210, 384, 69, 65],
        "CC BY 4.0",
    ),
    "congressional_voting": ((435, 16), "categorical", "classification", [267, 168], "CC BY 4.0"),
    "tic_tac_toe": ((958, 9), "categorical", "classification", [332, 626], "CC BY 4.0"),
    "randhie": ((20190, 9), "numeric", "regression", None, "public domain"),
    "modechoice": ((840, 7), "numeric", "ranking", [630, 210], "public domain"),
    "play_tennis": ((14, 4), "categorical", "classification", [5, 9], "Licence"),
    "play_tennis_6": ((6, 4), "categorical", "classification", [3, 3], "Licence"),
    "spam_emails": ((4,), "text", "classification", [2, 2], "Licence"),
    "edible_plants": ((6, 2), "categorical", "classification", [3, 3], "Licence"),
    "student_pass": ((5, 2), "numeric", "classification", [2, 3], "Licence"),
    "xor": ((4, 2), "numeric", "classification", [2, 2], "Licence"),
}


def test_catalogue_names():
    assert [b.name for b in D.list_datasets()] == list(EXPECTED)


@pytest.mark.parametrize("name", list(EXPECTED))
def test_loader_contract(name):
    shape, kind, task, counts, licence = EXPECTED[name]
    b = D.load_dataset(name)
    assert b.data.shape == shape
    assert b.kind == kind and b.task == task
    assert b.target.shape == (shape[0],)
    if kind == "numeric":
        assert b.data.dtype == np.float64
        assert np.isfinite(b.data).all()
        assert len(b.feature_names) == shape[1]
    else:
        assert b.data.dtype == object
        assert all(isinstance(v, str) for v in b.data.ravel())
        assert len(b.feature_names) == (1 if kind == "text" else shape[1])
    if task == "regression":
        assert b.target.dtype == np.float64 and np.isfinite(b.target).all()
        assert b.target_names is None
    else:
        assert b.target.dtype == np.int64
    if counts is not None:
        assert np.bincount(b.target).tolist() == counts
    if task == "classification":
        assert set(np.unique(b.target)) == set(range(len(b.target_names)))
    # DESCR: our own text, with a licence line and the licence itself
    assert "Licence" in b.DESCR and licence in b.DESCR
    assert b.frame is None


@pytest.mark.parametrize("info", D.list_datasets(), ids=lambda i: i.name)
def test_list_datasets_matches_loaders(info):
    b = D.load_dataset(info.name)
    assert b.kind == info.kind and b.task == info.task
    assert b.data.shape[0] == info.n_samples
    assert info.n_features == (None if b.kind == "text" else b.data.shape[1])
    assert info.licence in b.DESCR or info.licence in ("textbook example", "seed example")
    assert isinstance(info.summary, str) and info.summary and "\n" not in info.summary


def test_unknown_name_lists_valid_ones():
    with pytest.raises(ValueError, match=r"Unknown dataset 'irs'.*iris.*tic_tac_toe.*xor"):
        D.load_dataset("irs")
    with pytest.raises(ValueError, match="Unknown dataset"):
        D.load_dataset(None)


def test_load_dataset_passes_and_guards_kwargs():
    X, y = D.load_dataset("diabetes", return_X_y=True, scaled=False)
    assert X[0, 0] == 59.0
    with pytest.raises(TypeError, match="n_rows"):
        D.load_dataset("play_tennis_6", n_rows=14)


def test_loader_flags_are_validated():
    with pytest.raises(ValueError, match="'as_frame' parameter of load_iris"):
        D.load_iris(as_frame="yes")
    with pytest.raises(ValueError, match="'n_class' parameter of load_digits"):
        D.load_digits(n_class=11)


# --------------------------------------------------------------------- oracles


@pytest.mark.parametrize("name", ["iris", "wine", "breast_cancer", "digits"])
def test_equal_to_sklearn(name):
    sk = pytest.importorskip("sklearn.datasets")
    ours, theirs = getattr(D, f"load_{name}")(), getattr(sk, f"load_{name}")()
    # exact: the same decimal strings parsed by the same parser
    np.testing.assert_array_equal(ours.data, theirs.data)
    np.testing.assert_array_equal(ours.target, theirs.target)
    assert list(ours.feature_names) == list(theirs.feature_names)
    assert list(ours.target_names) == list(theirs.target_names)


@pytest.mark.parametrize("scaled", [True, False])
def test_diabetes_equal_to_sklearn(scaled):
    sk = pytest.importorskip("sklearn.datasets")
    ours, theirs = D.load_diabetes(scaled=scaled), sk.load_diabetes(scaled=scaled)
    # exact: raw values are integers/short decimals; the scaling repeats sklearn's float ops
    np.testing.assert_array_equal(ours.data, theirs.data)
    np.testing.assert_array_equal(ours.target, theirs.target)
    assert ours.feature_names == theirs.feature_names
    assert ours.scaled is scaled


def test_diabetes_scaling_definition():
    raw, scaled = D.load_diabetes(scaled=False).data, D.load_diabetes().data
    # zero mean, unit Euclidean norm per column; 1e-14 is float64 round-off over 442 rows
    np.testing.assert_allclose(scaled.mean(axis=0), 0.0, atol=1e-14)
    np.testing.assert_allclose(np.linalg.norm(scaled, axis=0), 1.0, rtol=1e-14)
    # a per-column affine map of the raw data (correlation 1 with the raw column)
    for j in range(raw.shape[1]):
        assert np.corrcoef(raw[:, j], scaled[:, j])[0, 1] == pytest.approx(1.0, abs=1e-12)


def test_digits_images_and_n_class():
    sk = pytest.importorskip("sklearn.datasets")
    ours, theirs = D.load_digits(n_class=4), sk.load_digits(n_class=4)
    np.testing.assert_array_equal(ours.data, theirs.data)
    np.testing.assert_array_equal(ours.images, theirs.images)
    assert ours.target_names == [0, 1, 2, 3] and set(ours.target) == {0, 1, 2, 3}
    assert ours.data.min() == 0 and ours.data.max() == 16


def test_randhie_equal_to_statsmodels():
    sm = pytest.importorskip("statsmodels.datasets")
    theirs = sm.randhie.load_pandas()
    ours = D.load_randhie()
    # exact: the same file; pandas' and numpy's parsers agree on these short decimals
    np.testing.assert_array_equal(ours.data, theirs.exog.to_numpy(dtype=float))
    np.testing.assert_array_equal(ours.target, theirs.endog.to_numpy(dtype=float))
    assert ours.feature_names == list(theirs.exog.columns)
    assert ours.target_column == "mdvis"
    assert (ours.target == np.round(ours.target)).all() and ours.target.min() == 0


def test_modechoice_groups_equal_to_statsmodels():
    sm = pytest.importorskip("statsmodels.datasets")
    theirs = sm.modechoice.load_pandas().data
    ours = D.load_modechoice()
    np.testing.assert_array_equal(ours.data, theirs[ours.feature_names].to_numpy(dtype=float))
    np.testing.assert_array_equal(ours.qid, theirs["individual"].to_numpy())
    np.testing.assert_array_equal(ours.target, theirs["choice"].to_numpy())
    # 210 contiguous queries of 4 rows, exactly one chosen mode each
    assert ours.qid.dtype == np.int64
    assert np.array_equal(np.unique(ours.qid), np.arange(1, 211))
    assert (np.diff(ours.qid) >= 0).all()
    assert (np.bincount(ours.qid)[1:] == 4).all()
    assert (np.bincount(ours.qid, weights=ours.target)[1:] == 1).all()
    assert ours.mode_names == ["air", "train", "bus", "car"]


SHARED_FILES = {
    "SMSSpamCollection.gz": "sms_spam/SMSSpamCollection",
    "agaricus-lepiota.data.gz": "mushroom/agaricus-lepiota.data",
    "car.data.gz": "car_evaluation/car.data",
    "house-votes-84.data.gz": "congressional_voting/house-votes-84.data",
    "tic-tac-toe.data.gz": "tic_tac_toe/tic-tac-toe.data",
    "modechoice.csv.gz": "ltr/modechoice.csv",
}


@pytest.mark.parametrize("bundled", list(SHARED_FILES))
def test_bundled_files_are_the_originals(bundled):
    raw = gzip.decompress(
        resources.files("scratchlearn.datasets").joinpath("data", bundled).read_bytes()
    )
    path = os.path.join(SHARED_DATA, SHARED_FILES[bundled])
    if not os.path.exists(path):
        pytest.skip("shared data not available")
    with open(path, "rb") as fh:
        original = fh.read()
    assert hashlib.sha256(raw).hexdigest() == hashlib.sha256(original).hexdigest()


def test_data_folder_is_small_and_licensed():
    folder = resources.files("scratchlearn.datasets").joinpath("data")
    sizes = [len(p.read_bytes()) for p in folder.iterdir() if p.is_file()]
    assert sum(sizes) < 1_000_000
    licences = folder.joinpath("LICENSES.md").read_text(encoding="utf-8")
    for fname in ["iris.csv.gz", "randhie.csv.gz", "SMSSpamCollection.gz", "digits.csv.gz"]:
        assert fname in licences
    assert "CC BY 4.0" in licences and "public domain" in licences


# --------------------------------------------------------------------- categorical / text


@pytest.mark.parametrize(
    "name", ["mushroom", "car_evaluation", "congressional_voting", "tic_tac_toe"]
)
def test_categorical_values_within_documented_categories(name):
    b = D.load_dataset(name)
    assert len(b.categories) == b.data.shape[1]
    for j, cats in enumerate(b.categories):
        assert set(b.data[:, j]) <= set(cats), b.feature_names[j]


def test_missing_markers_kept_as_categories():
    m = D.load_mushroom()
    root = m.data[:, m.feature_names.index("stalk-root")]
    assert (root == "?").sum() == 2480
    assert set(m.data[:, m.feature_names.index("veil-type")]) == {"p"}
    v = D.load_congressional_voting()
    # per-column '?' counts from the shared README (the .names table is shifted)
    expected = [12, 48, 11, 11, 15, 11, 14, 15, 22, 7, 21, 31, 25, 17, 28, 104]
    assert (v.data == "?").sum(axis=0).tolist() == expected


def test_tic_tac_toe_labels_follow_the_rule():
    b = D.load_tic_tac_toe()
    board = b.data == "x"  # (958, 9)
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    x_wins = np.any([board[:, list(li)].all(axis=1) for li in lines], axis=0)
    np.testing.assert_array_equal(b.target, x_wins.astype(int))


def test_root_information_gains_from_readmes():
    def gain(X, y):
        def h(v):
            p = np.bincount(v) / len(v)
            p = p[p > 0]
            return -(p * np.log2(p)).sum()

        return h(y) - sum((X == v).mean() * h(y[X == v]) for v in np.unique(X))

    m = D.load_mushroom()
    # the published gains have 3 decimals: half a unit of the last one
    assert gain(m.data[:, m.feature_names.index("odor")], m.target) == pytest.approx(
        0.906, abs=5e-4
    )
    v = D.load_congressional_voting()
    col = v.data[:, v.feature_names.index("physician-fee-freeze")]
    assert gain(col, v.target) == pytest.approx(0.740, abs=5e-4)


def test_sms_spam_documents():
    b = D.load_sms_spam()
    assert b.data.ndim == 1 and b.feature_names == ["message"]
    assert b.target_names == ["ham", "spam"]
    assert b.data[0].startswith("Go until jurong point")
    assert b.target[2] == 1 and b.data[2].startswith("Free entry in 2 a wkly comp")
    assert not any("\t" in d for d in b.data)
    assert any("&lt;#&gt;" in d for d in b.data)  # HTML entities kept as distributed


# --------------------------------------------------------------------- copies, frames


@pytest.mark.parametrize(
    "name",
    ["iris", "mushroom", "sms_spam", "randhie", "modechoice", "play_tennis", "xor", "digits"],
)
def test_returned_arrays_are_copies(name):
    first = D.load_dataset(name)
    before = (first.data.copy(), first.target.copy())
    first.data[...] = first.data[-1] if first.data.dtype == object else -1.0
    first.target[...] = 0
    if "qid" in first:
        first.qid[...] = 0
    if "images" in first:
        first.images[...] = -1
    again = D.load_dataset(name)
    np.testing.assert_array_equal(again.data, before[0])
    np.testing.assert_array_equal(again.target, before[1])
    assert again.data.flags.writeable
    if "qid" in again:
        assert again.qid[-1] == 210
    if "images" in again:
        assert again.images.min() == 0


def test_feature_names_are_fresh_lists():
    D.load_iris().feature_names.append("junk")
    assert len(D.load_iris().feature_names) == 4


def test_return_X_y():
    X, y = D.load_wine(return_X_y=True)
    assert X.shape == (178, 13) and y.shape == (178,)
    docs, y = D.load_sms_spam(return_X_y=True)
    assert docs.shape == (5574,)


def test_as_frame():
    pd = pytest.importorskip("pandas")
    b = D.load_iris(as_frame=True)
    assert isinstance(b.frame, pd.DataFrame) and b.frame.shape == (150, 5)
    assert list(b.frame.columns) == b.feature_names + ["target"]
    assert isinstance(b.data, pd.DataFrame) and isinstance(b.target, pd.Series)
    np.testing.assert_array_equal(b.data.to_numpy(), D.load_iris().data)
    t = D.load_sms_spam(as_frame=True)
    assert isinstance(t.data, pd.Series) and t.frame.shape == (5574, 2)
    r = D.load_modechoice(as_frame=True)
    assert list(r.frame.columns)[:2] == ["qid", "mode"] and list(r.frame.columns)[-1] == "choice"
    X, y = D.load_randhie(as_frame=True, return_X_y=True)
    assert y.name == "mdvis" and X.shape == (20190, 9)


def test_import_does_not_pull_pandas_or_sklearn():
    import subprocess
    import sys

    code = (
        "import sys, scratchlearn.datasets as D; D.load_iris(); D.load_mushroom(); "
        "D.load_csv; print(any(m in sys.modules for m in ('pandas', 'sklearn', 'statsmodels')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_cache_is_read_only():
    from scratchlearn.datasets import _base

    header, table = _base.numeric_table("iris.csv.gz")
    assert not table.flags.writeable
    with pytest.raises(ValueError):
        table[0, 0] = 0.0
    assert not _base.string_table("car.data.gz").flags.writeable
    labels, docs = _base.tab_separated_documents("SMSSpamCollection.gz")
    assert not labels.flags.writeable and not docs.flags.writeable
    assert _base.numeric_table("iris.csv.gz")[1] is table  # parsed once per process

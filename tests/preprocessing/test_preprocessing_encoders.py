"""OneHotEncoder and OrdinalEncoder on the car-evaluation and mushroom tables (UCI, strings),
numbers with NaN, DataFrames; against scikit-learn for every option value."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import preprocessing as skp

from _data import shared_data_dir  # tests/ is on sys.path (rootdir conftest)
from scratchlearn.exceptions import InvalidParameterError, NotFittedError
from scratchlearn.preprocessing import OneHotEncoder, OrdinalEncoder

DATA = Path(shared_data_dir())
CAR = np.loadtxt(DATA / "car_evaluation" / "car.data", dtype=str, delimiter=",")  # (1728, 7)
MUSH = np.loadtxt(DATA / "mushroom" / "agaricus-lepiota.data", dtype=str, delimiter=",")
CAR_TRAIN, CAR_TEST = CAR[::2], CAR[1::2]


def tables():
    """The same data as a fixed-width str array, an object array and a DataFrame."""
    return {
        "car_U": CAR,
        "car_obj": CAR.astype(object),
        "car_df": pd.DataFrame(
            CAR, columns=["buying", "maint", "doors", "persons", "lug_boot", "safety", "class"]
        ),
        "mushroom_obj": MUSH.astype(object),
    }


def numeric_with_nan():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, size=(60, 3)).astype(float)
    X[rng.random((60, 3)) < 0.1] = np.nan
    return X


def dense(A):
    return A.toarray() if sp.issparse(A) else np.asarray(A)


# -- 1. by hand -------------------------------------------------------------------------------
def test_one_hot_by_hand():
    X = [["red", "S"], ["green", "M"], ["red", "M"]]
    enc = OneHotEncoder(sparse_output=False).fit(X)
    assert [c.tolist() for c in enc.categories_] == [["green", "red"], ["M", "S"]]
    np.testing.assert_array_equal(enc.transform(X), [[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 1, 0]])
    assert enc.get_feature_names_out().tolist() == ["x0_green", "x0_red", "x1_M", "x1_S"]
    first = OneHotEncoder(drop="first", sparse_output=False).fit(X)
    np.testing.assert_array_equal(first.transform(X), [[1, 1], [0, 0], [1, 0]])
    assert first.get_feature_names_out().tolist() == ["x0_red", "x1_S"]


def test_ordinal_by_hand():
    X = np.array([[3, "b"], [1, "a"], [3, "c"]], dtype=object)
    enc = OrdinalEncoder().fit(X)
    np.testing.assert_array_equal(enc.transform(X), [[1, 1], [0, 0], [1, 2]])
    assert enc.inverse_transform([[0, 2]]).tolist() == [[1, "c"]]


# -- 2. oracles ---------------------------------------------------------------------------
@pytest.mark.parametrize("table", list(tables()))
@pytest.mark.parametrize("drop", [None, "first", "if_binary"])
@pytest.mark.parametrize("sparse_output", [True, False])
def test_one_hot_matches_sklearn(table, drop, sparse_output):
    X = tables()[table]
    kw = dict(drop=drop, sparse_output=sparse_output)
    ours, ref = OneHotEncoder(**kw).fit(X), skp.OneHotEncoder(**kw).fit(X)
    assert len(ours.categories_) == len(ref.categories_)
    for a, b in zip(ours.categories_, ref.categories_):
        assert a.tolist() == b.tolist()
    if drop is None:
        assert ours.drop_idx_ is None and ref.drop_idx_ is None
    else:
        assert list(ours.drop_idx_) == list(ref.drop_idx_)
    Z, R = ours.transform(X), ref.transform(X)
    assert sp.issparse(Z) == sparse_output
    np.testing.assert_array_equal(dense(Z), dense(R))  # 0/1 indicators: exact
    assert ours.get_feature_names_out().tolist() == ref.get_feature_names_out().tolist()
    back = ours.inverse_transform(Z)
    np.testing.assert_array_equal(back.astype(str), np.asarray(X).astype(str))


@pytest.mark.parametrize("table", list(tables()))
def test_ordinal_matches_sklearn(table):
    X = tables()[table]
    ours, ref = OrdinalEncoder().fit(X), skp.OrdinalEncoder().fit(X)
    for a, b in zip(ours.categories_, ref.categories_):
        assert a.tolist() == b.tolist()
    Z = ours.transform(X)
    np.testing.assert_array_equal(Z, ref.transform(X))
    assert Z.dtype == np.float64
    np.testing.assert_array_equal(ours.inverse_transform(Z).astype(str), np.asarray(X).astype(str))
    assert ours.get_feature_names_out().tolist() == ref.get_feature_names_out().tolist()


@pytest.mark.parametrize("drop", [None, "first"])
def test_numeric_columns_with_nan_match_sklearn(drop):
    X = numeric_with_nan()
    ours = OneHotEncoder(drop=drop, sparse_output=False).fit(X)
    ref = skp.OneHotEncoder(drop=drop, sparse_output=False).fit(X)
    for a, b in zip(ours.categories_, ref.categories_):
        np.testing.assert_array_equal(a, b)  # NaN is one category, sorted last
    np.testing.assert_array_equal(ours.transform(X), ref.transform(X))
    o, r = OrdinalEncoder().fit(X), skp.OrdinalEncoder().fit(X)
    np.testing.assert_array_equal(o.transform(X), r.transform(X))  # NaN stays NaN
    o2 = OrdinalEncoder(encoded_missing_value=-1).fit(X)
    r2 = skp.OrdinalEncoder(encoded_missing_value=-1).fit(X)
    np.testing.assert_array_equal(o2.transform(X), r2.transform(X))
    np.testing.assert_array_equal(o2.inverse_transform(o2.transform(X)), X)


def test_object_columns_with_none_and_nan_match_sklearn():
    X = np.array([["a", 1.0], [None, 2.0], ["b", np.nan], [np.nan, 1.0], ["a", 2.0]], dtype=object)
    X_str_col = X[:, :1]
    ours, ref = OrdinalEncoder().fit(X_str_col), skp.OrdinalEncoder().fit(X_str_col)
    assert [str(v) for v in ours.categories_[0]] == [str(v) for v in ref.categories_[0]]
    np.testing.assert_array_equal(ours.transform(X_str_col), ref.transform(X_str_col))
    oh = OneHotEncoder(sparse_output=False).fit(X_str_col)
    rh = skp.OneHotEncoder(sparse_output=False).fit(X_str_col)
    np.testing.assert_array_equal(oh.transform(X_str_col), rh.transform(X_str_col))


def test_mixed_dataframe_keeps_column_dtypes():
    df = pd.DataFrame(
        {"size": [3, 1, 2, 3], "colour": ["red", "blue", "red", "green"], "w": [0.5, 1.5, 0.5, 2.0]}
    )
    ours, ref = OneHotEncoder().fit(df), skp.OneHotEncoder().fit(df)
    assert ours.categories_[0].dtype.kind == "i"  # numbers stay numbers
    for a, b in zip(ours.categories_, ref.categories_):
        assert a.tolist() == b.tolist()
    np.testing.assert_array_equal(dense(ours.transform(df)), dense(ref.transform(df)))
    assert ours.get_feature_names_out().tolist() == ref.get_feature_names_out().tolist()
    assert ours.get_feature_names_out()[0] == "size_1"


@pytest.mark.parametrize("table", ["car_U", "car_obj"])
def test_unknown_categories(table):
    X = tables()[table]
    train = X[X[:, 0] != "vhigh"]  # "vhigh" buying price unseen at fit time
    with pytest.raises(ValueError, match=r"unknown categories \['vhigh'\] in column 0"):
        OneHotEncoder().fit(train).transform(X)
    with pytest.raises(ValueError, match=r"unknown categories \['vhigh'\] in column 0"):
        OrdinalEncoder().fit(train).transform(X)
    ours = OneHotEncoder(handle_unknown="ignore").fit(train)
    ref = skp.OneHotEncoder(handle_unknown="ignore").fit(train)
    Z = ours.transform(X)
    np.testing.assert_array_equal(Z.toarray(), ref.transform(X).toarray())
    unseen = np.asarray(X[:, 0] == "vhigh")
    assert np.all(Z.toarray()[unseen, :3] == 0)
    inv = ours.inverse_transform(Z)
    assert all(v is None for v in inv[unseen, 0])
    for uv in [-1, np.nan, 99]:
        o = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=uv).fit(train)
        r = skp.OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=uv).fit(train)
        np.testing.assert_array_equal(o.transform(X), r.transform(X))
        assert all(v is None for v in o.inverse_transform(o.transform(X))[unseen, 0])


def test_user_categories():
    cats = [["low", "med", "high", "vhigh"], ["vhigh", "high", "med", "low"]]
    X = CAR[:, :2]
    for cls_ours, cls_ref in [
        (OneHotEncoder, skp.OneHotEncoder),
        (OrdinalEncoder, skp.OrdinalEncoder),
    ]:
        ours, ref = cls_ours(categories=cats).fit(X), cls_ref(categories=cats).fit(X)
        assert [c.tolist() for c in ours.categories_] == cats  # the given order is kept
        np.testing.assert_array_equal(dense(ours.transform(X)), dense(ref.transform(X)))
    with pytest.raises(ValueError, match=r"unknown categories \['vhigh'\] in column 0"):
        OneHotEncoder(categories=[["low", "med", "high"], cats[1]]).fit(X)
    with pytest.raises(ValueError, match="Unsorted"):
        OrdinalEncoder(categories=[[3, 1, 2]]).fit([[1], [2]])


def test_drop_explicit_categories():
    X = CAR[:, :2]
    ours = OneHotEncoder(drop=["med", "low"], sparse_output=False).fit(X)
    ref = skp.OneHotEncoder(drop=["med", "low"], sparse_output=False).fit(X)
    np.testing.assert_array_equal(ours.transform(X), ref.transform(X))
    np.testing.assert_array_equal(ours.inverse_transform(ours.transform(X)), X)


def test_dtype_and_whole_array_string_path_agrees_with_columnwise():
    X = np.tile(CAR.astype(object), (3, 1))
    X[5, 2] = "unseen"
    enc = OneHotEncoder(dtype=np.float32, handle_unknown="ignore").fit(X[6:])
    assert enc.transform(X).dtype == np.float32
    # the whole-array path for all-str tables against the plain per-column lookup
    from scratchlearn.preprocessing._column_codes import (
        column_categories,
        encode_column,
        string_matrix_codes,
    )

    fast_cats = [column_categories(X[6:, j]) for j in range(X.shape[1])]
    codes, known = string_matrix_codes(X, fast_cats)
    for j in range(X.shape[1]):
        c, k = encode_column(X[:, j], fast_cats[j])
        np.testing.assert_array_equal(k, known[:, j])
        np.testing.assert_array_equal(c[k], codes[k, j])
    assert not known[5, 2] and known.sum() == X.size - 1


def test_user_arrays_not_modified():
    X = CAR.astype(object)
    before = X.copy()
    OneHotEncoder().fit(X).transform(X)
    o = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1).fit(X)
    o.inverse_transform(o.transform(X))
    np.testing.assert_array_equal(X, before)


def test_bad_input():
    enc = OneHotEncoder().fit(CAR)
    with pytest.raises(ValueError, match="7 features"):
        enc.transform(CAR[:, :3])
    with pytest.raises(ValueError, match="Expected 25 columns"):
        enc.inverse_transform(np.zeros((2, 5)))
    with pytest.raises(ValueError, match="all zeros"):
        enc.inverse_transform(np.zeros((2, 25)))
    with pytest.raises(InvalidParameterError, match="handle_unknown"):
        OneHotEncoder(handle_unknown="bogus").fit(CAR)
    with pytest.raises(InvalidParameterError, match="drop"):
        OneHotEncoder(drop="last").fit(CAR)
    with pytest.raises(TypeError, match="unknown_value"):
        OrdinalEncoder(handle_unknown="use_encoded_value").fit(CAR)
    with pytest.raises(TypeError, match="unknown_value"):
        OrdinalEncoder(unknown_value=-1).fit(CAR)
    with pytest.raises(ValueError, match="already used"):
        OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=1).fit(CAR)
    with pytest.raises(ValueError, match="missing values"):
        OrdinalEncoder(dtype=np.int64).fit(numeric_with_nan())
    with pytest.raises(ValueError, match="infinity"):
        OneHotEncoder().fit(np.array([[1.0], [np.inf]]))
    with pytest.raises(TypeError, match="mixes"):
        OneHotEncoder().fit(np.array([["a"], [1]], dtype=object))
    with pytest.raises(TypeError, match="dense data is required"):
        OneHotEncoder().fit(sp.csr_matrix(np.eye(3)))
    with pytest.raises(ValueError, match="2-dimensional"):
        OneHotEncoder().fit(CAR[:, 0])
    with pytest.raises(NotFittedError):
        OrdinalEncoder().transform(CAR)


# -- properties -------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["x", "y", "zz", "é"]), st.integers(-3, 3)),
        min_size=1,
        max_size=30,
    )
)
def test_one_hot_rows_sum_to_columns_and_round_trip(rows):
    X = np.array(rows, dtype=object)
    enc = OneHotEncoder(sparse_output=False).fit(X)
    Z = enc.transform(X)
    np.testing.assert_array_equal(Z.sum(axis=1), 2)  # one 1 per input column
    np.testing.assert_array_equal(enc.inverse_transform(Z), X)
    codes = OrdinalEncoder().fit(X).transform(X)
    for j in range(2):  # codes are ranks among the sorted distinct values
        np.testing.assert_array_equal(codes[:, j], [sorted(set(X[:, j])).index(v) for v in X[:, j]])


@pytest.mark.parametrize("name", ["OneHotEncoder", "OrdinalEncoder"])
def test_dataframe_with_missing_values_matches_sklearn(name):
    import scratchlearn.preprocessing as slp

    df = pd.DataFrame(
        {
            "a": ["x", np.nan, "y", "x"],
            "b": [1.0, 2.0, np.nan, 2.0],
            "c": ["u", None, "v", "u"],
        }
    )
    kw = {"sparse_output": False} if name == "OneHotEncoder" else {}
    ours, ref = getattr(slp, name)(**kw).fit(df), getattr(skp, name)(**kw).fit(df)
    assert [[str(v) for v in c] for c in ours.categories_] == [
        [str(v) for v in c] for c in ref.categories_
    ]
    Z = ours.transform(df)
    np.testing.assert_array_equal(Z, ref.transform(df))  # NaN positions must agree too
    assert ours.get_feature_names_out().tolist() == ref.get_feature_names_out().tolist()
    assert str(ours.inverse_transform(Z).tolist()) == str(ref.inverse_transform(Z).tolist())


# -- short str columns as packed integer keys (_column_codes._packed_keys) ------------------------
_WORDS = ["", "a", "ab", "abc", "b", "ba", "zz", "é", "ÿy", "aaaaaaaa", "abcdefgh", "A", "a\x00b"]


def _reference_codes(values, categories):
    """Index of each value in ``categories`` (-1: unknown), by Python equality."""
    where = {c: i for i, c in reversed(list(enumerate(categories.tolist())))}
    return np.array([where.get(v, -1) for v in values.tolist()], dtype=np.intp)


@pytest.mark.parametrize("width", [1, 3, 8])
@pytest.mark.parametrize("order", ["native", "swapped", "strided"])
def test_short_str_columns_sort_and_search_as_strings(width, order):
    """The packed keys give np.unique's categories (values, order and dtype) and the codes of a
    Python lookup, for widths 1 to 8 with embedded NULs, empty strings, code points up to 255,
    categories of another width than the values, and the arrays that must not be packed
    (byte-swapped, a code point above 255, more than 8 characters) taking the string path."""
    from scratchlearn.preprocessing._column_codes import (
        _packed_keys,
        column_categories,
        encode_column,
    )

    rng = np.random.default_rng(width)
    values = rng.choice(np.array(_WORDS, dtype="U8"), size=200).astype(f"U{width}")
    if order == "swapped":
        values = values.astype(values.dtype.newbyteorder())
        assert _packed_keys(values) is None
    elif order == "strided":
        values = np.repeat(values, 2)[::2]
    cats = column_categories(values)
    assert cats.dtype == np.unique(values).dtype and np.array_equal(cats, np.unique(values))
    for user in (cats[::-1], np.array(["abc", "zz", "q", ""], dtype="U3"), cats[:0]):
        codes, known = encode_column(values, user)
        assert np.array_equal(np.where(known, codes, -1), _reference_codes(values, user))
    for unpackable in (np.array(["aĀ", "b"]), np.array(["abcdefghi", "a"])):
        assert _packed_keys(unpackable) is None
        assert np.array_equal(column_categories(unpackable), np.unique(unpackable))
    empty = np.array([], dtype="U4")
    assert column_categories(empty).shape == (0,)


def test_short_str_encoders_match_sklearn_on_the_car_table():
    table = np.loadtxt(DATA / "car_evaluation" / "car.data", dtype=str, delimiter=",")
    ours, ref = OneHotEncoder().fit(table), skp.OneHotEncoder().fit(table)
    for a, b in zip(ours.categories_, ref.categories_):
        assert np.array_equal(a, b) and a.dtype == b.dtype
    assert np.array_equal(ours.transform(table).toarray(), ref.transform(table).toarray())
    o = OrdinalEncoder().fit(table)
    assert np.array_equal(o.transform(table), skp.OrdinalEncoder().fit(table).transform(table))

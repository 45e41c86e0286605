"""load_csv: round trips, kinds, target selection, and every malformed-file error with its
file name and 1-based line number."""

import gzip
import re

import hypothesis.extra.numpy as hnp
import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from scratchlearn.datasets import load_csv, load_iris, load_mushroom


def write(tmp_path, text, name="data.csv", mode="w"):
    p = tmp_path / name
    if mode == "wb":
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def test_numeric_round_trip_of_iris(tmp_path):
    iris = load_iris()
    header = ",".join(iris.feature_names + ["species"])
    rows = [
        ",".join([repr(float(v)) for v in x] + [iris.target_names[t]])
        for x, t in zip(iris.data, iris.target)
    ]
    p = write(tmp_path, header + "\n" + "\n".join(rows) + "\n")
    b = load_csv(p)
    assert b.kind == "numeric" and b.task == "classification"
    np.testing.assert_array_equal(b.data, iris.data)  # repr round-trips float64 exactly
    np.testing.assert_array_equal(b.target, iris.target)  # sorted names = iris order
    assert b.target_names == iris.target_names
    assert b.feature_names == iris.feature_names and b.target_column == "species"
    assert b.filename == str(p) and str(p) in b.DESCR


def test_numeric_target_and_column_choice(tmp_path):
    p = write(tmp_path, "a,b,y,c\n1,2,0.5,3\n4,5,1.5,6\n")
    b = load_csv(p, target="y")
    np.testing.assert_array_equal(b.data, [[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(b.target, [0.5, 1.5])
    assert b.target.dtype == np.float64 and b.target_names is None and b.task is None
    assert b.feature_names == ["a", "b", "c"]
    for t in (2, -2):
        np.testing.assert_array_equal(load_csv(p, target=t).target, [0.5, 1.5])
    assert load_csv(p).target_column == "c"


def test_categorical_round_trip_of_mushroom(tmp_path):
    m = load_mushroom()
    rows = [",".join([m.target_names[t]] + list(x)) for x, t in zip(m.data[:300], m.target)]
    p = write(tmp_path, "\n".join(rows) + "\n", name="m.data")
    b = load_csv(p, target=0, header=False)
    assert b.kind == "categorical" and b.data.dtype == object
    np.testing.assert_array_equal(b.data, m.data[:300])
    np.testing.assert_array_equal(b.target, m.target[:300])
    assert b.feature_names == [f"column_{j}" for j in range(1, 23)]
    assert b.target_column == "column_0"


def test_mixed_columns_are_read_one_by_one_and_blank_lines_skipped(tmp_path):
    # issue 22: one text column used to turn every column, the numbers too, into strings
    p = write(tmp_path, "x1, colour ,n,y\n1.5, red ,,yes\n\n2,blue,7,no\n   \n")
    b = load_csv(p)
    assert b.kind == "mixed" and b.data.dtype == object
    assert b.data[:, [0, 1]].tolist() == [[1.5, "red"], [2.0, "blue"]]
    assert [type(v) for v in b.data[0]] == [float, str, float]
    assert np.isnan(b.data[0, 2]) and b.data[1, 2] == 7.0  # empty in a numeric column: NaN
    assert b.feature_names == ["x1", "colour", "n"] and b.categorical_features == ["colour"]
    assert b.target.tolist() == [1, 0] and b.target_names == ["no", "yes"]


def test_a_users_file_with_one_text_column_keeps_its_numbers(tmp_path):
    """The file of issue 22 (numeric x, text colour, label x > 50): x stays a number."""
    rng = np.random.default_rng(0)
    x = np.round(rng.uniform(0, 100, 40), 1)
    colour = rng.choice(["red", "green", "blue"], 40)
    rows = [f"{v},{c},{'yes' if v > 50 else 'no'}" for v, c in zip(x, colour)]
    b = load_csv(write(tmp_path, "x,color,label\n" + "\n".join(rows) + "\n"))
    assert b.kind == "mixed" and b.categorical_features == ["color"]
    np.testing.assert_array_equal(b.data[:, 0].astype(float), x)
    assert b.data[:, 1].tolist() == colour.tolist()
    assert "2 mixed feature columns" in b.DESCR
    numeric_only = load_csv(write(tmp_path, "a,b\n1,x\n", name="n.csv"))
    categorical_only = load_csv(write(tmp_path, "a,b\nu,x\n", name="c.csv"))
    assert numeric_only.categorical_features == [] and numeric_only.kind == "numeric"
    assert categorical_only.categorical_features == ["a"] and categorical_only.kind == "categorical"


def test_mixed_columns_as_frame_keep_numeric_dtypes(tmp_path):
    pytest.importorskip("pandas")
    p = write(tmp_path, "x,colour,y\n1.5,red,yes\n2,blue,no\n")
    f = load_csv(p, as_frame=True)
    assert str(f.data.dtypes["x"]) == "float64" and str(f.frame.dtypes["x"]) == "float64"
    assert f.data["colour"].tolist() == ["red", "blue"]
    X, _ = load_csv(p, as_frame=True, return_X_y=True)
    assert str(X.dtypes["x"]) == "float64"


def test_empty_numeric_cells_become_nan_and_quotes_delimiters_gz_bom(tmp_path):
    p = write(tmp_path, '\ufeff"a";"b";"t"\n1;;x\n"2";3;y\n', name="q.csv")
    b = load_csv(p, delimiter=";")
    assert b.feature_names == ["a", "b"]
    np.testing.assert_array_equal(b.data, [[1.0, np.nan], [2.0, 3.0]])
    gz = tmp_path / "q.csv.gz"
    gz.write_bytes(gzip.compress(p.read_bytes()))
    np.testing.assert_array_equal(load_csv(gz, delimiter=";").data, b.data)
    t = write(tmp_path, "a\tb\n1\t2\n", name="t.tsv")
    assert load_csv(t, delimiter="\t").target.tolist() == [2.0]


def test_as_frame_and_return_X_y(tmp_path):
    pd = pytest.importorskip("pandas")
    p = write(tmp_path, "a,b,label\n1,2,u\n3,4,v\n")
    X, y = load_csv(p, return_X_y=True)
    assert X.shape == (2, 2) and y.tolist() == [0, 1]
    f = load_csv(p, as_frame=True).frame
    assert isinstance(f, pd.DataFrame) and list(f.columns) == ["a", "b", "label"]


def expect_error(path, line, msg, **kw):
    pattern = re.escape(f"{path}, line {line}: ") + msg
    with pytest.raises(ValueError, match=pattern):
        load_csv(path, **kw)


def test_error_ragged_rows(tmp_path):
    p = write(tmp_path, "a,b,c\n1,2,3\n4,5\n6,7,8\n")
    expect_error(p, 3, r"expected 3 fields \(as on line 1\), found 2")
    p = write(tmp_path, "a,b\n1,2\n\n3,4,5\n", name="r2.csv")
    expect_error(p, 4, "expected 2 fields", header=False)


def test_error_line_numbers_count_physical_lines(tmp_path):
    # a quoted field spanning two lines: the bad record that follows starts on line 4
    p = write(tmp_path, 'a,b\n"multi\nline",1\n1,2,3\n')
    expect_error(p, 4, "expected 2 fields")


def test_error_unreadable_missing_empty(tmp_path):
    missing = tmp_path / "nope.csv"
    expect_error(missing, 1, "cannot read the file")
    expect_error(tmp_path, 1, "cannot read the file")  # a directory
    expect_error(write(tmp_path, "", name="e.csv"), 1, "the file is empty")
    expect_error(write(tmp_path, "\n \n", name="e2.csv"), 1, "the file is empty")
    expect_error(write(tmp_path, "a,b\n", name="h.csv"), 1, "a header but no data rows")


def test_error_not_utf8(tmp_path):
    p = write(tmp_path, b"a,b\n1,2\n3,\xff\n", name="bin.csv", mode="wb")
    expect_error(p, 3, "not UTF-8 text")
    g = write(tmp_path, b"not gzip", name="bad.csv.gz", mode="wb")
    expect_error(g, 1, "not a readable gzip file")


def test_error_malformed_quotes(tmp_path):
    p = write(tmp_path, 'a,b\n1,2\n"3,4\n')
    expect_error(p, 3, "malformed record")


def test_error_target_column(tmp_path):
    p = write(tmp_path, "a,b\n1,2\n")
    expect_error(p, 1, r"no column named 'y'; columns are \['a', 'b'\]", target="y")
    expect_error(p, 1, "target column index 2 is out of range for a file of 2 columns", target=2)
    expect_error(p, 1, "target column index -3 is out of range", target=-3)
    expect_error(p, 1, "target='a' is a column name but header=False", target="a", header=False)
    with pytest.raises(TypeError, match="target must be None"):
        load_csv(p, target=1.0)


def test_error_single_column_duplicate_names_empty_target(tmp_path):
    expect_error(write(tmp_path, "a\n1\n2\n", name="one.csv"), 1, "need at least two columns")
    expect_error(write(tmp_path, "a,a,y\n1,2,3\n", name="dup.csv"), 1, "duplicate column name 'a'")
    expect_error(
        write(tmp_path, "a,y\n1,u\n2,\n", name="t.csv"), 3, "empty value in target column 'y'"
    )


def test_bad_arguments(tmp_path):
    p = write(tmp_path, "a,b\n1,2\n")
    with pytest.raises(ValueError, match="delimiter must be one character"):
        load_csv(p, delimiter=";;")
    with pytest.raises(ValueError, match="'header' parameter of load_csv"):
        load_csv(p, header="yes")


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    X=hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=6),
        elements=st.floats(allow_nan=False, allow_infinity=False, width=64),
    ),
    labels=st.lists(st.sampled_from(["a", "b b", "c,d", 'q"uote']), min_size=6, max_size=6),
)
def test_property_round_trip(tmp_path, X, labels):
    import csv

    y = np.array(labels[: X.shape[0]], dtype=object)
    p = tmp_path / "prop.csv"
    with open(p, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow([f"f{j}" for j in range(X.shape[1])] + ["label"])
        for row, lab in zip(X, y):
            w.writerow([repr(float(v)) for v in row] + [lab])
    b = load_csv(p)
    np.testing.assert_array_equal(b.data, X)  # repr of a float64 parses back exactly
    assert [b.target_names[t] for t in b.target] == list(y)
    assert b.target_names == sorted(set(y))

"""A user's own CSV on the command line (issue 22): columns read one by one, missing values
refused before any work by file, line and column, and prediction files whose first line is data
or whose columns do not match the model's."""

from __future__ import annotations

import re

import numpy as np
import pytest

from scratchlearn.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, out, err):
    """The message of a user error: one line on stderr, status 2, no traceback."""
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("scratchlearn: error: ")
    return lines[0].removeprefix("scratchlearn: error: ")


def accuracy(out):
    return float(re.search(r"^\s+accuracy\s+([0-9.]+)$", out, re.MULTILINE).group(1))


@pytest.fixture
def users_file(tmp_path):
    """The file of the report: numeric x, text color, label = x > 50 (100 rows)."""
    rng = np.random.default_rng(0)
    x = np.round(rng.uniform(0, 100, 100), 1)
    color = rng.choice(["red", "green", "blue"], 100)
    rows = [f"{v},{c},{'yes' if v > 50 else 'no'}" for v, c in zip(x, color)]
    path = tmp_path / "user.csv"
    path.write_text("x,color,label\n" + "\n".join(rows) + "\n")
    return path


# -- 1. numeric or categorical, column by column -------------------------------------------------
def test_one_text_column_leaves_the_numbers_numbers(capsys, users_file):
    """Before: x was one-hot encoded with color (every x its own category), accuracy 0.56."""
    code, out, err = run(capsys, "fit", "decision-tree-classifier", "--data", users_file)
    assert code == 0, err
    assert "columns read as categories: color (3 values); the other 1 column as numbers" in out
    assert "(100 samples, 2 mixed features; classifier)" in out
    assert accuracy(out) == 1.0  # x > 50 is one threshold on x
    notes = [ln for ln in err.splitlines() if ln.startswith("note:")]
    assert notes == [
        "note: DecisionTreeClassifier takes numbers, so the columns of categories go through "
        "OneHotEncoder(handle_unknown='ignore') first; the numeric columns stay numbers"
    ]


def test_a_mixed_model_saves_and_predicts_by_column_name(capsys, tmp_path, users_file):
    model = tmp_path / "m.slm"
    code, _, err = run(capsys, "fit", "logistic-regression", "--data", users_file, "--save", model)
    assert code == 0, err
    rows = tmp_path / "new.csv"  # columns swapped, an id column, an unseen colour
    rows.write_text("color,id,x\nred,1,70\nblue,2,20.5\npurple,3,99\ngreen,4,3\n")
    code, out, err = run(capsys, "predict", model, "--data", rows)
    assert code == 0, err
    assert out.split() == ["yes", "no", "yes", "no"]
    assert "note: " in err and "columns not used by the model: id" in err


def test_an_estimator_that_reads_categories_is_told_numbers_are_categories(capsys, tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("n,shape,y\n" + "".join(f"{i % 3},{'ab'[i % 2]},{i % 3}\n" for i in range(30)))
    code, out, err = run(capsys, "fit", "id3-classifier", "--data", path)
    assert code == 0, err
    assert "columns read as categories: shape (2 values)" in out
    assert "reads every column as categories, the numeric ones too" in err
    assert accuracy(out) == 1.0


def test_a_column_of_numbers_but_for_a_marker_is_pointed_out(capsys, tmp_path):
    path = tmp_path / "na.csv"
    path.write_text("age,y\n" + "".join(f"{20 + i},{i % 2}\n" for i in range(8)) + "NA,1\n")
    code, out, err = run(capsys, "fit", "gaussian-nb", "--data", path, "--test-size", "0")
    assert code == 0, err
    assert "columns read as categories: age (9 values, all numbers but 'NA')" in out


# -- 2. missing values, before any work ----------------------------------------------------------
def test_a_missing_value_is_refused_before_any_work(capsys, tmp_path):
    """Before: the model and the split were printed, then 'Input X contains NaN in column 1.'"""
    path = tmp_path / "nan.csv"
    path.write_text("a,b,y\n1,2,3\n4,,6\n7,8,10\n2,2,2\n5,5,5\n6,1,7\n")
    code, out, err = run(capsys, "fit", "ridge", "--data", path)
    assert out == ""
    assert one_line_error(code, out, err) == (
        f"{path}, line 3: no value in column 'b'; scratchlearn's estimators do not accept "
        "missing values: drop or fill those rows"
    )


def test_missing_values_are_counted_and_their_lines_listed(capsys, tmp_path):
    path = tmp_path / "holes.csv"
    rows = [f"{i},{'' if i % 3 == 0 else 'red'},{i % 2}" for i in range(1, 21)]
    rows[0] = "nan,red,1"  # the text 'nan' in a column of numbers is missing too
    path.write_text("x,color,y\n" + "\n".join(rows) + "\n")
    code, out, err = run(capsys, "fit", "logistic-regression", "--data", path)
    assert out == ""
    message = one_line_error(code, out, err)
    assert message.startswith(f"{path}, line 2: column 'x' holds 'nan', not a finite number; ")
    assert "7 rows have missing values (lines 2, 4, 7, 10, 13, ...; columns x, color)" in message
    assert message.endswith("drop or fill those rows")


def test_no_registered_predictor_accepts_missing_values():
    """The fix the message gives ('drop or fill those rows') is the only one there is."""
    from scratchlearn._registry import all_estimators

    takes_nan = [
        e.name
        for e in all_estimators()
        if e.task in ("classifier", "regressor", "clusterer", "ranker")
        and e.cls()._scratch_tags()["allow_nan"]
    ]
    assert takes_nan == [], "name these estimators in cli/_data.py's _MISSING_FIX"


def test_an_empty_document_is_not_a_missing_value(capsys, tmp_path):
    path = tmp_path / "sms.csv"
    docs = ["win a free prize now", "see you at lunch today", "", "claim your cash prize now"]
    path.write_text(
        "message,label\n" + "".join(f"{d},{'ab'[i % 2]}\n" for i, d in enumerate(docs * 3))
    )
    code, out, err = run(capsys, "fit", "multinomial-nb", "--data", path, "--test-size", "0")
    assert code == 0, err


# -- 3. prediction files ---------------------------------------------------------------------------
@pytest.fixture
def numeric_model(capsys, tmp_path):
    path = tmp_path / "ab.csv"
    path.write_text("a,b,y\n" + "".join(f"{i},{i % 5},{2 * i + 1}\n" for i in range(20)))
    model = tmp_path / "ab.slm"
    assert main(["fit", "linear-regression", "--data", str(path), "--save", str(model)]) == 0
    capsys.readouterr()
    return model


def test_a_header_less_file_is_read_as_data_with_a_warning(capsys, tmp_path, numeric_model):
    """Before: line 1 was taken for the header of a one-column model: one prediction lost."""
    one = tmp_path / "one.csv"
    one.write_text(
        "x,label\n" + "".join(f"{v},{'yes' if v > 50 else 'no'}\n" for v in range(0, 100, 7))
    )
    model = tmp_path / "one.slm"
    assert main(["fit", "decision-tree-classifier", "--data", str(one), "--save", str(model)]) == 0
    capsys.readouterr()
    rows = tmp_path / "rows.csv"
    rows.write_text("12\n70\n55\n")
    code, out, err = run(capsys, "predict", model, "--data", rows)
    assert code == 0, err
    assert out.split() == ["no", "yes", "yes"]
    assert err.strip() == (
        f"warning: {rows}, line 1 holds numbers, not column names: read as data, in the model's "
        "column order: x"
    )
    two = tmp_path / "two.csv"
    two.write_text("3,1\n10,0\n")
    code, out, err = run(capsys, "predict", numeric_model, "--data", two)
    assert code == 0, err
    np.testing.assert_allclose([float(v) for v in out.split()], [7.0, 21.0], atol=1e-8)
    assert "line 1 holds numbers, not column names" in err and "column order: a, b" in err


def test_a_header_less_file_of_the_wrong_width_is_an_error(capsys, tmp_path, numeric_model):
    rows = tmp_path / "rows.csv"
    rows.write_text("3,1,5\n10,0,5\n")
    message = one_line_error(*run(capsys, "predict", numeric_model, "--data", rows))
    assert message == (
        f"{rows}, line 1: this looks like data, not a header line (the model needs 2 columns: "
        "a, b); start the file with a header line naming them"
    )


def test_a_header_less_file_of_documents_is_read_as_data(capsys, tmp_path):
    path = tmp_path / "sms.csv"
    docs = ["win a free prize now", "see you at lunch today"] * 6
    path.write_text(
        "message,label\n" + "".join(f"{d},{'spam' if 'prize' in d else 'ham'}\n" for d in docs)
    )
    model = tmp_path / "sms.slm"
    assert main(["fit", "multinomial-nb", "--data", str(path), "--save", str(model)]) == 0
    capsys.readouterr()
    rows = tmp_path / "msgs.csv"
    rows.write_text("claim your free prize\nlunch today\n")
    code, out, err = run(capsys, "predict", model, "--data", rows)
    assert code == 0, err
    assert out.split() == ["spam", "ham"]
    assert "line 1 holds a document, not column names" in err


def test_columns_that_do_not_match_are_named(capsys, tmp_path, numeric_model):
    rows = tmp_path / "rows.csv"
    rows.write_text("A,b,id\n1,2,3\n")
    message = one_line_error(*run(capsys, "predict", numeric_model, "--data", rows))
    assert message == (
        f"{rows}: no column 'a', which the model needs (missing 1 of its 2 columns: a; columns "
        "the model does not know: A, id)"
    )


def test_prediction_files_with_holes_or_words_name_line_and_column(capsys, tmp_path, numeric_model):
    holes = tmp_path / "holes.csv"
    holes.write_text("b,a\n1,2\n,3\n")
    message = one_line_error(*run(capsys, "predict", numeric_model, "--data", holes))
    assert message.startswith(f"{holes}, line 3: no value in column 'b'; ")
    words = tmp_path / "words.csv"
    words.write_text("a,b\n1,2\n3,four\n")
    message = one_line_error(*run(capsys, "predict", numeric_model, "--data", words))
    assert message == f"{words}, line 3: column 'b' holds 'four', but the model needs numbers"


# -- the converter in front of the model -----------------------------------------------------------
def test_mixed_columns_one_hot_in_place_and_read_raw_strings(tmp_path):
    from scratchlearn import io
    from scratchlearn.base import clone
    from scratchlearn.cli._data import MixedColumns

    X = np.array([[1.5, "red", 3.0], [2.0, "blue", 4.0], [0.5, "red", 5.0]], dtype=object)
    conv = MixedColumns().fit(X)
    assert conv.categorical_.tolist() == [False, True, False]
    expected = [[1.5, 0, 1, 3], [2.0, 1, 0, 4], [0.5, 0, 1, 5]]  # blue, red between the numbers
    np.testing.assert_array_equal(conv.transform(X), expected)
    raw = np.array([["1.5", "red", "3"], ["2", "blue", "4"], ["0.5", "green", "5"]], dtype=object)
    np.testing.assert_array_equal(conv.transform(raw)[:2], expected[:2])
    np.testing.assert_array_equal(conv.transform(raw)[2], [0.5, 0, 0, 5])  # unseen: zeros
    names = conv.get_feature_names_out(["x", "colour", "z"]).tolist()
    assert names == ["x", "colour_blue", "colour_red", "z"]
    kept = MixedColumns(one_hot=False).fit(X).transform(raw)
    assert kept.tolist() == [[1.5, "red", 3.0], [2.0, "blue", 4.0], [0.5, "green", 5.0]]
    assert clone(conv).get_params() == {"one_hot": True}
    io.save(conv, tmp_path / "c.slm")
    np.testing.assert_array_equal(io.load(tmp_path / "c.slm").transform(raw), conv.transform(raw))
    with pytest.raises(ValueError, match="column 0 holds 'x', but it held numbers"):
        conv.transform(np.array([["x", "red", "1"]], dtype=object))

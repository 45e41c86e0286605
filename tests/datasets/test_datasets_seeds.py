"""The seeds' worked-example tables reproduce the exact numbers of SPEC.md (seed errata)."""

from fractions import Fraction

import numpy as np
import pytest

import scratchlearn.datasets as D


def entropy(y):
    """H = -sum p_k log2 p_k over the classes present."""
    p = np.bincount(y) / len(y)
    p = p[p > 0]
    return float(-(p * np.log2(p)).sum())


def info_gain(x, y):
    """H(y) - sum_v |y_v|/|y| H(y_v) for a categorical column x."""
    return entropy(y) - sum((x == v).mean() * entropy(y[x == v]) for v in np.unique(x))


def gini(y):
    p = np.bincount(y) / len(y)
    return float(1.0 - (p**2).sum())


def weighted_gini(x, y):
    return sum((x == v).mean() * gini(y[x == v]) for v in np.unique(x))


def gains(b, rows=slice(None)):
    X, y = b.data[rows], b.target[rows]
    return {f: info_gain(X[:, j], y) for j, f in enumerate(b.feature_names)}


def test_play_tennis_14_root():
    b = D.load_play_tennis()
    assert b.data.shape == (14, 4) and b.row_ids == list(range(1, 15))
    assert b.target_names == ["No", "Yes"]
    # the seed prints 6 decimals: half a unit of the last one (also for the gains below)
    assert entropy(b.target) == pytest.approx(0.940286, abs=5e-7)
    g = gains(b)
    # SPEC.md quotes six decimals: agree to half a unit in the last place
    expected = {
        "Outlook": 0.246750,
        "Humidity": 0.151836,
        "Wind": 0.048127,
        "Temperature": 0.029223,
    }
    for f, v in expected.items():
        assert g[f] == pytest.approx(v, abs=5e-7), f
    assert max(g, key=g.get) == "Outlook"


def test_play_tennis_6_root_and_rain_subset():
    b = D.load_play_tennis(n_rows=6)
    assert b.data.shape == (6, 4)
    np.testing.assert_array_equal(b.data, D.load_play_tennis().data[:6])
    assert entropy(b.target) == 1.0
    g = gains(b)
    expected = {"Outlook": 0.540852, "Wind": 0.459148, "Temperature": 0.207519, "Humidity": 0.0}
    for f, v in expected.items():
        assert g[f] == pytest.approx(v, abs=5e-7), f
    rain = b.data[:, 0] == "Rain"
    assert np.asarray(b.row_ids)[rain].tolist() == [4, 5, 6]
    g_rain = gains(b, rain)
    expected = {"Wind": 0.918296, "Temperature": 0.251629, "Humidity": 0.251629}
    for f, v in expected.items():
        assert g_rain[f] == pytest.approx(v, abs=5e-7), f
    # the correct tree: Sunny -> No, Overcast -> Yes, Rain -> Wind (Weak Yes, Strong No)
    y = b.target
    assert set(y[b.data[:, 0] == "Sunny"]) == {0} and set(y[b.data[:, 0] == "Overcast"]) == {1}
    wind = b.data[rain, 3]
    assert set(y[rain][wind == "Weak"]) == {1} and set(y[rain][wind == "Strong"]) == {0}


def test_play_tennis_dataset_names_and_n_rows_check():
    assert D.load_dataset("play_tennis_6").data.shape == (6, 4)
    assert D.load_dataset("play_tennis").data.shape == (14, 4)
    assert "0.940286" in D.load_play_tennis().DESCR
    assert "0.540852" in D.load_play_tennis(n_rows=6).DESCR
    with pytest.raises(ValueError, match="'n_rows' parameter of load_play_tennis"):
        D.load_play_tennis(n_rows=7)


def test_edible_plants_gini():
    b = D.load_edible_plants()
    assert b.feature_names == ["Color", "Size"] and b.data.shape == (6, 2)
    X, y = b.data, b.target
    assert gini(y) == 0.5
    assert gini(y[X[:, 0] == "Red"]) == 0.0 and gini(y[X[:, 0] == "Green"]) == 0.0
    assert weighted_gini(X[:, 0], y) == 0.0
    assert weighted_gini(X[:, 1], y) == pytest.approx(0.5, abs=1e-15)
    # tree: Color -> {Green: Yes, Red: No}
    assert set(y[X[:, 0] == "Green"]) == {1} and set(y[X[:, 0] == "Red"]) == {0}


def test_spam_emails_naive_bayes_scores():
    b = D.load_spam_emails()
    assert b.kind == "text" and b.target_names == ["Not Spam", "Spam"]
    assert b.new_document == "cheap project meds"
    vocab = sorted({w for doc in b.data for w in doc.split()})
    assert len(vocab) == 9
    scores = {}
    for c, name in enumerate(b.target_names):
        words = [w for doc, t in zip(b.data, b.target) if t == c for w in doc.split()]
        assert len(words) == 6
        prior = Fraction(int((b.target == c).sum()), len(b.target))
        like = [
            Fraction(words.count(w) + 1, len(words) + len(vocab)) for w in b.new_document.split()
        ]
        scores[name] = prior * like[0] * like[1] * like[2]
    assert scores["Spam"] == Fraction(1, 750)
    assert scores["Not Spam"] == Fraction(1, 3375)
    # the seed prints 8 decimals: half a unit of the last one
    assert float(scores["Spam"]) == pytest.approx(0.00133333, abs=5e-9)
    assert float(scores["Not Spam"]) == pytest.approx(0.00029630, abs=5e-9)


def test_student_pass_table_and_max_margin():
    b = D.load_student_pass()
    np.testing.assert_array_equal(b.data, [[2, 60], [8, 90], [3, 70], [7, 85], [5, 80]])
    assert b.target.tolist() == [0, 1, 0, 1, 1] and b.row_ids == list("ABCDE")
    np.testing.assert_array_equal(b.new_sample, [[6.0, 75.0]])
    # the max-margin solution quoted in DESCR: w = (1, 5)/26, b = -379/26, support C and E
    w, b0 = np.array([1.0, 5.0]) / 26, -379 / 26
    s = 2 * b.target - 1
    margins = s * (b.data @ w + b0)
    assert margins.min() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(margins[[2, 4]], 1.0, atol=1e-12)  # C and E on the margin
    # optimality: w is parallel to x_E - x_C, the only pair of opposite-class support vectors
    d = b.data[4] - b.data[2]
    np.testing.assert_allclose(w, 2 * d / (d @ d), rtol=1e-15)
    assert b.new_sample[0] @ w + b0 == pytest.approx(1 / 13, abs=1e-12)


def test_student_pass_max_margin_matches_sklearn():
    svm = pytest.importorskip("sklearn.svm")
    b = D.load_student_pass()
    clf = svm.SVC(kernel="linear", C=1e8, tol=1e-10).fit(b.data, b.target)
    # SMO stops on tol = 1e-10 in the KKT conditions; 1e-6 leaves ample room
    np.testing.assert_allclose(clf.coef_.ravel(), [1 / 26, 5 / 26], rtol=1e-6)
    np.testing.assert_allclose(clf.intercept_, [-379 / 26], rtol=1e-6)
    assert sorted(clf.support_.tolist()) == [2, 4]


def test_xor_table():
    b = D.load_xor()
    np.testing.assert_array_equal(b.data, [[1, -1], [-1, 1], [1, 1], [-1, -1]])
    assert b.target_names == ["-1", "+1"] and b.row_ids == list("ABCD")
    # class +1 (code 1) exactly where the signs differ, i.e. x1 * x2 = -1
    np.testing.assert_array_equal(b.target, (b.data[:, 0] * b.data[:, 1] < 0).astype(int))
    # not linearly separable: least squares on [1, x1, x2] predicts 0.5 everywhere
    A = np.column_stack([np.ones(4), b.data])
    coef = np.linalg.lstsq(A, b.target.astype(float), rcond=None)[0]
    np.testing.assert_allclose(A @ coef, 0.5, atol=1e-15)


def test_seed_tables_are_fresh_copies():
    b = D.load_play_tennis()
    b.data[0, 0] = "Snow"
    b.row_ids.append(99)
    again = D.load_play_tennis()
    assert again.data[0, 0] == "Sunny" and len(again.row_ids) == 14

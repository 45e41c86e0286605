"""Classification metrics: hand-checkable cases, scikit-learn oracles on real classifier
outputs for every option value, and bad input.

Tolerance: 1e-12 wherever scratchlearn and scikit-learn do the same arithmetic (sums of counts
and ratios of them; they differ at most in summation order), stated per test otherwise.
"""

import itertools
import warnings

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from scratchlearn import metrics as M
from scratchlearn.exceptions import UndefinedMetricWarning

TOL = 1e-12  # same arithmetic as scikit-learn (ratios of weighted counts)


def _fit_outputs(loader, C=1.0, test_every=3):
    X, y = loader(return_X_y=True)
    test = np.arange(y.shape[0]) % test_every == 0
    model = make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=2000))
    model.fit(X[~test], y[~test])
    weights = np.random.default_rng(0).uniform(0.1, 3.0, test.sum())
    return y[test], model.predict(X[test]), model.predict_proba(X[test]), weights


@pytest.fixture(scope="module")
def cancer():
    # A weak model (small C) so that both classes have errors and the ROC curve has ties.
    return _fit_outputs(load_breast_cancer, C=0.001)


@pytest.fixture(scope="module")
def wine():
    return _fit_outputs(load_wine, C=0.005)


@pytest.fixture(scope="module")
def digits():
    return _fit_outputs(load_digits, C=0.0005)


@pytest.fixture(scope="module")
def iris_strings():
    y, pred, proba, w = _fit_outputs(load_iris, C=0.05)
    names = np.array(["setosa", "versicolor", "virginica"])
    return names[y], names[pred], proba, w


# --- hand-checkable --------------------------------------------------------------------------


def test_two_by_two_by_hand():
    y_true = [1, 1, 1, 0, 0, 0, 0, 1]
    y_pred = [1, 1, 0, 0, 0, 1, 0, 1]
    # tp = 3, fn = 1, fp = 1, tn = 3
    assert M.confusion_matrix(y_true, y_pred).tolist() == [[3, 1], [1, 3]]
    assert M.confusion_matrix(y_true, y_pred).dtype == np.int64
    assert M.accuracy_score(y_true, y_pred) == 0.75
    assert M.accuracy_score(y_true, y_pred, normalize=False) == 6
    assert M.precision_score(y_true, y_pred) == 0.75
    assert M.recall_score(y_true, y_pred) == 0.75
    assert M.f1_score(y_true, y_pred) == 0.75
    # F2 = 5·3/(4·4 + 4) = 0.75 as well; with weights 2 on the first sample tp = 4, fn = 1, fp = 1
    w = [2, 1, 1, 1, 1, 1, 1, 1]
    assert M.precision_score(y_true, y_pred, sample_weight=w) == 0.8
    assert M.fbeta_score(y_true, y_pred, beta=2, sample_weight=w) == pytest.approx(
        5 * 4 / (4 * 5 + 5), abs=1e-15
    )
    assert M.confusion_matrix(y_true, y_pred, normalize="all").sum() == 1.0


def test_auc_with_ties_counts_one_half():
    # Positives score 0.5 and 0.8; negatives 0.5 and 0.2. Pairs: (0.5, 0.5) tie -> 1/2,
    # (0.5, 0.2) -> 1, (0.8, 0.5) -> 1, (0.8, 0.2) -> 1: AUC = 3.5/4.
    assert M.roc_auc_score([1, 1, 0, 0], [0.5, 0.8, 0.5, 0.2]) == 0.875
    # All scores equal: every pair ties, AUC = 1/2.
    assert M.roc_auc_score([0, 1, 0, 1, 1], [3, 3, 3, 3, 3]) == 0.5


def test_log_loss_by_hand():
    y = ["spam", "ham", "ham", "spam"]
    p = [[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]]
    expected = -np.mean(np.log([0.9, 0.9, 0.8, 0.65]))
    assert M.log_loss(y, p) == pytest.approx(expected, rel=1e-15)
    # A certain mistake costs −log ε, not infinity.
    assert M.log_loss([0, 1], [1.0, 1.0]) == pytest.approx(-np.log(np.finfo(float).eps) / 2)


def test_balanced_accuracy_by_hand():
    # recalls 1/2 (class 0) and 1 (class 1) -> 0.75; adjusted (0.75 − 0.5)/0.5 = 0.5
    assert M.balanced_accuracy_score([0, 0, 1, 1], [0, 1, 1, 1]) == 0.75
    assert M.balanced_accuracy_score([0, 0, 1, 1], [0, 1, 1, 1], adjusted=True) == 0.5


# --- oracles ---------------------------------------------------------------------------------


@pytest.mark.parametrize("data", ["cancer", "wine", "digits", "iris_strings"])
@pytest.mark.parametrize("weighted", [False, True])
def test_accuracy_confusion_oracle(data, weighted, request):
    y, pred, _, w = request.getfixturevalue(data)
    sw = w if weighted else None
    for normalize in (True, False):
        assert M.accuracy_score(y, pred, normalize=normalize, sample_weight=sw) == pytest.approx(
            skm.accuracy_score(y, pred, normalize=normalize, sample_weight=sw), rel=TOL
        )
    for adjusted in (False, True):
        assert M.balanced_accuracy_score(y, pred, sample_weight=sw, adjusted=adjusted) == (
            pytest.approx(
                skm.balanced_accuracy_score(y, pred, sample_weight=sw, adjusted=adjusted), rel=TOL
            )
        )
    labels = np.unique(y)
    for lab, norm in itertools.product(
        [None, labels[::-1], labels[:2]], [None, "true", "pred", "all"]
    ):
        ours = M.confusion_matrix(y, pred, labels=lab, sample_weight=sw, normalize=norm)
        theirs = skm.confusion_matrix(y, pred, labels=lab, sample_weight=sw, normalize=norm)
        assert ours.dtype == theirs.dtype
        np.testing.assert_allclose(ours, theirs, rtol=TOL, atol=TOL)


@pytest.mark.parametrize("data", ["cancer", "wine", "iris_strings"])
@pytest.mark.parametrize("average", [None, "binary", "micro", "macro", "weighted"])
@pytest.mark.parametrize("weighted", [False, True])
def test_prfs_oracle(data, average, weighted, request):
    y, pred, _, w = request.getfixturevalue(data)
    sw = w if weighted else None
    classes = np.unique(y)
    is_binary = classes.shape[0] == 2
    if average == "binary" and not is_binary:
        with pytest.raises(ValueError, match="average='binary'"):
            M.precision_score(y, pred, average=average)
        return
    label_sets = (
        [None, classes[::-1]] if average == "binary" else [None, classes[::-1], classes[1:]]
    )
    for labels, beta in itertools.product(label_sets, [0.5, 1.0, 2.0]):
        kw = dict(labels=labels, average=average, sample_weight=sw)
        if is_binary and average == "binary":
            kw["pos_label"] = classes[0]
        ours = M.precision_recall_fscore_support(y, pred, beta=beta, **kw)
        theirs = skm.precision_recall_fscore_support(y, pred, beta=beta, **kw)
        for a, b in zip(ours, theirs):
            if b is None:
                assert a is None
            else:
                np.testing.assert_allclose(a, b, rtol=TOL)
        if average is not None:
            assert isinstance(ours[0], float)
        for name in ("precision_score", "recall_score", "f1_score"):
            np.testing.assert_allclose(
                getattr(M, name)(y, pred, **kw), getattr(skm, name)(y, pred, **kw), rtol=TOL
            )
        np.testing.assert_allclose(
            M.fbeta_score(y, pred, beta=beta, **kw),
            skm.fbeta_score(y, pred, beta=beta, **kw),
            rtol=TOL,
        )


@pytest.mark.parametrize("zero_division", ["warn", 0, 1, np.nan])
@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
def test_zero_division_oracle(zero_division, average, wine):
    y, pred, _, _ = wine
    # Label 7 is never true nor predicted and class 2 is never predicted here: every ratio of
    # the two kinds is 0/0, and F of label 7 too.
    pred = np.where(pred == 2, 1, pred)
    labels = [0, 1, 2, 7]
    kw = dict(labels=labels, average=average, zero_division=zero_division)
    with warnings.catch_warnings(record=True) as ours_w:
        warnings.simplefilter("always")
        ours = M.precision_recall_fscore_support(y, pred, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = skm.precision_recall_fscore_support(y, pred, **kw)
    for a, b in zip(ours[:3], theirs[:3]):
        np.testing.assert_allclose(a, b, rtol=TOL)
    undefined = [w for w in ours_w if issubclass(w.category, UndefinedMetricWarning)]
    if zero_division == "warn" and average != "micro":
        assert undefined
    if zero_division != "warn":
        assert not undefined


@pytest.mark.parametrize("data", ["cancer", "wine", "iris_strings"])
@pytest.mark.parametrize("digits_", [2, 4])
def test_classification_report_oracle(data, digits_, request):
    y, pred, _, w = request.getfixturevalue(data)
    classes = np.unique(y)
    names = [f"class {c}" for c in classes]
    for kw in (dict(), dict(sample_weight=w), dict(target_names=names), dict(labels=classes[1:])):
        if "sample_weight" not in kw:
            # Exact text; with weights the support column prints a float sum whose last digit
            # depends on summation order, so that case is compared through output_dict below.
            assert M.classification_report(y, pred, digits=digits_, **kw) == (
                skm.classification_report(y, pred, digits=digits_, **kw)
            )
        ours = M.classification_report(y, pred, output_dict=True, **kw)
        theirs = skm.classification_report(y, pred, output_dict=True, **kw)
        assert ours.keys() == theirs.keys()
        for key in theirs:
            np.testing.assert_allclose(
                list(ours[key].values()) if isinstance(ours[key], dict) else ours[key],
                list(theirs[key].values()) if isinstance(theirs[key], dict) else theirs[key],
                rtol=TOL,
            )


@pytest.mark.parametrize("data", ["cancer", "wine", "digits", "iris_strings"])
def test_log_loss_oracle(data, request):
    y, _, proba, w = request.getfixturevalue(data)
    for sw, normalize in itertools.product([None, w], [True, False]):
        # Same clipping and the same sum of logarithms: 1e-12.
        assert M.log_loss(y, proba, sample_weight=sw, normalize=normalize) == pytest.approx(
            skm.log_loss(y, proba, sample_weight=sw, normalize=normalize), rel=TOL
        )
    if proba.shape[1] == 2:
        assert M.log_loss(y, proba[:, 1]) == pytest.approx(skm.log_loss(y, proba[:, 1]), rel=TOL)
    # labels= lets a subset of y_true (one class) be scored.
    classes = np.unique(y)
    first = y == classes[0]
    assert M.log_loss(y[first], proba[first], labels=classes) == pytest.approx(
        skm.log_loss(y[first], proba[first], labels=classes), rel=TOL
    )
    # float32 probabilities are clipped with float32's epsilon
    p32 = proba.astype(np.float32)
    assert M.log_loss(y, p32) == pytest.approx(skm.log_loss(y, p32), rel=1e-6)  # float32 sums


def test_roc_binary_oracle(cancer):
    y, _, proba, w = cancer
    score = proba[:, 1]
    rounded = np.round(score, 1)  # many ties
    for s, sw in itertools.product([score, rounded], [None, w]):
        # Rank statistic vs scikit-learn's trapezoid: same quantity, different summation: 1e-12
        assert M.roc_auc_score(y, s, sample_weight=sw) == pytest.approx(
            skm.roc_auc_score(y, s, sample_weight=sw), rel=TOL
        )
        for max_fpr in (0.1, 0.5, 1.0):
            assert M.roc_auc_score(y, s, sample_weight=sw, max_fpr=max_fpr) == pytest.approx(
                skm.roc_auc_score(y, s, sample_weight=sw, max_fpr=max_fpr), rel=TOL
            )
        for drop in (True, False):
            ours = M.roc_curve(y, s, sample_weight=sw, drop_intermediate=drop)
            theirs = skm.roc_curve(y, s, sample_weight=sw, drop_intermediate=drop)
            for a, b in zip(ours, theirs):
                np.testing.assert_allclose(a, b, rtol=TOL, atol=TOL)
    # pos_label flips the curve
    ours = M.roc_curve(y, score, pos_label=0)
    theirs = skm.roc_curve(y, score, pos_label=0)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=TOL, atol=TOL)
    # string labels: the greater label is positive
    ys = np.array(["benign", "malignant"])[y]
    assert M.roc_auc_score(ys, score) == pytest.approx(skm.roc_auc_score(ys, score), rel=TOL)


@pytest.mark.parametrize("data", ["wine", "digits", "iris_strings"])
@pytest.mark.parametrize("multi_class", ["ovr", "ovo"])
@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
def test_roc_multiclass_oracle(data, multi_class, average, request):
    y, _, proba, w = request.getfixturevalue(data)
    kw = dict(multi_class=multi_class, average=average)
    if multi_class == "ovo" and average not in ("macro", "weighted"):
        with pytest.raises(ValueError, match="average"):
            M.roc_auc_score(y, proba, **kw)
        return
    for sw in [None] if multi_class == "ovo" else [None, w]:
        np.testing.assert_allclose(
            M.roc_auc_score(y, proba, sample_weight=sw, **kw),
            skm.roc_auc_score(y, proba, sample_weight=sw, **kw),
            rtol=TOL,
        )
    classes = np.unique(y)
    np.testing.assert_allclose(
        M.roc_auc_score(y, proba, labels=classes, **kw),
        skm.roc_auc_score(y, proba, labels=classes, **kw),
        rtol=TOL,
    )


# --- bad input -------------------------------------------------------------------------------


def test_bad_input():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        M.accuracy_score([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        M.f1_score([0, 1, np.nan], [0, 1, 1])
    with pytest.raises(ValueError, match="discrete labels"):
        M.accuracy_score([0, 1, 1], [0.2, 0.7, 0.9])
    with pytest.raises(ValueError, match="same type"):
        M.accuracy_score(["a", "b"], [0, 1])
    with pytest.raises(ValueError, match="Only one class"):
        M.roc_auc_score([1, 1, 1], [0.1, 0.5, 0.9])
    with pytest.raises(ValueError, match="multi_class"):
        M.roc_auc_score([0, 1, 2], np.eye(3))
    with pytest.raises(ValueError, match="sum up to 1"):
        M.roc_auc_score([0, 1, 2], 2 * np.eye(3), multi_class="ovr")
    with pytest.raises(ValueError, match="y_score must be 1-D"):
        M.roc_auc_score([0, 1], [[0.9, 0.1], [0.2, 0.8]])
    with pytest.raises(ValueError, match="NaN"):
        M.roc_auc_score([0, 1], [0.1, np.nan])
    with pytest.raises(ValueError, match="pos_label=2 is not a valid label"):
        M.precision_score([0, 1], [1, 1], pos_label=2)
    with pytest.raises(ValueError, match="average has to be one of"):
        M.recall_score([0, 1], [1, 1], average="samples")
    with pytest.raises(ValueError, match="zero_division"):
        M.f1_score([0, 1], [1, 1], zero_division=2)
    with pytest.raises(ValueError, match="At least one label"):
        M.confusion_matrix([0, 1], [1, 1], labels=[5])
    with pytest.raises(ValueError, match="only one label"):
        M.log_loss([1, 1], [0.5, 0.5])
    with pytest.raises(ValueError, match="different number of classes"):
        M.log_loss([0, 1, 2], [[0.5, 0.5]] * 3)
    with pytest.raises(ValueError, match="greater than 1"):
        M.log_loss([0, 1], [0.5, 1.5])
    with pytest.warns(UserWarning, match="do not sum to one"):
        M.log_loss([0, 1], [[0.5, 0.6], [0.1, 0.9]])
    with pytest.raises(ValueError, match="Negative"):
        M.accuracy_score([0, 1], [0, 1], sample_weight=[1, -1])
    with pytest.raises(ValueError, match="pos_label is not specified"):
        M.roc_curve(["a", "b"], [0.1, 0.2])
    with pytest.warns(UndefinedMetricWarning, match="No negative samples"):
        M.roc_curve([1, 1], [0.1, 0.2])
    # These three once escaped as an IndexError from deep inside, or were silently accepted.
    for empty in (M.log_loss, M.roc_auc_score, M.roc_curve):
        with pytest.raises(ValueError, match="empty input"):
            empty([], [])
    with pytest.raises(ValueError, match="average must be one of"):
        M.roc_auc_score([0, 1], [0.1, 0.2], average="mean")
    # the string "False" is truthy: it once gave the normalised score instead of the count
    with pytest.raises(ValueError, match="normalize must be True or False"):
        M.accuracy_score([0, 1], [0, 0], normalize="False")
    with pytest.raises(ValueError, match="normalize must be True or False"):
        M.log_loss([0, 1], [0.2, 0.7], normalize="False")

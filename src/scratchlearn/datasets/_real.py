"""Real datasets bundled with scratchlearn.

Numeric tables (iris, wine, breast cancer, diabetes, digits, RAND HIE, travel mode choice) are
stored as gzipped CSV with one header line. The UCI categorical tables and the SMS collection are
the original files, gzipped and otherwise unchanged. Sources, citations and licences are in
``data/LICENSES.md`` and in each dataset's ``DESCR``.

Every loader takes ``return_X_y`` and ``as_frame`` (see :func:`~._base.make_bunch`) and returns
fresh copies of the cached arrays.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..utils._param_validation import Interval, validate_params
from ._base import (
    check_loader_args,
    encode_labels,
    load_descr,
    make_bunch,
    numeric_table,
    string_table,
    tab_separated_documents,
)

__all__ = [
    "load_iris",
    "load_wine",
    "load_breast_cancer",
    "load_diabetes",
    "load_digits",
    "load_randhie",
    "load_modechoice",
    "load_sms_spam",
    "load_mushroom",
    "load_car_evaluation",
    "load_congressional_voting",
    "load_tic_tac_toe",
]


# --------------------------------------------------------------------------- numeric tables


def _numeric(name, fname, *, target_names, task, return_X_y, as_frame, **extra):
    """Split a cached numeric table (target in the last column) into fresh X, y."""
    header, table = numeric_table(fname)
    X = table[:, :-1].copy()  # (n, d)
    y = table[:, -1].astype(np.int64) if task == "classification" else table[:, -1].copy()
    return make_bunch(
        data=X,
        target=y,
        feature_names=header[:-1],
        target_names=target_names,
        descr=load_descr(name),
        kind="numeric",
        task=task,
        return_X_y=return_X_y,
        as_frame=as_frame,
        **extra,
    )


def load_iris(*, return_X_y=False, as_frame=False):
    """Fisher's iris flowers: 150 samples, 4 measurements in cm, 3 species (50 each)."""
    check_loader_args("load_iris", return_X_y=return_X_y, as_frame=as_frame)
    return _numeric(
        "iris",
        "iris.csv.gz",
        target_names=["setosa", "versicolor", "virginica"],
        task="classification",
        return_X_y=return_X_y,
        as_frame=as_frame,
    )


def load_wine(*, return_X_y=False, as_frame=False):
    """UCI wine: 178 Italian wines, 13 chemical measurements, 3 cultivars."""
    check_loader_args("load_wine", return_X_y=return_X_y, as_frame=as_frame)
    return _numeric(
        "wine",
        "wine.csv.gz",
        target_names=["class_0", "class_1", "class_2"],
        task="classification",
        return_X_y=return_X_y,
        as_frame=as_frame,
    )


def load_breast_cancer(*, return_X_y=False, as_frame=False):
    """Breast Cancer Wisconsin (Diagnostic): 569 tumours, 30 features; 0 malignant, 1 benign."""
    check_loader_args("load_breast_cancer", return_X_y=return_X_y, as_frame=as_frame)
    return _numeric(
        "breast_cancer",
        "breast_cancer.csv.gz",
        target_names=["malignant", "benign"],
        task="classification",
        return_X_y=return_X_y,
        as_frame=as_frame,
    )


def load_diabetes(*, return_X_y=False, as_frame=False, scaled=True):
    """Efron et al.'s diabetes data: 442 patients, 10 baseline variables, disease progression.

    Parameters
    ----------
    scaled : bool, default=True
        If True, every feature column is centred and divided by its standard deviation times
        ``sqrt(n)``, i.e. ``x_j <- (x_j - mean(x_j)) / (std(x_j) * sqrt(n))``, so that each column
        has zero mean and unit Euclidean norm (the standardised version used by the LARS paper
        and by scikit-learn's default). If False, the raw measurements (age in years, sex coded
        1/2, BMI, blood pressure, six serum values). The target is never scaled.
    """
    check_loader_args("load_diabetes", return_X_y=return_X_y, as_frame=as_frame, scaled=scaled)
    header, table = numeric_table("diabetes.csv.gz")
    X = table[:, :-1].copy()  # (442, 10)
    if scaled:
        n = X.shape[0]
        # mean and std of the raw columns, applied in scikit-learn's order: bit-identical floats
        mean, std = X.mean(axis=0), X.std(axis=0)  # (10,), (10,)
        X -= mean
        X /= std
        X /= n**0.5
    return make_bunch(
        data=X,
        target=table[:, -1].copy(),
        feature_names=header[:-1],
        target_names=None,
        descr=load_descr("diabetes"),
        kind="numeric",
        task="regression",
        return_X_y=return_X_y,
        as_frame=as_frame,
        scaled=bool(scaled),
    )


def load_digits(*, n_class=10, return_X_y=False, as_frame=False):
    """UCI optical handwritten digits (test part): 1797 images of 8x8 grey levels 0..16.

    Parameters
    ----------
    n_class : int in [1, 10], default=10
        Keep only the digits ``0 .. n_class - 1``.

    The Bunch also holds ``images``, the rows reshaped to (n, 8, 8).
    """
    check_loader_args("load_digits", return_X_y=return_X_y, as_frame=as_frame)
    validate_params(
        {"n_class": [Interval(numbers.Integral, 1, 10)]}, {"n_class": n_class}, "load_digits"
    )
    header, table = numeric_table("digits.csv.gz")
    keep = table[:, -1] < n_class
    X = table[keep, :-1]  # boolean indexing copies: (n, 64)
    y = table[keep, -1].astype(np.int64)
    return make_bunch(
        data=X,
        target=y,
        feature_names=header[:-1],
        target_names=list(range(n_class)),
        descr=load_descr("digits"),
        kind="numeric",
        task="classification",
        return_X_y=return_X_y,
        as_frame=as_frame,
        images=X.reshape(-1, 8, 8).copy(),
    )


def load_randhie(*, return_X_y=False, as_frame=False):
    """RAND Health Insurance Experiment: 20,190 person-years; target ``mdvis``, doctor visits."""
    check_loader_args("load_randhie", return_X_y=return_X_y, as_frame=as_frame)
    header, table = numeric_table("randhie.csv.gz")  # column 0 is mdvis
    return make_bunch(
        data=table[:, 1:].copy(),
        target=table[:, 0].copy(),
        feature_names=header[1:],
        target_names=None,
        descr=load_descr("randhie"),
        kind="numeric",
        task="regression",
        return_X_y=return_X_y,
        as_frame=as_frame,
        target_column="mdvis",
    )


_MODE_NAMES = ["air", "train", "bus", "car"]  # codes 1..4 of the ``mode`` column


def load_modechoice(*, return_X_y=False, as_frame=False):
    """Travel mode choice as ranking: 210 travellers (queries) x 4 modes; target ``choice``.

    ``qid`` holds the traveller (query) id of every row; rows of one query are contiguous.
    ``return_X_y=True`` returns ``(X, y)`` only: take ``qid`` from the Bunch for ranking.
    """
    check_loader_args("load_modechoice", return_X_y=return_X_y, as_frame=as_frame)
    header, table = numeric_table("modechoice.csv.gz", delimiter=";")
    col = {h: j for j, h in enumerate(header)}
    features = ["mode", "ttme", "invc", "invt", "gc", "hinc", "psize"]
    X = table[:, [col[f] for f in features]]  # fancy indexing copies: (840, 7)
    qid = table[:, col["individual"]].astype(np.int64)
    out = make_bunch(
        data=X,
        target=table[:, col["choice"]].astype(np.int64),
        feature_names=features,
        target_names=None,
        descr=load_descr("modechoice"),
        kind="numeric",
        task="ranking",
        return_X_y=return_X_y,
        as_frame=as_frame,
        target_column="choice",
        qid=qid,
        mode_names=list(_MODE_NAMES),
    )
    if as_frame and not return_X_y:
        out.frame.insert(0, "qid", qid)
    return out


# --------------------------------------------------------------------------- text


def load_sms_spam(*, return_X_y=False, as_frame=False):
    """SMS Spam Collection v.1: 5,574 raw messages; 0 ham (4,827), 1 spam (747)."""
    check_loader_args("load_sms_spam", return_X_y=return_X_y, as_frame=as_frame)
    labels, docs = tab_separated_documents("SMSSpamCollection.gz")
    return make_bunch(
        data=docs.copy(),
        target=encode_labels(labels, ["ham", "spam"]),
        feature_names=["message"],
        target_names=["ham", "spam"],
        descr=load_descr("sms_spam"),
        kind="text",
        task="classification",
        return_X_y=return_X_y,
        as_frame=as_frame,
    )


# --------------------------------------------------------------------------- categorical


def _categorical(
    name, fname, *, target_col, feature_names, target_names, categories, return_X_y, as_frame
):
    """Split a cached UCI string table into X (object array of str) and int-coded y."""
    table = string_table(fname)
    X = np.delete(table, target_col, axis=1)  # a new array: (n, d)
    return make_bunch(
        data=X,
        target=encode_labels(table[:, target_col], target_names),
        feature_names=feature_names,
        target_names=target_names,
        descr=load_descr(name),
        kind="categorical",
        task="classification",
        return_X_y=return_X_y,
        as_frame=as_frame,
        categories=[list(c) for c in categories],
    )


# (feature name, value codes in the order of UCI's agaricus-lepiota.names)
_MUSHROOM = [
    ("cap-shape", "bcxfks"),
    ("cap-surface", "fgys"),
    ("cap-color", "nbcgrpuewy"),
    ("bruises", "tf"),
    ("odor", "alcyfmnps"),
    ("gill-attachment", "adfn"),
    ("gill-spacing", "cwd"),
    ("gill-size", "bn"),
    ("gill-color", "knbhgropuewy"),
    ("stalk-shape", "et"),
    ("stalk-root", "bcuezr?"),
    ("stalk-surface-above-ring", "fyks"),
    ("stalk-surface-below-ring", "fyks"),
    ("stalk-color-above-ring", "nbcgopewy"),
    ("stalk-color-below-ring", "nbcgopewy"),
    ("veil-type", "pu"),
    ("veil-color", "nowy"),
    ("ring-number", "not"),
    ("ring-type", "ceflnpsz"),
    ("spore-print-color", "knbhrouwy"),
    ("population", "acnsvy"),
    ("habitat", "glmpuwd"),
]


def load_mushroom(*, return_X_y=False, as_frame=False):
    """UCI mushroom: 8,124 gilled mushrooms, 22 one-letter attributes; 0 edible 'e', 1 'p'.

    ``stalk-root`` is '?' (missing) in 2,480 rows: kept as its own category value.
    ``categories`` lists every attribute's possible codes (some never occur, e.g. veil-type 'u').
    """
    check_loader_args("load_mushroom", return_X_y=return_X_y, as_frame=as_frame)
    return _categorical(
        "mushroom",
        "agaricus-lepiota.data.gz",
        target_col=0,
        feature_names=[f for f, _ in _MUSHROOM],
        target_names=["e", "p"],
        categories=[list(codes) for _, codes in _MUSHROOM],
        return_X_y=return_X_y,
        as_frame=as_frame,
    )


_CAR = [
    ("buying", ["vhigh", "high", "med", "low"]),
    ("maint", ["vhigh", "high", "med", "low"]),
    ("doors", ["2", "3", "4", "5more"]),
    ("persons", ["2", "4", "more"]),
    ("lug_boot", ["small", "med", "big"]),
    ("safety", ["low", "med", "high"]),
]


def load_car_evaluation(*, return_X_y=False, as_frame=False):
    """UCI car evaluation: 1,728 cars, 6 ordinal attributes; classes unacc < acc < good < vgood.

    ``target_names`` and ``categories`` follow the documented (ordinal) order, not the alphabet.
    """
    check_loader_args("load_car_evaluation", return_X_y=return_X_y, as_frame=as_frame)
    return _categorical(
        "car_evaluation",
        "car.data.gz",
        target_col=6,
        feature_names=[f for f, _ in _CAR],
        target_names=["unacc", "acc", "good", "vgood"],
        categories=[c for _, c in _CAR],
        return_X_y=return_X_y,
        as_frame=as_frame,
    )


_VOTES = [
    "handicapped-infants",
    "water-project-cost-sharing",
    "adoption-of-the-budget-resolution",
    "physician-fee-freeze",
    "el-salvador-aid",
    "religious-groups-in-schools",
    "anti-satellite-test-ban",
    "aid-to-nicaraguan-contras",
    "mx-missile",
    "immigration",
    "synfuels-corporation-cutback",
    "education-spending",
    "superfund-right-to-sue",
    "crime",
    "duty-free-exports",
    "export-administration-act-south-africa",
]


def load_congressional_voting(*, return_X_y=False, as_frame=False):
    """1984 US House votes: 435 members, 16 votes each 'y'/'n'/'?'; 0 democrat, 1 republican.

    '?' means the member neither voted yea nor nay; it is kept as a third category value.
    """
    check_loader_args("load_congressional_voting", return_X_y=return_X_y, as_frame=as_frame)
    return _categorical(
        "congressional_voting",
        "house-votes-84.data.gz",
        target_col=0,
        feature_names=list(_VOTES),
        target_names=["democrat", "republican"],
        categories=[["y", "n", "?"]] * len(_VOTES),
        return_X_y=return_X_y,
        as_frame=as_frame,
    )


_SQUARES = [
    f"{r}-{c}-square" for r in ("top", "middle", "bottom") for c in ("left", "middle", "right")
]


def load_tic_tac_toe(*, return_X_y=False, as_frame=False):
    """Tic-tac-toe endgames: 958 final boards, 9 squares 'x'/'o'/'b'; 1 positive (x wins)."""
    check_loader_args("load_tic_tac_toe", return_X_y=return_X_y, as_frame=as_frame)
    return _categorical(
        "tic_tac_toe",
        "tic-tac-toe.data.gz",
        target_col=9,
        feature_names=list(_SQUARES),
        target_names=["negative", "positive"],
        categories=[["x", "o", "b"]] * len(_SQUARES),
        return_X_y=return_X_y,
        as_frame=as_frame,
    )

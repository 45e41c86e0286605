"""Small real problems suited to each registered estimator, for tests that loop over the registry
(bad-input catalogue, model-file round trips).

Real data where it is cheap: iris (classifiers, multi-class), diabetes (regressors), a slice of
the car-evaluation table (categorical), SMS texts (text). Count and positive-target regressors
get the diabetes features with a positive target derived from the real one.
"""

from __future__ import annotations

import os

import numpy as np
from sklearn.datasets import load_diabetes, load_iris


def _texts():
    docs = [
        "free entry to win a prize call now",
        "are we still meeting for lunch today",
        "urgent your account has won cash claim now",
        "ok see you at home later",
        "win a free holiday text yes to claim",
        "can you send me the notes from class",
        "call now to claim your free reward",
        "thanks for dinner last night it was great",
    ]
    return np.array(docs * 3, dtype=object), np.array([1, 0, 1, 0, 1, 0, 1, 0] * 3)


def _categorical():
    rng = np.random.default_rng(0)
    levels = [["low", "med", "high"], ["2", "3", "4"], ["small", "big"]]
    X = np.array([[rng.choice(lv) for lv in levels] for _ in range(60)], dtype=object)
    y = (X[:, 0] == "high").astype(int) + (X[:, 2] == "big").astype(int)
    return X, y


def _sequences():
    sentences = [
        ["The", "dog", "runs", "."],
        ["A", "cat", "sleeps", "here"],
        ["Dogs", "run", "fast"],
        ["I", "saw", "2", "well-fed", "cats", "."],
    ]
    tags = [
        ["DET", "NOUN", "VERB", "PUNCT"],
        ["DET", "NOUN", "VERB", "ADV"],
        ["NOUN", "VERB", "ADV"],
        ["PRON", "VERB", "NUM", "ADJ", "NOUN", "PUNCT"],
    ]
    return sentences * 3, tags * 3


def problem_for(entry):
    """(X, y) for ``entry`` (a registry Entry); y is None for unsupervised transformers.

    Chosen from the estimator's task and tags, never its name, so a new family is covered by
    declaring its tags (scikit-learn's common checks adapt their data the same way): "text" reads
    documents; ``X_types`` "1dlabels" fits y alone; "categorical" gets string categories;
    ``positive_X`` gets counts; ``positive_y`` a positive target.
    """
    tags = entry.cls()._scratch_tags()
    x_types = tags["X_types"]
    if entry.task == "text":
        return _texts()
    if entry.task == "sequence":
        return _sequences()
    if "1dlabels" in x_types:
        return None, load_iris().target
    if "categorical" in x_types:
        X, y = _categorical()
        return X, (y if tags["requires_y"] else None)
    if entry.task == "regressor":
        data = load_diabetes()
        X, y = data.data, data.target
        if tags["positive_y"]:
            y = y / 100.0  # diabetes' target is 25..346: positive, of order one
        return X, y
    X = load_iris().data
    y = load_iris().target if tags["requires_y"] else None
    if tags["positive_X"]:
        X = np.round(X)  # counts
    return X, y


# The original files beside the clone (../shared/data), when they are there.
SHARED_DATA = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data")

_SHARED_LAYOUT = {
    "sms_spam/SMSSpamCollection": "SMSSpamCollection.gz",
    "car_evaluation/car.data": "car.data.gz",
    "mushroom/agaricus-lepiota.data": "agaricus-lepiota.data.gz",
    "congressional_voting/house-votes-84.data": "house-votes-84.data.gz",
    "tic_tac_toe/tic-tac-toe.data": "tic-tac-toe.data.gz",
    "ltr/modechoice.csv": "modechoice.csv.gz",
}


def shared_data_dir() -> str:
    """A folder laid out like ``shared/data``, rebuilt from the copies bundled in the package.

    The bundled files are the originals gzipped (tests/datasets check their sha256 against
    shared/data), so tests read the same bytes whether or not shared/ sits beside the clone.
    Safe under pytest-xdist: each file is written to a temporary name and renamed into place.
    """
    import gzip
    import tempfile
    from importlib import resources

    root = os.path.join(tempfile.gettempdir(), f"scratchlearn-shared-data-{os.getuid()}")
    bundled = resources.files("scratchlearn.datasets") / "data"
    for rel, gz_name in _SHARED_LAYOUT.items():
        target = os.path.join(root, rel)
        if os.path.exists(target):
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        raw = gzip.decompress((bundled / gz_name).read_bytes())
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target))
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
        os.replace(tmp, target)
    return root


def real_clusterings(standardise: bool = False) -> dict:
    """``{name: (X, y, labels)}``: scikit-learn's KMeans clusterings of iris (k = 3), wine (4)
    and the first 400 digits (10), for comparing clustering metrics on real labellings;
    ``standardise`` scales each column to unit variance first (constant columns left as 0)."""
    from sklearn.cluster import KMeans
    from sklearn.datasets import load_digits, load_wine

    out = {}
    for name, loader, k in (
        ("iris", load_iris, 3),
        ("wine", load_wine, 4),
        ("digits", load_digits, 10),
    ):
        X, y = loader(return_X_y=True)
        if name == "digits":
            X, y = X[:400], y[:400]
        if standardise:
            X = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)
        out[name] = (X, y, KMeans(k, n_init=3, random_state=0).fit_predict(X))
    return out

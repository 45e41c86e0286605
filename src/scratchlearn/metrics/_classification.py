"""Classification metrics computed from hard predictions.

Symbols: ``n`` samples with weights ``wᵢ`` (1 when ``sample_weight`` is None); ``K`` labels;
the weighted confusion matrix ``C[a, b] = Σ wᵢ [yᵢ = a][ŷᵢ = b]`` (rows true, columns predicted).
For one label ``k``:

* ``tp = C[k, k]``, ``pred = Σ_a C[a, k]`` (predicted as k), ``true = Σ_b C[k, b]`` (truly k);
* precision ``P = tp/pred``, recall ``R = tp/true``,
  ``F_β = (1 + β²)·tp / (β²·true + pred)`` (the same as ``(1 + β²)PR/(β²P + R)`` whenever that is
  defined, and still defined when only one of P and R is).

Averages: "micro" sums tp, pred and true over the labels first; "macro" is the plain mean of the
per-label scores; "weighted" weights each label by its support ``true``; "binary" reports
``pos_label`` alone. A ratio whose denominator is 0 is set to ``zero_division`` ("warn" means 0
with an :class:`~scratchlearn.exceptions.UndefinedMetricWarning`).

Metrics of scores and probabilities (``log_loss``, ``roc_curve``, ``roc_auc_score``) live in
``_ranking.py``; they share the label helpers above.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from ..exceptions import UndefinedMetricWarning
from ..utils.multiclass import type_of_target
from ..utils.validation import check_consistent_length, check_sample_weight, column_or_1d

__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "confusion_matrix",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "f1_score",
    "fbeta_score",
    "classification_report",
]

_AVERAGES = (None, "binary", "micro", "macro", "weighted")


def _check_targets(y_true, y_pred):
    """Validate a pair of label vectors; return ``(kind, y_true, y_pred)`` with kind "binary"
    or "multiclass" (from the union of the labels)."""
    check_consistent_length(y_true, y_pred)
    y_true = column_or_1d(y_true, input_name="y_true")
    y_pred = column_or_1d(y_pred, input_name="y_pred")
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
            raise ValueError(f"Input {name} contains NaN or infinity.")
        kind = type_of_target(y)
        if kind not in ("binary", "multiclass"):
            raise ValueError(
                f"Classification metrics need discrete labels, but {name} is {kind!r}. "
                "Pass class labels (e.g. the output of predict), not scores or probabilities."
            )
    if y_true.shape[0] == 0:
        raise ValueError("Found empty input arrays: y_true and y_pred have 0 samples.")
    try:
        if _holds_strings(y_true) != _holds_strings(y_pred):
            raise TypeError
        labels = np.union1d(y_true, y_pred)
    except TypeError:
        raise ValueError(
            "Labels in y_true and y_pred should be of the same type; got "
            f"{y_true.dtype} and {y_pred.dtype}."
        ) from None
    return ("binary" if labels.shape[0] <= 2 else "multiclass"), y_true, y_pred


def _holds_strings(y):
    return y.dtype.kind in "US" or (
        y.dtype.kind == "O" and any(isinstance(v, str) for v in y[:1000])
    )


def _check_bool(value, name):
    """A flag must be a bool: the string "False" would otherwise count as true."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {value!r}.")


def _weights(sample_weight, y):
    if sample_weight is None:
        return None
    return check_sample_weight(sample_weight, y.shape[0])


def _index_of(y, labels):
    """Position of each yᵢ in ``labels`` (any order), −1 where yᵢ is not a label."""
    order = np.argsort(labels, kind="stable")
    sorted_labels = labels[order]
    pos = np.searchsorted(sorted_labels, y)
    pos = np.clip(pos, 0, max(len(labels) - 1, 0))
    found = sorted_labels[pos] == y if len(labels) else np.zeros(y.shape, bool)
    return np.where(found, order[pos], -1)


def _counts(y_true, y_pred, labels, w):
    """Weighted confusion matrix (K, K) over ``labels``; samples outside them are dropped."""
    K = len(labels)
    t = _index_of(y_true, labels)
    p = _index_of(y_pred, labels)
    keep = (t >= 0) & (p >= 0)
    flat = t[keep] * K + p[keep]
    ww = None if w is None else w[keep]
    return np.bincount(flat, weights=ww, minlength=K * K).reshape(K, K)


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    """Fraction (or, with ``normalize=False``, weighted count) of exactly right predictions.

    Examples
    --------
    >>> from scratchlearn.metrics import accuracy_score
    >>> y_true = ["cat", "dog", "dog", "bird"]
    >>> y_pred = ["cat", "dog", "cat", "bird"]
    >>> print(accuracy_score(y_true, y_pred), accuracy_score(y_true, y_pred, normalize=False))
    0.75 3.0
    """
    _check_bool(normalize, "normalize")
    _, y_true, y_pred = _check_targets(y_true, y_pred)
    w = _weights(sample_weight, y_true)
    right = (y_true == y_pred).astype(np.float64)
    if normalize:
        return float(np.average(right, weights=w))
    return float(right.sum() if w is None else right @ w)


def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None, normalize=None):
    """Confusion matrix ``C[a, b]`` = (weighted) number of samples of true label ``labels[a]``
    predicted as ``labels[b]``.

    ``labels`` (default: the sorted union of both vectors) fixes the order and may select a
    subset; samples whose true or predicted label is not listed are left out. ``normalize``
    divides by the row sums ("true"), column sums ("pred") or the total ("all"); an empty row or
    column gives zeros. Integer counts stay int64 unless weights or normalisation make them real.

    Examples
    --------
    >>> from scratchlearn.metrics import confusion_matrix
    >>> y_true = ["cat", "dog", "dog", "bird", "dog"]
    >>> y_pred = ["cat", "dog", "cat", "bird", "bird"]
    >>> print(confusion_matrix(y_true, y_pred, labels=["bird", "cat", "dog"]))
    [[1 0 0]
     [0 1 0]
     [1 1 1]]
    >>> print(confusion_matrix(y_true, y_pred, normalize="true").round(2))
    [[1.   0.   0.  ]
     [0.   1.   0.  ]
     [0.33 0.33 0.33]]
    """
    _, y_true, y_pred = _check_targets(y_true, y_pred)
    if normalize not in (None, "true", "pred", "all"):
        raise ValueError(
            f"normalize must be one of None, 'true', 'pred', 'all'; got {normalize!r}."
        )
    if labels is None:
        labels = np.union1d(y_true, y_pred)
    else:
        labels = np.asarray(labels)
        if labels.size == 0:
            raise ValueError("'labels' should contain at least one label.")
        if not np.isin(y_true, labels).any():
            raise ValueError("At least one label specified must be in y_true.")
    w = _weights(sample_weight, y_true)
    C = _counts(y_true, y_pred, labels, w)
    if w is None or np.asarray(sample_weight).dtype.kind in "iub":
        C = C.astype(np.int64)
    if normalize is None:
        return C
    C = C.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        if normalize == "true":
            C = C / C.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            C = C / C.sum(axis=0, keepdims=True)
        else:
            C = C / C.sum()
    return np.nan_to_num(C)


def balanced_accuracy_score(y_true, y_pred, *, sample_weight=None, adjusted=False):
    """Mean over the true classes of the per-class recall; with ``adjusted=True`` rescaled so
    that chance scores 0 and perfect scores 1: ``(s − 1/K)/(1 − 1/K)``."""
    C = confusion_matrix(y_true, y_pred, sample_weight=sample_weight).astype(np.float64)
    support = C.sum(axis=1)
    if np.any(support == 0):
        warnings.warn("y_pred contains classes not in y_true", UserWarning, stacklevel=2)
    recall = np.diag(C)[support > 0] / support[support > 0]
    score = float(np.mean(recall))
    if adjusted:
        chance = 1.0 / recall.shape[0]
        score = (score - chance) / (1.0 - chance)
    return score


def _zero_division_value(zero_division):
    if isinstance(zero_division, str) and zero_division == "warn":
        return 0.0
    if (
        isinstance(zero_division, numbers.Real)
        and not isinstance(zero_division, bool)
        and (np.isnan(zero_division) or zero_division in (0, 1))
    ):
        return float(zero_division)
    raise ValueError(f"zero_division must be 'warn', 0, 1 or np.nan; got {zero_division!r}.")


def _ratio(num, den, what, why, zero_division, warn):
    """num/den element-wise, with ``zero_division`` where den is 0 (and a warning if asked)."""
    undefined = den == 0
    safe = np.where(undefined, 1.0, den)
    out = np.where(undefined, _zero_division_value(zero_division), num / safe)
    if warn and undefined.any() and isinstance(zero_division, str):
        warnings.warn(
            f"{what} is ill-defined and being set to 0.0 in labels with no {why} samples. "
            "Use `zero_division` parameter to control this behavior.",
            UndefinedMetricWarning,
            stacklevel=4,
        )
    return out


def _nan_average(values, weights):
    """Average ignoring NaN entries; all-zero weights fall back to the plain mean."""
    keep = ~np.isnan(values)
    if not keep.any():
        return float("nan")
    if weights is None or not np.any(weights[keep] != 0):
        return float(np.mean(values[keep]))
    return float(np.average(values[keep], weights=weights[keep]))


def _select_labels(kind, y_true, y_pred, average, pos_label, labels):
    """The labels to report, in order, and the full label list for the confusion matrix."""
    present = np.union1d(y_true, y_pred)
    if average == "binary":
        if kind != "binary":
            raise ValueError(
                "Target is multiclass but average='binary'. Please choose another average "
                "setting, one of [None, 'micro', 'macro', 'weighted']."
            )
        if pos_label not in present and len(present) >= 2:
            raise ValueError(
                f"pos_label={pos_label!r} is not a valid label. It should be one of "
                f"{present.tolist()}"
            )
        labels = [pos_label]
    elif pos_label not in (None, 1):
        warnings.warn(
            f"Note that pos_label (set to {pos_label!r}) is ignored when average != 'binary' "
            f"(got {average!r}). You may use labels=[pos_label] to specify a single positive "
            "class.",
            UserWarning,
            stacklevel=3,
        )
    if labels is None:
        return present, present
    labels = np.asarray(labels)
    rest = np.setdiff1d(present, labels)
    return labels, np.concatenate([labels, rest]) if rest.size else labels


def precision_recall_fscore_support(
    y_true,
    y_pred,
    *,
    beta=1.0,
    labels=None,
    pos_label=1,
    average=None,
    warn_for=("precision", "recall", "f-score"),
    sample_weight=None,
    zero_division="warn",
):
    """Precision, recall, F-beta and support, per label or averaged (see the module docstring).

    Returns ``(precision, recall, fbeta, support)``: arrays of shape (K,) when ``average`` is
    None, floats otherwise (support is then None).
    """
    if average not in _AVERAGES:
        raise ValueError(f"average has to be one of {_AVERAGES}; got {average!r}.")
    if not isinstance(beta, numbers.Real) or beta < 0:
        raise ValueError(f"beta should be >= 0 in the F-beta score; got {beta!r}.")
    _zero_division_value(zero_division)
    kind, y_true, y_pred = _check_targets(y_true, y_pred)
    report, all_labels = _select_labels(kind, y_true, y_pred, average, pos_label, labels)
    w = _weights(sample_weight, y_true)
    C = _counts(y_true, y_pred, all_labels, w).astype(np.float64)
    k = len(report)
    tp = np.diag(C)[:k]
    pred = C.sum(axis=0)[:k]
    true = C.sum(axis=1)[:k]
    if average == "micro":
        tp, pred, true = tp.sum(keepdims=True), pred.sum(keepdims=True), true.sum(keepdims=True)

    precision = _ratio(tp, pred, "Precision", "predicted", zero_division, "precision" in warn_for)
    recall = _ratio(tp, true, "Recall", "true", zero_division, "recall" in warn_for)
    if np.isposinf(beta):
        fscore = recall
    elif beta == 0:
        fscore = precision
    else:
        b2 = float(beta) ** 2
        fscore = _ratio(
            (1 + b2) * tp,
            b2 * true + pred,
            "F-score",
            "true nor predicted",
            zero_division,
            "f-score" in warn_for,
        )
    if average is None:
        return precision, recall, fscore, true
    weights = true if average == "weighted" else None
    return (
        _nan_average(precision, weights),
        _nan_average(recall, weights),
        _nan_average(fscore, weights),
        None,
    )


def fbeta_score(
    y_true,
    y_pred,
    *,
    beta,
    labels=None,
    pos_label=1,
    average="binary",
    sample_weight=None,
    zero_division="warn",
):
    """F-beta score ``(1 + β²)·tp/(β²·true + pred)``: β < 1 favours precision, β > 1 recall."""
    _, _, f, _ = precision_recall_fscore_support(
        y_true,
        y_pred,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("f-score",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return f


def f1_score(
    y_true,
    y_pred,
    *,
    labels=None,
    pos_label=1,
    average="binary",
    sample_weight=None,
    zero_division="warn",
):
    """F1 score, the harmonic mean of precision and recall: ``2·tp/(true + pred)``."""
    return fbeta_score(
        y_true,
        y_pred,
        beta=1.0,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )


def precision_score(
    y_true,
    y_pred,
    *,
    labels=None,
    pos_label=1,
    average="binary",
    sample_weight=None,
    zero_division="warn",
):
    """Precision ``tp/pred``: the fraction of predictions of a label that are right."""
    p, _, _, _ = precision_recall_fscore_support(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("precision",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return p


def recall_score(
    y_true,
    y_pred,
    *,
    labels=None,
    pos_label=1,
    average="binary",
    sample_weight=None,
    zero_division="warn",
):
    """Recall ``tp/true``: the fraction of samples of a label that are found."""
    _, r, _, _ = precision_recall_fscore_support(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("recall",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return r


def classification_report(
    y_true,
    y_pred,
    *,
    labels=None,
    target_names=None,
    sample_weight=None,
    digits=2,
    output_dict=False,
    zero_division="warn",
):
    """Per-label precision, recall, F1 and support, followed by their averages.

    The average rows are "accuracy" (when the micro average equals accuracy, i.e. every label
    present is reported) or "micro avg", then "macro avg" and "weighted avg". Returns the text
    table, or with ``output_dict=True`` a dict ``{row name: {metric: value}}``.
    """
    kind, y_true, y_pred = _check_targets(y_true, y_pred)
    present = np.union1d(y_true, y_pred)
    given = labels is not None
    labels = present if labels is None else np.asarray(labels)
    micro_is_accuracy = not given or set(labels.tolist()) >= set(present.tolist())
    if target_names is None:
        target_names = [str(label) for label in labels]
    elif len(target_names) != len(labels):
        raise ValueError(
            f"Number of classes, {len(labels)}, does not match size of target_names, "
            f"{len(target_names)}. Try specifying the labels parameter"
        )
    common = dict(labels=labels, sample_weight=sample_weight, zero_division=zero_division)
    p, r, f, s = precision_recall_fscore_support(y_true, y_pred, **common)
    headers = ["precision", "recall", "f1-score", "support"]
    rows = {
        name: dict(zip(headers, (float(a), float(b), float(c), _support(d))))
        for name, a, b, c, d in zip(target_names, p, r, f, s)
    }
    averages = {}
    for average in ("micro", "macro", "weighted"):
        name = "accuracy" if average == "micro" and micro_is_accuracy else f"{average} avg"
        vals = precision_recall_fscore_support(y_true, y_pred, average=average, **common)[:3]
        averages[name] = dict(zip(headers, (*vals, _support(s.sum()))))
    if output_dict:
        out = dict(rows)
        for name, vals in averages.items():
            out[name] = vals["precision"] if name == "accuracy" else vals
        return out
    return _format_report(rows, averages, digits)


def _support(x):
    return int(x) if float(x).is_integer() else float(x)


def _format_report(rows, averages, digits):
    width = max([len(n) for n in rows] + [len("weighted avg"), digits])
    lines = [
        " " * width
        + " "
        + "".join(f" {h:>9}" for h in ("precision", "recall", "f1-score", "support")),
        "",
    ]

    def line(name, vals, blank_pr=False):
        cells = (
            [" " * 9, " " * 9]
            if blank_pr
            else [f"{vals['precision']:>9.{digits}f}", f"{vals['recall']:>9.{digits}f}"]
        )
        cells += [f"{vals['f1-score']:>9.{digits}f}", f"{vals['support']:>9}"]
        return f"{name:>{width}} " + "".join(" " + c for c in cells)

    lines += [line(name, vals) for name, vals in rows.items()]
    lines.append("")
    for name, vals in averages.items():
        lines.append(line(name, vals, blank_pr=name == "accuracy"))
    return "\n".join(lines) + "\n"

"""Metrics of scores and probabilities: log loss, ROC curve and the area under it.

Symbols: yᵢ true label, sᵢ score (decision value or probability of the positive class),
pᵢₖ predicted probability of class k, wᵢ sample weight.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..exceptions import UndefinedMetricWarning
from ..utils.multiclass import type_of_target
from ..utils.validation import check_consistent_length, column_or_1d
from ._classification import _check_bool, _index_of, _weights

__all__ = ["log_loss", "roc_curve", "roc_auc_score"]


def log_loss(y_true, y_proba, *, normalize=True, sample_weight=None, labels=None):
    """Cross-entropy ``−(1/Σw) Σᵢ wᵢ log p̂ᵢ,yᵢ`` of predicted probabilities.

    ``y_proba`` is (n, K) with columns in the sorted order of ``labels`` (default: the labels of
    ``y_true``), or (n,) holding the probability of the greater label of a binary problem.
    Probabilities are clipped to ``[ε, 1 − ε]`` with ε the machine epsilon of their dtype, so a
    confident mistake costs ``−log ε`` instead of infinity. ``normalize=False`` returns the sum.
    """
    _check_bool(normalize, "normalize")
    y_true = column_or_1d(y_true, input_name="y_true")
    P = np.asarray(y_proba)
    P = P.astype(np.float64) if P.dtype not in (np.float32, np.float64) else P
    check_consistent_length(y_true, P)
    if y_true.shape[0] == 0:
        raise ValueError("Found empty input arrays: y_true and y_proba have 0 samples.")
    if P.ndim == 1:
        P = P[:, None]
    if P.ndim != 2 or not np.all(np.isfinite(P)):
        raise ValueError("y_proba must be a finite 1-D or 2-D array of probabilities.")
    if P.size and P.max() > 1:
        raise ValueError(f"y_proba contains values greater than 1: {P.max()}")
    if P.size and P.min() < 0:
        raise ValueError(f"y_proba contains values lower than 0: {P.min()}")
    classes = np.unique(y_true if labels is None else np.asarray(labels))
    if classes.shape[0] < 2:
        hint = (
            "Please provide the true labels explicitly through the labels argument."
            if labels is None
            else "The labels array needs to contain at least two labels."
        )
        raise ValueError(f"y_true contains only one label ({classes[0]!r}). {hint}")
    idx = _index_of(y_true, classes)
    if np.any(idx < 0):
        raise ValueError(f"y_true contains values not in labels: {np.unique(y_true[idx < 0])}")
    if P.shape[1] == 1:
        P = np.hstack([1.0 - P, P])
    if P.shape[1] != classes.shape[0]:
        raise ValueError(
            f"y_true and y_proba contain different number of classes: {classes.shape[0]} "
            f"classes ({classes.tolist()}) but y_proba has {P.shape[1]} columns."
        )
    if not np.allclose(P.sum(axis=1), 1.0, rtol=np.sqrt(np.finfo(P.dtype).eps)):
        warnings.warn(
            "The y_proba values do not sum to one. Make sure to pass probabilities.",
            UserWarning,
            stacklevel=2,
        )
    eps = np.finfo(P.dtype).eps
    p_true = np.clip(P[np.arange(P.shape[0]), idx], eps, 1 - eps).astype(np.float64)
    loss = -np.log(p_true)
    w = _weights(sample_weight, y_true)
    if normalize:
        return float(np.average(loss, weights=w))
    return float(loss.sum() if w is None else loss @ w)


def _grouped_counts(positive, score, w):
    """Distinct scores (ascending) with the positive and negative weight at each of them."""
    values, group = np.unique(score, return_inverse=True)
    w = np.ones(score.shape[0]) if w is None else w
    pos = np.bincount(group, weights=w * positive, minlength=values.shape[0])
    neg = np.bincount(group, weights=w * ~positive, minlength=values.shape[0])
    return values, pos, neg


def _binary_auc(positive, score, w):
    """Area under the ROC curve as the rank (Mann–Whitney) statistic.

    .. math:: AUC = \\frac{1}{W_+ W_-}\\sum_{i: y_i=1}\\sum_{j: y_j=0} w_i w_j
              \\left([s_i > s_j] + \\tfrac12 [s_i = s_j]\\right)

    evaluated per distinct score: each positive weight meets the negative weight strictly below
    it plus half the negative weight tied with it (exactly the trapezoid under the ROC curve).
    """
    _, pos, neg = _grouped_counts(positive, score, w)
    W_pos, W_neg = pos.sum(), neg.sum()
    if W_pos == 0 or W_neg == 0:
        raise ValueError(
            "Only one class present in y_true. ROC AUC score is not defined in that case."
        )
    below = np.cumsum(neg) - neg  # negative weight with a strictly lower score
    return float(pos @ (below + 0.5 * neg) / (W_pos * W_neg))


def _check_scores(y_true, y_score, sample_weight):
    y_true = column_or_1d(y_true, input_name="y_true")
    S = np.asarray(y_score, dtype=np.float64)
    check_consistent_length(y_true, S)
    if y_true.shape[0] == 0:
        raise ValueError("Found empty input arrays: y_true and y_score have 0 samples.")
    if not np.all(np.isfinite(S)):
        raise ValueError("Input y_score contains NaN or infinity.")
    if y_true.dtype.kind == "f" and not np.all(np.isfinite(y_true)):
        raise ValueError("Input y_true contains NaN or infinity.")
    return y_true, S, _weights(sample_weight, y_true)


def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    """Receiver operating characteristic: ``(fpr, tpr, thresholds)``.

    ``thresholds`` are the distinct scores in decreasing order, preceded by +inf; at threshold t
    ``tpr = W₊(s ≥ t)/W₊`` and ``fpr = W₋(s ≥ t)/W₋``. ``drop_intermediate`` removes thresholds
    whose point lies on a straight segment between its neighbours (the area is unchanged).
    ``pos_label`` defaults to 1 for labels in {0, 1} or {−1, 1}.
    """
    y_true, S, w = _check_scores(y_true, y_score, sample_weight)
    if S.ndim != 1:
        raise ValueError(f"y_score should be a 1d array, got an array of shape {S.shape}.")
    classes = np.unique(y_true)
    if pos_label is None:
        if classes.dtype.kind in "OUS" or not np.all(np.isin(classes, [-1, 0, 1])):
            raise ValueError(
                f"y_true takes value in {classes.tolist()} and pos_label is not specified: "
                "either make y_true take value in {0, 1} or {-1, 1} or pass pos_label "
                "explicitly."
            )
        pos_label = 1
    values, pos, neg = _grouped_counts(y_true == pos_label, S, w)
    tps = np.cumsum(pos[::-1])  # decreasing thresholds
    fps = np.cumsum(neg[::-1])
    thresholds = values[::-1]
    if drop_intermediate and tps.shape[0] > 2:
        keep = np.r_[True, (np.diff(fps, 2) != 0) | (np.diff(tps, 2) != 0), True]
        tps, fps, thresholds = tps[keep], fps[keep], thresholds[keep]
    tps, fps = np.r_[0.0, tps], np.r_[0.0, fps]
    thresholds = np.r_[np.inf, thresholds]
    rates = []
    for counts, name in ((fps, "negative"), (tps, "positive")):
        if counts[-1] <= 0:
            warnings.warn(
                f"No {name} samples in y_true, {name[:3]} rate should be meaningless",
                UndefinedMetricWarning,
                stacklevel=2,
            )
            rates.append(np.full(counts.shape, np.nan))
        else:
            rates.append(counts / counts[-1])
    return rates[0], rates[1], thresholds


def _partial_auc(positive, score, w, max_fpr):
    """McClish-standardised area under the ROC curve up to ``fpr = max_fpr``."""
    fpr, tpr, _ = roc_curve(positive.astype(int), score, sample_weight=w, drop_intermediate=False)
    stop = np.searchsorted(fpr, max_fpr, side="right")
    tpr_cut = np.interp(max_fpr, fpr[stop - 1 : stop + 1], tpr[stop - 1 : stop + 1])
    x = np.r_[fpr[:stop], max_fpr]
    y = np.r_[tpr[:stop], tpr_cut]
    area = float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))
    lo, hi = 0.5 * max_fpr**2, max_fpr  # area of the diagonal, of the perfect curve
    return 0.5 * (1 + (area - lo) / (hi - lo))


def roc_auc_score(
    y_true,
    y_score,
    *,
    average="macro",
    sample_weight=None,
    max_fpr=None,
    multi_class="raise",
    labels=None,
):
    """Area under the ROC curve.

    Binary ``y_true``: ``y_score`` (n,) scores the greater label (or ``labels[1]``); ties count
    one half (see :func:`_binary_auc`); ``max_fpr`` gives the standardised partial AUC.
    Multiclass ``y_true`` needs ``y_score`` (n, K) of probabilities (rows summing to 1) and
    ``multi_class``: "ovr" averages the K one-vs-rest AUCs ("macro", "weighted" by class
    prevalence, "micro" on the flattened indicator matrix, None for the array); "ovo" averages
    over the K(K−1)/2 pairs the mean of the two directed AUCs (Hand & Till 2001).
    Unlike scikit-learn (which warns and returns NaN) a y_true with one class is an error.
    """
    if average not in (None, "micro", "macro", "samples", "weighted"):
        raise ValueError(
            "average must be one of None, 'micro', 'macro', 'samples', 'weighted'; "
            f"got {average!r}."
        )
    y_true, S, w = _check_scores(y_true, y_score, sample_weight)
    kind = type_of_target(y_true)
    if kind == "binary" and not (S.ndim == 2 and S.shape[1] > 2):
        classes = np.unique(y_true) if labels is None else np.asarray(labels)
        if S.ndim != 1:
            raise ValueError(
                f"For binary y_true, y_score must be 1-D (the score of {classes[-1]!r}); got "
                f"shape {S.shape}. For predict_proba output pass y_score[:, 1]."
            )
        positive = y_true == classes[-1]
        if max_fpr is not None:
            if not 0 < max_fpr <= 1:
                raise ValueError(f"Expected max_fpr in range (0, 1], got: {max_fpr}")
            if max_fpr != 1:
                _binary_auc(positive, S, w)  # one-class check
                return _partial_auc(positive, S, w, max_fpr)
        return _binary_auc(positive, S, w)
    if kind != "multiclass":
        raise ValueError(f"roc_auc_score needs binary or multiclass y_true; got {kind!r}.")
    return _multiclass_auc(y_true, S, w, average, max_fpr, multi_class, labels)


def _multiclass_auc(y, S, w, average, max_fpr, multi_class, labels):
    if multi_class not in ("ovr", "ovo"):
        raise ValueError(
            f"multi_class must be 'ovr' or 'ovo' for multiclass y_true; got {multi_class!r}."
        )
    allowed = (
        ("micro", "macro", "weighted", None) if multi_class == "ovr" else ("macro", "weighted")
    )
    if average not in allowed:
        raise ValueError(f"average must be one of {allowed} for multiclass {multi_class}.")
    if max_fpr is not None and max_fpr != 1:
        raise ValueError("Partial AUC computation is not available in the multiclass setting.")
    if S.ndim != 2:
        raise ValueError(f"Multiclass y_true needs y_score of shape (n, K); got {S.shape}.")
    if not np.allclose(S.sum(axis=1), 1.0):
        raise ValueError(
            "Target scores need to be probabilities for multiclass roc_auc, i.e. "
            "they should sum up to 1.0 over classes"
        )
    classes = np.unique(y) if labels is None else np.asarray(labels)
    if labels is not None:
        if np.unique(classes).shape[0] != classes.shape[0]:
            raise ValueError("Parameter 'labels' must be unique.")
        if not np.array_equal(np.sort(classes), classes):
            raise ValueError("Parameter 'labels' must be ordered.")
        if np.any(_index_of(y, classes) < 0):
            raise ValueError("'y_true' contains labels not in parameter 'labels'.")
    if classes.shape[0] != S.shape[1]:
        raise ValueError(
            f"Number of classes in y_true ({classes.shape[0]}) not equal to the number of "
            f"columns in 'y_score' ({S.shape[1]})."
        )
    Y = y[:, None] == classes[None, :]  # (n, K) indicator
    if multi_class == "ovr":
        if average == "micro":
            ww = None if w is None else np.repeat(w, classes.shape[0])
            return _binary_auc(Y.ravel(), S.ravel(), ww)
        aucs = np.array([_binary_auc(Y[:, k], S[:, k], w) for k in range(classes.shape[0])])
        if average is None:
            return aucs
        prevalence = Y.sum(axis=0) if w is None else w @ Y
        return float(np.average(aucs, weights=prevalence if average == "weighted" else None))
    if w is not None:
        raise ValueError("sample_weight is not supported for multiclass one-vs-one ROC AUC.")
    scores, prevalence = [], []
    for a in range(classes.shape[0]):
        for b in range(a + 1, classes.shape[0]):
            mask = Y[:, a] | Y[:, b]
            auc_a = _binary_auc(Y[mask, a], S[mask, a], None)
            auc_b = _binary_auc(Y[mask, b], S[mask, b], None)
            scores.append((auc_a + auc_b) / 2)
            prevalence.append(mask.mean())
    return float(np.average(scores, weights=prevalence if average == "weighted" else None))

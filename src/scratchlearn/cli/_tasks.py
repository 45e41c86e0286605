"""What the commands do per task, as one table: :data:`TASKS` maps a task to a :class:`TaskSpec`.

A task is what :func:`scratchlearn._registry.task_of` reads from an estimator class
("classifier", "regressor", "clusterer", "transformer", "text", "ranker", "sequence").
``scratchlearn fit`` and ``scratchlearn demo`` look everything task-dependent up here (how
to split, which metrics to print, what ``--plot`` draws, how ``--cv`` splits), so a new task
is one more row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["TaskSpec", "TASKS", "task_spec", "stratify_for", "as_labels"]


@dataclass(frozen=True)
class TaskSpec:
    """How the command line treats estimators of one task.

    supervised : fit(X, y), held-out split and ``--cv``; else fit(X) on everything.
    stratify : split (and cross-validate) keeping the class proportions.
    scores : ``(estimator, X, y) -> [(name, value), ...]`` printed for held-out data.
    demo_score : ``(estimator, X_test, y_test) -> (metric name, text)`` of the demo's table.
    plot : ``(ax, estimator, X, y, target_names) -> what`` drawn by ``--plot`` when the model
        has no loss history; None when the task has no such plot.
    cv_metric : name of the score ``--cv`` reports (the estimator's ``score``).
    grouped : rows belong to queries (``qid``): split and cross-validate by whole queries, and
        call ``scores(estimator, X, y, qid)``.
    no_table : why ``scratchlearn fit`` cannot train this task on a table (CSV or bundled
        table), or None when it can.
    """

    supervised: bool
    stratify: bool
    scores: Callable
    demo_score: Callable
    plot: Callable | None = None
    cv_metric: str | None = None
    grouped: bool = False
    no_table: str | None = None


def _log_loss(y_true, proba, classes) -> float:
    from ..metrics import log_loss

    return float(log_loss(y_true, proba, labels=classes))


def _classifier_scores(estimator, X, y):
    from .. import metrics

    y_pred = estimator.predict(X)
    out = [
        ("accuracy", metrics.accuracy_score(y, y_pred)),
        ("macro F1", metrics.f1_score(y, y_pred, average="macro")),
    ]
    classes = getattr(estimator, "classes_", None)
    if hasattr(estimator, "predict_proba") and classes is not None and np.all(np.isin(y, classes)):
        out.append(("log loss", _log_loss(y, estimator.predict_proba(X), classes)))
    return out


def _regressor_scores(estimator, X, y):
    from .. import metrics

    y_pred = estimator.predict(X)
    return [
        ("R²", metrics.r2_score(y, y_pred)),
        ("RMSE", float(np.sqrt(metrics.mean_squared_error(y, y_pred)))),
        ("MAE", metrics.mean_absolute_error(y, y_pred)),
    ]


def _ranker_scores(estimator, X, y, qid=None):
    from .. import metrics

    s = estimator.predict(X)
    return [
        ("NDCG", metrics.ndcg_score(y, s, qid=qid)),
        ("NDCG@1", metrics.ndcg_score(y, s, qid=qid, k=1)),
        ("MAP", metrics.mean_average_precision(y, s, qid=qid)),
    ]


def _demo_ndcg(estimator, X, y):
    return "NDCG", f"{estimator.score(X, y):.4f}"


def _output_shape(estimator, X, y):
    return [("output shape", np.shape(estimator.transform(X)))]


def _cluster_count(estimator, X, y):
    labels = getattr(estimator, "labels_", None)
    return [("clusters", len(np.unique(estimator.predict(X) if labels is None else labels)))]


def _demo_accuracy(estimator, X, y):
    return "accuracy", f"{estimator.score(X, y):.4f}"


def _demo_r2(estimator, X, y):
    # GLMs score by deviance explained (D²), which they name in _score_name.
    return getattr(estimator, "_score_name", "R²"), f"{estimator.score(X, y):.4f}"


def _demo_features_out(estimator, X, y):
    return "features out", str(np.shape(estimator.transform(X))[-1])


def _token_accuracy(estimator, X, y):
    return [("token accuracy", estimator.score(X, y))]


def _demo_token_accuracy(estimator, X, y):
    return "token accuracy", f"{estimator.score(X, y):.4f}"


def _demo_clusters(estimator, X, y):
    return "clusters", str(len(np.unique(estimator.predict(X))))


def as_labels(y, target_names):
    """Class codes 0..K-1 shown as the dataset's class names, when it has them."""
    if not target_names or y.dtype.kind not in "iu":
        return y
    if y.size and (y.min() < 0 or y.max() >= len(target_names)):
        return y
    return np.asarray(target_names, dtype=object)[y]


def _plot_confusion(ax, estimator, X, y, target_names=None):
    from .. import plotting

    labels = getattr(estimator, "classes_", None)
    names = None
    if labels is not None and target_names:
        names = [str(v) for v in as_labels(np.asarray(labels), target_names)]
    plotting.plot_confusion_matrix(
        y, estimator.predict(X), ax=ax, labels=labels, display_labels=names
    )
    return "confusion matrix"


def _plot_regression(ax, estimator, X, y, target_names=None):
    from .. import plotting

    if np.ndim(X) == 2 and np.shape(X)[1] == 1:
        # one feature: the fitted curve over the points (e.g. a polynomial's degree)
        plotting.plot_regression_fit(estimator, X, y, ax=ax)
        return "fitted curve"
    plotting.plot_predicted_vs_true(y, estimator.predict(X), ax=ax)
    return "predicted vs true"


TASKS: dict[str, TaskSpec] = {
    "classifier": TaskSpec(
        supervised=True,
        stratify=True,
        scores=_classifier_scores,
        demo_score=_demo_accuracy,
        plot=_plot_confusion,
        cv_metric="accuracy",
    ),
    "regressor": TaskSpec(
        supervised=True,
        stratify=False,
        scores=_regressor_scores,
        demo_score=_demo_r2,
        plot=_plot_regression,
        cv_metric="R²",
    ),
    "clusterer": TaskSpec(
        supervised=False, stratify=False, scores=_cluster_count, demo_score=_demo_clusters
    ),
    "transformer": TaskSpec(
        supervised=False, stratify=False, scores=_output_shape, demo_score=_demo_features_out
    ),
    "text": TaskSpec(
        supervised=False, stratify=False, scores=_output_shape, demo_score=_demo_features_out
    ),
    "ranker": TaskSpec(
        supervised=True,
        stratify=False,
        scores=_ranker_scores,
        demo_score=_demo_ndcg,
        cv_metric="NDCG",
        grouped=True,
    ),
    "sequence": TaskSpec(
        supervised=True,
        stratify=False,
        scores=_token_accuracy,
        demo_score=_demo_token_accuracy,
        cv_metric="token accuracy",
        no_table=(
            "it labels sentences (lists of tokens), which a table cannot hold; use it from "
            "Python, e.g. on scratchlearn.datasets.load_ud_english_ewt() (the demo's "
            "'structured' story shows how)"
        ),
    ),
}


def task_spec(task: str) -> TaskSpec:
    """The row of :data:`TASKS` for ``task`` (a missing row is a bug of the library)."""
    return TASKS[task]


def stratify_for(spec: TaskSpec, y):
    """``y`` when the task splits by class and every class has two samples, else None."""
    if not spec.stratify or np.unique(y, return_counts=True)[1].min() < 2:
        return None
    return y

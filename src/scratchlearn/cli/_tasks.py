"""What the commands do per task, as one table: :data:`TASKS` maps a task to a :class:`TaskSpec`.

A task is what :func:`scratchlearn._registry.task_of` reads from an estimator class
("classifier", "regressor", "clusterer", "transformer", "text", "ranker", "sequence",
"neighbors"). ``scratchlearn fit`` and ``scratchlearn demo`` look everything task-dependent up
here (how to split, which metrics to print, what ``--plot`` draws, how ``--cv`` splits), so a
new task is one more row.

What is particular to one estimator is read from the fitted model, never from its name or
family: :func:`cluster_labels` asks a clusterer for ``predict`` and falls back on its
``labels_``; :func:`own_picture` draws what the model learned (a CART node table, a mixture's
components, a clusterer's clusters); :func:`own_report` prints what a model says of itself.
So a new estimator (a clusterer without ``predict``, say) needs no line here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._common import as_final_step_sees, final_step

__all__ = [
    "TaskSpec",
    "TASKS",
    "task_spec",
    "stratify_for",
    "as_labels",
    "cluster_labels",
    "own_picture",
    "own_report",
]


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


def cluster_labels(estimator, X):
    """The cluster of each row of ``X``: ``predict(X)`` for a clusterer that assigns new rows,
    else its ``labels_``, which name the rows it was fitted on (``X`` must be those rows)."""
    model = final_step(estimator)
    if callable(getattr(model, "predict", None)):
        return np.asarray(estimator.predict(X))
    labels = np.asarray(model.labels_)
    if labels.shape[0] != np.shape(X)[0]:
        raise ValueError(
            f"{type(model).__name__} has no predict: its labels_ name the {labels.shape[0]} rows "
            f"it was fitted on, not these {np.shape(X)[0]}"
        )
    return labels


def _cluster_count(estimator, X, y):
    # X is the rows the clusterer was fitted on: its own labels_ when it keeps them
    labels = getattr(estimator, "labels_", None)
    if labels is None:
        labels = cluster_labels(estimator, X)
    return [("clusters", len(np.unique(labels)))]


def _neighbour_distances(estimator, X, y):
    # X is the indexed rows: each row's k nearest other rows (kneighbors() leaves the row out)
    dist, _ = final_step(estimator).kneighbors()  # (n, k)
    k = dist.shape[1]
    return [
        ("k", k),
        ("mean distance to the nearest other row", float(dist[:, 0].mean())),
        ("mean distance to the k-th nearest", float(dist[:, -1].mean())),
    ]


def _demo_neighbour_distance(estimator, X, y):
    # held-out rows: the mean distance to their k nearest training rows
    dist, _ = final_step(estimator).kneighbors(as_final_step_sees(estimator, X))  # (m, k)
    return "mean k-NN distance", f"{dist.mean():.4f}"


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
    # held-out rows, assigned by predict; a clusterer without predict shows its fit's clusters
    model = final_step(estimator)
    labels = estimator.predict(X) if callable(getattr(model, "predict", None)) else model.labels_
    return "clusters", str(len(np.unique(labels)))


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


def _class_names(model, target_names):
    """The model's classes by the dataset's names, when its classes are the codes 0..K-1."""
    classes = getattr(model, "classes_", None)
    if classes is None or not target_names:
        return None
    classes = np.asarray(classes)
    if classes.dtype.kind not in "iu" or classes.size == 0 or classes.max() >= len(target_names):
        return None
    return [str(target_names[int(c)]) for c in classes]


def _draw_tree(ax, estimator, X, y, target_names=None, feature_names=None):
    from ..tree import _export

    model = final_step(estimator)
    ax.figure.set_size_inches(12, 7)
    names = _class_names(model, target_names)
    _export.plot_tree(
        model, ax=ax, feature_names=feature_names, class_names=names, max_depth=4, fontsize=7
    )
    return "the tree (to depth 4)"


def _draw_components(ax, estimator, X, y, target_names=None, feature_names=None):
    from .. import plotting

    plotting.plot_gmm(final_step(estimator), as_final_step_sees(estimator, X), ax=ax)
    return "the components' ellipses over features 0 and 1"


def _draw_clusters(ax, estimator, X, y, target_names=None, feature_names=None):
    from .. import plotting

    centers = getattr(final_step(estimator), "cluster_centers_", None)
    labels = cluster_labels(estimator, X)
    X = np.asarray(as_final_step_sees(estimator, X), dtype=np.float64)
    plotting.plot_clusters(X, labels, centers=centers, ax=ax)
    plane = "the first two principal directions" if X.shape[1] > 2 else "the two features"
    return f"the clusters{'' if centers is None else ' and their centres'} on {plane}"


def own_picture(estimator, task: str):
    """What ``scratchlearn fit --plot`` draws of what the fitted model learned, before its loss
    curve and its task's plot: ``draw(ax, estimator, X, y, target_names, feature_names) ->
    what``, or None. Read from the model's attributes, never its name: a CART node table
    (``tree_.children_left``) is drawn as the tree, a mixture's components (``means_`` and
    ``covariances_``) as ellipses, a clusterer's clusters (with ``cluster_centers_`` when it has
    them) over the data's principal plane."""
    model = final_step(estimator)
    if hasattr(getattr(model, "tree_", None), "children_left"):
        return _draw_tree
    if hasattr(model, "means_") and hasattr(model, "covariances_"):
        return _draw_components
    if task == "clusterer":
        return _draw_clusters
    return None


def own_report(estimator, feature_names=None, target_names=None):
    """What a fitted model says of itself without data, printed by ``scratchlearn fit`` after
    the scores: its ``explain(feature_names=..., class_names=...)`` (ID3's gain tables and
    tree), or None for a model without one (an ``explain`` that needs a sample, as naive
    Bayes' and the sequence labeller's, explains a prediction, not the model)."""
    model = final_step(estimator)
    explain = getattr(model, "explain", None)
    if explain is None:
        return None
    params = inspect.signature(explain).parameters
    needs_data = any(
        p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        for p in params.values()
    )
    if needs_data or not {"feature_names", "class_names"} <= set(params):
        return None
    return explain(feature_names=feature_names, class_names=_class_names(model, target_names))


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
    "neighbors": TaskSpec(
        supervised=False,
        stratify=False,
        scores=_neighbour_distances,
        demo_score=_demo_neighbour_distance,
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

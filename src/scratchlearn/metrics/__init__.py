"""Metrics: how good predictions are, and distances and kernels between samples.

================  ==================================================================
module            contents
================  ==================================================================
classification    accuracy, balanced accuracy, confusion matrix, precision / recall /
                  F-beta (per label or averaged), classification report, log loss,
                  ROC curve and ROC AUC (binary, one-vs-rest, one-vs-one)
regression        MSE, RMSE, MAE, R², Tweedie / Poisson / gamma deviances, D²
clustering        contingency matrix, (adjusted) Rand index, mutual information, NMI,
                  homogeneity / completeness / V-measure, silhouette,
                  Calinski–Harabasz, Davies–Bouldin
ltr               learning to rank, per query: DCG, NDCG, (mean) average precision,
                  mean reciprocal rank, precision at k
scorers           ``get_scorer``, ``check_scoring``, ``make_scorer`` for model selection
``pairwise``      distances (euclidean, manhattan, chebyshev, minkowski, cosine,
                  hamming) and kernels (linear, polynomial, RBF, sigmoid)
================  ==================================================================

Conventions follow scikit-learn: ``y_true`` first, ``sample_weight`` where scikit-learn has it,
greater-is-better scorers. Every function validates its input and raises a clear error before
computing.
"""

from . import pairwise
from ._classification import (
    accuracy_score,
    balanced_accuracy_score,
    classification_report,
    confusion_matrix,
    f1_score,
    fbeta_score,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)
from ._clustering import (
    adjusted_rand_score,
    calinski_harabasz_score,
    completeness_score,
    contingency_matrix,
    davies_bouldin_score,
    homogeneity_completeness_v_measure,
    homogeneity_score,
    mutual_info_score,
    normalized_mutual_info_score,
    pair_confusion_matrix,
    rand_score,
    silhouette_samples,
    silhouette_score,
    v_measure_score,
)
from ._ltr import (
    average_precision,
    dcg_score,
    mean_average_precision,
    mean_reciprocal_rank,
    ndcg_score,
    precision_at_k,
)
from ._ranking import log_loss, roc_auc_score, roc_curve
from ._regression import (
    d2_binomial_score,
    d2_tweedie_score,
    mean_absolute_error,
    mean_gamma_deviance,
    mean_poisson_deviance,
    mean_squared_error,
    mean_tweedie_deviance,
    r2_score,
    root_mean_squared_error,
)
from ._scorer import (
    check_multimetric_scoring,
    check_scoring,
    get_scorer,
    get_scorer_names,
    make_scorer,
)
from .pairwise import (
    euclidean_distances,
    pairwise_distances,
    pairwise_distances_chunked,
    pairwise_kernels,
)

__all__ = [
    "pairwise",
    "accuracy_score",
    "balanced_accuracy_score",
    "classification_report",
    "confusion_matrix",
    "f1_score",
    "fbeta_score",
    "log_loss",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "roc_auc_score",
    "roc_curve",
    "adjusted_rand_score",
    "contingency_matrix",
    "pair_confusion_matrix",
    "rand_score",
    "silhouette_samples",
    "silhouette_score",
    "mutual_info_score",
    "normalized_mutual_info_score",
    "homogeneity_completeness_v_measure",
    "homogeneity_score",
    "completeness_score",
    "v_measure_score",
    "calinski_harabasz_score",
    "davies_bouldin_score",
    "d2_binomial_score",
    "d2_tweedie_score",
    "mean_absolute_error",
    "mean_gamma_deviance",
    "mean_poisson_deviance",
    "mean_squared_error",
    "mean_tweedie_deviance",
    "r2_score",
    "root_mean_squared_error",
    "average_precision",
    "dcg_score",
    "mean_average_precision",
    "mean_reciprocal_rank",
    "ndcg_score",
    "precision_at_k",
    "check_multimetric_scoring",
    "check_scoring",
    "get_scorer",
    "get_scorer_names",
    "make_scorer",
    "euclidean_distances",
    "pairwise_distances",
    "pairwise_distances_chunked",
    "pairwise_kernels",
]

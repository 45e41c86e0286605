"""Registry entries of the clustering family (see :mod:`scratchlearn._registry`)."""

from scratchlearn._registry import Entry, Family

_SK = "sklearn.cluster."
_SEEDS = (
    "the check shuffles the repeated rows, so the random seeding draws other rows and k-means "
    "(15 points in 30-D, many local optima) can end in another one; unshuffled, weighted and "
    "repeated fits agree exactly, and tests/cluster/test_cluster_kmeans_properties.py checks "
    "weights = duplicated rows from the same initial centres"
)

FAMILY = Family(
    name="cluster",
    order=110,
    title="Clustering: k-means (Lloyd, Elkan, mini-batch) and k-medoids",
    stories=("scratchlearn.cluster._showcase", "scratchlearn.cluster._showcase_kmedoids"),
    entries=[
        Entry(
            name="KMeans",
            summary="Lloyd's iterations from greedy k-means++ seeds",
            dataset="iris",
            demo_params={"n_clusters": 3, "random_state": 0},
            sklearn=_SK + "KMeans",
            check_params={"n_clusters": 2, "random_state": 0, "max_iter": 50},
            expected_failed_checks={
                "check_sample_weight_equivalence_on_dense_data": _SEEDS,
                "check_sample_weight_equivalence_on_sparse_data": _SEEDS,
            },
        ),
        Entry(
            name="MiniBatchKMeans",
            summary="k-means on random mini-batches, with partial_fit",
            dataset="iris",
            demo_params={"n_clusters": 3, "random_state": 0, "batch_size": 64},
            sklearn=_SK + "MiniBatchKMeans",
            check_params={"n_clusters": 2, "random_state": 0, "batch_size": 32, "max_iter": 20},
            expected_failed_checks={
                "check_sample_weight_equivalence_on_dense_data": _SEEDS,
                "check_sample_weight_equivalence_on_sparse_data": _SEEDS,
            },
        ),
        Entry(
            name="KMedoids",
            summary="k-medoids (alternate, PAM, FasterPAM): data points as centres",
            dataset="iris",
            demo_params={"n_clusters": 3, "method": "fasterpam", "init": "build"},
            check_params={"n_clusters": 3, "init": "build", "method": "fasterpam"},
        ),
    ],
)

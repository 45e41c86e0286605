"""Registry entries of the clustering family (see :mod:`scratchlearn._registry`)."""

from scratchlearn._registry import Entry, Family

_SK = "sklearn.cluster."

FAMILY = Family(
    name="cluster",
    title="Clustering: k-means (Lloyd, Elkan, mini-batch)",
    stories=("scratchlearn.cluster._showcase",),
    entries=[
        Entry(
            name="KMeans",
            summary="Lloyd's iterations from greedy k-means++ seeds",
            dataset="iris",
            demo_params={"n_clusters": 3, "random_state": 0},
            sklearn=_SK + "KMeans",
            check_params={"n_clusters": 2, "random_state": 0, "max_iter": 50},
        ),
        Entry(
            name="MiniBatchKMeans",
            summary="k-means on random mini-batches, with partial_fit",
            dataset="iris",
            demo_params={"n_clusters": 3, "random_state": 0, "batch_size": 64},
            sklearn=_SK + "MiniBatchKMeans",
            check_params={"n_clusters": 2, "random_state": 0, "batch_size": 32, "max_iter": 20},
        ),
    ],
)

"""Registry entries of the clustering family (see :mod:`scratchlearn._registry`)."""

from scratchlearn._registry import Entry, Family

FAMILY = Family(
    name="cluster",
    title="Clustering: k-medoids",
    stories=("scratchlearn.cluster._showcase_kmedoids",),
    entries=[
        Entry(
            name="KMedoids",
            summary="k-medoids (alternate, PAM, FasterPAM): data points as centres",
            dataset="iris",
            demo_params={"n_clusters": 3, "method": "fasterpam", "init": "build"},
            check_params={"n_clusters": 3, "init": "build", "method": "fasterpam"},
        ),
    ],
)

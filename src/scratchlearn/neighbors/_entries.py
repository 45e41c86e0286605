"""Registry entries of the neighbour estimators (see :mod:`scratchlearn._registry`).

``NearestNeighbors`` has no predict, transform or labels: its task is "neighbors" (an index
answering ``kneighbors``), which the command line reports by the distances to the nearest
training rows and ``scratchlearn predict`` answers with the k nearest rows. ``KDTree`` is the
index behind ``NearestNeighbors(algorithm="kd_tree")``; built from X by its constructor
(scikit-learn's API), it is not an estimator and is reached through that entry.
"""

from scratchlearn._registry import Entry, Family

_SK = "sklearn.neighbors."
# The catalogue fits one sample and predicts: defined only for k = 1 (a larger k is refused at
# fit, naming k and n_samples; tests/neighbors covers that refusal).
_ONE_SAMPLE_OK = {"n_neighbors": 1}

FAMILY = Family(
    name="neighbors",
    order=80,
    title="Nearest neighbours: k-NN and radius votes, brute force by blocks, k-d tree",
    stories=("scratchlearn.neighbors._showcase",),
    entries=[
        Entry(
            name="NearestNeighbors",
            summary="index of the training rows: the k nearest, or all within a radius",
            dataset="iris",
            demo_params={"n_neighbors": 5},
            sklearn=_SK + "NearestNeighbors",
            check_params=_ONE_SAMPLE_OK,
        ),
        Entry(
            name="KNeighborsClassifier",
            summary="vote of the k nearest training points (five distances, 1/d weights)",
            dataset="iris",
            demo_params={"n_neighbors": 5},
            sklearn=_SK + "KNeighborsClassifier",
            check_params=_ONE_SAMPLE_OK,
        ),
        Entry(
            name="KNeighborsRegressor",
            summary="mean target of the k nearest training points",
            dataset="diabetes",
            demo_params={"n_neighbors": 10, "weights": "distance"},
            sklearn=_SK + "KNeighborsRegressor",
            check_params=_ONE_SAMPLE_OK,
        ),
        Entry(
            name="RadiusNeighborsClassifier",
            summary="vote of every training point within a radius",
            dataset="iris",
            demo_params={"radius": 1.0, "outlier_label": "most_frequent"},
            sklearn=_SK + "RadiusNeighborsClassifier",
            check_params={"outlier_label": "most_frequent"},
        ),
        Entry(
            name="RadiusNeighborsRegressor",
            summary="mean target of every training point within a radius",
            dataset="diabetes",
            demo_params={"radius": 0.2, "weights": "distance"},  # every diabetes row has a
            # neighbour within 0.154 (measured); 0.2 keeps held-out rows covered (CV R² 0.34)
            sklearn=_SK + "RadiusNeighborsRegressor",
        ),
    ],
)

"""Registry entries of the Gaussian mixtures (see :mod:`scratchlearn._registry`)."""

from scratchlearn._registry import Entry, Family

FAMILY = Family(
    name="mixture",
    title="Gaussian mixtures fitted by EM",
    stories=("scratchlearn.mixture._showcase",),
    entries=[
        Entry(
            name="GaussianMixture",
            summary="EM in log space, precisions through their Cholesky factors",
            dataset="iris",
            demo_params={"n_components": 3, "random_state": 0},
            sklearn="sklearn.mixture.GaussianMixture",
            check_params={"random_state": 0},
            plot="scratchlearn.mixture._showcase:draw_mixture",
            expected_failed_checks={
                "check_clustering": (
                    "GaussianMixture has no n_clusters parameter, so the check keeps the "
                    "default n_components=1 (one cluster, adjusted Rand index 0), and it reads "
                    "labels_, which scikit-learn's GaussianMixture does not have either (it is "
                    "a density estimator there); tests/mixture checks fit_predict == "
                    "fit().predict and the recovery of blobs"
                ),
            },
        ),
    ],
)

"""Registry entries of the Gaussian mixtures (see :mod:`scratchlearn._registry`)."""

from scratchlearn._registry import Entry, Family

FAMILY = Family(
    name="mixture",
    order=120,
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
        ),
    ],
)

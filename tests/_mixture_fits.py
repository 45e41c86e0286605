"""GaussianMixture fits from a given start compared up to the order of their sums: the start
(also the oracle tests') and the bound shared by the tests that cut the rows differently (row
blocks of a Dask array, row chunks of an in-memory pass).

The bound. Both fits evaluate the same formulas (the in-memory fit is the one-block case of the
same reduction); only the order of the sums differs: per-block partial sums merged in a tree
(Chan's update for the centred "full" scatters) against one BLAS sum over all rows. A sum of n
terms in another order moves by at most n·ε·Σ|terms|: N_k and S_k by n·ε relative, and the
second moments by n·ε·max‖x‖² absolutely (the raw XᵀX and Σ r x² of "tied", "diag" and
"spherical" directly; the "full" scatters through the differences of block means that Chan's
update adds, each off by ε·max‖x‖ times a spread ≤ max‖x‖). A change ΔΣ of the covariances moves
the precision factors U (hence the next responsibilities) by ‖ΔΣ‖/λ_min relative, λ_min the
least eigenvalue of the fitted covariances: one iteration perturbs θ by n·ε·γ relative with the
conditioning γ = max‖x‖²/λ_min. Near its fixed point EM is a contraction, so T iterations add
their perturbations rather than multiply them: T·n·ε·γ relative to each quantity's scale
(weights 1, means max|x|, covariances max|Σ|), and to |L| + d for the log-likelihoods (d from
the Mahalanobis terms, whose mean is d). Each test module keeps the measured error / bound of
its comparisons and asserts a factor of at least 10 between them. The stopping decisions are
far from rounding (tol = 1e-6 against a last |ΔL| that is not within 1e-9 of it), so n_iter_
must be equal.
"""

import numpy as np

EPS = np.finfo(float).eps


def start(X, K, covariance_type):
    """K spread-out rows as means, equal weights, unit precisions."""
    rows = np.linspace(0, X.shape[0] - 1, K).astype(int)
    d = X.shape[1]
    precisions = {
        "full": np.tile(np.eye(d), (K, 1, 1)),
        "tied": np.eye(d),
        "diag": np.ones((K, d)),
        "spherical": np.ones(K),
    }[covariance_type]
    return {"weights_init": np.full(K, 1 / K), "means_init": X[rows], "precisions_init": precisions}


def least_eigenvalue(gm):
    C, ctype = gm.covariances_, gm.covariance_type
    if ctype in ("diag", "spherical"):
        return float(np.min(C))
    return float(min(np.linalg.eigvalsh(S)[0] for S in np.reshape(C, (-1,) + C.shape[-2:])))


def assert_same_fit(got, want, X, measured):
    n, d = X.shape
    assert got.n_iter_ == want.n_iter_ and got.converged_ == want.converged_
    gamma = np.einsum("ij,ij->i", X, X).max() / least_eigenvalue(want)
    bound = want.n_iter_ * n * EPS * gamma  # relative, see the module docstring
    L_scale = abs(want.lower_bound_) + d
    errors = {
        "weights": np.abs(got.weights_ - want.weights_).max(),
        "means": np.abs(got.means_ - want.means_).max() / np.abs(X).max(),
        "covariances": np.abs(got.covariances_ - want.covariances_).max()
        / np.abs(want.covariances_).max(),
        "lower_bound": abs(got.lower_bound_ - want.lower_bound_) / L_scale,
        "history": np.abs(np.subtract(got.history_["objective"], want.history_["objective"])).max()
        / L_scale,
    }
    for name, err in errors.items():
        assert err <= bound, (name, err, bound)
    measured.append(max(errors.values()) / bound)
    assert len(got.lower_bounds_) == len(want.lower_bounds_)

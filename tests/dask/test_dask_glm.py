"""GLMs on Dask: each IRLS iteration (and each L-BFGS evaluation) is one pass of row-block
statistics summed over the blocks; the fit must be the in-memory fit up to the stopping rule.

Bounds used below (ε = 2.2e-16, n rows, p parameters):
- the stopping rule on the whole data: the Dask fit's ‖∇L‖∞, recomputed in memory, is ≤ tol
  up to that recomputation's rounding (a lost block or dropped weights fail here);
- coefficients: both fits stop at ‖∇L‖∞ ≤ tol, hence ‖β_mem − β_dask‖₂ ≤ √p·(g_mem + g_dask)/λ
  with the gradients recomputed in memory and λ = λ_min(∇²L) (``_dask_glm``);
- the same iterations: the two runs solve normal equations whose sums differ only by their
  order, a relative n·ε·κ perturbation, far from changing a stop decision: n_iter_ and
  stop_reason_ are equal, exactly;
- deviance and the first objective entry (at μ₀, which depends on no solve): sums of n terms
  in another order plus, for the deviance, its change between the two β, ∂D/∂β = 2S·∇L(β) at
  alpha = 0: |ΔD| ≤ n·ε·Σ|sᵢdᵢ| + 2S·‖∇L‖₂‖Δβ‖₂;
- predict: each μᵢ = g⁻¹(xᵢᵀw + b) is one row's dot product, the same in a block as in the
  whole array up to BLAS's order: |Δη| ≤ p·ε·Σⱼ|xᵢⱼwⱼ|, relative |Δμ|/μ ≤ |Δη| (log link).
"""

import warnings

import dask.array as da
import numpy as np
import pytest
from _dask_cases import chunkings
from _dask_glm import beta_of, check_stop_rule, coef_gap_and_bound, grad_inf

from scratchlearn.datasets import load_breast_cancer, load_diabetes, load_randhie
from scratchlearn.linear_model import (
    GeneralizedLinearRegressor,
    PoissonRegressor,
    TweedieRegressor,
)

EPS = np.finfo(float).eps


@pytest.fixture(scope="module")
def randhie():
    """300 person-years of the RAND health insurance experiment (doctor visits), every 29th row
    (the file lists each person's years together; every health dummy occurs), and integer case
    weights 1-3."""
    X, y = load_randhie(return_X_y=True)
    X, y = X[::29][:300], y[::29][:300]
    s = np.random.default_rng(0).integers(1, 4, size=len(y)).astype(float)
    return X, y, s


@pytest.fixture(scope="module")
def diabetes():
    return load_diabetes(return_X_y=True)


def _dask(X, y, s, chunks):
    """X cut into row blocks ``chunks``; y as Dask too; the weights as Dask cut otherwise (the
    fit rechunks them to X's rows)."""
    Xd = da.from_array(X, chunks=(chunks, X.shape[1]))
    y = da.from_array(y, chunks=chunks)
    return Xd, y, None if s is None else da.from_array(s, chunks=7)


def _check_same_fit(mem, dsk, X, y, s=None):
    """n_iter_, stop_reason_ equal; β within the stop-rule bound; deviance within its rounding
    (module docstring). Returns the two ratios measured/bound."""
    assert (dsk.n_iter_, dsk.stop_reason_) == (mem.n_iter_, mem.stop_reason_)
    assert mem.stop_reason_ == "grad_norm"
    # iterated (normal + identity: IRLS is least squares, solved by its first step)
    assert mem.n_iter_ >= (1 if mem._family_link()[0].name == "normal" else 3)
    assert len(dsk.history_["objective"]) == len(mem.history_["objective"])
    check_stop_rule(mem, dsk, X, y, s)  # on the whole data: what a wrong block sum fails
    gap, bound = coef_gap_and_bound(mem, dsk, X, y, s)
    assert gap <= bound
    w = np.ones(len(y)) if s is None else s
    family, _ = mem._family_link()
    terms = np.abs(w * family.unit_deviance(y, mem.predict(X)))
    g2 = np.sqrt(len(beta_of(mem))) * grad_inf(mem, X, y, w, beta_of(mem))
    d_bound = len(y) * EPS * terms.sum() + 2 * w.sum() * g2 * bound
    assert abs(dsk.deviance_ - mem.deviance_) <= d_bound
    return gap / bound, abs(dsk.deviance_ - mem.deviance_) / d_bound


def _cases(randhie, diabetes):
    """(estimator, X, y, s, chunking): every family once (gamma in the DataFrame test), both
    scikit-learn-style solvers, weights, no intercept, uneven blocks, and one-row blocks on a
    12-row, 3-column slice (each block is a task of every pass; the one-block chunking is the
    DataFrame test's)."""
    X, y, s = randhie
    Xd, yd = diabetes
    Xb, yb = load_breast_cancer(return_X_y=True)
    Xb = (Xb[:200, :8] - Xb[:, :8].mean(0)) / Xb[:, :8].std(0)
    nc = "newton-cholesky"
    return [
        (PoissonRegressor(alpha=0.1, solver=nc, fit_intercept=False), X, y, s, chunkings(300)[1]),
        (TweedieRegressor(power=1.5), Xd, yd, None, chunkings(442)[1]),  # lbfgs, alpha=1
        (GeneralizedLinearRegressor(family="inverse_gaussian", link="log", tol=1e-6), Xd, yd, None,
         (150, 150, 142)),
        (GeneralizedLinearRegressor(family="binomial", alpha=0.01), Xb, yb[:200] * 1.0, None,
         (67, 133)),
        (GeneralizedLinearRegressor(), Xd[:12, :3], yd[:12], None, chunkings(12)[2]),
    ]  # fmt: skip


def test_every_family_solver_and_chunking_is_the_in_memory_fit(client, randhie, diabetes):
    for est, X, y, s, chunks in _cases(randhie, diabetes):
        mem = type(est)(**est.get_params()).fit(X, y, sample_weight=s)
        dsk = type(est)(**est.get_params()).fit(*_dask(X, y, s, chunks))
        _check_same_fit(mem, dsk, X, y, s)
        # bse_ (alpha = 0): √diag of the inverse of X̃ᵀWX̃ (κ ≤ 1e4 here) at β's that agree to
        # the bound above: relative 1e-6 is far above both effects, which are < 1e-9
        np.testing.assert_allclose(dsk.bse_, mem.bse_, rtol=1e-6)
        # φ̂ and ℓ: sums of n ≤ 442 terms (n·ε ≈ 1e-13 of their size) at β's whose gap moves
        # them by ∂/∂β·Δβ ≤ 1e-12 relative here (≈ 0 for ℓ at alpha = 0); NaN alike for
        # TweedieRegressor's skipped series
        np.testing.assert_allclose(
            [dsk.dispersion_, dsk.llf_], [mem.dispersion_, mem.llf_], rtol=1e-9
        )


def test_dataframe_one_block_records_names_and_predicts_lazily(client, diabetes):
    dd = pytest.importorskip("dask.dataframe")
    bunch = load_diabetes(as_frame=True)
    frame, y = bunch.data, bunch.target.to_numpy()
    est = GeneralizedLinearRegressor(family="gamma", link="log", tol=1e-6)
    mem = GeneralizedLinearRegressor(**est.get_params()).fit(frame, y)
    dsk = est.fit(dd.from_pandas(frame, npartitions=1), y)
    assert list(dsk.feature_names_in_) == list(frame.columns)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the check recomputes on arrays: no names
        _check_same_fit(mem, dsk, frame.to_numpy(), y)
    Xd = dd.from_pandas(frame, npartitions=3)  # names checked once, then blocks mapped
    mu = dsk.predict(Xd)
    assert isinstance(mu, da.Array) and len(mu.chunks[0]) == 3
    want = dsk.predict(frame)
    # one row's x·w + b in a block or in the whole array: |Δη| ≤ p·ε·Σ|xⱼwⱼ| (≤ 1e-13 here)
    eta_terms = np.abs(frame.to_numpy()) @ np.abs(dsk.coef_) + abs(dsk.intercept_)
    assert np.all(np.abs(mu.compute() - want) <= 11 * EPS * eta_terms * want)
    assert "bmi" in dsk.summary()  # from the fitted attributes: no pass over the data


def test_nan_in_one_block_raises_the_clear_error_at_fit(client, randhie):
    X, y, _ = randhie
    X = X.copy()
    X[250, 2] = np.nan
    Xd, yd, _ = _dask(X, y, None, (100, 100, 100))
    with pytest.raises(ValueError, match="NaN"):
        PoissonRegressor().fit(Xd, yd)
    y_bad = y.copy()
    y_bad[5] = -1.0
    with pytest.raises(ValueError, match="non-negative counts"):
        PoissonRegressor().fit(*_dask(randhie[0], y_bad, None, (100, 100, 100))[:2])


def test_refusals_name_what_works(client, randhie):
    X, y, _ = randhie
    Xd, yd, _ = _dask(X, y, None, (150, 150))
    with pytest.raises(ValueError, match="solver='irls' or 'lbfgs'"):
        GeneralizedLinearRegressor(family="poisson", solver="gd").fit(Xd, yd)
    m = PoissonRegressor(solver="newton-cholesky").fit(X, y)
    # score of a Dask X: μ predicted block by block, then D² in memory (test_dask_predict.py)
    assert m.score(Xd, yd) == pytest.approx(m.score(X, y), rel=1e-12)
    assert m._scratch_tags()["dask"]

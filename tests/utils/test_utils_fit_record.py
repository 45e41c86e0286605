"""The one fit record of iterative estimators, and the one SPD solve."""

import warnings

import numpy as np
import pytest

from scratchlearn.base import BaseEstimator
from scratchlearn.exceptions import ConvergenceWarning, LinAlgWarning
from scratchlearn.utils import CONVERGED, HISTORY_KEYS, STOP_REASONS, min_norm_lstsq, spd_solve


class _Toy(BaseEstimator):
    def __init__(self, *, reason="grad_norm"):
        self.reason = reason

    def fit(self, X=None, y=None):
        history = {"objective": [3.0, 2.0, 1.5], "grad_norm": [1.0, 0.1, 1e-3]}
        self._record_fit(2, history, self.reason, criterion="‖∇J‖ <= tol=0.01", met={"grad_norm"})
        return self


def test_vocabulary_is_documented_and_closed():
    assert CONVERGED < set(STOP_REASONS)
    assert set(STOP_REASONS) == {
        "grad_norm", "cost_change", "converged", "max_iter", "stalled", "separable"
    }  # fmt: skip
    assert HISTORY_KEYS[0] == "objective"


def test_met_criterion_records_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = _Toy().fit()
    assert est.n_iter_ == 2 and est.stop_reason_ == "grad_norm"
    assert est.history_ == {"objective": [3.0, 2.0, 1.5], "grad_norm": [1.0, 0.1, 1e-3]}


@pytest.mark.parametrize("reason", ["max_iter", "stalled", "separable", "cost_change"])
def test_unmet_criterion_warns_naming_reason_and_criterion(reason):
    # cost_change is a converged reason in general, but not for an estimator whose criterion is
    # the gradient norm: it must warn too
    with pytest.warns(ConvergenceWarning, match=rf"_Toy stopped on '{reason}'.*tol=0\.01"):
        est = _Toy(reason=reason).fit()
    assert est.stop_reason_ == reason


def test_warning_points_at_the_callers_fit():
    with pytest.warns(ConvergenceWarning) as caught:
        _Toy(reason="max_iter").fit()
    assert caught[0].filename == __file__


def test_undocumented_reason_or_history_key_is_a_library_bug():
    with pytest.raises(RuntimeError, match="undocumented reason 'line_search'"):
        _Toy(reason="line_search").fit()
    est = _Toy()
    with pytest.raises(RuntimeError, match="needs 'objective'"):
        est._record_fit(1, {"J": [1.0, 0.5]}, "grad_norm", criterion="c")
    with pytest.raises(RuntimeError, match="different lengths"):
        est._record_fit(
            1, {"objective": [1.0, 0.5], "grad_norm": [1.0]}, "grad_norm", criterion="c"
        )


def test_history_of_several_problems_and_direct_solves():
    est = _Toy()
    est._record_fit([1, 2], [{"objective": [1.0, 0.5]}, {"objective": [2.0]}], "converged",
                    criterion="c")  # fmt: skip
    assert est.history_ == [{"objective": [1.0, 0.5]}, {"objective": [2.0]}]
    est._record_fit(1, None, "converged", criterion="c")
    assert est.history_ is None


# -- spd_solve ------------------------------------------------------------------------------
def _spd(p, rng):
    A = rng.standard_normal((2 * p, p))
    return A.T @ A  # κ ~ 10 for a 2p x p Gaussian matrix


def test_spd_solve_positive_definite_is_cholesky_without_warning():
    rng = np.random.default_rng(0)
    A, b = _spd(6, rng), rng.standard_normal(6)
    A_before = A.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x = spd_solve(A, b)
    # backward-stable Cholesky: relative error <= c·κ(A)·ε; κ(A) here is ~10, so 1e-12 keeps a
    # factor > 100 over the 1e-15-level error
    np.testing.assert_allclose(A @ x, b, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(A, A_before)


@pytest.mark.parametrize("fallback", ["lstsq", "jitter", "callable"])
def test_spd_solve_singular_falls_back_and_warns(fallback):
    # A = vvᵀ has rank one; b in its range, so every fallback returns a solution of A x = b
    v = np.array([1.0, 2.0, 2.0])
    A, b = np.outer(v, v), 3.0 * v
    fb = (lambda: min_norm_lstsq(A, b)) if fallback == "callable" else fallback
    with pytest.warns(LinAlgWarning, match="the normal equations is singular"):
        x = spd_solve(A, b, fallback=fb, what="the normal equations")
    # lstsq / callable: the minimum-norm solution x = v/3 (vᵀv = 9, so vvᵀ(v/3) = 3v) to
    # rounding; jitter: (A + τI)x = b with τ ~ 1e-12·9 perturbs x by ~ τ/λ(A) relative
    tol = 1e-10 if fallback == "jitter" else 1e-13
    np.testing.assert_allclose(A @ x, b, rtol=tol, atol=tol)
    if fallback != "jitter":
        np.testing.assert_allclose(x, v / 3.0, rtol=1e-13)


def test_spd_solve_raise_names_the_system():
    with pytest.raises(np.linalg.LinAlgError, match="the Hessian is singular"):
        spd_solve(np.zeros((2, 2)), np.ones(2), fallback="raise", what="the Hessian")

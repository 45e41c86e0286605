"""check_array and friends: every rejection names the problem; nothing is modified in place."""

import tracemalloc
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from scratchlearn.exceptions import DataConversionWarning, InvalidParameterError
from scratchlearn.utils import (
    Interval,
    StrOptions,
    check_array,
    check_classification_targets,
    check_is_fitted,
    check_random_state,
    check_sample_weight,
    check_X_y,
    column_or_1d,
    parse_param_string,
    type_of_target,
    unique_labels,
    validate_params,
)


@pytest.mark.parametrize(
    "bad, exc, match",
    [
        ([[1.0, np.nan]], ValueError, "Input X contains NaN"),
        ([[1.0, np.inf]], ValueError, "contains infinity"),
        ([1.0, 2.0], ValueError, "got a 1-dimensional array"),
        (np.zeros((2, 2, 2)), ValueError, "Found array with dim 3"),
        (np.zeros((0, 3)), ValueError, r"0 sample\(s\)"),
        (np.zeros((3, 0)), ValueError, r"0 feature\(s\) \(shape=\(3, 0\)\) while a minimum"),
        ([["a", "b"]], ValueError, "not numbers"),
        ([[1 + 2j, 1.0]], ValueError, "Complex data not supported"),
        (sp.csr_matrix(np.eye(2)), TypeError, "Sparse data was passed"),
        ("abc", ValueError, "got the string"),
        (None, ValueError, "got None"),
    ],
)
def test_check_array_rejects(bad, exc, match):
    with pytest.raises(exc, match=match):
        check_array(bad)


def test_check_array_rejects_an_unknown_finiteness_option():
    # "allow_nan" (underscore) was once accepted and silently meant "reject NaN"
    with pytest.raises(ValueError, match="ensure_all_finite should be"):
        check_array([[1.0, np.nan]], ensure_all_finite="allow_nan")


def test_check_array_ragged_rows():
    # once NumPy's bare "setting an array element with a sequence"
    with pytest.raises(ValueError, match="X is not a rectangular array"):
        check_array([[1.0, 2.0], [3.0]])


def test_check_array_dict_entries_keep_numpy_message():
    X = np.array([[1.0, {"a": 1}]], dtype=object)
    with pytest.raises(TypeError, match="argument must be a string.* number"):
        check_array(X)


def test_check_array_conversions_and_no_aliasing():
    X = np.arange(6, dtype=np.int64).reshape(3, 2)
    out = check_array(X, dtype=np.float64)
    assert out.dtype == np.float64
    f = np.ones((3, 2))
    assert check_array(f) is f
    assert not np.shares_memory(check_array(f, copy=True), f)
    obj = np.array([[1, 2.5]], dtype=object)
    assert check_array(obj).dtype == np.float64
    allow = check_array([[np.nan, 1.0]], ensure_all_finite="allow-nan")
    assert np.isnan(allow[0, 0])
    s = check_array(sp.coo_matrix(np.eye(3)), accept_sparse=["csr"])
    assert s.format == "csr"
    with pytest.raises(ValueError, match=r"1 sample\(s\).*minimum of 2"):
        check_array([[1.0, 2.0]], ensure_min_samples=2)


@pytest.mark.parametrize("container", [sp.csr_matrix, sp.csc_matrix, sp.csr_array, sp.coo_matrix])
def test_check_array_converts_sparse_values_and_leaves_the_callers_matrix_alone(container):
    """Integer counts to float64 (an entry stored twice included): the same matrix, of the
    same kind, sharing no array with the caller's."""
    data, indices, indptr = np.array([3, 1, 2, 5]), np.array([1, 1, 0, 2]), np.array([0, 2, 2, 4])
    if container is sp.coo_matrix:  # the same entries: rows 0, 0, 2, 2
        X = container((data, (np.array([0, 0, 2, 2]), indices)), shape=(3, 3))
    else:  # compressed rows (or columns), entry 1 stored twice
        X = container((data, indices, indptr), shape=(3, 3))
    assert X.nnz == 4
    before = X.copy()
    out = check_array(X, accept_sparse=True, dtype=np.float64)
    assert out.dtype == np.float64 and type(out) is type(X) and out.shape == X.shape
    np.testing.assert_array_equal(out.toarray(), X.toarray().astype(np.float64))
    for name in ("data", "indices", "indptr", "row", "col"):
        if hasattr(X, name):
            assert not np.shares_memory(getattr(out, name), getattr(X, name)), name
    out.data[:] = -1.0
    if hasattr(out, "indices"):
        out.indices[:] = 0
    np.testing.assert_array_equal(X.toarray(), before.toarray())


@pytest.mark.parametrize("order", ["C", "F"])
def test_check_array_reads_finite_float64_where_it_lies(order):
    """No copy and no temporary the size of X: finiteness is decided by reductions."""
    X = np.asarray(np.random.default_rng(0).normal(size=(40_000, 100)), order=order)  # 32 MB
    check_array(X)
    tracemalloc.start()
    out = check_array(X, dtype=np.float64)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert out is X
    # What a reduction may hold does not grow with X: NumPy 1.25 buffers this sum in its ufunc
    # buffer (np.getbufsize() float64 values, 64 KiB; 66 KB measured here, 112 KB in a CI run of
    # the whole suite, where other threads allocate while tracemalloc traces), NumPy 2.x holds
    # about 1 KB. What the test must catch grows with X: a mask np.isfinite(X) is X.nbytes / 8
    # (4 MB), a copy X.nbytes. The bound is half a mask, 2 MB, 18 times the largest measurement.
    bound = X.nbytes // 16
    assert peak < bound


@pytest.mark.parametrize("method", ["predict", "decision_function"])
@pytest.mark.parametrize("name", ["LinearRegression", "Lasso", "LogisticRegression"])
def test_linear_model_predict_allocates_its_output_only(name, method):
    from scratchlearn import linear_model

    rng = np.random.default_rng(0)
    X = rng.normal(size=(10_000, 400))  # 32 MB
    y = X[:, 0] > 0 if name == "LogisticRegression" else X[:, 0]
    est = getattr(linear_model, name)().fit(X, y)
    if not hasattr(est, method):
        return
    for Xp in (X, np.asfortranarray(X)):
        getattr(est, method)(Xp)
        tracemalloc.start()
        getattr(est, method)(Xp)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        # The outputs are n values (80 KB) plus what does not grow with X (NumPy 1.25's 64 KiB
        # ufunc buffer, other threads' allocations: 112 KB at most in a CI run); a bool mask of
        # X would be X.nbytes / 8 (4 MB). The bound, half a mask, is 10 times what is expected.
        assert peak < X.nbytes // 16


def test_finite_values_whose_sum_overflows_are_accepted_quietly():
    X = np.full((3, 2), 1e308)  # Σ X overflows to inf; every value is finite
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_array(X) is X
    X[1, 1] = np.nan
    with pytest.raises(ValueError, match="contains NaN in column 1"):
        check_array(X)
    assert check_array(X, ensure_all_finite="allow-nan") is X
    X[2, 0] = -np.inf
    with pytest.raises(ValueError, match="contains infinity .* in column 0"):
        check_array(X, ensure_all_finite="allow-nan")


def test_check_X_y():
    with pytest.raises(ValueError, match="requires y to be passed, but the target y is None"):
        check_X_y(np.eye(2), None)
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[2, 3\]"):
        check_X_y(np.eye(2), [1, 2, 3])
    with pytest.warns(DataConversionWarning, match="column-vector y"):
        _, y = check_X_y(np.eye(2), [[1], [2]])
    assert y.shape == (2,)
    with pytest.raises(ValueError, match="Input y contains NaN"):
        check_X_y(np.eye(2), [1.0, np.nan], y_numeric=True)
    with pytest.raises(ValueError, match="should be a 1d array"):
        column_or_1d(np.ones((2, 2)))


def test_check_sample_weight():
    np.testing.assert_array_equal(check_sample_weight(None, np.eye(3)), np.ones(3))
    np.testing.assert_array_equal(check_sample_weight(2, np.eye(3)), np.full(3, 2.0))
    with pytest.raises(ValueError, match="sample_weight has 2 elements, but X has 3 samples"):
        check_sample_weight([1, 2], np.eye(3))
    with pytest.raises(ValueError, match="Negative values in sample_weight"):
        check_sample_weight([1, -1, 1], np.eye(3))
    with pytest.raises(ValueError, match="at least one non-zero weight"):
        check_sample_weight([0, 0, 0], np.eye(3))
    with pytest.raises(ValueError, match="1D array"):
        check_sample_weight(np.ones((3, 1)), np.eye(3))
    w = np.array([1.0, 2.0, 3.0])
    out = check_sample_weight(w, np.eye(3))
    out[0] = 99.0
    assert w[0] == 1.0, "the caller's weights must never be aliased"


def test_check_random_state():
    a = check_random_state(3).random(4)
    np.testing.assert_array_equal(a, np.random.default_rng(3).random(4))
    g = np.random.default_rng(1)
    assert check_random_state(g) is g
    assert isinstance(check_random_state(np.random.RandomState(0)), np.random.Generator)
    with pytest.raises(ValueError, match="random_state must be"):
        check_random_state("seed")
    # a negative seed once surfaced as numpy's bare "expected non-negative integer"
    with pytest.raises(ValueError, match="random_state must be a non-negative int; got -1"):
        check_random_state(-1)


def test_check_is_fitted_rejects_a_non_estimator():
    # once a TypeError from vars() deep inside ("vars() argument must have __dict__")
    with pytest.raises(TypeError, match="not an estimator instance"):
        check_is_fitted(3)


def test_type_of_target():
    assert type_of_target([0, 1, 1]) == "binary"
    assert type_of_target(["a", "b", "c"]) == "multiclass"
    assert type_of_target([0.0, 1.0, 2.0]) == "multiclass"
    assert type_of_target([0.5, 1.0]) == "continuous"
    assert type_of_target(np.array([[0, 1], [1, 0]])) == "multilabel-indicator"
    with pytest.raises(ValueError, match="Unknown label type: 'continuous'"):
        check_classification_targets([0.1, 0.2])
    # mixed labels once raised "'<' not supported between 'str' and 'int'" from np.unique,
    # and unique_labels silently turned the numbers into strings
    mixed = np.array([1, "a"], dtype=object)
    with pytest.raises(ValueError, match="Mix of label input types"):
        type_of_target(mixed)
    with pytest.raises(ValueError, match="Mix of label input types"):
        unique_labels([1, 2], ["a"])
    np.testing.assert_array_equal(unique_labels([2, 1], [3.0]), [1, 2, 3])


def test_validate_params_and_parse():
    from numbers import Integral, Real

    cons = {
        "C": [Interval(Real, 0, None, closed="neither")],
        "k": [Interval(Integral, 1, None)],
        "kind": [StrOptions({"x", "y"}), None],
    }
    validate_params(cons, {"C": 1.0, "k": 3, "kind": None}, "Est")
    with pytest.raises(
        InvalidParameterError,
        match=r"The 'C' parameter of Est must be a float in the range \(0, inf\). "
        r"Got -1 instead.",
    ):
        validate_params(cons, {"C": -1}, "Est")
    with pytest.raises(InvalidParameterError, match="'k' parameter"):
        validate_params(cons, {"k": 1.5}, "Est")
    with pytest.raises(InvalidParameterError, match="'k' parameter"):
        validate_params(cons, {"k": True}, "Est")
    assert parse_param_string(cons["C"], "0.5") == 0.5
    assert parse_param_string(cons["k"], "3") == 3 and isinstance(
        parse_param_string(cons["k"], "3"), int
    )
    assert parse_param_string(cons["kind"], "none") is None
    assert parse_param_string(cons["kind"], "x") == "x"
    with pytest.raises(InvalidParameterError, match="got 'z'"):
        parse_param_string(cons["kind"], "z")
    # a negative seed passed validation and failed later inside NumPy
    with pytest.raises(InvalidParameterError, match="must be a non-negative int"):
        validate_params({"random_state": ["random_state"]}, {"random_state": -1}, "Est")
    validate_params({"random_state": ["random_state"]}, {"random_state": 0}, "Est")


def test_a_finite_product_proves_a_finite_X():
    """_assert_finite_through: with no zero in W, every row of X holding NaN, +inf, −inf or
    both infinities has a non-finite row of Z = X Wᵀ, so the error is validation's; a finite Z
    is trusted without reading X; a zero in W or an overflowing product makes it read X."""
    from scratchlearn.utils.validation import _assert_finite_through

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 6))
    for W in (rng.normal(size=6), rng.normal(size=(3, 6))):  # one score per row, or three
        for first, second, what in [
            (np.nan, None, "NaN"),
            (np.inf, None, "infinity"),
            (-np.inf, None, "infinity"),
            (np.inf, -np.inf, "infinity"),  # the two products cancel to NaN
        ]:
            for j in range(5):
                bad = X.copy()
                bad[[3, 150, 299], j] = first
                if second is not None:
                    bad[[3, 150, 299], j + 1] = second
                with np.errstate(invalid="ignore"):
                    Z = bad @ W.T
                assert not np.isfinite(Z[[3, 150, 299]]).any()  # every score of a bad row
                with pytest.raises(ValueError, match=f"Input X contains {what}.* in column {j}"):
                    _assert_finite_through(bad, Z, W)
                W0 = W.copy()
                W0[..., j] = 0.0  # a BLAS may skip these products: X is read
                with np.errstate(invalid="ignore"):
                    Z0 = bad @ W0.T
                with pytest.raises(ValueError, match=f"Input X contains {what}.* in column {j}"):
                    _assert_finite_through(bad, Z0, W0)
        _assert_finite_through(X, X @ W.T, W)
        nan_X = X.copy()
        nan_X[0, 0] = np.nan
        _assert_finite_through(nan_X, X @ W.T, W)  # a finite Z is trusted: X is not read
        W0 = W.copy()
        W0[..., 0] = 0.0
        with pytest.raises(ValueError, match="NaN in column 0"):
            _assert_finite_through(nan_X, X @ W0.T, W0)  # a zero in W: X is read
    huge = np.clip(X, -1, 1) * 1e308  # finite; its products overflow: X is read, and accepted
    with np.errstate(over="ignore", invalid="ignore"):
        Z = huge @ np.full(6, 10.0)
    assert not np.isfinite(Z).all()
    _assert_finite_through(huge, Z, np.full(6, 10.0))


@pytest.mark.parametrize(
    "name", ["LinearRegression", "Ridge", "Lasso", "LogisticRegression", "PoissonRegressor"]
)
def test_linear_predictions_refuse_every_non_finite_row(name):
    """The linear models validate a dense X for finiteness through their own product, or, when
    w has zeros (Lasso), in the compiled pass that computes the scores (_score_kernels): NaN or
    ±inf anywhere, in C or Fortran order, is refused with validation's message and no warning.
    Clean X gives X wᵀ + b: exactly as before through the BLAS product; through the compiled
    pass, whose sum runs in SIMD lanes, within the bound of two orders of summation of d terms
    and the intercept's addition, 2(d + 1)ε(Σ_j |x_ij w_j| + |b|)."""
    from scratchlearn import linear_model

    rng = np.random.default_rng(1)
    X = rng.normal(size=(500, 8))
    y = X @ rng.normal(size=8)
    if name == "LogisticRegression":
        y = np.digitize(y, np.quantile(y, [0.33, 0.66]))  # three classes: coef_ (3, 8)
    elif name == "PoissonRegressor":
        y = rng.poisson(np.exp(0.2 * X[:, 0]))
    est = getattr(linear_model, name)().fit(X, y)
    if name == "Lasso":
        assert not np.all(est.coef_)  # the fallback is exercised
    Z = est.decision_function(X) if hasattr(est, "decision_function") else est._decision_function(X)
    blas = X @ est.coef_.T + est.intercept_
    if name == "Lasso":
        eps, d = np.finfo(float).eps, X.shape[1]
        bound = 2 * (d + 1) * eps * (np.abs(X) @ np.abs(est.coef_) + abs(est.intercept_))
        assert np.all(np.abs(Z - blas) <= bound)
    else:
        assert np.array_equal(Z, blas)
    for value, what in [(np.nan, "NaN"), (np.inf, "infinity"), (-np.inf, "infinity")]:
        for j in (0, 4, 7):
            bad = X.copy()
            bad[250, j] = value
            for order in ("C", "F"):
                with warnings.catch_warnings():
                    warnings.simplefilter("error")  # no RuntimeWarning from the product
                    with pytest.raises(ValueError, match=f"contains {what}.* in column {j}"):
                        est.predict(np.asarray(bad, order=order))


@pytest.mark.parametrize("name", ["Ridge", "LogisticRegression"])
def test_linear_predictions_warn_only_about_finite_X(name):
    """The product's floating-point warnings wait for X's test: a NaN beside values whose
    products overflow gives the ValueError alone; a finite X whose products overflow gives
    NumPy's overflow warning, as before the product told finiteness."""
    from scratchlearn import linear_model

    rng = np.random.default_rng(2)
    X = rng.normal(size=(200, 5))
    y = X[:, 0] > 0 if name == "LogisticRegression" else X @ np.arange(1.0, 6.0)
    est = getattr(linear_model, name)().fit(X, y)
    huge = np.full((2, 5), 1e308)
    bad = huge.copy()
    bad[1, 0] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="Input X contains NaN in column 0"):
            est.predict(bad)
    with pytest.warns(RuntimeWarning, match="overflow encountered in matmul"):
        est.decision_function(huge) if hasattr(est, "decision_function") else est.predict(huge)

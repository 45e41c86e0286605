"""Input validation shared by every estimator and public function.

Everything here turns bad input into an exception that names the problem before any work is
done: NaN or infinite values, strings where numbers are needed, wrong dimensionality, too few
samples or features, inconsistent lengths, invalid sample weights. Nothing here modifies the
caller's arrays; a copy is made whenever a conversion or an explicit ``copy=True`` requires one.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from ..exceptions import DataConversionWarning, NotFittedError
from ._dask import is_dask_collection, refuse_dask
from ._sparse import issparse

__all__ = [
    "check_array",
    "check_X_y",
    "column_or_1d",
    "check_consistent_length",
    "check_sample_weight",
    "check_random_state",
    "check_is_fitted",
    "check_non_negative",
    "check_scalar",
    "get_feature_names",
    "num_samples",
]

_SPARSE_MSG = (
    "Sparse data was passed to {name}, but dense data is required. "
    "Use '.toarray()' to convert it to a dense numpy array."
)


def _owner(estimator) -> str:
    if estimator is None:
        return ""
    name = estimator if isinstance(estimator, str) else type(estimator).__name__
    return f" by {name}"


def num_samples(x) -> int:
    """Number of samples of an array-like, sparse matrix or DataFrame.

    A Dask collection is counted only when its row count is known without computing it (an
    array with known chunks); a Dask DataFrame's ``len`` would read all of its partitions.
    """
    if is_dask_collection(x):
        n = getattr(x, "shape", (None,))[0] if getattr(x, "ndim", 0) else None
        if not isinstance(n, numbers.Integral):
            raise TypeError(
                f"The number of rows of a Dask {type(x).__name__} is not known without "
                "computing it; scratchlearn does not compute Dask input behind your back. "
                "Compute it into memory first (`.compute()`)."
            )
        return int(n)
    if hasattr(x, "shape") and x.shape is not None and len(x.shape) > 0:
        return int(x.shape[0])
    if hasattr(x, "__len__"):
        return len(x)
    raise TypeError(f"Expected an array-like of samples, got {type(x).__name__}.")


def _assert_all_finite(a, *, allow_nan: bool, input_name: str) -> None:
    """Refuse NaN (unless ``allow_nan``) and ±inf, naming the first offending column of a 2-D
    input so that a user can find it.

    Nothing of the size of ``a`` is allocated unless ``a`` is refused: the test reads ``a``
    where it lies (C or Fortran order alike). A sum Σ aᵢ is finite when every aᵢ is, unless it
    overflows; so one sum decides the common case, and only a non-finite sum asks the exact
    question: min aᵢ and max aᵢ are both finite exactly when every aᵢ is (NaN propagates
    through both), which no overflow can fool. With ``allow_nan`` the NaN-ignoring fmin and
    fmax ask whether every value that is not NaN is finite.
    """
    if a.dtype.kind not in "fc":
        return
    with np.errstate(over="ignore", invalid="ignore"):
        total = np.add.reduce(a, axis=None)
    if np.isfinite(total):
        return
    if a.dtype.kind == "f":
        low, high = (np.fmin, np.fmax) if allow_nan else (np.minimum, np.maximum)
        if np.isfinite(low.reduce(a, axis=None)) and np.isfinite(high.reduce(a, axis=None)):
            return  # finite values whose sum overflowed, or NaN where NaN is allowed

    # The element-wise masks below decide the rest and name the first offending column.
    if not allow_nan:
        nan = np.isnan(a)
        if nan.any():
            raise ValueError(f"Input {input_name} contains NaN{_where(nan)}.")
    inf = np.isinf(a)
    if inf.any():
        raise ValueError(
            f"Input {input_name} contains infinity or a value too large for {a.dtype!r}"
            f"{_where(inf)}."
        )


def _assert_finite_through(X, Z, W, *, input_name: str = "X") -> bool:
    """Refuse NaN and ±inf in a dense X as :func:`_assert_all_finite` does, given the products
    Z = X Wᵀ (+ a finite offset) already computed from it, without reading X again when Z
    proves it finite.

    With no zero in W, a value x_ij that is NaN or ±inf makes every product x_ij w_kj NaN or
    ±inf, and a sum holding one is NaN or ±inf: every score of the row is then not finite,
    whatever the BLAS and its order of summation. So a finite Z proves a finite X. X itself is
    read only when Z is not finite (a NaN or infinity in X, or finite values whose products
    overflow, which are accepted) or W holds a zero (a BLAS may skip a product by a zero, where
    IEEE arithmetic gives NaN for ∞·0). ``Z`` has the rows of X; ``W`` any shape. Returns
    whether Z is finite.
    """
    finite = bool(np.isfinite(Z).all())
    if not (finite and np.all(W)):
        _assert_all_finite(X, allow_nan=False, input_name=input_name)
    return finite


def _finite_product(X, W):
    """Z = X Wᵀ for a dense float64 X not yet tested for NaN and ±inf, refused here as
    :func:`_assert_all_finite` refuses it, X being read a second time only when Z does not
    prove it finite (:func:`_assert_finite_through`).

    NumPy's floating-point warnings of the product are held back until X is known to be finite
    (∞·0 or an overflow next to a NaN would otherwise warn before the error); a finite X whose
    products overflow is then warned about as NumPy would have.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        Z = X @ W.T
    if not _assert_finite_through(X, Z, W):
        warnings.warn("overflow encountered in matmul", RuntimeWarning, stacklevel=3)
    return Z


def _where(bad) -> str:
    """' in column j' for the first column j of a 2-D mask holding a True, else ''."""
    return f" in column {int(np.flatnonzero(bad.any(axis=0))[0])}" if bad.ndim == 2 else ""


def _to_numeric(X, dtype, input_name):
    """``np.asarray(X, dtype)`` with errors that say which input was not numeric."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", np.exceptions.ComplexWarning)
            return np.asarray(X, dtype=dtype)
    except np.exceptions.ComplexWarning as exc:
        raise ValueError("Complex data not supported.") from exc
    except TypeError as exc:
        raise TypeError(
            f"{input_name} must contain numbers only; converting it to {np.dtype(dtype)} failed: "
            f"{exc}"
        ) from None
    except ValueError as exc:
        raise ValueError(
            f"{input_name} contains strings or other values that are not numbers ({exc}). "
            "Encode categorical columns first (e.g. with OrdinalEncoder or OneHotEncoder)."
        ) from None


def _resolve_dtype(current, dtype):
    """The dtype to convert to: None keeps, 'numeric' makes non-numbers float64, a list keeps
    ``current`` if it is in the list and otherwise takes the list's first entry."""
    if dtype is None:
        return None
    if isinstance(dtype, str) and dtype == "numeric":
        return np.float64 if current.kind in "OUSVb" else None
    if isinstance(dtype, (list, tuple)):
        if any(current == np.dtype(d) for d in dtype):
            return None
        return dtype[0]
    return None if current == np.dtype(dtype) else dtype


def check_array(
    X,
    *,
    accept_sparse=False,
    dtype="numeric",
    ensure_2d: bool = True,
    allow_nd: bool = False,
    ensure_all_finite=True,
    ensure_min_samples: int = 1,
    ensure_min_features: int = 1,
    copy: bool = False,
    order=None,
    estimator=None,
    input_name: str = "X",
):
    """Validate an array, list or sparse matrix and return it as a NumPy array (or sparse matrix).

    Parameters
    ----------
    accept_sparse : bool, str or list of str
        False rejects sparse input with a message naming the fix; True keeps the format; a
        format name (or list of them) converts to the first when the input is in none of them.
    dtype : "numeric", type, list of types or None
        "numeric" converts object, string and boolean arrays to float64 (failing clearly on
        strings); a list keeps the input dtype when it is in the list.
    ensure_all_finite : bool or "allow-nan"
        Reject NaN and infinite values (or only infinite values with "allow-nan").
    """
    if not (isinstance(ensure_all_finite, (bool, np.bool_)) or ensure_all_finite == "allow-nan"):
        raise ValueError(
            f"ensure_all_finite should be a bool or 'allow-nan'; got {ensure_all_finite!r}."
        )
    allow_nan = ensure_all_finite == "allow-nan"
    if is_dask_collection(X):
        refuse_dask(X, _owner(estimator)[4:] or "This function", input_name)
    if X is None:
        raise ValueError(f"Expected an array-like for {input_name}, got None.")
    if isinstance(X, str):
        raise ValueError(
            f"Expected a 2-dimensional array-like for {input_name}, got the string {X[:40]!r}."
        )

    if issparse(X):
        if not accept_sparse:
            raise TypeError(_SPARSE_MSG.format(name=input_name))
        formats = [accept_sparse] if isinstance(accept_sparse, str) else accept_sparse
        A = X
        if isinstance(formats, (list, tuple)) and A.format not in formats:
            A = A.asformat(formats[0])
        target = _resolve_dtype(A.dtype, dtype)
        if A.dtype.kind == "c":
            raise ValueError("Complex data not supported.")
        if target is not None:
            A = A.astype(target)
        elif copy and A is X:
            A = A.copy()
        if A.ndim != 2:
            raise ValueError(f"Expected a 2-dimensional sparse matrix for {input_name}.")
        if ensure_all_finite:
            _assert_all_finite(A.data, allow_nan=allow_nan, input_name=input_name)
        _check_min_size(A, ensure_min_samples, ensure_min_features, estimator, input_name)
        return A

    # DataFrames with extension dtypes, lists of lists, tuples, memoryviews...
    if hasattr(X, "dtypes") and hasattr(X, "to_numpy"):
        X_np = X.to_numpy()
    else:
        X_np = X
    if isinstance(X_np, np.ndarray):
        arr = X_np
    else:
        try:
            arr = np.asarray(X_np)
        except ValueError as exc:  # ragged nested lists
            raise ValueError(
                f"{input_name} is not a rectangular array: its rows must all have the same "
                f"length ({exc})"
            ) from None
    if arr.dtype.kind == "c":
        raise ValueError("Complex data not supported.")
    target = _resolve_dtype(arr.dtype, dtype)
    if target is not None:
        arr = _to_numeric(arr, target, input_name)
    if isinstance(dtype, str) and dtype == "numeric" and arr.dtype.kind in "OUSV":
        arr = _to_numeric(arr, np.float64, input_name)

    if ensure_2d:
        if arr.ndim == 0:
            raise ValueError(
                f"Expected a 2-dimensional array for {input_name}, got a scalar: {arr!r}. "
                "Reshape your data to (n_samples, n_features)."
            )
        if arr.ndim == 1:
            raise ValueError(
                f"Expected a 2-dimensional array for {input_name}, got a 1-dimensional array "
                "instead. Reshape your data either using array.reshape(-1, 1) if it has a single "
                "feature or array.reshape(1, -1) if it contains a single sample."
            )
    if not allow_nd and arr.ndim >= 3:
        raise ValueError(
            f"Found array with dim {arr.ndim} for {input_name}; expected at most 2 dimensions"
            f"{_owner(estimator)}."
        )
    if ensure_all_finite and arr.dtype.kind in "fc":
        _assert_all_finite(arr, allow_nan=allow_nan, input_name=input_name)
    if ensure_2d or arr.ndim >= 1:
        _check_min_size(arr, ensure_min_samples, ensure_min_features, estimator, input_name)

    if order is not None:
        arr = np.asarray(arr, order=order)
    if copy and np.may_share_memory(arr, X_np):
        arr = arr.copy(order="K" if order is None else order)
    return arr


def _check_min_size(A, min_samples, min_features, estimator, input_name):
    shape = A.shape
    if min_samples > 0:
        n = shape[0]
        if n < min_samples:
            raise ValueError(
                f"Found array with {n} sample(s) (shape={shape}) while a minimum of {min_samples}"
                f" is required{_owner(estimator)} for {input_name}."
            )
    if min_features > 0 and len(shape) == 2:
        d = shape[1]
        if d < min_features:
            raise ValueError(
                f"Found array with {d} feature(s) (shape={shape}) while a minimum of "
                f"{min_features} is required{_owner(estimator)}."
            )


def column_or_1d(y, *, warn: bool = False, dtype=None, input_name: str = "y"):
    """Return ``y`` as a 1-D array; a column vector is ravelled (with a warning if ``warn``)."""
    refuse_dask(y, None, input_name)
    arr = np.asarray(y, dtype=dtype)
    if arr.ndim == 1:
        return arr
    if arr.ndim == 2 and arr.shape[1] == 1:
        if warn:
            warnings.warn(
                f"A column-vector {input_name} was passed when a 1d array was expected. Please "
                "change its shape to (n_samples,), for example using ravel().",
                DataConversionWarning,
                stacklevel=3,
            )
        return arr.ravel()
    raise ValueError(
        f"{input_name} should be a 1d array, got an array of shape {arr.shape} instead."
    )


def check_consistent_length(*arrays) -> None:
    """Raise if the array-likes (None ignored) do not all have the same number of samples."""
    lengths = [num_samples(a) for a in arrays if a is not None]
    if len(set(lengths)) > 1:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {lengths}")


def check_X_y(
    X,
    y,
    *,
    accept_sparse=False,
    dtype="numeric",
    y_numeric: bool = False,
    multi_output: bool = False,
    ensure_all_finite=True,
    ensure_min_samples: int = 1,
    ensure_min_features: int = 1,
    copy: bool = False,
    estimator=None,
):
    """Validate X with :func:`check_array` and y as a 1-D target of the same length."""
    if y is None:
        name = "estimator" if estimator is None else type(estimator).__name__
        raise ValueError(f"{name} requires y to be passed, but the target y is None.")
    X = check_array(
        X,
        accept_sparse=accept_sparse,
        dtype=dtype,
        ensure_all_finite=ensure_all_finite,
        ensure_min_samples=ensure_min_samples,
        ensure_min_features=ensure_min_features,
        copy=copy,
        estimator=estimator,
    )
    y = check_y(y, multi_output=multi_output, y_numeric=y_numeric)
    check_consistent_length(X, y)
    return X, y


def check_y(y, *, multi_output: bool = False, y_numeric: bool = False):
    """Validate a target: 1-D (or 2-D with ``multi_output``), finite when numeric."""
    if issparse(y):
        raise ValueError("A sparse target y is not supported; pass a dense 1d array.")
    if multi_output:
        y = check_array(y, ensure_2d=False, dtype=None, input_name="y", ensure_all_finite=False)
    else:
        y = column_or_1d(y, warn=True)
    if y.dtype.kind == "c":
        raise ValueError("Complex data not supported.")
    if y_numeric and y.dtype.kind in "OUSVb":
        y = _to_numeric(y, np.float64, "y")
    if y.dtype.kind == "f":
        _assert_all_finite(y, allow_nan=False, input_name="y")
    return y


def check_sample_weight(
    sample_weight, X, *, dtype=None, only_non_negative: bool = True, copy: bool = True
):
    """Return per-sample weights of shape (n_samples,), float64 unless ``dtype`` says otherwise.

    ``None`` means unit weights and a scalar is broadcast. Weights must be finite, non-negative
    (unless ``only_non_negative=False``) and not all zero. The result is always a new array
    (``copy`` is accepted for scikit-learn compatibility).
    """
    n = X if isinstance(X, numbers.Integral) else num_samples(X)
    if dtype is None:
        dtype = np.float64
    if sample_weight is None:
        return np.ones(n, dtype=dtype)
    if isinstance(sample_weight, numbers.Number):
        return np.full(n, sample_weight, dtype=dtype)
    refuse_dask(sample_weight, None, "sample_weight")
    sw = np.asarray(sample_weight)
    if sw.dtype.kind not in "biuf":
        sw = _to_numeric(sw, dtype, "sample_weight")
    # Always a fresh array: estimators may rescale weights in place (e.g. by class weights).
    sw = np.array(sw, dtype=dtype, copy=True)
    if sw.ndim != 1:
        raise ValueError(
            f"sample_weight must be a 1D array or a scalar, got an array of shape {sw.shape}."
        )
    if sw.shape[0] != n:
        raise ValueError(
            f"sample_weight has {sw.shape[0]} elements, but X has {n} samples: "
            f"sample_weight.shape == {sw.shape}, expected ({n},)."
        )
    _assert_all_finite(sw, allow_nan=False, input_name="sample_weight")
    if only_non_negative and np.any(sw < 0):
        raise ValueError("Negative values in sample_weight are not allowed.")
    if n > 0 and not np.any(sw != 0):
        raise ValueError("Sample weights must contain at least one non-zero weight.")
    return sw


def check_random_state(seed) -> np.random.Generator:
    """The one way to turn ``random_state`` into a generator.

    None gives a fresh unseeded generator, an int a seeded one, and a ``numpy.random.Generator``
    is returned as it is (so the caller's stream advances, as the user asked). A legacy
    ``RandomState`` is wrapped around its own bit generator.
    """
    if seed is None:
        return np.random.default_rng()
    if isinstance(seed, numbers.Integral) and not isinstance(seed, (bool, np.bool_)):
        if seed < 0:
            raise ValueError(f"random_state must be a non-negative int; got {seed!r}.")
        return np.random.default_rng(int(seed))
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, np.random.RandomState):
        return np.random.Generator(seed._bit_generator)
    raise ValueError(
        f"random_state must be None, an int or a numpy.random.Generator; got {seed!r}."
    )


def _is_fitted(estimator) -> bool:
    if hasattr(estimator, "__sklearn_is_fitted__"):
        return bool(estimator.__sklearn_is_fitted__())
    return any(k.endswith("_") and not k.startswith("__") for k in vars(estimator))


def check_is_fitted(estimator, attributes=None, *, msg: str | None = None) -> None:
    """Raise :class:`NotFittedError` unless ``estimator`` has been fitted.

    Fitted means: every name in ``attributes`` is set, or (by default) the estimator has at
    least one learned attribute (a name ending in an underscore).
    """
    if isinstance(estimator, type):
        raise TypeError(f"{estimator.__name__} is a class, not an estimator instance.")
    if not hasattr(estimator, "fit"):
        raise TypeError(f"{estimator!r} is not an estimator instance (it has no 'fit' method).")
    if attributes is not None:
        names = [attributes] if isinstance(attributes, str) else list(attributes)
        fitted = all(hasattr(estimator, a) for a in names)
    else:
        fitted = _is_fitted(estimator)
    if not fitted:
        text = msg or (
            "This {name} instance is not fitted yet. Call 'fit' with appropriate arguments "
            "before using this estimator."
        )
        raise NotFittedError(text.format(name=type(estimator).__name__))


def check_non_negative(X, whom: str) -> None:
    """Raise if X (dense or sparse) has a negative entry; ``whom`` names the caller."""
    data = X.data if issparse(X) else X
    if data.size and np.min(data) < 0:
        raise ValueError(f"Negative values in data passed to {whom}.")


def check_scalar(
    x, name: str, target_type, *, min_val=None, max_val=None, include_boundaries: str = "both"
):
    """Validate a scalar argument of a public function; return it unchanged."""
    if (
        not isinstance(x, target_type)
        or isinstance(x, (bool, np.bool_))
        and bool not in (target_type if isinstance(target_type, tuple) else (target_type,))
    ):
        raise TypeError(f"{name} must be an instance of {target_type}, not {type(x).__name__}.")
    lo_closed = include_boundaries in ("left", "both")
    hi_closed = include_boundaries in ("right", "both")
    if min_val is not None and (x < min_val or (x == min_val and not lo_closed)):
        raise ValueError(f"{name} == {x}, must be {'>=' if lo_closed else '>'} {min_val}.")
    if max_val is not None and (x > max_val or (x == max_val and not hi_closed)):
        raise ValueError(f"{name} == {x}, must be {'<=' if hi_closed else '<'} {max_val}.")
    return x


def get_feature_names(X):
    """Column names of a DataFrame-like X as an object array of str, or None.

    Duck-typed on ``X.columns`` so pandas (or polars) is never imported. Names are returned only
    when every column name is a string; mixed names raise, as they cannot be checked later.
    """
    columns = getattr(X, "columns", None)
    if columns is None or issparse(X) or isinstance(X, np.ndarray):
        return None
    names = np.asarray(list(columns), dtype=object)
    if names.size == 0:
        return None
    are_str = np.array([isinstance(n, str) for n in names])
    if are_str.all():
        return names
    if are_str.any():
        raise TypeError(
            "Feature names are only supported if all input features have string names, but "
            "your input has a mix of string and non-string column names. Convert them all to "
            "str, e.g. X.columns = X.columns.astype(str)."
        )
    return None

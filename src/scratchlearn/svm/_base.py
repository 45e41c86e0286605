"""What the kernel SVMs (:class:`~scratchlearn.svm.SVC`, :class:`~scratchlearn.svm.SVR`) share
around the SMO solver: the kernel matrix K(A, B) of two sets of rows, and a mixin that builds the
solver's kernel on the training rows, checks test data and computes the kernel rows against the
support vectors at predict time.

Kernels (γ ``gamma``, r ``coef0``, ``degree``):

    linear   K(x, z) = x·z
    poly     K(x, z) = (γ x·z + r)^degree
    rbf      K(x, z) = exp(−γ‖x − z‖²)
    sigmoid  K(x, z) = tanh(γ x·z + r)

a callable K(A, B) returning the (len(A), len(B)) Gram matrix, or "precomputed" (X is the Gram
matrix itself).
"""

from __future__ import annotations

import numpy as np

from ..metrics import pairwise
from ..utils.validation import check_is_fitted
from ._smo import KernelSpec, resolve_kernel

__all__ = ["kernel_block", "KernelSVMMixin"]


def kernel_block(kernel, A, B, gamma, coef0, degree):
    """K(A, B) (m, k) by :mod:`scratchlearn.metrics.pairwise`; a callable is called K(A, B)."""
    if callable(kernel):
        return np.asarray(kernel(A, B), dtype=np.float64)
    if kernel == "linear":
        return pairwise.linear_kernel(A, B)
    if kernel == "poly":
        return pairwise.polynomial_kernel(A, B, degree=degree, gamma=gamma, coef0=coef0)
    if kernel == "rbf":
        return pairwise.rbf_kernel(A, B, gamma=gamma)
    return pairwise.sigmoid_kernel(A, B, gamma=gamma, coef0=coef0)


class KernelSVMMixin:
    """What SVC and SVR share around the solver: the kernel on the training rows, the check of
    test data, and the kernel rows K(x, x_t) against the support vectors at predict time.

    Expects ``kernel``, ``gamma``, ``coef0``, ``degree`` parameters and, once fitted,
    ``support_``, ``support_vectors_``, ``shape_fit_`` and ``_gamma`` (the resolved γ).
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "n_features_in_": ("int", ()),
        "support_": ("int32", ("n_SV",)),
        "n_support_": ("int32", ("*",)),
        "support_vectors_": ("float64", ("*", "*")),
        "dual_coef_": ("float64", ("*", "n_SV")),
        "intercept_": ("float64", ("*",)),
        "_gamma": ("float64", ()),
    }

    def _check_fitted_state(self):
        """sum(n_support_) support vectors, one dual row per class but one (K - 1), one intercept
        per pair of classes; support vectors of n_features_in_ features (none when precomputed)."""
        K = len(self.classes_) if hasattr(self, "classes_") else 2
        pairs = K * (K - 1) // 2
        n_SV = len(self.support_)
        if self.n_support_.sum() != n_SV or len(self.n_support_) != (
            K if hasattr(self, "classes_") else 1
        ):
            raise ValueError(
                f"n_support_ {self.n_support_.tolist()} does not count the {n_SV} support_"
            )
        if self.dual_coef_.shape[0] != K - 1 or self.intercept_.shape != (pairs,):
            raise ValueError(f"dual_coef_ or intercept_ does not match {K} classes")
        expected = (0, 0) if self.kernel == "precomputed" else (n_SV, self.n_features_in_)
        if self.support_vectors_.shape != expected:
            raise ValueError(
                f"support_vectors_ has shape {self.support_vectors_.shape}, expected {expected}"
            )
        for name in ("probA_", "probB_"):
            p = vars(self).get(name)
            if p is not None and (
                not isinstance(p, np.ndarray)
                or p.dtype != np.float64
                or p.shape not in ((0,), (pairs,))
            ):
                raise ValueError(f"{name} must be float64 of length 0 or {pairs}")

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(pairwise=self.kernel == "precomputed")
        return t

    def _kernel_spec(self, X):
        """The solver's kernel on the training rows X; sets ``_gamma``.

        ``gamma="scale"``/``"auto"`` are resolved by :func:`resolve_kernel`; a callable kernel
        is evaluated once into its Gram matrix K(X, X), which the solver reads as
        "precomputed" (it must be finite and square).
        """
        kind, self._gamma, coef0, degree = resolve_kernel(
            self.kernel, self.gamma, self.coef0, self.degree, X
        )
        if not callable(kind):
            return KernelSpec(kind, X, self._gamma, coef0, degree)
        G = kernel_block(kind, X, X, 0.0, coef0, degree)
        n = X.shape[0]
        if G.shape != (n, n) or not np.all(np.isfinite(G)):
            raise ValueError(
                f"{type(self).__name__}: the callable kernel must return a finite ({n}, {n}) "
                f"Gram matrix K(X, X); got shape {G.shape}."
            )
        return KernelSpec("precomputed", np.ascontiguousarray(G))

    def _check_test(self, X):
        check_is_fitted(self, "support_")
        if self.kernel == "precomputed":
            shape = np.shape(X)
            if len(shape) == 2 and shape[1] != self.shape_fit_[0]:
                raise ValueError(
                    f"{type(self).__name__} with kernel='precomputed' predicts from the "
                    "(m, n_train) Gram matrix between the test samples and the "
                    f"{self.shape_fit_[0]} training samples; got X of shape {shape}."
                )
        return self._validate_data(X, reset=False, dtype=np.float64)

    def _kernel_rows(self, X):
        """K(x, x_t) for the support vectors: (m, n_SV)."""
        if self.kernel == "precomputed":
            return X[:, self.support_]
        return kernel_block(
            self.kernel, X, self.support_vectors_, self._gamma, self.coef0, self.degree
        )

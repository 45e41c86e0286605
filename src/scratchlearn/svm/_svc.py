"""C-support vector classification: the soft-margin dual solved by SMO, one-vs-one for K > 2.

Symbols: n samples xᵢ with labels yᵢ ∈ {−1, +1} (per pair of classes), α the dual variables,
K(x, z) the kernel, Q_ij = yᵢyⱼK(xᵢ, xⱼ), Cᵢ = C·sᵢ·c_{yᵢ} the per-sample bound (sᵢ the sample
weight, c_k the class weight), ρ the threshold, ξᵢ the slack.

Primal (φ the kernel's feature map)::

    min_{w, b, ξ}  ½‖w‖² + Σᵢ Cᵢ ξᵢ   s.t.  yᵢ(w·φ(xᵢ) + b) ≥ 1 − ξᵢ,  ξᵢ ≥ 0

Dual, solved by :func:`~scratchlearn.svm._smo.smo_solve`::

    min_α  ½αᵀQα − eᵀα   s.t.  yᵀα = 0,  0 ≤ αᵢ ≤ Cᵢ

Solution: w = Σᵢ yᵢαᵢφ(xᵢ), f(x) = Σᵢ yᵢαᵢK(xᵢ, x) − ρ; the support vectors are the xᵢ with
αᵢ > 0; ξᵢ = max(0, 1 − yᵢf(xᵢ)); the margin width is 2/‖w‖ with ‖w‖² = αᵀQα.

``C = np.inf`` is the hard margin (no slack). On data that no hyperplane of the feature space
separates, the dual is unbounded below (the primal is infeasible): the solver detects it and
:class:`SVC` raises a ValueError saying so.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..base import BaseEstimator, ClassifierMixin
from ..metrics._pairwise_kernels import block_rows
from ..multiclass._ovo import ovo_scores, ovo_votes
from ..utils._available_if import available_if
from ..utils._param_validation import Interval, StrOptions
from ..utils.class_weight import class_weights
from ..utils.multiclass import check_classification_targets, encode_classes
from ..utils.validation import check_is_fitted, check_sample_weight
from . import _ovo
from ._base import KernelSVMMixin
from ._smo import smo_solve
from ._svc_proba import couple, platt_cv

__all__ = ["SVC"]


class SVC(KernelSVMMixin, ClassifierMixin, BaseEstimator):
    """C-support vector classifier (LIBSVM's C-SVC), solved by SMO.

    See the module docstring for the primal, the dual and the symbols. K > 2 classes are
    handled one-vs-one (:mod:`scratchlearn.svm._ovo` describes the layout of the arrays,
    LIBSVM's and scikit-learn's).

    Parameters
    ----------
    C : float or np.inf, default=1.0
        Penalty of the slack; per sample Cᵢ = C·sample_weightᵢ·class_weight_{yᵢ} (not
        normalised). ``np.inf``: hard margin.
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or callable, default="rbf"
        x·z, (γx·z + r)^degree, exp(−γ‖x − z‖²), tanh(γx·z + r); "precomputed": X is the Gram
        matrix, (n, n) at fit and (m, n_train) at predict; a callable K(A, B) returns the
        (len(A), len(B)) Gram. A kernel that is not positive semi-definite (sigmoid, many
        callables) is solved as LIBSVM does: the working-set rule replaces a non-positive
        curvature by τ = 1e-12, so SMO still ends at a KKT point of the (non-convex) dual.
    degree : int, default=3
    gamma : {"scale", "auto"} or float > 0, default="scale"
        "scale": 1/(d·X.var()) (the variance of all entries of X); "auto": 1/d.
    coef0 : float, default=0.0
    tol : float, default=1e-3
        Stop when the maximal KKT violation m(α) − M(α) <= tol.
    shrinking : bool, default=True
    cache_size : float, default=200
        Megabytes of kernel rows kept by the solver.
    max_iter : int, default=-1
        SMO iterations per pair; −1: no limit.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
    class_weight : dict, "balanced" or None
        "balanced": n/(K·n_k) (sample weights not counted, as scikit-learn's SVC).
    probability : bool, default=False
        Fit Platt's sigmoid per pair on 5-fold cross-validated decision values (LIBSVM's
        procedure); enables ``predict_proba``. ``predict`` stays the vote of the decision values,
        so it can disagree with the argmax of ``predict_proba`` (as in scikit-learn).
    random_state : None, int or Generator
        Seeds the folds of ``probability=True``; unused otherwise.

    Attributes
    ----------
    classes_ (K,); support_ (n_SV,) rows of X (scikit-learn counts only the rows of positive
    weight when some sample_weight is 0; zero-weight samples never enter the solves);
    support_vectors_ (n_SV, d) ((0, 0) for "precomputed");
    n_support_ (K,); dual_coef_ (K − 1, n_SV); intercept_ (P,) with P = K(K−1)/2 (binary: one
    row and one intercept with scikit-learn's sign, positive decision = classes_[1]);
    coef_ (P, d), linear kernel only; class_weight_ (K,); shape_fit_; fit_status_ (0: every
    pair converged); n_iter_ (P,) SMO iterations per pair; stop_reason_ "converged" or
    "max_iter" (with a ConvergenceWarning); history_ the fit record: per pair a dict with
    "objective" (the dual objective ½αᵀQα − eᵀα) and "kkt_violation" (the maximal KKT
    violation m(α) − M(α) that SMO stops on), every 10 iterations (a pair that runs past
    40,960 iterations keeps 4,096 entries at most: every other one is dropped and the spacing
    doubles, as often as needed); one dict for
    binary problems, a list of P dicts otherwise; slack_ ξᵢ of the training samples, (n,) for
    binary problems, (n, P) otherwise (NaN for a sample outside the pair); margin_width_ (P,)
    2/‖w‖ per pair, in the kernel's feature space (NaN when αᵀQα <= 0, possible only for a
    kernel that is not PSD); probA_, probB_ (P,) Platt's A and B.
    Notes
    -----
    Reproducibility: refits with the same data and parameters are bit-identical, and the
    fitted state does not depend on the BLAS thread count; ``decision_function`` sums kernel
    rows by BLAS products, whose rounding depends on how many threads split them (decision
    values differed by 2e-16 relative between 1 and 2 OpenBLAS threads).

    Examples
    --------
    >>> from scratchlearn.datasets import load_iris
    >>> from scratchlearn.svm import SVC
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = SVC(kernel="rbf", C=1.0).fit(X, y)
    >>> print(clf.classes_.tolist(), clf.n_support_.tolist(), clf.stop_reason_)
    [0, 1, 2] [7, 29, 24] converged
    >>> print(round(clf.score(X, y), 3))
    0.973
    """

    # fitted state (checked by scratchlearn.io.load): see scratchlearn.io._invariants
    _fitted_spec = {
        "classes_": ("label", ("n_classes",)),
        "class_weight_": ("float64", ("n_classes",)),
    }

    _parameter_constraints = {
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
        "kernel": [StrOptions({"linear", "poly", "rbf", "sigmoid", "precomputed"}), "callable"],
        "degree": [Interval(numbers.Integral, 0, None, closed="left")],
        "gamma": [StrOptions({"scale", "auto"}), Interval(numbers.Real, 0, None, closed="neither")],
        "coef0": [Interval(numbers.Real, None, None, closed="neither")],
        "tol": [Interval(numbers.Real, 0, None, closed="neither")],
        "shrinking": ["boolean"],
        "cache_size": [Interval(numbers.Real, 0, None, closed="neither")],
        "max_iter": [Interval(numbers.Integral, -1, None, closed="left")],
        "decision_function_shape": [StrOptions({"ovr", "ovo"})],
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "probability": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        C=1.0,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        tol=1e-3,
        shrinking=True,
        cache_size=200,
        max_iter=-1,
        decision_function_shape="ovr",
        class_weight=None,
        probability=False,
        random_state=None,
    ):
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.class_weight = class_weight
        self.probability = probability
        self.random_state = random_state

    # -- fitting ---------------------------------------------------------------------------
    def _costs(self, y_idx, sample_weight, X):
        """Cᵢ = C·sᵢ·c_{yᵢ}, and class_weight_ (K,)."""
        K = len(self.classes_)
        N_k = np.bincount(y_idx, minlength=K)
        self.class_weight_ = cw = class_weights(self.class_weight, self.classes_, N_k)
        s = check_sample_weight(sample_weight, X)
        with np.errstate(invalid="ignore"):  # C = inf times a zero weight: the sample is out
            Ci = np.where(s > 0, self.C * s * cw[y_idx], 0.0)
        empty = [self.classes_.tolist()[k] for k in range(K) if not np.any(Ci[y_idx == k] > 0)]
        if empty:
            raise ValueError(
                f"SVC: class {empty[0]!r} has no sample with a positive weight "
                "(sample_weight times class_weight), so it cannot be separated from the others."
            )
        return Ci

    def _check_fit_data(self, X, y):
        X, y = self._validate_data(X, y, dtype=np.float64)
        check_classification_targets(y)
        if self.kernel == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError(
                "SVC with kernel='precomputed' needs X to be the square (n, n) Gram matrix of "
                f"the training samples; got X of shape {X.shape}."
            )
        self.classes_, y_idx = encode_classes(y, "SVC")
        return X, y_idx

    def fit(self, X, y, sample_weight=None):
        """Solve the dual of every pair of classes by SMO; returns self."""
        self._validate_params()
        X, y_idx = self._check_fit_data(X, y)
        X = np.ascontiguousarray(X)  # the solver reads rows
        Ci = self._costs(y_idx, sample_weight, X)
        spec = self._kernel_spec(X)
        K, n = len(self.classes_), X.shape[0]
        solutions, results = [], []
        for a, b in _ovo.pairs(K):
            # class a first, then class b, as LIBSVM orders a pair's sub-problem
            index = np.concatenate([np.flatnonzero((y_idx == c) & (Ci > 0)) for c in (a, b)])
            y_ab = np.where(y_idx[index] == a, 1.0, -1.0)
            res = smo_solve(
                spec,
                y_ab,
                -np.ones(index.size),
                Ci[index],
                index=index,
                tol=self.tol,
                shrinking=self.shrinking,
                cache_size=float(self.cache_size),
                max_iter=self.max_iter,
            )
            if res.status == "unbounded":
                raise ValueError(
                    f"SVC with C=inf (hard margin): the data are not linearly separable in the "
                    f"kernel's feature space (classes {self.classes_.tolist()[a]!r} and "
                    f"{self.classes_.tolist()[b]!r} overlap), so no hard margin exists. "
                    "Use a finite C."
                )
            solutions.append((index, res.alpha, res.rho))
            results.append((index, y_ab, res))
        support, self.n_support_, dual_coef, intercept = _ovo.assemble(y_idx, K, solutions)
        self.support_ = support
        self.shape_fit_ = X.shape
        sv = np.empty((0, 0)) if self.kernel == "precomputed" else X[support]
        self.support_vectors_ = sv
        binary = K == 2
        # binary: scikit-learn's sign, f = dual_coef_·K + intercept_ > 0 for classes_[1]
        self.dual_coef_ = -dual_coef if binary else dual_coef
        self.intercept_ = -intercept if binary else intercept
        self._record_pairs(results, n, X, y_idx, Ci)
        self.probA_, self.probB_ = np.empty(0), np.empty(0)
        if self.probability:
            self.probA_, self.probB_ = platt_cv(self, spec, X, y_idx, Ci, results)
        return self

    def _record_pairs(self, results, n, X, y_idx, Ci):
        """n_iter_, history_, stop_reason_, fit_status_, slack_ and margin_width_."""
        P = len(results)
        slack = np.full((n, P), np.nan)
        width = np.empty(P)
        for p, (index, y_ab, res) in enumerate(results):
            # y f(x) = (Qα)_t − y_t ρ = G_t + 1 − y_t ρ, read off the solver's gradient G = Qα − e
            slack[index, p] = np.maximum(0.0, y_ab * res.rho - res.grad)
            w2 = res.alpha @ (res.grad + 1.0)  # ‖w‖² = αᵀQα (negative: a kernel that is not PSD)
            width[p] = 2.0 / np.sqrt(w2) if w2 > 0 else np.nan
        out = np.flatnonzero(Ci == 0)  # zero-weight samples stay out of the solves
        if out.size:
            F = self._pairwise_decisions(X[out])
            if len(results) == 1:
                F = -F  # back to the pair's orientation (y = +1 for classes_[0])
            for p, (a, b) in enumerate(_ovo.pairs(len(self.classes_))):
                mine = (y_idx[out] == a) | (y_idx[out] == b)
                y = np.where(y_idx[out] == a, 1.0, -1.0)
                slack[out[mine], p] = np.maximum(0.0, 1.0 - y[mine] * F[mine, p])
        self.slack_ = slack[:, 0] if P == 1 else slack
        self.margin_width_ = width
        self.n_iter_ = np.array([r.n_iter for _, _, r in results], dtype=np.int32)
        converged = all(r.status == "converged" for _, _, r in results)
        self.fit_status_ = 0 if converged else 1
        history = [
            {"objective": r.history_objective, "kkt_violation": r.history_violation}
            for _, _, r in results
        ]
        self._record_fit(
            self.n_iter_,
            history[0] if P == 1 else history,
            "converged" if converged else "max_iter",
            criterion=f"maximal KKT violation m(α) − M(α) <= tol={self.tol}",
            met={"converged"},
        )

    # -- prediction --------------------------------------------------------------------------
    def _pairwise_decisions(self, X):
        """f_ab(x) (m, P), computed over blocks of rows; binary: scikit-learn's sign."""
        F = np.empty((X.shape[0], len(self.intercept_)))
        step = block_rows(max(1, self.support_.size))
        for start in range(0, X.shape[0], step):
            rows = slice(start, start + step)
            Ksv = self._kernel_rows(X[rows])  # (block, n_SV)
            F[rows] = _ovo.pairwise_decisions(
                Ksv, self.dual_coef_, self.intercept_, self.n_support_
            )
        return F

    def decision_function(self, X):
        """Binary: f(x) (m,), positive for classes_[1]. K > 2: (m, P) one-vs-one values
        ("ovo"), or the (m, K) scores scikit-learn derives from them ("ovr")."""
        F = self._pairwise_decisions(self._check_test(X))
        K = len(self.classes_)
        if K == 2:
            return F[:, 0]
        if self.decision_function_shape == "ovo":
            return F
        return ovo_scores(F < 0, -F, K)  # pair (a, b) votes for b where f_ab < 0

    def predict(self, X):
        """The one-vs-one vote (LIBSVM's: f_ab > 0 votes for a; ties go to the lower class)."""
        F = self._pairwise_decisions(self._check_test(X))
        K = len(self.classes_)
        if K == 2:
            return self.classes_[(F[:, 0] >= 0).astype(int)]
        return self.classes_[np.argmax(ovo_votes(~(F > 0), K), axis=1)]

    @property
    def coef_(self):
        """Primal weights (P, d) (binary: (1, d)), linear kernel only."""
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        check_is_fitted(self, "support_")
        if len(self.classes_) == 2:
            return self.dual_coef_ @ self.support_vectors_
        return _ovo.ovo_coef(self.dual_coef_, self.support_vectors_, self.n_support_)

    def _has_proba(self):
        return self.probability

    @available_if(_has_proba, "probability=False; fit with probability=True")
    def predict_proba(self, X):
        """P(class | x) (m, K): Platt's sigmoid per pair, coupled over the pairs for K > 2."""
        check_is_fitted(self, "probA_")
        F = self._pairwise_decisions(self._check_test(X))
        if len(self.classes_) == 2:
            F = -F  # LIBSVM's orientation: positive for classes_[0]
        return couple(F, self.probA_, self.probB_, len(self.classes_))

    @available_if(_has_proba, "probability=False; fit with probability=True")
    def predict_log_proba(self, X):
        """log P(class | x) (m, K)."""
        return np.log(self.predict_proba(X))

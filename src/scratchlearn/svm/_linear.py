r"""The linear support vector classifier, solved in the dual by coordinate descent.

Symbols
-------
n, d, K    samples, features, classes;  K′ = 1 for two classes, K′ = K otherwise
x̃ᵢ         (xᵢ, B): xᵢ with a trailing constant B = ``intercept_scaling`` when the intercept
           is fitted, else xᵢ;  w̃ = (w, w_B), and the intercept is b = B·w_B
yᵢ         ±1: +1 for the class of the one-vs-rest problem (``classes_[1]`` for two classes)
Cᵢ         C × sample weight × class weight (below)

Objective of each binary problem (liblinear's, hence scikit-learn's)
-------------------------------------------------------------------
.. math::

    \min_{\tilde w}\ \tfrac12\|\tilde w\|^2 + \sum_i C_i\,\ell(1 - y_i \tilde w^\top \tilde x_i),
    \qquad \ell(t) = \max(0, t)\ \text{(hinge)} \quad\text{or}\quad \max(0, t)^2
    \ \text{(squared hinge)},

solved through its dual by :func:`~scratchlearn.svm._liblinear.dual_cd`. The bias weight w_B
is penalised like the others: this is liblinear's intercept, and ``intercept_scaling`` exists
only because of it. Penalising ½w_B² = ½(b/B)² shrinks the intercept towards 0, the less the
larger B is; the dual then keeps its simple box 0 ≤ αᵢ ≤ Uᵢ (an unpenalised intercept adds the
equality Σαᵢyᵢ = 0, which single-coordinate steps cannot keep). So the library's rule "centre
the data rather than penalise the intercept" does not apply here: centring would densify sparse
text data and would give a different model from the one ``intercept_scaling`` describes.

Weights, as liblinear: with two classes Cᵢ = C·sᵢ·cw[yᵢ]; with K > 2 classes, problem k gives
Cᵢ = C·sᵢ·cw[k] to the rows of class k and Cᵢ = C·sᵢ to all others (the other classes' weights
are not applied in the "rest"), sᵢ the sample weight and cw the class weights.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..base import BaseEstimator
from ..linear_model._base import LinearClassifierMixin
from ..utils import Interval, StrOptions, check_sample_weight
from ..utils.class_weight import class_weights
from ..utils.multiclass import check_classification_targets, encode_classes
from ..utils.validation import check_random_state
from ._liblinear import dual_cd

__all__ = ["LinearSVC"]


class LinearSVC(LinearClassifierMixin, BaseEstimator):
    """Linear support vector classification by dual coordinate descent (module docstring).

    Parameters
    ----------
    penalty : "l2"
        Only the L2 penalty ½‖w̃‖² is implemented ("l1" raises a ValueError).
    loss : "squared_hinge" or "hinge"
    dual : "auto" or True
        The dual solver is the one implemented; False raises a ValueError. ("auto" means the
        dual here; scikit-learn's "auto" may pick its primal solver, which reaches the same
        optimum.)
    tol : float
        Stop after a full pass over the dual variables whose projected gradients span at most
        ``tol`` (liblinear's rule, used unscaled as in scikit-learn's dual solver).
    C : float > 0
        Inverse regularisation strength.
    multi_class : "ovr"
        One-vs-rest: K binary problems for K > 2 classes, one problem for two.
    fit_intercept : bool
    intercept_scaling : float > 0
        B, the value of the constant feature whose weight gives the intercept b = B·w_B.
    class_weight : dict, "balanced" or None
        Multiplies Cᵢ (module docstring for the one-vs-rest convention); "balanced" is
        n / (K·nₖ) with weighted counts.
    verbose : int
        Accepted for scikit-learn compatibility; the model never prints.
    random_state : None, int or numpy Generator
        The order in which coordinates are visited.
    max_iter : int
        Outer iterations (passes) per binary problem.

    Attributes
    ----------
    coef_ : ndarray (K′, d)
    intercept_ : ndarray (K′,), zeros without an intercept
    classes_ : ndarray (K,)
    n_iter_ : int, the most passes any binary problem took (scikit-learn's convention)
    stop_reason_ : "converged" or "max_iter" (any problem that ran out)
    history_ : dict, or a list of K dicts with K > 2 classes: per pass, "objective" the dual
        objective f(α) (which decreases to minus the primal optimum) and "kkt_violation" the
        projected-gradient range M − m that the stopping rule compares with ``tol``

    Examples
    --------
    >>> from scratchlearn.datasets import load_breast_cancer
    >>> from scratchlearn.pipeline import make_pipeline
    >>> from scratchlearn.preprocessing import StandardScaler
    >>> from scratchlearn.svm import LinearSVC
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = make_pipeline(StandardScaler(), LinearSVC(C=0.1, random_state=0)).fit(X, y)
    >>> svc = model[-1]
    >>> print(svc.coef_.shape, svc.stop_reason_, round(model.score(X, y), 3))
    (1, 30) converged 0.988
    """

    _parameter_constraints = {
        "penalty": [StrOptions({"l1", "l2"})],
        "loss": [StrOptions({"hinge", "squared_hinge"})],
        "dual": ["boolean", StrOptions({"auto"})],
        "tol": [Interval(numbers.Real, 0, None, closed="neither")],
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
        "multi_class": [StrOptions({"ovr", "crammer_singer"})],
        "fit_intercept": ["boolean"],
        "intercept_scaling": [Interval(numbers.Real, 0, None, closed="neither")],
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "verbose": [Interval(numbers.Integral, 0, None, closed="left"), "boolean"],
        "random_state": ["random_state"],
        "max_iter": [Interval(numbers.Integral, 0, None, closed="left")],
    }

    def __init__(
        self,
        penalty="l2",
        loss="squared_hinge",
        *,
        dual="auto",
        tol=1e-4,
        C=1.0,
        multi_class="ovr",
        fit_intercept=True,
        intercept_scaling=1.0,
        class_weight=None,
        verbose=0,
        random_state=None,
        max_iter=1000,
    ):
        self.penalty = penalty
        self.loss = loss
        self.dual = dual
        self.tol = tol
        self.C = C
        self.multi_class = multi_class
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.verbose = verbose
        self.random_state = random_state
        self.max_iter = max_iter

    def _scratch_tags(self):
        t = super()._scratch_tags()
        t.update(X_types=["2darray", "sparse"])
        return t

    def _check_supported(self):
        """What the dual coordinate-descent solver covers, said before any work."""
        if self.penalty != "l2":
            raise ValueError(
                f"LinearSVC implements penalty='l2' only (the dual solver); got "
                f"penalty={self.penalty!r}."
            )
        if self.dual is False:
            raise ValueError(
                "LinearSVC implements the dual solver only: use dual=True or dual='auto'."
            )
        if self.multi_class != "ovr":
            raise ValueError(
                f"LinearSVC implements multi_class='ovr' only; got {self.multi_class!r}."
            )

    def fit(self, X, y, sample_weight=None):
        """Fit one binary problem (two classes) or K one-vs-rest problems; returns self."""
        self._validate_params()
        self._check_supported()
        X, y = self._validate_data(X, y, accept_sparse=["csr"], dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y_idx = encode_classes(y, "LinearSVC")
        K = len(self.classes_)
        s = check_sample_weight(sample_weight, X)
        N_k = np.bincount(y_idx, weights=s, minlength=K)  # weighted class sizes
        cw = class_weights(self.class_weight, self.classes_, N_k)  # multiplies Cᵢ
        rng = check_random_state(self.random_state)
        B = float(self.intercept_scaling) if self.fit_intercept else 0.0
        problems = [1] if K == 2 else range(K)
        d = X.shape[1]
        W, b, runs = np.zeros((len(problems), d)), np.zeros(len(problems)), []
        for row, k in enumerate(problems):
            positive = y_idx == k
            rest = cw[0] if K == 2 else 1.0  # liblinear leaves the "rest" unweighted for K > 2
            C_i = self.C * s * np.where(positive, cw[k], rest)
            y_pm = np.where(positive, 1.0, -1.0)
            run = dual_cd(
                X, y_pm, C_i, loss=self.loss, tol=self.tol, max_iter=self.max_iter,
                random_state=rng, bias=B,
            )  # fmt: skip
            W[row] = run.w[:d]
            b[row] = B * run.w[d] if B > 0 else 0.0
            runs.append(run)
        self.coef_, self.intercept_ = W, b
        histories = [
            {"objective": r.history_objective, "kkt_violation": r.history_violation} for r in runs
        ]
        self._record_fit(
            max(r.n_iter for r in runs),
            histories[0] if K == 2 else histories,
            "max_iter" if any(r.status == "max_iter" for r in runs) else "converged",
            criterion=f"projected-gradient range PGmax − PGmin <= tol={self.tol}",
        )
        return self

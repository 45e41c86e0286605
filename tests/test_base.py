"""The estimator contract: parameters, cloning, repr, tags, feature bookkeeping."""

import numbers
import pickle

import numpy as np
import pytest

from scratchlearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone
from scratchlearn.exceptions import InvalidParameterError, NotFittedError
from scratchlearn.utils import Interval, StrOptions, check_is_fitted


class Toy(RegressorMixin, BaseEstimator):
    _parameter_constraints = {
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
        "mode": [StrOptions({"a", "b"})],
        "inner": [None, "no_validation"],
    }

    def __init__(self, *, alpha=1.0, mode="a", inner=None):
        self.alpha = alpha
        self.mode = mode
        self.inner = inner

    def fit(self, X, y):
        self._validate_params()
        X, y = self._validate_data(X, y, y_numeric=True)
        self.coef_ = np.linalg.lstsq(X, y, rcond=None)[0]
        return self

    def predict(self, X):
        check_is_fitted(self)
        X = self._validate_data(X, reset=False)
        return X @ self.coef_


class ToyClf(ClassifierMixin, BaseEstimator):
    def __init__(self, *, k=1):
        self.k = k

    def fit(self, X, y):
        X, y = self._validate_data(X, y)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        X = self._validate_data(X, reset=False)
        return np.full(X.shape[0], self.classes_[0])


def test_get_set_params_nested():
    est = Toy(inner=Toy(alpha=3.0))
    params = est.get_params()
    assert params["inner__alpha"] == 3.0 and params["alpha"] == 1.0
    est.set_params(inner__mode="b", alpha=2.0)
    assert est.inner.mode == "b" and est.alpha == 2.0
    with pytest.raises(ValueError, match="Invalid parameter 'beta' for estimator Toy"):
        est.set_params(beta=1)


def test_repr_shows_only_changed_parameters():
    assert repr(Toy()) == "Toy()"
    assert repr(Toy(inner=float("nan"))) == "Toy(inner=nan)"
    assert repr(clone(Toy())) == "Toy()"
    assert repr(Toy(alpha=2.5, mode="b")) == "Toy(alpha=2.5, mode='b')"


def test_clone_is_unfitted_and_deep():
    inner = Toy(alpha=3.0)
    est = Toy(inner=inner).fit(np.eye(3), np.arange(3.0))
    new = clone(est)
    assert not hasattr(new, "coef_")
    assert new.inner is not inner and new.inner.alpha == 3.0
    with pytest.raises(TypeError, match="does not implement get_params"):
        clone(object())


def test_invalid_parameter_message_names_owner_parameter_and_value():
    with pytest.raises(InvalidParameterError) as exc:
        Toy(alpha=-1).fit(np.eye(2), [1.0, 2.0])
    msg = str(exc.value)
    assert "'alpha' parameter of Toy" in msg and "Got -1 instead" in msg
    assert "[0, inf)" in msg
    with pytest.raises(InvalidParameterError, match="among"):
        Toy(mode="c").fit(np.eye(2), [1.0, 2.0])
    # InvalidParameterError is both a ValueError and a TypeError, like scikit-learn's.
    assert issubclass(InvalidParameterError, ValueError)
    assert issubclass(InvalidParameterError, TypeError)


def test_not_fitted_error_names_the_estimator():
    with pytest.raises(NotFittedError, match="This Toy instance is not fitted yet"):
        Toy().predict(np.eye(2))
    assert issubclass(NotFittedError, AttributeError)


def test_n_features_checked_at_predict():
    est = Toy().fit(np.ones((4, 3)) + np.eye(4, 3), np.arange(4.0))
    assert est.n_features_in_ == 3
    with pytest.raises(ValueError, match="X has 2 features, but Toy is expecting 3 features"):
        est.predict(np.ones((2, 2)))


def test_feature_names_recorded_and_checked():
    pd = pytest.importorskip("pandas")
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [0.0, 1.0, 5.0]})
    est = Toy().fit(X, [1.0, 2.0, 3.0])
    assert list(est.feature_names_in_) == ["a", "b"]
    with pytest.raises(ValueError, match="must be in the same order"):
        est.predict(X[["b", "a"]])
    with pytest.warns(UserWarning, match="does not have valid feature names"):
        est.predict(X.to_numpy())
    refit = Toy().fit(X.to_numpy(), [1.0, 2.0, 3.0])
    assert not hasattr(refit, "feature_names_in_")


def test_scores():
    X = np.array([[1.0], [2.0], [3.0]])
    reg = Toy().fit(X, [2.0, 4.0, 6.0])
    assert reg.score(X, [2.0, 4.0, 6.0]) == pytest.approx(1.0)
    clf = ToyClf().fit(X, [0, 0, 1])
    assert clf.score(X, [0, 0, 1]) == pytest.approx(2 / 3)
    assert clf.score(X, [0, 0, 1], sample_weight=[1, 1, 2]) == pytest.approx(0.5)


def test_scores_validate_y_and_weights():
    X = np.array([[1.0], [2.0], [3.0]])
    reg = Toy().fit(X, [2.0, 4.0, 6.0])
    clf = ToyClf().fit(X, [0, 0, 1])
    # Each of these was once a silent wrong answer or a NumPy broadcasting error.
    with pytest.raises(ValueError, match="NaN"):
        reg.score(X, [np.nan, 4.0, 6.0])  # scored 1.0
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        reg.score(X, [2.0, 4.0])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        clf.score(X, [0, 0])
    with pytest.raises(ValueError, match="Negative"):
        clf.score(X, [0, 0, 1], sample_weight=[1, -1, 1])
    # a (n, 1) column is a column of labels, not an (n, n) broadcast (which scored 5/9)
    assert clf.score(X, np.array([[0], [0], [1]])) == pytest.approx(2 / 3)


def test_fit_does_not_modify_hyperparameters_and_pickles():
    est = Toy(alpha=2.0)
    before = est.get_params()
    est.fit(np.eye(3), np.arange(3.0))
    assert est.get_params() == before
    again = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(again.coef_, est.coef_)


def test_sklearn_tags_bridge():
    pytest.importorskip("sklearn")
    from sklearn.base import is_classifier, is_regressor

    assert is_regressor(Toy()) and is_classifier(ToyClf())
    tags = Toy().__sklearn_tags__()
    assert tags.target_tags.required and tags.estimator_type == "regressor"


def test_library_imports_without_optional_dependencies():
    """Importing scratchlearn must not import scikit-learn, pandas or matplotlib."""
    import subprocess
    import sys

    code = (
        "import sys, scratchlearn, scratchlearn.base, scratchlearn.utils, scratchlearn._registry;"
        "bad=[m for m in ('sklearn','pandas','matplotlib','statsmodels') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.parametrize(
    "family", ["linear_model", "naive_bayes", "preprocessing", "metrics", "model_selection"]
)
def test_families_without_loops_to_compile_leave_numba_unloaded(family):
    """Importing a family whose fits need no compiled loop does not import Numba (0.3-0.5 s):
    Lasso's and the pairwise distances' kernels are imported when they are first used."""
    import subprocess
    import sys

    code = f"import sys, scratchlearn.{family}; sys.exit('numba' in sys.modules)"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, f"scratchlearn.{family} imported numba" + res.stderr


def test_import_scratchlearn_leaves_scipy_and_numba_unloaded():
    """``import scratchlearn`` loads NumPy and its own small modules only (issue 24: at most
    0.3 s). SciPy's sparse and linalg modules took 0.4 s of it, Numba takes 0.5 s; both load
    with the first family that needs them. Checked by what is loaded, not by a timing."""
    import subprocess
    import sys

    code = (
        "import sys, scratchlearn;"
        "heavy=[m for m in ('scipy','scipy.sparse','scipy.linalg','numba','difflib','dask')"
        " if m in sys.modules]; print(heavy); sys.exit(1 if heavy else 0)"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr

"""Plots on the Agg backend: what was drawn (artists, labels, data) must match the model."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from scratchlearn import plotting  # noqa: E402
from scratchlearn.plotting._curves import history_curves  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _ax():
    return Figure().add_subplot()


class _ThresholdClassifier:
    """x0 + x1 > 0 → "b", else "a": a classifier whose regions are known exactly."""

    classes_ = np.array(["a", "b"])

    def predict(self, X):
        return np.where(X[:, 0] + X[:, 1] > 0, "b", "a")


def _iris_2d():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    return X[:, [0, 2]], y


# -- decision regions ------------------------------------------------------------------------
def test_decision_regions_draws_regions_and_one_scatter_per_class():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = _ThresholdClassifier().predict(X)
    ax = plotting.plot_decision_regions(_ThresholdClassifier(), X, y, ax=_ax(), resolution=50)
    regions, *scatters = ax.collections
    assert len(scatters) == 2
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b"]
    for label, sc in zip(["a", "b"], scatters):
        np.testing.assert_array_equal(sc.get_offsets(), X[y == label])
    # two classes → levels -0.5, 0.5, 1.5: one filled band per class
    np.testing.assert_array_equal(regions.levels, [-0.5, 0.5, 1.5])
    lo0, hi0 = ax.get_xlim()
    assert lo0 < X[:, 0].min() and hi0 > X[:, 0].max()
    assert ax.get_xlabel() == "x0" and "Threshold" in ax.get_title()


def test_decision_regions_colour_matches_prediction_at_grid_points(tmp_path):
    pytest.importorskip("scratchlearn.naive_bayes")
    from scratchlearn.naive_bayes import GaussianNB

    X, y = _iris_2d()
    model = GaussianNB().fit(X, y)
    fig = Figure(figsize=(5, 4), dpi=80)
    ax = fig.add_subplot()
    plotting.plot_decision_regions(
        model,
        X,
        y,
        ax=ax,
        resolution=120,
        feature_names=("sepal length", "petal length"),
        legend=False,
    )
    assert len(ax.collections) == 1 + 3 and ax.get_legend() is None
    assert ax.get_ylabel() == "petal length"
    # the filled bands must cover exactly the classes the model predicts on the plane
    regions = ax.collections[0]
    filled = [k for k, path in enumerate(regions.get_paths()) if len(path.vertices)]
    assert filled == [0, 1, 2]
    fig.savefig(tmp_path / "regions.png")
    assert (tmp_path / "regions.png").stat().st_size > 5000


def test_decision_regions_rejects_bad_shapes():
    with pytest.raises(ValueError, match=r"X of shape \(n_samples, 2\)"):
        plotting.plot_decision_regions(_ThresholdClassifier(), np.zeros((5, 3)), np.zeros(5))
    with pytest.raises(ValueError, match="y must have shape"):
        plotting.plot_decision_regions(_ThresholdClassifier(), np.zeros((5, 2)), np.zeros(4))
    # NaN once reached the classifier as a NaN grid ("Input X contains NaN" about the grid)
    X_nan = np.zeros((5, 2))
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="needs finite X"):
        plotting.plot_decision_regions(_ThresholdClassifier(), X_nan, np.zeros(5))
    # a float resolution passed the old int() check, then failed inside np.linspace
    with pytest.raises(ValueError, match="resolution must be an int"):
        plotting.plot_decision_regions(
            _ThresholdClassifier(), np.eye(5, 2), np.zeros(5), ax=_ax(), resolution=2.5
        )


# -- loss curve ------------------------------------------------------------------------------
def test_loss_curve_from_history_dict_with_gradient_norm():
    history = {"objective": [10.0, 1.0, 0.1, 0.01], "grad_norm": [5.0, 2.0, 0.5, 0.1]}
    ax = plotting.plot_loss_curve(history, ax=_ax())
    (line,) = ax.lines
    np.testing.assert_array_equal(line.get_ydata(), history["objective"])
    np.testing.assert_array_equal(line.get_xdata(), [0, 1, 2, 3])
    assert ax.get_yscale() == "log"  # spans 3 decades, positive: "auto" picks log
    twin = ax.grad_ax
    np.testing.assert_array_equal(twin.lines[0].get_ydata(), history["grad_norm"])
    assert twin in ax.figure.axes
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["objective J", "gradient norm ‖∇J‖"]


def test_loss_curve_extra_keys_are_ignored_and_nan_steps_left_out():
    history = {"objective": [4.0, np.nan, 2.0], "dual_gap": [1.0, 0.5, 0.1], "step_size": [1, 1, 1]}
    ax = plotting.plot_loss_curve(history, ax=_ax())
    (line,) = ax.lines
    np.testing.assert_array_equal(line.get_xdata(), [0, 2])
    np.testing.assert_array_equal(line.get_ydata(), [4.0, 2.0])
    assert not hasattr(ax, "grad_ax")


def test_loss_curve_one_line_per_problem():
    history = [
        {"objective": [3.0, 2.0, 1.0], "grad_norm": [1.0, 0.5, 0.25]},
        {"objective": [5.0, 4.0]},
    ]
    ax = plotting.plot_loss_curve(history, ax=_ax(), log_scale=False)
    assert len(ax.lines) == 2
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), [3.0, 2.0, 1.0])
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), [5.0, 4.0])
    assert [ln.get_label() for ln in ax.lines] == [
        "objective J, problem 0",
        "objective J, problem 1",
    ]
    (grad_line,) = ax.grad_ax.lines  # only problem 0 recorded a gradient norm
    np.testing.assert_array_equal(grad_line.get_ydata(), [1.0, 0.5, 0.25])


def test_loss_curve_linear_scale_and_plain_sequence():
    ax = plotting.plot_loss_curve([3.0, 2.0, 1.5], ax=_ax(), log_scale="auto")
    assert ax.get_yscale() == "linear" and not hasattr(ax, "grad_ax")
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), [3.0, 2.0, 1.5])
    with pytest.raises(ValueError, match="needs positive values"):
        plotting.plot_loss_curve([1.0, -1.0], ax=_ax(), log_scale=True)
    # a misspelt option was once taken as "truthy" and silently meant log_scale=True
    with pytest.raises(ValueError, match="log_scale must be"):
        plotting.plot_loss_curve([3.0, 2.0], ax=_ax(), log_scale="yes")


def test_history_curves_reads_the_one_schema():
    ((obj, grad),) = history_curves({"objective": [2.0, 1.0], "grad_norm": [1.0, 0.5]})
    np.testing.assert_array_equal(obj, [2.0, 1.0])
    np.testing.assert_array_equal(grad, [1.0, 0.5])
    curves = history_curves([{"objective": [2.0, 1.0]}, {"objective": [3.0]}])
    assert [c[0].tolist() for c in curves] == [[2.0, 1.0], [3.0]]
    assert [c[1] for c in curves] == [None, None]
    ((obj, grad),) = history_curves((3.0, 2.0))
    assert obj.tolist() == [3.0, 2.0] and grad is None


@pytest.mark.parametrize(
    "history, match",
    [
        ({"J": [2.0, 1.0]}, r"no 'objective' entry \(its keys: 'J'\)"),  # an old spelling
        ({"grad_norm": [1.0]}, "no 'objective' entry"),
        ({"objective": [2.0, 1.0], "grad_norm": [1.0]}, "1 values for 2 objective values"),
        ({"objective": "abc"}, "must be a sequence of numbers"),
        ([{"objective": [1.0]}, [1.0]], "only dicts, one per problem"),
        ([{"loss": 2.0}, {"loss": 1.0}], r"history\[0\] has no 'objective' entry"),
        ([], "non-empty 1-D"),
        (np.zeros((3, 2)), "non-empty 1-D"),
        (None, "history_ is None"),
    ],
)
def test_history_curves_rejects_other_layouts(history, match):
    with pytest.raises(ValueError, match=match):
        history_curves(history)
    with pytest.raises(ValueError, match=match):
        plotting.plot_loss_curve(history, ax=_ax())


class _Fitted:
    """A stand-in for a fitted iterative estimator writing the fit record."""

    def __init__(self, history=None):
        self.history_ = history

    def get_params(self, deep=True):
        return {}


def test_loss_curve_of_a_fitted_estimator_and_of_a_pipeline(tmp_path):
    from scratchlearn.pipeline import Pipeline

    record = {"objective": [0.69, 0.3, 0.2, 0.15], "grad_norm": [0.5, 0.2, 0.1, 0.05]}
    model = _Fitted(record)
    ax = plotting.plot_loss_curve(model)  # pyplot figure when ax is None
    assert isinstance(ax, plt.Axes)
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), record["objective"])
    assert "_Fitted" in ax.get_title()
    ax.figure.savefig(tmp_path / "loss.png")
    pipe = Pipeline([("first", _Fitted(None)), ("last", _Fitted({"objective": [2.0, 1.0]}))])
    ax = plotting.plot_loss_curve(pipe, ax=_ax())
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), [2.0, 1.0])
    with pytest.raises(ValueError, match="has no history_"):
        plotting.plot_loss_curve(_Fitted(None), ax=_ax())


def test_confusion_matrix_counts_and_text():
    y_true = ["cat", "cat", "dog", "dog", "dog", "owl"]
    y_pred = ["cat", "dog", "dog", "dog", "cat", "owl"]
    ax = plotting.plot_confusion_matrix(y_true, y_pred, ax=_ax())
    expected = np.array([[1, 1, 0], [1, 2, 0], [0, 0, 1]])
    np.testing.assert_array_equal(ax.images[0].get_array(), expected)
    assert [t.get_text() for t in ax.texts] == [str(v) for v in expected.ravel()]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["cat", "dog", "owl"]
    assert ax.get_ylabel() == "true label" and ax.get_xlabel() == "predicted label"


@pytest.mark.parametrize(
    "normalize, expected",
    [
        ("true", [[0.5, 0.5], [1 / 3, 2 / 3]]),
        ("pred", [[0.5, 1 / 3], [0.5, 2 / 3]]),
        ("all", [[0.2, 0.2], [0.2, 0.4]]),
    ],
)
def test_confusion_matrix_normalised(normalize, expected):
    y_true = [0, 0, 1, 1, 1]
    y_pred = [0, 1, 0, 1, 1]
    ax = plotting.plot_confusion_matrix(
        y_true, y_pred, normalize=normalize, ax=_ax(), display_labels=["no", "yes"]
    )
    np.testing.assert_allclose(ax.images[0].get_array(), expected, rtol=1e-15)
    assert ax.texts[0].get_text() == f"{expected[0][0]:.2f}"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["no", "yes"]


def test_confusion_matrix_explicit_labels_and_errors():
    ax = plotting.plot_confusion_matrix([1, 2], [1, 1], labels=[2, 1, 0], ax=_ax())
    np.testing.assert_array_equal(ax.images[0].get_array(), [[0, 1, 0], [0, 1, 0], [0, 0, 0]])
    with pytest.raises(ValueError, match="normalize must be"):
        plotting.plot_confusion_matrix([1], [1], normalize="rows")


# -- learning curve and regression plots ---------------------------------------------------------
def test_learning_curve_lines_are_the_mean_scores():
    pytest.importorskip("scratchlearn.model_selection")
    from sklearn.datasets import load_diabetes

    from scratchlearn.linear_model import Ridge
    from scratchlearn.model_selection import learning_curve

    X, y = load_diabetes(return_X_y=True)
    sizes = [0.3, 0.6, 1.0]
    ax = plotting.plot_learning_curve(Ridge(alpha=0.1), X, y, cv=4, train_sizes=sizes, ax=_ax())
    n, train, test = learning_curve(Ridge(alpha=0.1), X, y, cv=4, train_sizes=sizes)[:3]
    assert len(ax.lines) == 2 and len(ax.collections) == 2  # two means, two ±std bands
    np.testing.assert_array_equal(ax.lines[0].get_xdata(), n)
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), np.mean(train, axis=1))
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), np.mean(test, axis=1))
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "training score",
        "validation score",
    ]


def test_regression_fit_line_is_the_models_prediction(tmp_path):
    pytest.importorskip("scratchlearn.linear_model")
    from scratchlearn.linear_model import PolynomialRegression

    rng = np.random.default_rng(0)
    x = rng.uniform(-3, 3, size=60)
    y = 0.5 * x**2 - x + rng.normal(scale=0.5, size=60)
    model = PolynomialRegression(degree=2).fit(x.reshape(-1, 1), y)
    fig = Figure(figsize=(5, 4), dpi=80)
    ax = plotting.plot_regression_fit(model, x, y, ax=fig.add_subplot(), resolution=100)
    (line,) = ax.lines
    grid = line.get_xdata()
    assert grid.size == 100 and grid.min() < x.min() and grid.max() > x.max()
    np.testing.assert_array_equal(line.get_ydata(), model.predict(grid.reshape(-1, 1)))
    np.testing.assert_array_equal(ax.collections[0].get_offsets(), np.column_stack([x, y]))
    fig.savefig(tmp_path / "fit.png")
    with pytest.raises(ValueError, match=r"\(n_samples, 1\)"):
        plotting.plot_regression_fit(model, np.zeros((4, 2)), np.zeros(4))


def test_regression_fits_of_several_degrees_share_one_axes():
    pytest.importorskip("scratchlearn.linear_model")
    from scratchlearn.linear_model import PolynomialRegression

    x = np.linspace(0.0, 1.0, 30)
    y = np.sin(2 * np.pi * x)
    ax = _ax()
    for k, degree in enumerate((1, 3)):
        model = PolynomialRegression(degree=degree).fit(x.reshape(-1, 1), y)
        plotting.plot_regression_fit(
            model, x, y, ax=ax, label=f"degree {degree}", color=f"C{k}", show_data=k == 0
        )
        np.testing.assert_array_equal(
            ax.lines[-1].get_ydata(), model.predict(ax.lines[-1].get_xdata().reshape(-1, 1))
        )
    assert len(ax.collections) == 1  # the samples, drawn once
    assert [ln.get_label() for ln in ax.lines] == ["degree 1", "degree 3"]


def test_predicted_vs_true():
    ax = plotting.plot_predicted_vs_true([1.0, 2.0, 3.0], [1.5, 2.0, 2.5], ax=_ax())
    np.testing.assert_array_equal(
        ax.collections[0].get_offsets(), [[1.0, 1.5], [2.0, 2.0], [3.0, 2.5]]
    )
    x, y = ax.lines[0].get_data()
    np.testing.assert_array_equal(x, y)  # the identity line
    with pytest.raises(ValueError, match="same length"):
        plotting.plot_predicted_vs_true([1.0], [1.0, 2.0])
    # NaN once failed inside matplotlib with "Axis limits cannot be NaN or Inf"
    with pytest.raises(ValueError, match="must be finite"):
        plotting.plot_predicted_vs_true([1.0, np.nan], [1.0, 2.0], ax=_ax())


def test_importing_plotting_does_not_import_matplotlib():
    import subprocess
    import sys

    code = "import sys, scratchlearn.plotting, scratchlearn.cli; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_loss_curve_of_a_dual_solver_draws_its_kkt_violation():
    """SMO and dual coordinate descent record the largest KKT violation, not a gradient norm:
    it is drawn on the twin axis under its own name."""
    history = {"objective": [0.0, -1.0, -1.5, -1.6], "kkt_violation": [2.0, 0.5, 0.1, 1e-4]}
    ax = plotting.plot_loss_curve(history)
    assert ax.grad_ax.get_ylabel() == "KKT violation"
    np.testing.assert_array_equal(ax.grad_ax.lines[0].get_ydata(), history["kkt_violation"])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["objective J", "KKT violation"]
    plt.close(ax.figure)

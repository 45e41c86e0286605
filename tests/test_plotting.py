"""Plots on the Agg backend: what was drawn (artists, labels, data) must match the model."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from scratchlearn import plotting  # noqa: E402
from scratchlearn.plotting._curves import history_columns  # noqa: E402


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
    history = {"J": [10.0, 1.0, 0.1, 0.01], "grad_norm": [5.0, 2.0, 0.5, 0.1]}
    ax = plotting.plot_loss_curve(history, ax=_ax())
    (line,) = ax.lines
    np.testing.assert_array_equal(line.get_ydata(), history["J"])
    np.testing.assert_array_equal(line.get_xdata(), [0, 1, 2, 3])
    assert ax.get_yscale() == "log"  # spans 3 decades, positive: "auto" picks log
    twin = ax.grad_ax
    np.testing.assert_array_equal(twin.lines[0].get_ydata(), history["grad_norm"])
    assert twin in ax.figure.axes
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["objective J", "gradient norm ‖∇J‖"]


def test_loss_curve_linear_scale_and_plain_sequence():
    ax = plotting.plot_loss_curve([3.0, 2.0, 1.5], ax=_ax(), log_scale="auto")
    assert ax.get_yscale() == "linear" and not hasattr(ax, "grad_ax")
    ax = plotting.plot_loss_curve(np.array([[3.0, 1.0], [2.0, 0.5]]), ax=_ax(), log_scale=False)
    np.testing.assert_array_equal(ax.grad_ax.lines[0].get_ydata(), [1.0, 0.5])
    with pytest.raises(ValueError, match="needs positive values"):
        plotting.plot_loss_curve([1.0, -1.0], ax=_ax(), log_scale=True)
    # a misspelt option was once taken as "truthy" and silently meant log_scale=True
    with pytest.raises(ValueError, match="log_scale must be"):
        plotting.plot_loss_curve([3.0, 2.0], ax=_ax(), log_scale="yes")


def test_history_layouts():
    obj, grad = history_columns([{"loss": 2.0, "grad_norm": 1.0}, {"loss": 1.0, "grad_norm": 0.5}])
    np.testing.assert_array_equal(obj, [2.0, 1.0])
    np.testing.assert_array_equal(grad, [1.0, 0.5])
    with pytest.raises(ValueError, match="no objective values"):
        history_columns({"grad_norm": [1.0]})
    with pytest.raises(ValueError, match="no objective values"):
        history_columns([])
    # a history with another single curve (coordinate descent's duality gap) is plotted as is
    # NaN marks an iteration where it was not computed: those points are left out
    ax = plotting.plot_loss_curve({"dual_gap": [np.nan, 1.0, np.nan, 1e-3, 1e-6]}, ax=_ax())
    assert ax.get_ylabel() == "dual gap" and ax.get_yscale() == "log"
    np.testing.assert_array_equal(ax.lines[0].get_xdata(), [1, 3, 4])
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), [1.0, 1e-3, 1e-6])
    with pytest.raises(ValueError, match="cannot read a loss history"):
        history_columns(np.zeros((3, 4)))


@pytest.mark.filterwarnings("ignore::scratchlearn.exceptions.ConvergenceWarning")  # 200 steps
def test_loss_curve_of_a_fitted_estimator(tmp_path):
    pytest.importorskip("scratchlearn.linear_model")
    from sklearn.datasets import load_breast_cancer
    from sklearn.preprocessing import scale

    from scratchlearn.linear_model import LogisticRegression

    X, y = load_breast_cancer(return_X_y=True)
    model = LogisticRegression(solver="gd", max_iter=200).fit(scale(X), y)
    ax = plotting.plot_loss_curve(model)  # pyplot figure when ax is None
    assert isinstance(ax, plt.Axes)
    obj, grad = history_columns(model.history_)
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), obj)
    assert "LogisticRegression" in ax.get_title()
    ax.figure.savefig(tmp_path / "loss.png")
    with pytest.raises(ValueError, match="has no history_"):
        plotting.plot_loss_curve(LogisticRegression(), ax=_ax())


# -- confusion matrix ------------------------------------------------------------------------
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

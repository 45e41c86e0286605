"""The registry: one entry per public estimator, resolvable by class name or kebab alias."""

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from scratchlearn import _registry
from scratchlearn._registry import (
    FAMILIES,
    TASKS,
    Entry,
    all_estimators,
    all_families,
    family_packages,
    get_entry,
    kebab,
    task_of,
)
from scratchlearn.base import (
    BaseEstimator,
    ClassifierMixin,
    ClusterMixin,
    RegressorMixin,
    TransformerMixin,
)


@pytest.mark.parametrize(
    "name, alias",
    [
        ("LogisticRegression", "logistic-regression"),
        ("MultinomialNB", "multinomial-nb"),
        ("TfidfVectorizer", "tfidf-vectorizer"),
        ("PolynomialFeatures", "polynomial-features"),
    ],
)
def test_kebab(name, alias):
    assert kebab(name) == alias


def test_lookup_by_name_alias_and_case():
    assert get_entry("logisticregression").name == "LogisticRegression"
    assert get_entry("Logistic-Regression").name == "LogisticRegression"
    assert get_entry("multinomial_nb").name == "MultinomialNB"
    with pytest.raises(KeyError, match="unknown estimator 'nope'; choose one of: .*ridge"):
        get_entry("nope")


@pytest.mark.parametrize(
    "typed",
    [
        "adaboost-classifier",
        "AdaBoostClassifier",
        "ada-boost-classifier",
        "adaboostclassifier",
        "adaboost_classifier",
        " Ada-Boost_Classifier ",
    ],
)
def test_lookup_ignores_hyphens_underscores_and_case(typed):
    # issue 22: `scratchlearn fit adaboost-classifier` was refused (the alias splits "AdaBoost")
    assert get_entry(typed).name == "AdaBoostClassifier"


@pytest.mark.parametrize(
    "typed, suggested",
    [
        ("adaboost-clasifier", "did you mean ada-boost-classifier?"),
        ("rigde", "did you mean ridge?"),
        ("random-forest", "did you mean random-forest-classifier or random-forest-regressor?"),
        ("lasso-regression", "did you mean lasso?"),
    ],
)
def test_unknown_name_suggests_the_closest_ones(typed, suggested):
    with pytest.raises(KeyError) as info:
        get_entry(typed)
    assert info.value.args[0] == f"unknown estimator {typed!r}; {suggested}"


def test_no_two_entries_share_a_lookup_key(monkeypatch):
    entries = all_estimators()
    keys = [_registry._normal(e.name) for e in entries]
    assert len(set(keys)) == len(entries)
    assert all(_registry._normal(e.alias) == k for e, k in zip(entries, keys))
    # and a clash would be refused, not silently shadowed
    clash = Entry(name="Ada_Boost_Classifier", summary="x", module="m", family="f")
    monkeypatch.setattr(_registry, "_entries", lambda: [*entries, clash])
    with pytest.raises(RuntimeError, match="AdaBoostClassifier and Ada_Boost_Classifier share"):
        _registry._by_key.__wrapped__()


def test_entries_are_unique_and_well_formed():
    entries = all_estimators()
    names = [e.name for e in entries]
    assert len(names) == len(set(names))
    for e in entries:
        assert e.family in FAMILIES, e.name
        assert e.task in TASKS
        assert e.module.startswith("scratchlearn.") and not e.module.split(".")[-1].startswith("_")
        assert e.summary and not e.summary.endswith(".")


@pytest.mark.parametrize("entry", [e for e in all_estimators() if e.sklearn], ids=lambda e: e.name)
def test_scikit_learn_counterpart_exists(entry):
    module, _, name = entry.sklearn.rpartition(".")
    assert hasattr(importlib.import_module(module), name)


def test_registered_class_is_exported_by_its_public_module():
    for e in all_estimators():
        try:
            cls = e.cls
        except ImportError:
            pytest.fail(f"{e.module} does not import")
        assert cls.__name__ == e.name


def test_families_are_found_by_their_entries_file():
    # no list of families anywhere: a folder with an _entries.py is a family
    root = Path(_registry.__file__).parent
    on_disk = sorted(p.parent.name for p in root.glob("*/_entries.py"))
    assert list(family_packages()) == on_disk and len(on_disk) >= 14
    assert sorted(fam.module.split(".")[1] for fam in all_families()) == on_disk
    # in the course's order, which each family states: no two share a place
    orders = [fam.order for fam in all_families()]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)
    assert [fam.name for fam in all_families()][:3] == ["optim", "preprocessing", "linear_model"]


def test_each_family_declares_its_entries_next_to_its_code():
    for fam in all_families():
        for e in fam.entries:
            assert e.family == fam.name and e.module == fam.module
    assert list(FAMILIES) == [fam.name for fam in all_families()]
    # one spot per fact: no positional arguments, no module or task written in an entry
    with pytest.raises(TypeError):
        Entry("Ridge", "summary")  # positional arguments are refused
    assert "task" not in {f for f in Entry.__dataclass_fields__}
    # nor what the command line draws or prints: read from the fitted model (cli/_tasks.py)
    assert not {"plot", "report"} & set(Entry.__dataclass_fields__)


def test_the_task_is_read_from_the_class():
    tasks = {e.name: e.task for e in all_estimators()}
    assert tasks["LogisticRegression"] == "classifier" and tasks["Ridge"] == "regressor"
    assert tasks["StandardScaler"] == "transformer" and tasks["TfidfTransformer"] == "transformer"
    assert tasks["CountVectorizer"] == tasks["TfidfVectorizer"] == "text"
    assert [e.name for e in all_estimators(task="text")] == ["CountVectorizer", "TfidfVectorizer"]
    # an index of its rows (kneighbors, no predict, transform or labels) is "neighbors"
    assert [e.name for e in all_estimators(task="neighbors")] == ["NearestNeighbors"]

    class Clusters(ClusterMixin, BaseEstimator):
        pass

    class Both(ClassifierMixin, TransformerMixin, BaseEstimator):  # predicts first
        pass

    class Plain(BaseEstimator):
        pass

    class Index(BaseEstimator):
        def kneighbors(self, X=None, n_neighbors=None):
            pass

    assert task_of(Clusters) == "clusterer" and task_of(Both) == "classifier"
    assert task_of(Index) == "neighbors"
    assert task_of(type("R", (RegressorMixin, BaseEstimator), {})) == "regressor"
    with pytest.raises(TypeError, match="Plain has no task"):
        task_of(Plain)


def test_reading_the_registry_imports_no_model_module():
    code = (
        "import sys; from scratchlearn._registry import all_estimators, get_entry;"
        "entries = all_estimators(); get_entry('ridge');"
        "families = sorted({e.module for e in entries} | {'scratchlearn.optim'});"
        "print([m for m in families if m in sys.modules])"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"


def test_families_attribute_and_unknown_attribute():
    assert _registry.FAMILIES["naive_bayes"].startswith("Naive Bayes")
    with pytest.raises(AttributeError, match="no attribute 'NOPE'"):
        _registry.NOPE  # noqa: B018


def test_a_family_missing_from_the_docs_api_list_gets_its_page(monkeypatch):
    pytest.importorskip("sphinx")
    sys.path.insert(0, str(Path(__file__).parents[1] / "docs" / "_ext"))
    try:
        import scratchdocs
    finally:
        sys.path.pop(0)
    assert scratchdocs.api_packages() == scratchdocs.API_PACKAGES  # every family is listed
    new = _registry.Family(name="dbscan", title="Density clustering", module="scratchlearn.dbscan")
    monkeypatch.setattr(_registry, "all_families", lambda: (*all_families(), new))
    assert scratchdocs.api_packages()[-1] == ("dbscan", "Density clustering")

"""The registry: one entry per public estimator, resolvable by class name or kebab alias."""

import importlib

import pytest

from scratchlearn._registry import FAMILIES, all_estimators, get_entry, kebab


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


def test_entries_are_unique_and_well_formed():
    entries = all_estimators()
    names = [e.name for e in entries]
    assert len(names) == len(set(names))
    for e in entries:
        assert e.family in FAMILIES, e.name
        assert e.task in {"classifier", "regressor", "transformer", "clusterer", "text"}
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

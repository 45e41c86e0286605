"""Datasets: bundled real data, the seeds' worked-example tables, generators, ``load_csv`` and
the svmlight / LETOR format (``load_svmlight_file``, ``dump_svmlight_file``).

``load_<name>()`` returns a :class:`~scratchlearn.utils.Bunch` (``data``, ``target``,
``feature_names``, ``target_names``, ``DESCR``, ``kind``, ``task``, ``frame``);
``load_dataset(name)`` dispatches by name and ``list_datasets()`` describes them all. Every
``DESCR`` gives the source, citation and licence; ``data/LICENSES.md`` collects them.

Importing this package reads no data file: files are parsed on first use and cached per process.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..utils import Bunch
from ._conllu import load_ud_english_ewt, read_conllu
from ._csv import load_csv
from ._real import (
    load_breast_cancer,
    load_car_evaluation,
    load_congressional_voting,
    load_diabetes,
    load_digits,
    load_iris,
    load_modechoice,
    load_mushroom,
    load_randhie,
    load_sms_spam,
    load_tic_tac_toe,
    load_wine,
)
from ._samples_generator import (
    make_blobs,
    make_circles,
    make_classification,
    make_moons,
    make_regression,
    make_xor,
)
from ._seeds import (
    load_edible_plants,
    load_play_tennis,
    load_spam_emails,
    load_student_pass,
    load_xor,
)
from ._svmlight import dump_svmlight_file, load_svmlight_file

__all__ = [
    "load_dataset",
    "list_datasets",
    "load_csv",
    "load_svmlight_file",
    "dump_svmlight_file",
    "load_iris",
    "load_wine",
    "load_breast_cancer",
    "load_diabetes",
    "load_digits",
    "load_sms_spam",
    "load_mushroom",
    "load_car_evaluation",
    "load_congressional_voting",
    "load_tic_tac_toe",
    "load_randhie",
    "load_modechoice",
    "load_ud_english_ewt",
    "read_conllu",
    "load_play_tennis",
    "load_spam_emails",
    "load_edible_plants",
    "load_student_pass",
    "load_xor",
    "make_blobs",
    "make_classification",
    "make_regression",
    "make_circles",
    "make_moons",
    "make_xor",
]


@dataclass(frozen=True)
class _Info:
    loader: object
    kwargs: tuple  # fixed keyword arguments, e.g. (("n_rows", 6),)
    kind: str
    task: str
    n_samples: int
    n_features: int | None  # None for raw text (one document per row)
    licence: str
    summary: str


# fmt: off
_CATALOGUE = {
    # name: loader, fixed kwargs, kind, task, n_samples, n_features, licence, summary
    "iris": _Info(load_iris, (), "numeric", "classification", 150, 4, "CC BY 4.0",
                  "Fisher's iris: 4 flower measurements, 3 species"),
    "wine": _Info(load_wine, (), "numeric", "classification", 178, 13, "CC BY 4.0",
                  "13 chemical analyses of Italian wines, 3 cultivars"),
    "breast_cancer": _Info(load_breast_cancer, (), "numeric", "classification", 569, 30,
                           "CC BY 4.0",
                           "Wisconsin diagnostic: 30 cell-nucleus features, malignant/benign"),
    "diabetes": _Info(load_diabetes, (), "numeric", "regression", 442, 10, "research use",
                      "Efron et al.: 10 baseline variables -> disease progression after a year"),
    "digits": _Info(load_digits, (), "numeric", "classification", 1797, 64, "CC BY 4.0",
                    "8x8 handwritten digit images, grey levels 0-16, classes 0-9"),
    "sms_spam": _Info(load_sms_spam, (), "text", "classification", 5574, None, "CC BY 4.0",
                      "5,574 raw SMS messages labelled ham/spam"),
    "mushroom": _Info(load_mushroom, (), "categorical", "classification", 8124, 22,
                      "CC BY 4.0", "22 nominal mushroom attributes, edible/poisonous"),
    "car_evaluation": _Info(load_car_evaluation, (), "categorical", "classification", 1728, 6,
                            "CC BY 4.0", "6 ordinal car attributes, 4 acceptability classes"),
    "congressional_voting": _Info(load_congressional_voting, (), "categorical",
                                  "classification", 435, 16, "CC BY 4.0",
                                  "16 House votes (y/n/?) of 1984, democrat/republican"),
    "tic_tac_toe": _Info(load_tic_tac_toe, (), "categorical", "classification", 958, 9,
                         "CC BY 4.0", "final tic-tac-toe boards, does x win?"),
    "randhie": _Info(load_randhie, (), "numeric", "regression", 20190, 9, "public domain",
                     "RAND Health Insurance Experiment: count of doctor visits (Poisson)"),
    "modechoice": _Info(load_modechoice, (), "numeric", "ranking", 840, 7, "public domain",
                        "travel mode choice: 210 travellers (queries) x 4 modes"),
    "play_tennis": _Info(load_play_tennis, (("n_rows", 14),), "categorical", "classification",
                         14, 4, "textbook example", "Quinlan's 14-day PlayTennis table (ID3)"),
    "play_tennis_6": _Info(load_play_tennis, (("n_rows", 6),), "categorical",
                           "classification", 6, 4, "textbook example",
                           "the seed's first six PlayTennis days (ID3 walk-through)"),
    "spam_emails": _Info(load_spam_emails, (), "text", "classification", 4, None,
                         "seed example", "the seed's four e-mails for naive Bayes"),
    "edible_plants": _Info(load_edible_plants, (), "categorical", "classification", 6, 2,
                           "seed example", "the seed's six plants: Color, Size -> Edible (CART)"),
    "student_pass": _Info(load_student_pass, (), "numeric", "classification", 5, 2,
                          "seed example", "the seed's five students: hours, attendance -> pass"),
    "xor": _Info(load_xor, (), "numeric", "classification", 4, 2, "seed example",
                 "the four XOR points (+-1, +-1)"),
}
# fmt: on


def _unknown(name) -> ValueError:
    return ValueError(f"Unknown dataset {name!r}. Valid names: {', '.join(_CATALOGUE)}.")


def load_dataset(name: str, **kwargs):
    """Call the loader registered under ``name`` with ``kwargs`` (e.g. ``return_X_y=True``).

    Names: iris, wine, breast_cancer, diabetes, digits, sms_spam, mushroom, car_evaluation,
    congressional_voting, tic_tac_toe, randhie, modechoice, play_tennis, play_tennis_6,
    spam_emails, edible_plants, student_pass, xor. An unknown name raises ``ValueError``
    listing the valid ones.
    """
    if not isinstance(name, str) or name not in _CATALOGUE:
        raise _unknown(name)
    info = _CATALOGUE[name]
    fixed = dict(info.kwargs)
    clash = sorted(set(fixed) & set(kwargs))
    if clash:
        raise TypeError(f"load_dataset({name!r}) fixes {clash}; call {info.loader.__name__}.")
    return info.loader(**fixed, **kwargs)


def list_datasets() -> list:
    """One Bunch per dataset: name, kind, task, n_samples, n_features, licence, summary.

    Reads no data file. ``n_features`` is None for text datasets (one raw document per row).
    """
    return [
        Bunch(
            name=name,
            kind=i.kind,
            task=i.task,
            n_samples=i.n_samples,
            n_features=i.n_features,
            licence=i.licence,
            summary=i.summary,
            loader=i.loader.__name__,
        )
        for name, i in _CATALOGUE.items()
    ]

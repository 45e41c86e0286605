"""``scratchlearn fit`` for rankers: queries kept whole, ``--group COLUMN``, clear errors."""

import csv

import numpy as np

from scratchlearn.cli import main
from scratchlearn.ranking._showcase import load_modechoice_ranking


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _csv(tmp_path):
    X, y, qid, names = load_modechoice_ranking()
    path = tmp_path / "modes.csv"
    with open(path, "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["traveller", *names, "choice"])
        writer.writerows(np.column_stack([qid, X, y]).tolist())
    return str(path)


def test_fit_ranker_on_a_csv_splits_by_the_group_column(capsys, tmp_path):
    path = _csv(tmp_path)
    code, out, _ = _run(
        capsys, "fit", "pointwise-ranker", "--data", path, "--target", "choice",
        "--group", "traveller", "--cv", "3",
    )  # fmt: skip
    assert code == 0
    assert "(840 samples, 8 numeric features; ranker)" in out  # the group column is not a feature
    assert "held-out split: 157 train / 53 test queries" in out  # 210 queries, 25 % held out
    assert "NDCG@1" in out and "MAP" in out and "cv (3 folds) NDCG:" in out


def test_ranker_errors_are_one_line(capsys, tmp_path):
    path = _csv(tmp_path)
    code, _, err = _run(capsys, "fit", "list-net", "--data", path, "--target", "choice")
    assert code == 2 and "name the query-id column with --group COLUMN" in err
    args = ("--data", path, "--target", "choice", "--group", "nope")
    code, _, err = _run(capsys, "fit", "list-net", *args)
    assert code == 2 and "--group 'nope': no such feature column" in err
    code, _, err = _run(capsys, "fit", "ridge", "--group", "traveller")
    assert code == 2 and "--group applies to rankers; Ridge is a regressor" in err

"""The ranking part of the demo: ``showcase()`` returns a printable report.

Travel mode choice as ranking (Greene and Hensher 1997): each of 210 travellers is a query of
four alternatives (air, train, bus, car), the chosen one relevant. The three approaches are
trained on 70 % of the travellers and ranked on the other 30 % (a split by queries, so no
traveller is on both sides), scored by NDCG@1 (the share of travellers whose chosen mode is
ranked first) and MAP (here the mean reciprocal rank of the chosen mode: one relevant row per
query). A constant ranking that always says car is the floor to beat.
"""

from __future__ import annotations

import functools
import time

import numpy as np

from ._listnet import ListNet
from ._pointwise import PointwiseRanker
from ._ranksvm import RankSVM

__all__ = ["showcase", "figures", "load_modechoice_ranking", "split_by_queries"]

_MODES = ("air", "train", "bus", "car")


def load_modechoice_ranking():
    """(X, y, qid, feature_names): the mode-choice data as a ranking set.

    Features of an alternative: indicators of air, train and bus (car is the reference, its
    constant cancels within a query), terminal time, cost, travel time and generalised cost,
    and household income times the air indicator (income is the same on all rows of a query,
    so only its interaction with a mode can change a ranking).
    """
    from ..datasets import load_modechoice

    b = load_modechoice()
    X, y, qid = b.data, b.target.astype(np.float64), b.qid
    mode = X[:, 0].astype(int) - 1  # 0 air, 1 train, 2 bus, 3 car
    dummies = np.eye(4)[mode][:, :3]  # (840, 3)
    item = X[:, 1:5]  # ttme, invc, invt, gc
    hinc_air = X[:, 5] * dummies[:, 0]
    names = ["air", "train", "bus", "ttme", "invc", "invt", "gc", "hinc*air"]
    return np.column_stack([dummies, item, hinc_air]), y, qid, names


def split_by_queries(qid, test_size=0.3, seed=0):
    """Boolean mask of the test rows: a random ``test_size`` share of the query ids."""
    ids = np.unique(qid)
    rng = np.random.default_rng(seed)
    test_ids = rng.choice(ids, size=int(round(test_size * len(ids))), replace=False)
    return np.isin(qid, test_ids)


def _approaches():
    return [
        ("pointwise (Ridge)", PointwiseRanker()),
        ("pairwise (RankSVM)", RankSVM(C=0.1, random_state=0)),
        ("listwise (ListNet)", ListNet(alpha=1e-3, solver="gd")),  # the figure: J under GD
    ]


@functools.cache
def _results():
    """[(name, fitted ranker or None, NDCG@1, MAP, fit seconds)] on the held-out travellers."""
    from ..metrics import mean_average_precision, ndcg_score
    from ..preprocessing import StandardScaler

    X, y, qid, _ = load_modechoice_ranking()
    test = split_by_queries(qid)
    scaler = StandardScaler().fit(X[~test])  # the training travellers' statistics only
    X_tr, X_te = scaler.transform(X[~test]), scaler.transform(X[test])
    rows = []
    for name, ranker in _approaches():
        start = time.perf_counter()
        ranker.fit(X_tr, y[~test], qid=qid[~test])
        seconds = time.perf_counter() - start
        s = ranker.predict(X_te)
        ndcg1 = ndcg_score(y[test], s, qid=qid[test], k=1)
        ap = mean_average_precision(y[test], s, qid=qid[test])
        rows.append((name, ranker, ndcg1, ap, seconds))
    always_car = (X[test][:, :3].sum(axis=1) == 0).astype(float)  # car scores 1, others 0
    rows.append(
        (
            "always car",
            None,
            ndcg_score(y[test], always_car, qid=qid[test], k=1),
            mean_average_precision(y[test], always_car, qid=qid[test]),
            0.0,
        )
    )
    return rows


def showcase() -> str:
    """The three rankers on the held-out travellers: NDCG@1 and MAP per approach."""
    X, _, qid, names = load_modechoice_ranking()
    test = split_by_queries(qid)
    n_tr, n_te = len(np.unique(qid[~test])), len(np.unique(qid[test]))
    lines = [
        f"Mode choice as ranking: {len(np.unique(qid))} travellers x 4 modes; "
        f"{n_tr} train / {n_te} test travellers.",
        f"{'approach':<20} {'NDCG@1':>7} {'MAP':>7} {'fit':>9}",
    ]
    for name, _, ndcg1, ap, seconds in _results():
        lines.append(f"{name:<20} {ndcg1:7.3f} {ap:7.3f} {seconds:7.3f} s")
    svm = _results()[1][1]
    top = np.argsort(-np.abs(svm.coef_))[:3]
    weights = ", ".join(f"{names[j]} {svm.coef_[j]:+.2f}" for j in top)
    lines.append(f"RankSVM's largest standardised weights: {weights} ({svm.n_pairs_} pairs).")
    return "\n".join(lines)


def _ranking_figure(fig):
    fig.set_layout_engine("constrained")
    fig.set_size_inches(10, 4.8)
    results = _results()
    ax_bar, ax_loss = fig.subplots(1, 2, width_ratios=(3, 2))
    labels = [r[0].replace(" (", "\n(") for r in results]  # "pointwise\n(Ridge)"
    at = np.arange(len(results))
    ax_bar.bar(at - 0.2, [r[2] for r in results], width=0.4, label="NDCG@1")
    ax_bar.bar(at + 0.2, [r[3] for r in results], width=0.4, label="MAP")
    ax_bar.set_xticks(at, labels)
    ax_bar.set_ylim(0, 1.18)  # headroom above the bars (all ≤ 1) for the legend
    ax_bar.set_yticks(np.linspace(0, 1, 6))
    ax_bar.set_ylabel("score on the held-out travellers (1 is best)")
    ax_bar.set_title("Ranking the chosen mode first: NDCG@1 and MAP")
    ax_bar.legend(loc="upper center", ncols=2)
    listnet = results[2][1]
    ax_loss.plot(listnet.history_["objective"])
    ax_loss.set_xlabel("gradient step")
    ax_loss.set_ylabel("J(w): top-one cross-entropy + penalty")
    ax_loss.set_title("ListNet's objective during training")
    fig.suptitle("Travel mode choice as ranking: three learners against always ranking car first")
    return fig


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [("ranking_modechoice.png", _ranking_figure)]

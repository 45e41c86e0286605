"""The structured-outputs part of the demo: ``showcase()`` returns a printable report.

1. Part-of-speech tagging of UD English-EWT: the averaged perceptron trained on the dev portion
   (5 epochs), its token accuracy on the test portion beside the unaveraged perceptron's and the
   most-frequent-tag baseline's (each word's commonest dev tag, NOUN for unseen words).
2. Two test sentences tagged.
3. One sentence's Viterbi path explained: emission and transition score of every step.

``figures()`` draws the per-tag accuracy of the perceptron and of the baseline.
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np

from ._perceptron import StructuredPerceptron

__all__ = ["showcase", "figures", "most_frequent_tag_baseline"]

EPOCHS = 5


def most_frequent_tag_baseline(train_sentences, train_tags, sentences):
    """Each word's most frequent training tag; the overall most frequent tag for unseen words.

    Ties between tags of a word go to the one seen first in training.
    """
    counts: dict[str, Counter] = {}
    for words, tags in zip(train_sentences, train_tags):
        for w, t in zip(words, tags):
            counts.setdefault(w, Counter())[t] += 1
    overall = Counter(t for tags in train_tags for t in tags).most_common(1)[0][0]
    best = {w: c.most_common(1)[0][0] for w, c in counts.items()}
    return [[best.get(w, overall) for w in words] for words in sentences]


@functools.cache
def _results():
    from ..datasets import load_ud_english_ewt

    train, test = load_ud_english_ewt("dev"), load_ud_english_ewt("test")
    models = {
        averaged: StructuredPerceptron(max_iter=EPOCHS, averaged=averaged, random_state=0).fit(
            train.data, train.target
        )
        for averaged in (True, False)
    }
    truth = np.array([t for tags in test.target for t in tags], dtype=object)
    pred = np.array([t for tags in models[True].predict(test.data) for t in tags], dtype=object)
    base = most_frequent_tag_baseline(train.data, train.target, test.data)
    base = np.array([t for tags in base for t in tags], dtype=object)
    return train, test, models, truth, pred, base


def _explain_table(model, sentence):
    rows = [f"  {'token':<12} {'tag':<6} {'emission':>9} {'transition':>10} {'cumulative':>10}"]
    for r in model.explain(sentence):
        token = "(end)" if r["token"] is None else r["token"]
        rows.append(
            f"  {token:<12} {r['tag']:<6} {r['emission']:>9.2f} {r['transition']:>10.2f} "
            f"{r['cumulative']:>10.2f}"
        )
    return rows


def showcase() -> str:
    train, test, models, truth, pred, base = _results()
    n_train = sum(map(len, train.target))
    unaveraged = models[False].score(test.data, test.target)
    lines = [
        f"Part-of-speech tagging, UD English-EWT: train on dev ({len(train.data)} sentences, "
        f"{n_train} tokens), test on test ({len(test.data)} sentences, {truth.size} tokens), "
        f"{len(models[True].classes_)} UPOS tags, {EPOCHS} epochs",
        f"  most-frequent-tag baseline      token accuracy {np.mean(base == truth):.4f}",
        f"  structured perceptron           token accuracy {unaveraged:.4f}",
        f"  averaged structured perceptron  token accuracy {np.mean(pred == truth):.4f}",
        f"  training mistakes per epoch: {[int(v) for v in models[True].history_['objective']]}",
        "",
    ]
    tagged = models[True].predict(test.data[:2])
    for words, tags in zip(test.data[:2], tagged):
        lines.append("  " + " ".join(f"{w}/{t}" for w, t in zip(words, tags)))
    lines += ["", "Viterbi path of the first test sentence, step by step:"]
    lines += _explain_table(models[True], test.data[0])
    return "\n".join(lines)


def _draw_per_tag(fig):
    _, _, models, truth, pred, base = _results()
    tags = list(models[True].classes_)
    support = np.array([np.sum(truth == t) for t in tags])
    ours = np.array([np.mean(pred[truth == t] == t) for t in tags])
    theirs = np.array([np.mean(base[truth == t] == t) for t in tags])
    order = np.argsort(-support)
    fig.set_layout_engine("constrained")
    ax = fig.add_subplot()
    x = np.arange(len(tags))
    ax.bar(x - 0.2, theirs[order], width=0.4, label="most frequent tag", color="0.7")
    ax.bar(x + 0.2, ours[order], width=0.4, label="averaged perceptron")
    ax.set_xticks(x, [tags[k] for k in order], rotation=60)
    ax.set_xlabel("universal part-of-speech tag, most frequent first")
    ax.set_ylabel("recall: share of the tag's test tokens\ntagged correctly")
    ax.set_title("UD English-EWT test: accuracy per tag")
    ax.set_ylim(0, 1.2)  # headroom above the bars (all ≤ 1) for the legend
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.legend(loc="upper right", ncols=2)


def figures():
    return [("pos_tagging_per_tag.png", _draw_per_tag)]

"""The naive Bayes part of the demo: ``showcase()`` returns a printable report.

1. Spam detection on the SMS spam collection: bag of words + MultinomialNB, held-out accuracy,
   the words that most indicate spam and ham, and one message's posterior written out.
2. The seeds' four e-mails: the exact scores 1/750 and 1/3375.
3. GaussianNB on the wine measurements.
4. CategoricalNB on the mushroom table (string categories used directly).
"""

from __future__ import annotations

import numpy as np

from ..feature_extraction.text import CountVectorizer
from ._categorical import CategoricalNB
from ._discrete import MultinomialNB
from ._gaussian import GaussianNB

__all__ = ["showcase", "figures"]


def _split(n, test_fraction=0.2, seed=0):
    order = np.random.default_rng(seed).permutation(n)
    n_test = int(round(test_fraction * n))
    return order[n_test:], order[:n_test]


def _accuracy(model, X, y) -> float:
    return float(np.mean(model.predict(X) == y))


def _spam_section(lines):
    from ..datasets import load_sms_spam

    data = load_sms_spam()
    docs = np.asarray(data.data, dtype=object)
    y = np.asarray(data.target_names, dtype=object)[data.target]
    train, test = _split(docs.shape[0])
    vec = CountVectorizer()
    X_train = vec.fit_transform(docs[train])
    nb = MultinomialNB(alpha=1.0).fit(X_train, y[train])
    X_test = vec.transform(docs[test])
    names = vec.get_feature_names_out()
    lines.append("Spam detection: SMS spam collection, bag of words + MultinomialNB (alpha=1)")
    lines.append(
        f"  {len(train)} training / {len(test)} held-out messages, vocabulary of {len(names)} words"
    )
    lines.append(f"  held-out accuracy: {_accuracy(nb, X_test, y[test]):.4f}")
    llr = nb.log_likelihood_ratio(pos_label="spam")
    lines.append(f"  log prior ratio log P(spam)/P(ham) = {llr.prior:+.3f}")
    for label in ("spam", "ham"):
        top = nb.top_features(10, class_=label, feature_names=names)
        words = ", ".join(f"{w} ({s:+.2f})" for w, s in top)
        lines.append(f"  top {label} words (log-likelihood ratio): {words}")
    spam_rows = np.flatnonzero(y[test] == "spam")
    if spam_rows.size:
        i = spam_rows[0]
        lines.append(f"  one held-out message: {str(docs[test][i])[:70]!r}")
        ex = nb.explain(X_test[i], feature_names=names, max_features=6)
        lines.extend("    " + row for row in str(ex).splitlines())


def _seed_section(lines):
    from ..datasets import load_spam_emails

    data = load_spam_emails()
    y = np.asarray(data.target_names, dtype=object)[data.target]
    vec = CountVectorizer().fit(data.data)
    nb = MultinomialNB(alpha=1.0).fit(vec.transform(data.data), y)
    ex = nb.explain(vec.transform([data.new_document]), feature_names=vec.get_feature_names_out())
    lines.append(
        f"The seeds' four e-mails, new e-mail {data.new_document!r} "
        "(exact: Spam 1/750, Not Spam 1/3375):"
    )
    lines.extend("    " + row for row in str(ex).splitlines())


def _gaussian_section(lines):
    from ..datasets import load_wine

    data = load_wine()
    train, test = _split(data.data.shape[0])
    for ddof in (0, 1):
        nb = GaussianNB(ddof=ddof).fit(data.data[train], data.target[train])
        acc = _accuracy(nb, data.data[test], data.target[test])
        lines.append(
            f"GaussianNB(ddof={ddof}) on wine ({data.data.shape[1]} measurements, "
            f"{len(test)} held out): accuracy {acc:.4f}"
        )


def _categorical_section(lines):
    from ..datasets import load_mushroom

    data = load_mushroom()
    X = np.asarray(data.data, dtype=object)
    y = np.asarray(data.target_names, dtype=object)[data.target]
    train, test = _split(X.shape[0])
    nb = CategoricalNB(alpha=1.0).fit(X[train], y[train])
    lines.append(
        f"CategoricalNB on mushroom ({X.shape[1]} string features, "
        f"{len(test)} held out): accuracy {_accuracy(nb, X[test], y[test]):.4f}"
    )


def showcase() -> str:
    """The naive Bayes demo as text (no printing: the caller decides where it goes)."""
    lines: list[str] = []
    for section in (_spam_section, _seed_section, _gaussian_section, _categorical_section):
        section(lines)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# -- figures (written by `scratchlearn demo` when matplotlib is installed) ---------------------
def _decision_regions(fig) -> None:
    """GaussianNB on the iris petals: quadratic boundaries from per-class variances."""
    from .. import plotting
    from ..datasets import load_iris

    fig.set_layout_engine("constrained")
    data = load_iris()
    X, y = data.data[:, 2:4], np.asarray(data.target_names, dtype=object)[data.target]
    model = GaussianNB().fit(X, y)
    ax = plotting.plot_decision_regions(
        model, X, y, ax=fig.add_subplot(), feature_names=data.feature_names[2:4]
    )
    ax.set_title(f"GaussianNB on iris petals (training accuracy {model.score(X, y):.3f})")


def _confusion_matrix(fig) -> None:
    """Bag of words + MultinomialNB on the SMS spam collection, 20% held out."""
    from .. import plotting
    from ..datasets import load_sms_spam

    fig.set_layout_engine("constrained")
    data = load_sms_spam()
    docs = np.asarray(data.data, dtype=object)
    y = np.asarray(data.target_names, dtype=object)[data.target]
    train, test = _split(docs.shape[0])
    vec = CountVectorizer()
    model = MultinomialNB().fit(vec.fit_transform(docs[train]), y[train])
    y_pred = model.predict(vec.transform(docs[test]))
    ax = plotting.plot_confusion_matrix(y[test], y_pred, ax=fig.add_subplot())
    ax.set_title(f"MultinomialNB on {len(test)} held-out SMS messages")


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [
        ("decision_regions.png", _decision_regions),
        ("confusion_matrix.png", _confusion_matrix),
    ]

"""The structured perceptron: the update by hand, the lazy average against the explicit one,
the POS-tagging accuracy on UD English-EWT, explain, bad input and the model file."""

from __future__ import annotations

import numpy as np
import pytest

from scratchlearn import io as slio
from scratchlearn.datasets import load_ud_english_ewt
from scratchlearn.exceptions import NotFittedError
from scratchlearn.structured import StructuredPerceptron, default_features, viterbi
from scratchlearn.structured._showcase import most_frequent_tag_baseline


def word(tokens, i):
    return ["w=" + tokens[i]]


def test_update_by_hand_on_a_two_sentence_toy():
    """Tags X=0, Y=1, boundary 2; features w=a (id 0), w=b (id 1).

    Sentence 1, a/X: zero weights tie, Viterbi picks X: right, no update (c = 1).
    Sentence 2, a/X b/Y: decoded X X (ties). Token b is wrong: W[b, Y] += 1, W[b, X] -= 1.
    Tag pairs (2,X) agree; (X,Y) vs (X,X): T[X,Y] += 1, T[X,X] -= 1; (Y,2) vs (X,2):
    T[Y,2] += 1, T[X,2] -= 1. The average over the C = 2 sentences is (0 + w) / 2.
    """
    X, Y = [["a"], ["a", "b"]], [["X"], ["X", "Y"]]
    W = np.array([[0.0, 0.0], [-1.0, 1.0]])
    T = np.zeros((3, 3))
    T[0, 1], T[0, 0], T[1, 2], T[0, 2] = 1, -1, 1, -1
    last = StructuredPerceptron(max_iter=1, features=word, averaged=False, shuffle=False)
    last.fit(X, Y)
    assert last.vocabulary_ == {"w=a": 0, "w=b": 1}
    assert last.classes_.tolist() == ["X", "Y"]
    np.testing.assert_array_equal(last.coef_, W)
    np.testing.assert_array_equal(last.transitions_, T)
    # zero weights mislabel the one Y token; the pass makes one mistake
    assert last.history_ == {"objective": [1.0, 1.0]}
    assert last.n_iter_ == 1 and last.stop_reason_ == "max_iter"
    mean = StructuredPerceptron(max_iter=1, features=word, shuffle=False).fit(X, Y)
    np.testing.assert_array_equal(mean.coef_, W / 2)
    np.testing.assert_array_equal(mean.transitions_, T / 2)


def _naive_fit(sentences, tags, model, epochs):
    """Collins' perceptron written plainly on dict-free dense arrays: Φ by feature strings, a
    full copy of (W, T) after every sentence, and their explicit mean."""
    code = {t: k for k, t in enumerate(model.classes_)}
    vocab, K = model.vocabulary_, len(model.classes_)
    W, T = np.zeros((len(vocab), K)), np.zeros((K + 1, K + 1))
    snapshots = []
    for _ in range(epochs):
        for tokens, gold in zip(sentences, tags):
            feats = [[vocab[f] for f in default_features(tokens, i)] for i in range(len(tokens))]
            E = np.array([W[f].sum(axis=0) for f in feats])
            y_hat = viterbi(E, T)[0].tolist()
            y = [code[t] for t in gold]
            if y_hat != y:
                for f, g, p in zip(feats, y, y_hat):
                    np.add.at(W, (f, g), 1.0)
                    np.add.at(W, (f, p), -1.0)
                for a, b in zip([K] + y, y + [K]):
                    T[a, b] += 1
                for a, b in zip([K] + y_hat, y_hat + [K]):
                    T[a, b] -= 1
            snapshots.append((W.copy(), T.copy()))
    W_bar = np.mean([w for w, _ in snapshots], axis=0)
    T_bar = np.mean([t for _, t in snapshots], axis=0)
    return W, T, W_bar, T_bar


def test_lazy_average_equals_the_explicit_average():
    data = load_ud_english_ewt("dev")
    X, Y = data.data[:30], data.target[:30]
    last = StructuredPerceptron(max_iter=3, averaged=False, shuffle=False).fit(X, Y)
    mean = StructuredPerceptron(max_iter=3, shuffle=False).fit(X, Y)
    assert last.n_iter_ == 3  # three full epochs, so both sides saw C = 90 sentences
    W, T, W_bar, T_bar = _naive_fit(X, Y, last, epochs=3)
    # Integer weights and integer sums below 2⁵³ are exact in float64, and each side divides
    # its exact sum by C once: equality is exact.
    np.testing.assert_array_equal(last.coef_, W)
    np.testing.assert_array_equal(last.transitions_, T)
    np.testing.assert_array_equal(mean.coef_, W_bar)
    np.testing.assert_array_equal(mean.transitions_, T_bar)
    assert np.abs(W - W_bar).max() > 0.1  # the average is not the last vector here


def test_shuffle_is_seeded():
    data = load_ud_english_ewt("dev")
    X, Y = data.data[:40], data.target[:40]
    a = StructuredPerceptron(max_iter=2, random_state=3).fit(X, Y)
    b = StructuredPerceptron(max_iter=2, random_state=3).fit(X, Y)
    c = StructuredPerceptron(max_iter=2, shuffle=False).fit(X, Y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert not np.array_equal(a.coef_, c.coef_)


def test_pos_tagging_beats_the_most_frequent_tag_baseline():
    """Train on dev, test on test (5 epochs): the issue's bar is 0.89 token accuracy against
    the most-frequent-tag baseline's 0.812, and averaging must help."""
    train, test = load_ud_english_ewt("dev"), load_ud_english_ewt("test")
    truth = [t for tags in test.target for t in tags]
    base = most_frequent_tag_baseline(train.data, train.target, test.data)
    correct = sum(p == t for p, t in zip((t for s in base for t in s), truth))
    assert len(truth) == 25094 and correct == 20376  # 0.8120: a deterministic count
    averaged = StructuredPerceptron(max_iter=5, random_state=0).fit(train.data, train.target)
    last = StructuredPerceptron(max_iter=5, random_state=0, averaged=False)
    last.fit(train.data, train.target)
    acc_avg = averaged.score(test.data, test.target)
    acc_last = last.score(test.data, test.target)
    assert acc_avg >= 0.89  # measured 0.911
    assert acc_avg > acc_last  # measured 0.911 vs 0.883
    pred = averaged.predict(test.data)
    assert [len(p) for p in pred] == [len(s) for s in test.data]
    assert np.mean(np.array([t for s in pred for t in s]) == np.array(truth)) == acc_avg


def _toy():
    return [["the", "dog", "runs"], ["a", "cat", "sleeps"], ["dogs", "run"]], [
        ["DET", "NOUN", "VERB"],
        ["DET", "NOUN", "VERB"],
        ["NOUN", "VERB"],
    ]


def test_an_epoch_without_mistakes_stops_the_fit():
    X, Y = _toy()  # separable by the words alone
    m = StructuredPerceptron(max_iter=50, shuffle=False).fit(X, Y)
    assert m.stop_reason_ == "converged" and m.n_iter_ < 50
    assert m.history_["objective"][-1] == 0.0 and min(m.history_["objective"][:-1]) > 0
    assert len(m.history_["objective"]) == m.n_iter_ + 1


def test_explain_gives_the_viterbi_path_and_its_score():
    X, Y = _toy()
    m = StructuredPerceptron(max_iter=3, random_state=0).fit(X, Y)
    sentence = ["the", "cat", "runs", "unseen-word"]
    records = m.explain(sentence)
    assert [r["tag"] for r in records] == m.predict([sentence])[0] + ["</s>"]
    assert [r["token"] for r in records] == sentence + [None]
    total = 0.0
    for r in records:
        total += r["emission"] + r["transition"]
        assert r["cumulative"] == total
    K = len(m.classes_)
    ids = [[m.vocabulary_[f] for f in default_features(sentence, i) if f in m.vocabulary_]
           for i in range(len(sentence))]  # fmt: skip
    E = np.array([m.coef_[f].sum(axis=0) for f in ids])
    _, best = viterbi(E, m.transitions_)
    # the same 2n+1 terms summed in another order: within (2n+1)·ε·Σ|terms| of each other
    bound = 2 * 9 * np.finfo(float).eps * sum(abs(r["emission"]) + abs(r["transition"])
                                              for r in records)  # fmt: skip
    assert abs(records[-1]["cumulative"] - best) <= bound
    assert records[0]["transition"] == m.transitions_[K, m.classes_.tolist().index("DET")]


def test_empty_sentences_are_skipped_in_fit_and_tagged_empty():
    X, Y = _toy()
    with_empty = StructuredPerceptron(max_iter=2, shuffle=False).fit(X + [[]], Y + [[]])
    without = StructuredPerceptron(max_iter=2, shuffle=False).fit(X, Y)
    np.testing.assert_array_equal(with_empty.coef_, without.coef_)
    assert with_empty.predict([[], ["the", "dog"]])[0] == []
    assert with_empty.score([[], ["the", "dog"]], [[], ["DET", "NOUN"]]) == 1.0


@pytest.mark.parametrize(
    "X, Y, match",
    [
        (lambda X: X[:2], None, "sequences has 2 sentences but label_sequences has 3"),
        (None, lambda Y: [Y[0], Y[1][:2], Y[2]], "sentence 1 has 3 tokens but 2 tags"),
        (lambda X: [X[0], ["a", 7, "b"], X[2]], None, r"sequences\[1\]\[1\] is int 7, not a str"),
        (lambda X: ["the dog runs"] + X[1:], None, r"sequences\[0\] is str 'the dog runs'"),
        (lambda X: "the dog", None, "must be a list of sentences"),
        (lambda X: [], lambda Y: [], "sequences is empty"),
        (lambda X: [[], []], lambda Y: [[], []], "every sentence is empty"),
        (None, lambda Y: [Y[0], Y[1], ["NOUN", None]], r"label_sequences\[2\]\[1\] is NoneType"),
    ],
)
def test_fit_rejects_bad_input(X, Y, match):
    X0, Y0 = _toy()
    X1 = X(X0) if X else X0
    Y1 = Y(Y0) if Y else Y0
    with pytest.raises(ValueError, match=match):
        StructuredPerceptron().fit(X1, Y1)
    assert (X0, Y0) == _toy()  # the caller's lists are left alone


def test_predict_and_score_reject_bad_input():
    X, Y = _toy()
    m = StructuredPerceptron(max_iter=2).fit(X, Y)
    with pytest.raises(NotFittedError):
        StructuredPerceptron().predict(X)
    with pytest.raises(ValueError, match=r"sequences\[0\]\[0\] is float 1.5"):
        m.predict([[1.5]])
    with pytest.raises(ValueError, match=r"tags not seen in fit: \['NN', 'VB'\]"):
        m.score([["dogs", "run"]], [["NN", "VB"]])
    with pytest.raises(ValueError, match="sentence 0 has 2 tokens but 1 tags"):
        m.score([["dogs", "run"]], [["NOUN"]])
    with pytest.raises(ValueError, match="'max_iter' parameter of StructuredPerceptron"):
        StructuredPerceptron(max_iter=0).fit(X, Y)
    with pytest.raises(ValueError, match="'features' parameter of StructuredPerceptron"):
        StructuredPerceptron(features="words").fit(X, Y)


def test_model_file_round_trip(tmp_path):
    X, Y = _toy()
    m = StructuredPerceptron(max_iter=3, random_state=0).fit(X, Y)
    slio.save(m, tmp_path / "tagger.slm")
    back = slio.load(tmp_path / "tagger.slm")
    assert back.vocabulary_ == m.vocabulary_ and back.classes_.tolist() == m.classes_.tolist()
    np.testing.assert_array_equal(back.coef_, m.coef_)
    sentence = ["a", "dog", "sleeps", "here"]
    assert back.predict([sentence]) == m.predict([sentence])
    assert back.explain(sentence) == m.explain(sentence)


def test_the_registry_reads_a_sequence_labeller():
    from scratchlearn._registry import get_entry, task_of

    assert task_of(StructuredPerceptron) == "sequence"
    assert get_entry("structured-perceptron").task == "sequence"


def test_verbose_shows_a_progress_bar(capsys):
    X, Y = _toy()
    StructuredPerceptron(max_iter=2, verbose=1, shuffle=False).fit(X, Y)
    assert "StructuredPerceptron" in capsys.readouterr().err

"""The structured perceptron tagger against python-crfsuite's averaged perceptron.

Both sides train 5 epochs on UD English-EWT dev (2,001 sentences, 25,147 tokens) and tag the
test portion (25,094 tokens), with the same emission features (scratchlearn's default
template, computed inside each side's timed fit and predict). crfsuite's ``ap`` trainer is a
first-order linear-chain averaged perceptron in C; it writes its model to a temporary file, as
it must. Targets (issue 14): fit ≤ 20 s and predict ≤ 2 s in absolute terms on this machine;
``agree`` is our test token accuracy minus crfsuite's.

python-crfsuite is an optional benchmark-only dependency (``pip install python-crfsuite``); if
it is missing the case is skipped with a printed reason.
"""

from __future__ import annotations

import os
import sys
import tempfile

import numpy as np

from benchmarks.harness import Case
from scratchlearn.datasets import load_ud_english_ewt
from scratchlearn.structured import StructuredPerceptron
from scratchlearn.structured._features import _default_sentence

EPOCHS = 5


class CrfsuitePerceptron:
    """python-crfsuite's averaged perceptron behind fit / predict."""

    def __init__(self, max_iter=EPOCHS):
        self.max_iter = max_iter

    def fit(self, sequences, label_sequences):
        import pycrfsuite

        trainer = pycrfsuite.Trainer(algorithm="ap", verbose=False)
        trainer.set_params({"max_iterations": self.max_iter})
        for tokens, tags in zip(sequences, label_sequences):
            trainer.append(_default_sentence(tokens), tags)
        fd, self.path_ = tempfile.mkstemp(suffix=".crfsuite")
        os.close(fd)
        trainer.train(self.path_)
        self.tagger_ = pycrfsuite.Tagger()
        self.tagger_.open(self.path_)
        return self

    def predict(self, sequences):
        return [self.tagger_.tag(_default_sentence(tokens)) for tokens in sequences]


def _data():
    train, test = load_ud_english_ewt("dev"), load_ud_english_ewt("test")
    return train.data, train.target, test.data, test.target


def _accuracy(tagger, data):
    truth = [t for tags in data[3] for t in tags]
    pred = [t for tags in tagger.predict(data[2]) for t in tags]
    return float(np.mean(np.array(pred) == np.array(truth)))


def _accuracy_gap(ours, theirs, data):
    return _accuracy(ours, data) - _accuracy(theirs, data)


try:
    import pycrfsuite  # noqa: F401
except ImportError:
    print(
        "benchmarks/cases_structured.py: python-crfsuite is not installed "
        "(pip install python-crfsuite): the StructuredPerceptron case is skipped",
        file=sys.stderr,
    )
    CASES = []
else:
    CASES = [
        Case(
            f"StructuredPerceptron EWT dev->test, {EPOCHS} epochs",
            _data,
            lambda: StructuredPerceptron(max_iter=EPOCHS, random_state=0),
            lambda: CrfsuitePerceptron(),
            fit_args=lambda d: (d[0], d[1]),
            predict_args=lambda d: (d[2],),
            agree=_accuracy_gap,
            note="reference: python-crfsuite averaged perceptron (ap); agree = accuracy gap",
            repeat=3,
        )
    ]

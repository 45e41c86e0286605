"""One sample's naive Bayes posterior, written out factor by factor.

For a sample x and each class c the classifier computes

.. math::  \\text{score}_c = π_c \\prod_j P(x_j \\mid c), \\qquad
           P(c \\mid x) = \\text{score}_c / \\sum_{c'} \\text{score}_{c'}.

:class:`NaiveBayesExplanation` keeps every factor (as a log, so nothing underflows) and prints the
table a textbook would: one row for the prior, one per contributing feature, the score and the
posterior. Scores are shown as numbers when they are representable and as logs beside them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..utils.extmath import logsumexp

__all__ = ["NaiveBayesExplanation"]


@dataclass
class NaiveBayesExplanation:
    """The factors of ``π_c Π_j P(x_j | c)`` for one sample.

    Attributes
    ----------
    estimator : str
        Class name of the model.
    classes : ndarray (K,)
    log_prior : ndarray (K,)
        log π_c.
    features : list of str
        Names of the rows, one per contributing feature (plus "other features" when folded).
    values : list
        The sample's value of each feature (a count, a category, a number).
    log_likelihood : ndarray (m, K)
        log P(x_j | c) for each row (for counts, ``x_j · log P(w_j | c)``).
    joint_log_likelihood : ndarray (K,)
        log score_c = log π_c + Σ_j log P(x_j | c).
    log_posterior : ndarray (K,)
        log P(c | x).
    prediction : object
        The class with the largest score.
    """

    estimator: str
    classes: np.ndarray
    log_prior: np.ndarray
    features: list
    values: list
    log_likelihood: np.ndarray
    joint_log_likelihood: np.ndarray
    log_posterior: np.ndarray
    prediction: object

    @classmethod
    def build(cls, *, estimator, classes, log_prior, names, values, log_terms, max_features):
        # score_c = π_c Π_j P(x_j|c), in log space: log π_c + Σ_j log P(x_j|c)
        jll = log_prior + log_terms.sum(axis=0)
        log_post = jll - logsumexp(jll)
        if max_features is not None and len(names) > max_features:
            # keep the rows whose factors differ most between classes; fold the rest into one
            spread = np.ptp(log_terms, axis=1) if log_terms.shape[1] > 1 else -np.arange(len(names))
            keep = np.sort(np.argsort(-spread, kind="stable")[:max_features])
            rest = np.setdiff1d(np.arange(len(names)), keep)
            folded = log_terms[rest].sum(axis=0, keepdims=True)
            names = [names[j] for j in keep] + [f"other features ({len(rest)})"]
            values = [values[j] for j in keep] + [""]
            log_terms = np.vstack([log_terms[keep], folded])
        return cls(
            estimator=estimator,
            classes=np.asarray(classes),
            log_prior=log_prior,
            features=list(names),
            values=list(values),
            log_likelihood=log_terms,
            joint_log_likelihood=jll,
            log_posterior=log_post,
            prediction=classes[int(np.argmax(jll))],
        )

    # -- derived quantities ----------------------------------------------------------------
    @property
    def prior(self) -> np.ndarray:
        """π_c (K,)."""
        return np.exp(self.log_prior)

    @property
    def likelihood(self) -> np.ndarray:
        """P(x_j | c) (m, K), one row per feature row of the table."""
        return np.exp(self.log_likelihood)

    @property
    def score(self) -> np.ndarray:
        """The unnormalised score π_c Π_j P(x_j | c) (K,); may underflow to 0 (see the log)."""
        return np.exp(self.joint_log_likelihood)

    @property
    def posterior(self) -> np.ndarray:
        """P(c | x) (K,)."""
        return np.exp(self.log_posterior)

    # -- display ----------------------------------------------------------------------------
    def to_rows(self) -> list[tuple[str, list[float]]]:
        """(label, one number per class) for every row of the printed table."""
        rows = [("prior P(c)", list(self.prior))]
        for name, value, lik in zip(self.features, self.values, self.likelihood, strict=True):
            # a density (GaussianNB) is written p(x | c), a probability P(x | c)
            symbol = "p" if self.estimator == "GaussianNB" else "P"
            if self.estimator == "MultinomialNB":
                # the factor of a word seen k times is P(w | c)^k
                power = "" if value in ("", 1) else f"^{value}"
                rows.append((f"P({name} | c){power}", list(lik)))
                continue
            label = f"{name} = {value}" if value != "" else name
            rows.append((f"{symbol}({label} | c)", list(lik)))
        symbol = "p" if self.estimator == "GaussianNB" else "P"
        rows.append((f"score P(c)·Π {symbol}(x_j|c)", list(self.score)))
        rows.append(("log score", list(self.joint_log_likelihood)))
        rows.append(("posterior P(c | x)", list(self.posterior)))
        return rows

    def __str__(self) -> str:
        rows = self.to_rows()
        heads = [str(c) for c in self.classes]
        width = max(12, *(len(h) for h in heads))
        label_w = max(len(r[0]) for r in rows)
        lines = [f"{self.estimator}: the posterior of one sample, factor by factor"]
        lines.append(" " * label_w + "  " + "  ".join(h.rjust(width) for h in heads))
        for label, nums in rows:
            cells = "  ".join(_fmt(v).rjust(width) for v in nums)
            lines.append(f"{label.ljust(label_w)}  {cells}")
        lines.append(f"prediction: {self.prediction}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"NaiveBayesExplanation(estimator={self.estimator!r}, prediction={self.prediction!r},"
            f" posterior={np.round(self.posterior, 6).tolist()!r})"
        )


def _fmt(v: float) -> str:
    if v == 0 or not np.isfinite(v):
        return f"{v:g}"
    if 1e-4 <= abs(v) < 1e6:
        return f"{v:.8f}".rstrip("0").rstrip(".") if abs(v) >= 1 else f"{v:.8f}"
    return f"{v:.6e}"

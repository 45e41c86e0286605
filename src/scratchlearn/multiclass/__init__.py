"""Multi-class strategies: any binary classifier made K-class by one-vs-rest or one-vs-one.

``OneVsRestClassifier`` trains K learners (class k against the rest) and picks the largest
score; ``OneVsOneClassifier`` trains K(K − 1)/2 learners (one per pair of classes) and counts
their votes, breaking ties by summed confidences. A learner's score is its
``decision_function`` when it has one, else its probability of the positive class, as
scikit-learn's meta-estimators; see :mod:`scratchlearn.multiclass._base`.
"""

from ._ovo import OneVsOneClassifier
from ._ovr import OneVsRestClassifier

__all__ = ["OneVsRestClassifier", "OneVsOneClassifier"]

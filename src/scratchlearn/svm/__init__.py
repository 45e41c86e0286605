"""Support vector machines: the soft- and hard-margin classifier solved by SMO with kernels
(one-vs-one for several classes, Platt probabilities), ε-insensitive regression, and the linear
SVM by dual coordinate descent."""

from ._linear import LinearSVC
from ._svc import SVC
from ._svr import SVR

__all__ = ["SVC", "SVR", "LinearSVC"]

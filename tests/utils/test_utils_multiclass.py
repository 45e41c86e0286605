"""utils.multiclass.class_codes: the classes and codes of np.unique(y, return_inverse=True)."""

import numpy as np
import pytest

from scratchlearn.utils.multiclass import class_codes

_RNG = np.random.default_rng(0)
_TARGETS = {
    "skewed int (87% one class, where NumPy's argsort is slow)": (_RNG.random(5574) < 0.13).astype(
        np.int64
    ),
    "even int": _RNG.integers(0, 2, 5574),
    "ten int classes": _RNG.integers(0, 10, 1797),
    "negative and large int": _RNG.choice(np.array([-7, 0, 3, 2**40]), 300),
    "float": _RNG.choice(np.array([-1.5, 0.0, 2.25]), 300),
    "bool": _RNG.random(100) < 0.5,
    "str": _RNG.choice(np.array(["spam", "ham", "eggs"]), 300),
    "object str": _RNG.choice(np.array(["spam", "ham", "eggs"], dtype=object), 300),
    "one class": np.full(20, 4),
    "column vector": _RNG.integers(0, 3, (50, 1)),
    "empty": np.array([], dtype=np.int64),
}


@pytest.mark.parametrize("y", list(_TARGETS.values()), ids=list(_TARGETS))
def test_class_codes_are_numpys_unique_and_inverse(y):
    classes, codes = class_codes(y)
    ref_classes, ref_codes = np.unique(y, return_inverse=True)
    assert classes.dtype == ref_classes.dtype and np.array_equal(classes, ref_classes)
    assert codes.shape == (y.size,) and np.array_equal(codes, ref_codes.ravel())
    assert np.array_equal(classes[codes], np.ravel(y))

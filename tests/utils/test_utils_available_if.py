"""``available_if``: a method visible to ``hasattr`` only while its check holds."""

import pytest

from scratchlearn.utils._available_if import available_if


class _Wrapper:
    def __init__(self, inner):
        self.inner = inner

    @available_if(lambda w: hasattr(w.inner, "upper"), "the wrapped object cannot upper-case.")
    def upper(self, suffix=""):
        """Upper-case the wrapped string."""
        return self.inner.upper() + suffix


def test_method_present_when_check_holds():
    w = _Wrapper("ab")
    assert hasattr(w, "upper")
    assert w.upper("!") == "AB!"
    assert w.upper.__self__ is w  # a bound method, not the descriptor


def test_method_absent_with_reason_when_check_fails():
    w = _Wrapper(3)
    assert not hasattr(w, "upper")
    with pytest.raises(
        AttributeError, match=r"This _Wrapper has no attribute 'upper': the wrapped"
    ):
        w.upper()


def test_check_is_evaluated_on_every_read():
    w = _Wrapper(3)
    assert not hasattr(w, "upper")
    w.inner = "x"
    assert w.upper() == "X"


def test_class_access_gives_the_function_with_its_metadata():
    assert _Wrapper.upper.__name__ == "upper"
    assert _Wrapper.upper.__doc__ == "Upper-case the wrapped string."
    assert _Wrapper.upper(_Wrapper("q")) == "Q"

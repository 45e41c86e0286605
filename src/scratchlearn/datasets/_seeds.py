"""The small worked-example tables of the seed documents, as Python literals.

Each table is small enough to check by hand: the tests recompute from it the numbers it is there
to teach (entropies, information gains, Gini indices, naive Bayes scores) and compare them with
values worked out by hand. ``row_ids`` keeps the row labels the seeds use (day numbers, plant
ids, student letters, point letters). PlayTennis is Quinlan's (1986) example of ID3.

============== ===== ======================================================================
name           n     what it teaches
============== ===== ======================================================================
play_tennis    14    Quinlan's PlayTennis: ID3 root gains (entropy 0.940286)
play_tennis_6  6     its first six days, the seed's ID3 walk-through (entropy 1.0)
spam_emails    4     multinomial naive Bayes with Laplace smoothing (V = 9)
edible_plants  6     CART with the Gini index (root split Color)
student_pass   5     linear SVM, study hours and attendance -> pass/fail
xor            4     the XOR points at (+-1, +-1): no line separates them
============== ===== ======================================================================

References
----------
Quinlan, J. R. (1986). Induction of decision trees. Machine Learning 1(1), 81–106.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..utils._param_validation import Options, validate_params
from ._base import check_loader_args, encode_labels, load_descr, make_bunch

__all__ = [
    "load_play_tennis",
    "load_spam_emails",
    "load_edible_plants",
    "load_student_pass",
    "load_xor",
]

# Day, Outlook, Temperature, Humidity, Wind, PlayTennis (Quinlan 1986; Mitchell 1997, table 3.2)
_PLAY_TENNIS = [
    (1, "Sunny", "Hot", "High", "Weak", "No"),
    (2, "Sunny", "Hot", "High", "Strong", "No"),
    (3, "Overcast", "Hot", "High", "Weak", "Yes"),
    (4, "Rain", "Mild", "High", "Weak", "Yes"),
    (5, "Rain", "Cool", "Normal", "Weak", "Yes"),
    (6, "Rain", "Cool", "Normal", "Strong", "No"),
    (7, "Overcast", "Cool", "Normal", "Strong", "Yes"),
    (8, "Sunny", "Mild", "High", "Weak", "No"),
    (9, "Sunny", "Cool", "Normal", "Weak", "Yes"),
    (10, "Rain", "Mild", "Normal", "Weak", "Yes"),
    (11, "Sunny", "Mild", "Normal", "Strong", "Yes"),
    (12, "Overcast", "Mild", "High", "Strong", "Yes"),
    (13, "Overcast", "Hot", "Normal", "Weak", "Yes"),
    (14, "Rain", "Mild", "High", "Strong", "No"),
]

# ID, Color, Size, Edible (seed 002, CART section)
_EDIBLE_PLANTS = [
    (1, "Green", "Small", "Yes"),
    (2, "Green", "Large", "Yes"),
    (3, "Red", "Small", "No"),
    (4, "Red", "Large", "No"),
    (5, "Green", "Small", "Yes"),
    (6, "Red", "Small", "No"),
]

# Email #, text, class (seed 002, naive Bayes section)
_SPAM_EMAILS = [
    (1, "buy cheap meds", "Spam"),
    (2, "cheap meds available", "Spam"),
    (3, "meeting at noon", "Not Spam"),
    (4, "project meeting tomorrow", "Not Spam"),
]
_SPAM_NEW_EMAIL = "cheap project meds"

# Student, study hours, attendance %, result (seed 002, SVM section; seed codes Fail -1, Pass +1)
_STUDENTS = [
    ("A", 2.0, 60.0, "Fail"),
    ("B", 8.0, 90.0, "Pass"),
    ("C", 3.0, 70.0, "Fail"),
    ("D", 7.0, 85.0, "Pass"),
    ("E", 5.0, 80.0, "Pass"),
]
_STUDENT_NEW = (6.0, 75.0)  # the seed's new student: 6 hours, 75 % attendance

# Point, x1, x2, class (seed 002, kernel section): class +1 when the signs differ
_XOR = [
    ("A", 1.0, -1.0, "+1"),
    ("B", -1.0, 1.0, "+1"),
    ("C", 1.0, 1.0, "-1"),
    ("D", -1.0, -1.0, "-1"),
]


def _str_array(rows) -> np.ndarray:
    out = np.empty((len(rows), len(rows[0])), dtype=object)
    out[:] = [list(r) for r in rows]
    return out


def _categorical_table(name, rows, feature_names, target_names, return_X_y, as_frame, **extra):
    """Rows ``(id, feature..., class)`` -> categorical Bunch with fresh arrays."""
    X = _str_array([r[1:-1] for r in rows])  # (n, d) object array of str
    return make_bunch(
        data=X,
        target=encode_labels([r[-1] for r in rows], target_names),
        feature_names=feature_names,
        target_names=target_names,
        descr=load_descr(name),
        kind="categorical",
        task="classification",
        return_X_y=return_X_y,
        as_frame=as_frame,
        row_ids=[r[0] for r in rows],
        **extra,
    )


def load_play_tennis(*, n_rows=14, return_X_y=False, as_frame=False):
    """The PlayTennis table: Quinlan's 14 days, or with ``n_rows=6`` the seed's first six.

    Features Outlook, Temperature, Humidity, Wind (strings); target 0 "No", 1 "Yes".

    Examples
    --------
    >>> from scratchlearn.datasets import load_play_tennis
    >>> data = load_play_tennis()
    >>> print(data.feature_names, data.target_names)
    ['Outlook', 'Temperature', 'Humidity', 'Wind'] ['No', 'Yes']
    >>> print(data.data.shape, data.data[0].tolist(), data.target[:5].tolist())
    (14, 4) ['Sunny', 'Hot', 'High', 'Weak'] [0, 0, 1, 1, 1]
    """
    check_loader_args("load_play_tennis", return_X_y=return_X_y, as_frame=as_frame)
    validate_params(
        {"n_rows": [Options(numbers.Integral, {6, 14})]}, {"n_rows": n_rows}, "load_play_tennis"
    )
    return _categorical_table(
        "play_tennis" if n_rows == 14 else "play_tennis_6",
        _PLAY_TENNIS[: int(n_rows)],
        ["Outlook", "Temperature", "Humidity", "Wind"],
        ["No", "Yes"],
        return_X_y,
        as_frame,
    )


def load_edible_plants(*, return_X_y=False, as_frame=False):
    """The seed's six plants: Color, Size -> Edible (0 "No", 1 "Yes")."""
    check_loader_args("load_edible_plants", return_X_y=return_X_y, as_frame=as_frame)
    return _categorical_table(
        "edible_plants", _EDIBLE_PLANTS, ["Color", "Size"], ["No", "Yes"], return_X_y, as_frame
    )


def load_spam_emails(*, return_X_y=False, as_frame=False):
    """The seed's four e-mails (text): 0 "Not Spam", 1 "Spam".

    ``new_document`` is the seed's e-mail to classify, "cheap project meds".
    """
    check_loader_args("load_spam_emails", return_X_y=return_X_y, as_frame=as_frame)
    docs = np.empty(len(_SPAM_EMAILS), dtype=object)
    docs[:] = [r[1] for r in _SPAM_EMAILS]
    names = ["Not Spam", "Spam"]
    return make_bunch(
        data=docs,
        target=encode_labels([r[2] for r in _SPAM_EMAILS], names),
        feature_names=["text"],
        target_names=names,
        descr=load_descr("spam_emails"),
        kind="text",
        task="classification",
        return_X_y=return_X_y,
        as_frame=as_frame,
        row_ids=[r[0] for r in _SPAM_EMAILS],
        new_document=_SPAM_NEW_EMAIL,
    )


def _numeric_table(name, rows, feature_names, target_names, return_X_y, as_frame, **extra):
    """Rows ``(id, x..., class)`` -> numeric Bunch with fresh float64 X."""
    X = np.array([r[1:-1] for r in rows], dtype=np.float64)  # (n, d)
    return make_bunch(
        data=X,
        target=encode_labels([r[-1] for r in rows], target_names),
        feature_names=feature_names,
        target_names=target_names,
        descr=load_descr(name),
        kind="numeric",
        task="classification",
        return_X_y=return_X_y,
        as_frame=as_frame,
        row_ids=[r[0] for r in rows],
        **extra,
    )


def load_student_pass(*, return_X_y=False, as_frame=False):
    """The seed's five students: study hours, attendance (%) -> 0 "Fail", 1 "Pass".

    The seed codes the classes -1/+1 (``2 * target - 1``). ``new_sample`` is its new student.
    """
    check_loader_args("load_student_pass", return_X_y=return_X_y, as_frame=as_frame)
    return _numeric_table(
        "student_pass",
        _STUDENTS,
        ["study_hours", "attendance_pct"],
        ["Fail", "Pass"],
        return_X_y,
        as_frame,
        new_sample=np.array([_STUDENT_NEW]),
    )


def load_xor(*, return_X_y=False, as_frame=False):
    """The four XOR points (+-1, +-1): class code 1 ("+1") when the coordinates' signs differ."""
    check_loader_args("load_xor", return_X_y=return_X_y, as_frame=as_frame)
    return _numeric_table("xor", _XOR, ["x1", "x2"], ["-1", "+1"], return_X_y, as_frame)

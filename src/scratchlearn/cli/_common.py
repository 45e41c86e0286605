"""What the commands share: naming estimators, parsing ``--set``, loading and adapting data."""

from __future__ import annotations

import os

import numpy as np

from ..exceptions import ModelFileError, NotFittedError

__all__ = [
    "CLIError",
    "USER_ERRORS",
    "QUIET_WARNINGS",
    "one_line",
    "resolve_entry",
    "parse_settings",
    "load_data",
    "adapt_to_data",
    "seed_estimator",
    "final_step",
    "as_final_step_sees",
    "format_table",
]


class CLIError(Exception):
    """A user error: printed as one line ``scratchlearn: error: ...`` with exit status 2."""


#: Exceptions that mean "the user asked for something impossible": one line, status 2.
#: TypeError and KeyError are not among them: raised from inside the library they are bugs
#: (bad input is a ValueError by the estimator contract), so they get a traceback and status 1;
#: the CLI turns its own look-ups that fail on user input into CLIError where they happen.
USER_ERRORS = (CLIError, ModelFileError, NotFittedError, ValueError, OSError)
#: Warnings about the library's own code rather than the user's fit: not shown.
QUIET_WARNINGS = (DeprecationWarning, PendingDeprecationWarning, SyntaxWarning, ImportWarning)


def one_line(exc: BaseException) -> str:
    """The message of ``exc`` on one line (KeyError's quotes removed)."""
    text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
    if isinstance(exc, OSError) and getattr(exc, "filename", None) and exc.strerror:
        text = f"{exc.filename}: {exc.strerror}"
    text = " ".join(str(text).split())
    return text or type(exc).__name__


def resolve_entry(name: str):
    """The registry entry of ``name`` (class name in any case, or kebab alias)."""
    from .._registry import get_entry

    try:
        entry = get_entry(name)
    except KeyError as exc:
        raise CLIError(one_line(exc)) from None
    try:
        _ = entry.cls
    except (ImportError, AttributeError) as exc:
        raise CLIError(f"{entry.name} is registered but cannot be imported: {exc}") from None
    return entry


def _literal(text: str):
    """A value for a parameter without declared constraints: None, bool, int, float or str."""
    low = text.strip().lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_settings(cls, items) -> dict:
    """``["alpha=0.5", "solver=cd"]`` → typed keyword arguments for ``cls``."""
    from ..utils import parse_param_string

    valid = cls._get_param_names()
    constraints = getattr(cls, "_parameter_constraints", {}) or {}
    params = {}
    for item in items or ():
        name, eq, text = item.partition("=")
        name = name.strip()
        if not eq or not name:
            raise CLIError(f"--set expects PARAM=VALUE; got {item!r}")
        if name not in valid:
            raise CLIError(
                f"unknown parameter {name!r} for {cls.__name__}; valid parameters: "
                f"{', '.join(valid) if valid else '(none)'}"
            )
        if name in constraints:
            try:
                params[name] = parse_param_string(constraints[name], text)
            except ValueError as exc:
                raise CLIError(f"invalid value for {name}: {one_line(exc)}") from None
        else:
            params[name] = _literal(text)
    return params


def _looks_like_path(spec: str) -> bool:
    return (
        os.sep in spec
        or "/" in spec
        or os.path.exists(spec)
        or spec.lower().endswith((".csv", ".tsv", ".txt", ".data"))
    )


def load_data(spec: str, target: str | None = None):
    """A dataset Bunch from a bundled dataset's name or a CSV file's path.

    The result has ``data`` (an array; documents as a 1-D object array for text), ``target``
    (or None), ``feature_names``, ``kind`` and a ``source`` string for messages.

    A CSV file is read column by column (``load_csv``: numbers stay numbers, a column holding
    text is read as categories, ``kind="mixed"`` when there are both) and refused, before any
    work, when a value is missing (the message names the file, line and column). The columns
    read as categories are named on stdout.
    """
    from .. import datasets

    if _looks_like_path(spec):
        from ..datasets._csv import read_table, table_bunch
        from ._data import describe_categories, refuse_missing

        if not os.path.isfile(spec):
            raise CLIError(f"no such file: {spec}")
        table = read_table(spec)
        bunch = table_bunch(table, target=target)
        bunch["source"] = os.path.basename(spec)
        _detect_text(bunch)
        refuse_missing(table, bunch)
        described = describe_categories(bunch)
        if described:
            import sys

            print(described, file=sys.stdout)  # main's stdout (the commands take no other)
    else:
        if target is not None:
            raise CLIError("--target applies to CSV files; bundled datasets know their target")
        try:
            bunch = datasets.load_dataset(spec)
        except (KeyError, ValueError) as exc:
            raise CLIError(one_line(exc)) from None
        bunch["source"] = spec
    data = bunch["data"]
    if not hasattr(data, "shape") or isinstance(data, list):
        data = np.asarray(data, dtype=object)
    bunch["data"] = data
    if bunch.get("target") is not None:
        bunch["target"] = np.asarray(bunch["target"])
    bunch.setdefault("kind", "numeric")
    return bunch


def _detect_text(bunch) -> None:
    """A CSV whose only feature is a column of multi-word strings holds documents: kind text."""
    X = bunch["data"]
    if bunch.get("kind") != "categorical" or X.ndim != 2 or X.shape[1] != 1:
        return
    words = np.array([len(str(v).split()) for v in X[:, 0]])
    if words.size and words.mean() >= 3:
        bunch["data"], bunch["kind"] = X[:, 0], "text"


def _x_types(estimator) -> list:
    tags = getattr(estimator, "_scratch_tags", None)
    return list(tags()["X_types"]) if tags is not None else ["2darray"]


def adapt_to_data(estimator, kind: str):
    """Put a converter in front of ``estimator`` when it cannot read data of this ``kind``.

    Text goes through ``CountVectorizer`` for estimators that take numbers; categorical columns
    through ``OneHotEncoder(handle_unknown="ignore")`` (dense when the estimator does not take
    sparse input); a ``"mixed"`` table through ``MixedColumns``, which parses the numeric columns
    as numbers and one-hot encodes the others (or keeps them as categories for an estimator that
    reads categories). Returns ``(estimator, note)``, ``note`` None when there is nothing to say.
    """
    x_types = _x_types(estimator)
    takes_str = "string" in x_types or "text" in x_types
    name = type(estimator).__name__
    if kind == "text" and not takes_str:
        from ..feature_extraction.text import CountVectorizer
        from ..pipeline import make_pipeline

        note = f"note: {name} takes numbers, so the documents go through CountVectorizer first"
        return make_pipeline(CountVectorizer(), estimator), note
    if kind == "categorical" and not (takes_str or "categorical" in x_types):
        from ..pipeline import make_pipeline
        from ..preprocessing import OneHotEncoder

        params = {"handle_unknown": "ignore"}
        if "sparse" not in x_types and "sparse_output" in OneHotEncoder._get_param_names():
            params["sparse_output"] = False
        note = (
            f"note: {name} takes numbers, so the categories go through "
            "OneHotEncoder(handle_unknown='ignore') first"
        )
        return make_pipeline(OneHotEncoder(**params), estimator), note
    if kind == "mixed" and "2darray" in x_types:
        from ..pipeline import make_pipeline
        from ._data import MixedColumns

        if takes_str or "categorical" in x_types:  # it reads categories itself
            note = (
                f"note: {name} reads every column as categories, the numeric ones too (each "
                "distinct number a category)"
            )
            return make_pipeline(MixedColumns(one_hot=False), estimator), note
        note = (
            f"note: {name} takes numbers, so the columns of categories go through "
            "OneHotEncoder(handle_unknown='ignore') first; the numeric columns stay numbers"
        )
        return make_pipeline(MixedColumns(), estimator), note
    if kind != "text" and "text" in x_types and "2darray" not in x_types:
        raise CLIError(f"{name} needs text documents, but this dataset is {kind}")
    return estimator, None


def seed_estimator(estimator, seed: int, keep=()):
    """Set ``random_state`` of ``estimator`` and of every estimator inside it (the
    ``get_params(deep=True)`` keys ``random_state`` and ``*__random_state``) to ``seed``, except
    the parameters named in ``keep`` (those the user set): so that a run reproduces."""
    names = [
        k
        for k in estimator.get_params(deep=True)
        if k.rpartition("__")[2] == "random_state" and k not in keep
    ]
    return estimator.set_params(**dict.fromkeys(names, seed)) if names else estimator


def final_step(estimator):
    """The last step of a pipeline, or the estimator itself."""
    steps = getattr(estimator, "steps", None)
    return steps[-1][-1] if steps else estimator


def as_final_step_sees(estimator, X):
    """The rows ``X`` as the last step of a pipeline sees them (through the other steps)."""
    for _, step in getattr(estimator, "steps", [])[:-1]:
        X = step.transform(X)
    return X


def format_table(headers, rows, align=None) -> str:
    """Rows of strings as aligned columns under a header and a rule."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    align = align or ["<"] * len(headers)
    lines = []
    for k, row in enumerate(cells):
        lines.append("  ".join(f"{c:{a}{w}}" for c, a, w in zip(row, align, widths)).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)

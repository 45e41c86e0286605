"""``scratchlearn fit`` and ``scratchlearn predict``."""

from __future__ import annotations

import csv
import os
import sys
import time
import warnings

import numpy as np

from ._common import (
    QUIET_WARNINGS,
    CLIError,
    adapt_to_data,
    final_step,
    load_data,
    one_line,
    parse_settings,
    resolve_entry,
)
from ._tasks import as_labels, stratify_for, task_spec

__all__ = ["run_fit", "run_predict"]


def _split(spec, X, y, test_size, seed):
    from ..model_selection import train_test_split

    stratify = stratify_for(spec, y)
    return train_test_split(X, y, test_size=test_size, random_state=seed, stratify=stratify)


def _cross_validate(spec, estimator, X, y, k, seed):
    from ..model_selection import KFold, StratifiedKFold, cross_val_score

    splitter = (StratifiedKFold if spec.stratify else KFold)(
        n_splits=k, shuffle=True, random_state=seed
    )
    scores = np.asarray(cross_val_score(estimator, X, y, cv=splitter), dtype=np.float64)
    if np.all(np.isnan(scores)):
        raise CLIError("every cross-validation fold failed to fit")
    return scores


def _split_queries(X, y, qid, test_size, seed):
    """A held-out split that keeps every query whole: the query ids are split, not the rows."""
    from ..model_selection import train_test_split

    ids = np.unique(qid)
    if len(ids) < 2:
        raise CLIError("a held-out split of a ranker needs at least 2 queries (or --test-size 0)")
    _, test_ids = train_test_split(ids, test_size=test_size, random_state=seed)
    test = np.isin(qid, test_ids)
    return X[~test], X[test], y[~test], y[test], qid[~test], qid[test]


def _cross_validate_queries(estimator, X, y, qid, k, seed):
    """Mean NDCG per fold of K folds of whole queries (``GroupKFold`` on the query ids)."""
    from ..base import clone
    from ..model_selection import GroupKFold

    if len(np.unique(qid)) < k:
        raise CLIError(f"--cv {k} needs at least {k} queries")
    scores = []
    for train, test in GroupKFold(n_splits=k).split(X, y, groups=qid):
        fitted = clone(estimator).fit(X[train], y[train], qid=qid[train])
        scores.append(fitted.score(X[test], y[test], qid=qid[test]))
    return np.asarray(scores)


def _query_ids(entry, bunch, group):
    """The query id of every row for a ranker (``--group`` column, or the bundled ``qid``);
    the column is taken out of the features. Refuses ``--group`` for other tasks."""
    grouped = task_spec(entry.task).grouped
    if not grouped:
        if group is not None:
            raise CLIError(f"--group applies to rankers; {entry.name} is a {entry.task}")
        return None
    if group is None:
        if bunch.get("qid") is not None:
            return np.asarray(bunch["qid"])
        raise CLIError(f"{entry.name} is a ranker: name the query-id column with --group COLUMN")
    names = [str(v) for v in (bunch.get("feature_names") or [])]
    if group not in names:
        shown = ", ".join(names)
        raise CLIError(f"--group {group!r}: no such feature column (columns: {shown})")
    j = names.index(group)
    qid = np.asarray(bunch["data"][:, j])
    bunch["data"] = np.delete(bunch["data"], j, axis=1)
    bunch["feature_names"] = [v for i, v in enumerate(names) if i != j]
    return qid


def _readable_history(estimator) -> bool:
    from ..plotting._curves import history_curves

    history = getattr(estimator, "history_", None)
    if history is None:
        return False
    try:
        curves = history_curves(history)
    except ValueError:
        return False
    return any(int(np.isfinite(obj).sum()) >= 2 for obj, _ in curves)  # a curve needs 2 points


def _make_plot(path, entry, estimator, X_eval, y_eval, target_names=None):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CLIError("--plot needs matplotlib: pip install 'scratchlearn[plot]'") from None
    from .. import plotting

    fig = Figure(figsize=(6.4, 4.8), layout="constrained")
    ax = fig.add_subplot()
    task = entry.task
    plot = task_spec(task).plot
    if entry.plot is not None:  # the estimator's own picture (a tree draws itself)
        what = entry.hook("plot")(ax, final_step(estimator), X_eval, y_eval, target_names)
    elif _readable_history(final_step(estimator)):
        plotting.plot_loss_curve(estimator, ax=ax)
        what = "loss curve"
    elif plot is not None:
        what = plot(ax, estimator, X_eval, y_eval, target_names)
    else:
        raise CLIError(f"--plot has no plot for a {task} without a loss history")
    fig.savefig(path)
    return what


def _prepare(args, out, err):
    """Check the arguments, load the data and build the (adapted) estimator, before any work."""
    entry = resolve_entry(args.estimator)
    base = entry.cls(**parse_settings(entry.cls, args.set))
    if task_spec(entry.task).no_table:
        raise CLIError(
            f"scratchlearn fit cannot train {entry.name}: {task_spec(entry.task).no_table}"
        )
    spec = args.data or entry.dataset
    if spec is None:
        raise CLIError(f"{entry.name} has no showcase dataset; give one with --data")
    if not 0.0 <= args.test_size < 1.0:
        raise CLIError(f"--test-size must be in [0, 1); got {args.test_size}")
    supervised = task_spec(entry.task).supervised
    if args.cv is not None and not supervised:
        raise CLIError("--cv needs a classifier or a regressor")
    bunch = load_data(spec, args.target)
    if supervised and bunch.get("target") is None:
        raise CLIError(f"{entry.name} needs a target; name its column with --target")
    bunch["qid"] = _query_ids(entry, bunch, args.group)
    estimator, note = adapt_to_data(base, bunch["kind"])
    if note:
        print(note, file=err)
    X, kind = bunch["data"], bunch["kind"]
    size = (
        f"{X.shape[0]} documents"
        if kind == "text"
        else f"{X.shape[0]} samples, {X.shape[1]} {kind} feature{'' if X.shape[1] == 1 else 's'}"
    )
    print(f"{base!r} on {bunch['source']} ({size}; {entry.task})", file=out)
    return entry, estimator, bunch, spec


def _fit_and_report_queries(args, spec, estimator, X, y, qid, out):
    """A ranker's fit: split, fit and cross-validate by whole queries; print the scores."""
    if args.test_size > 0:
        X_tr, X_te, y_tr, y_te, q_tr, q_te = _split_queries(X, y, qid, args.test_size, args.seed)
        n_tr, n_te = len(np.unique(q_tr)), len(np.unique(q_te))
        print(f"held-out split: {n_tr} train / {n_te} test queries (seed {args.seed})", file=out)
    else:
        X_tr, y_tr, q_tr, X_te = X, y, qid, None
    start = time.perf_counter()
    estimator.fit(X_tr, y_tr, qid=q_tr)
    seconds = time.perf_counter() - start
    if X_te is not None:
        for name, value in spec.scores(estimator, X_te, y_te, q_te):
            print(f"  {name:<9} {value:.4f}", file=out)
    print(f"fit time: {seconds:.3f} s", file=out)
    if args.cv is not None:
        scores = _cross_validate_queries(estimator, X, y, qid, args.cv, args.seed)
        mean, std = np.mean(scores), np.std(scores)
        print(f"cv ({args.cv} folds) {spec.cv_metric}: {mean:.4f} ± {std:.4f}", file=out)
    return (X_te, y_te) if X_te is not None else (X_tr, y_tr)


def _fit_and_report(args, task, estimator, X, y, out, qid=None):
    """Fit (on the training part when there is a held-out part) and print the scores."""
    spec = task_spec(task)
    if spec.grouped:
        return _fit_and_report_queries(args, spec, estimator, X, y, qid, out)
    if spec.supervised and args.test_size > 0:
        X_tr, X_te, y_tr, y_te = _split(spec, X, y, args.test_size, args.seed)
        print(f"held-out split: {len(y_tr)} train / {len(y_te)} test (seed {args.seed})", file=out)
    else:
        X_tr, y_tr, X_te, y_te = X, y, None, None
    start = time.perf_counter()
    estimator.fit(X_tr, y_tr) if spec.supervised else estimator.fit(X_tr)
    seconds = time.perf_counter() - start
    shown = (X_te, y_te) if X_te is not None else (X_tr, y_tr)
    if X_te is not None or not spec.supervised:
        for name, value in spec.scores(estimator, *shown):
            text = f"{value:.4f}" if isinstance(value, (float, np.floating)) else str(value)
            print(f"  {name:<9} {text}", file=out)
    print(f"fit time: {seconds:.3f} s", file=out)
    if args.cv is not None:
        from ..base import clone

        scores = _cross_validate(spec, clone(estimator), X, y, args.cv, args.seed)
        mean, std = np.nanmean(scores), np.nanstd(scores)
        print(f"cv ({args.cv} folds) {spec.cv_metric}: {mean:.4f} ± {std:.4f}", file=out)
    return shown


def run_fit(args, out=sys.stdout, err=sys.stderr) -> int:
    entry, estimator, bunch, spec = _prepare(args, out, err)
    task = entry.task
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        X_eval, y_eval = _fit_and_report(
            args, task, estimator, bunch["data"], bunch.get("target"), out, bunch["qid"]
        )
    shown = [w for w in caught if not issubclass(w.category, QUIET_WARNINGS)]
    for name, message in dict.fromkeys((w.category.__name__, one_line(w.message)) for w in shown):
        print(f"warning: {name}: {message}", file=err)

    if args.save:
        from .. import io

        names = bunch.get("feature_names")
        metadata = {
            "estimator": entry.name,
            "data": spec,
            "kind": bunch["kind"],
            "task": task,
            "feature_names": None if names is None else [str(v) for v in names],
            "target_names": bunch.get("target_names"),
        }
        io.save(estimator, args.save, metadata=metadata)
        print(f"saved model to {args.save}", file=out)
    report = entry.hook("report")
    if report is not None:
        names, classes = bunch.get("feature_names"), bunch.get("target_names")
        features = None if names is None else [str(v) for v in names]
        print(report(final_step(estimator), features, classes), file=out)
    if args.plot:
        what = _make_plot(args.plot, entry, estimator, X_eval, y_eval, bunch.get("target_names"))
        print(f"wrote {what} to {args.plot}", file=out)
    return 0


def _read_table(path: str):
    """Header and rows (lists of stripped fields) of a CSV file; blank lines skipped."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            records = [[f.strip() for f in r] for r in csv.reader(fh) if r and r != [""]]
    except (UnicodeDecodeError, csv.Error) as exc:
        raise CLIError(f"{path}: cannot read the CSV file ({one_line(exc)})") from None
    if len(records) < 2:
        raise CLIError(f"{path}: need a header line and at least one row")
    header, rows = records[0], records[1:]
    for k, row in enumerate(rows, start=2):
        if len(row) != len(header):
            raise CLIError(f"{path}, line {k}: expected {len(header)} fields, found {len(row)}")
    return header, rows


def _prediction_input(path: str, meta: dict):
    """The model's input columns from a CSV with a header, chosen by name when known."""
    header, rows = _read_table(path)
    wanted = meta.get("feature_names") or header
    missing = [w for w in wanted if w not in header]
    if missing and len(wanted) == 1 and len(header) == 1:
        # One input column, whatever its header says: e.g. a column of messages for a text model.
        wanted, missing = header, []
    if missing:
        raise CLIError(
            f"{path}: no column {missing[0]!r}, which the model needs (it was "
            f"fitted on columns: {', '.join(map(str, wanted))})"
        )
    idx = [header.index(w) for w in wanted]
    table = np.empty((len(rows), len(idx)), dtype=object)
    table[:] = [[row[j] for j in idx] for row in rows]  # (n, d) str
    kind = meta.get("kind", "numeric")
    if kind == "text":
        if table.shape[1] != 1:
            raise CLIError("a text model needs exactly one column of documents")
        return table[:, 0]
    if kind == "numeric":
        try:
            return np.where(table == "", "nan", table).astype(np.float64)
        except ValueError:
            raise CLIError(f"{path}: the model needs numbers, but a column holds text") from None
    return table


def run_predict(args, out=sys.stdout, err=sys.stderr) -> int:
    from .. import io

    if not os.path.isfile(args.model):
        raise CLIError(f"no such model file: {args.model}")
    estimator = io.load(args.model)
    meta = io.read_metadata(args.model)
    if not hasattr(estimator, "predict"):
        raise CLIError(f"{type(estimator).__name__} has no predict (it is not a predictor)")
    if not os.path.isfile(args.data):
        raise CLIError(f"no such file: {args.data}")
    X = _prediction_input(args.data, meta)
    y_pred = as_labels(np.asarray(estimator.predict(X)), meta.get("target_names"))
    if args.out and args.out.lower().endswith(".csv"):
        with open(args.out, "w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh)
            writer.writerow(["prediction"])
            writer.writerows([[v] for v in y_pred.tolist()])
    else:
        text = "\n".join(str(v) for v in y_pred.tolist()) + "\n"
        if args.out:
            with open(args.out, "w", encoding="utf-8") as fh:
                fh.write(text)
        else:
            out.write(text)
    if args.out:
        print(f"wrote {len(y_pred)} predictions to {args.out}", file=err)
    return 0

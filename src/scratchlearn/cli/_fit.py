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
    as_final_step_sees,
    final_step,
    load_data,
    one_line,
    parse_settings,
    resolve_entry,
    seed_estimator,
)
from ._compile_notice import compile_notice
from ._listing import SEQUENCE_DATASETS
from ._tasks import (
    as_labels,
    cluster_labels,
    own_picture,
    own_report,
    stratify_for,
    task_spec,
)

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


def _columns_seen(estimator, feature_names):
    """The names of the columns the final step sees: the data's, through any converter."""
    names = feature_names
    for _, step in getattr(estimator, "steps", [])[:-1]:
        has_names = names is not None and hasattr(step, "get_feature_names_out")
        names = step.get_feature_names_out(names) if has_names else None
    return None if names is None else [str(v) for v in names]


def _make_plot(path, entry, estimator, X_eval, y_eval, target_names=None, feature_names=None):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CLIError("--plot needs matplotlib: pip install 'scratchlearn[plot]'") from None
    from .. import plotting

    fig = Figure(figsize=(6.4, 4.8), layout="constrained")
    ax = fig.add_subplot()
    task = entry.task
    plot = task_spec(task).plot
    draw = own_picture(estimator, task)
    if draw is not None:  # what the model learned (a tree draws itself, clusters their points)
        columns = _columns_seen(estimator, feature_names)
        what = draw(ax, estimator, X_eval, y_eval, target_names, columns)
    elif _readable_history(final_step(estimator)):
        plotting.plot_loss_curve(estimator, ax=ax)
        what = "loss curve"
    elif plot is not None:
        what = plot(ax, estimator, X_eval, y_eval, target_names)
    else:
        raise CLIError(
            f"--plot has no plot for {entry.name} (task {task}: no picture of its own and no "
            "loss history)"
        )
    fig.savefig(path)
    return what


def _check_folds(k, spec, y, qid):
    """Refuse ``--cv K`` before any work when a fold would be empty: more folds than rows (than
    queries for a ranker), or, when the folds keep the class proportions, than the rows of the
    largest class (a smaller class than K only warns: some test folds lack it)."""
    if k is None:
        return
    n, unit = (len(y), "rows") if qid is None else (len(np.unique(qid)), "queries")
    if k > n:
        raise CLIError(f"--cv {k}: more folds than the {n} {unit}; use --cv {n} or less")
    largest = np.unique(y, return_counts=True)[1].max() if spec.stratify else n
    if k > largest:
        raise CLIError(
            f"--cv {k}: the folds keep the class proportions, but the largest class has "
            f"{largest} rows; use --cv {largest} or less"
        )


def _label_text(label, target_names) -> str:
    """A class label as the data writes it: its class name, or 3 rather than 3.0."""
    label = as_labels(np.asarray([label]), target_names)[0]
    if isinstance(label, (float, np.floating)) and float(label).is_integer():
        return str(int(label))
    return str(label)


def _check_classes(entry, bunch, err):
    """A classifier's target: one class is refused, naming it; a target that looks continuous
    gets a warning naming regressors. It looks continuous when it has more than 20 distinct
    values and half of them or more are on at most 2 rows (diabetes: 214 values in 442 rows)."""
    y = bunch["target"]
    labels, counts = np.unique(y, return_counts=True)
    if len(labels) == 1:
        label = _label_text(labels[0], bunch.get("target_names"))
        raise CLIError(
            f"{entry.name} needs at least 2 classes, but the target is {label!r} on all "
            f"{len(y)} rows"
        )
    if len(labels) > 20 and np.median(counts) <= 2:
        from .._registry import all_estimators

        regressors = all_estimators(family=entry.family, task="regressor")
        names = [e.alias for e in regressors][:3] or ["ridge", "linear-regression"]
        print(
            f"warning: the target has {len(labels)} distinct values in {len(y)} rows: it looks "
            f"continuous, and {entry.name} takes each value for a class; to predict a number, "
            f"use a regressor, e.g. {', '.join(names)}",
            file=err,
        )


def _prepare(args, out, err):
    """Check the arguments, load the data and build the (adapted) estimator, before any work."""
    entry = resolve_entry(args.estimator)
    settings = parse_settings(entry.cls, args.set)
    base = seed_estimator(entry.cls(**settings), args.seed, keep=settings)
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
    if spec in SEQUENCE_DATASETS:
        raise CLIError(
            f"{spec} holds sentences, which scratchlearn fit cannot take as a table; load it in "
            f"Python: {SEQUENCE_DATASETS[spec]['loader']}"
        )
    bunch = load_data(spec, args.target)
    if supervised and bunch.get("target") is None:
        raise CLIError(f"{entry.name} needs a target; name its column with --target")
    bunch["qid"] = _query_ids(entry, bunch, args.group)
    _check_folds(args.cv, task_spec(entry.task), bunch.get("target"), bunch["qid"])
    if entry.task == "classifier":
        _check_classes(entry, bunch, err)
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


def _print_figures(pairs, out) -> None:
    """``(name, value)`` pairs, one a line, the values aligned (floats to 4 decimals)."""
    width = max([9] + [len(name) for name, _ in pairs])
    for name, value in pairs:
        text = f"{value:.4f}" if isinstance(value, (float, np.floating)) else str(value)
        print(f"  {name:<{width}} {text}", file=out)


def _silhouette(estimator, X, seed, max_rows=5000):
    """(name, mean silhouette) of the clusters ``estimator`` gives the rows ``X`` (a seeded
    sample of ``max_rows`` of them when there are more), or None for fewer than 2 clusters."""
    from ..metrics import silhouette_score

    labels = cluster_labels(estimator, X)
    if not 2 <= len(np.unique(labels)) < len(labels):
        return None
    X = as_final_step_sees(estimator, X)  # the data as the clusterer saw it
    n = X.shape[0]
    name = "silhouette" if n <= max_rows else f"silhouette ({max_rows} of {n} rows)"
    sample = None if n <= max_rows else max_rows
    return name, silhouette_score(X, labels, sample_size=sample, random_state=seed)


def _fitted_figures(estimator, X, seed) -> list:
    """``(name, value)`` of what the fitted model measured, when it has it: the out-of-bag
    score, a k-means inertia, a clusterer's silhouette on the rows ``X``, the iterations and
    why they stopped, the number of support vectors."""
    model = final_step(estimator)
    found = []
    if hasattr(model, "oob_score_"):
        found.append(("OOB score", model.oob_score_))
    if hasattr(model, "inertia_"):
        found.append(("inertia", model.inertia_))
    if getattr(model, "_estimator_type", None) == "clusterer":  # every clusterer, by its mixin
        found.append(_silhouette(estimator, X, seed))
    if getattr(model, "n_iter_", None) is not None:
        found.append(("iterations", ", ".join(str(n) for n in np.ravel(model.n_iter_))))
    if getattr(model, "stop_reason_", None) is not None:
        found.append(("stopped on", model.stop_reason_))
    if hasattr(model, "n_support_") or hasattr(model, "support_"):
        counts = np.ravel(getattr(model, "n_support_", [len(getattr(model, "support_", []))]))
        per_class = f" (per class: {', '.join(map(str, counts))})" if len(counts) > 1 else ""
        found.append(("support vectors", f"{counts.sum()}{per_class}"))
    return [pair for pair in found if pair is not None]


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
    scores = spec.scores(estimator, X_te, y_te, q_te) if X_te is not None else []
    _print_figures(scores + _fitted_figures(estimator, X_tr, args.seed), out)
    print(f"fit time: {seconds:.3f} s", file=out)
    if args.cv is not None:
        scores = _cross_validate_queries(estimator, X, y, qid, args.cv, args.seed)
        mean, std = np.mean(scores), np.std(scores)
        print(f"cv ({args.cv} folds) {spec.cv_metric}: {mean:.4f} ± {std:.4f}", file=out)
    return ((X_te, y_te) if X_te is not None else (X_tr, y_tr)), X_tr.shape[0]


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
    scores = spec.scores(estimator, *shown) if X_te is not None or not spec.supervised else []
    _print_figures(scores + _fitted_figures(estimator, shown[0], args.seed), out)
    print(f"fit time: {seconds:.3f} s", file=out)
    if args.cv is not None:
        from ..base import clone

        scores = _cross_validate(spec, clone(estimator), X, y, args.cv, args.seed)
        mean, std = np.nanmean(scores), np.nanstd(scores)
        print(f"cv ({args.cv} folds) {spec.cv_metric}: {mean:.4f} ± {std:.4f}", file=out)
    return shown, X_tr.shape[0]


def run_fit(args, out=sys.stdout, err=sys.stderr) -> int:
    entry, estimator, bunch, spec = _prepare(args, out, err)
    task = entry.task
    with warnings.catch_warnings(record=True) as caught, compile_notice(err):
        warnings.simplefilter("always")
        (X_eval, y_eval), n_fitted = _fit_and_report(
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
        n_rows = bunch["data"].shape[0]
        rows = (
            f"all {n_rows} rows"
            if n_fitted == n_rows
            else f"the {1 - args.test_size:.0%} training split: {n_fitted} rows; "
            f"--test-size 0 fits all {n_rows} rows"
        )
        print(f"saved {args.save} (fitted on {rows})", file=out)
    names, classes = bunch.get("feature_names"), bunch.get("target_names")
    report = own_report(estimator, None if names is None else [str(v) for v in names], classes)
    if report is not None:
        print(report, file=out)
    if args.plot:
        names, classes = bunch.get("feature_names"), bunch.get("target_names")
        what = _make_plot(args.plot, entry, estimator, X_eval, y_eval, classes, names)
        print(f"wrote {what} to {args.plot}", file=out)
    return 0


def _read_table(path: str):
    """The records of a CSV file as a ``Table`` whose first row is the first line (a header or,
    in a header-less file, data); blank lines skipped, line numbers kept for messages."""
    from ..datasets._csv import read_table

    return read_table(path, header=False)


def _prediction_input(path: str, meta: dict):
    """The model's input columns of a CSV file, chosen by name when the model knows its columns'
    names; a first line that looks like data is read as data, with a warning on stderr. Missing
    values and text in a column of numbers are refused, naming the line and the column."""
    from ._data import prediction_columns, refuse_missing_cells

    table = _read_table(path)
    kind = meta.get("kind", "numeric")
    header = table.cells[0].tolist()
    columns, header_is_data, notes = prediction_columns(
        path, header, table.lines[0], meta.get("feature_names"), kind
    )
    for note in notes:
        print(note, file=sys.stderr)
    first = 0 if header_is_data else 1
    cells, lines = table.cells[first:, columns], table.lines[first:]  # (n, d) str
    if cells.shape[0] == 0:
        raise CLIError(f"{path}, line {table.lines[0]}: a header but no data rows")
    names = meta.get("feature_names") if header_is_data else [header[j] for j in columns]
    names = [str(v) for v in (names or [f"column_{j}" for j in columns])]
    if kind == "text":
        if cells.shape[1] != 1:
            raise CLIError("a text model needs exactly one column of documents")
        return cells[:, 0]
    if kind == "numeric":
        for j, name in enumerate(names):
            for line, value in zip(lines, cells[:, j]):
                if value:
                    try:
                        float(value)
                    except ValueError:
                        raise CLIError(
                            f"{path}, line {line}: column {name!r} holds {value!r}, but the "
                            "model needs numbers"
                        ) from None
    refuse_missing_cells(path, names, lines, cells, [kind == "numeric"] * len(names))
    return cells.astype(np.float64) if kind == "numeric" else cells


def _answers(estimator, X, meta):
    """``(header, rows, lines)`` of a saved model's answers for the rows ``X``: a predictor's
    prediction (class names when the data had them); a neighbour index's k nearest training
    rows (CSV: their indices ``neighbor_j`` then distances ``distance_j``, nearest first; text:
    the indices)."""
    model = final_step(estimator)
    if callable(getattr(model, "predict", None)):
        y_pred = as_labels(np.asarray(estimator.predict(X)), meta.get("target_names")).tolist()
        return ["prediction"], [[v] for v in y_pred], [str(v) for v in y_pred]
    if callable(getattr(model, "kneighbors", None)):
        dist, ind = model.kneighbors(as_final_step_sees(estimator, X))  # (m, k) each
        k = ind.shape[1]
        header = [f"neighbor_{j}" for j in range(1, k + 1)]
        header += [f"distance_{j}" for j in range(1, k + 1)]
        rows = [[*i, *d] for i, d in zip(ind.tolist(), dist.tolist())]
        return header, rows, [" ".join(map(str, i)) for i in ind.tolist()]
    raise CLIError(
        f"{type(model).__name__} has no predict (it is not a predictor) and no kneighbors"
    )


def run_predict(args, out=sys.stdout, err=sys.stderr) -> int:
    from .. import io

    if not os.path.isfile(args.model):
        raise CLIError(f"no such model file: {args.model}")
    estimator = io.load(args.model)
    meta = io.read_metadata(args.model)
    model = final_step(estimator)
    if not any(callable(getattr(model, m, None)) for m in ("predict", "kneighbors")):
        raise CLIError(f"{type(model).__name__} has no predict (it is not a predictor)")
    if not os.path.isfile(args.data):
        raise CLIError(f"no such file: {args.data}")
    X = _prediction_input(args.data, meta)
    with compile_notice(err):
        header, rows, lines = _answers(estimator, X, meta)
    if args.out and args.out.lower().endswith(".csv"):
        with open(args.out, "w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh)
            writer.writerow(header)
            writer.writerows(rows)
    else:
        text = "\n".join(lines) + "\n"
        if args.out:
            with open(args.out, "w", encoding="utf-8") as fh:
                fh.write(text)
        else:
            out.write(text)
    if args.out:
        what = "predictions" if header == ["prediction"] else "rows of nearest neighbours"
        print(f"wrote {len(rows)} {what} to {args.out}", file=err)
    return 0

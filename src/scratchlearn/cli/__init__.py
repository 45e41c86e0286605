"""The ``scratchlearn`` command.

=========================  ================================================================
command                    does
=========================  ================================================================
``scratchlearn list``      registered estimators by family, with alias and summary
``scratchlearn datasets``  bundled datasets: tables, then datasets of sequences
``scratchlearn fit``       fit an estimator on a dataset or CSV; held-out metrics and what the
                           model measured, --cv, --save a model file, --plot a figure
``scratchlearn predict``   predictions of a saved model on a CSV file
``scratchlearn demo``      every estimator on its showcase dataset, then the family stories;
                           figures (PNG) in ``--out DIR`` (default ./scratchlearn-demo)
``scratchlearn compile``   every estimator's Numba kernels compiled into Numba's cache now
                           (once per machine or container image), so no first fit waits
=========================  ================================================================

Every user error (unknown estimator, parameter, dataset, file or column; invalid value; bad
data) is one line ``scratchlearn: error: ...`` on stderr and exit status 2. Anything else is a
bug of the library: its traceback is printed, with exit status 1.
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["main", "build_parser"]

PROG = "scratchlearn"


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse whose errors become one line (raised, then printed by :func:`main`)."""

    def error(self, message):
        raise _UsageError(f"{message} (see '{self.prog} --help')")


def _integer(low: int, name: str, below: str):
    """An argparse ``type``: an integer of at least ``low``; ``below`` formats the error for a
    smaller one (with the number given)."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid {name} {text!r}") from None
        if n < low:
            raise argparse.ArgumentTypeError(below.format(n))
        return n

    return parse


_k_folds = _integer(2, "number of folds", "--cv needs at least 2 folds; got {}")
_jobs = _integer(1, "number of processes", "--jobs needs at least 1 process; got {}")


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = _Parser(prog=PROG, description="Classic machine learning written from scratch.")
    parser.add_argument("--version", action="version", version=f"scratchlearn {__version__}")
    parser.add_argument(
        "--traceback",
        action="store_true",
        help="show the full traceback of errors (for bug reports)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    sub.add_parser("list", help="list the estimators by family")
    sub.add_parser("datasets", help="list the bundled datasets")

    fit = sub.add_parser("fit", help="fit an estimator and report held-out metrics")
    fit.add_argument(
        "estimator",
        help="class name or alias, in any case, hyphens optional: e.g. ridge, gaussian-nb",
    )
    fit.add_argument(
        "--data",
        metavar="NAME_OR_CSV",
        help="bundled dataset name or CSV path (default: the showcase dataset)",
    )
    fit.add_argument("--target", metavar="COL", help="target column of a CSV file")
    fit.add_argument("--group", metavar="COL", help="query-id column of a CSV file (rankers)")
    fit.add_argument(
        "--set",
        metavar="PARAM=VALUE",
        action="append",
        default=[],
        help="a hyperparameter (repeatable), e.g. --set alpha=0.5",
    )
    fit.add_argument(
        "--test-size",
        type=float,
        default=0.25,
        metavar="F",
        help="held-out fraction (default 0.25; 0 fits on everything)",
    )
    fit.add_argument("--cv", type=_k_folds, metavar="K", help="also K-fold cross-validate")
    fit.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="N",
        help="seed of the split, the folds and the estimator's random_state (default 0)",
    )
    fit.add_argument("--save", metavar="FILE", help="write the fitted model to FILE")
    fit.add_argument("--plot", metavar="FILE", help="write a plot (PNG, SVG or PDF) to FILE")

    pred = sub.add_parser("predict", help="predict with a saved model on a CSV file")
    pred.add_argument("model", metavar="MODEL_FILE")
    pred.add_argument("--data", metavar="CSV", required=True, help="CSV file of samples")
    pred.add_argument(
        "--out",
        metavar="FILE",
        help="write predictions to FILE (a CSV column if FILE ends in .csv)",
    )

    demo = sub.add_parser("demo", help="run every estimator on its showcase dataset")
    demo.add_argument("--quick", action="store_true", help="one estimator per family")
    demo.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="N",
        help="seed of the splits and of every estimator's random_state (default 0)",
    )
    demo.add_argument(
        "--out",
        metavar="DIR",
        default="scratchlearn-demo",
        help="folder for the demo's figures (default ./scratchlearn-demo)",
    )
    comp = sub.add_parser(
        "compile",
        help="compile every estimator's Numba kernels now, so no later first fit waits",
    )
    comp.add_argument(
        "estimators",
        nargs="*",
        metavar="ESTIMATOR",
        help="only these estimators (class name or alias; default: every estimator)",
    )
    comp.add_argument(
        "--jobs",
        type=_jobs,
        metavar="N",
        help="processes compiling side by side (default: one per core)",
    )
    return parser


def _dispatch(args, out, err) -> int:
    if args.command == "list":
        from ._listing import run_list as run
    elif args.command == "datasets":
        from ._listing import run_datasets as run
    elif args.command == "fit":
        from ._fit import run_fit as run
    elif args.command == "predict":
        from ._fit import run_predict as run
    elif args.command == "compile":
        from ._compile import run_compile as run
    else:
        from ._demo import run_demo as run
    return run(args, out=out, err=err)


def main(argv=None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    from ._common import USER_ERRORS, one_line

    out, err = sys.stdout, sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as exc:
        print(f"{PROG}: error: {one_line(exc)}", file=err)
        return 2
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0)
    if args.command is None:
        parser.print_help(file=err)
        return 2
    try:
        return _dispatch(args, out, err)
    except BrokenPipeError:  # e.g. `scratchlearn list | head`: the reader left, nothing to say
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except USER_ERRORS as exc:
        if args.traceback:
            raise
        print(f"{PROG}: error: {one_line(exc)}", file=err)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=err)
        return 130
    except Exception:  # a bug, not the user's doing: show where it happened
        import traceback

        traceback.print_exc(file=err)
        print(f"{PROG}: internal error (a bug in scratchlearn; please report it)", file=err)
        return 1

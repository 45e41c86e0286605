"""``scratchlearn list`` and ``scratchlearn datasets``."""

from __future__ import annotations

import sys
from collections.abc import Mapping

from ._common import format_table

__all__ = ["run_list", "run_datasets"]


def run_list(args, out=sys.stdout, err=sys.stderr) -> int:
    """Registered estimators by family: class name, alias and summary.

    Reads the registry only: no model module is imported, so the listing stays fast however
    many families there are (the task, read from each class, is shown by ``scratchlearn fit``).
    """
    from .._registry import FAMILIES, all_estimators

    entries = all_estimators()
    families = list(FAMILIES) + sorted({e.family for e in entries} - set(FAMILIES))
    blocks = []
    for family in families:
        members = [e for e in entries if e.family == family]
        if not members:
            continue
        title = f"{family}: {FAMILIES[family]}" if family in FAMILIES else family
        rows = [(e.name, e.alias, e.summary) for e in members]
        table = format_table(("estimator", "alias", "summary"), rows)
        blocks.append(title + "\n" + "\n".join("  " + line for line in table.splitlines()))
    print("\n\n".join(blocks), file=out)
    print(
        f"\n{len(entries)} estimators. Use the class name or the alias with 'scratchlearn fit'.",
        file=out,
    )
    return 0


def _field(record, name, default="-"):
    value = record.get(name) if isinstance(record, Mapping) else getattr(record, name, None)
    return default if value is None else value


def run_datasets(args, out=sys.stdout, err=sys.stderr) -> int:
    """Bundled datasets: name, kind, task, size and summary."""
    from ..datasets import list_datasets

    records = list(list_datasets())
    rows = [
        (
            _field(r, "name"),
            _field(r, "kind"),
            _field(r, "task"),
            _field(r, "n_samples"),
            _field(r, "n_features"),
            _field(r, "summary"),
        )
        for r in records
    ]
    print(
        format_table(
            ("name", "kind", "task", "samples", "features", "summary"),
            rows,
            align=["<", "<", "<", ">", ">", "<"],
        ),
        file=out,
    )
    print(
        f"\n{len(rows)} datasets. Use a name (or a CSV path) with 'scratchlearn fit --data'.",
        file=out,
    )
    return 0

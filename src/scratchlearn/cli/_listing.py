"""``scratchlearn list`` and ``scratchlearn datasets``."""

from __future__ import annotations

import sys
from collections.abc import Mapping

from ._common import format_table

__all__ = ["run_list", "run_datasets", "SEQUENCE_DATASETS"]

#: Bundled datasets of sentences (lists of tokens), which ``scratchlearn fit`` cannot take as a
#: table: ``scratchlearn datasets`` lists them below the tables, saying how to load them.
SEQUENCE_DATASETS = {
    "ud_english_ewt": {
        "kind": "sequences",
        "task": "sequence labelling",
        "n_samples": 4078,  # sentences: 2,001 (split="dev") + 2,077 (split="test")
        "summary": "UD English Web Treebank: words and part-of-speech tags of web text",
        "loader": "scratchlearn.datasets.load_ud_english_ewt(split='dev' or 'test')",
    },
}


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
    """Bundled datasets: name, kind, task, size and summary; tables, then sequences."""
    from ..datasets import list_datasets

    records = list(list_datasets()) + [{"name": k, **v} for k, v in SEQUENCE_DATASETS.items()]
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
        f"\n{len(rows)} datasets. Use a table's name (or a CSV path) with 'scratchlearn fit "
        "--data'; load a dataset of sequences in Python:",
        file=out,
    )
    for name, record in SEQUENCE_DATASETS.items():
        print(f"  {name}: {record['loader']}", file=out)
    return 0

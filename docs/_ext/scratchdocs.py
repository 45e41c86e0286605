"""Sphinx directives of scratchlearn's documentation: numbers on the pages are computed, not typed.

``.. runblock::``
    Runs its Python body when the page is built and shows the code followed by what it printed.
    The blocks of one page share one namespace, top to bottom, like a notebook. Figures left
    open by a block (``matplotlib.pyplot``) are saved as PNG files and shown under the output.
    An exception stops the build with the page, the block and the traceback: a worked example
    that no longer computes what the text says is a broken page. ``:hide-code:`` shows only the
    output; ``:hide-output:`` only the code (for set-up blocks).

``.. bench-rows:: REGEX``
    The rows of ``benchmarks/results.md`` whose case matches ``REGEX``, as a table: the ratios
    and the agreement measured by ``make bench``, never copied by hand.

``.. gallery-uses:: NAME``
    The gallery examples whose story module mentions ``NAME`` (used by the API pages).

The API reference's list of pages (``api/index.rst``) is written from each public package's
``__all__`` by :func:`write_api_index` when the build starts, so a new public name gets its page
without editing the documentation.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import re
import traceback
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results.md"

#: The public packages, in the order of the map in DESIGN.md, each with a title.
API_PACKAGES = (
    ("base", "The estimator contract"),
    ("exceptions", "Exceptions and warnings"),
    ("utils", "Validation and numerics"),
    ("optim", "Optimisation"),
    ("preprocessing", "Preprocessing"),
    ("feature_extraction.text", "Text features"),
    ("pipeline", "Pipelines"),
    ("model_selection", "Model selection"),
    ("metrics", "Metrics"),
    ("metrics.pairwise", "Distances and kernels"),
    ("linear_model", "Linear and generalized linear models"),
    ("naive_bayes", "Naive Bayes"),
    ("tree", "Decision trees"),
    ("ensemble", "Ensembles"),
    ("svm", "Support vector machines"),
    ("multiclass", "Multi-class strategies"),
    ("neighbors", "Nearest neighbours"),
    ("cluster", "Clustering"),
    ("mixture", "Gaussian mixtures"),
    ("ranking", "Learning to rank"),
    ("structured", "Structured outputs"),
    ("datasets", "Datasets"),
    ("plotting", "Plotting"),
    ("io", "Model files"),
)


def api_packages() -> tuple:
    """:data:`API_PACKAGES`, then every family of the registry that is not listed there, titled
    by its ``Family.title``: a new family's folder gets its API page without an edit here."""
    from scratchlearn._registry import all_families

    listed = {package for package, _ in API_PACKAGES}
    found = [(fam.module.removeprefix("scratchlearn."), fam.title) for fam in all_families()]
    return API_PACKAGES + tuple(pair for pair in found if pair[0] not in listed)


def public_callables(package: str) -> list[str]:
    """The classes and functions of ``scratchlearn.<package>.__all__`` that this package owns
    (constants and sub-modules are described in their package's docstring instead).

    A name exported by several packages (``FitFailedWarning`` by ``exceptions`` and
    ``model_selection``, the distances by ``metrics`` and ``metrics.pairwise``) gets one page,
    under the listed package nearest to where it is defined: two pages for one object would
    give the source links two targets."""
    module = importlib.import_module(f"scratchlearn.{package}")
    names = []
    for name in getattr(module, "__all__", []):
        obj = getattr(module, name)
        if inspect.ismodule(obj) or not callable(obj):
            continue
        if _owner(obj, name) == package:
            names.append(name)
    return names


def _owner(obj, name: str) -> str:
    """The package of :func:`api_packages` that documents ``obj``: of those exporting it, the
    one sharing the longest dotted prefix with ``obj.__module__`` (the first on a tie)."""
    home = getattr(obj, "__module__", "") or ""
    best, best_len = None, -1
    for package, _ in api_packages():
        module = importlib.import_module(f"scratchlearn.{package}")
        if name not in getattr(module, "__all__", []) or getattr(module, name) is not obj:
            continue
        dotted = f"scratchlearn.{package}"
        length = len(dotted) if home == dotted or home.startswith(dotted + ".") else 0
        if length > best_len:
            best, best_len = package, length
    return best


def _write_if_changed(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def write_api_index(app, config=None) -> None:
    """``api/index.rst`` and one page per public package, each with an autosummary table of the
    package's classes and functions (files rewritten only when their text changes)."""
    api = Path(app.srcdir) / "api"
    toc = []
    wanted = set()  # the page of every documented object
    for package, title in api_packages():
        names = public_callables(package)
        wanted |= {f"scratchlearn.{package}.{name}.rst" for name in names}
        if not names:
            continue
        heading = f"``scratchlearn.{package}``: {title}"
        lines = [
            ".. Written by docs/_ext/scratchdocs.py from the package's __all__: do not edit.",
            "",
            heading,
            "=" * len(heading),
            "",
            f".. automodule:: scratchlearn.{package}",
            "   :no-members:",
            "   :no-index:",
            "",
            f".. currentmodule:: scratchlearn.{package}",
            "",
            ".. autosummary::",
            "   :toctree: generated",
            "   :nosignatures:",
            "",
            *[f"   {name}" for name in names],
            "",
        ]
        _write_if_changed(api / f"{package}.rst", "\n".join(lines))
        toc.append(f"   {package}")
    index = [
        ".. Written by docs/_ext/scratchdocs.py from each package's __all__: do not edit.",
        "",
        "API reference",
        "=============",
        "",
        "Every public class and function, by package, from its docstring. The paths mirror",
        "scikit-learn's: ``from scratchlearn.linear_model import Ridge`` as",
        "``from sklearn.linear_model import Ridge``.",
        "",
        ".. toctree::",
        "   :maxdepth: 2",
        "",
        *toc,
        "",
    ]
    _write_if_changed(api / "index.rst", "\n".join(index))
    # Pages of names no longer public (or now documented elsewhere) would be orphans.
    for stale in (api / "generated").glob("*.rst"):
        if stale.name not in wanted:
            stale.unlink()


# -- sections numpydoc does not know ------------------------------------------------------------
#: numpydoc's sections; it drops any other "Title / -----" section with a warning.
NUMPYDOC_SECTIONS = {
    "Parameters", "Attributes", "Methods", "Returns", "Yields", "Receives", "Other Parameters",
    "Raises", "Warns", "Warnings", "See Also", "Notes", "References", "Examples",
}  # fmt: skip
_AFTER_NOTES = ("References", "Examples")


def keep_extra_sections(app, what, name, obj, options, lines):
    """Move the docstring sections numpydoc does not know (the library's "Symbols",
    "Objective", "Dask", ...) into Notes, each under a rubric of its own title, so that their
    text reaches the page instead of being dropped. Runs before numpydoc (priority 100)."""
    headers = [
        i
        for i in range(len(lines) - 1)
        if lines[i].strip()
        and set(lines[i + 1].strip()) == {"-"}
        and len(lines[i + 1].strip()) == len(lines[i].strip())
        and (i == 0 or not lines[i - 1].strip())
    ]
    if not any(lines[i].strip() not in NUMPYDOC_SECTIONS for i in headers):
        return
    bounds = list(zip(headers, [*headers[1:], len(lines)]))
    head = lines[: headers[0]]
    known, extra = [], []
    for start, stop in bounds:
        title, body = lines[start].strip(), lines[start + 2 : stop]
        if title in NUMPYDOC_SECTIONS:
            known.append((title, body))
        else:
            extra += [f".. rubric:: {title}", "", *body, ""]
    notes = next((body for title, body in known if title == "Notes"), None)
    if notes is None:
        notes = []
        at = next((i for i, (t, _) in enumerate(known) if t in _AFTER_NOTES), len(known))
        known.insert(at, ("Notes", notes))
    notes += ["", *extra]
    out = list(head)
    for title, body in known:
        out += [title, "-" * len(title), *body]
        if out[-1].strip():
            out.append("")
    lines[:] = out


# -- runblock ----------------------------------------------------------------------------------
class RunBlock(SphinxDirective):
    has_content = True
    option_spec = {"hide-code": directives.flag, "hide-output": directives.flag}

    def run(self):
        code = "\n".join(self.content)
        env = self.env
        namespaces = env.temp_data.setdefault("runblock_namespaces", {})
        namespace = namespaces.setdefault(env.docname, {"__name__": "__runblock__"})
        counter = env.temp_data.setdefault("runblock_counter", {})
        index = counter[env.docname] = counter.get(env.docname, 0) + 1

        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        plt.close("all")
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                exec(compile(code, f"<{env.docname} block {index}>", "exec"), namespace)
        except Exception:  # noqa: BLE001 - reported as a build error with the traceback
            raise self.error(
                f"runblock {index} of {env.docname} raised:\n{traceback.format_exc()}"
            ) from None
        result = []
        if "hide-code" not in self.options:
            block = nodes.literal_block(code, code)
            block["language"] = "python"
            result.append(block)
        text = out.getvalue().rstrip()
        if text and "hide-output" not in self.options:
            shown = nodes.literal_block(text, text)
            shown["language"] = "none"
            shown["classes"].append("runblock-output")
            result.append(shown)
        for number in plt.get_fignums():
            fig = plt.figure(number)
            folder = Path(self.env.srcdir) / "_generated"
            folder.mkdir(exist_ok=True)
            name = f"{env.docname.replace('/', '-')}-{index}-{number}.png"
            fig.savefig(folder / name, dpi=100, bbox_inches="tight")
            image = nodes.image(uri=f"/_generated/{name}", alt=f"figure {number} of this block")
            result.append(image)
        plt.close("all")
        return result


# -- bench-rows --------------------------------------------------------------------------------
def benchmark_table() -> tuple[list[str], list[list[str]]]:
    """(header, rows) of the main table in ``benchmarks/results.md``."""
    header, rows = None, []
    for line in RESULTS.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            if header is not None and rows:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
        elif set("".join(cells)) <= set("-: "):
            continue
        else:
            rows.append(cells)
    return header or [], rows


class BenchRows(SphinxDirective):
    required_arguments = 1
    final_argument_whitespace = True

    def run(self):
        pattern = re.compile(self.arguments[0])
        header, rows = benchmark_table()
        chosen = [r for r in rows if pattern.search(r[0])]
        if not chosen:
            raise self.error(f"no row of benchmarks/results.md matches {self.arguments[0]!r}")
        keep = [0, 1, 3, 6, 7, 8]  # case, fit and predict ratios (1 thread), first call, agreement
        keep = [i for i in keep if i < len(header)]
        table = nodes.table(classes=["bench-rows"])
        group = nodes.tgroup(cols=len(keep))
        table += group
        for _ in keep:
            group += nodes.colspec(colwidth=1)

        def row(cells):
            r = nodes.row()
            for c in cells:
                entry = nodes.entry()
                entry += nodes.paragraph(text=c)
                r += entry
            return r

        head = nodes.thead()
        head += row([header[i] for i in keep])
        group += head
        body = nodes.tbody()
        for r in chosen:
            body += row([r[i] for i in keep])
        group += body
        caption = nodes.paragraph(
            text="Measured by make bench (benchmarks/results.md): ratios are scratchlearn's time "
            "over scikit-learn's on the same arrays in one process; lower is faster. Each is the "
            "median over paired samples, with its interval (at least 90% confidence) in brackets; "
            "≈ marks an interval that holds the target."
        )
        return [table, caption]


# -- the gallery in the registry's order ------------------------------------------------------
def story_order(filename: str) -> tuple:
    """sphinx-gallery's sort key: the examples in the order of the families' stories (the
    registry's, which is the lecture notes' and the demo's), then by file name."""
    from scratchlearn.cli._demo import story_modules

    order = {name: i for i, name in enumerate(story_modules())}
    path = ROOT / "examples" / Path(filename).name
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    match = re.search(r"from (scratchlearn\.[\w.]+) import (_showcase\w*)", text)
    module = f"{match.group(1)}.{match.group(2)}" if match else ""
    return (order.get(module, len(order)), Path(filename).name)


# -- gallery-uses ------------------------------------------------------------------------------
def _story_sources() -> dict[str, tuple[str, str]]:
    """{gallery example stem: (story module, its source)} for the examples that name a story."""
    found = {}
    for script in sorted((ROOT / "examples").glob("plot_*.py")):
        text = script.read_text(encoding="utf-8")
        match = re.search(r"from (scratchlearn\.[\w.]+) import (_showcase\w*)", text)
        if not match:
            continue
        module = f"{match.group(1)}.{match.group(2)}"
        source = inspect.getsource(importlib.import_module(module))
        title = text.split('"""', 2)[1].strip().splitlines()[0]
        found[script.stem] = (title, source + text)
    return found


class GalleryUses(SphinxDirective):
    required_arguments = 1

    def run(self):
        name = self.arguments[0].rsplit(".", 1)[-1]
        cache = self.env.temp_data.setdefault("gallery_sources", None)
        if cache is None:
            cache = self.env.temp_data["gallery_sources"] = _story_sources()
        uses = [
            (stem, title)
            for stem, (title, src) in cache.items()
            if re.search(rf"\b{re.escape(name)}\b", src)
        ]
        if not uses:
            return []
        section = nodes.rubric(text="Gallery examples that use it")
        items = nodes.bullet_list()
        for stem, title in uses:
            para = nodes.paragraph()
            ref = nodes.reference(text=title, refuri=f"../../auto_examples/{stem}.html")
            para += ref
            item = nodes.list_item()
            item += para
            items += item
        return [section, items]


def setup(app):
    app.connect("config-inited", write_api_index)  # before the sources are listed
    app.connect("autodoc-process-docstring", keep_extra_sections, priority=100)
    app.add_directive("runblock", RunBlock)
    app.add_directive("bench-rows", BenchRows)
    app.add_directive("gallery-uses", GalleryUses)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

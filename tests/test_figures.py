"""Every story figure of the demo and the gallery reads well, as a reader sees it.

Each ``(file name, draw)`` of every story module's ``figures()`` is drawn on an Agg canvas twice,
as the two places that show it draw it: the demo (``scratchlearn demo``: a 6.4 × 4.8 in figure
with the constrained layout) and the gallery (sphinx-gallery: a plain 8 × 5 in pyplot figure,
no layout engine). Then every visible, non-empty text is measured in pixels and the figure
fails when

(a) a text sticks out of the canvas by more than one pixel (a clipped title, tick label, legend
    entry or annotation);
(b) two titles or axis labels (axes titles, the suptitle and other figure texts, x and y labels)
    overlap, or one overlaps a tick label, an annotation or a legend (tick labels are not compared
    among themselves, nor the texts inside a tree plot's nodes with one another);
(c) a legend inside an axes covers that axes' data: a scatter point, a vertex or stretch of a
    line, a bar or a histogram outline (filled areas such as decision regions and ε-tubes are
    background, not data, and may sit under a legend).

The self-tests at the end draw deliberately bad figures and check that each rule fires.
"""

from __future__ import annotations

import importlib
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.collections import PathCollection  # noqa: E402
from matplotlib.container import BarContainer  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Polygon, Rectangle  # noqa: E402

from scratchlearn.cli._demo import story_modules  # noqa: E402

#: Pixels a text may stick out of the canvas, and two boxes may share, before it is a defect
#: (text extents are rounded to whole pixels by the Agg renderer).
TOLERANCE = 1.0

#: The two ways a story figure is drawn: (figure size in inches, layout engine).
CONTEXTS = {"demo": ((6.4, 4.8), "constrained"), "gallery": ((8.0, 5.0), None)}


# -- the checker --------------------------------------------------------------------------------
@dataclass
class _Text:
    kind: str  # "label" (title, axis label, figure text), "tick", "legend", "note", "node"
    where: str  # which axes (or the figure) it belongs to, for the message
    text: str
    bbox: object  # matplotlib Bbox in display pixels


def _visible(artist) -> bool:
    return artist is not None and artist.get_visible() and bool(artist.get_text().strip())


def _tick_labels(axis):
    """The tick labels the axis will draw: only ticks inside the view, only visible labels."""
    # Axis._update_ticks is what Axis.draw and get_tightbbox use to pick the drawn ticks; the
    # public get_ticklabels also returns labels of ticks outside the view, which are not drawn.
    for tick in axis._update_ticks():
        for label in (tick.label1, tick.label2):
            if _visible(label):
                yield label
    offset = axis.get_offset_text()  # "1e-3" or "+1e4" beside the tick labels
    if _visible(offset):
        yield offset


def _is_tree_node(ax, text) -> bool:
    """A node of :func:`scratchlearn.tree.plot_tree`: boxed text on an axes drawn without axes."""
    return not ax.axison and text.get_bbox_patch() is not None


def collect_texts(fig, renderer) -> list[_Text]:
    """Every visible non-empty text of the figure with its extent in pixels."""
    out = []

    def add(kind, where, artist):
        if _visible(artist):
            out.append(_Text(kind, where, artist.get_text(), artist.get_window_extent(renderer)))

    for t in fig.texts:  # the suptitle, supxlabel, supylabel and fig.text(...)
        add("label", "figure", t)
    for k, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        where = f"axes {k}"
        titles = (ax.title, getattr(ax, "_left_title", None), getattr(ax, "_right_title", None))
        for t in titles:
            add("label", where, t)
        if ax.axison:
            for axis in (ax.xaxis, ax.yaxis):
                add("label", where, axis.label)
                for t in _tick_labels(axis):
                    add("tick", where, t)
        for t in ax.texts:  # ax.text(...) and ax.annotate(...)
            add("node" if _is_tree_node(ax, t) else "note", where, t)
    legends = [(f"axes {k}", ax.get_legend()) for k, ax in enumerate(fig.axes)]
    for where, legend in legends + [("figure", lg) for lg in fig.legends]:
        if legend is not None and legend.get_visible():
            for t in [legend.get_title(), *legend.get_texts()]:
                add("legend", where, t)
    return out


def _overlap(a, b, tol=TOLERANCE) -> bool:
    """Whether two pixel boxes share more than ``tol`` pixels in both directions."""
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > tol) and (min(a.y1, b.y1) - max(a.y0, b.y0) > tol)


def _legend_boxes(fig, renderer):
    out = [(f"axes {k}", ax, ax.get_legend()) for k, ax in enumerate(fig.axes)]
    out += [("figure", None, lg) for lg in fig.legends]
    return [
        (where, ax, lg, lg.get_window_extent(renderer))
        for where, ax, lg in out
        if lg is not None and lg.get_visible()
    ]


def _covered_data(ax, box) -> list[str]:
    """The kinds of ``ax``'s data drawn inside the pixel box ``box`` (empty: none)."""
    hits = []
    for line in ax.lines:
        if not line.get_visible() or len(line.get_xdata()) == 0:
            continue
        path = line.get_transform().transform_path(line.get_path())
        marked = line.get_marker() not in (None, "None", "none", "", " ")
        inside = box.count_contains(path.vertices) > 0
        if inside or (line.get_linestyle() not in ("None", "", " ") and path.intersects_bbox(box)):
            hits.append(f"line {line.get_label()!r}" + (" (markers)" if marked else ""))
    for coll in ax.collections:  # scatter plots only: filled regions are background
        if isinstance(coll, PathCollection) and coll.get_visible():
            offsets = coll.get_offset_transform().transform(coll.get_offsets())
            if len(offsets) and box.count_contains(offsets) > 0:
                hits.append(f"scatter {coll.get_label()!r}")
    bars = {id(p) for c in ax.containers if isinstance(c, BarContainer) for p in c.patches}
    for patch in ax.patches:
        if not patch.get_visible():
            continue
        if isinstance(patch, Rectangle) and id(patch) in bars:
            extent = patch.get_window_extent()
            if extent.width > TOLERANCE and extent.height > TOLERANCE and _overlap(extent, box):
                hits.append("bar")
        elif isinstance(patch, Polygon) and not patch.get_fill():  # a step histogram
            if patch.get_transform().transform_path(patch.get_path()).intersects_bbox(box):
                hits.append(f"outline {patch.get_label()!r}")
    return sorted(set(hits))


def figure_problems(fig) -> list[str]:
    """Every rule (a)-(c) the drawn figure breaks, one line each (empty: it reads well)."""
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    canvas.draw()  # runs the layout engine, places titles, creates the drawn ticks
    renderer = canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    texts = collect_texts(fig, renderer)
    problems = []
    # (a) inside the canvas
    for t in texts:
        b = t.bbox
        if b.x0 < -TOLERANCE or b.y0 < -TOLERANCE or b.x1 > width + TOLERANCE:
            problems.append(f"(a) {t.kind} {t.text!r} of {t.where} sticks out of the canvas")
        elif b.y1 > height + TOLERANCE:
            problems.append(f"(a) {t.kind} {t.text!r} of {t.where} sticks out of the canvas")
    # (b) titles and axis labels: clear of each other, of tick labels, notes, nodes and legends
    labels = [t for t in texts if t.kind == "label"]
    others = [t for t in texts if t.kind in ("tick", "note", "node")]
    for i, a in enumerate(labels):
        for b in labels[i + 1 :] + others:
            if _overlap(a.bbox, b.bbox):
                problems.append(
                    f"(b) {a.where} {a.text!r} overlaps {b.kind} {b.text!r} of {b.where}"
                )
    legends = _legend_boxes(fig, renderer)
    for where, _, legend, box in legends:
        own = {id(t) for t in [legend.get_title(), *legend.get_texts()]}
        entries = [t.get_text() for t in legend.get_texts()]
        for t in labels + [t for t in texts if t.kind == "tick"]:
            if id(t) not in own and _overlap(box, t.bbox):
                problems.append(
                    f"(b) the legend {entries} of {where} overlaps {t.kind} {t.text!r} of {t.where}"
                )
    # (c) a legend is not drawn over the data it explains
    for where, ax, legend, box in legends:
        for k, target in enumerate(fig.axes):
            if (ax is None or target is ax) and target.get_visible():
                covered = _covered_data(target, box)
                if covered:
                    entries = [t.get_text() for t in legend.get_texts()]
                    problems.append(
                        f"(c) the legend {entries} of {where} covers data of axes {k}: "
                        + ", ".join(covered)
                    )
    return problems


# -- the story figures --------------------------------------------------------------------------
def _declared():
    out = []
    for module in story_modules():
        for name, _ in getattr(importlib.import_module(module), "figures", list)():
            out.append(pytest.param(module, name, id=f"{module.split('.', 1)[1]}:{name}"))
    return out


FIGURES = _declared()


def _draw(module, name, context):
    size, layout = CONTEXTS[context]
    draw = dict(importlib.import_module(module).figures())[name]
    fig = Figure(figsize=size, layout=layout)
    FigureCanvasAgg(fig)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence notes of the fits are the stories' business
        draw(fig)
    return fig


def test_every_story_module_declares_its_figures():
    assert len(FIGURES) >= 20  # 26 when written; a story that loses its figures() shows here


@pytest.mark.parametrize(("module", "name"), FIGURES)
def test_story_figure_reads_well(module, name):
    problems = []
    for context in CONTEXTS:
        problems += [f"[{context}] {p}" for p in figure_problems(_draw(module, name, context))]
    assert not problems, f"{name} ({module}):\n  " + "\n  ".join(problems)


# -- the gallery runs the stories (one source) ---------------------------------------------------
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_every_story_has_one_gallery_script_that_runs_it():
    """examples/plot_<package>_<story>.py imports its story module, prints its report and draws
    each of its figures by name: the gallery shows what the demo shows, from the same code."""
    scripts = {}
    for script in sorted(EXAMPLES.glob("plot_*.py")):
        match = re.search(r"^from (scratchlearn\.[\w.]+) import (_showcase\w*) as story$",
                          script.read_text(encoding="utf-8"), re.MULTILINE)  # fmt: skip
        assert match, f"{script.name} does not import a story module as `story`"
        scripts.setdefault(f"{match[1]}.{match[2]}", []).append(script)
    assert sorted(scripts) == sorted(story_modules())
    for module, found in scripts.items():
        assert len(found) == 1, f"{module} has several gallery scripts: {found}"
        text = found[0].read_text(encoding="utf-8")
        package = module.split(".")[1]
        assert found[0].name.startswith(f"plot_{package}_"), found[0].name
        assert "print(story.showcase())" in text, found[0].name
        for name, _ in getattr(importlib.import_module(module), "figures", list)():
            assert f'figures["{name}"](fig)' in text, f"{found[0].name} does not draw {name}"
    assert (EXAMPLES / "README.rst").read_text(encoding="utf-8").startswith("Gallery\n=======\n")


# -- the checker can fail -----------------------------------------------------------------------
def _bad_figure():
    """Two adjacent panels with long titles, no layout engine: the titles run into each other."""
    fig = Figure(figsize=(6.4, 4.8))
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2)
    left.set_title("a long title that runs into its neighbour's")
    # Far longer than the panel: past the canvas's right edge by inches, whatever the font
    # metrics of the matplotlib version (3.8's and 3.11's differ by a few pixels).
    right.set_title("and a second long title, cut off at the edge of the canvas by far")
    return fig


def test_checker_finds_overlapping_titles_and_a_clipped_title():
    problems = figure_problems(_bad_figure())
    assert any(
        p.startswith("(b)") and "a long title" in p and "a second long title" in p for p in problems
    ), problems
    assert any(p.startswith("(a)") and "a second long title" in p for p in problems), problems


def test_checker_finds_a_title_clipped_at_both_edges():
    fig = Figure(figsize=(4, 3), layout="constrained")
    fig.add_subplot().set_title("a title far too long for a figure four inches wide, both sides")
    problems = figure_problems(fig)
    # matplotlib 3.8 also reports the title over the top y tick label ('1.0'): the clipping is
    # what this test is about, so it asks only for that problem.
    assert any(p.startswith("(a) label 'a title far") for p in problems), problems


def test_checker_finds_a_legend_over_points_bars_and_a_label():
    fig = Figure(figsize=(9.6, 4.8), layout="constrained")
    ax_points, ax_bars, ax_label = fig.subplots(1, 3)
    ax_points.scatter(np.linspace(0, 1, 50), np.linspace(0, 1, 50), label="points")
    ax_points.legend(loc="upper right")  # the points climb to the upper right corner
    ax_bars.bar([0, 1], [1.0, 0.9], label="bars")
    ax_bars.legend(loc="upper center")  # over the tops of both bars
    ax_label.plot([0, 1], [0, 1], label="a line")
    ax_label.set_xlabel("x label")
    ax_label.legend(loc="upper center", bbox_to_anchor=(0.5, -0.02))  # on the ticks and label
    problems = figure_problems(fig)
    assert any(p.startswith("(c)") and "of axes 0" in p and "scatter" in p for p in problems)
    assert any(p.startswith("(c)") and "of axes 1" in p and "bar" in p for p in problems)
    assert any(p.startswith("(b) the legend ['a line']") and "'x label'" in p for p in problems)
    assert not any("covers data of axes 2" in p for p in problems), problems


def test_checker_passes_a_figure_that_reads_well():
    fig = Figure(figsize=(6.4, 4.8), layout="constrained")
    left, right = fig.subplots(1, 2)
    left.plot([0, 1, 2], [0, 1, 0.5], marker="o", label="a line")
    left.legend(loc="lower center")
    left.set_title("left panel")
    right.set_title("right panel")
    for ax in (left, right):
        ax.set_xlabel("x")
        ax.set_ylabel("y")
    fig.suptitle("a suptitle")
    assert figure_problems(fig) == []

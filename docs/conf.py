"""Sphinx configuration of scratchlearn's documentation (``make docs``).

The site is self-contained: MathJax, fonts and scripts are served from ``_static``, so it builds
and reads with no network. Warnings are errors (``make docs`` passes ``-W``).

Environment switches for writing a chapter quickly (never set by ``make docs``):
``SCRATCHLEARN_DOCS_ONLY="user_guide/trees"`` builds the index and the pages matching these
glob patterns only (comma separated), with no gallery and no API pages.
"""

from __future__ import annotations

import fnmatch
import os
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import scratchlearn  # noqa: E402

project = "scratchlearn"
author = "the scratchlearn developers"
copyright = "2026, the scratchlearn developers"
release = version = scratchlearn.__version__ if hasattr(scratchlearn, "__version__") else "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "sphinx-mathjax-offline",  # MathJax 3 served from _static/mathjax, never from a CDN
    "scratchdocs",
]

ONLY = [p for p in os.environ.get("SCRATCHLEARN_DOCS_ONLY", "").split(",") if p]
templates_path = ["_templates"]
exclude_patterns = ["_build", "_generated", "**.ipynb_checkpoints", "auto_examples/*.ipynb"]
if ONLY:
    extensions.remove("sphinx_gallery.gen_gallery")
    keep = ["index", *ONLY]
    exclude_patterns += [
        str(p.relative_to(HERE).with_suffix("")) + ".rst"
        for p in HERE.rglob("*.rst")
        if "_build" not in p.parts
        and not any(fnmatch.fnmatch(str(p.relative_to(HERE).with_suffix("")), k) for k in keep)
    ]
    suppress_warnings = [
        "toc.excluded",
        "toc.not_readable",
        "toc.not_included",
        "ref.doc",
        "ref.ref",
        "ref.class",
    ]

# numpydoc warns (a Python warning, not a Sphinx one) about sections it does not know, such as
# the estimators' "Dask"; scratchdocs.keep_extra_sections moves them under Notes before numpydoc
# renders a docstring, so their text is on the page and the warning says nothing useful.
warnings.filterwarnings("ignore", message="Unknown section", category=UserWarning)

# -- API reference ---------------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"inherited-members": False}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
numpydoc_xref_param_type = False

# -- the gallery: one script per demo story (examples/) ----------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": str(HERE.parent / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "within_subsection_order": "scratchdocs.story_order",  # the demo's (registry) order
    "show_memory": False,
    "write_computation_times": False,  # its page loads DataTables from a CDN: the site is offline
    "show_signature": False,
    "plot_gallery": "True",
    "abort_on_example_error": True,
}

# -- HTML --------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = "scratchlearn"
html_static_path = ["_static"]
html_css_files = ["scratchlearn.css"]
html_show_sourcelink = False
html_favicon = "_static/favicon.svg"
html_extra_path = ["_extra"]  # favicon.ico at the root, for browsers that ask for it there
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 6,
    "navbar_align": "left",
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
    "secondary_sidebar_items": ["page-toc"],
}
html_context = {"default_mode": "light"}
mathjax3_config = {"tex": {"macros": {"argmin": r"\operatorname{arg\,min}"}}}

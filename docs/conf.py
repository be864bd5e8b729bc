"""Sphinx configuration of the nothanks_lab documentation site.

Build (offline, from the repository root, with the ``docs`` extra installed)::

    sphinx-build -W -b html docs docs/_build/html

The lessons in ``notebooks/`` are the tutorials: before reading sources, the lesson notebooks
are copied into ``docs/tutorials/lessons/`` (gitignored, refreshed only when a notebook changed)
and MyST-NB executes them, caching the outputs in ``docs/_build/.jupyter_cache`` so an
unchanged lesson is not run again.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))

from nothanks_lab.kit.notebooks import is_lesson  # noqa: E402

project = "nothanks_lab"
author = "the nothanks_lab authors"
copyright = "2026, the nothanks_lab authors"
release = "0.1.0"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx_copybutton",
]

exclude_patterns = ["_build", "**/.ipynb_checkpoints", "make_screenshots.py"]
html_theme = "pydata_sphinx_theme"
html_title = "nothanks_lab"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}

myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

# Lessons are executed at build time and cached; a cell gets 300 s (nbval's limit too).
# Their kernels inherit this environment: plotly's "notebook" renderer gives each figure an
# HTML output with plotly.js inlined (nothing from a CDN), which a static page can show; the
# default plotly mimetype is JupyterLab's alone, and MyST-NB would drop it with a warning.
os.environ["PLOTLY_RENDERER"] = "notebook"
nb_execution_mode = "cache"
nb_execution_cache_path = str(DOCS / "_build" / ".jupyter_cache")
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
# No widget manager from a CDN: a static page cannot run the lessons' widgets anyway (each shows
# its text form), and the site stays usable with no internet access.
nb_ipywidgets_js: dict[str, dict[str, str]] = {}

autodoc_member_order = "bysource"
# Inherited docstrings are third-party text (gymnasium's Env.step, say): document our own only.
autodoc_inherit_docstrings = False
autodoc_default_options = {"members": True, "show-inheritance": True, "ignore-module-all": True}
autodoc_typehints = "description"
autosummary_generate = True
napoleon_google_docstring = True
napoleon_numpy_docstring = True


def _copy_lessons() -> None:
    """Copy the lesson notebooks next to the tutorial pages (only those that changed)."""
    target = DOCS / "tutorials" / "lessons"
    target.mkdir(parents=True, exist_ok=True)
    lessons = {p.name: p for p in sorted((ROOT / "notebooks").glob("*.ipynb")) if is_lesson(p)}
    for old in target.glob("*.ipynb"):
        if old.name not in lessons:
            old.unlink()
    for name, src in lessons.items():
        dst = target / name
        if not dst.exists() or dst.read_bytes() != src.read_bytes():
            shutil.copyfile(src, dst)


_copy_lessons()


def _public_modules() -> list[str]:
    """Every public module of the package (no part of its dotted name starts with ``_``)."""
    names = []
    for path in sorted((ROOT / "nothanks_lab").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(p.startswith("_") for p in parts):
            names.append(".".join(parts))
    return names


def _write_api_pages() -> None:
    """One reference page per top-level module or package, each module on it in full.

    Generated at every build (gitignored), so a new module is documented without a list to
    keep up to date. A package's page documents what its ``__init__`` defines, then each
    submodule; names re-exported by a package are documented once, where they are defined.
    """
    target = DOCS / "reference" / "api"
    target.mkdir(parents=True, exist_ok=True)
    groups: dict[str, list[str]] = {}
    for name in _public_modules():
        if name == "nothanks_lab":
            continue
        groups.setdefault(name.split(".")[1], []).append(name)
    pages = []
    for top, modules in sorted(groups.items()):
        lines = [f"# `nothanks_lab.{top}`", ""]
        for module in modules:
            if module != f"nothanks_lab.{top}":
                lines += [f"## `{module}`", ""]
            lines += ["```{eval-rst}", f".. automodule:: {module}", "```", ""]
        text = "\n".join(lines)
        page = target / f"{top}.md"
        if not page.exists() or page.read_text() != text:
            page.write_text(text)
        pages.append(top)
    index = "\n".join(["# Modules", "", "```{toctree}", ":maxdepth: 1", "", *pages, "```", ""])
    if not (target / "index.md").exists() or (target / "index.md").read_text() != index:
        (target / "index.md").write_text(index)


_write_api_pages()

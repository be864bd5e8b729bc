"""The handouts: each student notebook executed and saved as one offline HTML page, and a PDF.

:func:`handout_html` runs a lesson (nbclient) and exports it with nbconvert's lab template,
plotly.js inline once, images embedded, no script or stylesheet fetched from a CDN, a widget's
output replaced by a short note; :func:`online_references` finds anything a page would still
fetch. :func:`print_pdfs` prints pages to PDF with Playwright's Chromium, offline, when
:func:`pdf_unavailable` says it can.
"""

from __future__ import annotations

import copy
import re
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..i18n import N_, _
from .notebooks import _source

__all__ = [
    "CHROMIUM",
    "HandoutError",
    "handout_html",
    "online_references",
    "pdf_unavailable",
    "print_pdfs",
]

# The hidden first cell of a handout: plotly figures carry their HTML (plotly.js inline, once).
_HANDOUT_SETUP = 'import plotly.io as pio\n\npio.renderers.default = "notebook"'
_HIDDEN_TAG = "kit-hidden-input"
# The lab template without the three scripts it loads from a CDN (require.js, MathJax, Mermaid):
# the lessons use none of them, and a handout must open offline.
_OFFLINE_TEMPLATE = """{%- extends 'index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block extra_css -%}
<style>@media print { .jp-OutputArea-output, .plotly-graph-div { break-inside: avoid; } }</style>
{%- endblock extra_css -%}
"""
#: Where the PDF handouts look for a browser (Debian's package; CI installs it).
CHROMIUM = "/usr/bin/chromium"
#: Its command-line switches: headless, no sandbox (root in containers), nothing online.
BROWSER_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
# plotly's "notebook" renderer adds MathJax from a CDN to every figure; the lessons' figures
# hold no LaTeX, so a handout drops it.
_CDN_MATHJAX = re.compile(
    r"<script[^>]*\bsrc=[\"'](?:https?:)?//[^\"']*mathjax[^\"']*[\"'][^>]*>\s*</script>"
)
_WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
_WIDGET_NOTE = N_("[An interactive widget: open the notebook in JupyterLab or Voilà to use it.]")


class HandoutError(RuntimeError):
    """A lesson could not be executed for its handout (a cell failed or timed out)."""


class HandoutInterrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM arrived while a lesson ran for its handout (its kernel is stopped)."""


# ------------------------------------------------------------------ handouts
def _executed(nb: Any, cwd: Path, timeout: int) -> Any:
    import nbformat
    from nbclient import NotebookClient

    run = copy.deepcopy(nb)
    setup = nbformat.v4.new_code_cell(_HANDOUT_SETUP)  # type: ignore[no-untyped-call]
    setup.id = "kit-handout-setup"
    setup.metadata["tags"] = [_HIDDEN_TAG]
    setup.metadata["jupyter"] = {"source_hidden": True}
    run.cells.insert(0, setup)
    client = NotebookClient(
        run,
        timeout=timeout,
        kernel_name="python3",
        store_widget_state=False,  # widget state would pull the widget manager from a CDN
        resources={"metadata": {"path": str(cwd)}},
    )
    try:
        client.execute()
        for cell in run.cells:  # number the cells as the lesson does, without the hidden one
            if cell.get("execution_count"):
                cell.execution_count -= 1
        setup.execution_count = None
    except Exception as e:  # a failing cell, a timeout, a dead kernel: say which lesson
        stop = _interruption(e)
        if stop is not None:  # Ctrl-C, and nbclient's clean-up failed after it
            raise stop from None
        # nbclient handles SIGINT and SIGTERM itself while a notebook runs: it shuts the kernel
        # down (noted in this attribute) and the run then fails with whatever error that
        # gives (an AssertionError in its clean-up): a stop by the user, not a broken lesson.
        if getattr(client, "_async_cleanup_kernel_future", None) is not None:
            raise HandoutInterrupted from None
        lines = str(e).strip().splitlines()
        if lines:
            why = lines[-1]
        else:  # an exception with no message: where it was raised instead
            tb = traceback.extract_tb(e.__traceback__)
            why = f"{Path(tb[-1].filename).name}, line {tb[-1].lineno}" if tb else repr(e)
        raise HandoutError(
            _("the lesson failed while running for its handout ({kind}): {why}").format(
                kind=type(e).__name__, why=why
            )
        ) from e
    return run


def _interruption(exc: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C (or the CLI's SIGTERM, a `KeyboardInterrupt` too) that `exc` happened while
    handling, if any: nbclient tears the kernel down in a ``finally`` whose own error would
    otherwise hide the stop."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return cause
        seen.add(id(cause))
        cause = cause.__context__
    return None


def handout_html(
    nb: Any, *, cwd: str | Path = ".", execute: bool = True, timeout: int = 600
) -> str:
    """Lesson `nb`, executed in `cwd` (unless `execute` is False), as one offline HTML page.

    Plotly figures carry plotly.js inline (once per page), images are embedded, and the page
    loads no script or stylesheet from the internet. A widget's output becomes a short note.
    """
    import jinja2
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    run = _executed(nb, Path(cwd), timeout) if execute else copy.deepcopy(nb)
    run.metadata.pop("widgets", None)
    for cell in run.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/html" in data:
                data["text/html"] = _CDN_MATHJAX.sub("", _source({"source": data["text/html"]}))
            if _WIDGET_MIME in data:
                data.pop(_WIDGET_MIME)
                data.pop("text/html", None)
                data["text/plain"] = _(_WIDGET_NOTE)
    config = Config()
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_input_tags = {_HIDDEN_TAG}
    exporter = HTMLExporter(  # type: ignore[no-untyped-call]
        config=config,
        template_name="lab",
        embed_images=True,
        extra_loaders=[jinja2.DictLoader({"kit_offline.html.j2": _OFFLINE_TEMPLATE})],
        template_file="kit_offline.html.j2",
    )
    body, _resources = exporter.from_notebook_node(run)
    return body


def online_references(page: str) -> list[str]:
    """Scripts, stylesheets, images or modules in `page` that would be fetched from a URL."""
    pattern = re.compile(
        r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=\s*[\"']((?:https?:)?//[^\"']+)"
        r"|\bimport\s*[\"']((?:https?:)?//[^\"']+)"
        r"|@import\s+(?:url\()?[\"']?((?:https?:)?//[^\"')\s]+)",
        re.IGNORECASE,
    )
    return [next(g for g in m.groups() if g) for m in pattern.finditer(page)]


def pdf_unavailable() -> str | None:
    """Why PDF handouts cannot be printed here (None when they can: Playwright + Chromium)."""
    import importlib.util

    if importlib.util.find_spec("playwright") is None:
        return "Python playwright is not installed (pip install playwright)"
    if not Path(CHROMIUM).is_file():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    return None


def print_pdfs(pages: Sequence[Path], *, wait_ms: int = 1000) -> list[Path]:
    """Print each HTML page in `pages` to a PDF beside it with Chromium, offline; the PDFs.

    Every request that is not a local file fails, so a PDF shows what paper would.
    """
    from playwright.sync_api import sync_playwright

    written = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=list(BROWSER_ARGS))
        try:
            page = browser.new_page()
            page.route(
                "**/*",
                lambda r: (
                    r.continue_() if r.request.url.startswith(("file:", "data:")) else r.abort()
                ),
            )
            for html_path in pages:
                page.goto(html_path.resolve().as_uri(), wait_until="load")
                page.wait_for_timeout(wait_ms)  # plotly draws after load
                page.emulate_media(media="print")
                pdf = html_path.with_suffix(".pdf")
                page.pdf(path=str(pdf), format="A4", print_background=True)
                page.emulate_media(media="screen")
                written.append(pdf)
        finally:
            browser.close()
    return written

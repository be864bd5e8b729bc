"""What the real-browser tests share: headless Chromium, a free port, the offline guard.

Used by `test_browser.py` (Voilà) and `test_browser_lab.py` (JupyterLab). Chromium is Debian's
``/usr/bin/chromium`` driven by Playwright, with the flags from shared/TOOLCHAIN.md; any request
a page makes to a host other than the local server is aborted and recorded.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from nothanks_lab.kit.handouts import BROWSER_ARGS

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = list(BROWSER_ARGS)  # the handouts' switches: headless, nothing online
# Widget roots (and every box or HTML widget inside) wider than their box, unless they scroll.
CLIPPED = """() => [...document.querySelectorAll(
        '.jp-OutputArea-output > .jupyter-widgets, .jp-OutputArea-output .widget-box, '
        + '.jp-OutputArea-output .widget-html, .jp-OutputArea-output .widget-html-content')]
    .filter(e => e.getClientRects().length && e.scrollWidth > e.clientWidth + 1
                 && !['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
    .map(e => `${e.className.replace(/lm-Widget|jupyter-widgets|widget-inline-hbox/g, '')
                 .trim()} '${e.innerText.trim().slice(0, 40)}': ${e.scrollWidth} in `
              + `${e.clientWidth}`)"""

# Seat names that wrap onto more than one line (an inline name breaks into several boxes;
# the compact rows' inline-block names must not wrap at all).
WRAPPED_NAMES = """() => [...document.querySelectorAll('.nothanks-seats td:first-child b')]
    .filter(b => b.getClientRects().length > 1
                 || (getComputedStyle(b).display !== 'inline'
                     && getComputedStyle(b).whiteSpace !== 'nowrap'))
    .map(b => b.textContent)"""

# A second click within PlayTable's double-click window (0.3 s) is ignored on purpose.
CLICK_GAP_S = 0.35


def stop(proc: subprocess.Popen[Any], grace_s: float = 10, *, group: bool = False) -> None:
    """End a server started for a test: SIGTERM (it shuts its kernels down), then SIGKILL after
    `grace_s` seconds, to its process group (server and kernels) with `group`."""
    proc.terminate()
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        if group:
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
        proc.wait()


#: The probability explorer's figures once drawn (each stamps data-drawn with performance.now()).
DRAWN = ".nothanks-{kind} .nothanks-figure[data-drawn]"
LAST_ID = """(s) => { const l = document.querySelectorAll(s);
                      return l.length ? l[l.length - 1].id : ''; }"""


def drawn_ids(page: Any) -> list[str]:
    """The ids of the last drawn in-play and gaps figures ('' when none)."""
    return [page.evaluate(LAST_ID, DRAWN.format(kind=k)) for k in ("in-play", "gaps")]


def click_to_figures_s(page: Any, button: Any) -> float:
    """Click `button` (a card of the probability explorer); wait for both figures to redraw.

    Returns the seconds from the click event to the later of the two figures drawn, timed in
    the page.
    """
    page.evaluate(
        "() => { if (!window.__clickWatch) { window.__clickWatch = true; "
        "document.addEventListener('click', () => { window.__clickAt = performance.now(); },"
        " true); } }"
    )
    before = drawn_ids(page)
    button.click()
    page.wait_for_function(
        f"""([s1, s2, b1, b2]) => {{ const last = {LAST_ID};
            return last(s1) !== b1 && last(s2) !== b2 && last(s1) !== '' && last(s2) !== ''; }}""",
        arg=[DRAWN.format(kind="in-play"), DRAWN.format(kind="gaps"), *before],
        timeout=15_000,
    )
    drawn_at = page.evaluate(
        """(sels) => Math.max(...sels.map(s => {
            const l = document.querySelectorAll(s);
            return Number(l[l.length - 1].dataset.drawn); }))""",
        [DRAWN.format(kind="in-play"), DRAWN.format(kind="gaps")],
    )
    return float(drawn_at - page.evaluate("() => window.__clickAt")) / 1000


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Offline:
    """Aborts and records every request a page makes to a host other than the local server."""

    def __init__(self, page: Any) -> None:
        self.foreign: list[str] = []
        page.route("**/*", self._route)

    def _route(self, route: Any) -> None:
        url = route.request.url
        host = urlparse(url).hostname
        if url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            self.foreign.append(url)
            route.abort()


@contextlib.contextmanager
def chromium_page(*, console_errors: bool = True) -> Iterator[tuple[Any, Offline, list[str]]]:
    """A 1024-px-wide page in headless Chromium, watched for foreign requests and JS errors.

    `console_errors`: also count messages the page logs as errors (JupyterLab logs some of its
    own, so its test counts uncaught page errors only).
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1024, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            if console_errors:
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            yield page, Offline(page), errors
        finally:
            browser.close()

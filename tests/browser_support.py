"""What the real-browser tests share: headless Chromium, a free port, the offline guard.

Used by `test_browser.py` (Voilà) and `test_browser_lab.py` (JupyterLab). Chromium is Debian's
``/usr/bin/chromium`` driven by Playwright, with the flags from shared/TOOLCHAIN.md; any request
a page makes to a host other than the local server is aborted and recorded.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
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

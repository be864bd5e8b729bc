"""Take the README's screenshots from real runs: the play table in Voilà and one lesson figure.

Run from the repository root with the test extra installed and Debian's Chromium present:
``python docs/make_screenshots.py``. It serves the app page ``notebooks/play_table_app.ipynb``
with Voilà on 127.0.0.1 (as the browser test does), makes a few moves by clicking, and
photographs the page, in the light theme at 1100 px and in the dark theme at a phone's 390 px;
then renders the run-count figure of lesson 3 (exact versus simulated) as a self-contained page
and photographs that. Writes ``docs/play_table.png``, ``docs/play_table_dark_phone.png`` and
``docs/figure.png``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser_support import CHROMIUM, CHROMIUM_ARGS, free_port  # noqa: E402
from test_browser import NOTEBOOK, wait_until_up  # noqa: E402

from nothanks_lab import plots  # noqa: E402
from nothanks_lab import probability as pr  # noqa: E402


def play_table_png(out: Path, theme: str = "light", width: int = 1100) -> None:
    """Serve the app page, say No thanks! twice, and photograph the table in `theme`."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "voila", str(NOTEBOOK), "--no-browser", f"--port={port}",
         "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", "--template=nothanks"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "JUPYTER_PATH": str(ROOT / "share" / "jupyter")},
    )  # fmt: skip
    try:
        wait_until_up(f"http://127.0.0.1:{port}/voila/static/voila.js", proc)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.goto(f"http://127.0.0.1:{port}/?theme={theme}", timeout=60_000)
            no_thanks = page.get_by_role("button", name="No Thanks!", exact=True)
            for _ in range(2):
                page.wait_for_function(
                    """() => [...document.querySelectorAll('button')].some(
                        b => b.innerText.trim() === 'No Thanks!' && !b.disabled)""",
                    timeout=60_000,
                )
                no_thanks.click()
                time.sleep(0.5)
            page.wait_for_function(
                """() => [...document.querySelectorAll('button')].some(
                    b => b.innerText.trim() === 'Take' && !b.disabled)""",
                timeout=60_000,
            )
            page.screenshot(path=str(out), full_page=True)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def figure_png(out: Path) -> None:
    """Lesson 2's run-count figure (exact versus simulated), photographed in Chromium."""
    from playwright.sync_api import sync_playwright

    fig = plots.plot_run_count(pr.run_count_pmf(), pr.mc_run_count_pmf(n=20_000, seed=7))
    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "figure.html"
        page_file.write_text(plots.figure_html(fig), encoding="utf-8")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1000, "height": 560})
            page.goto(page_file.as_uri())
            page.wait_for_selector(".main-svg")
            page.screenshot(path=str(out))
            browser.close()


if __name__ == "__main__":
    play_table_png(ROOT / "docs" / "play_table.png")
    play_table_png(ROOT / "docs" / "play_table_dark_phone.png", theme="dark", width=390)
    figure_png(ROOT / "docs" / "figure.png")
    print("wrote docs/play_table.png, docs/play_table_dark_phone.png and docs/figure.png")

"""Take the README's screenshots from real runs: the play table in Voilà and one lesson figure.

Run from the repository root with the test extra installed and Debian's Chromium present:
``python docs/make_screenshots.py``. It serves ``notebooks/01_play.ipynb`` with Voilà on
127.0.0.1 (as the browser test does), makes a few moves by clicking, and photographs the page;
then renders the run-count figure of lesson 3 (exact versus simulated) as a self-contained page
and photographs that. Writes ``docs/play_table.png`` and ``docs/figure.png``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from test_browser import CHROMIUM, CHROMIUM_ARGS, NOTEBOOK, free_port, wait_until_up  # noqa: E402

from nothanks_lab import plots  # noqa: E402
from nothanks_lab import probability as pr  # noqa: E402


def play_table_png(out: Path) -> None:
    """Serve the play notebook, say No thanks! twice, and photograph the table."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "voila", str(NOTEBOOK), "--no-browser", f"--port={port}",
         "--Voila.ip=127.0.0.1", "--Voila.port_retries=0"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_until_up(f"http://127.0.0.1:{port}/voila/static/voila.js", proc)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.goto(f"http://127.0.0.1:{port}/", timeout=60_000)
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
    figure_png(ROOT / "docs" / "figure.png")
    print("wrote docs/play_table.png and docs/figure.png")

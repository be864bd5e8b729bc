"""Real-browser test of the play notebook: Voilà serves it, headless Chromium clicks a round.

The contract's Play UI section is checked as a person would meet it: the page of
``notebooks/01_play.ipynb`` shows a dealt round with buttons ``Take`` and ``No Thanks!``; the
test says No thanks! once (so the bots' delayed one-at-a-time moves run in the live kernel),
then takes every card until the text ``Final scores`` appears, and checks every seat's final
score is shown and adds up. Skips only when Debian's ``/usr/bin/chromium`` (or Voilà /
Playwright) is missing; the root ``conftest.py`` turns that skip into a failure under CI.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "01_play.ipynb"
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
# A second click within PlayTable's double-click window (0.3 s) is ignored on purpose.
CLICK_GAP_S = 0.35


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(url: str, proc: subprocess.Popen[bytes], timeout: float = 45.0) -> None:
    """Wait for Voilà to answer on a static file (a GET of / would start a kernel)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"voila exited early with code {proc.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except urllib.error.HTTPError:
            return  # any HTTP answer means the server is up
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"voila did not answer {url} within {timeout} s")


@pytest.fixture
def voila_url(tmp_path: Path) -> Iterator[str]:
    """Serve the play notebook with Voilà on 127.0.0.1 and a free port; stop it afterwards."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium: apt-get install chromium)")
    pytest.importorskip("playwright.sync_api", reason="Python playwright is not installed")
    pytest.importorskip("voila", reason="voila is not installed")
    port = free_port()
    log = (tmp_path / "voila.log").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "voila",
            str(NOTEBOOK),
            "--no-browser",
            f"--port={port}",
            "--Voila.ip=127.0.0.1",
            "--Voila.port_retries=0",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        wait_until_up(f"http://127.0.0.1:{port}/voila/static/voila.js", proc)
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def test_a_round_clicked_through_to_final_scores(voila_url: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(voila_url, timeout=45_000)
            take = page.get_by_role("button", name="Take", exact=True)
            no_thanks = page.get_by_role("button", name="No Thanks!", exact=True)
            take.wait_for(timeout=45_000)
            no_thanks.wait_for(timeout=5_000)
            # Contract: no other button's label contains either word.
            labels = page.get_by_role("button").all_inner_texts()
            assert [x for x in labels if "Take" in x] == ["Take"], labels
            assert [x for x in labels if "No Thanks!" in x] == ["No Thanks!"], labels

            final = page.locator(".nothanks-final")
            log_items = page.locator(".nothanks-log li")
            passes, last_click = 0, 0.0
            deadline = time.monotonic() + 45
            while "Final scores" not in final.inner_text():
                assert time.monotonic() < deadline, "the round did not end within 45 s"
                # Wait for the person's turn (bots move one at a time) or the end.
                page.wait_for_function(
                    """() => {
                        const f = document.querySelector('.nothanks-final');
                        if (f && f.innerText.includes('Final scores')) return true;
                        return [...document.querySelectorAll('button')].some(
                            b => b.innerText.trim() === 'Take' && !b.disabled);
                    }""",
                    timeout=20_000,
                )
                if "Final scores" in final.inner_text():
                    break
                before = log_items.count()
                time.sleep(max(0.0, last_click + CLICK_GAP_S - time.monotonic()))
                if passes < 1 and no_thanks.is_enabled():
                    no_thanks.click()
                    passes += 1
                else:
                    take.click()
                last_click = time.monotonic()
                page.wait_for_function(
                    "n => document.querySelectorAll('.nothanks-log li').length > n",
                    arg=before,
                    timeout=10_000,
                )
            assert passes == 1

            seats = page.locator(".nothanks-table tr").count() - 1
            assert seats >= 3
            rows = final.locator("table tr").all_inner_texts()[1:]
            assert len(rows) == seats, rows
            for row in rows:
                name, points, chips, total = (c.strip() for c in row.split("\t"))
                assert name, row
                assert int(total) == int(points) - int(chips), row
            assert "Seat 0 (you)" in rows[0]
            assert "Removed cards" in final.inner_text()
            assert take.is_disabled() and no_thanks.is_disabled()
        finally:
            browser.close()

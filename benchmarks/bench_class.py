"""A class at once: N Chromium pages open the served play table together (issue 31).

Starts ``nothanks-lab serve-class`` on 127.0.0.1 (a free port; it prints the address only once
its preheated pool is full), then opens N pages at the same moment as N contexts of ONE headless
system Chromium process (a class's machines would not share our CPU, so the measuring browser is
kept as cheap as it can be). For each page it records the server's time to first byte and to
the last byte of the page (Navigation Timing), the time until the table's ``Take`` button is
shown, and the latency of a few clicks. With ``--waves 2`` a second wave of N pages opens
``--wave-gap`` seconds later while the first wave keeps playing. Then every tab is closed
(the shutdown beacon) and, after ``--linger`` seconds, it counts the kernels that served a page
and are still running (leaked), plus RSS/PSS per kernel and the server's CPU seconds per page.
With ``--clients protocol`` the pages are spoken by ``class_clients.py`` instead (the server's
side of a class whose browsers run on the students' machines); ``mixed`` keeps one real page.
Only processes this script started are stopped. Usage:
``python benchmarks/bench_class.py --students 30 [--waves 2] [--moves 5] [--notebook PATH]``.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil

from nothanks_lab.kit.handouts import BROWSER_ARGS

ARGS = [*BROWSER_ARGS, "--disable-extensions", "--renderer-process-limit=4"]
#: PlayTable ignores a second click within 0.3 s on purpose; moves are paced above that.
MOVE_GAP_S = 1.0
#: CPU seconds the measuring browser used from its start to the last move (filled by class_trial).
BROWSER_CPU: list[float] = []
KERNEL_ID = re.compile(r"kernel-([0-9a-f-]{36})\.json")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def kernels(root: psutil.Process) -> dict[str, psutil.Process]:
    """The ipykernel processes under the server, by kernel id (from the connection file)."""
    out = {}
    for c in root.children(recursive=True):
        try:
            m = KERNEL_ID.search(" ".join(c.cmdline()))
        except psutil.Error:
            continue
        if m:
            out[m.group(1)] = c
    return out


def memory(procs: list[psutil.Process]) -> tuple[float, float]:
    """Median RSS and PSS (MB) over the given processes."""
    rss, pss = [], []
    for p in procs:
        try:
            m = p.memory_full_info()
            rss.append(m.rss / 2**20)
            pss.append(getattr(m, "pss", m.rss) / 2**20)
        except psutil.Error:
            pass
    return (statistics.median(rss), statistics.median(pss)) if rss else (0.0, 0.0)


def cpu_seconds(root: psutil.Process) -> float:
    """CPU seconds used so far by the server and every process under it."""
    total = 0.0
    for p in [root, *root.children(recursive=True)]:
        try:
            c = p.cpu_times()
            total += c.user + c.system + c.children_user + c.children_system
        except psutil.Error:
            pass
    return total


def browser_seconds() -> float:
    """CPU seconds used so far by the Chromium processes this script started (via Playwright)."""
    total = 0.0
    for p in psutil.Process().children(recursive=True):
        try:
            if "chrom" in p.name().lower():
                c = p.cpu_times()
                total += c.user + c.system
        except psutil.Error:
            pass
    return total


_NAV = """() => { const n = performance.getEntriesByType('navigation')[0];
  return [n.responseStart / 1000, n.responseEnd / 1000]; }"""
_KERNEL = """() => { const e = document.getElementById('jupyter-config-data');
  return e ? JSON.parse(e.textContent).kernelId : null; }"""


async def open_page(browser: Any, url: str, timeout: float) -> dict[str, Any]:
    """Open one page in its own context; time to first byte, to last byte, to the table."""
    ctx = await browser.new_context()
    page = await ctx.new_page()
    res: dict[str, Any] = {"ok": False, "clicks": [], "ctx": ctx, "page": page}
    t0 = time.perf_counter()
    try:
        await page.goto(url, timeout=timeout * 1000, wait_until="commit")
        take = page.get_by_role("button", name="Take", exact=True)
        await take.first.wait_for(state="visible", timeout=timeout * 1000)
        res["table"] = time.perf_counter() - t0
        res["ok"] = True
        res["ttfb"], res["html"] = await asyncio.wait_for(page.evaluate(_NAV), 30)
        res["kernel"] = await asyncio.wait_for(page.evaluate(_KERNEL), 30)
    except Exception as e:  # a page that never shows a table is a failure, counted
        res["error"] = type(e).__name__
        try:  # bounded: a starved page may not answer at all
            res["kernel"] = await asyncio.wait_for(page.evaluate(_KERNEL), 10)
            line = page.get_by_text("The table did not load")
            res["reload_line"] = await asyncio.wait_for(line.count(), 10) > 0
        except Exception:
            pass
    return res


async def play(res: dict[str, Any], moves: int) -> None:
    """Make ``moves`` moves on a page with a table, timing click to visible update."""
    if not res["ok"]:
        return
    page = res["page"]
    take = page.get_by_role("button", name="Take", exact=True)
    for _ in range(moves):
        await asyncio.sleep(MOVE_GAP_S)
        try:
            if not await take.first.is_visible():
                break  # the round is over
            body = await page.inner_text("body")
            t1 = time.perf_counter()
            await take.first.click(timeout=10_000)
            await page.wait_for_function(
                "b => document.body.innerText !== b", arg=body, timeout=10_000
            )
            res["clicks"].append(time.perf_counter() - t1)
        except Exception:
            res["click_error"] = True
            break


async def class_trial(
    url: str, n: int, waves: int, gap: float, moves: int, timeout: float
) -> list[list[dict[str, Any]]]:
    """Open ``waves`` waves of ``n`` pages (the later ones while the first plays); close all."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        browser0 = browser_seconds()
        done: list[list[dict[str, Any]]] = []
        playing = []
        for w in range(waves):
            if w:
                await asyncio.sleep(gap)
            res = list(await asyncio.gather(*(open_page(browser, url, timeout) for _ in range(n))))
            done.append(res)
            playing += [asyncio.create_task(play(r, moves)) for r in res]
        await asyncio.gather(*playing)
        BROWSER_CPU.append(browser_seconds() - browser0)
        for wave in done:  # closing the tab (beforeunload) sends Voilà's shutdown beacon
            for r in wave:
                await r.pop("page").close(run_before_unload=True)
        await asyncio.sleep(2)
        for wave in done:
            for r in wave:
                await r.pop("ctx").close()
        await browser.close()
    return done


async def trial(url: str, a: argparse.Namespace) -> list[list[dict[str, Any]]]:
    """The class of ``--clients`` kind: waves of pages, browsers, protocol clients or both."""
    import class_clients

    n, waves = a.students, a.waves
    if a.clients == "browser":
        return await class_trial(url, n, waves, a.wave_gap, a.moves, a.timeout)
    k = n if a.clients == "protocol" else n - 1

    async def protocol_waves() -> list[list[dict[str, Any]]]:
        tasks = []
        for w in range(waves):
            if w:
                await asyncio.sleep(a.wave_gap)
            tasks.append(
                asyncio.ensure_future(
                    class_clients.class_of(url, k, a.moves, MOVE_GAP_S, a.timeout)
                )
            )
        return list(await asyncio.gather(*tasks))

    if a.clients == "protocol" or n == 1:
        return await protocol_waves()
    browsers, clients = await asyncio.gather(
        class_trial(url, 1, waves, a.wave_gap, a.moves, a.timeout), protocol_waves()
    )
    return [b + c for b, c in zip(browsers, clients, strict=True)]


def _stats(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.2f} s, max {max(xs):.2f} s" if xs else "none"


def report(res: list[dict[str, Any]], label: str) -> None:
    ok = [r for r in res if r["ok"]]
    print(f"{label}: tables {len(ok)}/{len(res)}, failures {len(res) - len(ok)}")
    kinds = sorted({str(r.get("error")) for r in res if not r["ok"]})
    if kinds:
        said = sum(1 for r in res if r.get("reload_line"))
        print(f"  failure kinds: {', '.join(kinds)}; pages showing the reload line: {said}")
    print(f"  server time to first byte: {_stats([r['ttfb'] for r in ok if 'ttfb' in r])}")
    print(f"  server time to last byte:  {_stats([r['html'] for r in ok])}")
    print(f"  time to table shown:       {_stats([r['table'] for r in ok])}")
    clicks = [c for r in ok for c in r["clicks"]]
    print(f"  click to update:           {_stats(clicks)} ({len(clicks)} clicks)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=5, help="pages per wave")
    ap.add_argument("--waves", type=int, default=1, choices=(1, 2))
    ap.add_argument("--wave-gap", type=float, default=5.0, help="seconds between waves")
    ap.add_argument("--pool", type=int, default=None, help="serve-class --students (default N)")
    ap.add_argument("--notebook", default="notebooks/play_table_app.ipynb")
    ap.add_argument("--moves", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=90.0)
    ap.add_argument("--linger", type=float, default=60.0)
    ap.add_argument(
        "--clients",
        choices=("browser", "protocol", "mixed"),
        default="browser",
        help="browser: N Chromium pages; protocol: N clients speaking the page's own protocol "
        "(class_clients.py: what the server sees of a class whose browsers are elsewhere); "
        "mixed: one Chromium page among N-1 protocol clients",
    )
    a = ap.parse_args()
    if a.students < 1 or a.moves < 0 or a.timeout <= 0 or a.linger < 0 or a.wave_gap < 0:
        ap.error("--students must be >= 1; --moves, --linger, --wave-gap >= 0; --timeout > 0")
    port = _free_port()
    pool = a.pool or a.students
    cmd = [sys.executable, "-m", "nothanks_lab", "serve-class", f"--port={port}"]
    cmd += [f"--students={pool}", f"--notebook={Path(a.notebook)}"]
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.node()}: ")
    print(
        f"  {os.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GB RAM, "
        f"load {os.getloadavg()[0]:.1f}; browsers: one headless Chromium process, "
        f"{a.students} contexts per wave, on the server's own cores at nice {os.nice(0)}"
    )
    t0 = time.perf_counter()
    srv = subprocess.Popen(cmd, start_new_session=True, stdout=subprocess.PIPE, text=True)
    root = psutil.Process(srv.pid)
    try:
        assert srv.stdout is not None
        for line in srv.stdout:  # serve-class prints the address once the pool is full
            print("  serve-class: " + line.rstrip())
            if line.startswith("Ready. Give the students"):
                break
        else:
            print("server did not become ready")
            return 1
        print(f"serve-class --students {pool} ready in {time.perf_counter() - t0:.0f} s")
        os.set_blocking(srv.stdout.fileno(), False)
        before = kernels(root)
        rss, pss = memory(list(before.values()))
        cpu0 = cpu_seconds(root)
        url = f"http://127.0.0.1:{port}/"
        waves = asyncio.run(trial(url, a))
        cpu = cpu_seconds(root) - cpu0
        for i, w in enumerate(waves, 1):
            report(w, f"wave {i} ({a.students} pages at once)")
        used = {r["kernel"] for w in waves for r in w if r.get("kernel")}
        time.sleep(a.linger)
        left = [k for k in kernels(root) if k in used]
        pages = sum(len(w) for w in waves)
        print(f"server CPU during the trial: {cpu:.0f} s ({cpu / pages:.2f} s per page; from 90 s")
        print("  after the first page it includes the pool's refill, one page run per kernel)")
        if BROWSER_CPU:
            b = BROWSER_CPU[0]
            print(f"measuring browser CPU: {b:.0f} s ({b / pages:.2f} s per page, the students'")
            print("  machines' share in a real class; here it runs on the server's own cores)")
        print(f"kernels of closed pages still running {a.linger:.0f} s after closing: {len(left)}")
        print(f"per pooled kernel: RSS {rss:.0f} MB, PSS {pss:.0f} MB")
        print(json.dumps({"pages": pages, "leaked": len(left), "rss_mb": round(rss)}))
    finally:
        srv.send_signal(signal.SIGINT)
        try:
            srv.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(srv.pid, signal.SIGKILL)
    return 0


if __name__ == "__main__":
    sys.exit(main())

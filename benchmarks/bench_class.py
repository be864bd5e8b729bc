"""A class at once: N Chromium pages open the served play table together (issue 31).

Starts ``nothanks-lab serve-class`` on 127.0.0.1 (a free port, pool sized N unless --pool),
waits until the pool is full, opens N pages at the same moment in one headless system Chromium
(one context per page), waits for each table's ``Take`` button, makes a few moves, closes every
page and counts the kernels left after --linger seconds. Prints time to table (median/max),
click latency (median/max), failures, kernels left and RSS/PSS per kernel. Only processes this
script started are stopped. Usage:
``python benchmarks/bench_class.py --students 30 [--notebook PATH] [--moves 5]``.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def kernels(root: psutil.Process) -> list[psutil.Process]:
    """The ipykernel processes under the server."""
    out = []
    for c in root.children(recursive=True):
        try:
            if "ipykernel" in " ".join(c.cmdline()):
                out.append(c)
        except psutil.NoSuchProcess:
            pass
    return out


def memory(procs: list[psutil.Process]) -> tuple[float, float]:
    """Median RSS and PSS (MB) over the given processes."""
    rss, pss = [], []
    for p in procs:
        try:
            m = p.memory_full_info()
            rss.append(m.rss / 2**20)
            pss.append(getattr(m, "pss", m.rss) / 2**20)
        except psutil.NoSuchProcess:
            pass
    return (statistics.median(rss), statistics.median(pss)) if rss else (0.0, 0.0)


async def one_page(browser, url: str, moves: int, timeout: float) -> dict:
    ctx = await browser.new_context()
    page = await ctx.new_page()
    t0 = time.perf_counter()
    res: dict = {"ok": False, "clicks": []}
    try:
        await page.goto(url, timeout=timeout * 1000)
        take = page.get_by_role("button", name="Take", exact=True)
        await take.first.wait_for(state="visible", timeout=timeout * 1000)
        res["table"] = time.perf_counter() - t0
        res["ok"] = True
        for _ in range(moves):
            body = await page.inner_text("body")
            t1 = time.perf_counter()
            await take.first.click(timeout=10_000)
            try:
                await page.wait_for_function(
                    "b => document.body.innerText !== b", arg=body, timeout=10_000
                )
                res["clicks"].append(time.perf_counter() - t1)
            except Exception:
                break
    except Exception as e:  # a page that never shows a table is a failure, counted
        res["error"] = type(e).__name__
    res["ctx"], res["page"] = ctx, page
    return res


async def wave(url: str, n: int, moves: int, timeout: float) -> list[dict]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        results = await asyncio.gather(*(one_page(browser, url, moves, timeout) for _ in range(n)))
        for r in results:  # closing the tab (beforeunload) sends Voilà's shutdown beacon
            await r.pop("page").close(run_before_unload=True)
        await asyncio.sleep(2)
        for r in results:
            await r.pop("ctx").close()
        await browser.close()
    return list(results)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=5)
    ap.add_argument("--pool", type=int, default=None)
    ap.add_argument("--notebook", default="notebooks/play_table_app.ipynb")
    ap.add_argument("--moves", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--linger", type=float, default=30.0)
    a = ap.parse_args()
    port = _free_port()
    pool = a.pool or a.students
    cmd = [sys.executable, "-m", "nothanks_lab", "serve-class", f"--port={port}"]
    cmd += [f"--students={pool}", f"--notebook={Path(a.notebook)}"]
    srv = subprocess.Popen(cmd, start_new_session=True)
    root = psutil.Process(srv.pid)
    try:
        t0 = time.perf_counter()
        while True:  # ready: the static file answers and the pool is full
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/static/voila.js", timeout=2)
                if len(kernels(root)) >= pool:
                    break
            except OSError:
                pass
            if time.perf_counter() - t0 > 60 + 15 * pool or srv.poll() is not None:
                print("server did not become ready")
                return 1
            time.sleep(1)
        quiet, last = 0, -1.0  # pooled kernels have run the page: their CPU time stops growing
        while quiet < 3 and time.perf_counter() - t0 < 120 + 15 * pool:
            used = 0.0
            for k in kernels(root):
                try:
                    c = k.cpu_times()
                    used += c.user + c.system
                except psutil.NoSuchProcess:
                    pass
            quiet = quiet + 1 if used - last < 0.3 else 0
            last = used
            time.sleep(2)
        rss, pss = memory(kernels(root))
        print(f"pool of {pool} ready in {time.perf_counter() - t0:.0f} s")
        res = asyncio.run(wave(f"http://127.0.0.1:{port}/", a.students, a.moves, a.timeout))
        ok = [r for r in res if r["ok"]]
        tt = [r["table"] for r in ok]
        cl = [c for r in ok for c in r["clicks"]]
        time.sleep(a.linger)
        left = len(kernels(root))
        print(
            f"students {a.students}: tables {len(ok)}/{a.students}, failures {len(res) - len(ok)}"
        )
        errors = sorted({str(r.get("error")) for r in res if not r["ok"]})
        if errors:
            print(f"failure kinds: {', '.join(errors)}")
        if tt:
            print(f"time to table median {statistics.median(tt):.2f} s, max {max(tt):.2f} s")
        if cl:
            print(f"click latency median {statistics.median(cl):.2f} s, max {max(cl):.2f} s")
        print(f"kernels {a.linger:.0f} s after closing: {left} (pool refilled to {pool})")
        print(f"per kernel: RSS {rss:.0f} MB, PSS {pss:.0f} MB")
    finally:
        srv.send_signal(signal.SIGINT)
        try:
            srv.wait(timeout=60)
        except subprocess.TimeoutExpired:
            srv.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())

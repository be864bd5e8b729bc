"""Serve the play table to a whole class from one machine: ``nothanks-lab serve-class``.

This module turns the issue-31 findings into one command. It starts Voilà (as a child process)
on the app page (``notebooks/play_table_app.ipynb`` by default) with the offline ``nothanks``
template, a preheated kernel pool sized from the number of students (Voilà runs the page in
each pooled kernel before anyone arrives, so a page load only hands out a ready kernel), culling
of idle kernels, IOPub/kernel timeouts long enough for a loaded machine, and ipc transport for
kernels (no TCP ports, so no ``Address already in use`` race when many kernels start at once).
It prints the address only once every pooled kernel has run the page (a progress line while it
waits), and pages skip the lab extensions the app never uses (less JavaScript per page).
The template fixes the refused shutdown beacon (see its ``xsrf`` block). Ctrl-C stops Voilà,
which shuts its kernels down; any kernel process still alive after that is killed, so none is
left. Argument checks run before anything starts and raise ``ValueError`` (exit 2 in the CLI).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    import psutil

DEFAULT_NOTEBOOK = Path("notebooks") / "play_table_app.ipynb"
TEMPLATE = "nothanks"
MAX_STUDENTS = 500
#: Seconds a kernel with no activity is kept before it is culled (documented in the README).
CULL_IDLE_TIMEOUT = 600
CULL_INTERVAL = 60
#: Seconds Voilà waits before refilling the pool after a page took a kernel. The arrival burst
#: is served first: refills started during it compete with the pages for the CPU (measured on
#: 2 cores: 30 refills 30 s after 30 arrivals pushed every page past 90 s, 0/30 tables).
REFILL_DELAY = 10
#: JupyterLab front-end extensions that the app page never uses (lesson and grading tools).
SKIPPED_EXTENSIONS = (
    "@jupyter/nbgrader",
    "@jupyter-notebook/lab-extension",
    "@voila-dashboards/jupyterlab-preview",
)
#: Skipped too for the app page, whose table uses plain ipywidgets only: plotly's front end
#: alone is 4.7 MB of JavaScript that each page would parse.
APP_SKIPPED_EXTENSIONS = ("jupyterlab-plotly", "anywidget")
#: Seconds to wait for the whole pool to be preheated before giving the address anyway.
PREHEAT_WAIT = 900

_REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class ServeSettings:
    """What ``serve-class`` runs: checked arguments and the resolved paths."""

    notebook: Path
    port: int
    ip: str
    students: int
    cull_idle_timeout: int = CULL_IDLE_TIMEOUT
    cull_interval: int = CULL_INTERVAL

    @property
    def pool_size(self) -> int:
        """Kernels preheated: one per student and a few spare (a reload, a late second tab)."""
        return self.students + max(2, self.students // 10)


def _jupyter_share() -> Path:
    """The ``share/jupyter`` folder holding the offline template (checkout or installed)."""
    for base in (_REPO / "share" / "jupyter", Path(sys.prefix) / "share" / "jupyter"):
        if (base / "voila" / "templates" / TEMPLATE).is_dir():
            return base
    raise ValueError(
        f"the Voilà template {TEMPLATE!r} was not found in {_REPO / 'share/jupyter'} "
        f"or {Path(sys.prefix) / 'share/jupyter'}; install the package with its data files "
        "(pip install '.[class]')"
    )


def check_settings(
    *,
    port: int = 8866,
    ip: str = "127.0.0.1",
    students: int = 30,
    notebook: str | os.PathLike[str] | None = None,
    cull_idle_timeout: int = CULL_IDLE_TIMEOUT,
    cull_interval: int = CULL_INTERVAL,
) -> ServeSettings:
    """Check every argument of ``serve-class``; ``ValueError`` naming the bad one."""
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ValueError(f"--port must be an integer from 1 to 65535, got {port!r}")
    if isinstance(students, bool) or not isinstance(students, int):
        raise ValueError(f"--students must be an integer, got {students!r}")
    if not 1 <= students <= MAX_STUDENTS:
        raise ValueError(f"--students must be from 1 to {MAX_STUDENTS}, got {students}")
    if not isinstance(ip, str) or not ip:
        raise ValueError(f"--ip must be an address such as 127.0.0.1 or 0.0.0.0, got {ip!r}")
    try:
        socket.getaddrinfo(ip, None)
    except (socket.gaierror, UnicodeError) as e:
        raise ValueError(f"--ip {ip!r} is not an address of this machine's kind: {e}") from None
    for name, value in (("cull_idle_timeout", cull_idle_timeout), ("cull_interval", cull_interval)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
    path = Path(notebook) if notebook is not None else DEFAULT_NOTEBOOK
    if not path.is_absolute() and not path.exists() and (_REPO / path).exists():
        path = _REPO / path
    if path.suffix != ".ipynb" or not path.is_file():
        raise ValueError(f"--notebook must be an existing .ipynb file, got {str(path)!r}")
    return ServeSettings(
        notebook=path.resolve(),
        port=port,
        ip=ip,
        students=students,
        cull_idle_timeout=cull_idle_timeout,
        cull_interval=cull_interval,
    )


def skipped_extensions(s: ServeSettings) -> tuple[str, ...]:
    """The lab extensions the served page's browsers do not load."""
    if s.notebook.name == DEFAULT_NOTEBOOK.name:
        return SKIPPED_EXTENSIONS + APP_SKIPPED_EXTENSIONS
    return SKIPPED_EXTENSIONS


def voila_command(s: ServeSettings) -> list[str]:
    """The Voilà command line for these settings (run with the current interpreter)."""
    return [
        sys.executable,
        "-m",
        "voila",
        str(s.notebook),
        f"--template={TEMPLATE}",
        "--no-browser",
        f"--port={s.port}",
        f"--Voila.ip={s.ip}",
        "--Voila.port_retries=0",
        # One kernel per expected student (and a few spare), each running the page before
        # anyone arrives; Voilà refills the pool as pages take kernels, after the burst.
        "--preheat_kernel=True",
        f"--pool_size={s.pool_size}",
        f"--VoilaKernelManager.fill_delay={REFILL_DELAY}",
        # Kernels talk over Unix sockets: no TCP port to race for at 30 simultaneous starts.
        "--KernelManager.transport=ipc",
        # Idle kernels (a tab left open, a beacon lost) are culled; pooled kernels are not.
        f"--MappingKernelManager.cull_idle_timeout={s.cull_idle_timeout}",
        f"--MappingKernelManager.cull_interval={s.cull_interval}",
        "--MappingKernelManager.cull_connected=False",
        # A loaded machine answers slowly: wait for outputs instead of dropping them.
        "--VoilaExecutor.iopub_timeout=60",
        "--VoilaExecutor.timeout=300",
        "--VoilaExecutor.startup_timeout=300",
        "--MappingKernelManager.kernel_info_timeout=120",
        # A page streamed slowly gets Voilà's heartbeat before a proxy or browser gives up.
        "--VoilaConfiguration.http_keep_alive_timeout=10",
        # Pages skip the front-end extensions a page never needs (installed with the test or
        # lesson tools): each one is JavaScript every page would load, and nbgrader's fails.
        *(f"--VoilaConfiguration.extension_denylist={e}" for e in skipped_extensions(s)),
    ]


def voila_env(s: ServeSettings) -> dict[str, str]:
    """The environment for Voilà: the offline template first on ``JUPYTER_PATH``."""
    env = dict(os.environ)
    share = str(_jupyter_share())
    old = env.get("JUPYTER_PATH")
    env["JUPYTER_PATH"] = share + (os.pathsep + old if old else "")
    return env


def addresses(s: ServeSettings) -> list[str]:
    """The addresses to give students for these settings."""
    if s.ip not in ("0.0.0.0", "::", ""):
        host = f"[{s.ip}]" if ":" in s.ip else s.ip
        return [f"http://{host}:{s.port}/"]
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found = sorted({str(i[4][0]) for i in infos if not str(i[4][0]).startswith("127.")})
    except OSError:
        pass
    return [f"http://{a}:{s.port}/" for a in found] or [f"http://{socket.gethostname()}:{s.port}/"]


def _kill_tree_left(pids: set[int]) -> int:
    """Kill the given processes if still alive (kernels Voilà did not stop); how many."""
    import psutil

    left = []
    for pid in pids:
        try:
            p = psutil.Process(pid)
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                left.append(p)
        except psutil.NoSuchProcess:
            continue
    for p in left:
        p.kill()
    psutil.wait_procs(left, timeout=5)
    return len(left)


def _kernel_procs(root: psutil.Process) -> list[psutil.Process]:
    """The kernel processes under Voilà."""
    import psutil

    found = []
    for c in root.children(recursive=True):
        try:
            if "ipykernel" in " ".join(c.cmdline()):
                found.append(c)
        except psutil.Error:
            continue
    return found


#: A pooled kernel has run the page once its CPU time passed this and then stopped growing.
_READY_CPU_S = 0.5
_QUIET_S = 3


#: Voilà itself is done pre-rendering once its own CPU grows less than this per second.
_SERVER_QUIET_CPU_S = 0.05


def wait_for_pool(proc: subprocess.Popen[bytes], size: int, out: TextIO) -> set[int]:
    """Wait until ``size`` kernels run under Voilà, each has run the page, and Voilà is idle.

    A kernel has run the page once its CPU has gone quiet; Voilà then still renders each pooled
    page's HTML in its one thread (about 0.15 s each), and pages asked for meanwhile wait for all
    of it (measured: 30 pages asked at once right after the kernels went quiet took 9-12 s,
    40 s later 0.2 s). So the pool is ready when Voilà's own CPU has gone quiet too. Prints a
    progress line when the count changes; gives up after ``PREHEAT_WAIT`` seconds or if Voilà
    exits. Returns the kernel process ids seen.
    """
    import psutil

    root = psutil.Process(proc.pid)
    cpu: dict[int, float] = {}
    quiet: dict[int, int] = {}
    server_cpu, server_quiet = -1.0, 0
    seen: set[int] = set()
    said = (-1, -1)
    deadline = time.monotonic() + PREHEAT_WAIT
    while proc.poll() is None and time.monotonic() < deadline:
        ks = _kernel_procs(root)
        seen.update(k.pid for k in ks)
        for k in ks:
            try:
                t = k.cpu_times()
            except psutil.Error:
                continue
            used = t.user + t.system
            still = used - cpu.get(k.pid, -1.0) < 0.02 and used >= _READY_CPU_S
            quiet[k.pid] = quiet.get(k.pid, 0) + 1 if still else 0
            cpu[k.pid] = used
        ready = sum(1 for k in ks if quiet.get(k.pid, 0) >= _QUIET_S)
        try:
            t = root.cpu_times()
            used = t.user + t.system
        except psutil.Error:
            used = server_cpu
        server_quiet = server_quiet + 1 if used - server_cpu < _SERVER_QUIET_CPU_S else 0
        server_cpu = used
        if (len(ks), ready) != said:
            said = (len(ks), ready)
            print(f"preheating: {len(ks)}/{size} kernels started, {ready} ready", file=out)
            out.flush()
        if ready >= size and server_quiet >= _QUIET_S:
            break
        time.sleep(1.0)
    return seen


def serve_class(s: ServeSettings, *, stream: TextIO | None = None) -> int:
    """Run Voilà for a class until Ctrl-C (or Voilà exits); return Voilà's exit status."""
    import psutil

    out = stream if stream is not None else sys.stdout
    env = voila_env(s)
    proc = subprocess.Popen(voila_command(s), env=env, start_new_session=True)
    print(
        f"Preheating {s.pool_size} kernels for {s.students} students "
        f"({s.notebook.name}); the address follows when they are ready.",
        file=out,
        flush=True,
    )
    seen: set[int] = set()
    try:
        seen = wait_for_pool(proc, s.pool_size, out)
        print(
            "Ready. Give the students: "
            + "  ".join(addresses(s))
            + f"\n(idle kernels are culled after {s.cull_idle_timeout} s; the pool refills "
            f"{REFILL_DELAY} s after pages take kernels; Ctrl-C stops the server and every kernel)",
            file=out,
            flush=True,
        )
        while proc.poll() is None:
            try:
                seen.update(c.pid for c in psutil.Process(proc.pid).children(recursive=True))
            except psutil.NoSuchProcess:
                break
            time.sleep(1.0)
    except KeyboardInterrupt:
        pass
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # Voilà stops its server and shuts kernels down
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        killed = _kill_tree_left(seen)
        print(
            "Stopped: no kernel left"
            + (f" ({killed} killed after Voilà stopped)" if killed else ""),
            file=out,
            flush=True,
        )
    return 0 if proc.returncode in (0, -signal.SIGINT, 130) else int(proc.returncode or 0)

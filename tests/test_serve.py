"""Tests of ``nothanks-lab serve-class`` (nothanks_lab/serve.py): argument checks and a class.

The fast tests check that bad arguments stop the command with a clear message and exit 2
before anything starts, and what the Voilà command line sets. The browser test serves a
stand-in app page with a pool of 2, opens 3 pages in headless Chromium, checks each shows the
table, closes them (the shutdown beacon) and checks the kernels go back to the pool, then
stops the server with Ctrl-C and checks no kernel process is left.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import psutil
import pytest
from browser_support import CHROMIUM, CHROMIUM_ARGS, free_port

from nothanks_lab.__main__ import main
from nothanks_lab.serve import _kernel_procs, check_settings, voila_command, voila_env

ROOT = Path(__file__).resolve().parents[1]


def app_page(folder: Path) -> Path:
    """A stand-in for notebooks/play_table_app.ipynb: a title and the table."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# No Thanks!"),
        nbformat.v4.new_code_cell("import nothanks_lab as nt\nnt.widgets.PlayTable()"),
    ]
    path = folder / "play_table_app.ipynb"
    nbformat.write(nb, path)
    return path


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--port", "0"], "--port"),
        (["--port", "70000"], "--port"),
        (["--students", "0"], "--students"),
        (["--students", "-3"], "--students"),
        (["--notebook", "no/such/page.ipynb"], "--notebook"),
        (["--cull-idle-timeout", "0"], "--cull-idle-timeout"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(
    argv: list[str], needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = app_page(tmp_path)
    full = ["serve-class", "--notebook", str(page), *argv]
    assert main(full) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and needle in err


def test_the_template_says_when_the_table_did_not_load_and_offers_a_reload() -> None:
    page = (ROOT / "share/jupyter/voila/templates/nothanks/index.html.j2").read_text()
    header = page[page.index("{%- block body_header -%}") : page.index("{%- endblock body_header")]
    assert "The table did not load. " in header and '"Reload the page"' in header
    assert "window.location.reload()" in header


def test_a_notebook_that_is_not_ipynb_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "page.txt"
    other.write_text("x")
    with pytest.raises(ValueError, match="--notebook"):
        check_settings(notebook=other)


def test_the_voila_command_sets_pool_culling_timeouts_and_template(tmp_path: Path) -> None:
    s = check_settings(port=9123, ip="127.0.0.1", students=7, notebook=app_page(tmp_path))
    cmd = voila_command(s)
    assert str(s.notebook) in cmd
    for flag in (
        "--template=nothanks",
        "--port=9123",
        "--Voila.ip=127.0.0.1",
        "--preheat_kernel=True",
        "--pool_size=9",  # one per student and 2 spare
        "--VoilaKernelManager.fill_delay=10",
        "--MappingKernelManager.kernel_info_timeout=120",
        "--VoilaConfiguration.extension_denylist=@jupyter/nbgrader",
        "--KernelManager.transport=ipc",
        "--MappingKernelManager.cull_idle_timeout=600",
    ):
        assert flag in cmd
    app = check_settings(students=30, notebook=app_page(tmp_path))
    assert app.pool_size == 33
    # The app page (PlayTable, plain ipywidgets) skips plotly's front end; another page keeps it.
    assert "--VoilaConfiguration.extension_denylist=jupyterlab-plotly" in voila_command(app)
    other = tmp_path / "lesson.ipynb"
    other.write_text((tmp_path / "play_table_app.ipynb").read_text())
    lesson = voila_command(check_settings(notebook=other))
    assert "--VoilaConfiguration.extension_denylist=jupyterlab-plotly" not in lesson
    assert "--VoilaConfiguration.extension_denylist=@jupyter/nbgrader" in lesson
    share = voila_env(s)["JUPYTER_PATH"].split(os.pathsep)[0]
    assert (Path(share) / "voila" / "templates" / "nothanks" / "index.html.j2").is_file()


async def _open_and_close(url: str, n: int) -> list[bool]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        ctxs = [await browser.new_context() for _ in range(n)]
        pages = [await c.new_page() for c in ctxs]

        async def table(page) -> bool:
            await page.goto(url, timeout=120_000)
            take = page.get_by_role("button", name="Take", exact=True)
            await take.first.wait_for(state="visible", timeout=120_000)
            return True

        shown = await asyncio.gather(*(table(p) for p in pages), return_exceptions=True)
        for p in pages:
            await p.close(run_before_unload=True)
        await asyncio.sleep(1)
        await browser.close()
    return [s is True for s in shown]


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")
def test_three_pages_on_a_pool_of_two_get_tables_and_leak_no_kernel(tmp_path: Path) -> None:
    port = free_port()
    page = app_page(tmp_path)
    cmd = [sys.executable, "-m", "nothanks_lab", "serve-class", f"--port={port}"]
    cmd += ["--students=2", f"--notebook={page}", "--cull-idle-timeout=20"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    log = (tmp_path / "serve.log").open("wb")
    srv = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    root = psutil.Process(srv.pid)
    seen: set[int] = set()
    try:
        deadline = time.monotonic() + 180
        while len(_kernel_procs(root)) < 2:
            assert srv.poll() is None and time.monotonic() < deadline, "pool never filled"
            time.sleep(1)
        urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/static/voila.js", timeout=10)
        shown = asyncio.run(_open_and_close(f"http://127.0.0.1:{port}/", 3))
        assert shown == [True, True, True]
        # The 3 used kernels are shut down (beacon, else culled after 20 s); the pool refills to 2.
        # (A liveness bound, not a speed target: 60 s was missed by 0.4 s in a CI run on a
        # loaded 2-core machine, the suite's other worker and other work beside it.)
        deadline = time.monotonic() + 150
        while True:
            ks = _kernel_procs(root)
            seen.update(k.pid for k in ks)
            if len(ks) <= 2:
                break
            assert time.monotonic() < deadline, f"{len(ks)} kernels still running"
            time.sleep(1)
        assert "'_xsrf' argument missing" not in (tmp_path / "serve.log").read_text()
        seen.update(k.pid for k in _kernel_procs(root))
    finally:
        srv.send_signal(signal.SIGINT)
        srv.wait(timeout=60)
        log.close()
    assert srv.returncode == 0
    alive = [p for p in seen if psutil.pid_exists(p) and psutil.Process(p).status() != "zombie"]
    assert alive == [], "kernels left after Ctrl-C"
    assert "Stopped: no kernel left" in (tmp_path / "serve.log").read_text()


# --- deploy/: the JupyterHub configurations, checked offline ---------------------------------

DEPLOY = ROOT / "deploy"
# The z2jh keys used, each as documented in the chart's configuration reference.
Z2JH_KEYS = {
    "singleuser": {
        "image": {"name", "tag"},
        "defaultUrl": None,
        "extraEnv": None,
        "cmd": None,
        "memory": {"limit", "guarantee"},
        "cpu": {"limit", "guarantee"},
        "storage": {"type"},
        "startTimeout": None,
    },
    "hub": {"config": None, "concurrentSpawnLimit": None},
    "cull": {"enabled", "timeout", "every"},
    "scheduling": {
        "userScheduler": {"enabled"},
        "podPriority": {"enabled"},
        "userPlaceholder": {"enabled", "replicas"},
    },
    "prePuller": {"continuous": {"enabled"}},
}


def _unknown_keys(values: dict, known: dict | set | None, where: str = "") -> list[str]:
    if known is None:
        return []
    bad = []
    for key, value in values.items():
        if key not in known:
            bad.append(where + key)
        elif isinstance(known, dict) and isinstance(value, dict):
            bad += _unknown_keys(value, known[key], f"{where}{key}.")
    return bad


def test_the_jupyterhub_config_compiles_and_opens_each_student_on_the_app() -> None:
    from traitlets.config import Config

    from nothanks_lab.serve import CULL_IDLE_TIMEOUT

    c = Config()
    source = (DEPLOY / "jupyterhub_config.py").read_text()
    exec(compile(source, "jupyterhub_config.py", "exec"), {"get_config": lambda: c})
    url = c.Spawner.default_url
    assert (
        url.startswith("/voila/render/") and (ROOT / url.removeprefix("/voila/render/")).is_file()
    )
    assert "--VoilaConfiguration.template=nothanks" in c.Spawner.args
    assert c.Spawner.mem_limit.endswith("M") and int(c.Spawner.mem_limit[:-1]) >= 300
    (service,) = c.JupyterHub.services
    assert service["command"][:3] == ["python3", "-m", "jupyterhub_idle_culler"]
    assert f"--timeout={CULL_IDLE_TIMEOUT}" in service["command"]
    (role,) = c.JupyterHub.load_roles
    assert role["services"] == [service["name"]] and "delete:servers" in role["scopes"]


def test_the_z2jh_values_parse_with_documented_keys_only() -> None:
    import yaml

    from nothanks_lab.serve import CULL_IDLE_TIMEOUT

    values = yaml.safe_load((DEPLOY / "values.yaml").read_text())
    assert _unknown_keys(values, Z2JH_KEYS) == []
    single = values["singleuser"]
    assert (ROOT / single["defaultUrl"].removeprefix("/voila/render/")).is_file()
    assert (
        "--VoilaConfiguration.template=nothanks" in values["hub"]["config"]["KubeSpawner"]["args"]
    )
    assert values["cull"] == {"enabled": True, "timeout": CULL_IDLE_TIMEOUT, "every": 60}
    assert values["scheduling"]["userPlaceholder"]["replicas"] >= 30

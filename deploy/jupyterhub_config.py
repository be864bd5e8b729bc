"""JupyterHub settings for serving the No Thanks! play table to a class, one Voilà page per student.

For The Littlest JupyterHub (TLJH) copy this file to
``/opt/tljh/config/jupyterhub_config.d/nothanks.py`` and run ``sudo tljh-config reload``; for a
plain JupyterHub pass it with ``jupyterhub -f deploy/jupyterhub_config.py``. Each student's own
single-user server opens straight on the app page rendered by Voilà (installed in the users'
environment with ``pip install 'nothanks_lab[class]'``, which also installs the offline
``nothanks`` template), so no student shares a kernel or a CPU queue with another. Limits keep
one student from starving the others; idle servers are stopped by JupyterHub's idle culler.
The numbers (memory, culling) are the ones measured with ``benchmarks/bench_class.py``.
"""

# ``c`` is given by JupyterHub when it loads this file; ``get_config`` for a stand-alone check.
c = get_config()  # type: ignore[name-defined]  # noqa: F821

#: The app page, relative to each user's home (a checkout of this repository, e.g. by nbgitpuller).
APP_PAGE = "notebooks/play_table_app.ipynb"
#: Seconds without activity after which a student's server is stopped (as serve-class culls).
IDLE_TIMEOUT = 600

# Students land on the app page, rendered by Voilà's server extension with the offline template.
c.Spawner.default_url = f"/voila/render/{APP_PAGE}"
c.Spawner.args = ["--VoilaConfiguration.template=nothanks"]
c.Spawner.environment = {"NUMBA_CACHE_DIR": "/tmp/numba-cache"}
# One kernel of the play table is about 250 MB RSS (measured); leave room for the server itself.
c.Spawner.mem_limit = "600M"
c.Spawner.cpu_limit = 1.0
c.Spawner.http_timeout = 120
c.Spawner.start_timeout = 300
# A class arrives at once: let the hub start many servers concurrently.
c.JupyterHub.concurrent_spawn_limit = 100

# Idle culling: the standard jupyterhub-idle-culler service (pip install jupyterhub-idle-culler;
# TLJH ships its own culler, configured with ``tljh-config set services.cull.timeout 600``).
c.JupyterHub.load_roles = [
    {
        "name": "jupyterhub-idle-culler-role",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["jupyterhub-idle-culler-service"],
    }
]
c.JupyterHub.services = [
    {
        "name": "jupyterhub-idle-culler-service",
        "command": [
            "python3",
            "-m",
            "jupyterhub_idle_culler",
            f"--timeout={IDLE_TIMEOUT}",
            "--cull-every=60",
        ],
    }
]

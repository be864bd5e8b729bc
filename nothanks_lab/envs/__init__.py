"""Standard reinforcement-learning environments of No Thanks! (optional extra ``rl``).

- `aec_env(n_players=3, *, rules=None, reward="win_share", render_mode=None)`: a PettingZoo
  AEC environment of one round (:mod:`.aec`);
- `NoThanksEnv(opponents, *, n_players=None, seat=0, rules=None, reward="win_share")`: a
  Gymnasium environment for one seat against bots (:mod:`.single`);
- `VectorNoThanksEnv(num_envs, opponents, ...)`: a compiled, auto-resetting
  ``gymnasium.vector.VectorEnv`` against fast-path bots (:mod:`.vector`);
- `openspiel.register()`: the OpenSpiel Python game ``"python_no_thanks"`` (:mod:`.openspiel`,
  extra ``openspiel``).

All three run the one rules engine (:mod:`nothanks_lab.core`) and share one observation
encoding (:mod:`.encoding`). This package imports without Gymnasium and PettingZoo; its
environments load them on first use and say how to install them if they are missing
(``pip install -e ".[rl]"``).
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["NoThanksEnv", "VectorNoThanksEnv", "aec_env", "encoding", "openspiel"]

_WHERE = {
    "aec_env": "aec",
    "NoThanksAEC": "aec",
    "NoThanksEnv": "single",
    "VectorNoThanksEnv": "vector",
}


def __getattr__(name: str) -> Any:
    """Load an environment (and Gymnasium / PettingZoo) on first use."""
    if name == "encoding":
        return importlib.import_module(f"{__name__}.encoding")
    if name == "openspiel":
        try:
            return importlib.import_module(f"{__name__}.openspiel")
        except ModuleNotFoundError as e:
            if e.name != "pyspiel":
                raise
            raise ImportError(
                'nothanks_lab.envs.openspiel needs OpenSpiel: pip install -e ".[openspiel]" '
                "(or pip install open_spiel)"
            ) from e
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        module = importlib.import_module(f"{__name__}.{where}")
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] in ("gymnasium", "pettingzoo"):
            raise ImportError(
                f"nothanks_lab.envs.{name} needs the optional extra 'rl' ({e.name} is not "
                'installed): pip install -e ".[rl]" (or pip install gymnasium pettingzoo)'
            ) from e
        raise
    return getattr(module, name)

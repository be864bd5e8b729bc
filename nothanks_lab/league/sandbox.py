"""The process a league file's bot plays from: `IsolatedPolicy` and its limits, named here.

The league loads and plays each student file through
:class:`~nothanks_lab.tournaments.sandbox.IsolatedPolicy` (a fresh Python process with CPU and
memory limits, sent only the public facts of each decision). It lives in the tournaments layer
so that `tournament(..., isolate=True)` and the command line's ``--isolate`` play a
``file.py:Class`` bot the same way; this module gives the league's readers its names.
"""

from __future__ import annotations

from ..tournaments.sandbox import (
    CPU_LIMIT_S,
    DECISION_LIMIT_S,
    MEMORY_LIMIT_MB,
    BotProcessError,
    IsolatedPolicy,
)

__all__ = [
    "CPU_LIMIT_S",
    "DECISION_LIMIT_S",
    "MEMORY_LIMIT_MB",
    "BotProcessError",
    "IsolatedPolicy",
]

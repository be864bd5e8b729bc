"""The compiled fast path of `simulate`: the shared rules and each bot's decision rule, in numba.

Nothing here restates a rule. The playout loop (:mod:`.loops`: `play_rounds`, `play_chunk`) is
plain Python that calls the transition functions of :mod:`nothanks_lab.core`, the dealer of
:mod:`nothanks_lab.deals` and each bot class's ``FAST_DECIDE`` function; it is compiled with
those very functions. It is the package's one compiled playout loop: `simulate` deals and plays
rounds on it, and `finish_rounds` finishes positions from the middle of a round on it (the search
bot's and :mod:`nothanks_lab.analysis`'s rollouts). The package is split by concept:

- :mod:`.loops`: the playout loop's source, which every kernel module compiles;
- :mod:`.kernel`: `kernel_module`, the generated kernel module per set of kinds, its key and
  its in-process cache;
- :mod:`.cache`: the on-disk cache directory, used only while private to the user;
- :mod:`.protocol`: which bots have a fast path (`has_fast_path`), the compile check of a
  user's decision function (`check_decide`, `FastPathError`) and the `SlowPathWarning`;
- :mod:`.table`: `FastTable` / `fast_table` (a table of bots in the kernel's terms) and
  `finish_rounds`.

**How a bot gets a fast path.** A bot class defines ``FAST_DECIDE``, a pure, numba-compilable
function ``decide(params, card, pot, seat, hands, chips, cards_left) -> bool`` (take?) that may
assume passing is allowed (the kernel makes the forced take at zero chips), and a method
``fast_params() -> float64[K]`` giving its parameters (or ``fast_params(rules=None)``, which
then receives the table's rule set). Its ``act`` should call the same
function through :func:`nothanks_lab.bots.base.decision_args`. That is all: `fast_table`
discovers the kinds of the policies at a table, numbers them, and the kernel dispatches on a
kind id per seat with a params array ``[P, K]``. No list in this package needs editing. A
subclass that overrides ``act`` below the class defining ``FAST_DECIDE`` decides otherwise, so
it plays through the engine instead (`has_fast_path`).

**How the pure functions are compiled** (:mod:`nothanks_lab.jit`). `jit_pure` compiles a
function with ``numba.njit`` after giving it a copy of its module globals in which every
function and module of this package is replaced by its compiled counterpart (recursively), so
``marginal_decide`` calling ``core.marginal_points`` calls the compiled ``marginal_points``.
The source files stay ordinary Python that the readable engine runs unchanged.

**Caching.** numba's on-disk cache keys a function to its own source file only, so a kernel
cached beside the loop's file would silently keep an old rule after ``core.py``, a bot or a
user's helper module changed. Instead, for each set of kinds, `kernel_module` writes a small
module (the if-chain over the kinds plus the source of `play_rounds` and `play_chunk`, read at
import) into a cache directory under a name that hashes the *loaded* code every kind reaches,
numba's version and Python's; numba caches the compiled kernel next to it (details in
:mod:`.kernel` and :mod:`.cache`). Compiling happens under a lock and the kernel runs without
the GIL, so threaded workers can share a process.

**When a decision function does not compile**, ``simulate(..., fast=True)`` raises
`FastPathError` naming the bot and numba's complaint; otherwise the table plays through the
one-game engine, with a `SlowPathWarning` (once per bot class and process), as does any table
with a policy that has no fast path at all (:mod:`.protocol`).

**Debugging a decision function** (:mod:`.debug`). Compiled code does not check array bounds:
a ``FAST_DECIDE`` reading ``chips[seat + 3]`` plays on with whatever memory lies there. With
``NOTHANKS_LAB_DEBUG=1`` in the environment every table first compiles each outside decision
function with numba's ``boundscheck=True`` and compares its answers with the bot's ``act`` on
a few rounds of the one-game engine; a read outside an array or a disagreement raises
`~nothanks_lab.fast.debug.FastDebugError` naming the bot and the position
(`~nothanks_lab.fast.debug.check_fast_bot` runs the same check on one bot).
"""

from __future__ import annotations

from ..jit import jit_pure as jit_pure
from ..jit import jitted_module as jitted_module
from ..validate import renamed_names
from .cache import _cache_dir as _cache_dir
from .kernel import _captured_source as _captured_source
from .kernel import kernel_module as kernel_module
from .loops import decide as decide
from .loops import play_chunk as play_chunk
from .loops import play_rounds as play_rounds
from .protocol import SLOWDOWN as SLOWDOWN
from .protocol import FastPathError as FastPathError
from .protocol import SlowPathWarning as SlowPathWarning
from .protocol import check_decide as check_decide
from .protocol import has_fast_path as has_fast_path
from .protocol import warn_slow_path as warn_slow_path
from .table import FastTable as FastTable
from .table import fast_table as fast_table
from .table import finish_rounds as finish_rounds
from .table import kind_key as kind_key

__all__ = [
    "SLOWDOWN",
    "FastPathError",
    "FastTable",
    "SlowPathWarning",
    "check_decide",
    "decide",
    "fast_table",
    "finish_rounds",
    "has_fast_path",
    "jit_pure",
    "kernel_module",
    "kind_key",
    "play_chunk",
    "play_rounds",
    "warn_slow_path",
]

#: ``fast.play_out``, the old name of `finish_rounds` (``play.play_out`` plays one `Game`), works
#: one release with a warning.
__getattr__ = renamed_names(__name__, play_out="nothanks_lab.fast.table.finish_rounds")

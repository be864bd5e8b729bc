"""Time limits on a student's code: stop a file that loads forever or a bot that never answers.

:func:`_time_limit` interrupts the code it wraps with :class:`_TimeUp` after a number of
seconds, using ``SIGALRM``: on the main thread of a POSIX system only (a notebook's kernel runs
cells there), elsewhere there is no limit. Loading a league file and screening its bot run under
it; a tournament does not.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class _TimeUp(Exception):
    """Raised inside a bot's code when it overruns the time it was given."""


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[list[bool]]:
    """Interrupt the code inside after `seconds` with `_TimeUp` (``fired[0]`` says it did).

    Uses ``SIGALRM``, so it works only on the main thread of a POSIX system (a notebook's
    kernel runs cells there); elsewhere there is no limit.
    """
    fired = [False]
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if seconds is None or not usable:
        yield fired
        return

    def on_alarm(signum: int, frame: Any) -> None:
        fired[0] = True
        raise _TimeUp(f"stopped after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    earlier, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.monotonic()
    try:
        yield fired
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if earlier:  # someone else's alarm was running: give it back what is left of it
            signal.setitimer(signal.ITIMER_REAL, max(earlier - (time.monotonic() - start), 1e-3))

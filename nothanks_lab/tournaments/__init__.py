"""Tournaments, parameter sweeps and tuning, with honest confidence intervals.

A tournament seats a field of bots at a table of P seats in several *lineups* (which bots
sit down together) and plays each deal of a lineup in a *balanced block of seatings*
(:mod:`nothanks_lab.seating`): every bot holds every seat and sits directly after every other
bot equally often, and the block is drawn at random per deal, so copies of one bot have the
same expected result wherever they stand in the field. (Rotations alone are not fair: they
never change who sits after whom, and your left-hand neighbour is who gets the cards you
pass.) Deals are *paired*: deal ``i`` of the seeded stream is played in every seating of its
block, so the luck of the cards cancels out of comparisons. Each bot's result
on a deal is its average over the seats it held on that deal; confidence intervals are
Student-t intervals over those per-deal averages (the deals are the independent units, the
games within a deal are not). Sums are exact integers (a win share of 1/k is counted as
420/k, 420 being divisible by every k up to 7), so a run gives bit-identical numbers however
its chunks are spread over workers (:mod:`nothanks_lab.parallel`).

`sweep` and `tune` evaluate a candidate bot against chosen opponents on common random
numbers: every grid point or trial parameter sees the same deals.

The package, by concept: `run` (plans, chunks of deals, exact sums, running on executors),
`result` (`TournamentResult`, `Comparison`), `ratings` (`Pairwise`, `Ratings`), `tables`,
`tournament` (`tournament`, `head_to_head`), `sweep`, `tune`; bot specs live in
:mod:`nothanks_lab.bots.specs`.
"""

from __future__ import annotations

from ..bots.specs import make_policy, parse_bot_spec
from .ratings import Pairwise, Ratings
from .result import Comparison, TournamentResult
from .run import FAST_CHUNK, MAX_SEATINGS, SLOW_CHUNK, WIN_UNIT
from .sweep import SweepResult, sweep
from .tournament import head_to_head, tournament
from .tune import TuneResult, tune

__all__ = [
    "FAST_CHUNK",
    "MAX_SEATINGS",
    "SLOW_CHUNK",
    "WIN_UNIT",
    "Comparison",
    "Pairwise",
    "Ratings",
    "SweepResult",
    "TournamentResult",
    "TuneResult",
    "head_to_head",
    "make_policy",
    "parse_bot_spec",
    "sweep",
    "tournament",
    "tune",
]

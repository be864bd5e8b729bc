"""Exact chances of what the hidden removed cards allow, and their Monte Carlo twins.

Before a round, ``n_removed`` cards are set aside unseen, uniformly at random. Every card turned
face up is known to be in play, so given the ``seen`` cards the removed ones are a uniform subset
of the ``U = n_cards - len(seen)`` unseen cards. Everything here follows from that one fact:
hypergeometric answers for "is 28 still coming?" and "how many of these were removed?"
(:mod:`.cards`), and combinatorial ones for the runs the in-play cards form (:mod:`.runs`).
Each exact function has an ``mc_*`` twin (:mod:`.montecarlo`) that samples removed sets in
vectorized batches and returns a `~nothanks_lab.stats.Interval` (a value with its confidence
interval), so a notebook can show the exact value and a simulation converging to it
(:func:`convergence`). Exact answers are computed in integers (``math.comb`` or an int64 dynamic
program whose counts cannot overflow for decks up to 62 cards) and rounded once to a float.
Wherever a ``seen`` argument is taken, a :class:`~nothanks_lab.view.PlayerView` may be passed
instead: its seen cards and rules are used (:mod:`.common` checks the arguments of every
function alike). Every name is importable from ``nothanks_lab.probability``.
"""

from __future__ import annotations

from ..validate import renamed_names
from .cards import gaps, p_all_in_play, p_gap_fillable, p_in_play_each, removed_count_pmf
from .common import Cards as Cards
from .common import Seed as Seed
from .common import Seen as Seen
from .montecarlo import (
    ConvergenceRow,
    convergence,
    mc_expected_card_points_all,
    mc_expected_run_count,
    mc_longest_run_pmf,
    mc_p_all_in_play,
    mc_p_gap_fillable,
    mc_p_in_play_each,
    mc_p_longest_run_at_least,
    mc_removed_count_pmf,
    mc_run_count_pmf,
    sample_in_play,
    sample_removed,
)
from .runs import (
    expected_card_points_all,
    expected_run_count,
    longest_run_pmf,
    p_longest_run_at_least,
    run_count_pmf,
)

__all__ = [
    "ConvergenceRow",
    "convergence",
    "expected_card_points_all",
    "expected_run_count",
    "gaps",
    "longest_run_pmf",
    "mc_expected_card_points_all",
    "mc_expected_run_count",
    "mc_longest_run_pmf",
    "mc_p_all_in_play",
    "mc_p_gap_fillable",
    "mc_p_in_play_each",
    "mc_p_longest_run_at_least",
    "mc_removed_count_pmf",
    "mc_run_count_pmf",
    "p_all_in_play",
    "p_gap_fillable",
    "p_in_play_each",
    "p_longest_run_at_least",
    "removed_count_pmf",
    "run_count_pmf",
    "sample_in_play",
    "sample_removed",
]


#: ``Estimate``, the old name of the package's one interval type, works one release with a warning.
__getattr__ = renamed_names(__name__, Estimate="nothanks_lab.stats.Interval")

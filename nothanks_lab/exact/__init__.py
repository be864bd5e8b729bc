"""Perfect play on small decks: No Thanks! solved exactly by backward induction.

Every seat sees the same things (the removed cards and the deck order are hidden from all
alike), so a position is fully described by what is public: every seat's hand and chips, the
pot, the face-up card and the seat to act; the next card turned is equally likely to be any
unseen card. For a small deck the whole round is therefore a finite game with chance nodes,
solved here exactly. The chance nodes are the positions right after a take (pot empty, the
taker about to see a fresh card), some 30 times fewer than the decision positions; only they
are memoised, and the chain of passes around one card is solved backwards on the fly each time
a chance node is expanded.

`solve` (:mod:`.two_player`) handles two seats playing perfectly against each other (a
zero-sum game for both objectives) with the numba-compiled depth-first search of
:mod:`.kernel` over a dense memo. `best_response` (:mod:`.policies`) handles any number of
seats: the best play of one seat against fixed policies at the others, an exact single-agent
problem solved in plain Python with a dict memo over the same chance nodes; `evaluate` is its
sibling with every seat fixed, and `exploitability` measures how far a policy is from perfect
play (what a best response wins against it in either seat). Both solvers return a `Solution`
(:mod:`.solution`) that answers `value_of` and `action` for any seat's view. The position
encoding, the moves on it and the lesson helpers `decision_views` (every decision position of
a rule set) and `after_pass` (a view moved on past a No Thanks!) are in :mod:`.positions`.

Objectives: ``"win"`` values a position by the chance of winning (a tie among k seats counts
1/k, as ``win_share`` does); ``"margin"`` by the expected score margin, the best rival's score
minus mine (for two seats: the other seat's score minus mine).

>>> import nothanks_lab as nt
>>> tiny = nt.Rules(low_card=1, high_card=5, n_removed=1, chips=((2, 1),))
>>> sol = solve(tiny)
>>> round(sol.value, 6), sol.n_positions
(0.2, 621)
"""

from __future__ import annotations

from .kernel import OBJECTIVES
from .policies import Exploitability, best_response, evaluate, exploitability
from .positions import DEFAULT_MAX_POSITIONS, after_pass, decision_views, estimate_positions
from .solution import PerfectBot, Solution
from .two_player import DEFAULT_MAX_MEMORY, estimate_memory, solve

__all__ = [
    "DEFAULT_MAX_MEMORY",
    "DEFAULT_MAX_POSITIONS",
    "OBJECTIVES",
    "Exploitability",
    "PerfectBot",
    "Solution",
    "after_pass",
    "best_response",
    "decision_views",
    "estimate_memory",
    "estimate_positions",
    "evaluate",
    "exploitability",
    "solve",
]

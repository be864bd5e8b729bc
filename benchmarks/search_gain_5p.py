"""How much the search adds on top of its own-seat policy, at 5 players against four heuristic bots.

The search bot values each move by rollouts in which its own later moves follow a fixed policy
(its *own-seat policy*). One search over a policy is one step of policy improvement: the
searched bot should beat the policy it rolls out, and a better own-seat policy should give a
better searched bot. This script measures that curve on the same deals (a `tournament` with one
lineup per bot, each bot against four default heuristic bots, seats rotated, deals paired) for the
three own-seat policies the package has, from weak to strong:

- the default heuristic bot (`HeuristicBot()`; it wins 20% against four copies of itself),
- the heuristic bot tuned for 5-player tables (`SEAT_5P_PARAMS`),
- `LinearBot` (the fitted linear policy, the best bot's own-seat policy),

each alone and searched over (`make_bot("best")` with ``own_linear`` / ``seat_tuned_5p``
chosen to match, and its opponent model reset every round: ``learn_rivals`` off). It prints
Markdown: the policy's win share, the searched bot's win share, and the paired difference
between consecutive searched bots. Run:
``python benchmarks/search_gain_5p.py`` (about 35 minutes on one core at the default 300 deals;
``--workers 2`` halves it).
"""

from __future__ import annotations

import argparse
import time

from strength_table import clipped_ci

from nothanks_lab.bots import BestBot, HeuristicBot, LinearBot
from nothanks_lab.bots.search import SEAT_5P_PARAMS
from nothanks_lab.tournaments import tournament

N_PLAYERS = 5


def main() -> None:
    """Measure the policies and the searched bots on the same deals; print Markdown."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300, help="deals (each in every seat)")
    ap.add_argument("--seed", type=int, default=7, help="seed of the deals and of the bots")
    ap.add_argument("--workers", type=int, default=1, help="local worker processes")
    args = ap.parse_args()

    s = args.seed
    policies = {
        "default heuristic bot": HeuristicBot(),
        "5-player heuristic bot": HeuristicBot(**SEAT_5P_PARAMS),
        "LinearBot": LinearBot(),
    }
    # The opponent model stays per round (no ``learn_rivals``), the same for all three, so the
    # rows differ only by the own-seat policy.
    searched = {
        "default heuristic bot": BestBot(seed=s, own_linear=False, learn_rivals=False),
        "5-player heuristic bot": BestBot(
            seed=s, own_linear=False, seat_tuned_5p=True, learn_rivals=False
        ),
        "LinearBot": BestBot(seed=s, learn_rivals=False),
    }
    bots = [*policies.values(), *searched.values(), HeuristicBot()]
    rivals = (len(bots) - 1,) * (N_PLAYERS - 1)
    lineups = [(i, *rivals) for i in range(len(bots) - 1)]
    t0 = time.perf_counter()
    r = tournament(
        bots, N_PLAYERS, args.deals, seed=s, lineups=lineups, workers=args.workers, progress=False
    )

    k = len(policies)
    print(f"5 players, each bot against four default heuristic bots, {args.deals:,} paired deals\n")
    print("| own-seat policy | policy alone [95% CI] | searched over it [95% CI] | gain |")
    print("|---|---|---|---|")
    for i, name in enumerate(policies):
        alone, (alo, ahi) = r.win_share[i], clipped_ci(*r.win_share_ci[i])
        srch, (slo, shi) = r.win_share[k + i], clipped_ci(*r.win_share_ci[k + i])
        gain = r.compare(k + i, i)
        print(
            f"| {name} | {alone:.1%} [{alo:.1%}, {ahi:.1%}] | {srch:.1%} [{slo:.1%}, {shi:.1%}] "
            f"| {gain.diff:+.1%} [{gain.low:+.1%}, {gain.high:+.1%}] |"
        )
    print("\n| searched bot minus the one before (paired) | difference [95% CI] |")
    print("|---|---|")
    names = list(policies)
    for i in range(1, k):
        c = r.compare(k + i, k + i - 1)
        diff = f"{c.diff:+.1%} [{c.low:+.1%}, {c.high:+.1%}]"
        print(f"| over {names[i]} - over {names[i - 1]} | {diff} |")
    print(f"\n(took {time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()

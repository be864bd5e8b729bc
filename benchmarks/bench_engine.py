"""Speed of the one-game engine (`nt.play_game`) as a ratio against a plain-Python loop.

Both play 3-player standard rounds with the same rule at every seat: take iff the points the
card adds to the hand minus the chips on it is at most 0 (a seat without chips takes). The
reference loop below is written from the rules alone (/work/shared/RULES.md): a list for the
chips, sets for the hands, no views, no checks, the kind of loop public projects ship. The
engine's side is `play_game` with a policy applying that rule to each `PlayerView` it is
handed (full views, every check; the same arithmetic as the reference, so the ratio is the
engine's cost), and also with `MarginalCostBot(0)`, the package's bot for
the rule. Both sides play the same decks; their scores are checked equal. Rates are the
median of several repeats, measured in one run, alternated; read the ratio.

Measured 2026-12-02 04:31 UTC on the project's 2-core shared machine (load average 20-25;
rounds per CPU second, median of 5 repeats, two alternated runs of each): rule on views
0.35-0.36 of the reference loop (about 2,350-2,400 rounds/s), MarginalCostBot(0) 0.33-0.34;
the engine before issue 26's work (commit 9d9289c) by this same script in the same minutes
0.23-0.25 and 0.15-0.16. Issue 26 was filed at about 0.065 of a plain loop (260-270 rounds/s, the
fastest public peer loop about 16x), so its "5x faster" is a ratio of about 0.31-0.33 here.
On a loaded machine the spread is as large as a small change: compare side by side.

Usage: ``python benchmarks/bench_engine.py [--rounds N] [--repeats R]``
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import nothanks_lab as nt
from nothanks_lab.bots import MarginalCostBot

PLAYERS = 3
TAKE, PASS = nt.Action.TAKE, nt.Action.PASS
#: The engine's ratio to a plain-Python loop when issue 26 was filed (260-270 rounds/s; the
#: fastest public peer loop about 16x faster): the yardstick of "5x faster".
FILED_RATIO = 0.065


def points(hand: set[int]) -> int:
    """Card points of a hand: the lowest card of every run."""
    return sum(c for c in hand if c - 1 not in hand)


def reference_round(deck: list[int], n_players: int, chips0: int) -> list[int]:
    """One round by the plain-Python reference loop; the final scores."""
    chips = [chips0] * n_players
    hands: list[set[int]] = [set() for _ in range(n_players)]
    player = 0
    for card in deck:
        pot = 0
        while True:
            hand = hands[player]
            cost = points(hand | {card}) - points(hand)
            if chips[player] == 0 or cost - pot <= 0:
                hand.add(card)
                chips[player] += pot
                break  # the taker acts on the next card
            chips[player] -= 1
            pot += 1
            player = (player + 1) % n_players
    return [points(h) - c for h, c in zip(hands, chips, strict=True)]


class RuleOnViews:
    """The same rule as a policy, with the reference's arithmetic on the view's hand."""

    name = "rule-on-views"

    def act(self, view: nt.PlayerView) -> nt.Action:
        if not view.can_pass:
            return TAKE
        hand = set(view.hands[view.seat])
        cost = points(hand | {view.active_card}) - points(hand)  # type: ignore[arg-type]
        return TAKE if cost - view.pot <= 0 else PASS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    rules = nt.Rules()
    rng = np.random.default_rng(26)
    decks = [
        [int(c) for c in rng.permutation(np.array(rules.cards))[: rules.n_in_play]]
        for _ in range(args.rounds)
    ]
    chips0 = rules.starting_chips(PLAYERS)
    sides = {
        "reference loop": lambda d: reference_round(d, PLAYERS, chips0),
        "play_game, rule on views": lambda d: list(
            nt.play_game([RuleOnViews()] * 3, deck=d).scores
        ),
        "play_game, MarginalCostBot(0)": lambda d: list(
            nt.play_game([MarginalCostBot(0)] * 3, deck=d).scores
        ),
    }
    scores = {name: [run(d) for d in decks[:50]] for name, run in sides.items()}
    first = next(iter(scores.values()))
    for name, s in scores.items():
        assert s == first, f"{name} disagrees with the reference loop"
    rates: dict[str, list[float]] = {name: [] for name in sides}
    decisions = len(nt.play_game([RuleOnViews()] * 3, deck=decks[0]).history)
    for _ in range(args.repeats):
        for name, run in sides.items():
            t = time.process_time()  # CPU time: robust to other processes on a shared machine
            for d in decks:
                run(d)
            rates[name].append(args.rounds / (time.process_time() - t))
    ref = statistics.median(rates["reference loop"])
    print(f"{PLAYERS} players, {args.rounds} rounds x {args.repeats} repeats "
          f"({decisions} decisions in the first round); scores identical on 50 decks; "
          "rounds per CPU second")  # fmt: skip
    for name, r in rates.items():
        med = statistics.median(r)
        print(f"{name:32s} {med:9.0f} rounds/s  ratio to reference {med / ref:5.2f}  "
              f"(range {min(r):.0f}-{max(r):.0f})")  # fmt: skip
    print(f"issue 26's target, 5x the engine it was filed against: a ratio of about "
          f"{5 * FILED_RATIO:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()

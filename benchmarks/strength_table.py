"""The README's strength table: every bot against the same mixed field at 3, 5 and 7 players.

Each bot of the package sits at a table whose other seats hold a fixed mix of the package's
compiled bots (heuristic and marginal-cost bots, so the table runs fast), seats rotated and deals
paired (`nothanks_lab.tournaments.head_to_head`), so every row faces the same opponents on the
same deals. Columns: win share (shared wins split; a bot as good as its table wins 1/P) with its 95%
interval over deals, mean score, and mean milliseconds per decision, timed separately on a few
games on this machine (forced takes included). Bots with a compiled fast path play many deals;
the Python-speed bots fewer, so their intervals are wider (the games column says how many).

``python benchmarks/strength_table.py`` prints Markdown in about an hour on one core (balanced
seating plays each deal 6, 20 and 42 times at 3, 5 and 7 players; intervals clipped to [0, 1];
the best bot's rows take most of it). ``--targets`` adds the issue's targets
for ``make_bot("best")`` (vs two heuristic bots at 3 players, four at 5, two greedy bots at 3)
with ``--target-deals`` deals each; ``--only-targets`` prints only those (about 20 minutes at the
default 300 deals: the best bot searches at every one of its moves). ``--only-ms`` times each
bot's decisions only (a few games each, seconds). ``--only-paired`` prints
the paired difference between the best bot and `LinearBot` (the strongest other bot at 5
players), each against the field on the same deals, at each of ``--players``. The targets also
keep to ``--players`` (``--only-targets --players 5`` measures the 5-player one alone), and
``--workers`` spreads their deals over processes without changing the result.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from nothanks_lab import Game
from nothanks_lab.bots import (
    BestBot,
    ExpectationBot,
    HeuristicBot,
    LinearBot,
    MarginalCostBot,
    RandomBot,
    SearchBot,
)
from nothanks_lab.tournaments import head_to_head, tournament

#: Row label -> (factory of a fresh bot, deals at 3/5/7 players scaled by --scale).
ROWS: dict[str, tuple[Callable[[], Any], int]] = {
    "RandomBot": (lambda: RandomBot(seed=1), 2000),
    "MarginalCostBot(10)": (lambda: MarginalCostBot(10), 2000),
    "MarginalCostBot(0) (greedy)": (lambda: MarginalCostBot(0), 2000),
    "ExpectationBot": (lambda: ExpectationBot(), 150),
    "HeuristicBot": (lambda: HeuristicBot(), 2000),
    "LinearBot": (lambda: LinearBot(), 2000),
    "SearchBot": (lambda: SearchBot(seed=1), 100),
    'make_bot("best")': (lambda: BestBot(seed=1), 300),
}


def field(n_players: int) -> list[Any]:
    """The P-1 opponents every row meets: a fixed mix of the package's other bots."""
    mix = [
        HeuristicBot(),
        MarginalCostBot(10),
        MarginalCostBot(0),
        HeuristicBot(),
        MarginalCostBot(10),
        MarginalCostBot(5),
    ]
    return mix[: n_players - 1]


def _short(bot: Any) -> str:
    """``(10)`` for a marginal-cost bot's threshold; nothing for a bot at its defaults."""
    return f"({bot.threshold:g})" if isinstance(bot, MarginalCostBot) else ""


class _Timed:
    """Wraps a bot and records how long each of its decisions takes."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []

    def act(self, view: Any) -> Any:
        t = time.perf_counter()
        move = self.bot.act(view)
        self.times.append(time.perf_counter() - t)
        return move


def ms_per_decision(make: Callable[[], Any], n_players: int, games: int = 3) -> float:
    """Mean milliseconds per decision of a fresh bot over a few seeded games vs the field."""
    timed = _Timed(make())
    rng = np.random.default_rng(123)
    timed.bot.act(Game(n_players, seed=0).view(0))  # compile / warm up outside the timing
    for _ in range(games):
        seats = [timed, *field(n_players)]
        g = Game(n_players, seed=rng)
        while not g.is_over:
            p = g.current_player
            g.step(seats[p].act(g.view(p)))
    return 1000 * float(np.mean(timed.times))


def clipped_ci(lo: float, hi: float) -> tuple[float, float]:
    """A 95% interval clipped to [0, 1] (the normal approximation can overshoot)."""
    return max(0.0, lo), min(1.0, hi)


def row(label: str, make: Callable[[], Any], deals: int, n_players: int, seed: int) -> str:
    """One Markdown row: the bot vs the field at `n_players`."""
    r = head_to_head(make(), field(n_players), n_players, deals, seed=seed, progress=False)
    ws, (lo, hi) = r.win_share[0], clipped_ci(*r.win_share_ci[0])
    ms = ms_per_decision(make, n_players)
    return (
        f"| {n_players} | {label} | {ws:.1%} [{lo:.1%}, {hi:.1%}] | {r.mean_score[0]:.1f} "
        f"| {ms:.2f} | {int(r.games[0]):,} |"
    )


def targets(deals: int, seed: int, sizes: tuple[int, ...] = (3, 5), workers: int = 1) -> None:
    """The issue's targets for the best bot at the table sizes `sizes`, with 95% intervals."""
    print("\n| target | best's win share [95% CI] | mean score | ms/decision | games |")
    print("|---|---|---|---|---|")
    cases = [
        ("3 players vs 2 heuristic bots (>= 65%)", HeuristicBot(), 3),
        ("5 players vs 4 heuristic bots (>= 50%)", HeuristicBot(), 5),
        ("3 players vs 2 greedy MarginalCostBot(0) (>= 80%)", MarginalCostBot(0), 3),
    ]
    for label, opponent, n in cases:
        if n not in sizes:
            continue
        r = head_to_head(
            BestBot(seed=seed), opponent, n, deals, seed=seed, workers=workers, progress=False
        )
        ws, (lo, hi) = r.win_share[0], clipped_ci(*r.win_share_ci[0])
        ms = ms_per_decision(lambda: BestBot(seed=seed), n)
        print(
            f"| {label} | {ws:.1%} [{lo:.1%}, {hi:.1%}] | {r.mean_score[0]:.1f} | {ms:.1f} "
            f"| {int(r.games[0]):,} |",
            flush=True,
        )


def paired(n_players: int, deals: int, seed: int) -> str:
    """One Markdown row: best minus LinearBot, each against the field on the same deals.

    Both lineups (best + the field, LinearBot + the field) play the same deals in every
    rotation, so the difference of their per-deal win shares is paired, exactly as two rows of
    the table would be, and its interval is much tighter than the two rows' intervals suggest.
    """
    bots = [BestBot(seed=seed), LinearBot(), *field(n_players)]
    others = tuple(range(2, n_players + 1))
    r = tournament(
        bots, n_players, deals, seed=seed, lineups=[(0, *others), (1, *others)], progress=False
    )
    c = r.compare(0, 1)
    return f"| {n_players} | {c.diff:+.1%} [{c.low:+.1%}, {c.high:+.1%}] | {deals:,} |"


def main() -> None:
    """Print the strength table (and, if asked, the best bot's targets) as Markdown."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every row's deals")
    ap.add_argument("--seed", type=int, default=7, help="seed of the deal stream")
    ap.add_argument(
        "--players", type=int, nargs="+", default=[3, 5, 7], help="table sizes (targets: 3, 5)"
    )
    ap.add_argument(
        "--workers", type=int, default=1, help="processes for the targets (same result at any)"
    )
    ap.add_argument("--targets", action="store_true", help="also measure the best bot's targets")
    ap.add_argument("--only-targets", action="store_true", help="measure the targets only")
    ap.add_argument("--target-deals", type=int, default=300, help="deals per target")
    ap.add_argument(
        "--only-paired",
        action="store_true",
        help="only best minus LinearBot against the field, paired, at each --players",
    )
    ap.add_argument(
        "--only-ms",
        action="store_true",
        help="only each bot's milliseconds per decision (a few games each; a quiet machine)",
    )
    args = ap.parse_args()
    if (args.targets or args.only_targets) and not {3, 5} & set(args.players):
        ap.error(f"the targets are at 3 and 5 players; --players {args.players} has neither")

    t0 = time.perf_counter()
    if args.only_ms:
        print("| bot | " + " | ".join(f"ms/decision, {n} players" for n in args.players) + " |")
        print("|---|" + "---|" * len(args.players))
        for label, (make, _) in ROWS.items():
            ms = [ms_per_decision(make, n) for n in args.players]
            print(f"| {label} | " + " | ".join(f"{m:.2f}" for m in ms) + " |", flush=True)
        print(f"\n(took {time.perf_counter() - t0:.0f} s)")
        return
    if args.only_paired:
        print("| players | best - LinearBot, win share [95% CI] | deals |")
        print("|---|---|---|")
        for n in args.players:
            print(paired(n, round(ROWS['make_bot("best")'][1] * args.scale), args.seed), flush=True)
        print(f"\n(took {time.perf_counter() - t0:.0f} s)")
        return
    if args.only_targets:
        targets(args.target_deals, args.seed, tuple(args.players), args.workers)
        print(f"\n(took {time.perf_counter() - t0:.0f} s)")
        return
    for n in args.players:
        names = ", ".join(type(b).__name__ + _short(b) for b in field(n))
        print(f"Opponents at {n} players: {names}")
    print("\n| players | bot | win share [95% CI] | mean score | ms/decision | games |")
    print("|---|---|---|---|---|---|")
    for n in args.players:
        for label, (make, deals) in ROWS.items():
            d = max(2, round(deals * args.scale))
            print(row(label, make, d, n, args.seed), flush=True)
    if args.targets:
        targets(args.target_deals, args.seed, tuple(args.players), args.workers)
    print(f"\n(took {time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()

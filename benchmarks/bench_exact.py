"""The exact solver: speed, memory and reach, and how far each built-in bot is from perfect.

Run ``python benchmarks/bench_exact.py [--part solve|bots|agree|all] [--max-cards N]``.

* ``solve``: two-player decks of cards 3.., 3 removed, 4 chips each, growing one card at a
  time up to ``--max-cards`` (12 is the issue's cards 3-14): chance nodes memoised, decision
  positions evaluated, seconds (compile time aside), positions per second, the memo's size and
  the process's peak memory; the plain-Python search on a small deck alongside as the baseline
  (read the ratio: the machines are shared); and the largest deck whose memo fits in 8 GiB.
* ``bots``: for each built-in bot at default settings, on small variants, the win chance it
  loses against a perfect opponent (two players: 1/2 minus its chance, both seats averaged) and
  what a perfect player gains against a table of it (its best response's chance minus the fair
  share, two and three players, every seat averaged). All exact (no sampling): a randomised bot
  is held to the move it chose the first time it met each position. ``--bots`` picks bots.
* ``response``: `best_response` against a `HeuristicBot` on cards 3-11 (3 removed, 4 chips
  each; ``--response-cards``): CPU seconds with the bot asked through its compiled
  ``FAST_DECIDE``, and with the same bot behind a plain-Python ``act`` (asked once per
  distinct view), values checked equal; the compiled two-player `solve` of the same deck
  alongside as the yardstick (read the ratios: the machines are shared). Issue 26 asks for
  under 20 s.
* ``agree``: the search bot against a perfect player: in what share of the positions it
  reaches (passing allowed) its move is a perfect one.
"""

from __future__ import annotations

import argparse
import resource
import time
from typing import Any

import numpy as np

import nothanks_lab as nt
from nothanks_lab import exact
from nothanks_lab.bots import available_bots, make_bot

GIB = 2**30

#: Small variants of the bot table: (label, rules, seats).
BOT_VARIANTS: list[tuple[str, nt.Rules, int]] = [
    ("3-9, 2 out, 2 chips", nt.Rules(low_card=3, high_card=9, n_removed=2, chips=((2, 2),)), 2),
    ("1-7, 1 out, 2 chips", nt.Rules(low_card=1, high_card=7, n_removed=1, chips=((2, 2),)), 2),
    ("3-10, 2 out, 3 chips", nt.Rules(low_card=3, high_card=10, n_removed=2, chips=((2, 3),)), 2),
    ("3-8, 2 out, 2 chips", nt.Rules(low_card=3, high_card=8, n_removed=2, chips=((3, 2),)), 3),
    ("2-7, 0 out, 1 chip", nt.Rules(low_card=2, high_card=7, n_removed=0, chips=((3, 1),)), 3),
]


def deck(n_cards: int, chips: int = 4, removed: int = 3) -> nt.Rules:
    """Two-player rules with cards 3 .. 3 + n_cards - 1."""
    return nt.Rules(low_card=3, high_card=2 + n_cards, n_removed=removed, chips=((2, chips),))


def peak_mib() -> float:
    """Peak resident memory of this process so far (MiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def part_solve(max_cards: int) -> None:
    """Print the speed and memory table of the compiled solver."""
    base_rules = nt.Rules(low_card=3, high_card=9, n_removed=2, chips=((2, 2),))
    exact.solve(base_rules)  # compile
    py = exact.solve(base_rules, engine="python")
    fast = exact.solve(base_rules)
    print("baseline, cards 3-9, 2 removed, 2 chips each:")
    print(
        f"  plain Python {py.positions_per_second:,.0f} positions/s, compiled "
        f"{fast.positions_per_second:,.0f} positions/s: "
        f"{fast.positions_per_second / py.positions_per_second:,.0f}x "
        f"(values equal: {abs(py.value - fast.value) < 1e-12})"
    )
    print()
    print(
        "| cards | memo | chance nodes | decision positions | seconds | positions/s | "
        "peak memory | first player wins |"
    )
    print("|---|---|---|---|---|---|---|---|")
    rows = []
    for n in range(8, max_cards + 1):
        rules = deck(n)
        sol = exact.solve(rules)
        rows.append((n, sol.n_decisions, sol.seconds))
        print(
            f"| 3-{rules.high_card} ({n}) | {sol.memory_bytes / 2**20:,.0f} MiB | "
            f"{sol.n_positions:,} | {sol.n_decisions:,} | {sol.seconds:.2f} | "
            f"{sol.positions_per_second / 1e6:.1f} M | {peak_mib():,.0f} MiB | {sol.value:.4f} |"
        )
        del sol
    # The largest deck whose memo fits in 8 GiB, and its time extrapolated from the growth
    # of the decision positions per added card over the last two measured decks.
    n = max_cards
    while exact.estimate_memory(deck(n + 1)) <= 8 * GIB:
        n += 1
    last, prev = rows[-1], rows[-2]
    growth = last[1] / prev[1]
    rate = last[1] / last[2]
    extra = n - last[0]
    guess = last[1] * growth**extra / rate
    print()
    print(
        f"largest deck within 8 GiB: cards 3-{deck(n).high_card} ({n} cards, 3 removed, 4 chips "
        f"each), memo {exact.estimate_memory(deck(n)) / GIB:.1f} GiB; about "
        f"{last[1] * growth**extra:,.0f} decision positions, about {guess / 60:.0f} min at "
        f"{rate / 1e6:.0f} M positions/s (x{growth:.1f} positions per added card)"
    )


class Frozen:
    """A policy held to the first move it chose in each position (exact values of any bot)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.moves: dict[nt.PlayerView, nt.Action] = {}

    def act(self, view: nt.PlayerView) -> nt.Action:
        """The bot's move, asked once per position."""
        got = self.moves.get(view)
        if got is None:
            got = self.moves[view] = self.bot.act(view)
        return got

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)


def bot_for(name: str) -> Any:
    """A built-in bot at default settings (seeded when it is randomised)."""
    try:
        return make_bot(name, seed=1)
    except ValueError:
        return make_bot(name)


def part_bots(names: list[str], variants: list[int]) -> None:
    """Print the shortfall table: exact, every seat averaged."""
    print("| bot | variant | seats | lost vs perfect | perfect gains vs it | seconds |")
    print("|---|---|---|---|---|---|")
    for label, rules, n in [BOT_VARIANTS[i] for i in variants]:
        perfect = exact.solve(rules).bot() if n == 2 else None
        for name in names:
            t = time.perf_counter()
            raw = bot_for(name)
            bot = raw if name == "random" else Frozen(raw)  # RandomBot: exact mixed play
            lost = "-"
            if perfect is not None:
                own = [exact.evaluate(rules, [bot, perfect])[0]]
                own.append(exact.evaluate(rules, [perfect, bot])[1])
                lost = f"{0.5 - float(np.mean(own)):+.3f}"
            br = [exact.best_response(rules, [bot] * (n - 1), seat=s).value for s in range(n)]
            gain = float(np.mean(br)) - 1 / n
            print(
                f"| {name} | {label} | {n} | {lost} | {gain:+.3f} | "
                f"{time.perf_counter() - t:.0f} |",
                flush=True,
            )


def part_agree(games: int) -> None:
    """Share of the search bot's moves that are perfect, in the positions it reaches."""
    rules = BOT_VARIANTS[2][1]
    sol = exact.solve(rules)
    search = make_bot("search", seed=3)
    tally = {"moves": 0, "perfect": 0, "decisive": 0, "perfect_decisive": 0}

    class Scored:
        def act(self, view: nt.PlayerView) -> nt.Action:
            move = search.act(view)
            if view.can_pass:
                values = sol.action_values(view)
                ok = values[move] >= max(values.values()) - 1e-12
                tally["moves"] += 1
                tally["perfect"] += ok
                if abs(values[nt.Action.TAKE] - values[nt.Action.PASS]) > 1e-12:
                    tally["decisive"] += 1
                    tally["perfect_decisive"] += ok
            return move

    res = nt.simulate([Scored(), sol.bot()], games // 2, rules=rules, seed=5)
    res2 = nt.simulate([sol.bot(), Scored()], games // 2, rules=rules, seed=6)
    share = (res.win_share[:, 0].sum() + res2.win_share[:, 1].sum()) / games
    print(
        f"search bot vs perfect, cards 3-10, 2 removed, 3 chips, {games} games (seats "
        f"alternating): {tally['perfect'] / tally['moves']:.1%} of its {tally['moves']} moves "
        f"are perfect; {tally['perfect_decisive'] / max(1, tally['decisive']):.1%} of the "
        f"{tally['decisive']} where the moves differ in value; it won {share:.1%} of the games"
    )


class PlainAct:
    """A bot behind a plain-Python ``act`` (no compiled fast path): what a student's bot is."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.asked = 0

    def act(self, view: nt.PlayerView) -> nt.Action:
        """The bot's move, counted."""
        self.asked += 1
        return self.bot.act(view)


def part_response(n_cards: int) -> None:
    """Print the CPU time of `best_response` against a HeuristicBot, both ways of asking it."""
    rules = deck(n_cards)
    exact.solve(deck(6))  # compile the yardstick first
    exact.best_response(deck(5), [nt.bots.HeuristicBot()])  # load the bot's kernel
    print(f"best_response against HeuristicBot, cards 3-{rules.high_card}, 3 removed, 4 chips:")
    t = time.process_time()
    yardstick = exact.solve(rules)
    base = time.process_time() - t
    rows = []
    for label, bot in (
        ("compiled FAST_DECIDE", nt.bots.HeuristicBot()),
        ("plain-Python act", PlainAct(nt.bots.HeuristicBot())),
    ):
        t = time.process_time()
        sol = exact.best_response(rules, [bot])
        rows.append((label, time.process_time() - t, sol, getattr(bot, "asked", None)))
    for label, cpu, sol, asked in rows:
        extra = f", {asked:,} views asked" if asked is not None else ""
        print(
            f"  {label:22s} {cpu:7.2f} CPU s  ({cpu / base:,.0f}x the compiled solve's "
            f"{base:.2f} s; {sol.n_positions:,} chance nodes, {sol.n_decisions:,} "
            f"decisions{extra}); value {sol.value:.6f}"
        )
    assert rows[0][2].value == rows[1][2].value, "the two ways of asking disagree"
    print(f"  (perfect play on this deck, first player: {yardstick.value:.6f})")


def main() -> None:
    """Run the chosen parts."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=["solve", "bots", "response", "agree", "all"], default="all")
    ap.add_argument("--response-cards", type=int, default=9, help="deck of the response part")
    ap.add_argument("--max-cards", type=int, default=12, help="largest deck solved (cards)")
    ap.add_argument("--bots", nargs="*", default=list(available_bots()))
    ap.add_argument(
        "--variants",
        type=int,
        nargs="*",
        default=list(range(len(BOT_VARIANTS))),
        help="indices into BOT_VARIANTS for the bots part",
    )
    ap.add_argument("--games", type=int, default=200, help="games of the agreement part")
    args = ap.parse_args()
    if args.part in ("solve", "all"):
        part_solve(args.max_cards)
    if args.part in ("bots", "all"):
        part_bots(args.bots, args.variants)
    if args.part in ("response", "all"):
        part_response(args.response_cards)
    if args.part in ("agree", "all"):
        part_agree(args.games)


if __name__ == "__main__":
    main()

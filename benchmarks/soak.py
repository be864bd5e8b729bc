"""Soak run of the compiled fast path: millions of rounds, every one checked.

Plays `--rounds` rounds (default ten million) through `simulate_chunks` (`nt.simulate` in
chunks) in batches; each batch draws a random rule variant (deck size and lowest card, number
removed, chip counts; 3 to 7 players; the standard game one batch in five), random compiled
bots (every registered bot with a fast path, with random valid parameters from `params_of`)
and a random first seat. After every round it checks that

- chips are conserved: the final chips sum to the players' starting chips, none negative;
- every in-play card is accounted for: the seats' final hands (read from the same compiled
  kernel, `FastTable.play(..., hands=...)`, on the same decks) are disjoint and together are
  exactly the round's deck, and each seat's card points recomputed from its hand here (lowest
  card of each run) equal the reported card points;
- scores equal card points minus chips, the winners are the seats with the lowest score and
  the win shares sum to one, and at least one move was made per in-play card;
- both calls agree (card points, chips, moves), and a few rounds of each batch replayed
  through the one-game engine (`nt.play_game(..., deck=...)`) give the same hands, chips,
  card points, scores and number of moves.

It prints the rounds played, the number of violations (must be 0) and the time; the exit
status is 1 if any round failed a check. Batches depend only on ``(seed, batch index)``, so a
run gives the same rounds at any `--workers`.

Usage: ``python benchmarks/soak.py [--rounds N] [--seed S] [--workers W] [--max-batch B]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # one thread per process: the kernel is serial

import numpy as np

import nothanks_lab as nt
from nothanks_lab import fast
from nothanks_lab.deals import deal_decks
from nothanks_lab.parallel import check_workers, open_executor, run_tasks
from nothanks_lab.rules import MAX_CARD
from nothanks_lab.simulation import simulate_chunks

#: Rounds replayed through the one-game engine per batch (it is ~5,000 times slower).
REPLAYED_PER_BATCH = 2


@dataclass
class Tally:
    """What a part of the soak run played and found."""

    rounds: int = 0
    """Rounds played and checked."""
    violations: int = 0
    """Rounds that failed at least one check."""
    failed: Counter[str] = field(default_factory=Counter)
    """Rounds failing each check, by the check's name."""
    examples: list[str] = field(default_factory=list)
    """A few failures, described (batch, round, check)."""
    replayed: int = 0
    """Rounds also replayed through the one-game engine."""
    batches: int = 0
    """Batches (random rule set, bots and first seat) played."""

    def add(self, other: Tally) -> None:
        """Add `other`'s counts to this tally."""
        self.rounds += other.rounds
        self.violations += other.violations
        self.failed.update(other.failed)
        self.examples.extend(other.examples[: max(0, 10 - len(self.examples))])
        self.replayed += other.replayed
        self.batches += other.batches


def fast_bot_names() -> list[str]:
    """Registered bots that play on the compiled fast path at their default settings."""
    names = []
    for name in nt.bots.available_bots():
        try:
            if fast.has_fast_path(nt.bots.make_bot(name)):
                names.append(name)
        except (TypeError, ValueError):  # needs arguments: not a plain fast bot
            continue
    return names


def random_rules(rng: np.random.Generator) -> nt.Rules:
    """The standard game one time in five, else a random valid variant."""
    if rng.random() < 0.2:
        return nt.Rules()
    low = int(rng.integers(1, 11))
    n_cards = int(rng.integers(2, min(40, MAX_CARD - low + 1) + 1))
    n_removed = int(rng.integers(0, n_cards))  # at least one card in play
    if rng.random() < 0.3:
        chips = nt.Rules().chips
    else:
        chips = tuple((n, int(rng.integers(0, 16))) for n in range(3, 8))
    return nt.Rules(low_card=low, high_card=low + n_cards - 1, n_removed=n_removed, chips=chips)


def random_bot(name: str, rng: np.random.Generator) -> object:
    """Bot `name` with every declared parameter drawn uniformly from its allowed range."""
    for _ in range(100):
        params: dict[str, object] = {}
        for p in nt.bots.params_of(name).values():
            if p.kind is bool:
                params[p.name] = bool(rng.random() < 0.5)
            elif p.kind is int:
                params[p.name] = int(rng.integers(int(p.low), int(p.high) + 1))
            else:
                params[p.name] = float(rng.uniform(float(p.low), float(p.high)))
        try:
            return nt.bots.make_bot(name, **params)
        except ValueError:  # parameters that are valid alone but not together: draw again
            continue
    raise RuntimeError(f"could not draw valid parameters for {name!r}")


def _masks(decks: np.ndarray) -> np.ndarray:
    """int64[G]: each deck's cards as a bit mask."""
    return np.bitwise_or.reduce(np.left_shift(np.int64(1), decks), axis=1)


def _points_of_masks(hands: np.ndarray, rules: nt.Rules) -> np.ndarray:
    """Card points of bit-mask hands, from the definition: the lowest card of each run."""
    starts = hands & ~(hands << 1)  # cards whose predecessor is not held
    points = np.zeros(hands.shape, dtype=np.int64)
    for c in range(rules.low_card, rules.high_card + 1):
        points += c * ((starts >> c) & 1)
    return points


def check_rounds(
    rules: nt.Rules,
    decks: np.ndarray,
    result: nt.SimResult,
    hands: np.ndarray,
    table_out: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """Every check of every round: a bool[G] per check, True where round ``g`` fails it.

    `result` is `simulate`'s outcome of the rounds dealt as `decks` (int[G, n_in_play]),
    `hands` (int64[G, P]) the seats' final cards as bit masks, `table_out` the card points,
    chips and moves of a second compiled run of the same decks (compared when given).
    """
    n_games, n_players = result.scores.shape
    chips0 = rules.starting_chips(n_players)
    deck_mask = _masks(decks)
    pts, chips, scores = result.card_points, result.chips, result.scores
    low_min = np.min(scores, axis=1, keepdims=True)
    failed = {
        "chips conserved": (chips.sum(axis=1) != n_players * chips0) | (chips < 0).any(axis=1),
        "hands are the deck": np.bitwise_or.reduce(hands, axis=1) != deck_mask,
        "hands disjoint": np.bitwise_count(hands).sum(axis=1) != rules.n_in_play,
        "card points of hands": (_points_of_masks(hands, rules) != pts).any(axis=1),
        "score = points - chips": (scores != pts - chips).any(axis=1),
        "winners lowest": (result.winners != (scores == low_min)).any(axis=1),
        "win shares sum to 1": np.abs(result.win_share.sum(axis=1) - 1) > 1e-9,
        "a move per card": result.n_decisions < rules.n_in_play,
    }
    if table_out is not None:
        t_pts, t_chips, t_moves = table_out
        failed["two runs agree"] = (
            (t_pts != pts).any(axis=1)
            | (t_chips != chips).any(axis=1)
            | (t_moves != result.n_decisions)
        )
    assert all(v.shape == (n_games,) for v in failed.values())
    return failed


def _replay_failures(
    policies: Sequence[object],
    rules: nt.Rules,
    deck: np.ndarray,
    first_player: int,
    result: nt.SimResult,
    g: int,
    hands: np.ndarray,
) -> list[str]:
    """Differences between round `g` of `result` and the same deck played by the engine."""
    r = nt.play_game(policies, rules=rules, deck=deck, first_player=first_player)
    got = {
        "scores": (list(r.scores), list(result.scores[g])),
        "card points": (list(r.card_points), list(result.card_points[g])),
        "chips": (list(r.chips), list(result.chips[g])),
        "moves": (len(r.history), int(result.n_decisions[g])),
        "hands": (
            [sum(1 << c for c in h) for h in r.hands],
            [int(h) for h in hands[g]],
        ),
    }
    return [f"engine differs in {k}: {a} vs {b}" for k, (a, b) in got.items() if a != b]


def play_batch(task: tuple[int, int, int, int, tuple[str, ...]]) -> Tally:
    """Play and check batch ``index`` of the run `seed`: ``(seed, index, rounds, chunk_size,
    bot names)``. Its rules, bots, seat and deals depend only on `seed` and `index`."""
    seed, index, n_rounds, chunk_size, names = task
    rng = np.random.default_rng([seed, index])
    rules = random_rules(rng)
    n_players = int(rng.integers(3, 8))
    policies = [random_bot(names[int(rng.integers(len(names)))], rng) for _ in range(n_players)]
    first_player = int(rng.integers(n_players))
    table = fast.fast_table(policies, rules)
    if table is None:
        raise RuntimeError(f"batch {index}: a bot lost its fast path: {policies}")
    decks = deal_decks(rules, seed=int(rng.integers(2**63)), start=0, count=n_rounds)
    chips0 = rules.starting_chips(n_players)
    tally = Tally(batches=1)
    chunks = simulate_chunks(
        policies,
        rules=rules,
        decks=decks,
        first_player=first_player,
        chunk_size=chunk_size,
        fast=True,
    )
    lo = 0
    for result in chunks:
        d = decks[lo : lo + result.n_games]
        hands = np.empty((len(d), n_players), dtype=np.int64)
        table_out = table.play(
            rules, chips0, first_player, decks=d, key=None, start=0, count=len(d), hands=hands
        )
        failed = check_rounds(rules, d, result, hands, table_out)
        bad = np.zeros(len(d), dtype=bool)
        for name, rows in failed.items():
            tally.failed[name] += int(rows.sum())
            bad |= rows
            for g in np.flatnonzero(rows)[: max(0, 10 - len(tally.examples))]:
                tally.examples.append(f"batch {index} round {lo + g}: {name} ({rules})")
        replay = rng.choice(len(d), size=min(REPLAYED_PER_BATCH, len(d)), replace=False)
        for g in replay if lo == 0 else ():
            diffs = _replay_failures(policies, rules, d[g], first_player, result, g, hands)
            if diffs:
                bad[g] = True
                tally.failed["engine replay"] += 1
                tally.examples += [f"batch {index} round {g}: {x}" for x in diffs[:2]]
            tally.replayed += 1
        tally.rounds += len(d)
        tally.violations += int(bad.sum())
        lo += result.n_games
    return tally


def plan(rounds: int, seed: int, max_batch: int) -> list[int]:
    """Batch sizes (random, 1 to `max_batch`) adding up to `rounds`."""
    rng = np.random.default_rng([seed, 2**32])  # apart from every batch's own stream
    sizes = []
    left = rounds
    while left > 0:
        n = min(left, int(rng.integers(1, max_batch + 1)))
        sizes.append(n)
        left -= n
    return sizes


def soak(
    rounds: int,
    *,
    seed: int = 0,
    workers: int = 1,
    max_batch: int = 200_000,
    chunk_size: int = 65_536,
    names: Sequence[str] | None = None,
) -> Tally:
    """Play and check `rounds` rounds in random batches; the tally of the whole run."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise ValueError(f"rounds must be a whole number >= 0; got {rounds!r}")
    if isinstance(max_batch, bool) or not isinstance(max_batch, int) or max_batch < 1:
        raise ValueError(f"max_batch must be a whole number >= 1; got {max_batch!r}")
    workers = check_workers(workers)
    names = tuple(fast_bot_names() if names is None else names)
    if not names:
        raise ValueError("names must list at least one bot with a fast path")
    sizes = plan(rounds, seed, max_batch)
    tasks = [(seed, i, n, chunk_size, names) for i, n in enumerate(sizes)]
    total = Tally()
    with open_executor(workers=workers, n_tasks=len(tasks)) as executor:
        for part in run_tasks(play_batch, tasks, executor):
            total.add(part)
    return total


def main(argv: Sequence[str] | None = None) -> int:
    """Run the soak from the command line; exit status 1 if any round failed a check."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10_000_000, help="rounds to play")
    ap.add_argument("--seed", type=int, default=0, help="seed of the whole run")
    ap.add_argument("--workers", type=int, default=1, help="worker processes")
    ap.add_argument("--max-batch", type=int, default=200_000, help="largest batch")
    args = ap.parse_args(argv)
    names = fast_bot_names()
    print(f"soak: {args.rounds:,} rounds, seed {args.seed}, {args.workers} worker(s); bots: ")
    print("  " + ", ".join(names))
    t0 = time.perf_counter()
    tally = soak(
        args.rounds, seed=args.seed, workers=args.workers, max_batch=args.max_batch, names=names
    )
    secs = time.perf_counter() - t0
    print(f"rounds played: {tally.rounds:,} in {tally.batches:,} batches")
    print(f"replayed through the engine: {tally.replayed:,}")
    print(f"violations: {tally.violations}")
    for name, count in sorted(tally.failed.items()):
        if count:
            print(f"  {name}: {count}")
    for line in tally.examples:
        print(f"  e.g. {line}")
    rate = tally.rounds / secs if secs > 0 else float("inf")
    print(f"time: {secs:.1f} s ({rate:,.0f} rounds/s, checks and compiling included)")
    return 1 if tally.violations else 0


if __name__ == "__main__":
    sys.exit(main())

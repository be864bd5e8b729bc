"""Seeded deals for many rounds: game ``i`` of a seeded stream depends only on the seed and ``i``.

A simulation of millions of rounds must give the same deals however it is cut up: in chunks of
any size, on any number of workers, on the compiled fast path or through the one-game engine.
So no deal draws from a shared, advancing generator. Instead the seed is turned once into a
128-bit key (`stream_key`), and game ``i``'s deck is a Fisher–Yates shuffle driven by a
counter-based generator: splitmix64 of a value mixed from the key and ``i``. `deal_into` is
written in the subset of Python that numba compiles, so the simulator's kernel deals inside its
compiled loop with the very same function `deal_decks` uses.

>>> from nothanks_lab import Rules
>>> a = deal_decks(Rules(), seed=7, start=0, count=5)
>>> b = deal_decks(Rules(), seed=7, start=3, count=2)
>>> a.shape, bool((a[3:] == b).all())
((5, 24), True)
>>> bool((deal_one(Rules(), seed=7) == a[0]).all())  # one round, no compiler needed
True
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .rules import Rules
from .validate import (
    MAX_GAME_OFFSET,
    MAX_GAMES,
    SeedLike,
    check_count,
    check_rules,
    check_sequence,
    is_int,
    keyword_only_after,
)

__all__ = [
    "GAMMA",
    "SHIFT_32",
    "deal_decks",
    "deal_into",
    "deal_one",
    "deal_range",
    "dealer_args",
    "mix64",
    "stream_key",
]

# splitmix64 constants (Steele, Lea & Flood 2014), as uint64 so numba keeps the arithmetic
# unsigned and wrapping.
#: splitmix64's increment (the golden ratio): bots that hash their parameters use it too.
GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_MUL2 = np.uint64(0x94D049BB133111EB)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
#: A 32-bit shift as uint64: the high half of a 64-bit draw.
SHIFT_32 = np.uint64(32)


def mix64(z: np.uint64) -> np.uint64:
    """The splitmix64 finaliser: a bijective scramble of 64 bits (numba-compilable)."""
    z = (z ^ (z >> _S30)) * _MUL1
    z = (z ^ (z >> _S27)) * _MUL2
    mixed: np.uint64 = z ^ (z >> _S31)
    return mixed


def deal_into(
    key0: np.uint64,
    key1: np.uint64,
    game: np.int64,
    low_card: np.int64,
    n_cards: np.int64,
    out: np.ndarray,
    box: np.ndarray,
) -> None:
    """Write game `game`'s in-play cards, in turning order, into `out` (numba-compilable).

    `box` is scratch space of ``n_cards`` ints. Only the first ``len(out)`` positions of the
    Fisher–Yates shuffle are drawn: that is a uniform random ordered selection of the in-play
    cards, and the rest of the box is the removed cards. Each draw takes 32 random bits times
    the number of choices (at most 62) shifted down, whose bias (below 2**-26) is far under
    anything a simulation can detect.
    """
    for i in range(n_cards):
        box[i] = low_card + i
    x = mix64(key0 ^ mix64(key1 + np.uint64(game)))
    for k in range(out.shape[0]):
        x += GAMMA
        r = mix64(x) >> SHIFT_32
        j = k + np.int64((r * np.uint64(n_cards - k)) >> SHIFT_32)
        c = box[j]
        box[j] = box[k]
        box[k] = c
        out[k] = c


def deal_range(
    key0: np.uint64,
    key1: np.uint64,
    start: np.int64,
    low_card: np.int64,
    n_cards: np.int64,
    out: np.ndarray,
) -> None:
    """Deal games ``start, start+1, ...`` into the rows of `out` (numba-compilable)."""
    box = np.empty(n_cards, dtype=np.int64)
    for g in range(out.shape[0]):
        deal_into(key0, key1, start + g, low_card, n_cards, out[g], box)


def stream_key(seed: SeedLike | np.ndarray) -> np.ndarray:
    """The two 64-bit words that, with a game index, fix every deal of a seeded stream.

    `seed` is an int, a `numpy.random.SeedSequence`, a `numpy.random.Generator` (two words are
    drawn from it), or an already made key (uint64[2]). ``None`` is refused: callers that want
    fresh entropy draw it first (see :func:`nothanks_lab.simulation.simulate`) so that it can be
    reported and the run repeated.
    """
    if isinstance(seed, np.ndarray) and seed.dtype == np.uint64 and seed.shape == (2,):
        key: np.ndarray = seed.copy()
        return key
    # An int and a SeedSequence mean what ``numpy.random.default_rng`` makes of them, so that
    # ``seed=7``, ``SeedSequence(7)`` and a fresh ``default_rng(7)`` all deal the same stream.
    if isinstance(seed, np.random.SeedSequence):
        seed = np.random.default_rng(seed)
    if isinstance(seed, np.random.Generator):
        return seed.integers(0, 2**64, size=2, dtype=np.uint64)
    if not is_int(seed) or seed < 0:
        raise ValueError(
            "seed must be a whole number >= 0, a numpy SeedSequence or Generator, or a "
            f"uint64[2] key (None is drawn by the caller); got {seed!r}"
        )
    return np.random.default_rng(int(seed)).integers(0, 2**64, size=2, dtype=np.uint64)


def dealer_args(
    key: np.ndarray, game: int, rules: Rules
) -> tuple[np.uint64, np.uint64, np.int64, np.int64, np.int64]:
    """The leading arguments of the dealers (`deal_into`, `deal_range`) and of the compiled
    kernels that deal: the stream `key`'s two words, the game index `game` (the first, for a
    range) and the card range, typed as they are compiled for."""
    return key[0], key[1], np.int64(game), np.int64(rules.low_card), np.int64(rules.n_cards)


@keyword_only_after(1, "seed", "start", "count")
def deal_decks(
    rules: Rules | None, *, seed: SeedLike | np.ndarray, start: int = 0, count: int = 1
) -> np.ndarray:
    """Decks of games ``start .. start+count-1`` of the stream `seed`: int64[count, n_in_play].

    `seed`, `start` and `count` are keyword-only, as `seed` is everywhere (by position they
    still work this release, with a `DeprecationWarning`).

    Game ``i``'s deck depends only on (`seed`, ``i``), so any split of a run into ranges gives
    the same decks as one call over the whole run. `count` is at most `MAX_GAMES` (the
    ceiling of every games argument) and `start` at most `MAX_GAME_OFFSET`, checked before
    anything is allocated.
    """
    rules = check_rules(rules)
    start = check_count(start, "start", MAX_GAME_OFFSET, low=0)
    count = check_count(count, "count", MAX_GAMES, low=0)
    key = stream_key(seed)
    out = np.empty((int(count), rules.n_in_play), dtype=np.int64)
    from .jit import jit_pure  # numba loads only when deals are made

    jit_pure(deal_range)(*dealer_args(key, start, rules), out)
    return out


@keyword_only_after(1, "seed", "game")
def deal_one(rules: Rules | None, *, seed: SeedLike | np.ndarray, game: int = 0) -> np.ndarray:
    """Game `game`'s deck of the stream `seed` (int64[n_in_play]), dealt in plain Python.

    The very function `deal_decks` compiles, run uncompiled: a single round (`Game`,
    `play_game`) gets the deal a simulation with the same seed plays as game `game`, without
    loading numba. ``None`` is refused as in `stream_key`.
    """
    rules = check_rules(rules)
    game = check_count(game, "game", MAX_GAME_OFFSET, low=0)
    key = stream_key(seed)
    out = np.empty(rules.n_in_play, dtype=np.int64)
    box = np.empty(rules.n_cards, dtype=np.int64)
    with np.errstate(over="ignore"):  # uint64 arithmetic wraps on purpose, as in numba
        deal_into(*dealer_args(key, game, rules), out, box)
    return out


def check_deck(deck: Iterable[int], rules: Rules) -> np.ndarray:
    """Return `deck` as an int array, or raise `ValueError` saying what is wrong with it.

    Cards are whole numbers (Python ints or numpy integers, of any integer dtype): a float
    such as ``3.0`` or a bool is refused, as everywhere a whole number is asked for.
    """
    items = check_sequence(
        deck,
        "the deck",
        f"a sequence of {rules.n_in_play} cards in turning order",
        max_items=rules.n_cards,  # an endless iterator is refused, not read for ever
    )
    for c in items:
        if not is_int(c):
            raise ValueError(
                f"the deck's cards must be whole numbers (int or numpy integer, "
                f"{rules.low_card}..{rules.high_card} in these rules); got {c!r}"
            )
    cards = rules.check_cards(items, what="the deck")
    if len(cards) != rules.n_in_play:
        raise ValueError(
            f"the deck must hold exactly {rules.n_in_play} in-play cards "
            f"({rules.n_cards} cards minus {rules.n_removed} removed); got {len(cards)}"
        )
    if len(set(cards)) != len(cards):
        dupes = sorted({c for c in cards if cards.count(c) > 1})
        raise ValueError(f"the deck holds {dupes} more than once; each card appears at most once")
    return np.array(cards, dtype=np.int64)

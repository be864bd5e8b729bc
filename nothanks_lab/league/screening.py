"""Screening a student's bot before the league: a few rounds and two forced takes.

:func:`screen_bot` plays a bot a few rounds against the built-in bots through the one-game
engine (a new seat each round), then shows it two positions with no chip left, where it must
take. A bot that cannot be copied, raises, answers anything but a legal move, is too slow on
average or overruns its time limit gets a `Rejection` instead of a seat in the league. Its
seed is fixed by the league's seed and the bot's name, so screening is reproducible.
"""

from __future__ import annotations

import copy
import zlib
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..bots.specs import make_policy
from ..engine import Action
from ..play import PolicyError, ask, play_game
from ..rules import Rules
from ..tournaments.botfile import error_text
from ..validate import (
    MAX_SCREEN_ROUNDS,
    MAX_TIME_LIMIT_S,
    check_count,
    check_number,
    check_players,
    check_rules,
    check_seed,
    is_int,
)
from ..view import PlayerView
from .limits import _time_limit, _TimeUp
from .student import Rejection, StudentBot, _rejection

__all__ = ["DEFAULT_BUILTINS", "MAX_MS_PER_DECISION", "TIME_LIMIT_S", "screen_bot"]

#: The built-in bots every student bot meets by default (registry names).
DEFAULT_BUILTINS: tuple[str, ...] = ("marginal", "heuristic")
#: Deals a league plays by default (each in every order of the seats).
#: The slowest mean time per decision a screened bot may take, in milliseconds.
MAX_MS_PER_DECISION = 50.0
#: Seconds a file may take to load, and a bot to play its screening rounds.
TIME_LIMIT_S = 10.0
#: Bar colours of the leaderboard: student bots, built-in bots.


# --------------------------------------------------------------------------- screening
def _builtin_policies(builtins: Sequence[Any]) -> list[Any]:
    if isinstance(builtins, str | bytes) or not isinstance(builtins, Sequence):
        raise ValueError(
            f"builtins must be a list of bots such as ['marginal', 'heuristic']; got {builtins!r}"
        )
    return [make_policy(b) for b in builtins]


def _seed_for(seed: int, name: str) -> np.random.SeedSequence:
    """The screening seed of one bot: fixed by the league's seed and the bot's name."""
    return np.random.SeedSequence([seed, zlib.crc32(name.encode()), 5])


def _fresh_seed(seed: object) -> int:
    """An explicit seed (fresh entropy for None), so every league can be rerun."""
    seed = check_seed(seed)
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))
    if not is_int(seed):  # check_seed let a Generator or a SeedSequence through
        raise ValueError(f"seed must be a whole number >= 0 or None; got {seed!r}")
    return int(seed)


def _no_chip_probes(rules: Rules, n_players: int) -> list[PlayerView]:
    """Positions with no chip left (taking is the only move), met late in a round if at all.

    The bot holds the lowest card and has spent its chips: they lie with the other seats (and
    on the card), so the chips add up as in a real round.
    """
    from ..analysis import position_view

    start = rules.starting_chips(n_players)
    probes = []
    for card, pot in ((rules.high_card, 0), ((rules.low_card + rules.high_card + 1) // 2, 1)):
        spare = max(start - pot, 0)
        others = [
            start + spare // (n_players - 1) + (i < spare % (n_players - 1))
            for i in range(n_players - 1)
        ]
        try:
            probes.append(
                position_view(
                    card,
                    min(pot, start),
                    (rules.low_card,),
                    n_players=n_players,
                    my_chips=0,
                    other_chips=others,
                    rules=rules,
                )
            )
        except ValueError:  # a variant too small for this position: the rounds must do
            pass
    return probes


def check_time_limit(time_limit: object) -> float | None:
    """`time_limit` in seconds (None: no limit), between 0.001 and `MAX_TIME_LIMIT_S`."""
    if time_limit is None:
        return None
    return check_number(time_limit, "time_limit", low=0.001, high=MAX_TIME_LIMIT_S)


def screen_bot(
    bot: StudentBot,
    *,
    builtins: Sequence[Any] = DEFAULT_BUILTINS,
    n_players: int = 3,
    rounds: int = 3,
    seed: int | np.random.SeedSequence | None = None,
    rules: Rules | None = None,
    max_ms: float = MAX_MS_PER_DECISION,
    time_limit: float | None = TIME_LIMIT_S,
) -> Rejection | None:
    """Play `rounds` rounds of `bot` against the built-ins (a new seat each round); None if fine.

    Then the bot is shown two positions in which it has no chip left (it must take there).
    Returns a `Rejection` when the bot cannot be copied (a tournament plays copies), raises,
    answers anything but a legal move, takes longer than `max_ms` per decision on average, or
    longer than `time_limit` seconds in all.

    >>> screen_bot(StudentBot("always_pass", lambda view: Action.PASS), seed=1).problem
    'it said No Thanks! with no chips left (a player with no chips must take)'
    """
    if not isinstance(bot, StudentBot):
        raise ValueError(f"bot must be a StudentBot (see as_bot); got {bot!r}")
    rules = check_rules(rules)
    n_players = check_players(n_players, rules)
    rounds = check_count(rounds, "rounds", MAX_SCREEN_ROUNDS)
    max_ms = check_max_ms(max_ms)
    time_limit = check_time_limit(time_limit)
    opponents = _builtin_policies(builtins)
    if not opponents:
        raise ValueError("builtins must name at least one bot to screen against")
    try:
        copy.deepcopy(bot)
    except Exception as e:
        return Rejection(
            bot.name,
            bot.file,
            "screen",
            f"it cannot be copied ({error_text(e)}), and the league plays copies of each bot",
            "Keep only numbers, lists, dicts and the like in the bot's attributes.",
        )
    if not isinstance(seed, np.random.SeedSequence):
        seed = np.random.SeedSequence(_fresh_seed(seed))
    children = seed.spawn(rounds)
    bot.calls, bot.seconds = 0, 0.0
    fired = [False]
    try:
        with _time_limit(time_limit) as fired:
            for r, child in enumerate(children):
                others = [
                    copy.deepcopy(opponents[i % len(opponents)]) for i in range(n_players - 1)
                ]
                seat = r % n_players
                play_game([*others[:seat], bot, *others[seat:]], rules=rules, seed=child)
            for view in _no_chip_probes(rules, n_players):
                ask(bot, view, (Action.TAKE,))
    except PolicyError as e:
        if e.policy is not bot:
            raise  # a built-in bot failed: a bug of the package, not the student's
        return _rejection(bot, "screen", e)
    except _TimeUp:
        fired[0] = True
    except SystemExit as e:
        return Rejection(
            bot.name,
            bot.file,
            "screen",
            f"its act(view) called exit() ({error_text(e)})",
            "A bot only answers: return Action.TAKE or Action.PASS.",
        )
    if fired[0]:
        done = (
            f"{bot.calls} decisions took {bot.seconds:.2f} s, "
            f"{1000 * bot.seconds / bot.calls:.0f} ms each"
            if bot.calls
            else "it had not answered its first decision"
        )
        return Rejection(
            bot.name,
            bot.file,
            "screen",
            f"its {rounds} screening rounds took more than the {time_limit:g} s allowed and "
            f"were stopped ({done}; a league allows {max_ms:g} ms per decision)",
            "Make sure every loop in act ends, and keep each decision quick.",
        )
    ms = 1000 * bot.seconds / max(bot.calls, 1)
    if ms > max_ms:
        return Rejection(
            bot.name,
            bot.file,
            "screen",
            f"it is too slow for a league: {ms:.0f} ms per decision, where {max_ms:g} ms is "
            "allowed",
            "Do less work in each call of act.",
        )
    return None


def _screen_each(
    candidates: Iterable[StudentBot | Rejection],
    *,
    seed: int,
    time_limit: float | None,
    **screen: Any,
) -> tuple[list[StudentBot], list[Rejection]]:
    """Screen each bot in turn, its seed fixed by `seed` and its name: those passed, those out.

    A `Rejection` among `candidates` (a file that did not load) keeps its place among the
    rejections; `screen` holds `screen_bot`'s other options.
    """
    bots: list[StudentBot] = []
    rejections: list[Rejection] = []
    for bot in candidates:
        if isinstance(bot, Rejection):
            rejections.append(bot)
            continue
        problem = screen_bot(bot, seed=_seed_for(seed, bot.name), time_limit=time_limit, **screen)
        if problem is None:
            bots.append(bot)
        else:
            rejections.append(problem)
    return bots, rejections


def check_max_ms(max_ms: object) -> float:
    """`max_ms` (mean milliseconds a decision may take) as a float; `ValueError` unless > 0."""
    ms = check_number(max_ms, "max_ms", low=0)
    if ms <= 0:  # every bot takes some time: 0 would leave every one out as too slow
        raise ValueError(f"max_ms must be a number of milliseconds above 0; got {max_ms!r}")
    return ms

"""Example positions for the lessons, found by what they show rather than by a move count.

A lesson that stops a seeded round after a fixed number of moves breaks when a student changes
the seed: the round may end earlier, or the card it talks about may already be gone. Here a
position is *searched for*: rounds dealt from the seed are played by a bot in every seat, and the
first moment a seat is to act in a position meeting the lesson's condition is returned. Round
after round is dealt (each from its own child of the seed) until one has it, so any seed finds
a position; only a condition that (almost) never happens runs out of rounds, with a message.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import numpy as np

from .engine import Game
from .probability import gaps
from .rules import Rules
from .validate import check_int, check_seat
from .view import PlayerView

__all__ = ["find_position", "has_fillable_gaps", "has_unseen_neighbour", "open_gaps"]


def open_gaps(view: PlayerView) -> list[tuple[int, ...]]:
    """The gaps between the seat's runs whose cards are all unseen (so may all still come).

    >>> from nothanks_lab.analysis import position_view
    >>> open_gaps(position_view(21, 0, (20, 22, 25)))  # 21 is face up: only 23-24 is open
    [(23, 24)]
    """
    unseen = set(view.unseen_cards)
    return [g for g in gaps(view) if unseen.issuperset(g)]


def has_fillable_gaps(view: PlayerView, sizes: Collection[int] = (1, 2)) -> bool:
    """Whether the hand has an open gap (:func:`open_gaps`) of each size in `sizes`.

    Enough face-down cards must be left for the largest of them to be filled.

    >>> from nothanks_lab.analysis import position_view
    >>> has_fillable_gaps(position_view(5, 0, (20, 22, 25)))
    True
    >>> has_fillable_gaps(position_view(21, 0, (20, 22, 25)))  # the 21 is face up
    False
    """
    open_sizes = {len(g) for g in open_gaps(view)}
    return set(sizes) <= open_sizes and view.cards_left >= max(sizes, default=0)


def has_unseen_neighbour(view: PlayerView) -> bool:
    """Whether the seat can pass and a card next to one of its cards is still unseen.

    >>> from nothanks_lab.analysis import position_view
    >>> has_unseen_neighbour(position_view(5, 0, (20,))), has_unseen_neighbour(position_view(5, 0))
    (True, False)
    """
    unseen = set(view.unseen_cards)
    near = {c + d for c in view.my_hand for d in (-1, 1)}
    return view.can_pass and bool(near & unseen)


def find_position(
    condition: Callable[[PlayerView], bool],
    *,
    seed: int,
    n_players: int = 4,
    seat: int = 0,
    policy: object | None = None,
    rules: Rules | None = None,
    max_rounds: int = 2000,
) -> Game:
    """The first position of rounds dealt from `seed` where `seat` is to act and `condition` holds.

    Every seat is played by `policy` (default ``MarginalCostBot(10)``). Round *i* is dealt from
    the *i*-th child of ``SeedSequence(seed)``, so the same seed finds the same position. Raises
    ``LookupError`` if none of `max_rounds` rounds comes to such a position.

    >>> g = find_position(has_fillable_gaps, seed=773)
    >>> g.current_player, has_fillable_gaps(g.view(0))
    (0, True)
    """
    from .bots import MarginalCostBot
    from .play import ask

    seed = check_int(seed, "seed", low=0)
    max_rounds = check_int(max_rounds, "max_rounds", low=1)
    seat = check_seat(seat, n_players)
    bot = MarginalCostBot(10) if policy is None else policy
    for child in np.random.SeedSequence(int(seed)).spawn(max_rounds):
        game = Game(n_players, rules=rules, seed=child)
        while not game.is_over:
            mover = game.current_player
            view = game.view(mover)
            if mover == seat and condition(view):
                return game
            game.step(ask(bot, view, game.legal_actions()))
    raise LookupError(
        f"no position meeting the condition came up in {max_rounds} rounds dealt from seed "
        f"{seed}; try another seed or a weaker condition"
    )

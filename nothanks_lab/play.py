"""Playing whole rounds and matches with policies: `play_game`, `play_match`.

Each seat's policy is asked for a move with that seat's `PlayerView` only. A policy that
raises or answers with something other than a legal `Action` stops the round with a
`PolicyError` naming the bot and the view it was shown, never a silent wrong result.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .engine import Action, Event, Game, SeedLike
from .rules import Rules
from .validate import MAX_MATCH_ROUNDS, check_count, seed_sequence
from .view import PlayerView

__all__ = ["GameResult", "MatchResult", "PolicyError", "play_game", "play_match", "policy_name"]


class PolicyError(ValueError):
    """A policy raised, or returned something other than a legal move."""

    def __init__(self, message: str, *, policy: object, view: PlayerView) -> None:
        super().__init__(message)
        self.policy = policy
        self.view = view

    def __reduce__(self) -> tuple[object, ...]:
        # The keyword-only arguments are not in ``args``: say how to rebuild, so the error
        # crosses to the parent process intact when a bot fails on a worker.
        return (
            _rebuild_policy_error,
            (type(self), str(self), self.policy, self.view),
            self.__dict__,
        )


def _rebuild_policy_error(
    cls: type[PolicyError], message: str, policy: object, view: PlayerView
) -> PolicyError:
    return cls(message, policy=policy, view=view)


def policy_name(policy: object) -> str:
    """A readable name for a policy (its ``name`` if it has one)."""
    name = getattr(policy, "name", None)
    return name if isinstance(name, str) else type(policy).__name__


def check_policies(policies: Sequence[object], game: Game | None = None) -> list[object]:
    """Return `policies` as a list, or raise `ValueError` for one without ``act``.

    Given the `game` they are about to play, the error is a `PolicyError` carrying the view
    that seat would be shown first.
    """
    policies = _policy_list(policies)
    for i, p in enumerate(policies):
        if not callable(getattr(p, "act", None)):
            message = f"seat {i}: {policy_name(p)} is not a policy (it needs an act(view) method)"
            if game is None:
                raise ValueError(message)
            view = game.view(i)
            raise PolicyError(f"{message}; it would be shown {view}", policy=p, view=view)
    return policies


def _policy_list(policies: object) -> list[object]:
    # A lone bot is iterable by accident at best; say what was expected instead of a TypeError.
    if callable(getattr(policies, "act", None)) or not isinstance(policies, Iterable):
        raise ValueError(
            f"policies must be a sequence with one policy per seat; got {policy_name(policies)}"
        )
    from .validate import take_items

    return take_items(policies, "policies", MAX_SEATS)


#: Most policies read from a `policies` argument: more seats than any rule set allows (the
#: player count is checked afterwards); an endless iterator is refused after one more.
MAX_SEATS = 64


def ask(policy: object, view: PlayerView, legal: Sequence[Action]) -> Action:
    """Ask `policy` for a move in `view`; `PolicyError` if it fails or answers illegally."""
    try:
        action = policy.act(view)  # type: ignore[attr-defined]
    except Exception as e:
        raise PolicyError(
            f"{policy_name(policy)} (seat {view.seat}) raised {type(e).__name__}: {e} "
            f"when shown {view}",
            policy=policy,
            view=view,
        ) from e
    if not isinstance(action, Action) or action not in legal:
        raise PolicyError(
            f"{policy_name(policy)} (seat {view.seat}) answered {action!r}; legal moves are "
            f"{[a.name for a in legal]}; it was shown {view}",
            policy=policy,
            view=view,
        )
    return action


@dataclass(frozen=True)
class GameResult:
    """The outcome of one round."""

    scores: tuple[int, ...]
    """Final score per seat (lowest wins)."""
    card_points: tuple[int, ...]
    """Card points per seat."""
    chips: tuple[int, ...]
    """Chips per seat at the end."""
    hands: tuple[tuple[int, ...], ...]
    """Cards per seat at the end."""
    winners: tuple[int, ...]
    """Every seat with the lowest score."""
    removed: tuple[int, ...]
    """The cards that were set aside (revealed after the round)."""
    history: tuple[Event, ...]
    """Every move, in order."""
    first_player: int
    """The seat that acted first."""

    @classmethod
    def of(cls, game: Game) -> GameResult:
        """The result of a finished `game`."""
        return cls(
            scores=game.scores(),
            card_points=game.card_points(),
            chips=game.chips,
            hands=game.hands,
            winners=game.winners(),
            removed=game.removed_cards(),
            history=game.history,
            first_player=game.first_player,
        )


def play_game(
    policies: Sequence[object],
    *,
    rules: Rules | None = None,
    seed: SeedLike = None,
    deck: Iterable[int] | None = None,
    first_player: int = 0,
) -> GameResult:
    """Play one round, seat ``i`` moved by ``policies[i]``.

    Parameters
    ----------
    policies : sequence
        One object with ``act(view) -> Action`` per seat, 3 to 7 of them for the standard
        game; the same object may sit in several seats.
    rules : Rules, optional
        The rule set; the standard game when None.
    seed : int, SeedSequence, Generator or None
        Seeds the deal (ignored when `deck` is given); None deals at random.
    deck : iterable of int, optional
        The in-play cards in the order they are turned; the removed cards are the rest.
    first_player : int
        The seat that acts first.

    Returns
    -------
    GameResult
        The finished round: ``.scores`` (per seat), the hands, chips and history.

    Raises
    ------
    ValueError
        For a bad player count, seat or deck (as `Game` raises it).
    PolicyError
        If a policy raises or answers with an illegal move; it names the bot and the view.

    >>> from nothanks_lab.bots import MarginalCostBot
    >>> r = play_game([MarginalCostBot(5)] * 3, seed=7)
    >>> len(r.scores), sum(len(h) for h in r.hands)
    (3, 24)
    """
    policies = _policy_list(policies)
    game = Game(len(policies), rules=rules, seed=seed, deck=deck, first_player=first_player)
    return GameResult.of(play_out(game, policies))


def play_out(game: Game, policies: Sequence[object]) -> Game:
    """Play `game` to its end, seat ``i`` moved by ``policies[i]``; returns the same game."""
    policies = check_policies(_policy_list(policies), game)
    # `ask` checks each move against the legal ones, so the game plays it without checking
    # it again.
    game._play_out(policies, ask)
    return game


@dataclass(frozen=True)
class MatchResult:
    """The outcome of a match of several rounds."""

    round_scores: np.ndarray
    """Each round's scores, an int array of shape (rounds, seats)."""
    games: tuple[GameResult, ...]
    """Each round in full."""

    @property
    def totals(self) -> np.ndarray:
        """Cumulative score per seat, an int array of shape (seats,)."""
        totals: np.ndarray = self.round_scores.sum(axis=0)
        return totals

    @property
    def winners(self) -> tuple[int, ...]:
        """Every seat with the lowest total (ties are shared)."""
        t = self.totals
        return tuple(int(i) for i in np.flatnonzero(t == t.min()))

    def _repr_html_(self) -> str:
        from .render import match_html

        return match_html(self)


def play_match(
    policies: Sequence[object],
    *,
    rounds: int = 4,
    seed: SeedLike = None,
    rules: Rules | None = None,
    first_player: int = 0,
) -> MatchResult:
    """Play `rounds` rounds with cumulative scores; each round starts one seat further on.

    The deals come from ``SeedSequence(seed)``, one child per round, so a match is fully
    reproducible from its seed (bots draw from their own seeded generators).

    Parameters
    ----------
    policies : sequence
        One object with ``act(view) -> Action`` per seat.
    rounds : int
        The number of rounds, at least 1.
    seed : int, SeedSequence, Generator or None
        Seeds every round's deal; None deals at random.
    rules : Rules, optional
        The rule set; the standard game when None.
    first_player : int
        The seat that acts first in the first round.

    Returns
    -------
    MatchResult
        ``.round_scores`` (rounds × seats), ``.totals`` and ``.winners`` (every seat with the
        lowest total), and each round in full (``.games``).

    Raises
    ------
    ValueError
        For `rounds` below 1 or above ``validate.MAX_MATCH_ROUNDS`` (10,000), a bad player
        count or seat.
    PolicyError
        If a policy raises or answers with an illegal move.

    >>> from nothanks_lab.bots import MarginalCostBot
    >>> m = play_match([MarginalCostBot(t) for t in (0, 5, 10)], rounds=2, seed=3)
    >>> m.round_scores.shape, [g.first_player for g in m.games]
    ((2, 3), [0, 1])
    """
    rounds = check_count(rounds, "rounds", MAX_MATCH_ROUNDS)
    policies = _policy_list(policies)
    n = len(policies)
    # Validate the setup now; play_game checks the policies against the first real view.
    Game(n, rules=rules, deck=None, seed=0, first_player=first_player)
    seeds = seed_sequence(seed).spawn(int(rounds))
    games = tuple(
        play_game(
            policies,
            rules=rules,
            seed=np.random.default_rng(s),
            first_player=(first_player + r) % n,
        )
        for r, s in enumerate(seeds)
    )
    return MatchResult(
        round_scores=np.array([g.scores for g in games], dtype=np.int64), games=games
    )

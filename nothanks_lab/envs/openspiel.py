"""No Thanks! as an OpenSpiel Python game, ``"python_no_thanks"``, on the one rules engine.

`register` registers the game with ``pyspiel`` (the ``open_spiel`` package, not a dependency of
this one: ``pip install open_spiel``). A round is a sequential game of perfect information with
explicit chance nodes: before each card is turned face up, chance picks it uniformly among the
cards nobody has seen (the removed cards are simply never picked, so they are never revealed
and need no hidden state). Chance outcome ``k`` turns card ``low_card + k``; player actions
are 1 = take, 0 = pass. The moves are `nothanks_lab.core.step` on a one-round `core.State`
whose deck is filled in as chance turns the cards, so there is no second copy of the rules.
Returns at the end are win shares (``1/k`` each for ``k`` tied winners), a constant-sum game.

Game parameters: ``players`` (default 3), ``low_card`` (3), ``high_card`` (35),
``n_removed`` (9) and ``chips`` (0: the rule set's standard starting chips, which exist for 3
to 7 players; any other value gives every seat that many, and is needed for 2 players). The
observation tensor is the encoding of :mod:`nothanks_lab.envs.encoding` from the observing
seat (at a chance node: no active card, and "cards left" counts the card about to turn), then
``P`` entries marking the seat to act, relative to the observer (all 0 at chance and terminal
nodes).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from .. import core
from ..rules import Rules
from .encoding import encode_into, obs_size

__all__ = ["GAME_NAME", "NoThanksGame", "NoThanksState", "game_rules", "register"]

GAME_NAME = "python_no_thanks"
_DEFAULTS = {"players": 3, "low_card": 3, "high_card": 35, "n_removed": 9, "chips": 0}


def game_rules(params: dict[str, Any]) -> tuple[Rules, int]:
    """The rule set and player count of a parameter dict (`ValueError` for a bad one)."""
    p = {**_DEFAULTS, **params}
    n = int(p["players"])
    if int(p["chips"]) > 0:
        chips: tuple[tuple[int, int], ...] = ((n, int(p["chips"])),)
    else:
        chips = Rules().chips  # the standard table of starting chips
    rules = Rules(
        low_card=int(p["low_card"]),
        high_card=int(p["high_card"]),
        n_removed=int(p["n_removed"]),
        chips=chips,
    )
    rules.starting_chips(n)  # ValueError naming the counts the rules allow
    return rules, n


def _game_type() -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Python No Thanks!",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=7,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
    )


class NoThanksGame(pyspiel.Game):  # type: ignore[misc]  # an untyped base class
    """The game object OpenSpiel builds from the parameters (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.rules, self.n_players = game_rules(dict(params or {}))
        r, n = self.rules, self.n_players
        chips = r.starting_chips(n)
        info = pyspiel.GameInfo(
            num_distinct_actions=2,
            max_chance_outcomes=r.n_cards,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            # each card: its chance node, at most every chip of the table passed onto it, a take
            max_game_length=r.n_in_play * (n * chips + 2),
        )
        super().__init__(_game_type(), info, {**_DEFAULTS, **dict(params or {})})

    def new_initial_state(self) -> NoThanksState:
        return NoThanksState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self)


class NoThanksState(pyspiel.State):  # type: ignore[misc]  # an untyped base class
    """A round in progress: a `core.State` of one round whose deck chance fills in."""

    def __init__(self, game: NoThanksGame) -> None:
        super().__init__(game)
        self.rules, self.n = game.rules, game.n_players
        deck = np.full((1, self.rules.n_in_play), -1, dtype=np.int64)
        self.s = core.new_state(deck, self.n, self.rules.starting_chips(self.n), 0)
        self.turned = 0  # cards chance has turned face up so far

    def _over(self) -> bool:
        return bool(core.is_over(self.s, 0))

    def is_chance_node(self) -> bool:
        return not self._over() and self.turned == int(self.s.turned[0])

    def current_player(self) -> int:
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.is_chance_node():
            return int(pyspiel.PlayerId.CHANCE)
        return int(self.s.player[0])

    def _unseen(self) -> list[int]:
        seen = set(int(c) for c in self.s.deck[0, : self.turned])
        return [c for c in self.rules.cards if c not in seen]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        unseen = self._unseen()
        return [(c - self.rules.low_card, 1.0 / len(unseen)) for c in unseen]

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1] if core.can_pass(self.s, 0) else [1]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self.s.deck[0, self.turned] = self.rules.low_card + int(action)
            self.turned += 1
        else:
            core.step(self.s, 0, action == 1)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Turn:{self.rules.low_card + int(action)}"
        return "Take" if action == 1 else "Pass"

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> list[float]:
        if not self._over():
            return [0.0] * self.n
        points = np.array([[core.card_points_mask(int(m)) for m in self.s.hands[0]]])
        scores = np.empty((1, self.n), dtype=np.int64)
        winners = np.empty((1, self.n), dtype=np.bool_)
        share = np.empty((1, self.n), dtype=np.float64)
        core.score_rows(points, self.s.chips, scores, winners, share)
        return [float(x) for x in share[0]]

    def __str__(self) -> str:
        card = (
            "-" if self.is_chance_node() or self._over() else int(self.s.deck[0, self.turned - 1])
        )
        hands = [[c for c in self.rules.cards if (int(m) >> c) & 1] for m in self.s.hands[0]]
        return (
            f"card {card} pot {int(self.s.pot[0])} chips {self.s.chips[0].tolist()} "
            f"hands {hands} to act {self.current_player()}"
        )


class _Observer:
    """OpenSpiel's PyObserver: the shared encoding plus who is to act (see the module)."""

    def __init__(self, game: NoThanksGame) -> None:
        self.n = game.n_players
        self.rules = game.rules
        size = obs_size(self.rules, self.n)
        self.tensor = np.zeros(size + self.n, np.float32)
        self.dict = {"observation": self.tensor[:size], "to_act": self.tensor[size:]}

    def set_from(self, state: NoThanksState, player: int) -> None:
        s, r = state.s, self.rules
        chance, over = state.is_chance_node(), state.is_terminal()
        active = -1 if chance or over else int(core.active_card(s, 0))
        left = r.n_in_play - state.turned
        encode_into(
            self.dict["observation"], active, int(s.pot[0]), player, s.hands[0], s.chips[0],
            left, r.low_card, r.n_cards,
        )  # fmt: skip
        to_act = self.dict["to_act"]
        to_act[:] = 0.0
        if not (chance or over):
            to_act[(int(s.player[0]) - player) % self.n] = 1.0

    def string_from(self, state: NoThanksState, player: int) -> str:
        return f"player {player}: {state}"


def register() -> None:
    """Register ``"python_no_thanks"`` with pyspiel (idempotent); then
    ``pyspiel.load_game("python_no_thanks", {"players": 4})`` builds it."""
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(), NoThanksGame)

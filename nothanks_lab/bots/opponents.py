"""Opponent modelling from views alone: which known policy does each rival seem to follow?

A bot is shown a `PlayerView` only when it is to act, yet every move is public, so the moves the
rivals made between two of its views can be read back from the two views: who gained which
cards, whose chips went down by one. `decisions_between` reconstructs those moves (skipping the
few whose card or order two views cannot pin down, and returning ``None`` when the second view
cannot follow the first, e.g. in a new round). `OpponentModel` scores each rival's moves against
a small family of candidate policies (`MODELS`: the heuristic bot, greedy ``MarginalCostBot(0)``
and ``MarginalCostBot(10)``) and keeps Bayesian weights per rival, reset at every new round.
With ``learn`` on, every finished round also teaches the model what its rivals were like: the
next round starts from a prior pulled towards the policies seen so far (seat numbers are not
carried over, since seats rotate). The search bot samples its rollout opponents from these
weights. Nothing here reads hidden state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..rules import Rules
from ..validate import check_bool, check_number
from ..view import PlayerView
from .heuristic import HEURISTIC_PARAMS, SWITCHES_OFF, heuristic_decide, pack_params

__all__ = [
    "MODELS",
    "PRIOR_COUNT",
    "Decision",
    "OpponentModel",
    "decisions_between",
    "model_params",
]

#: Candidate policies for a rival, as changes to the heuristic bot's default parameters (with
#: every switch off it is exactly ``MarginalCostBot(threshold)``; tests check that). Keys are
#: the names `explain` reports; ``"heuristic"`` is `HeuristicBot` (registry name "heuristic").
MODELS: Mapping[str, Mapping[str, Any]] = {
    "heuristic": {},
    "greedy": {**SWITCHES_OFF, "threshold": 0.0},
    "marginal10": {**SWITCHES_OFF, "threshold": 10.0},
}

#: Weight of the starting prior in a learning model, in rival-rounds: after this many rivals'
#: rounds have been seen, the learnt mix counts as much as the starting prior.
PRIOR_COUNT = 4.0


def model_params(rules: Rules | None = None) -> np.ndarray:
    """``float64[K, N]``: the decision parameters of each candidate policy in `MODELS` order."""
    defaults = {p.name: p.default for p in HEURISTIC_PARAMS}
    return np.stack([pack_params({**defaults, **m}, rules) for m in MODELS.values()])


@dataclass(frozen=True)
class Decision:
    """One rival move read back from two views, with the public facts it was made on."""

    seat: int
    """The seat that moved."""
    card: int
    """The active card it decided on."""
    pot: int
    """Chips on that card at the time."""
    hands: tuple[int, ...]
    """Every seat's hand (bit masks) at the time."""
    chips: tuple[int, ...]
    """Every seat's chips at the time."""
    cards_left: int
    """Face-down cards left at the time."""
    took: bool
    """True if it took the card, False if it passed."""


def _cards(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if (mask >> c) & 1]


def decisions_between(old: PlayerView, new: PlayerView) -> list[Decision] | None:
    """The rivals' moves between two consecutive views of one seat, or None if `new` can't follow.

    Seats act in order after a pass, and a taker keeps the turn, so the takers between two
    views are in seat order and each took the card passed to it, then fresh cards at pot 0,
    then passed one on. Moves whose card is ambiguous (a seat that took three or more cards,
    or the card passed to such a seat) are left out; forced takes (no chips) are left out
    because they say nothing about a policy.

    >>> from nothanks_lab import Action, Game
    >>> g = Game(3, deck=range(3, 27))
    >>> before = g.view(0)
    >>> g.step(Action.PASS); g.step(Action.PASS); g.step(Action.TAKE); g.step(Action.PASS)
    >>> [(d.seat, d.card, d.pot, d.took) for d in decisions_between(before, g.view(0))]
    [(1, 3, 1, False), (2, 3, 2, True), (2, 4, 0, False)]
    """
    if (
        old.seat != new.seat
        or old.n_players != new.n_players
        or old.rules != new.rules
        or old.active_card is None
        or new.active_card is None
    ):
        return None
    n, s = old.n_players, old.seat
    h1, h2 = old.hand_masks, new.hand_masks
    if any(h1[o] & ~h2[o] for o in range(n)):
        return None
    gained = [h2[o] & ~h1[o] for o in range(n)]
    card = old.active_card
    if gained[s]:  # we took: we act again at once, nobody else moved
        ok = (
            gained[s] == 1 << card
            and not any(gained[o] for o in range(n) if o != s)
            and new.chips[s] == old.chips[s] + old.pot
            and all(new.chips[o] == old.chips[o] for o in range(n) if o != s)
            and new.pot == 0
            and new.cards_left == old.cards_left - 1
        )
        return [] if ok else None
    if old.chips[s] == 0:
        return None
    hands, chips = list(h1), list(old.chips)
    chips[s] -= 1
    pot, left = old.pot + 1, old.cards_left
    current: int | None = card  # the card now going round; None when ambiguous
    order = [(s + k) % n for k in range(1, n)]
    out: list[Decision] = []

    def seen(o: int, c: int, took: bool) -> None:
        if chips[o] > 0:
            out.append(Decision(o, c, pot, tuple(hands), tuple(chips), left, took))

    for i, o in enumerate(order):
        if not gained[o]:
            if chips[o] == 0:
                return None  # it would have had to take
            if current is not None:
                seen(o, current, False)
            chips[o] -= 1
            pot += 1
            continue
        new_cards = _cards(gained[o])
        if current is not None:
            if current not in new_cards:
                return None
            seen(o, current, True)
        chips[o] += pot
        pot = 0
        rest = [c for c in new_cards if c != current]
        if current is not None:
            hands[o] |= 1 << current
            left -= 1
            if len(rest) == 1:  # the only fresh card: its take is known
                seen(o, rest[0], True)
        hands[o] = h2[o]
        left = left - len(rest) if current is not None else left - len(new_cards)
        # The card it passed on: the first card of the next taker, or the one now active.
        nxt = next((t for t in order[i + 1 :] if gained[t]), None)
        if nxt is None:
            current = new.active_card
        else:
            nxt_cards = _cards(gained[nxt])
            current = nxt_cards[0] if len(nxt_cards) == 1 else None
        if chips[o] == 0:
            return None
        if current is not None:
            seen(o, current, False)
        chips[o] -= 1
        pot = 1
    consistent = (
        pot == new.pot
        and tuple(chips) == tuple(new.chips)
        and left == new.cards_left
        and current in (None, new.active_card)
        and not any((h2[o] >> new.active_card) & 1 for o in range(n))
    )
    return out if consistent else None


class OpponentModel:
    """Bayesian weights over `MODELS` for every rival of every seat a bot plays, from views.

    Each rival's observed move scores ``1 - eps`` under a candidate policy that makes it and
    ``eps`` under one that does not. Memory is kept per seat (one bot object may play several
    seats) and starts again from the prior whenever a view cannot follow the previous one. With
    ``learn``, that restart first folds the finished round's weights of every rival into a
    tally, and the prior of later rounds is the mean of the starting prior (counted as
    `PRIOR_COUNT` rival-rounds) and the tallied rounds. ``prior_milker`` is the starting weight
    of the heuristic bot (nicknamed the milker); the other candidates share the rest equally.

    >>> from nothanks_lab import Game
    >>> m = OpponentModel(prior_milker=0.5, eps=0.1)
    >>> m.weights(Game(3, seed=1).view(0)).round(2).tolist()[1]
    [0.5, 0.25, 0.25]
    """

    def __init__(self, prior_milker: float = 0.5, eps: float = 0.1, learn: bool = False) -> None:
        prior_milker = check_number(prior_milker, "prior_milker", owner="OpponentModel")
        eps = check_number(eps, "eps", owner="OpponentModel")
        learn = check_bool(learn, "learn", owner="OpponentModel")
        if not 0.0 < prior_milker < 1.0 or not 0.0 < eps < 0.5:
            raise ValueError(
                f"OpponentModel: prior_milker must lie in (0, 1) and eps in (0, 0.5); "
                f"got {prior_milker!r}, {eps!r}"
            )
        k = len(MODELS)
        self.start_prior = np.array([prior_milker] + [(1 - prior_milker) / (k - 1)] * (k - 1))
        self.eps = eps
        self.learn = bool(learn)
        self._tally = np.zeros(k)  # summed final weights of the rivals of finished rounds
        self._rounds = 0  # rival-rounds in the tally
        self._memory: dict[int, tuple[PlayerView, np.ndarray]] = {}
        self._params: dict[Rules, np.ndarray] = {}

    @property
    def prior(self) -> np.ndarray:
        """``float64[K]``: the weights a rival starts a round with (learnt, with ``learn``)."""
        return (PRIOR_COUNT * self.start_prior + self._tally) / (PRIOR_COUNT + self._rounds)

    def _model_params(self, rules: Rules) -> np.ndarray:
        if rules not in self._params:
            self._params[rules] = model_params(rules)
        return self._params[rules]

    def log_likelihood(self, d: Decision, rules: Rules) -> np.ndarray:
        """``float64[K]``: log chance of the move `d` under each candidate policy."""
        hands = np.array(d.hands, dtype=np.int64)
        chips = np.array(d.chips, dtype=np.int64)
        match = np.array(
            [
                bool(heuristic_decide(p, d.card, d.pot, d.seat, hands, chips, d.cards_left))
                == d.took
                for p in self._model_params(rules)
            ]
        )
        return np.asarray(np.where(match, np.log1p(-self.eps), np.log(self.eps)), dtype=np.float64)

    def weights(self, view: PlayerView) -> np.ndarray:
        """``float64[P, K]``: each seat's posterior over `MODELS` after the moves seen so far.

        Reads the moves made since this seat's previous view (if it can follow it); the
        row of the viewing seat itself stays at the prior.
        """
        mem = self._memory.get(view.seat)
        if mem is not None and mem[0] == view:
            log_w = mem[1]
        else:
            decisions = None if mem is None else decisions_between(mem[0], view)
            if decisions is None:
                if self.learn and mem is not None:
                    self._fold(mem[0].seat, mem[1])
                log_w = np.tile(np.log(self.prior), (view.n_players, 1))
            else:
                log_w = mem[1].copy()  # type: ignore[index]
                for d in decisions:
                    log_w[d.seat] += self.log_likelihood(d, view.rules)
            self._memory[view.seat] = (view, log_w)
        return _normalized(log_w)

    def _fold(self, seat: int, log_w: np.ndarray) -> None:
        """Add a finished round's rival weights (every row but `seat`'s own) to the tally."""
        rivals = np.delete(_normalized(log_w), seat, axis=0)
        self._tally += rivals.sum(axis=0)
        self._rounds += len(rivals)


def _normalized(log_w: np.ndarray) -> np.ndarray:
    w = np.exp(log_w - log_w.max(axis=1, keepdims=True))
    return np.asarray(w / w.sum(axis=1, keepdims=True), dtype=np.float64)

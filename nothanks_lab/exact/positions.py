"""Public positions as small tuples: encoding, the two moves, and every decision of a round.

Every seat sees the same things, so the solvers describe a position by what is public alone:
`hands` (one bit mask per seat, bit i for card ``low_card + i``), `chips` (per seat), the pot,
the seat to act and the index of the face-up card. This module holds the one definition of the
moves on that encoding (`_take`, `_pay` and the chain of passes around one card that
`_pass_chain` walks, ending at the first seat with no chip), the conversion from and to a
`PlayerView` (`_encode`, `_view`), the input checks the solvers share, and the two lesson
helpers built on them: `decision_views` (every decision position of a rule set) and
`after_pass` (a view moved on past a No Thanks!).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import replace

from ..rules import Rules
from ..validate import check_int, check_players, check_rules, check_seat
from ..view import PlayerView, any_chip_total
from .kernel import OBJECTIVES

#: Default ceiling on the chance nodes `best_response` and `evaluate` may memoise (plain Python).
DEFAULT_MAX_POSITIONS = 3_000_000

Hands = tuple[int, ...]
Chips = tuple[int, ...]


# --------------------------------------------------------------------------- checks
def _check_rules(rules: object) -> Rules:
    return check_rules(rules, optional=False)  # the solvers take no default game


def _check_objective(objective: object) -> int:
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {OBJECTIVES}; got {objective!r}")
    return OBJECTIVES.index(objective)


def estimate_positions(rules: Rules, n_players: int) -> int:
    """An upper bound on the chance nodes `best_response` and `evaluate` may memoise.

    A chance node is the hands (each taken card at one of the seats), the chips (the table's
    chips spread over the seats, none in the pot) and the seat to act. Checked against
    `max_positions` before any work, so a rule set far beyond plain Python (the standard deck:
    some 10**23) is refused at once instead of running for hours.

    >>> estimate_positions(Rules(low_card=1, high_card=5, n_removed=1, chips=((2, 1),)), 2)
    1266
    """
    n = n_players
    hands = sum(math.comb(rules.n_cards, k) * n**k for k in range(rules.n_in_play + 1))
    total = n * rules.starting_chips(n)
    return int(hands * math.comb(total + n - 1, n - 1) * n)


def _check_size(rules: Rules, n_players: int, max_positions: int) -> None:
    """`ValueError` naming the size and the ceiling when `rules` may exceed `max_positions`."""
    max_positions = check_int(max_positions, "max_positions", low=1)
    size = estimate_positions(rules, n_players)
    if size > max_positions:
        raise ValueError(
            f"rules: cards {rules.low_card}-{rules.high_card} at {n_players} seats may reach "
            f"{size:.3g} positions (estimate_positions), above max_positions={max_positions:,}; "
            "choose a smaller deck or fewer chips (or raise max_positions)"
        )


def _too_many_positions(max_positions: int) -> ValueError:
    return ValueError(
        f"rules: more than max_positions={max_positions:,} positions to solve; "
        "choose a smaller deck or fewer chips"
    )


# --------------------------------------------------------------------------- moves
def _next_cards(hands: Hands, rules: Rules) -> list[int]:
    """Indices of the cards that may be turned next: the unseen ones, none once all are taken."""
    taken = 0
    for h in hands:
        taken |= h
    if bin(taken).count("1") == rules.n_in_play:
        return []
    return [i for i in range(rules.n_cards) if not (taken >> i) & 1]


def _take(hands: Hands, chips: Chips, pot: int, seat: int, card: int) -> tuple[Hands, Chips]:
    """Hands and chips after `seat` takes card index `card` with `pot` chips on it."""
    new_hands = tuple(h | (1 << card) if p == seat else h for p, h in enumerate(hands))
    new_chips = tuple(c + pot if p == seat else c for p, c in enumerate(chips))
    return new_hands, new_chips


def _pay(chips: Chips, seat: int) -> tuple[Chips, int]:
    """Chips after `seat` says No Thanks!, and the seat to act next."""
    paid = tuple(c - 1 if p == seat else c for p, c in enumerate(chips))
    return paid, seat + 1 if seat + 1 < len(chips) else 0


def _pass_chain(chips: Chips, pot: int, actor: int) -> list[tuple[Chips, int, int]]:
    """The decisions on one card, passes going round: (chips, pot, seat to act) of each step,
    up to the first seat with no chip (a forced take)."""
    steps = []
    while True:
        steps.append((chips, pot, actor))
        if chips[actor] == 0:
            return steps
        chips, actor = _pay(chips, actor)
        pot += 1


# --------------------------------------------------------------------------- views
def _encode(view: PlayerView) -> tuple[Hands, Chips]:
    """The view's hands (masks relative to the lowest card) and chips."""
    low = view.rules.low_card
    return tuple(m >> low for m in view.hand_masks), tuple(view.chips)


def _view(
    rules: Rules,
    seat: int,
    hands: Hands,
    chips: Chips,
    pot: int,
    actor: int | None,
    card: int | None,
) -> PlayerView:
    """The `PlayerView` of `seat` in an encoded position (`card` None: the round is over)."""
    cards = tuple(
        tuple(rules.low_card + i for i in range(rules.n_cards) if (h >> i) & 1) for h in hands
    )
    n_taken = sum(len(c) for c in cards)
    return PlayerView(
        seat=seat,
        n_players=len(chips),
        active_card=None if card is None else rules.low_card + card,
        pot=pot,
        my_chips=chips[seat],
        chips=chips,
        hands=cards,
        cards_left=0 if card is None else rules.n_in_play - n_taken - 1,
        rules=rules,
        current_player=actor,
    )


def _solver_view(
    rules: Rules,
    seat: int,
    masks: Hands,
    cards: tuple[tuple[int, ...], ...],
    chips: Chips,
    pot: int,
    card: int,
) -> PlayerView:
    """`_view` of a decision the solver reached (`seat` to act on card index `card`), built
    without re-checking: the solver only reaches valid positions (each one `_view` would
    accept, as tests/test_exact.py checks), and it asks a policy at every one of them.
    `cards` are the hands as sorted card tuples, `masks` as relative bit masks."""
    low = rules.low_card
    return PlayerView._of_engine(
        {
            "seat": seat,
            "n_players": len(chips),
            "active_card": low + card,
            "pot": pot,
            "my_chips": chips[seat],
            "chips": chips,
            "hands": cards,
            "cards_left": rules.n_in_play - sum(map(len, cards)) - 1,
            "rules": rules,
            "current_player": seat,
            "hand_masks": tuple(m << low for m in masks),
        }
    )


# --------------------------------------------------------------------------- for the lessons
def decision_views(
    rules: Rules,
    n_players: int = 2,
    *,
    first_player: int = 0,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> list[PlayerView]:
    """Every decision position reachable from the start of a round, as the acting seat's view.

    Either move may be played anywhere, so these are the positions of every possible round
    (forced takes included), each once, in order of cards taken (the first decisions first).

    >>> tiny = Rules(low_card=1, high_card=3, n_removed=1, chips=((2, 1),))
    >>> views = decision_views(tiny)
    >>> len(views), views[0].active_card, views[0].pot, views[0].can_pass
    (51, 1, 0, True)
    """
    rules = _check_rules(rules)
    n = check_players(n_players, rules)
    first_player = check_seat(first_player, n, "first_player")
    _check_size(rules, n, max_positions)
    start = ((0,) * n, (rules.starting_chips(n),) * n, first_player)
    queue = deque([start])  # breadth first: chance nodes in order of cards taken
    queued = {start}
    out: list[PlayerView] = []
    while queue:
        hands, chips, actor = queue.popleft()
        for card in _next_cards(hands, rules):
            for cur, pot, seat in _pass_chain(chips, 0, actor):  # each step a decision
                out.append(_view(rules, seat, hands, cur, pot, seat, card))
                node = (*_take(hands, cur, pot, seat, card), seat)
                if node not in queued:
                    if len(queued) >= max_positions:
                        raise _too_many_positions(max_positions)
                    queued.add(node)
                    queue.append(node)
    return out


def after_pass(view: PlayerView) -> PlayerView:
    """The position after the seat to act says No Thanks!, as the next seat (to act) sees it.

    >>> from nothanks_lab.analysis import position_view
    >>> v = after_pass(position_view(20, 2, n_players=3))
    >>> v.seat, v.current_player, v.pot, v.chips
    (1, 1, 3, (10, 11, 11))
    """
    if not isinstance(view, PlayerView):
        raise ValueError(f"view must be a PlayerView; got {type(view).__name__}")
    if not view.can_pass:
        raise ValueError(
            f"view: seat {view.seat} cannot say No Thanks! here (not its turn, or no chip)"
        )
    chips, nxt = _pay(tuple(view.chips), view.seat)
    with any_chip_total():  # a pass moves a chip, so a made-up position stays as made up
        return replace(
            view, seat=nxt, current_player=nxt, pot=view.pot + 1, chips=chips, my_chips=chips[nxt]
        )

"""The shared transition functions of `nothanks_lab.core`: bit-mask scoring against the readable
`card_points` (exhaustive over small hands, then hypothesis over the whole card range), and the
batched `State` transitions touching only the round they are given."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nothanks_lab as nt
from nothanks_lab import core
from nothanks_lab.rules import MAX_CARD

SMALL_CARDS = range(1, 13)
ALL_SMALL_HANDS = [
    [c for i, c in enumerate(SMALL_CARDS) if bits >> i & 1] for bits in range(1 << len(SMALL_CARDS))
]


def test_mask_of() -> None:
    assert core.mask_of([]) == 0
    assert core.mask_of([3, 5]) == 0b101000
    assert core.mask_of((np.int64(62),)) == 1 << 62
    assert core.mask_of(list(range(1, 63))) == (1 << 63) - 2


def test_card_points_mask_equals_card_points_on_every_small_hand() -> None:
    for hand in ALL_SMALL_HANDS:
        assert core.card_points_mask(core.mask_of(hand)) == nt.card_points(hand), hand


def test_marginal_points_equals_the_difference_on_every_small_hand() -> None:
    checked = 0
    for hand in ALL_SMALL_HANDS:
        mask, before = core.mask_of(hand), nt.card_points(hand)
        for card in SMALL_CARDS:
            if card not in hand:
                expected = nt.card_points([*hand, card]) - before
                assert core.marginal_points(mask, card) == expected, (hand, card)
                checked += 1
    assert checked == 12 * 2**11  # each card is missing from half of the hands


MARGINAL_GOLDEN = [
    ([], 20, 20),  # alone: its value
    ([19], 20, 0),  # extends a run upward: free
    ([21, 22], 20, -1),  # just below a run: replaces its lowest card
    ([19, 21, 22], 20, -21),  # fills a gap: the upper run's lowest card no longer counts
    ([18, 22], 20, 20),
]


@pytest.mark.parametrize(("hand", "card", "expected"), MARGINAL_GOLDEN)
def test_marginal_points_golden(hand: list[int], card: int, expected: int) -> None:
    assert core.marginal_points(core.mask_of(hand), card) == expected


hands_st = st.sets(st.integers(1, MAX_CARD), max_size=40)


# No deadline: on a shared, loaded machine a slow example is not a wrong one.
@settings(deadline=None, max_examples=300)
@given(hands_st)
def test_card_points_mask_equals_card_points(hand: set[int]) -> None:
    assert core.card_points_mask(core.mask_of(sorted(hand))) == nt.card_points(hand)


@settings(deadline=None, max_examples=300)
@given(hands_st, st.integers(1, MAX_CARD))
def test_marginal_points_equals_the_difference(hand: set[int], card: int) -> None:
    hand.discard(card)
    mask = core.mask_of(sorted(hand))
    expected = nt.card_points([*hand, card]) - nt.card_points(hand)
    assert core.marginal_points(mask, card) == expected


def test_masks_survive_int64_storage() -> None:
    # The engine stores hands in int64 arrays; card 62 is the highest bit that stays positive.
    hand = [1, 2, 30, 61, 62]
    stored = np.array([core.mask_of(hand)], dtype=np.int64)[0]
    assert core.card_points_mask(int(stored)) == nt.card_points(hand) == 1 + 30 + 61
    assert core.marginal_points(stored, 60) == -1
    assert core.marginal_points(stored, 31) == 0
    assert core.marginal_points(stored, 3) == 0


def test_new_state_layout() -> None:
    decks = np.array([[5, 2, 8], [1, 3, 7]])
    s = core.new_state(decks, 4, 6, 2)
    assert s.deck.shape == (2, 3) and s.chips.shape == (2, 4) and s.hands.shape == (2, 4)
    assert all(a.dtype == np.int64 for a in s)
    assert s.turned.tolist() == [0, 0] and s.pot.tolist() == [0, 0]
    assert s.player.tolist() == [2, 2] and s.chips.tolist() == [[6] * 4] * 2
    assert s.hands.tolist() == [[0] * 4] * 2
    assert [core.active_card(s, g) for g in (0, 1)] == [5, 1]
    assert not core.is_over(s, 0) and core.can_pass(s, 0)


def test_step_touches_only_its_round() -> None:
    decks = np.array([[5, 2, 8], [1, 3, 7], [4, 6, 9]])
    s = core.new_state(decks, 3, 1, 0)
    core.step(s, 1, False)  # round 1: seat 0 passes
    core.step(s, 1, True)  # round 1: seat 1 takes card 1 and the chip
    core.step(s, 2, True)  # round 2: seat 0 takes 4
    assert s.turned.tolist() == [0, 1, 1]
    assert s.player.tolist() == [0, 1, 0]
    assert s.pot.tolist() == [0, 0, 0]
    assert s.chips.tolist() == [[1, 1, 1], [0, 2, 1], [1, 1, 1]]
    assert s.hands.tolist() == [[0, 0, 0], [0, 1 << 1, 0], [1 << 4, 0, 0]]
    assert [core.active_card(s, g) for g in range(3)] == [5, 3, 6]
    assert core.can_pass(s, 1)  # seat 1 now holds two chips
    core.step(s, 1, False)  # seat 1 passes: its chip goes on card 3
    assert s.player[1] == 2 and s.pot[1] == 1 and s.chips[1].tolist() == [0, 1, 1]
    core.step(s, 1, False)  # seat 2 passes too; the turn wraps to seat 0, who has no chip
    assert s.player[1] == 0 and s.pot[1] == 2 and s.chips[1].tolist() == [0, 1, 0]
    assert not core.can_pass(s, 1)
    for _ in range(2):
        core.step(s, 1, True)
    assert core.is_over(s, 1) and not core.is_over(s, 0) and not core.is_over(s, 2)
    assert s.chips[1].tolist() == [2, 1, 0] and s.pot[1] == 0
    assert core.card_points_mask(int(s.hands[1, 0])) == nt.card_points([3, 7]) == 10
    assert s.chips[0].tolist() == [1, 1, 1] and s.hands[0].tolist() == [0, 0, 0]


@pytest.mark.parametrize("n", [3, 7])
def test_engine_state_is_the_core_state(n: int) -> None:
    # Game is a batch of one over the same record: its public state reads straight from it.
    rng = np.random.default_rng(n)
    g = nt.Game(n, seed=rng)
    for _ in range(30):
        g.step(
            nt.Action.TAKE if len(g.legal_actions()) == 1 or rng.random() < 0.3 else nt.Action.PASS
        )
    s = g._state
    assert isinstance(s, core.State) and s.deck.shape == (1, 24) and s.chips.shape == (1, n)
    assert g.chips == tuple(s.chips[0].tolist()) and g.pot == s.pot[0]
    assert g.active_card == core.active_card(s, 0) and g.current_player == s.player[0]
    assert tuple(core.mask_of(h) for h in g.hands) == tuple(s.hands[0].tolist())


def test_every_subset_is_enumerated_once() -> None:
    # The exhaustive tables above rely on this enumeration covering each subset exactly once.
    assert len({tuple(h) for h in ALL_SMALL_HANDS}) == 2**12
    assert sum(1 for _ in itertools.combinations(SMALL_CARDS, 6)) == sum(
        len(h) == 6 for h in ALL_SMALL_HANDS
    )


def test_position_state_is_the_view_s_position_and_plays_each_row_s_move() -> None:
    """`position_state` (the one way a position becomes a batch state): every row is
    `Game.from_position` of its guess, and a move per row is that move played by the engine."""
    from nothanks_lab.view import any_chip_total, position_state

    g = nt.Game(4, seed=3)
    rng = np.random.default_rng(3)
    while g.cards_left > 10:
        v = g.view(g.current_player)
        g.step(nt.Action.TAKE if not v.can_pass or rng.random() < 0.3 else nt.Action.PASS)
    view = g.view(g.current_player)
    guesses = np.array([rng.permutation(view.unseen_cards)[: view.cards_left] for _ in range(6)])
    take = np.array([True, False, True, False, False, True])
    for moves in (None, True, False, take):
        s = position_state(view, guesses, moves)
        for row, rest in enumerate(guesses):
            game = nt.Game.from_position(view, rest.tolist())
            if moves is not None:
                move = bool(np.broadcast_to(moves, (6,))[row])
                game.step(nt.Action.TAKE if move else nt.Action.PASS)
            assert [a[row].tolist() for a in s] == [a[0].tolist() for a in game._state]
    with pytest.raises(ValueError, match="shape"):
        position_state(view, guesses[:, 1:])
    seat = view.seat
    chips = tuple(0 if p == seat else c for p, c in enumerate(view.chips))
    with any_chip_total():  # a made-up position: the seat's chips are gone, not moved
        broke = dataclasses.replace(view, my_chips=0, chips=chips)
    with pytest.raises(ValueError, match="no chip to pass"):
        position_state(broke, guesses, take)
    assert position_state(broke, guesses, True).turned.tolist() == [s.turned[0]] * 6


def test_decision_facts_are_what_a_bot_s_act_passes_its_decision_function() -> None:
    """`decision_facts` (what the compiled loops pass a decision function, from the state)
    equals `decision_args` of the view (what a bot's ``act`` passes), at every move of a round."""
    from nothanks_lab.bots.base import decision_args

    g = nt.Game(5, seed=7)
    rng = np.random.default_rng(7)
    while not g.is_over:
        view = g.view(g.current_player)
        facts = core.decision_facts(g._state, 0)
        args = decision_args(view)
        assert [np.asarray(a).tolist() for a in facts] == [np.asarray(a).tolist() for a in args]
        g.step(nt.Action.TAKE if not view.can_pass or rng.random() < 0.3 else nt.Action.PASS)

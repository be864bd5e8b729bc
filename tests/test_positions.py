"""Example positions are found by a condition, for any seed, and reproducibly."""

from __future__ import annotations

import pytest

import nothanks_lab as nt
from nothanks_lab.analysis import position_view
from nothanks_lab.positions import find_position, has_fillable_gaps, has_unseen_neighbour, open_gaps


@pytest.mark.parametrize("seed", [0, 1, 773, 999_999, 1_000_000])
def test_a_gap_position_is_found_for_any_seed(seed: int) -> None:
    game = find_position(has_fillable_gaps, seed=seed)
    view = game.view(0)
    assert game.current_player == 0 and not game.is_over
    sizes = {len(g) for g in open_gaps(view)}
    assert {1, 2} <= sizes
    assert view.cards_left >= 2
    for gap in open_gaps(view):
        assert all(c in view.unseen_cards for c in gap)


def test_the_same_seed_finds_the_same_position() -> None:
    a = find_position(has_unseen_neighbour, seed=5)
    b = find_position(has_unseen_neighbour, seed=5)
    assert a.view(0) == b.view(0) and a.history == b.history
    assert has_unseen_neighbour(a.view(0)) and a.view(0).can_pass


def test_other_seats_and_policies() -> None:
    game = find_position(
        lambda v: len(v.my_hand) >= 3,
        seed=2,
        n_players=3,
        seat=2,
        policy=nt.bots.MarginalCostBot(0),
    )
    assert game.current_player == 2 and len(game.view(2).my_hand) >= 3


def test_an_impossible_condition_says_so() -> None:
    with pytest.raises(LookupError, match=r"no position .* in 3 rounds dealt from seed 4"):
        find_position(lambda v: False, seed=4, max_rounds=3)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"seed": True}, "seed"),
        ({"seed": 1, "max_rounds": 0}, "max_rounds"),
        ({"seed": 1, "seat": 4}, "seat"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        find_position(has_fillable_gaps, **kwargs)  # type: ignore[arg-type]


def test_gap_conditions() -> None:
    # 21 is the active card: the 21 gap is seen, so not open; 23-24 is.
    view = position_view(21, 0, (20, 22, 25))
    assert open_gaps(view) == [(23, 24)]
    assert not has_fillable_gaps(view) and has_fillable_gaps(view, sizes=(2,))
    assert has_fillable_gaps(position_view(5, 0, (20, 22, 25)))
    assert not has_unseen_neighbour(position_view(5, 0))

"""Golden tables for the rule set and the scoring of a hand (`Rules`, `runs`, `card_points`,
`score`): the worked examples of RULES.md and the seed texts, edge cases, variants, bad input."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab.rules import MAX_CARD

# ------------------------------------------------------------------------- scoring golden tables

RUNS = [
    ([], []),
    ([5], [(5,)]),
    ([8, 13, 14, 15, 17], [(8,), (13, 14, 15), (17,)]),
    ([17, 8, 14, 13, 15], [(8,), (13, 14, 15), (17,)]),  # input order does not matter
    ([27, 28, 29, 30], [(27, 28, 29, 30)]),
    ([3, 5, 7], [(3,), (5,), (7,)]),
    ([35, 3], [(3,), (35,)]),
    ([10, 11, 13, 14], [(10, 11), (13, 14)]),
    (list(range(3, 36)), [tuple(range(3, 36))]),
]


@pytest.mark.parametrize(("cards", "expected"), RUNS)
def test_runs_golden(cards: list[int], expected: list[tuple[int, ...]]) -> None:
    assert nt.runs(cards) == expected


CARD_POINTS = [
    ([8, 13, 14, 15, 17], 38),  # RULES.md and the seed texts: 8 + 13 + 17
    ([27, 28, 29, 30], 27),  # RULES.md: a run scores its lowest card
    ([], 0),
    ([35], 35),
    ([3, 5, 7], 15),
    ([34, 35, 3, 4], 37),
    ([10, 11, 13, 14], 23),
    (list(range(3, 36)), 3),
    (list(range(3, 36, 2)), sum(range(3, 36, 2))),
]


@pytest.mark.parametrize(("cards", "expected"), CARD_POINTS)
def test_card_points_golden(cards: list[int], expected: int) -> None:
    assert nt.card_points(cards) == expected


SCORES = [
    ([8, 13, 14, 15, 17], 13, 25),  # RULES.md: 38 card points and 13 chips score 25
    ([27, 28, 29, 30], 0, 27),
    ([], 0, 0),
    ([], 11, -11),  # chips alone make a negative score
    ([20], 20, 0),
    ([3, 4, 5], 1, 2),
]


@pytest.mark.parametrize(("cards", "chips", "expected"), SCORES)
def test_score_golden(cards: list[int], chips: int, expected: int) -> None:
    assert nt.score(cards, chips) == expected


def test_scoring_accepts_any_iterable_of_whole_numbers() -> None:
    assert nt.card_points(np.array([27, 28, 30])) == 57
    assert nt.card_points(c for c in (5, 6)) == 5
    assert nt.runs((np.int64(4), np.int16(5))) == [(4, 5)]
    with pytest.raises(ValueError, match=r"5\.0"):  # issue 24: a float is not a card, even 5.0
        nt.runs((np.int64(4), 5.0))
    assert nt.score((4, 5), np.int64(2)) == 2


@pytest.mark.parametrize("cards", [[3, 3], [5, 6, 5]])
def test_duplicate_cards_are_refused(cards: list[int]) -> None:
    with pytest.raises(ValueError, match="at most once"):
        nt.card_points(cards)


@pytest.mark.parametrize("bad", [3.5, "7", None, True])
def test_non_integer_cards_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="whole"):
        nt.runs([4, bad])


@pytest.mark.parametrize("chips", [-1, 2.5, "3", None, True, float("inf"), float("nan")])
def test_bad_chip_counts_are_refused(chips: object) -> None:
    with pytest.raises(ValueError, match="chips"):
        nt.score([5], chips)  # type: ignore[arg-type]


# ------------------------------------------------------------------------- the rule set


@pytest.mark.parametrize(("n", "chips"), [(3, 11), (4, 11), (5, 11), (6, 9), (7, 7)])
def test_standard_starting_chips(n: int, chips: int) -> None:
    assert nt.Rules().starting_chips(n) == chips


@pytest.mark.parametrize("n", [2, 8, 0, -1, 1, 100])
def test_starting_chips_refuses_other_player_counts(n: int) -> None:
    with pytest.raises(ValueError, match=r"allowed player counts: 3, 4, 5, 6, 7"):
        nt.Rules().starting_chips(n)


def test_standard_rules() -> None:
    r = nt.Rules()
    assert (r.low_card, r.high_card, r.n_removed) == (3, 35, 9)
    assert r.cards == tuple(range(3, 36))
    assert (r.n_cards, r.n_in_play) == (33, 24)
    assert r.player_counts == (3, 4, 5, 6, 7)


def test_variant_is_configuration() -> None:
    r = nt.Rules(low_card=1, high_card=10, n_removed=2)
    assert r.cards == tuple(range(1, 11))
    assert (r.n_cards, r.n_in_play) == (10, 8)
    assert r.starting_chips(3) == 11  # the chip table is still the standard one
    g = nt.Game(3, rules=r, seed=0)
    assert g.cards_left == 7 and 1 <= g.active_card <= 10
    r2 = nt.Rules(chips=((2, 5), (8, 3)))
    assert r2.player_counts == (2, 8)
    assert (r2.starting_chips(2), r2.starting_chips(8)) == (5, 3)
    with pytest.raises(ValueError, match="allowed player counts: 2, 8"):
        r2.starting_chips(3)


def test_numpy_integers_are_accepted_and_stored_as_int() -> None:
    r = nt.Rules(low_card=np.int64(1), high_card=np.int32(10), n_removed=np.int64(2))
    assert r == nt.Rules(low_card=1, high_card=10, n_removed=2)
    assert all(type(x) is int for x in (r.low_card, r.high_card, r.n_removed))


def test_chip_table_is_normalised_and_sorted() -> None:
    r = nt.Rules(chips=((5, 4), (3, np.int64(6))))
    assert r.chips == ((3, 6), (5, 4))
    assert r == nt.Rules(chips=((3, 6), (5, 4)))


def test_rules_are_frozen_hashable_values() -> None:
    r = nt.Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.n_removed = 0  # type: ignore[misc]
    assert r == nt.Rules() and hash(r) == hash(nt.Rules())
    assert r != nt.Rules(n_removed=8)
    assert len({r, nt.Rules(), nt.Rules(n_removed=8)}) == 2


BAD_RULES = [
    (dict(low_card=10, high_card=10), "low_card < high_card"),
    (dict(low_card=20, high_card=10), "low_card < high_card"),
    (dict(low_card=0), "1 <= low_card"),
    (dict(high_card=MAX_CARD + 1), f"high_card <= {MAX_CARD}"),
    (dict(n_removed=-1), "n_removed must be between 0 and 32"),
    (dict(n_removed=33), "n_removed must be between 0 and 32"),
    (dict(low_card=3.5), "low_card"),
    (dict(high_card="35"), "high_card"),
    (dict(n_removed=None), "n_removed"),
    (dict(n_removed=True), "n_removed"),
    (dict(n_removed=2.0), "n_removed"),
    (dict(chips=()), "at least one player count"),
    (dict(chips=((3, 11), (3, 9))), "twice"),
    (dict(chips=((1, 11),)), "at least 2 players"),
    (dict(chips=((3, -1),)), "cannot be negative"),
    (dict(chips=((3, 2.5),)), "whole"),
    (dict(chips=(("x", 2),)), "whole"),
    (dict(chips=((3,),)), "pairs"),
]


@pytest.mark.parametrize(("fields", "message"), BAD_RULES)
def test_bad_rules_raise_value_error(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        nt.Rules(**fields)  # type: ignore[arg-type]


def test_check_cards() -> None:
    r = nt.Rules(low_card=1, high_card=10, n_removed=2)
    assert r.check_cards([np.int64(3), 4.0, 10]) == (3, 4, 10)
    with pytest.raises(ValueError, match=r"\[0, 11\], outside the deck 1\.\.10"):
        r.check_cards([0, 5, 11], what="the hand")
    with pytest.raises(ValueError, match="whole numbers"):
        r.check_cards([1, 2.5])

"""Self-check exercises: solutions agree with first-principles counts; verdicts and bad input."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from nothanks_lab import lessons
from nothanks_lab.lessons import EXERCISES, check_answer, exercise, exercises
from nothanks_lab.rules import Rules, card_points, runs

STANDARD = Rules()

# Each solution recomputed independently: counting removed sets with math.comb, or the scoring
# rules directly, never through the functions the exercises call.
INDEPENDENT = {
    "p28_start": comb(32, 9) / comb(33, 9),
    "p27_28_29_start": comb(30, 9) / comb(33, 9),
    # 20 seen, 13 unseen of which 9 removed: 28 must avoid the 9 removed among 13.
    "p28_after_20_seen": comb(12, 9) / comb(13, 9),
    # 20 and 23 seen, 31 unseen; both 21 and 22 in play.
    "p_gap_21_22_holding_20_23": comb(29, 9) / comb(31, 9),
    "one_of_top3_removed": 3 * comb(30, 8) / comb(33, 9),
    # Cards 1..8, 5 in play: one run of 5 starts at 1, 2, 3 or 4; comb(8, 3) removed sets.
    "tiny_single_run": 4 / comb(8, 3),
    "break_even_20": 20 - 1,
    "break_even_26_holding_27": (card_points([26, 27]) - card_points([27])) - 1,
}


def test_every_exercise_has_an_independent_check() -> None:
    assert set(INDEPENDENT) == set(EXERCISES)


@pytest.mark.parametrize("key", sorted(INDEPENDENT))
def test_solution_matches_first_principles(key: str) -> None:
    assert exercise(key).solution() == pytest.approx(INDEPENDENT[key], abs=1e-12)


def test_tiny_single_run_by_enumeration() -> None:
    # The count used above, checked by listing every removed set of the tiny deck.
    tiny = Rules(low_card=1, high_card=8, n_removed=3)
    sets = list(itertools.combinations(tiny.cards, tiny.n_removed))
    single = sum(len(runs([c for c in tiny.cards if c not in r])) == 1 for r in sets)
    assert Fraction(single, len(sets)) == Fraction(4, comb(8, 3))


@pytest.mark.parametrize("key", sorted(INDEPENDENT))
def test_exact_answer_is_right_and_far_answer_is_wrong(key: str) -> None:
    exact = INDEPENDENT[key]
    right = check_answer(key, exact)
    assert right.status == "right" and right.correct
    off = exercise(key).tolerance + 0.05
    wrong = check_answer(key, exact + off)
    assert wrong.status == "wrong" and not wrong.correct
    assert "Hint" in wrong.message or "not a chance" in wrong.message


def test_unanswered_is_not_an_error() -> None:
    fb = check_answer("p28_start", None)
    assert fb.status == "unanswered" and not fb.correct
    assert "Not answered yet" in str(fb)
    assert "Not answered yet" in fb._repr_html_()


def test_rounded_answers_within_tolerance_are_right() -> None:
    assert check_answer("p28_start", 0.73).correct  # exact 0.7273
    assert check_answer("p28_start", round(24 / 33, 3)).correct
    assert not check_answer("p28_start", 0.74).correct
    assert check_answer("p28_after_20_seen", 0.31).correct  # exact 4/13 = 0.3077
    assert not check_answer("p28_after_20_seen", 0.32).correct


def test_number_types_accepted() -> None:
    assert check_answer("p28_start", Fraction(8, 11)).correct
    assert check_answer("p28_start", np.float64(24 / 33)).correct
    assert check_answer("break_even_20", 19).correct
    assert check_answer("break_even_20", np.int64(19)).correct
    assert not check_answer("break_even_20", 20).correct


def test_a_percentage_is_pointed_out() -> None:
    fb = check_answer("p28_start", 72.73)
    assert fb.status == "wrong"
    assert "percentage" in fb.message and "0.7273" in fb.message


def test_out_of_range_chance_is_wrong_not_an_error() -> None:
    fb = check_answer("p28_start", -0.2)
    assert fb.status == "wrong" and "not a chance" in fb.message


def test_wrong_answer_does_not_reveal_the_solution() -> None:
    fb = check_answer("p27_28_29_start", 0.1)
    exact = INDEPENDENT["p27_28_29_start"]
    for digits in (2, 3, 4):
        assert f"{exact:.{digits}f}" not in fb.message


@pytest.mark.parametrize("bad", ["0.73", True, np.bool_(False), [0.7], float("nan"), float("inf")])
def test_bad_answers_raise_value_error(bad: object) -> None:
    with pytest.raises(ValueError, match="answer must be a"):
        check_answer("p28_start", bad)


def test_unknown_exercise_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown exercise 'nope'.*p28_start"):
        check_answer("nope", 0.5)
    with pytest.raises(ValueError, match="unknown exercise"):
        exercise(3)  # type: ignore[arg-type]


def test_exercises_by_lesson() -> None:
    assert set(exercises()) == set(EXERCISES)
    two = exercises("02_run_probabilities")
    three = exercises("03_chip_value")
    assert set(two) | set(three) == set(EXERCISES) and not set(two) & set(three)
    with pytest.raises(ValueError, match="no exercises for lesson 'x'"):
        exercises("x")


def test_exercise_shows_its_question() -> None:
    ex = exercise("p28_start")
    assert "28" in str(ex) and "28" in ex._repr_html_()
    assert lessons.Feedback("k", "right", "m&n")._repr_html_().count("&amp;") == 1

"""Self-check exercises: solutions agree with first-principles counts; verdicts and bad input."""

from __future__ import annotations

import itertools
import re
from decimal import Decimal
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
    # Runs 5-7, 20, 22-23, 30 score their lowest cards; minus 4 chips.
    "score_hand_7_cards": 5 + 20 + 22 + 30 - 4,
    # 25 and 27 score 52; with 26 the run 25-27 scores 25.
    "points_change_26_holding_25_27": 25 - (25 + 27),
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
    # Take - No Thanks!: the card's marginal points minus the pot, minus the chip a pass costs.
    "take_minus_pass_28_holding_27_29": (card_points([27, 28, 29]) - card_points([27, 29])) - 2 - 1,
    # The questions' own numbers: each pair's difference, then their average.
    "paired_mean_change": sum(
        w - o for w, o in zip((38, 52, 20, 49, 51), (40, 52, 31, 47, 60), strict=True)
    )
    / 5,
    "rollout_take_minus_pass": sum(
        t - p for t, p in zip((45, 38, 60, 41), (43, 44, 52, 47), strict=True)
    )
    / 4,
    # Cards 1..8, 5 in play in exactly two runs: checked by enumeration below as well.
    "tiny_two_runs": 24 / comb(8, 3),
    # 06_perfect_play: exact fractions, each derived by an independent game-tree search in
    # tests/test_perfect_play_lesson.py (the last-two-cards one by hand there as well).
    "pp_last_two_cards": 5 / 6,
    "pp_first_player_two_chips": 91 / 240,
    "pp_best_response_random": 4637783 / 5242880,
    "pp_first_card_8": 4,
}


def test_every_exercise_has_an_independent_check() -> None:
    assert set(INDEPENDENT) == set(EXERCISES)


@pytest.mark.parametrize("key", sorted(INDEPENDENT))
def test_solution_matches_first_principles(key: str) -> None:
    assert lessons._solution(key) == pytest.approx(INDEPENDENT[key], abs=1e-12)


def test_tiny_single_run_by_enumeration() -> None:
    # The count used above, checked by listing every removed set of the tiny deck.
    tiny = Rules(low_card=1, high_card=8, n_removed=3)
    sets = list(itertools.combinations(tiny.cards, tiny.n_removed))
    single = sum(len(runs([c for c in tiny.cards if c not in r])) == 1 for r in sets)
    assert Fraction(single, len(sets)) == Fraction(4, comb(8, 3))
    two = sum(len(runs([c for c in tiny.cards if c not in r])) == 2 for r in sets)
    assert Fraction(two, len(sets)) == Fraction(24, comb(8, 3))


def test_exercise_questions_hold_the_numbers_their_answers_use() -> None:
    # The paired and rollout exercises state their data in the question: the checked answer
    # must be the one a student computes from the question as printed.
    for key, pairs in (
        ("paired_mean_change", [("11 chips", "15")]),
        ("rollout_take_minus_pass", [("45, 38, 60, 41", "43, 44, 52, 47")]),
    ):
        question = exercise(key).question
        assert all(a in question and b in question for a, b in pairs), question
    assert "40, 52, 31, 47, 60" in exercise("paired_mean_change").question
    assert "38, 52, 20, 49, 51" in exercise("paired_mean_change").question


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
    assert fb.status == "close"
    assert "percentage" in fb.message and "0.7273" in fb.message


def test_out_of_range_chance_is_wrong_not_an_error() -> None:
    fb = check_answer("p28_start", -0.2)
    assert fb.status == "wrong" and "not a chance" in fb.message


def test_wrong_answer_does_not_reveal_the_solution() -> None:
    fb = check_answer("p27_28_29_start", 0.1)
    exact = INDEPENDENT["p27_28_29_start"]
    for digits in (2, 3, 4):
        assert f"{exact:.{digits}f}" not in fb.message


class _NoFloat:
    """A student's object whose conversion to a number fails."""

    def __float__(self) -> float:
        raise RuntimeError("no number here")


# (exercise, answer, status, words the message must hold). p28_start is 8/11 = 0.7273,
# p28_after_20_seen is 4/13 = 0.3077, break_even_20 is 19.
ODD_ANSWERS = [
    ("p28_start", None, "unanswered", "replace None"),
    ("p28_start", "", "unanswered", "write your answer"),
    ("p28_start", "   ", "unanswered", "write your answer"),
    ("p28_start", "...", "unanswered", "write your answer"),
    ("p28_start", ..., "unanswered", "replace None"),
    ("p28_start", 24 / 33, "right", "matches"),
    ("p28_start", Fraction(8, 11), "right", "matches"),
    ("p28_start", np.float64(24 / 33), "right", "matches"),
    ("p28_start", np.array(24 / 33), "right", "matches"),
    ("p28_start", Decimal("0.7273"), "right", "matches"),
    ("p28_start", "8/11", "right", "matches"),
    ("p28_start", "24 / 33", "right", "matches"),
    ("p28_start", str(24 / 33), "right", "matches"),
    ("p28_start", "0.727", "right", "matches"),
    ("p28_start", " 0,727 ", "right", "matches"),
    ("p28_start", "72.73%", "close", "probability"),
    ("p28_start", 72.73, "close", "probability"),
    ("p28_start", 73, "close", "probability"),
    ("p28_start", 0.7, "close", "right to 1 decimal place"),
    ("p28_start", "0,7", "close", "right to 1 decimal place"),
    ("p28_after_20_seen", 0.3, "close", "right to 1 decimal place"),
    ("p28_start", 0.5, "wrong", "Hint"),
    ("p28_start", "0.37", "wrong", "Hint"),
    ("p28_start", "23/44", "wrong", "Hint"),
    ("p28_start", 0, "wrong", "Hint"),
    ("p28_start", -0.2, "wrong", "not a chance"),
    ("p28_start", 10**400, "wrong", "not a chance"),
    ("p28_start", -(10**400), "wrong", "not a chance"),
    ("p28_start", 1e300, "wrong", "not a chance"),
    ("p28_start", float("inf"), "wrong", "finite"),
    ("p28_start", float("-inf"), "wrong", "finite"),
    ("p28_start", float("nan"), "wrong", "finite"),
    ("p28_start", np.float64("nan"), "wrong", "finite"),
    ("p28_start", Decimal("NaN"), "wrong", "finite"),
    ("p28_start", "nan", "wrong", "could not read"),
    ("p28_start", "abc", "wrong", "could not read"),
    ("p28_start", "1/0", "wrong", "could not read"),
    ("p28_start", "comb(32, 9) / comb(33, 9)", "wrong", "could not read"),
    ("p28_start", True, "wrong", "truth value"),
    ("p28_start", np.bool_(False), "wrong", "truth value"),
    ("p28_start", 1 + 2j, "wrong", "complex"),
    ("p28_start", [0.7], "wrong", "one number"),
    ("p28_start", (8, 11), "wrong", "one number"),
    ("p28_start", {"p": 0.73}, "wrong", "one number"),
    ("p28_start", {0.73}, "wrong", "one number"),
    ("p28_start", np.array([0.73]), "wrong", "one number"),
    ("p28_start", _NoFloat(), "wrong", "one number"),
    ("p28_start", object(), "wrong", "one number"),
    ("p28_start", print, "wrong", "one number"),
    ("break_even_20", 19, "right", "matches"),
    ("break_even_20", "19", "right", "matches"),
    ("break_even_20", 19.0, "right", "matches"),
    ("break_even_20", np.int64(19), "right", "matches"),
    ("break_even_20", "19,0", "right", "matches"),
    ("break_even_20", 18, "wrong", "Hint"),
    ("break_even_20", 1900, "wrong", "Hint"),
    ("break_even_20", "−19", "wrong", "Hint"),
    ("break_even_26_holding_27", "−2", "right", "matches"),
    ("break_even_26_holding_27", Fraction(-2), "right", "matches"),
]


@pytest.mark.parametrize(("key", "answer", "status", "words"), ODD_ANSWERS)
def test_odd_answers_get_a_verdict_and_a_message(
    key: str, answer: object, status: str, words: str
) -> None:
    fb = check_answer(key, answer)
    assert fb.status == status, fb.message
    assert words in fb.message
    assert str(fb) and fb._repr_html_()  # renders whatever the answer was


@pytest.fixture
def exact_4553(monkeypatch: pytest.MonkeyPatch) -> str:
    """A made-up chance exercise whose exact answer is 0.4553 (the issue's example)."""
    ex = lessons.Exercise("t4553", "test", "A chance?", lambda: 0.4553, "Count removed sets.")
    monkeypatch.setitem(EXERCISES, "t4553", ex)
    return "t4553"


@pytest.mark.parametrize(
    ("answer", "status", "words"),
    [
        (0.4553, "right", "matches"),
        (0.455, "right", "matches"),
        (0.46, "right", "matches"),  # rounded to 2 places: within the tolerance
        (0.45, "close", "right to 2 decimal places"),  # cut to 2 places: 0.0053 off
        ("0.45", "close", "give 3 decimal places"),
        ("0,45", "close", "give 3 decimal places"),
        (0.5, "close", "right to 1 decimal place"),
        (0.4, "close", "give 2 decimal places"),
        (45, "close", "probability"),
        ("45%", "close", "probability"),
        (45.53, "close", "probability"),
        (0.44, "wrong", "Hint"),  # 0.0153 off: not a rounding of 0.4553
        (0.3, "wrong", "Hint"),
        ("0.450", "wrong", "Hint"),  # three places claimed, and the third is wrong
        (0, "wrong", "Hint"),  # no decimals: never "right to 0 places"
        (1, "wrong", "Hint"),
    ],
)
def test_coarse_rounding_is_close_not_the_method_hint(
    exact_4553: str, answer: object, status: str, words: str
) -> None:
    fb = check_answer(exact_4553, answer)
    assert fb.status == status and words in fb.message, fb.message
    if status == "close":
        assert "Hint" not in fb.message


def test_a_percentage_rounded_coarsely_is_still_pointed_out() -> None:
    fb = check_answer("p28_after_20_seen", 30)  # 30% for 0.3077
    assert fb.status == "close" and "probability" in fb.message


def test_reading_20_off_the_heatmap_is_told_what_break_even_means() -> None:
    # 20 is the first pot where Take is strictly better, one above the break-even pot 19.
    fb = check_answer("break_even_20", 20)
    assert fb.status == "wrong" and "cost exactly the same" in fb.message
    assert "19" not in fb.message
    assert "cost exactly the same" in check_answer("break_even_26_holding_27", -1).message


@pytest.mark.parametrize("key", sorted(INDEPENDENT))
@pytest.mark.parametrize("wrong", [0.123456, -3, 10**400, "0.9999", [1], None])
def test_no_message_gives_the_solution_away(key: str, wrong: object) -> None:
    exact = INDEPENDENT[key]
    fb = check_answer(key, wrong)
    assert fb.status != "right"
    shown = {f"{exact:.{d}f}" for d in (2, 3, 4)} if exercise(key).probability else set()
    shown |= {f"{exact:g}"} if not exercise(key).probability else set()
    message = fb.message.replace(str(wrong), "")
    for text in shown:
        # As a number of its own: a small whole answer such as 4 may be a digit of "0.42".
        assert not re.search(rf"(?<![\d.]){re.escape(text)}(?![\d])", message), (text, message)


def test_the_student_api_does_not_hand_out_solutions() -> None:
    for key in EXERCISES:
        ex = exercise(key)
        public = [n for n in dir(ex) if not n.startswith("_")]
        assert not {"solution", "solve", "answer", "exact"} & set(public)
        assert repr(ex).count("_solve") == 0
        assert f"{INDEPENDENT[key]:.4f}" not in repr(ex) + str(ex) + ex._repr_html_()


def test_unknown_exercise_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown exercise 'nope'.*p28_start"):
        check_answer("nope", 0.5)
    with pytest.raises(ValueError, match="unknown exercise"):
        exercise(3)  # type: ignore[arg-type]


def test_exercises_by_lesson() -> None:
    assert set(exercises()) == set(EXERCISES)
    by_lesson = [
        exercises(lesson)
        for lesson in (
            "01_play",
            "02_chances_under_removed_cards",
            "03_runs_exact_vs_simulated",
            "04_chip_value",
            "04b_take_or_pass",
            "06_perfect_play",
        )
    ]
    assert set().union(*by_lesson) == set(EXERCISES)
    assert sum(len(keys) for keys in by_lesson) == len(EXERCISES)  # no exercise in two lessons
    assert len(exercises("04_chip_value")) >= 4  # issue 17: at least four on chip value
    with pytest.raises(ValueError, match="no exercises for lesson 'x'"):
        exercises("x")


def test_exercise_shows_its_question() -> None:
    ex = exercise("p28_start")
    assert "28" in str(ex) and "28" in ex._repr_html_()
    assert lessons.Feedback("k", "right", "m&n")._repr_html_().count("&amp;") == 1


def test_every_name_of_the_former_module_is_importable_from_the_package() -> None:
    """`lessons` became a package by concept; what callers imported from it still imports."""
    public = {"EXERCISES", "Exercise", "Feedback", "Status", "check_answer", "exercise"}
    public.add("exercises")
    assert set(lessons.__all__) == public
    assert all(hasattr(lessons, n) for n in public)
    assert lessons._solution("p28_start") == pytest.approx(24 / 33)  # the kit's side

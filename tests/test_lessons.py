"""Self-check exercises: exact solutions agree with first-principles counts; exact grading
(every exercise's own table of right, close and wrong forms); bounded reading of bad input."""

from __future__ import annotations

import itertools
import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from nothanks_lab import lessons
from nothanks_lab.lessons import EXERCISES, check_answer, exercise, exercises
from nothanks_lab.rules import Rules, card_points, runs

STANDARD = Rules()

# Each solution recomputed independently and exactly: counting removed sets with math.comb, or
# the scoring rules directly, never through the functions the exercises call.
F = Fraction
INDEPENDENT: dict[str, Fraction | int] = {
    # Runs 5-7, 20, 22-23, 30 score their lowest cards; minus 4 chips.
    "score_hand_7_cards": 5 + 20 + 22 + 30 - 4,
    # 25 and 27 score 52; with 26 the run 25-27 scores 25.
    "points_change_26_holding_25_27": 25 - (25 + 27),
    "p28_start": F(comb(32, 9), comb(33, 9)),
    "p27_28_29_start": F(comb(30, 9), comb(33, 9)),
    # 20 seen, 13 unseen of which 9 removed: 28 must avoid the 9 removed among 13.
    "p28_after_20_seen": F(comb(12, 9), comb(13, 9)),
    # 20 and 23 seen, 31 unseen; both 21 and 22 in play.
    "p_gap_21_22_holding_20_23": F(comb(29, 9), comb(31, 9)),
    "one_of_top3_removed": F(3 * comb(30, 8), comb(33, 9)),
    # Cards 1..8, 5 in play: one run of 5 starts at 1, 2, 3 or 4; comb(8, 3) removed sets.
    "tiny_single_run": F(4, comb(8, 3)),
    "break_even_20": 20 - 1,
    "break_even_26_holding_27": (card_points([26, 27]) - card_points([27])) - 1,
    # Take - No Thanks!: the card's marginal points minus the pot, minus the chip a pass costs.
    "take_minus_pass_28_holding_27_29": (card_points([27, 28, 29]) - card_points([27, 29])) - 2 - 1,
    # The questions' own numbers: each pair's difference, then their average.
    "paired_mean_change": F(
        sum(w - o for w, o in zip((38, 52, 20, 49, 51), (40, 52, 31, 47, 60), strict=True)), 5
    ),
    "rollout_take_minus_pass": F(
        sum(t - p for t, p in zip((45, 38, 60, 41), (43, 44, 52, 47), strict=True)), 4
    ),
    # Cards 1..8, 5 in play in exactly two runs: checked by enumeration below as well.
    "tiny_two_runs": F(24, comb(8, 3)),
    # 25 touches neither 12 nor 30, so it adds 25 points; the bot needs 2/5 of them.
    "smallest_pot_example_bot_takes_25": 10,
    # Every order of four seats: 4!.
    "games_per_deal_four_bots": 4 * 3 * 2 * 1,
    # 06_perfect_play: exact fractions, each derived by an independent game-tree search in
    # tests/test_perfect_play_lesson.py (the last-two-cards one by hand there as well).
    "pp_last_two_cards": F(5, 6),
    "pp_first_player_two_chips": F(91, 240),
    "pp_best_response_random": F(6293953, 7031250),  # p_take = 1/5
    "pp_first_card_8": 4,
}


def test_every_exercise_has_an_independent_check() -> None:
    assert set(INDEPENDENT) == set(EXERCISES)


@pytest.mark.parametrize("key", sorted(INDEPENDENT))
def test_solution_matches_first_principles(key: str) -> None:
    exact = lessons.exact_answer(key)
    assert type(exact) is Fraction and exact == INDEPENDENT[key]  # exactly, not to 1e-12
    assert lessons.solution_value(key) == float(INDEPENDENT[key])


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
    wrong = check_answer(key, exact + Fraction(1, 20))
    assert wrong.status == "wrong" and not wrong.correct
    assert "Hint" in wrong.message or "not a chance" in wrong.message


def test_unanswered_is_not_an_error() -> None:
    fb = check_answer("p28_start", None)
    assert fb.status == "unanswered" and not fb.correct
    assert "Not answered yet" in str(fb)
    assert "Not answered yet" in fb._repr_html_()


def test_roundings_and_truncations_to_the_places_needed_are_right() -> None:
    assert exercise("p28_start").digits == 3
    assert check_answer("p28_start", 0.727).correct  # 8/11 = 0.72727...
    assert check_answer("p28_start", round(24 / 33, 3)).correct
    assert check_answer("p28_start", 0.7273).correct and check_answer("p28_start", 0.7272).correct
    assert check_answer("p28_start", 0.73).status == "close"  # two places: too coarse
    assert check_answer("p28_start", 0.728).status == "wrong"  # neither rounded nor cut
    assert check_answer("p28_start", 0.74).status == "wrong"
    assert check_answer("p28_after_20_seen", 0.308).correct  # 4/13 = 0.30769...
    assert check_answer("p28_after_20_seen", 0.307).correct  # truncated
    assert check_answer("p28_after_20_seen", 0.31).status == "close"
    assert check_answer("p28_after_20_seen", 0.32).status == "wrong"


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
        assert f"{float(exact):.{digits}f}" not in fb.message
    assert str(exact) not in fb.message and "23/62" not in fb.message


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
    ("p28_start", 0.7, "close", "rounded to 1 decimal place"),
    ("p28_start", "0,7", "close", "give at least 3 decimal places"),
    ("p28_after_20_seen", 0.3, "close", "rounded to 1 decimal place"),
    # The cases: a near fraction is wrong, and a false rounding is never "close".
    ("p_gap_21_22_holding_20_23", "1/2", "wrong", "Hint"),
    ("p27_28_29_start", "3/8", "wrong", "Hint"),
    ("p28_start", 0.8, "wrong", "Hint"),
    ("p28_start", "1e-99999999", "wrong", "not a number I can read"),
    ("p28_start", "Fraction(8, 11)", "right", "exactly"),
    ("p28_start", "0.7272727272", "right", "truncated to 10"),
    ("p28_start", 0.7272727, "right", "to 7 decimal places"),
    # Python's float of 24/33 is also its rounding to 16 places; a student typed no rounding.
    ("p28_start", 24 / 33, "right", "a computed value"),
    ("p28_start", "0.7272727272727273", "right", "a computed value"),
    # 23/62 = 0.37096...: "0.370" is its truncation; 0.37 has two places, too few.
    ("p27_28_29_start", "0.370", "right", "truncated to 3"),
    ("p27_28_29_start", 0.37, "close", "rounded to 2 decimal places"),
    ("p28_start", "0.7272727273", "right", "rounded to 10"),
    # Ten significant digits read as a computed value (3e-10 relative off: right); nine digits
    # must be a rounding or a truncation.
    ("p28_start", "0.7272727275", "right", "1e-9"),
    ("p28_start", "0.727272728", "wrong", "Hint"),
    ("p28_start", "72.7%", "close", "percentage"),
    ("p28_start", "1", "wrong", "Hint"),  # a whole number is exact, never "rounded to 0"
    ("p28_start", 1.0, "wrong", "Hint"),
    ("rollout_take_minus_pass", -0.5, "right", "exactly"),
    ("rollout_take_minus_pass", "-1/2", "right", "exactly"),
    ("rollout_take_minus_pass", "-0.50", "right", "exactly"),
    ("rollout_take_minus_pass", -0.4, "wrong", "Hint"),
    ("break_even_20", "1900%", "wrong", "Hint"),  # a pot is no chance: no percentage reading
    ("break_even_20", 2**1300, "wrong", "Hint"),  # readable, and not printed in full
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
    ex = lessons.Exercise(
        "t4553", "test", "A chance?", lambda: Fraction("0.4553"), "Count removed sets."
    )
    monkeypatch.setitem(EXERCISES, "t4553", ex)
    return "t4553"


@pytest.mark.parametrize(
    ("answer", "status", "words"),
    [
        (0.4553, "right", "matches"),
        (0.455, "right", "matches"),
        ("0.4553000", "right", "exactly"),
        (0.456, "wrong", "Hint"),  # 0.4553 rounds to 0.455 at 3 places
        (0.46, "close", "rounded to 2 decimal places"),
        (0.45, "close", "truncated to 2 decimal places"),
        ("0.45", "close", "give at least 3 decimal places"),
        ("0,45", "close", "give at least 3 decimal places"),
        (0.5, "close", "rounded to 1 decimal place"),
        (0.4, "close", "truncated to 1 decimal place"),
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


@pytest.mark.parametrize("answer", ["0.0", 0.0, "0", "0.00"])
def test_a_zero_for_a_small_chance_says_it_is_not_zero(answer: object) -> None:
    # 1/14 truncated to one place is 0.0, but a chance of 0 claims "never": wrong, and told why.
    feedback = check_answer("tiny_single_run", answer)
    assert feedback.status == "wrong"
    assert "never happens" in feedback.message and "Hint" in feedback.message
    assert check_answer("tiny_single_run", "0.07").status == "close"


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
    shown = {f"{float(exact):.{d}f}" for d in (2, 3, 4)} if exercise(key).probability else set()
    shown |= {f"{float(exact):g}"} if not exercise(key).probability else set()
    shown |= {str(exact)} if Fraction(exact).denominator > 1 else set()
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
        assert f"{float(INDEPENDENT[key]):.4f}" not in repr(ex) + str(ex) + ex._repr_html_()


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
            "05_your_own_bot",
            "06_perfect_play",
            "07_bot_lab",
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
    assert lessons.solution_value("p28_start") == pytest.approx(24 / 33)  # the kit's side


# ------------------------------------------------------------------ exact grading, per exercise
def _decimal_text(exact: Fraction, places: int, rounding: str) -> str:
    """`exact` to `places` decimal places by the decimal module (not the checker's own code)."""
    with localcontext() as ctx:
        ctx.prec = 80
        value = Decimal(exact.numerator) / Decimal(exact.denominator)
        return str(value.quantize(Decimal(1).scaleb(-places), rounding=rounding))


def _valid(exact: Fraction, places: int) -> list[str]:
    """The accepted roundings of `exact` to `places` places, each once, in a fixed order.

    (A list, not a set: the parametrized ids must come out in the same order in every process,
    or pytest-xdist's workers disagree on what they collected.)
    """
    texts = (_decimal_text(exact, places, r) for r in (ROUND_HALF_EVEN, ROUND_HALF_UP, ROUND_DOWN))
    return list(dict.fromkeys(texts))


def _near_fraction(exact: Fraction) -> Fraction:
    """The different fraction with the smallest denominator within 0.005 of `exact`."""
    for q in itertools.count(1):
        for p in (round(exact * q) + d for d in (0, -1, 1)):
            if Fraction(p, q) != exact and abs(Fraction(p, q) - exact) < Fraction(1, 200):
                return Fraction(p, q)
    raise AssertionError  # pragma: no cover


def _table(key: str) -> Iterator[tuple[object, str]]:
    """(answer, status) pairs for exercise `key`, all derived from its exact answer."""
    exact = Fraction(INDEPENDENT[key])
    d = exercise(key).digits
    yield exact, "right"
    yield str(exact), "right"
    yield f"Fraction({exact.numerator}, {exact.denominator})", "right"
    yield float(exact), "right"  # a computed float
    for places in (d, d + 1):
        for text in _valid(exact, places):
            yield text, "right"
            if repr(float(text)) == text:  # a float's places are those of its repr
                yield float(text), "right"
    for places in range(1, d):  # too coarse: close
        for text in _valid(exact, places):
            if Fraction(text) != 0:
                yield text, "close"
    # False roundings: one step beside every valid rounding, at every number of places.
    for places in range(1, d + 2):
        valid = list(dict.fromkeys(Fraction(t) for t in _valid(exact, places)))
        for v in valid:
            for false in (v - Fraction(1, 10**places), v + Fraction(1, 10**places)):
                if false not in valid:
                    yield _decimal_text(false, places, ROUND_DOWN), "wrong"
    near = _near_fraction(exact)
    yield near, "wrong"
    yield str(near), "wrong"
    if exercise(key).probability:
        for text in _valid(exact * 100, max(d - 2, 0) + 1):
            yield f"{text}%", "close"
            if 1 < Fraction(text) <= 100:
                yield float(text), "close"
    yield "abc", "wrong"
    yield "", "unanswered"
    yield None, "unanswered"


TABLE = [(key, answer, status) for key in sorted(INDEPENDENT) for answer, status in _table(key)]


@pytest.mark.parametrize(("key", "answer", "status"), TABLE)
def test_every_exercise_grades_its_own_table(key: str, answer: object, status: str) -> None:
    fb = check_answer(key, answer)
    assert fb.status == status, (answer, fb.message)
    if status == "wrong" and answer != "abc":
        assert "Hint" in fb.message or "not a chance" in fb.message or "is not it" in fb.message
    if status == "close":
        assert "Hint" not in fb.message


def test_the_table_covers_every_form() -> None:
    for key in INDEPENDENT:
        statuses = [s for k, _, s in TABLE if k == key]
        assert {"right", "wrong", "unanswered"} <= set(statuses), key
        if exercise(key).digits >= 2 or exercise(key).probability:
            assert "close" in statuses, key


def test_a_false_rounding_is_wrong_and_no_close_message_claims_one() -> None:
    # 8/11 = 0.7272...: 0.8 rounds nothing; 0.7 is a rounding and says so, without the answer.
    assert check_answer("p28_start", 0.8).status == "wrong"
    fb = check_answer("p28_start", 0.7)
    assert fb.status == "close" and "rounded to 1 decimal place" in fb.message
    assert "8/11" not in fb.message and "0.727" not in fb.message
    fb = check_answer("p28_start", 0.72)
    assert fb.status == "close" and "truncated to 2 decimal places" in fb.message


# ------------------------------------------------------------------ bounded work, never raising
@contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    """Fail instead of hanging if the block takes longer than `seconds` (a regression guard)."""

    def _late(signum: int, frame: object) -> None:
        raise TimeoutError(f"check_answer took more than {seconds} s")

    old = signal.signal(signal.SIGALRM, _late)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


HUGE = [
    "1e-99999999",
    "1e99999999",
    "0.5e+401",
    "9" * 10**6,
    "1/" + "9" * 10**5,
    " " * 201,
    10**5000,
    -(10**5000),
    np.int64(1) << 62,  # large, but readable
    Fraction(10**5000, 7),
    Fraction(1, 10**5000),
    Decimal("1e-99999999"),
    Decimal("9" * 10**5),
]


@pytest.mark.parametrize("answer", HUGE, ids=lambda a: type(a).__name__)
def test_huge_answers_are_refused_before_any_arithmetic(answer: object) -> None:
    with _deadline(5):
        fb = check_answer("p28_start", answer)
    assert fb.status == "wrong"
    if not isinstance(answer, np.integer):
        assert "not a number I can read" in fb.message
    assert len(fb.message) < 400


class _Raises:
    """A student's object whose every conversion and comparison raises."""

    def _fail(self, *args: object) -> None:
        raise RuntimeError("boom")

    __float__ = __str__ = __repr__ = __eq__ = __bool__ = __int__ = __index__ = _fail  # type: ignore[assignment]
    __hash__ = None  # type: ignore[assignment]


class _BadStr(str):
    """A str subclass whose own methods raise."""

    def strip(self, *args: object) -> str:
        raise RuntimeError("boom")

    def __str__(self) -> str:
        raise RuntimeError("boom")

    def __len__(self) -> int:
        raise RuntimeError("boom")


class _BadRational(Fraction):
    """A Fraction subclass whose numerator raises."""

    @property
    def numerator(self) -> int:
        raise RuntimeError("boom")


ADVERSARIAL = [
    _Raises(),
    _BadStr("0.727"),
    _BadRational(8, 11),
    np.array([[0.7, 0.3]]),
    np.array(Fraction(8, 11), dtype=object),
    np.array("0.727"),
    Decimal("NaN"),
    Decimal("sNaN"),
    Decimal("-Infinity"),
    True,
    np.True_,
    1 + 0j,
    np.complex128(0.7),
    [[[[0.727]]]],
    b"0.727",
    bytearray(b"1"),
    range(3),
    type,
    np.float32("nan"),
    slice(1),
]


@pytest.mark.parametrize("answer", ADVERSARIAL, ids=lambda a: type(a).__name__)
def test_odd_objects_never_raise(answer: object) -> None:
    with _deadline(5):
        fb = check_answer("p28_start", answer)
    assert fb.status in {"right", "wrong"}
    assert str(fb) and fb._repr_html_()


def test_long_answers_are_not_echoed_in_full() -> None:
    for answer in (2**1300, Fraction(2**1300, 3), "0." + "7" * 190):
        assert len(check_answer("break_even_20", answer).message) < 400


def test_a_str_subclass_is_read_as_its_text() -> None:
    assert check_answer("p28_start", _BadStr("0.727")).status == "right"


def test_the_exact_answer_is_computed_once_per_exercise() -> None:
    lessons.exact_answer("pp_first_card_8")
    with _deadline(2):
        assert all(check_answer("pp_first_card_8", 4).correct for _ in range(50))


def test_digits_must_be_a_small_int() -> None:
    for bad in (-1, 13, 2.5, True):
        with pytest.raises(ValueError, match="digits must be an int from 0 to 12"):
            lessons.Exercise("k", "l", "q?", lambda: 1, "h", digits=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("key", sorted(INDEPENDENT))
def test_the_teachers_accepted_forms_are_graded_as_stated(key: str) -> None:
    # The guide's "accepted" line (lessons.accepted_answers) and check_answer follow one rule.
    text = lessons.accepted_answers(key)
    exact = Fraction(INDEPENDENT[key])
    assert text.startswith(f"accepted: {exact}")
    right = [str(exact)]
    if m := re.search(r"rounded or truncated: (.*?), …", text):
        right += m[1].split(", ")
        assert set(_valid(exact, exercise(key).digits)) <= set(right)
    right += re.findall(r"also (\S+?)\)", text) + re.findall(r"= (\S+) exactly", text)
    for answer in right:
        assert check_answer(key, answer).status == "right", (answer, text)
    if m := re.search(r"fewer places \((.*?)\)", text):
        for answer in m[1].split(", "):
            assert check_answer(key, answer).status == "close", (answer, text)
    if m := re.search(r"a percentage \((.*?)\)", text):
        assert check_answer(key, m[1]).status == "close", text

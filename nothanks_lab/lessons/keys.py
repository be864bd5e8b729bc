"""The answer keys: every exercise of the lessons, its answer computed by the package.

Each exercise's answer is a small function calling :mod:`nothanks_lab.probability`,
:mod:`nothanks_lab.analysis`, :mod:`nothanks_lab.stats` or, for the perfect-play lesson, the
exact solver (never a typed-in number); it runs only when an answer is checked or the teacher's
kit is written. Every answer is exact, an int or a :class:`~fractions.Fraction`: a chance under
uniformly removed cards is a count of removed sets over all of them (the package's chance,
written over that count), a mean of integer scores is a fraction, and the exact solver's
values are fractions with small denominators. :data:`EXERCISES` holds the exercises by key,
:func:`exercises` lists the keys of a lesson and :func:`exercise` shows one question;
``exact_answer`` and ``solution_value`` are the teacher's side (the tests and
:mod:`nothanks_lab.kit` call them, a student notebook never does).
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb
from typing import Any

from ..i18n import N_, _
from .exercise import Exercise

__all__ = ["EXERCISES", "exercise", "exercises"]

Exact = int | Fraction


def _over(chance: float, count: int) -> Fraction:
    """`chance`, computed by the package as a float, as the exact fraction ``k / count``.

    Every chance under uniformly removed cards is a number of equally likely removed sets over
    `count`, all of them; the float pins ``k`` down (a count below 10^9 loses nothing).
    """
    k = round(chance * count)
    if abs(k / count - chance) > 1e-12:
        raise RuntimeError(f"{chance!r} is not a count over {count} removed sets")
    return Fraction(k, count)


def _removed_sets(rules: Any = None, n_seen: int = 0) -> int:
    """How many equally likely removed sets there are with `n_seen` cards seen."""
    from ..rules import Rules

    rules = Rules() if rules is None else rules
    return comb(rules.n_cards - n_seen, rules.n_removed)


def _solver_fraction(value: float) -> Fraction:
    """An exact solver's float as its fraction: the game tree's chances have denominators
    far below 10^7, so the value is the nearest such fraction (checked to 1e-12)."""
    frac = Fraction(value).limit_denominator(10**7)
    if abs(float(frac) - value) > 1e-12:
        raise RuntimeError(f"{value!r} is not a fraction with a small denominator")
    return frac


def _mean(values: list[int], estimate: float) -> Fraction:
    """The mean of integer `values` exactly, checked against the package's `estimate` of it."""
    mean = Fraction(sum(values), len(values))
    if abs(float(mean) - estimate) > 1e-9:
        raise RuntimeError(f"the mean of {values} is {mean}, not {estimate!r}")
    return mean


def _p_28_at_start() -> Exact:
    from ..probability import p_all_in_play

    return _over(p_all_in_play(28), _removed_sets())


def _p_27_28_29_at_start() -> Exact:
    from ..probability import p_all_in_play

    return _over(p_all_in_play([27, 28, 29]), _removed_sets())


def _p_28_after_20_seen() -> Exact:
    from ..probability import p_all_in_play

    # Which cards were seen does not matter, only how many: any 20 that are not 28 will do.
    seen = [27, 29, *range(3, 21)]
    return _over(p_all_in_play(28, seen=seen), _removed_sets(n_seen=len(seen)))


def _p_gap_21_22_holding_20_23() -> Exact:
    from ..probability import p_all_in_play

    return _over(p_all_in_play([21, 22], seen=[20, 23]), _removed_sets(n_seen=2))


def _p_one_of_top_three_removed() -> Exact:
    from ..probability import removed_count_pmf

    return _over(float(removed_count_pmf([33, 34, 35])[1]), _removed_sets())


def _tiny() -> Any:
    """The tiny deck of the runs lesson: cards 1 to 8, three removed."""
    from ..rules import Rules

    return Rules(low_card=1, high_card=8, n_removed=3)


def _p_tiny_single_run() -> Exact:
    from ..probability import run_count_pmf

    tiny = _tiny()
    return _over(float(run_count_pmf(tiny)[1]), _removed_sets(tiny))


def _break_even_20() -> Exact:
    from ..analysis import break_even_pots

    return int(break_even_pots((), [20])[20])


def _break_even_26_holding_27() -> Exact:
    from ..analysis import break_even_pots

    return int(break_even_pots((27,), [26])[26])


def _p_tiny_two_runs() -> Exact:
    from ..probability import run_count_pmf

    tiny = _tiny()
    return _over(float(run_count_pmf(tiny)[2]), _removed_sets(tiny))


def _take_minus_pass_28_holding_27_29() -> Exact:
    from ..analysis import immediate_take_minus_pass

    return int(immediate_take_minus_pass(28, 2, (27, 29)))


# The five deals of the paired-simulation exercise: seat 0's final scores without and with
# four extra starting chips (the same deals, so the scores pair up deal by deal).
_PAIRED_WITHOUT = (40, 52, 31, 47, 60)
_PAIRED_WITH = (38, 52, 20, 49, 51)
# The four rollouts of the rollout exercise: seat 0's final scores after each move, on the same
# four guesses at the face-down cards.
_ROLLOUT_TAKE = (45, 38, 60, 41)
_ROLLOUT_PASS = (43, 44, 52, 47)


def _paired_mean_change() -> Exact:
    from ..stats import paired_interval

    estimate = float(paired_interval(_PAIRED_WITH, _PAIRED_WITHOUT).value)
    return _mean([w - o for w, o in zip(_PAIRED_WITH, _PAIRED_WITHOUT, strict=True)], estimate)


def _rollout_take_minus_pass() -> Exact:
    from ..stats import paired_interval

    estimate = float(paired_interval(_ROLLOUT_TAKE, _ROLLOUT_PASS).value)
    return _mean([t - p for t, p in zip(_ROLLOUT_TAKE, _ROLLOUT_PASS, strict=True)], estimate)


def _scores(values: tuple[int, ...]) -> str:
    return ", ".join(str(v) for v in values)


def _score_hand_7_cards() -> Exact:
    from ..rules import score

    return int(score([5, 6, 7, 20, 22, 23, 30], 4))


def _points_change_26_holding_25_27() -> Exact:
    from ..rules import card_points

    return int(card_points([25, 26, 27]) - card_points([25, 27]))


def _smallest_pot_example_bot_takes_25() -> Exact:
    from ..rules import card_points

    # Lesson 05's example bot takes when the pot is at least 2/5 of what the card adds.
    cost = card_points([12, 25, 30]) - card_points([12, 30])
    return math.ceil(Fraction(2, 5) * cost)


def _games_per_deal_four_bots() -> Exact:
    from ..seating import balanced_design

    return balanced_design(4).block_size


_ONE_ABOVE = N_(
    "with that many chips on the card Take is already strictly better than No Thanks! (the "
    "first blue cell of the heatmap). The break-even pot is the pot at which both moves cost "
    "exactly the same (a white cell, Take − No Thanks! = 0)."
)

_ALL: tuple[Exercise, ...] = (
    Exercise(
        "score_hand_7_cards",
        "01_play",
        N_(
            "At the end of a round you hold 5, 6, 7, 20, 22, 23 and 30, and 4 chips. What is your "
            "score?"
        ),
        _score_hand_7_cards,
        N_(
            "Find the runs first: each run scores only its lowest card. Then subtract one point "
            "per chip."
        ),
        digits=0,
        probability=False,
    ),
    Exercise(
        "points_change_26_holding_25_27",
        "01_play",
        N_(
            "You hold 25 and 27. By how many points do your card points change if you take 26? "
            "(Negative: they go down.)"
        ),
        _points_change_26_holding_25_27,
        N_(
            "Score the hand before (two separate cards) and after (one run, which scores only its "
            "lowest card), and subtract."
        ),
        digits=0,
        probability=False,
    ),
    Exercise(
        "p28_start",
        "02_chances_under_removed_cards",
        N_(
            "At the start of a standard round (33 cards, 9 removed unseen), what is the chance "
            "that card 28 is in play?"
        ),
        _p_28_at_start,
        N_(
            "Count the removed sets that leave 28 out, divided by all removed sets; or think of "
            "how many of the 33 cards are played."
        ),
    ),
    Exercise(
        "p27_28_29_start",
        "02_chances_under_removed_cards",
        N_(
            "At the start of a standard round, what is the chance that all three of 27, 28 and 29 "
            "are in play?"
        ),
        _p_27_28_29_at_start,
        N_("All three are in play when every removed card comes from the other 30 cards."),
    ),
    Exercise(
        "p28_after_20_seen",
        "02_chances_under_removed_cards",
        N_(
            "You hold 27 and 29. Twenty cards have been turned face up so far (your two among "
            "them), and 28 was not one of them. What is the chance that 28 is still coming?"
        ),
        _p_28_after_20_seen,
        N_(
            "The seen cards are certainly in play. How many cards are unseen, and how many of "
            "them are still in play?"
        ),
    ),
    Exercise(
        "p_gap_21_22_holding_20_23",
        "02_chances_under_removed_cards",
        N_(
            "You hold 20 and 23 at the very start of a round (nothing else seen). What is the "
            "chance that both 21 and 22 are in play, so the two-card gap can still be filled?"
        ),
        _p_gap_21_22_holding_20_23,
        N_(
            "20 and 23 are seen, so they are in play: all 9 removed cards come from the 31 unseen "
            "cards, and must avoid 21 and 22."
        ),
    ),
    Exercise(
        "one_of_top3_removed",
        "02_chances_under_removed_cards",
        N_(
            "At the start of a standard round, what is the chance that exactly one of the three "
            "highest cards (33, 34, 35) was removed?"
        ),
        _p_one_of_top_three_removed,
        N_(
            "Choose which one of the three is removed, and the other 8 removed cards from the 30 "
            "remaining cards; divide by all removed sets."
        ),
    ),
    Exercise(
        "tiny_single_run",
        "03_runs_exact_vs_simulated",
        N_(
            "On a tiny deck of cards 1 to 8 with 3 removed, what is the chance that the 5 in-play "
            "cards form one single run?"
        ),
        _p_tiny_single_run,
        N_(
            "List the removed sets with itertools.combinations, or count: one run of 5 "
            "consecutive cards can start at how many places?"
        ),
    ),
    Exercise(
        "break_even_20",
        "04_chip_value",
        N_(
            "Counting this move only, with an empty hand: what is the break-even pot of card 20, "
            "the pot at which Take and No Thanks! cost the same?"
        ),
        _break_even_20,
        N_("Taking costs the card's points minus the chips in the pot; passing costs one chip."),
        digits=0,
        probability=False,
        one_above_msg=_ONE_ABOVE,
    ),
    Exercise(
        "break_even_26_holding_27",
        "04_chip_value",
        N_(
            "Counting this move only, you hold 27: what is the break-even pot of card 26, the pot "
            "at which Take and No Thanks! cost the same? (A negative pot means taking pays even "
            "with no chips on it.)"
        ),
        _break_even_26_holding_27,
        N_("26 joins 27 into a run that scores 26 instead of 27: what does taking 26 add?"),
        digits=0,
        probability=False,
        one_above_msg=_ONE_ABOVE,
    ),
    Exercise(
        "take_minus_pass_28_holding_27_29",
        "04_chip_value",
        N_(
            "Counting this move only, you hold 27 and 29 and card 28 is face up with 2 chips on "
            "it. By how much does your score change with Take, minus the change with No Thanks!? "
            "(Negative: Take is better.)"
        ),
        _take_minus_pass_28_holding_27_29,
        N_(
            "Score your hand before and after taking 28 (runs score their lowest card); the chips "
            "you gain lower your score, and a pass costs you one chip."
        ),
        digits=0,
        probability=False,
    ),
    Exercise(
        "paired_mean_change",
        "04_chip_value",
        N_(
            "Five deals were each played twice, seat 0 starting with 11 chips and then with 15. "
            "Seat 0's final scores without the extra chips: {without}; with "
            "them, on the same deals in the same order: {with}. What is the "
            "paired estimate of the change in seat 0's score (with minus without)?"
        ),
        _paired_mean_change,
        N_(
            "Pair the scores deal by deal: take each deal's difference first, then average the "
            "differences."
        ),
        digits=1,
        probability=False,
        question_args=(("without", _scores(_PAIRED_WITHOUT)), ("with", _scores(_PAIRED_WITH))),
    ),
    Exercise(
        "rollout_take_minus_pass",
        "04b_take_or_pass",
        N_(
            "Four rollouts of one position: on the same four guesses at the face-down cards, seat "
            "0 finished with {take} points after Take and "
            "{no_thanks} after No Thanks!. What is the rollout estimate of Take − "
            "No Thanks! (negative: Take is better)?"
        ),
        _rollout_take_minus_pass,
        N_(
            "Each guess gives one difference, Take's score minus No Thanks!'s on the same guess; "
            "the estimate is their average."
        ),
        digits=1,
        probability=False,
        question_args=(("take", _scores(_ROLLOUT_TAKE)), ("no_thanks", _scores(_ROLLOUT_PASS))),
    ),
    Exercise(
        "tiny_two_runs",
        "03_runs_exact_vs_simulated",
        N_(
            "On a tiny deck of cards 1 to 8 with 3 removed, what is the chance that the 5 in-play "
            "cards form exactly two runs?"
        ),
        _p_tiny_two_runs,
        N_(
            "Count as in section 1: split the in-play cards into two runs in order, then place "
            "the runs in the slots around the removed cards, at most one run per slot."
        ),
    ),
    Exercise(
        "smallest_pot_example_bot_takes_25",
        "05_your_own_bot",
        N_(
            "The example bot of section 2 holds 12 and 30, has chips, and card 25 is turned. What "
            "is the smallest number of chips on 25 for which it says Take?"
        ),
        _smallest_pot_example_bot_takes_25,
        N_(
            "Work out what 25 adds to its card points (is it next to 12 or 30?), then the bot's "
            "rule: the pot must be at least 40% of that."
        ),
        digits=0,
        probability=False,
    ),
    Exercise(
        "games_per_deal_four_bots",
        "07_bot_lab",
        N_(
            "A fair tournament of four bots at a 4-player table plays each deal once in every "
            "order of the seats. How many games is one deal played in?"
        ),
        _games_per_deal_four_bots,
        N_(
            "Count the orders: any of the 4 bots may sit in the first seat, then any of the 3 left "
            "in the second, and so on."
        ),
        digits=0,
        probability=False,
    ),
)

# ------------------------------------------------------------------ 06_perfect_play
# The answers of the perfect-play lesson come from the exact solver (`nothanks_lab.exact`, its
# plain-Python engine: no compiling) on the lesson's deck, cards 3 to 8 with two removed unseen
# and two players; three chips each unless an exercise says otherwise.
_PP_DECK = {"low_card": 3, "high_card": 8, "n_removed": 2}


def _pp_last_two_cards() -> Exact:
    from ..analysis import position_view
    from ..exact import solve
    from ..rules import Rules

    rules = Rules(**_PP_DECK, chips=((2, 3),))
    view = position_view(
        4, 1, (5,), n_players=2, my_chips=2, other_hands=[(8,)], other_chips=3, rules=rules
    )
    return _solver_fraction(solve(rules, engine="python").value_of(view))


def _pp_first_player_two_chips() -> Exact:
    from ..exact import solve
    from ..rules import Rules

    return _solver_fraction(solve(Rules(**_PP_DECK, chips=((2, 2),)), engine="python").value)


def _pp_best_response_random() -> Exact:
    from ..bots import RandomBot
    from ..exact import best_response
    from ..rules import Rules

    rules = Rules(**_PP_DECK, chips=((2, 3),))
    # best_response values a RandomBot by its p_take exactly: the seed plays no part.
    return _solver_fraction(best_response(rules, [RandomBot(p_take=0.2, seed=0)], seat=0).value)


def _pp_first_card_8() -> Exact:
    from ..analysis import position_view
    from ..engine import Action
    from ..exact import after_pass, solve
    from ..rules import Rules

    rules = Rules(**_PP_DECK, chips=((2, 3),))
    perfect = solve(rules, engine="python")
    view = position_view(8, 0, n_players=2, rules=rules)
    while perfect.action(view) is Action.PASS:  # a forced take ends the chain
        view = after_pass(view)
    return int(view.pot)


_ALL += (
    Exercise(
        "pp_last_two_cards",
        "06_perfect_play",
        N_(
            "On the lesson's deck (cards 3 to 8, two removed unseen, two players"
            "): seat 0 holds 5 and 2 chips, seat 1 holds 8 and 3 chips. Card 4 is "
            "face up with 1 chip on it and seat 0 is to act; one more card will be turned after "
            "it. With perfect play on both sides, what is seat 0's chance of winning?"
        ),
        _pp_last_two_cards,
        N_(
            "Value both moves as in section 2: which cards may still come (4, 5 and 8 are seen), "
            "and who ends up taking it? Seat 0 then picks the better move."
        ),
    ),
    Exercise(
        "pp_first_player_two_chips",
        "06_perfect_play",
        N_(
            "On the lesson's deck (cards 3 to 8, two removed unseen, two players"
            "), but with two chips each instead of three: what is the first "
            "player's chance of winning under perfect play?"
        ),
        _pp_first_player_two_chips,
        N_("Build the rules with chips=((2, 2),) and solve them as in section 3."),
    ),
    Exercise(
        "pp_best_response_random",
        "06_perfect_play",
        N_(
            "On the lesson's deck (cards 3 to 8, two removed unseen, two players"
            " with three chips each): seat 1 plays a bot that takes each card with "
            "probability 1/5, RandomBot(p_take=0.2). What is the best chance of winning seat 0 "
            "can get against it, acting first?"
        ),
        _pp_best_response_random,
        N_(
            "A best response plays one seat perfectly against a fixed bot at the other "
            "(section 5), and values a RandomBot's coin flips exactly; it acts first in seat 0."
        ),
    ),
    Exercise(
        "pp_first_card_8",
        "06_perfect_play",
        N_(
            "On the lesson's deck (cards 3 to 8, two removed unseen, two players"
            " with three chips each): card 8 is the first card turned. Both seats "
            "play perfectly; how many chips are on it when one of them takes it?"
        ),
        _pp_first_card_8,
        N_(
            "Follow the No Thanks! chain: ask the solution for the move at pot 0, and move on "
            "with exact.after_pass while the answer is No Thanks!."
        ),
        digits=0,
        probability=False,
    ),
)
# ------------------------------------------------------------------ end of 06_perfect_play

#: Every exercise of the lessons, by key.
EXERCISES: dict[str, Exercise] = {e.key: e for e in _ALL}


def exercises(lesson: str | None = None) -> tuple[str, ...]:
    """Keys of the exercises, all of them or those of one `lesson`.

    >>> exercises("03_runs_exact_vs_simulated")
    ('tiny_single_run', 'tiny_two_runs')
    """
    if lesson is not None and lesson not in {e.lesson for e in _ALL}:
        known = sorted({e.lesson for e in _ALL})
        raise ValueError(f"no exercises for lesson {lesson!r}; lessons with exercises: {known}")
    return tuple(e.key for e in _ALL if lesson is None or e.lesson == lesson)


def exercise(key: str) -> Exercise:
    """The exercise named `key` (it shows its question in a notebook).

    Parameters
    ----------
    key : str
        The exercise's key (`exercises` lists them).

    Returns
    -------
    Exercise
        Its question, hint and the decimal places an answer needs (``.digits``).

    Raises
    ------
    ValueError
        For an unknown `key`, naming the exercises there are.

    >>> print(exercise("p28_start").question[:45])
    At the start of a standard round (33 cards, 9
    """
    if not isinstance(key, str) or key not in EXERCISES:
        msg = _("unknown exercise {key}; exercises: {keys}")  # a student's typo: their language
        raise ValueError(msg.format(key=repr(key), keys=", ".join(EXERCISES)))
    return EXERCISES[key]


# Each exercise's answer, computed once: the exact solver takes a good part of a second and a
# check must answer at once. Keyed by the exercise itself, so a replaced exercise is recomputed.
_ANSWERS: dict[Exercise, Fraction] = {}


def exact_answer(key: str) -> Fraction:
    """The exact answer of exercise `key` as a fraction (the teacher's side), computed once."""
    ex = exercise(key)
    if ex not in _ANSWERS:
        value = ex._solve()
        if isinstance(value, bool) or not isinstance(value, int | Fraction):
            raise TypeError(f"exercise {key!r}: its solver gave {value!r}, not an int or Fraction")
        _ANSWERS[ex] = Fraction(value)
    return _ANSWERS[ex]


def solution_value(key: str) -> float:
    """The exact answer of exercise `key` as a float, computed now (tests and the kit)."""
    return float(exact_answer(key))

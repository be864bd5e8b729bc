"""Paper quizzes: a short quiz per class lesson (10 minutes, pen and paper) and its answer key.

:data:`QUIZZES` maps a lesson's stem to a function that builds its :class:`Quiz`: four to six
questions a student who followed the lesson answers without a computer. Every numeric answer is
computed by the package when the kit is written (:func:`~nothanks_lab.rules.card_points`,
:func:`~nothanks_lab.rules.score`, :mod:`nothanks_lab.probability`), as an exact fraction where
the answer is rational, never typed in. :func:`quiz_markdown` writes the students' sheet or the
teacher's key. Enrichment lessons (06, 08) have no quiz; a lesson missing here gets none.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from .. import probability
from ..rules import Rules, card_points, runs, score
from .solutions import as_fraction

__all__ = ["QUIZZES", "Question", "Quiz", "quiz", "quiz_markdown"]

#: Minutes a quiz is meant to take in class.
QUIZ_MINUTES = 10


@dataclass(frozen=True)
class Question:
    """One quiz question with its answer (computed now) and the working a teacher shows."""

    text: str
    """The question as printed."""
    answer: Fraction | int | str
    """The answer: exact when it is a number (a Fraction when not whole), else a word."""
    working: str
    """How to get it, for the key."""

    @property
    def answer_text(self) -> str:
        """The answer as the key prints it: ``23/44 ≈ 0.5227``, ``17`` or ``take``."""
        a = self.answer
        if isinstance(a, Fraction) and a.denominator != 1:
            return f"{a} ≈ {float(a):.4f}"
        return str(a)


@dataclass(frozen=True)
class Quiz:
    """A lesson's paper quiz."""

    stem: str
    """The lesson's notebook stem."""
    title: str
    """The quiz's heading."""
    questions: tuple[Question, ...]
    """Four to six questions."""


def _exact(value: float) -> Fraction:
    frac = as_fraction(value)
    if frac is None:
        raise ValueError(f"a quiz answer must be exact, got {value!r}")
    return frac


def _change(hand: list[int], card: int, pot: int) -> int:
    """How taking `card` with `pot` chips on it changes a score holding `hand`."""
    return card_points([*hand, card]) - card_points(hand) - pot


def _cards(cards: list[int]) -> str:
    return ", ".join(map(str, cards))


def _quiz_01() -> Quiz:
    r = Rules()
    hand, chips = [5, 6, 7, 12, 20, 21], 4
    h2 = [30, 31, 33]
    h3 = [25, 27]
    q = (
        Question(
            f"At the end of a round you hold the cards {_cards(hand)} and {chips} chips. "
            "What is your score?",
            score(hand, chips),
            " + ".join(str(x[0]) for x in runs(hand))
            + f" = {card_points(hand)} card points, minus {chips} chips.",
        ),
        Question(
            f"How many card points do the cards {_cards(h2)} cost?",
            card_points(h2),
            " + ".join(str(x[0]) for x in runs(h2)) + ": 30–31 is a run and counts 30.",
        ),
        Question(
            f"You hold {_cards(h3)}. The card 26 is offered with 3 chips on it. By how many "
            "points does your score change if you take it? (Give a negative number if it "
            "goes down.)",
            _change(h3, 26, 3),
            f"card points {card_points(h3)} → {card_points([*h3, 26])} (one run), "
            "then minus the 3 chips.",
        ),
        Question(
            "How many cards are turned face up in a round of the standard game?",
            r.n_in_play,
            f"{r.n_cards} cards, {r.n_removed} removed unseen.",
        ),
        Question(
            "How many chips does each player start with at a table of 6?",
            r.starting_chips(6),
            "3–5 players get 11, 6 players 9, 7 players 7.",
        ),
    )
    return Quiz("01_play", "Quiz: the rules and scoring", q)


def _quiz_02() -> Quiz:
    p = probability
    r = Rules()
    seen = list(range(3, 13))
    unseen = r.n_cards - len(seen)
    q = (
        Question(
            "At the start of a round, what is the chance that the card 29 is one of the 9 "
            "removed? Give a fraction.",
            _exact(1 - p.p_all_in_play([29])),
            f"{r.n_removed} of the {r.n_cards} cards are removed: {r.n_removed}/{r.n_cards} = "
            f"{Fraction(r.n_removed, r.n_cards)}.",
        ),
        Question(
            "At the start of a round, what is the chance that both 20 and 21 are in play?",
            _exact(p.p_all_in_play([20, 21])),
            "24/33 × 23/32 (the second card given the first), or C(31,9)/C(33,9).",
        ),
        Question(
            "The cards 3 to 12 have been turned face up; 30 has not appeared. What is the "
            "chance that 30 is still to come (in play)?",
            _exact(p.p_all_in_play([30], seen=seen)),
            f"{unseen} cards unseen, {r.n_removed} of them removed, so {unseen - r.n_removed} "
            f"of {unseen} are still to come.",
        ),
        Question(
            "At the start of a round, what is the chance that none of 10, 11, 12, 13 is removed?",
            _exact(p.p_all_in_play([10, 11, 12, 13])),
            "24/33 × 23/32 × 22/31 × 21/30, or C(29,9)/C(33,9).",
        ),
        Question(
            "At the start of a round, what is the chance that exactly two of 3, 4, 5 are removed?",
            _exact(float(p.removed_count_pmf([3, 4, 5])[2])),
            "Hypergeometric: C(3,2) × C(30,7) / C(33,9).",
        ),
    )
    return Quiz("02_chances_under_removed_cards", "Quiz: chances under removed cards", q)


# The tiny deck of lesson 03: five cards, two removed, three in play.
TINY = Rules(low_card=1, high_card=5, n_removed=2)


def _quiz_03() -> Quiz:
    hand = [3, 4, 5, 9, 10, 20]
    pmf = probability.run_count_pmf(TINY)
    q = (
        Question(
            f"How many runs do the cards {_cards(hand)} form?",
            len(runs(hand)),
            " | ".join(_cards(list(x)) for x in runs(hand)),
        ),
        Question(
            f"A tiny deck holds the cards {TINY.low_card} to {TINY.high_card}; "
            f"{TINY.n_removed} are removed at random. In how many ways can the removed cards "
            "be chosen?",
            math.comb(TINY.n_cards, TINY.n_removed),
            f"C({TINY.n_cards},{TINY.n_removed}): list them, 12, 13, …, 45.",
        ),
        Question(
            "In that tiny deck, what is the chance that the cards in play form exactly one run?",
            _exact(float(pmf[1])),
            "One run means 123, 234 or 345 in play: 3 of the 10 ways.",
        ),
        Question(
            "And the chance that they form exactly two runs?",
            _exact(float(pmf[2])),
            "Count the lists with one gap among the 10 (e.g. 1 2 4).",
        ),
        Question(
            "What is the expected number of runs in that tiny deck?",
            _exact(probability.expected_run_count(TINY)),
            "Sum of r × P(r runs) over the table of the 10 ways.",
        ),
    )
    return Quiz("03_runs_exact_vs_simulated", "Quiz: runs, exact and simulated", q)


def _quiz_04() -> Quiz:
    q = (
        Question(
            "You hold 10 and 15. The card 22 is offered with 5 chips. By how many points "
            "does your score change if you take it?",
            _change([10, 15], 22, 5),
            "22 extra card points, minus the 5 chips you collect.",
        ),
        Question(
            "You hold 23 and 25. The card 24 is offered with 2 chips. By how many points does "
            "your score change if you take it?",
            _change([23, 25], 24, 2),
            f"card points {card_points([23, 25])} → {card_points([23, 24, 25])}, minus 2.",
        ),
        Question(
            "You hold only 12. How many chips must be on the card 20 before taking it costs "
            "you no points at all (the break-even pot)?",
            _change([12], 20, 0),
            "20 is not next to 12: it adds 20 points, so 20 chips pay for it.",
        ),
        Question(
            "You hold 30. The card 31 comes with no chips. By how many points does your score "
            "change if you take it?",
            _change([30], 31, 0),
            "31 joins the run 30–31, which still counts 30.",
        ),
        Question(
            "Passing puts one chip on the card. Is a chip worth exactly one point at the end "
            "of a round? Answer yes or no.",
            "yes",
            "Each chip held at the end takes one point off; its worth during play is what "
            "the lesson estimates.",
        ),
    )
    return Quiz("04_chip_value", "Quiz: what is a chip worth?", q)


def _quiz_04b() -> Quiz:
    q = (
        Question(
            "You hold 14. The card 15 comes with 1 chip. Does taking lower your score? "
            "By how many points does it change?",
            _change([14], 15, 1),
            "15 joins 14 (no extra points) and you collect 1 chip.",
        ),
        Question(
            "You hold 8. The card 33 comes with 6 chips. By how many points does your score "
            "change if you take it?",
            _change([8], 33, 6),
            "33 new points minus 6 chips.",
        ),
        Question(
            "You hold 19 and 21. The card 20 comes with no chips. By how many points does "
            "your score change if you take it?",
            _change([19, 21], 20, 0),
            f"card points {card_points([19, 21])} → {card_points([19, 20, 21])}.",
        ),
        Question(
            "You have no chips left. The card 35 is offered. What must you do: take or pass?",
            "take",
            "With no chips you cannot say no thanks.",
        ),
    )
    return Quiz("04b_take_or_pass", "Quiz: take or pass?", q)


def _quiz_05() -> Quiz:
    t = 10

    def takes(hand: list[int], card: int, pot: int) -> str:
        return "take" if _change(hand, card, pot) <= t else "pass"

    q = (
        Question(
            f"MarginalCostBot({t}) takes a card when (extra card points − chips on it) ≤ {t}. "
            "It holds nothing; the card is 20 with 4 chips. Does it take or pass?",
            takes([], 20, 4),
            f"20 − 4 = {_change([], 20, 4)}, more than {t}.",
        ),
        Question(
            "The same bot holds 19; the card is 20 with no chips. Take or pass?",
            takes([19], 20, 0),
            f"20 joins 19: extra points {_change([19], 20, 0)}.",
        ),
        Question(
            "The same bot holds nothing; the card is 30. How many chips must be on it "
            "before the bot takes it?",
            _change([], 30, 0) - t,
            f"30 − pot ≤ {t} means a pot of at least {_change([], 30, 0) - t}.",
        ),
        Question(
            "A bot's view shows the card, the pot, every hand and every chip count. Name one "
            "thing no bot may see.",
            "the removed cards",
            "Also: the order of the face-down cards.",
        ),
        Question(
            "Your bot has no chips left. Which move must act(view) return?",
            "take",
            "Passing with no chips is against the rules; the league leaves such a bot out.",
        ),
    )
    return Quiz("05_your_own_bot", "Quiz: your own bot", q)


def _quiz_07() -> Quiz:
    n_players, n_games, wins = 4, 200, 60
    p = Fraction(wins, n_games)
    se = math.sqrt(p * (1 - p) / n_games)
    q = (
        Question(
            f"{n_players} equally strong bots play {n_games} games (ignore ties). How many "
            "games do you expect each to win?",
            Fraction(n_games, n_players),
            f"{n_games} × 1/{n_players}.",
        ),
        Question(
            f"A bot wins {wins} of {n_games} games. What is its win share?",
            p,
            f"{wins}/{n_games}.",
        ),
        Question(
            "What is the standard error of that win share, √(p(1 − p)/n), to 3 decimals?",
            f"{se:.3f}",
            f"√({p} × {1 - p} / {n_games}).",
        ),
        Question(
            "How many games would halve that standard error?",
            4 * n_games,
            "n sits under a square root: four times the games, half the error.",
        ),
        Question(
            "Twenty equally good bots play a tournament. Is the winner's true strength likely "
            "above or below its win share in the tournament?",
            "below",
            "The winner's curse: the top share is the luckiest of twenty.",
        ),
    )
    return Quiz("07_bot_lab", "Quiz: the bot lab", q)


#: The paper quiz of each class lesson (by notebook stem), built when the kit is written.
QUIZZES: dict[str, Callable[[], Quiz]] = {
    "01_play": _quiz_01,
    "02_chances_under_removed_cards": _quiz_02,
    "03_runs_exact_vs_simulated": _quiz_03,
    "04_chip_value": _quiz_04,
    "04b_take_or_pass": _quiz_04b,
    "05_your_own_bot": _quiz_05,
    "07_bot_lab": _quiz_07,
}


def quiz(stem: str) -> Quiz:
    """The paper quiz of lesson `stem`, its answers computed now."""
    if stem not in QUIZZES:
        raise ValueError(f"stem {stem!r}: no quiz; quizzes exist for {sorted(QUIZZES)}")
    return QUIZZES[stem]()


def quiz_markdown(q: Quiz, *, key: bool = False) -> str:
    """The students' quiz sheet, or with `key` the teacher's answer key, as Markdown."""
    head = f"# {q.title}{' — answer key' if key else ''}\n\n"
    head += f"Lesson `{q.stem}` · about {QUIZ_MINUTES} minutes · pen and paper, no computer.\n"
    if not key:
        head += "\nName: ______________________\n"
    lines = [head]
    for i, question in enumerate(q.questions, 1):
        lines.append(f"**{i}.** {question.text}\n")
        if key:
            lines.append(f"**Answer:** {question.answer_text}. {question.working}\n")
        else:
            lines.append("Answer: ______________________\n")
    return "\n".join(lines)

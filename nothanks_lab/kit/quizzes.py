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
from ..i18n import _, fmt_decimal
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
            return f"{a} ≈ {fmt_decimal(float(a), 4)}"
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
            _(
                "At the end of a round you hold the cards {cards} and {chips} chips. "
                "What is your score?"
            ).format(cards=_cards(hand), chips=chips),
            score(hand, chips),
            " + ".join(str(x[0]) for x in runs(hand))
            + _(" = {points} card points, minus {chips} chips.").format(
                points=card_points(hand), chips=chips
            ),
        ),
        Question(
            _("How many card points do the cards {cards} cost?").format(cards=_cards(h2)),
            card_points(h2),
            " + ".join(str(x[0]) for x in runs(h2)) + _(": 30–31 is a run and counts 30."),
        ),
        Question(
            _(
                "You hold {cards}. The card 26 is offered with 3 chips on it. By how many "
                "points does your score change if you take it? (Give a negative number if it "
                "goes down.)"
            ).format(cards=_cards(h3)),
            _change(h3, 26, 3),
            _("card points {before} → {after} (one run), then minus the 3 chips.").format(
                before=card_points(h3), after=card_points([*h3, 26])
            ),
        ),
        Question(
            _("How many cards are turned face up in a round of the standard game?"),
            r.n_in_play,
            _("{n_cards} cards, {n_removed} removed unseen.").format(
                n_cards=r.n_cards, n_removed=r.n_removed
            ),
        ),
        Question(
            _("How many chips does each player start with at a table of 6?"),
            r.starting_chips(6),
            _("3–5 players get 11, 6 players 9, 7 players 7."),
        ),
    )
    return Quiz("01_play", _("Quiz: the rules and scoring"), q)


def _quiz_02() -> Quiz:
    p = probability
    r = Rules()
    seen = list(range(3, 13))
    unseen = r.n_cards - len(seen)
    q = (
        Question(
            _(
                "At the start of a round, what is the chance that the card 29 is one of the 9 "
                "removed? Give a fraction."
            ),
            _exact(1 - p.p_all_in_play([29])),
            _(
                "{n_removed} of the {n_cards} cards are removed: {n_removed}/{n_cards} = {frac}."
            ).format(
                n_removed=r.n_removed, n_cards=r.n_cards, frac=Fraction(r.n_removed, r.n_cards)
            ),
        ),
        Question(
            _("At the start of a round, what is the chance that both 20 and 21 are in play?"),
            _exact(p.p_all_in_play([20, 21])),
            _("24/33 × 23/32 (the second card given the first), or C(31,9)/C(33,9)."),
        ),
        Question(
            _(
                "The cards 3 to 12 have been turned face up; 30 has not appeared. What is the "
                "chance that 30 is still to come (in play)?"
            ),
            _exact(p.p_all_in_play([30], seen=seen)),
            _(
                "{unseen} cards unseen, {n_removed} of them removed, so {coming} of {unseen} "
                "are still to come."
            ).format(unseen=unseen, n_removed=r.n_removed, coming=unseen - r.n_removed),
        ),
        Question(
            _(
                "At the start of a round, what is the chance that none of 10, 11, 12, 13 is "
                "removed?"
            ),
            _exact(p.p_all_in_play([10, 11, 12, 13])),
            _("24/33 × 23/32 × 22/31 × 21/30, or C(29,9)/C(33,9)."),
        ),
        Question(
            _(
                "At the start of a round, what is the chance that exactly two of 3, 4, 5 are "
                "removed?"
            ),
            _exact(float(p.removed_count_pmf([3, 4, 5])[2])),
            _("Hypergeometric: C(3,2) × C(30,7) / C(33,9)."),
        ),
    )
    return Quiz("02_chances_under_removed_cards", _("Quiz: chances under removed cards"), q)


# The tiny deck of lesson 03: five cards, two removed, three in play.
TINY = Rules(low_card=1, high_card=5, n_removed=2)


def _quiz_03() -> Quiz:
    hand = [3, 4, 5, 9, 10, 20]
    pmf = probability.run_count_pmf(TINY)
    q = (
        Question(
            _("How many runs do the cards {cards} form?").format(cards=_cards(hand)),
            len(runs(hand)),
            " | ".join(_cards(list(x)) for x in runs(hand)),
        ),
        Question(
            _(
                "A tiny deck holds the cards {low} to {high}; {n_removed} are removed at random. "
                "In how many ways can the removed cards be chosen?"
            ).format(low=TINY.low_card, high=TINY.high_card, n_removed=TINY.n_removed),
            math.comb(TINY.n_cards, TINY.n_removed),
            _("C({n_cards},{n_removed}): list them, 12, 13, …, 45.").format(
                n_cards=TINY.n_cards, n_removed=TINY.n_removed
            ),
        ),
        Question(
            _("In that tiny deck, what is the chance that the cards in play form exactly one run?"),
            _exact(float(pmf[1])),
            _("One run means 123, 234 or 345 in play: 3 of the 10 ways."),
        ),
        Question(
            _("And the chance that they form exactly two runs?"),
            _exact(float(pmf[2])),
            _("Count the lists with one gap among the 10 (e.g. 1 2 4)."),
        ),
        Question(
            _("What is the expected number of runs in that tiny deck?"),
            _exact(probability.expected_run_count(TINY)),
            _("Sum of r × P(r runs) over the table of the 10 ways."),
        ),
    )
    return Quiz("03_runs_exact_vs_simulated", _("Quiz: runs, exact and simulated"), q)


def _quiz_04() -> Quiz:
    q = (
        Question(
            _(
                "You hold 10 and 15. The card 22 is offered with 5 chips. By how many points "
                "does your score change if you take it?"
            ),
            _change([10, 15], 22, 5),
            _("22 extra card points, minus the 5 chips you collect."),
        ),
        Question(
            _(
                "You hold 23 and 25. The card 24 is offered with 2 chips. By how many points "
                "does your score change if you take it?"
            ),
            _change([23, 25], 24, 2),
            _("card points {before} → {after}, minus 2.").format(
                before=card_points([23, 25]), after=card_points([23, 24, 25])
            ),
        ),
        Question(
            _(
                "You hold only 12. How many chips must be on the card 20 before taking it costs "
                "you no points at all (the break-even pot)?"
            ),
            _change([12], 20, 0),
            _("20 is not next to 12: it adds 20 points, so 20 chips pay for it."),
        ),
        Question(
            _(
                "You hold 30. The card 31 comes with no chips. By how many points does your "
                "score change if you take it?"
            ),
            _change([30], 31, 0),
            _("31 joins the run 30–31, which still counts 30."),
        ),
        Question(
            _(
                "Passing puts one chip on the card. Is a chip worth exactly one point at the end "
                "of a round? Answer yes or no."
            ),
            _("yes"),
            _(
                "Each chip held at the end takes one point off; its worth during play is what "
                "the lesson estimates."
            ),
        ),
    )
    return Quiz("04_chip_value", _("Quiz: what is a chip worth?"), q)


def _quiz_04b() -> Quiz:
    q = (
        Question(
            _(
                "You hold 14. The card 15 comes with 1 chip. Does taking lower your score? "
                "By how many points does it change?"
            ),
            _change([14], 15, 1),
            _("15 joins 14 (no extra points) and you collect 1 chip."),
        ),
        Question(
            _(
                "You hold 8. The card 33 comes with 6 chips. By how many points does your score "
                "change if you take it?"
            ),
            _change([8], 33, 6),
            _("33 new points minus 6 chips."),
        ),
        Question(
            _(
                "You hold 19 and 21. The card 20 comes with no chips. By how many points does "
                "your score change if you take it?"
            ),
            _change([19, 21], 20, 0),
            _("card points {before} → {after}.").format(
                before=card_points([19, 21]), after=card_points([19, 20, 21])
            ),
        ),
        Question(
            _("You have no chips left. The card 35 is offered. What must you do: take or pass?"),
            _("take"),
            _("With no chips you cannot say no thanks."),
        ),
    )
    return Quiz("04b_take_or_pass", _("Quiz: take or pass?"), q)


def _quiz_05() -> Quiz:
    t = 10

    def takes(hand: list[int], card: int, pot: int) -> str:
        return _("take") if _change(hand, card, pot) <= t else _("pass")

    q = (
        Question(
            _(
                "MarginalCostBot({t}) takes a card when (extra card points − chips on it) ≤ {t}. "
                "It holds nothing; the card is 20 with 4 chips. Does it take or pass?"
            ).format(t=t),
            takes([], 20, 4),
            _("20 − 4 = {change}, more than {t}.").format(change=_change([], 20, 4), t=t),
        ),
        Question(
            _("The same bot holds 19; the card is 20 with no chips. Take or pass?"),
            takes([19], 20, 0),
            _("20 joins 19: extra points {change}.").format(change=_change([19], 20, 0)),
        ),
        Question(
            _(
                "The same bot holds nothing; the card is 30. How many chips must be on it "
                "before the bot takes it?"
            ),
            _change([], 30, 0) - t,
            _("30 − pot ≤ {t} means a pot of at least {pot}.").format(
                t=t, pot=_change([], 30, 0) - t
            ),
        ),
        Question(
            _(
                "A bot's view shows the card, the pot, every hand and every chip count. Name one "
                "thing no bot may see."
            ),
            _("the removed cards"),
            _("Also: the order of the face-down cards."),
        ),
        Question(
            _("Your bot has no chips left. Which move must act(view) return?"),
            _("take"),
            _("Passing with no chips is against the rules; the league leaves such a bot out."),
        ),
    )
    return Quiz("05_your_own_bot", _("Quiz: your own bot"), q)


def _quiz_07() -> Quiz:
    n_players, n_games, wins = 4, 200, 60
    p = Fraction(wins, n_games)
    se = math.sqrt(p * (1 - p) / n_games)
    q = (
        Question(
            _(
                "{n_players} equally strong bots play {n_games} games (ignore ties). How many "
                "games do you expect each to win?"
            ).format(n_players=n_players, n_games=n_games),
            Fraction(n_games, n_players),
            f"{n_games} × 1/{n_players}.",
        ),
        Question(
            _("A bot wins {wins} of {n_games} games. What is its win share?").format(
                wins=wins, n_games=n_games
            ),
            p,
            f"{wins}/{n_games}.",
        ),
        Question(
            _("What is the standard error of that win share, √(p(1 − p)/n), to 3 decimals?"),
            fmt_decimal(se, 3),
            f"√({p} × {1 - p} / {n_games}).",
        ),
        Question(
            _("How many games would halve that standard error?"),
            4 * n_games,
            _("n sits under a square root: four times the games, half the error."),
        ),
        Question(
            _(
                "Twenty equally good bots play a tournament. Is the winner's true strength "
                "likely above or below its win share in the tournament?"
            ),
            _("below"),
            _("The winner's curse: the top share is the luckiest of twenty."),
        ),
    )
    return Quiz("07_bot_lab", _("Quiz: the bot lab"), q)


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
    head = "# " + q.title + (_(" — answer key") if key else "") + "\n\n"
    head += _("Lesson `{stem}` · about {minutes} minutes · pen and paper, no computer.").format(
        stem=q.stem, minutes=QUIZ_MINUTES
    )
    head += "\n"
    if not key:
        head += "\n" + _("Name:") + " ______________________\n"
    lines = [head]
    for i, question in enumerate(q.questions, 1):
        lines.append(f"**{i}.** {question.text}\n")
        if key:
            lines.append(
                _("**Answer:** {answer}. {working}").format(
                    answer=question.answer_text, working=question.working
                )
                + "\n"
            )
        else:
            lines.append(_("Answer:") + " ______________________\n")
    return "\n".join(lines)

"""The teacher's kit: from the lesson notebooks, everything a teacher hands out or keeps.

:func:`export` writes four folders from the notebooks in ``notebooks/``: ``student/`` (each
lesson with outputs cleared, cells tagged ``solution`` or ``teacher`` removed and every exercise
left unanswered), ``teacher/`` (a guide per lesson in Markdown and HTML: goals, timings for a
45-minute period, the answers with their working, discussion prompts, common misconceptions),
``handouts/`` (each student notebook executed and exported as one self-contained HTML page,
plotly.js inline, images embedded, nothing fetched from a CDN; a PDF beside it) and
``nbgrader/`` (an nbgrader course's ``source/`` folder with solution and autograded test
cells). The per-lesson teaching notes are data in :data:`LESSON_NOTES`; the answers are
computed by :mod:`nothanks_lab.lessons` at export time, never typed in. ``nothanks-lab
lessons export DIR`` runs it from the command line.
"""

from __future__ import annotations

import copy
import html
import re
import shutil
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

__all__ = [
    "LESSON_NOTES",
    "ExerciseCell",
    "HandoutError",
    "KitReport",
    "LessonNotes",
    "Solution",
    "exercise_cells",
    "export",
    "find_notebooks",
    "guide_html",
    "guide_markdown",
    "handout_html",
    "leaks",
    "nbgrader_notebook",
    "online_references",
    "pdf_unavailable",
    "print_pdfs",
    "solution",
    "student_notebook",
]

#: Cells with one of these tags are for the teacher only: they never reach a student.
TEACHER_TAGS = frozenset({"solution", "teacher"})

#: Length of a class period the guides' timings fill, in minutes.
PERIOD_MINUTES = 45

# An exercise cell: `var = None` on a line of its own and `check_answer("key", var)`.
_CHECK = re.compile(r"check_answer\(\s*(['\"])(?P<key>\w+)\1\s*,\s*(?P<var>[A-Za-z_]\w*)\s*\)")
# What a student notebook must never call: anything that computes or reveals a solution.
_LEAK = re.compile(
    r"\b_solution\b|\b_solve\b|\.solution\b|\blessons\._[A-Za-z]\w*"
    r"|from\s+nothanks_lab\.lessons\s+import\s+[^\n]*\b_[A-Za-z]"
)
# The hidden first cell of a handout: plotly figures carry their HTML (plotly.js inline, once).
_HANDOUT_SETUP = 'import plotly.io as pio\n\npio.renderers.default = "notebook"'
_HIDDEN_TAG = "kit-hidden-input"
# The lab template without the three scripts it loads from a CDN (require.js, MathJax, Mermaid):
# the lessons use none of them, and a handout must open offline.
_OFFLINE_TEMPLATE = """{%- extends 'index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block extra_css -%}
<style>@media print { .jp-OutputArea-output, .plotly-graph-div { break-inside: avoid; } }</style>
{%- endblock extra_css -%}
"""
#: Where the PDF handouts look for a browser (Debian's package; CI installs it).
CHROMIUM = "/usr/bin/chromium"
_BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# plotly's "notebook" renderer adds MathJax from a CDN to every figure; the lessons' figures
# hold no LaTeX, so a handout drops it.
_CDN_MATHJAX = re.compile(
    r"<script[^>]*\bsrc=[\"'](?:https?:)?//[^\"']*mathjax[^\"']*[\"'][^>]*>\s*</script>"
)
_WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
_WIDGET_NOTE = "[An interactive widget: open the notebook in JupyterLab or Voilà to use it.]"


class HandoutError(RuntimeError):
    """A lesson could not be executed for its handout (a cell failed or timed out)."""


@dataclass(frozen=True)
class LessonNotes:
    """What a teacher needs to know about one lesson beyond the notebook itself."""

    title: str
    """The lesson's name in the guide."""
    goals: tuple[str, ...]
    """What students can do after the lesson."""
    timings: tuple[tuple[int, str], ...]
    """(minutes, activity) for one class period, in order; the minutes add up to the period."""
    prompts: tuple[str, ...]
    """Questions to discuss with the class."""
    misconceptions: tuple[str, ...]
    """Mistakes students commonly make, each with what to say."""


#: Teaching notes per lesson (notebook stem). A lesson missing here gets a generic guide.
LESSON_NOTES: dict[str, LessonNotes] = {
    "05_your_own_bot": LessonNotes(
        title="Write your own bot, and enter it in the class league",
        goals=(
            "read a PlayerView: what a bot may know, and what no player sees",
            "write act(view) that always answers a legal move (take when out of chips)",
            "save a bot to a league folder and read the messages when a bot is left out",
            "read a leaderboard with 95% intervals: luck against skill",
        ),
        timings=(
            (5, "section 1: what a bot may see"),
            (12, "section 2: students write and change act(view)"),
            (8, "section 3: play a round against your bot; watch it play a round"),
            (8, "section 4: the league folder; the messages of bots left out"),
            (7, "section 5: run the class league (about 20-30 s for ten students)"),
            (5, "section 6: luck or skill: intervals and paired differences"),
        ),
        prompts=(
            "Your bot won the round you played against it. Is it a good bot?",
            "Two bars' intervals overlap. What would tell the two bots apart?",
            "Why does every student bot meet the same deals and the same opponents?",
        ),
        misconceptions=(
            "'My bot can see the removed cards': nobody sees them; a view holds public facts only.",
            "'Return \"take\" or True': act must return Action.TAKE or Action.PASS.",
            "'Passing is always allowed': with no chips left a player must take.",
        ),
    ),
    "01_play": LessonNotes(
        title="Play No Thanks! against bots",
        goals=(
            "state the rules: take the card and its chips, or pay a chip to pass it on",
            "score a hand by hand: runs count only their lowest card, chips count minus one",
            "read the hint panel: the chance a wanted card is still coming, and the "
            "whole-round estimate of Take versus No Thanks!",
        ),
        timings=(
            (5, "the rules in brief, read aloud; one example of scoring a run on the board"),
            (15, "everyone plays a round at the play table (easy bots), then a second round"),
            (10, "scoring check: pairs score each other's final hands by hand"),
            (10, "the hint panel: its two parts, with the notebook's position"),
            (5, "wrap-up: when did you take a card with no chips on it, and why?"),
        ),
        prompts=(
            "Why would anyone take a card with chips on it that adds points to their score?",
            "Which cards did you hope for, and did they come? What could have stopped them?",
            "A bot never forgets who has how many chips. Does that help it, and how?",
        ),
        misconceptions=(
            "'A run scores the sum of its cards': it scores only its lowest card (27-30 "
            "scores 27).",
            "'Chips only matter for passing': every chip left at the end is one point off.",
            "'The taker's turn ends': the taker turns the next card and decides again.",
        ),
    ),
    "02_chances_under_removed_cards": LessonNotes(
        title="Chances under removed cards: is the card I need still coming?",
        goals=(
            "explain why the removed cards make every plan uncertain",
            "derive the chance that a card, or a group of cards, is in play by counting "
            "equally likely removed sets (the hypergeometric model)",
            "update that chance as cards are seen during a round",
            "compare the chance of filling a gap of one card with a gap of two cards",
        ),
        timings=(
            (4, "section 1: why removed cards matter (the 27, 29 hand)"),
            (12, "section 2: counting removed sets; the tiny deck listed in full; groups"),
            (8, "section 3: the chance in a real round, as seat 0 sees it"),
            (6, "section 4: gaps of one and two cards; the chance falls as cards are seen"),
            (12, "section 5: exercises in pairs"),
            (3, "wrap-up with the explorer: mark cards as seen and watch the chances fall"),
        ),
        prompts=(
            "Is the chance that both 27 and 29 are in play the square of the chance for one? "
            "Why not?",
            "Twenty cards have been seen and 28 is not among them: is 28 now more or less "
            "likely to come than at the start? Does it matter which twenty were seen?",
            "Why is a two-card gap so much harder to fill than a one-card gap?",
        ),
        misconceptions=(
            "'Cards are independent': removed slots are shared, so one card in play makes "
            "another slightly less likely.",
            "'Which cards were seen matters': only how many were seen, as long as the wanted "
            "card is not among them.",
            "Writing a chance as a percentage (72.7) where a probability (0.727) is asked.",
        ),
    ),
    "03_runs_exact_vs_simulated": LessonNotes(
        title="Runs, and exact versus simulated",
        goals=(
            "count the runs the in-play cards form, on a tiny deck by listing every removed "
            "set and on the standard deck by formula",
            "read a simulation's estimate with its 95% interval and its standard error",
            "see a simulation converge to the exact value, its interval shrinking as one "
            "over the square root of the number of rounds",
            "tell a normal miss of a 95% interval from a bug",
        ),
        timings=(
            (10, "section 1: runs on a tiny deck, listed in full, then the formula"),
            (7, "section 2: runs in a standard round, exact and simulated"),
            (8, "section 3: one chance simulated: estimate, interval, standard errors"),
            (8, "section 4: a simulation converging; 100 times more rounds"),
            (10, "section 5: exercises in pairs"),
            (2, "wrap-up: when would you trust a simulation without an exact answer?"),
        ),
        prompts=(
            "A simulation's 95% interval missed the exact value. Is the code wrong?",
            "How many more rounds does it take to make an interval ten times narrower?",
            "Why is listing every removed set possible for cards 1 to 8 but not for 3 to 35?",
        ),
        misconceptions=(
            "'A 95% interval always covers the truth': it misses about one time in twenty.",
            "'Twice the rounds, half the width': the width shrinks with the square root.",
            "'A run is any set of cards in a row in my hand': runs here are the maximal runs "
            "of the in-play cards, before anyone takes them.",
        ),
    ),
    "04_chip_value": LessonNotes(
        title="What is a chip worth? Take or No Thanks!",
        goals=(
            "compute what a move costs counting this move only, and a card's break-even pot",
            "explain how runs in the hand change that price",
            "build a paired simulation from a handful of deals, and measure what extra chips "
            "are worth over a whole round",
            "build rollouts from one decision, and compare them with the bookkeeping",
        ),
        timings=(
            (4, "section 1: one move's bookkeeping"),
            (6, "section 2: the break-even pot and the heatmap"),
            (10, "section 3: paired simulation: a handful of deals, then many; discussion"),
            (7, "section 4: rollouts: one decision played out a few times, then many"),
            (6, "section 5: rollouts over a grid; milking 28 while holding 27 and 29"),
            (2, "section 6: the chip-value explorer"),
            (10, "section 7: exercises in pairs"),
        ),
        prompts=(
            "The simulation says extra chips save more than one point each. Where does the "
            "rest come from?",
            "In the handful of deals, the extra chips changed nothing in some deals and a lot "
            "in others. Why does pairing still help?",
            "Holding 27 and 29, why might you say No Thanks! to 28? When does that backfire?",
        ),
        misconceptions=(
            "'The break-even pot is where Take becomes better': at the break-even pot both "
            "moves cost the same; Take is strictly better one chip above it.",
            "'A card's cost is its face value': a card next to a run costs less, even below zero.",
            "'A paired simulation needs fewer games because it is luckier': it compares the "
            "same deals, so the luck of the cards cancels in the difference.",
            "'A rollout knows the face-down cards': each rollout guesses them anew from the "
            "unseen cards.",
        ),
    ),
    "07_bot_lab": LessonNotes(
        title="Bot lab: a fair tournament, luck versus skill, the winner's curse",
        goals=(
            "say why one round, or a few, cannot tell a better bot from a luckier one",
            "run a fair tournament (paired deals, every order of the seats) and read win "
            "shares and a paired difference with 95% intervals",
            "explain the winner's curse: the best of many noisy results is flattered by luck",
        ),
        timings=(
            (2, "goals"),
            (5, "section 1: one round move by move: who won, and was it skill?"),
            (6, "section 2: luck versus skill: the same bots over more and more deals"),
            (7, "section 3: a fair tournament: seat order, win shares, a paired difference"),
            (5, "section 4: the winner's curse: pick the best, then look again"),
            (
                20,
                "rest of the period: students' own tournaments in the bot lab widget, or "
                "start 05_your_own_bot",
            ),
        ),
        prompts=(
            "Your bot won the round. Is it the better bot? How many rounds would convince you?",
            "Two bots' intervals overlap, yet their paired difference lies above zero. How?",
            "The winner of a small tournament did worse in the big one. Did it get worse?",
        ),
        misconceptions=(
            "'One round shows which bot is better': luck dominates a single round.",
            "'A fair share is 1/2': at four seats a bot as good as the table wins 1/4.",
            "'The winner's result is its true strength': it was picked because it did well "
            "on these deals, so it is flattered; check it on fresh deals.",
        ),
    ),
    "08_bot_lab_for_analysts": LessonNotes(
        title="Bot lab for analysts: parameters, sweeps, tuning and Dask",
        goals=(
            "read a bot's declared parameters and explain one of its decisions",
            "sweep two parameters and read the heatmap",
            "tune a parameter with scipy and check the pick on fresh deals",
            "run the same sweep on more processes or a Dask cluster, with identical results",
            "write a bot on the compiled path and check it plays the engine's moves",
        ),
        timings=(
            (7, "section 1: the bots, their parameters, explain()"),
            (10, "section 2: a parameter sweep and its heatmap"),
            (8, "section 3: tuning, and why the pick is checked on fresh deals"),
            (5, "section 4: the same sweep on more processes (demonstrate, do not run all)"),
            (10, "section 5: a compiled bot of your own"),
            (5, "wrap-up: what would you tune next, and on how many deals?"),
        ),
        prompts=(
            "Why is the best point of a sweep flattered by luck, and how does tuning guard "
            "against it?",
            "What would you need to change to make a bot that blocks other players' runs?",
            "Why do more workers give exactly the same numbers?",
        ),
        misconceptions=(
            "'More workers give different results': every chunk depends only on the seed.",
            "'The tuned value is the truth': it is an estimate from noisy deals; check it on "
            "fresh ones.",
            "'A compiled bot may read the view': its decision function sees numbers and "
            "arrays only.",
        ),
    ),
    "06_perfect_play": LessonNotes(
        title="Perfect play in a tiny deck",
        goals=(
            "say what a public position is, and why the next card is an even draw",
            "value a position by backward induction, by hand on the last two cards",
            "use the exact solver on a small variant and read a position's value",
            "describe what perfect play does that simple bots do not (milking, pricing)",
            "measure a bot's distance from perfect play with a best response",
        ),
        timings=(
            (6, "section 1: the tiny variant and public positions"),
            (10, "section 2: backward induction by hand on the last two cards"),
            (7, "section 3: solving the whole tiny game; the first player's disadvantage"),
            (7, "section 4: what perfect play does (milking, how it prices the pot)"),
            (5, "section 5: how far each bot is from perfect play"),
            (10, "section 6: exercises in pairs"),
        ),
        prompts=(
            "Why does moving first lose on this deck? Would it on the standard deck?",
            "Perfect play passes a card next to its own run. When is that right, and what "
            "does it risk?",
            "A best response beats a bot by more than perfect play does. Is the best "
            "response a better strategy?",
        ),
        misconceptions=(
            "'Perfect play means always winning': it maximizes the chance of winning against "
            "a perfect opponent, and the first player here still wins less than half.",
            "'The solver knows the removed cards': it values public positions, averaging over "
            "every unseen card.",
            "'Exploitability is a win rate against perfect play': it is how much more a best "
            "response wins against the bot than against perfect play.",
        ),
    ),
}

#: The formula behind each exercise's answer, for the guides' working (hint plus formula).
FORMULAS: dict[str, str] = {
    "score_hand_7_cards": "the runs 5-7, 20, 22-23 and 30 score their lowest cards, minus 4 "
    "chips: 5 + 20 + 22 + 30 - 4",
    "points_change_26_holding_25_27": "the run 25-27 scores 25, and 25 and 27 apart score "
    "52: 25 - (25 + 27)",
    "p28_start": "comb(32, 9) / comb(33, 9) = 24/33",
    "p27_28_29_start": "comb(30, 9) / comb(33, 9)",
    "p28_after_20_seen": "13 unseen cards, 4 of them in play: comb(12, 9) / comb(13, 9) = 4/13",
    "p_gap_21_22_holding_20_23": "31 unseen cards, 9 removed among them: comb(29, 9) / comb(31, 9)",
    "one_of_top3_removed": "3 * comb(30, 8) / comb(33, 9)",
    "tiny_single_run": "one run of 5 starts at 1, 2, 3 or 4: 4 / comb(8, 3) = 4/56",
    "break_even_20": "take costs 20 - pot, pass costs 1: 20 - pot = 1, pot = 20 - 1",
    "break_even_26_holding_27": "taking 26 adds 26 - 27 = -1 points: -1 - pot = 1, pot = -1 - 1",
    "take_minus_pass_28_holding_27_29": "27, 29 score 56 and 27, 28, 29 score 27, so taking "
    "adds -29 points and gains the pot, while passing costs a chip: -29 - 2 - 1",
    "paired_mean_change": "the deals' differences, with minus without: (-2 + 0 - 11 + 2 - 9) / 5",
    "rollout_take_minus_pass": "the guesses' differences, Take minus No Thanks!: "
    "(2 - 6 + 8 - 6) / 4",
    "tiny_two_runs": "comb(4, 1) * comb(4, 2) / comb(8, 5) = 24/56",
    "pp_last_two_cards": "exact.solve(rules).value_of(view) for the position (by hand: "
    "backward induction over the last card, as in section 2)",
    "pp_first_player_two_chips": "exact.solve(nt.Rules(low_card=3, high_card=8, n_removed=2, "
    "chips=((2, 2),))).value",
    "pp_best_response_random": "exact.best_response(rules, [RandomBot(p_take=0.25)], seat=0).value",
    "pp_first_card_8": "follow sol.action(view) from pot 0, exact.after_pass while it says "
    "No Thanks!; the pot when it says Take",
}


@dataclass(frozen=True)
class ExerciseCell:
    """An exercise in a notebook: the code cell that checks a student's answer."""

    index: int
    """Position of the cell in the notebook."""
    key: str
    """The exercise's key (see :func:`nothanks_lab.lessons.exercise`)."""
    variable: str
    """The variable the student sets (``answer = None``)."""


@dataclass(frozen=True)
class Solution:
    """An exercise's exact answer, for the teacher: value, fraction if rational, working."""

    key: str
    """The exercise's key."""
    question: str
    """The question as the student reads it."""
    value: float
    """The exact answer, computed by the package now."""
    fraction: Fraction | None
    """The answer as a fraction when it is rational (small denominator), else None."""
    hint: str
    """The hint students get after a wrong answer."""
    formula: str | None
    """How the answer is computed (None when :data:`FORMULAS` has no entry)."""

    @property
    def text(self) -> str:
        """The answer as a teacher reads it: ``8/11 ≈ 0.727273``, ``19`` or ``0.884587``."""
        if self.fraction is None:
            return f"{self.value:.6f}"
        if self.fraction.denominator == 1:
            return str(self.fraction.numerator)
        return f"{self.fraction} ≈ {self.value:.6f}"

    @property
    def literal(self) -> str:
        """The answer as Python source: ``Fraction(8, 11)``, ``19`` or a float's repr."""
        if self.fraction is None:
            return repr(self.value)
        if self.fraction.denominator == 1:
            return str(self.fraction.numerator)
        return f"Fraction({self.fraction.numerator}, {self.fraction.denominator})"


@dataclass
class KitReport:
    """What :func:`export` wrote, and what it could not do."""

    root: Path
    """The kit's folder."""
    files: list[Path] = field(default_factory=list)
    """Every file written."""
    warnings: list[str] = field(default_factory=list)
    """Lessons without notes, exercises without a formula, handouts skipped."""

    def __str__(self) -> str:
        lines = [f"wrote {len(self.files)} files to {self.root}:"]
        for folder in ("student", "teacher", "handouts", "nbgrader"):
            mine = [p for p in self.files if p.relative_to(self.root).parts[0] == folder]
            if mine:
                lines.append(f"  {folder}/: {len(mine)} files")
        lines += [f"warning: {w}" for w in self.warnings]
        return "\n".join(lines)


# ------------------------------------------------------------------ finding the lessons
def find_notebooks(notebooks: str | Path | None = None) -> Path:
    """The folder holding the lesson notebooks: `notebooks`, or ``notebooks/`` of a checkout.

    Raises ValueError when the folder does not exist or holds no ``.ipynb`` file.
    """
    if notebooks is None:
        import nothanks_lab

        folder = Path(nothanks_lab.__file__).resolve().parents[1] / "notebooks"
        where = (
            f"no lesson notebooks next to the package ({folder}); the kit needs a source "
            "checkout (pip install -e .) or --notebooks DIR"
        )
    else:
        folder = Path(notebooks)
        where = f"notebooks {str(notebooks)!r}: no such folder"
    if not folder.is_dir():
        raise ValueError(where)
    if not any(folder.glob("*.ipynb")):
        raise ValueError(f"notebooks {str(folder)!r}: the folder holds no .ipynb file")
    return folder


def _lesson_paths(folder: Path, lessons: Sequence[str] | None) -> list[Path]:
    paths = sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))
    if lessons is None:
        return paths
    stems = {p.stem: p for p in paths}
    unknown = [s for s in lessons if s.removesuffix(".ipynb") not in stems]
    if unknown:
        raise ValueError(f"lessons {unknown}: not in {folder}; lessons there: {sorted(stems)}")
    return [stems[s.removesuffix(".ipynb")] for s in lessons]


def _read(path: Path) -> Any:
    import nbformat

    return nbformat.read(path, as_version=4)


def _source(cell: Any) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


# ------------------------------------------------------------------ exercises and answers
def exercise_cells(nb: Any) -> list[ExerciseCell]:
    """The exercise cells of notebook `nb`: each sets ``var = None`` and checks it by key.

    A worked example (``check_answer("key", value_computed_above)``) is not an exercise cell.
    """
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        src = _source(cell)
        for m in _CHECK.finditer(src):
            var = m["var"]
            if re.search(rf"^\s*{re.escape(var)}\s*=", src, re.MULTILINE):
                found.append(ExerciseCell(i, m["key"], var))
                break
    return found


def solution(key: str) -> Solution:
    """The exact answer of exercise `key` with its working, computed by the package now.

    >>> s = solution("p28_start")
    >>> s.fraction, s.text
    (Fraction(8, 11), '8/11 ≈ 0.727273')
    """
    from . import lessons

    ex = lessons.exercise(key)
    value = lessons._solution(key)  # the teacher's side of the package: allowed here
    frac = Fraction(value).limit_denominator(10**6)
    return Solution(
        key=key,
        question=ex.question,
        value=value,
        fraction=frac if float(frac) == value else None,
        hint=ex.hint,
        formula=FORMULAS.get(key),
    )


# ------------------------------------------------------------------ student notebooks
def student_notebook(nb: Any) -> Any:
    """A copy of lesson `nb` for students: teacher cells removed, outputs cleared, unanswered.

    Cells tagged ``solution`` or ``teacher`` are dropped, every output, execution count and
    widget state is cleared, and each exercise's answer line is reset to ``var = None``.
    Raises ValueError if a remaining cell could reveal a solution (see :func:`leaks`).
    """
    out = copy.deepcopy(nb)
    out.cells = [
        c for c in out.cells if not TEACHER_TAGS & set(c.get("metadata", {}).get("tags", []))
    ]
    for cell in out.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.metadata.pop("execution", None)
    out.metadata.pop("widgets", None)
    for ex in exercise_cells(out):
        cell = out.cells[ex.index]
        cell.source = re.sub(
            rf"^(\s*){re.escape(ex.variable)}\s*=.*$",
            rf"\g<1>{ex.variable} = None  # your answer",
            _source(cell),
            count=1,
            flags=re.MULTILINE,
        )
    found = leaks(out)
    if found:
        raise ValueError(f"a student notebook would reveal a solution: {'; '.join(found)}")
    return out


def leaks(nb: Any) -> list[str]:
    """Cells of `nb` that call something computing or revealing an exercise's solution."""
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            for m in _LEAK.finditer(_source(cell)):
                found.append(f"cell {i} ({cell.get('id', '?')}) uses {m.group(0)!r}")
    return found


# ------------------------------------------------------------------ teacher guides
def _generic_notes(stem: str, nb: Any) -> LessonNotes:
    title = next(
        (
            line.lstrip("# ").strip()
            for c in nb.cells
            if c.cell_type == "markdown"
            for line in _source(c).splitlines()
            if line.startswith("# ")
        ),
        stem,
    )
    sections = [
        line.lstrip("# ").strip()
        for c in nb.cells
        if c.cell_type == "markdown"
        for line in _source(c).splitlines()
        if line.startswith("## ")
    ]
    n = max(len(sections), 1)
    each = PERIOD_MINUTES // n
    timings = tuple(
        (each + (1 if i < PERIOD_MINUTES - each * n else 0), s or "the lesson")
        for i, s in enumerate(sections or ["the lesson"])
    )
    return LessonNotes(
        title=title,
        goals=("see the learning goals at the top of the notebook",),
        timings=timings,
        prompts=("What surprised you in this lesson, and why?",),
        misconceptions=("(no notes yet for this lesson)",),
    )


def guide_markdown(stem: str, nb: Any, notes: LessonNotes | None = None) -> str:
    """The teacher's guide of lesson `stem` (notebook `nb`) as Markdown.

    `notes` defaults to :data:`LESSON_NOTES`; the answers are computed by the package now.
    """
    if notes is None:
        notes = LESSON_NOTES.get(stem) or _generic_notes(stem, nb)
    lines = [f"# Teacher's guide: {notes.title}", "", f"Notebook: `{stem}.ipynb`", ""]
    lines += ["## Goals", "", "After this lesson students can:", ""]
    lines += [f"{i}. {g}" for i, g in enumerate(notes.goals, 1)]
    total = sum(m for m, _ in notes.timings)
    lines += ["", f"## Timings ({total} minutes)", "", "| minutes | activity |", "|---|---|"]
    lines += [f"| {m} | {a} |" for m, a in notes.timings]
    lines += ["", "## Answers with working", ""]
    cells = exercise_cells(nb)
    if not cells:
        lines.append("This lesson has no self-check exercises.")
    from .lessons import EXERCISES

    # A key checked outside an exercise cell is a worked example: the lesson shows its answer.
    asked = {ex.key for ex in cells}
    worked = [
        m["key"]
        for c in nb.cells
        if c.cell_type == "code"
        for m in _CHECK.finditer(_source(c))
        if m["key"] not in asked and m["key"] in EXERCISES
    ]
    items = [(f"Exercise {n}", ex.key) for n, ex in enumerate(cells, 1)]
    items += [("Worked example in the lesson", key) for key in dict.fromkeys(worked)]
    for label, key in items:
        s = solution(key)
        lines += [
            f"### {label}: `{key}`",
            "",
            f"**Question.** {s.question}",
            "",
            f"**Answer.** {s.text}",
            "",
            f"**Working.** {s.hint}",
        ]
        if s.formula:
            lines += ["", f"Formula: `{s.formula}`"]
        lines.append("")
    lines += ["## Discussion prompts", ""]
    lines += [f"- {p}" for p in notes.prompts]
    lines += ["", "## Common misconceptions", ""]
    lines += [f"- {m}" for m in notes.misconceptions]
    return "\n".join(lines) + "\n"


_GUIDE_CSS = """
body { font-family: system-ui, sans-serif; max-width: 46em; margin: 2em auto; padding: 0 1em;
       line-height: 1.45; color: #222; }
table { border-collapse: collapse; } td, th { border: 1px solid #999; padding: .25em .6em; }
code { background: #f2f2f2; padding: 0 .2em; }
h3 { margin-top: 1.4em; } @media print { body { margin: 0; max-width: none; } }
"""


def guide_html(markdown: str, title: str = "Teacher's guide") -> str:
    """A guide's Markdown as one self-contained HTML page (no scripts, nothing fetched)."""
    import mistune

    body = mistune.create_markdown(plugins=["table"])(markdown)
    return (
        f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_GUIDE_CSS}</style></head>"
        f"<body>\n{body}</body></html>\n"
    )


# ------------------------------------------------------------------ nbgrader
_NBGRADER_CONFIG = '''"""nbgrader settings of the No Thanks! lessons (from the teacher's kit)."""

c = get_config()  # noqa: F821
c.CourseDirectory.root = "."
# A released exercise cell keeps its `answer = None` line and runs (it says "not answered
# yet"), instead of nbgrader's default stub, which raises NotImplementedError.
c.ClearSolutions.code_stub = {"python": "# YOUR ANSWER: replace None above by your answer"}
'''


def _nbgrader_meta(grade_id: str, *, solution: bool, grade: bool) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": not solution,
        "schema_version": 3,
        "solution": solution,
        "task": False,
    }
    if grade:
        meta["points"] = 1
    return meta


def nbgrader_notebook(nb: Any) -> Any:
    """Lesson `nb` as an nbgrader source notebook: a solution and a test cell per exercise.

    Each exercise cell keeps the student's ``var = None`` line, followed by the exact answer
    (computed now, written as a literal) between ``### BEGIN SOLUTION`` and ``### END
    SOLUTION``; an autograded, locked test cell after it asserts that
    ``check_answer(key, var).status == "right"`` (1 point).
    """
    import nbformat

    out = student_notebook(nb)
    cells = {ex.index: ex for ex in exercise_cells(out)}
    new_cells = []
    for i, cell in enumerate(out.cells):
        ex = cells.get(i)
        if ex is None:
            new_cells.append(cell)
            continue
        s = solution(ex.key)
        src = _source(cell)
        m = re.search(rf"^(\s*){re.escape(ex.variable)} = None.*$", src, re.MULTILINE)
        assert m is not None  # student_notebook wrote that line
        indent = m.group(1)
        block = [f"{indent}### BEGIN SOLUTION"]
        if "Fraction(" in s.literal:
            block.append(f"{indent}from fractions import Fraction")
        block += [f"{indent}{ex.variable} = {s.literal}", f"{indent}### END SOLUTION"]
        cell.source = src[: m.end()] + "\n" + "\n".join(block) + src[m.end() :]
        cell.metadata["nbgrader"] = _nbgrader_meta(f"answer-{ex.key}", solution=True, grade=False)
        test = nbformat.v4.new_code_cell(
            "from nothanks_lab import lessons\n\n"
            f"feedback = lessons.check_answer({ex.key!r}, {ex.variable})\n"
            'assert feedback.status == "right", str(feedback)'
        )
        test.id = f"test-{ex.key}"[:64]
        test.metadata["nbgrader"] = _nbgrader_meta(f"test-{ex.key}", solution=False, grade=True)
        new_cells += [cell, test]
    out.cells = new_cells
    return out


# ------------------------------------------------------------------ handouts
def _executed(nb: Any, cwd: Path, timeout: int) -> Any:
    import nbformat
    from nbclient import NotebookClient

    run = copy.deepcopy(nb)
    setup = nbformat.v4.new_code_cell(_HANDOUT_SETUP)
    setup.id = "kit-handout-setup"
    setup.metadata["tags"] = [_HIDDEN_TAG]
    setup.metadata["jupyter"] = {"source_hidden": True}
    run.cells.insert(0, setup)
    client = NotebookClient(
        run,
        timeout=timeout,
        kernel_name="python3",
        store_widget_state=False,  # widget state would pull the widget manager from a CDN
        resources={"metadata": {"path": str(cwd)}},
    )
    try:
        client.execute()
        for cell in run.cells:  # number the cells as the lesson does, without the hidden one
            if cell.get("execution_count"):
                cell.execution_count -= 1
        setup.execution_count = None
    except Exception as e:  # a failing cell, a timeout, a dead kernel: say which lesson
        first = str(e).strip().splitlines()
        raise HandoutError(
            f"the lesson failed while running for its handout ({type(e).__name__}): "
            f"{first[-1] if first else e}"
        ) from e
    return run


def handout_html(
    nb: Any, *, cwd: str | Path = ".", execute: bool = True, timeout: int = 600
) -> str:
    """Lesson `nb`, executed in `cwd` (unless `execute` is False), as one offline HTML page.

    Plotly figures carry plotly.js inline (once per page), images are embedded, and the page
    loads no script or stylesheet from the internet. A widget's output becomes a short note.
    """
    import jinja2
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    run = _executed(nb, Path(cwd), timeout) if execute else copy.deepcopy(nb)
    run.metadata.pop("widgets", None)
    for cell in run.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/html" in data:
                data["text/html"] = _CDN_MATHJAX.sub("", _source({"source": data["text/html"]}))
            if _WIDGET_MIME in data:
                data.pop(_WIDGET_MIME)
                data.pop("text/html", None)
                data["text/plain"] = _WIDGET_NOTE
    config = Config()
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_input_tags = {_HIDDEN_TAG}
    exporter = HTMLExporter(
        config=config,
        template_name="lab",
        embed_images=True,
        extra_loaders=[jinja2.DictLoader({"kit_offline.html.j2": _OFFLINE_TEMPLATE})],
        template_file="kit_offline.html.j2",
    )
    body, _ = exporter.from_notebook_node(run)
    return body


def online_references(page: str) -> list[str]:
    """Scripts, stylesheets, images or modules in `page` that would be fetched from a URL."""
    pattern = re.compile(
        r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=\s*[\"']((?:https?:)?//[^\"']+)"
        r"|\bimport\s*[\"']((?:https?:)?//[^\"']+)"
        r"|@import\s+(?:url\()?[\"']?((?:https?:)?//[^\"')\s]+)",
        re.IGNORECASE,
    )
    return [next(g for g in m.groups() if g) for m in pattern.finditer(page)]


def pdf_unavailable() -> str | None:
    """Why PDF handouts cannot be printed here (None when they can: Playwright + Chromium)."""
    import importlib.util

    if importlib.util.find_spec("playwright") is None:
        return "Python playwright is not installed (pip install playwright)"
    if not Path(CHROMIUM).is_file():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    return None


def print_pdfs(pages: Sequence[Path], *, wait_ms: int = 1000) -> list[Path]:
    """Print each HTML page in `pages` to a PDF beside it with Chromium, offline; the PDFs.

    Every request that is not a local file fails, so a PDF shows what paper would.
    """
    from playwright.sync_api import sync_playwright

    written = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=_BROWSER_ARGS)
        try:
            page = browser.new_page()
            page.route(
                "**/*",
                lambda r: (
                    r.continue_() if r.request.url.startswith(("file:", "data:")) else r.abort()
                ),
            )
            for html_path in pages:
                page.goto(html_path.resolve().as_uri(), wait_until="load")
                page.wait_for_timeout(wait_ms)  # plotly draws after load
                page.emulate_media(media="print")
                pdf = html_path.with_suffix(".pdf")
                page.pdf(path=str(pdf), format="A4", print_background=True)
                page.emulate_media(media="screen")
                written.append(pdf)
        finally:
            browser.close()
    return written


# ------------------------------------------------------------------ the whole kit
def _write(path: Path, text: str, report: KitReport) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    report.files.append(path)


def _write_nb(path: Path, nb: Any, report: KitReport) -> None:
    import nbformat

    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.validate(nb)
    nbformat.write(nb, path)
    report.files.append(path)


def export(
    root: str | Path,
    *,
    notebooks: str | Path | None = None,
    lessons: Sequence[str] | None = None,
    handouts: bool | Sequence[str] = True,
    execute: bool = True,
    pdf: bool = True,
    timeout: int = 600,
    progress: Callable[[str], None] | None = None,
) -> KitReport:
    """Write the teacher's kit for the lessons into `root`; return what was written.

    `root` gets ``student/``, ``teacher/``, ``handouts/`` and ``nbgrader/``. `notebooks` is
    the lessons' folder (default: ``notebooks/`` of the source checkout), `lessons` a subset
    of their stems. `handouts` is False to skip the handouts, or the stems to make them for;
    `execute` False exports them without running the lessons (no outputs, no figures); `pdf`
    also prints each handout to PDF when Playwright and Chromium are here (else a warning).
    """
    folder = find_notebooks(notebooks)
    paths = _lesson_paths(folder, lessons)
    if isinstance(handouts, bool):
        handout_stems = {p.stem for p in paths} if handouts else set()
    else:
        handout_stems = {s.removesuffix(".ipynb") for s in handouts}
        unknown = sorted(handout_stems - {p.stem for p in paths})
        if unknown:
            raise ValueError(f"handouts {unknown}: not among the lessons exported")
    if not isinstance(timeout, int) or timeout <= 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    root = Path(root)
    if root.exists() and not root.is_dir():
        raise ValueError(f"{str(root)!r} exists and is not a folder")
    report = KitReport(root)
    say = progress or (lambda _msg: None)
    source = root / "nbgrader" / "source"
    for path in paths:
        stem = path.stem
        nb = _read(path)
        say(f"{stem}: student notebook, teacher's guide, nbgrader source")
        student = student_notebook(nb)
        _write_nb(root / "student" / path.name, student, report)
        if stem not in LESSON_NOTES:
            report.warnings.append(f"{stem}: no teaching notes in kit.LESSON_NOTES; generic guide")
        for ex in exercise_cells(nb):
            if ex.key not in FORMULAS:
                report.warnings.append(
                    f"{stem}: exercise {ex.key!r} has no formula in kit.FORMULAS"
                )
        md = guide_markdown(stem, nb)
        _write(root / "teacher" / f"{stem}.md", md, report)
        _write(
            root / "teacher" / f"{stem}.html", guide_html(md, f"Teacher's guide: {stem}"), report
        )
        if exercise_cells(nb):
            target = source / stem / path.name
            if target.parent.exists():
                shutil.rmtree(target.parent)
            _write_nb(target, nbgrader_notebook(nb), report)
        if stem in handout_stems:
            say(f"{stem}: handout ({'executing' if execute else 'not executed'})")
            try:
                page = handout_html(student, cwd=folder, execute=execute, timeout=timeout)
            except HandoutError as e:
                raise HandoutError(f"{stem}: {e}") from e.__cause__
            _write(root / "handouts" / f"{stem}.html", page, report)
    pages = [p for p in report.files if p.parent.name == "handouts"]
    if pdf and pages:
        why = pdf_unavailable()
        if why:
            report.warnings.append(f"no PDF handouts: {why}")
        else:
            say(f"printing {len(pages)} handout(s) to PDF")
            report.files += print_pdfs(pages)
    if any(p.parts[-3] == "source" for p in report.files if len(p.parts) >= 3):
        _write(root / "nbgrader" / "nbgrader_config.py", _NBGRADER_CONFIG, report)
    _write(root / "README.md", _kit_readme(paths, handout_stems), report)
    for w in report.warnings:
        warnings.warn(w, stacklevel=2)
    return report


def _kit_readme(paths: Sequence[Path], handout_stems: set[str]) -> str:
    lessons = "\n".join(f"- `{p.stem}`" for p in paths)
    return f"""# No Thanks! lessons: teacher's kit

Written by `nothanks-lab lessons export`. Lessons:

{lessons}

- `student/`: the notebooks to hand out; every exercise is unanswered and no cell reveals an
  answer. They need the package installed (`pip install nothanks_lab`).
- `teacher/`: a guide per lesson (Markdown and HTML): goals, timings for a {PERIOD_MINUTES}-minute
  period, answers with working, discussion prompts, common misconceptions.
- `handouts/`: each lesson run and saved as one HTML page that opens offline; print it from a
  browser, or use the PDF beside it when there is one. ({len(handout_stems)} written.)
- `nbgrader/`: an nbgrader course. In that folder run `nbgrader generate_assignment LESSON`
  to make the student version in `release/`, then collect submissions into
  `submitted/STUDENT/LESSON/` and run `nbgrader autograde LESSON`.
"""

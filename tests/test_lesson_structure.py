"""Each lesson as a teacher reads it: one period, the same minutes everywhere, nothing given away.

Fast tests read the notebooks, the README's lesson table and the teacher's notes
(:data:`nothanks_lab.kit.notes.LESSON_NOTES`): the timing line of every lesson lists its
sections' minutes, a class lesson's add up to at most a period, and the three sources state the
same minutes; 06 and 08 say they are enrichment; no visible code cell holds an ``assert`` (the
lesson's own checks live in hidden cells tagged ``check``, which the student copy drops); and no
exercise's exact answer is written in a markdown cell, or in the source of a code cell, before
the exercise asks it. The slow test executes each lesson once (the session's shared run of it
with its own seed, see ``notebook_runs``) and looks for the answers in the outputs of the cells
before each exercise.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest
from notebook_runs import LessonRuns

from nothanks_lab import lessons
from nothanks_lab.kit.notebooks import TEACHER_TAGS, exercise_cells, is_lesson, student_notebook
from nothanks_lab.kit.notes import LESSON_NOTES, PERIOD_MINUTES
from nothanks_lab.lessons.keys import solution_value

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p for p in (ROOT / "notebooks").glob("*.ipynb") if is_lesson(p))
ENRICHMENT = {"06_perfect_play", "08_bot_lab_for_analysts"}
ENRICHMENT_TEXT = "Enrichment: university / analysts, not a class period"
STEMS = [p.stem for p in NOTEBOOKS]
# A numbered section of a timing line: "3. Paired simulation: ... (12 min)".
SECTION = re.compile(r"^\d+\. .*\((\d+) min\)\s*$", re.MULTILINE)


def _read(stem: str) -> nbformat.NotebookNode:
    return nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)


def notebook_minutes(stem: str) -> list[int]:
    """The minutes of each section in the timing line of lesson `stem`'s first cell."""
    first = _read(stem).cells[0]
    timing = first.source.split("**Timing**", 1)
    assert len(timing) == 2, f"{stem}: no **Timing** line in the first cell"
    return [int(m) for m in SECTION.findall(timing[1])]


def readme_minutes() -> dict[str, int]:
    """The lesson table's time per lesson in the README's 'For teachers' section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## For teachers", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)\.ipynb` \|.*\| ([^|]*) \|\s*$", section, re.MULTILINE)
    out = {}
    for stem, time in rows:
        m = re.search(r"(\d+) min", time)
        assert m, f"README: no minutes for {stem}: {time!r}"
        out[stem] = int(m.group(1))
    return out


def test_every_lesson_is_in_the_table_and_the_guide() -> None:
    assert set(readme_minutes()) == set(STEMS)
    assert set(LESSON_NOTES) == set(STEMS)


@pytest.mark.parametrize("stem", STEMS)
def test_the_minutes_agree_in_notebook_readme_and_guide(stem: str) -> None:
    in_notebook = notebook_minutes(stem)
    in_guide = [m for m, _ in LESSON_NOTES[stem].timings]
    assert in_notebook, f"{stem}: the timing line lists no section with its minutes"
    assert in_notebook == in_guide, f"{stem}: notebook {in_notebook}, guide {in_guide}"
    assert sum(in_notebook) == readme_minutes()[stem], stem
    if stem not in ENRICHMENT:
        assert sum(in_notebook) <= PERIOD_MINUTES, f"{stem}: {sum(in_notebook)} min"


def assert_headings_match_minutes(nb: nbformat.NotebookNode, stem: str, label: str) -> None:
    """Each '## n. Title (m min)' heading of `nb` that gives minutes matches the (English)
    timing line of lesson `stem`; `label` names the notebook in a failure."""
    headings = [
        (int(n), int(m))
        for c in nb.cells
        if c.cell_type == "markdown"
        for n, m in re.findall(r"^## (\d+)\. .*\((\d+) min\)\s*$", c.source, re.MULTILINE)
    ]
    minutes = notebook_minutes(stem)
    for n, m in headings:
        assert minutes[n - 1] == m, f"{label}: section {n} heading says {m} min"


@pytest.mark.parametrize("stem", STEMS)
def test_section_headings_state_the_timing_line_minutes(stem: str) -> None:
    """Each '## n. Title (m min)' heading, where it gives minutes, matches the timing line."""
    assert_headings_match_minutes(_read(stem), stem, stem)


def test_enrichment_is_said_in_readme_lesson_and_guide() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for stem in ENRICHMENT:
        row = next(line for line in readme.splitlines() if line.startswith(f"| `{stem}"))
        assert ENRICHMENT_TEXT in row
        assert ENRICHMENT_TEXT in _read(stem).cells[0].source
        assert ENRICHMENT_TEXT in LESSON_NOTES[stem].title
    for stem in set(STEMS) - ENRICHMENT:
        assert "Enrichment" not in _read(stem).cells[0].source


@pytest.mark.parametrize("stem", STEMS)
def test_no_assert_where_students_read(stem: str) -> None:
    assert_no_visible_assert(_read(stem), stem)


def assert_no_visible_assert(nb: nbformat.NotebookNode, stem: str) -> None:
    """Checks are hidden cells tagged ``check``; no cell a student reads, or keeps, asserts."""
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        tags = set(cell.metadata.get("tags", []))
        if "check" in tags:
            assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, (stem, i)
        elif not tags & TEACHER_TAGS:
            assert not re.search(r"^\s*assert\b", cell.source, re.MULTILINE), (stem, i)
    student = student_notebook(nb)
    assert not any("check" in c.metadata.get("tags", []) for c in student.cells)
    assert not any(re.search(r"^\s*assert\b", c.source, re.M) for c in student.cells), stem


def answer_forms(key: str) -> tuple[list[re.Pattern[str]], re.Pattern[str] | None]:
    """How exercise `key`'s exact answer could be written: a fraction or 2-4 digits; an integer.

    The second item (None unless the answer is a whole number of two digits or more) is the
    integer with word
    boundaries; in a code cell it is looked for in what a student reads (strings, comments).
    """
    value = Fraction(solution_value(key)).limit_denominator(10**9)
    forms = {f"{value.numerator}/{value.denominator}"} if value.denominator != 1 else set()
    for d in (2, 3, 4):
        forms.add(f"{float(value):.{d}f}")
    pats = [re.compile(rf"(?<![\d.]){re.escape(f)}(?!\d)") for f in forms]
    whole = None
    # A one-digit whole number is left out: lessons name cards 3 to 9 and small counts everywhere
    # (06's deck is cards 3 to 8), so it would flag every mention of card 4, not an answer.
    if value.denominator == 1 and abs(value.numerator) >= 10:
        whole = re.compile(rf"(?<![\w.]){value.numerator}(?![\w.])")
    return pats, whole


def readable_text(code: str) -> str:
    """The string literals and comments of `code`, f-string fields ({...}) left out."""
    import io
    import tokenize

    kinds = {tokenize.STRING, tokenize.COMMENT, getattr(tokenize, "FSTRING_MIDDLE", -1)}
    parts = [
        t.string for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type in kinds
    ]
    return re.sub(r"\{[^{}]*\}", " ", "\n".join(parts))


def _exercises_in(stem: str) -> list[str]:
    try:
        return list(lessons.exercises(stem))
    except ValueError:
        return []


def _found(
    forms: tuple[list[re.Pattern[str]], re.Pattern[str] | None], text: str, code: bool = False
) -> list[str]:
    pats, whole = forms
    found = [m.group(0) for p in pats for m in [p.search(text)] if m]
    if whole is not None:
        m = whole.search(readable_text(text) if code else text)
        found += [m.group(0)] if m else []
    return found


Forms = Callable[[str], tuple[list[re.Pattern[str]], re.Pattern[str] | None]]


def assert_no_answer_written_early(
    nb: nbformat.NotebookNode, stem: str, forms: Forms, label: str
) -> None:
    """No markdown cell of `nb`, and no cell before an exercise asks, writes its answer in one
    of `forms(key)`; `label` names the notebook in a failure."""
    where = {ex.key: ex.index for ex in exercise_cells(nb)}
    for key in _exercises_in(stem):
        if key not in where:  # shown as a worked example of check_answer, never asked
            continue
        pats = forms(key)
        for i, cell in enumerate(nb.cells):
            if cell.cell_type == "markdown" or i < where[key]:
                found = _found(pats, cell.source, code=cell.cell_type == "code")
                assert not found, f"{label}: cell {i} writes {found} before {key} asks it"


def assert_no_answer_printed_early(
    nb: nbformat.NotebookNode, stem: str, forms: Forms, label: str
) -> None:
    """No output before an exercise of the run notebook `nb` asks prints its answer in one of
    `forms(key)`; `label` names the notebook in a failure."""
    where = {ex.key: ex.index for ex in exercise_cells(nb)}
    for key in _exercises_in(stem):
        pats = forms(key)
        for i in range(where.get(key, 0)):
            # A printed whole number is left out: a dealt score of 19 is no answer given away.
            found = _found((pats[0], None), _output_text(nb.cells[i]))
            assert not found, f"{label}: cell {i} prints {found} before {key} asks it"


@pytest.mark.parametrize("stem", STEMS)
def test_no_answer_written_before_it_is_asked(stem: str) -> None:
    assert_no_answer_written_early(_read(stem), stem, answer_forms, stem)


def _output_text(cell: nbformat.NotebookNode) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if "text" in out:
            parts.append(out["text"])
        for mime in ("text/plain", "text/html", "text/markdown"):
            parts.append(str(out.get("data", {}).get(mime, "")))
    return "\n".join(parts)


_PRINTED = [s for s in STEMS if _exercises_in(s)]


@pytest.mark.slow
@pytest.mark.parametrize("stem", _PRINTED)
def test_no_answer_printed_before_it_is_asked(stem: str, lesson_runs: LessonRuns) -> None:
    path = ROOT / "notebooks" / f"{stem}.ipynb"
    seed = int(re.match(r"SEED = (\d+)", _read(stem).cells[2].source or "SEED = 0").group(1))
    nb = lesson_runs.get(path, seed)  # the lesson's own seed: its first run, on a fresh kernel
    assert_no_answer_printed_early(nb, stem, answer_forms, stem)


# ------------------------------------------------------------------ the Portuguese lessons
# notebooks/pt_BR/ holds the same lessons in Brazilian Portuguese (tests/test_lessons_pt.py checks
# that only the prose differs). Their timing line reads "**Tempo** (uma aula de 45 minutos, ...)"
# with the same numbered sections "1. As regras (10 min)", and the same rules hold for them.
PT = ROOT / "notebooks" / "pt_BR"
PT_STEMS = sorted(p.stem for p in PT.glob("*.ipynb") if is_lesson(p))
PT_ENRICHMENT_TEXT = "Aprofundamento: universidade / analistas, não é uma aula"


def _read_pt(stem: str) -> nbformat.NotebookNode:
    return nbformat.read(PT / f"{stem}.ipynb", as_version=4)


def pt_timing(stem: str) -> str:
    """The text after **Tempo** in the first cell of Portuguese lesson `stem`."""
    timing = _read_pt(stem).cells[0].source.split("**Tempo**", 1)
    assert len(timing) == 2, f"pt_BR/{stem}: no **Tempo** line in the first cell"
    return timing[1]


@pytest.mark.parametrize("stem", PT_STEMS)
def test_pt_minutes_are_the_english_minutes(stem: str) -> None:
    assert [int(m) for m in SECTION.findall(pt_timing(stem))] == notebook_minutes(stem), stem
    period = re.search(r"(\d+) minutes", _read(stem).cells[0].source.split("**Timing**", 1)[1])
    if period:  # "one class period of 45 minutes" is "uma aula de 45 minutos"
        assert re.search(rf"\b{period.group(1)} minutos\b", pt_timing(stem)), stem
    assert_headings_match_minutes(_read_pt(stem), stem, f"pt_BR/{stem}")


@pytest.mark.parametrize("stem", PT_STEMS)
def test_pt_enrichment_is_said(stem: str) -> None:
    first = _read_pt(stem).cells[0].source
    if stem in ENRICHMENT:
        assert PT_ENRICHMENT_TEXT in first, stem
    else:
        assert "Aprofundamento" not in first, stem


@pytest.mark.parametrize("stem", PT_STEMS)
def test_pt_no_assert_where_students_read(stem: str) -> None:
    assert_no_visible_assert(_read_pt(stem), f"pt_BR/{stem}")


def answer_forms_pt(key: str) -> tuple[list[re.Pattern[str]], re.Pattern[str] | None]:
    """:func:`answer_forms`, and its decimals with a comma (0,7273) as Portuguese writes them."""
    pats, whole = answer_forms(key)
    value = float(Fraction(solution_value(key)))
    comma = [f"{value:.{d}f}".replace(".", ",") for d in (2, 3, 4)]
    return pats + [re.compile(rf"(?<![\d,]){re.escape(f)}(?!\d)") for f in comma], whole


@pytest.mark.parametrize("stem", PT_STEMS)
def test_pt_no_answer_written_before_it_is_asked(stem: str) -> None:
    assert_no_answer_written_early(_read_pt(stem), stem, answer_forms_pt, f"pt_BR/{stem}")


@pytest.mark.slow
@pytest.mark.parametrize("stem", [s for s in PT_STEMS if _exercises_in(s)])
def test_pt_no_answer_printed_before_it_is_asked(stem: str, lesson_runs: LessonRuns) -> None:
    seed = int(re.match(r"SEED = (\d+)", _read_pt(stem).cells[2].source).group(1))
    nb = lesson_runs.get(PT / f"{stem}.ipynb", seed, variants=False)
    assert_no_answer_printed_early(nb, stem, answer_forms_pt, f"pt_BR/{stem}")


# ------------------------------------------------------------------ an optional last part
# A lesson may end with an optional part, after its exercises and outside its minutes (lesson
# 04's "Going further", «Para ir além» in Portuguese): a teacher with one period skips it, and the
# guide says what it holds and when to skip it.
FURTHER = {"en": "## Going further (optional", "pt_BR": "## Para ir além (opcional"}


@pytest.mark.parametrize("stem", STEMS)
@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_an_optional_part_follows_the_exercises_and_the_guide_says_so(stem: str, lang: str) -> None:
    from nothanks_lab.kit.notes_pt import LESSON_NOTES_PT

    if lang == "pt_BR" and stem not in PT_STEMS:
        pytest.skip(f"no Portuguese {stem}")
    nb = _read(stem) if lang == "en" else _read_pt(stem)
    notes = (LESSON_NOTES if lang == "en" else LESSON_NOTES_PT)[stem]
    starts = [
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "markdown" and c.source.startswith(FURTHER[lang])
    ]
    assert len(starts) <= 1, f"{lang} {stem}: two optional parts"
    assert bool(starts) == bool(notes.further), f"{lang} {stem}: notebook and guide disagree"
    if starts:
        exercises_at = [ex.index for ex in exercise_cells(nb)]
        assert exercises_at and max(exercises_at) < starts[0], f"{lang} {stem}: exercises after"
        word = "*Going further*" if lang == "en" else "*Para ir além*"
        assert word in nb.cells[0].source, f"{lang} {stem}: the first cell does not announce it"
        headings = [c.source for c in nb.cells[starts[0] + 1 :] if c.cell_type == "markdown"]
        assert not any(re.match(r"## \d+\.", h) for h in headings), "a timed section after it"

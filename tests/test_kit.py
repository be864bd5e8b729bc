"""The teacher's kit: ``nothanks-lab lessons export DIR`` as a teacher and a student meet it.

One export through the command line (every lesson's student notebook, guide and nbgrader
source; one handout, executed) is shared by most tests; only that lesson is executed, plus
one student notebook, so the module runs in well under a minute. The nbgrader tests run the
real ``nbgrader`` in a subprocess: skipped locally when it is missing, required under CI.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import nbformat
import pytest

import nothanks_lab
from nothanks_lab import kit, lessons
from nothanks_lab.kit.notebooks import is_lesson

NOTEBOOKS = Path(nothanks_lab.__file__).resolve().parents[1] / "notebooks"
LESSONS = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb") if is_lesson(p))
HANDOUT = "03_runs_exact_vs_simulated"  # small (a few seconds to run), three plotly figures
BIN = Path(sys.executable).parent
# Calls that would hand a student an exercise's answer (checked independently of the kit).
FORBIDDEN = re.compile(
    r"\b(?:solution_value|exact_answer|accepted_answers)\b"
    r"|\b_solution\b|\b_solve\b|\.solution\b|lessons\._\w"
)
CHECK = re.compile(r"check_answer\(\s*[\"'](\w+)[\"']\s*,\s*(\w+)\s*\)")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def cli(*args: str, cmd: list[str] | None = None, timeout: int = 300) -> Any:
    return subprocess.run(
        [*(cmd or [sys.executable, "-m", "nothanks_lab"]), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
        check=False,
    )


def source(cell: Any) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def read(path: Path) -> Any:
    return nbformat.read(path, as_version=4)


@pytest.fixture(scope="module")
def kit_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("kit") / "kit"
    p = cli("lessons", "export", str(root), "--handout", HANDOUT)
    assert p.returncode == 0, p.stderr
    assert "wrote" in p.stdout and "student/" in p.stdout
    return root


# ------------------------------------------------------------------ the contract
@pytest.mark.slow
def test_export_writes_the_four_folders(kit_dir: Path) -> None:
    assert sorted(p.name for p in (kit_dir / "student").glob("*.ipynb")) == [
        f"{s}.ipynb" for s in LESSONS
    ]
    for stem in LESSONS:
        assert (kit_dir / "teacher" / f"{stem}.md").is_file()
        assert (kit_dir / "teacher" / f"{stem}.html").is_file()
    assert [p.name for p in (kit_dir / "handouts").glob("*.html")] == [f"{HANDOUT}.html"]
    with_exercises = [s for s in LESSONS if kit.exercise_cells(read(NOTEBOOKS / f"{s}.ipynb"))]
    assert with_exercises  # the lessons do have exercises
    for stem in with_exercises:
        assert (kit_dir / "nbgrader" / "source" / stem / f"{stem}.ipynb").is_file()
    assert (kit_dir / "nbgrader" / "nbgrader_config.py").is_file()


@pytest.mark.slow
def test_the_installed_script_exports_too(tmp_path: Path) -> None:
    script = shutil.which("nothanks-lab", path=str(BIN)) or shutil.which("nothanks-lab")
    if script is None:
        pytest.skip("the nothanks-lab script is not installed (pip install -e .)")
    p = cli("lessons", "export", str(tmp_path / "k"), "--lesson", "04_chip_value",
            "--skip-handouts", cmd=[script])  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "k" / "student" / "04_chip_value.ipynb").is_file()
    assert (tmp_path / "k" / "teacher" / "04_chip_value.md").is_file()
    assert not (tmp_path / "k" / "student" / "02_chances_under_removed_cards.ipynb").exists()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--notebooks", "/nonexistent/lessons"], "no such folder"),
        (["--lesson", "99_nope", "--skip-handouts"], "99_nope"),
        (["--timeout", "0"], "timeout"),
    ],
)
def test_bad_input_exits_2_with_an_error(tmp_path: Path, args: list[str], says: str) -> None:
    p = cli("lessons", "export", str(tmp_path / "k"), *args)
    assert p.returncode == 2
    assert p.stderr.startswith("error: ") and says in p.stderr
    assert "Traceback" not in p.stderr


def test_a_folder_without_notebooks_is_an_error(tmp_path: Path) -> None:
    p = cli("lessons", "export", str(tmp_path / "k"), "--notebooks", str(tmp_path))
    assert p.returncode == 2 and "no .ipynb" in p.stderr


# ------------------------------------------------------------------ student notebooks
@pytest.mark.slow
@pytest.mark.parametrize("stem", LESSONS)
def test_student_notebook_reveals_no_solution(kit_dir: Path, stem: str) -> None:
    nb = read(kit_dir / "student" / f"{stem}.ipynb")
    original = read(NOTEBOOKS / f"{stem}.ipynb")
    nbformat.validate(nb)
    for cell in nb.cells:
        assert not {"solution", "teacher"} & set(cell.metadata.get("tags", []))
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
            assert not FORBIDDEN.search(source(cell)), source(cell)
    # the first code cell still sets the seed, and every exercise the lesson has is there
    first = next(c for c in nb.cells if c.cell_type == "code")
    assert re.match(r"SEED = \d+\b", source(first)) and "use_seed(SEED)" in source(first)
    keys = {k for c in nb.cells if c.cell_type == "code" for k, _ in CHECK.findall(source(c))}
    if stem in {e.lesson for e in lessons.EXERCISES.values()}:
        assert keys == set(lessons.exercises(stem))
    dropped = [
        c
        for c in original.cells
        if {"solution", "teacher", "check"} & set(c.metadata.get("tags", []))
    ]
    assert len(nb.cells) == len(original.cells) - len(dropped)  # only the hidden check cells go


@pytest.mark.slow
def test_student_exercise_cells_are_unanswered(kit_dir: Path) -> None:
    found = 0
    for path in (kit_dir / "student").glob("*.ipynb"):
        for cell in read(path).cells:
            for key, var in CHECK.findall(source(cell)):
                if re.search(rf"^{var}\s*=", source(cell), re.MULTILINE):
                    assert re.search(rf"^{var} = None\b", source(cell), re.MULTILINE), key
                    found += 1
    assert found >= 10


def _lesson(cells: list[Any]) -> Any:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("SEED = 1"), *cells]
    return nb


def test_student_notebook_drops_teacher_cells_and_blanks_answers() -> None:
    exercise = nbformat.v4.new_code_cell(
        "from nothanks_lab import lessons\nanswer = 19  # filled in by mistake\n"
        'lessons.check_answer("break_even_20", answer)'
    )
    exercise.outputs = [nbformat.v4.new_output("stream", text="old output")]
    exercise.execution_count = 3
    secret = nbformat.v4.new_code_cell('lessons.solution_value("break_even_20")')
    secret.metadata["tags"] = ["solution"]
    notes = nbformat.v4.new_markdown_cell("Teacher: the answer is 19.")
    notes.metadata["tags"] = ["teacher"]
    out = kit.student_notebook(_lesson([exercise, secret, notes]))
    assert len(out.cells) == 2
    assert "answer = None  # your answer" in source(out.cells[1])
    assert "19" not in source(out.cells[1])
    assert out.cells[1].outputs == [] and out.cells[1].execution_count is None


@pytest.mark.parametrize(
    "leak",
    [
        'lessons._solution("p28_start")',
        'lessons.solution_value("p28_start")',
        'print(lessons.exact_answer("p28_start"))',
        'lessons.accepted_answers("p28_start")',
        "from nothanks_lab.lessons import solution_value as s",
        'lessons.exercise("p28_start")._solve()',
        "from nothanks_lab.lessons import _solution",
        'lessons.EXERCISES["p28_start"].solution',
    ],
)
def test_student_notebook_refuses_a_cell_that_computes_an_answer(leak: str) -> None:
    nb = _lesson([nbformat.v4.new_code_cell(f"from nothanks_lab import lessons\n{leak}")])
    with pytest.raises(ValueError, match="reveal a solution"):
        kit.student_notebook(nb)


@pytest.mark.slow
def test_a_student_notebook_runs_with_every_exercise_not_answered_yet(kit_dir: Path) -> None:
    from nbclient import NotebookClient

    nb = read(kit_dir / "student" / f"{HANDOUT}.ipynb")
    NotebookClient(nb, timeout=300, kernel_name="python3", store_widget_state=False).execute()
    verdicts = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        text = json.dumps(cell.outputs)
        assert '"output_type": "error"' not in text
        for key, var in CHECK.findall(source(cell)):
            if re.search(rf"^{var} = None", source(cell), re.MULTILINE):
                verdicts[key] = f"Not answered yet ({key})" in text
    assert verdicts and all(verdicts.values()), verdicts
    assert set(verdicts) == set(lessons.exercises(HANDOUT)) - {"p28_start"}  # a worked example


# ------------------------------------------------------------------ teacher guides
def _exact_text(key: str) -> str:
    value = lessons.solution_value(key)
    frac = Fraction(value).limit_denominator(10**6)
    return str(frac) if float(frac) == value else f"{value:.6f}"


@pytest.mark.slow
@pytest.mark.parametrize("stem", LESSONS)
def test_guide_has_every_part_and_the_exact_answers(kit_dir: Path, stem: str) -> None:
    md = (kit_dir / "teacher" / f"{stem}.md").read_text()
    for heading in ("## Goals", "## Timings (45 minutes)", "## Answers with working",
                    "## Discussion prompts", "## Common misconceptions"):  # fmt: skip
        assert heading in md
    minutes = [int(m) for m in re.findall(r"^\| (\d+) \|", md, re.MULTILINE)]
    assert sum(minutes) == kit.PERIOD_MINUTES
    keys = [e.key for e in kit.exercise_cells(read(NOTEBOOKS / f"{stem}.ipynb"))]
    for key in keys:
        section = md.split(f"`{key}`", 1)[1].split("### ", 1)[0]
        assert f"**Answer.** {_exact_text(key)}" in section
        assert lessons.exercise(key).hint in section  # the working: hint ...
        assert "Formula: `" in section  # ... and formula
    if stem == "02_chances_under_removed_cards":  # p28_start is worked in the lesson
        assert "Worked example in the lesson: `p28_start`" in md and "**Answer.** 8/11" in md
    page = (kit_dir / "teacher" / f"{stem}.html").read_text()
    assert "<h2>Goals</h2>" in page and "<table>" in page and "http" not in page


def test_every_lesson_present_has_notes_and_every_exercise_a_formula() -> None:
    assert set(LESSONS) <= set(kit.LESSON_NOTES)
    for stem, notes in kit.LESSON_NOTES.items():
        assert sum(m for m, _ in notes.timings) == kit.PERIOD_MINUTES, stem
        assert notes.goals and notes.prompts and notes.misconceptions
    assert set(lessons.EXERCISES) <= set(kit.FORMULAS)


@pytest.mark.parametrize("key", sorted(k for k in kit.FORMULAS if not k.startswith("pp_")))
def test_a_formula_in_the_working_gives_the_exact_answer(key: str) -> None:
    import math

    parts = re.split(r"[:=]", kit.FORMULAS[key])
    sums = [p for p in parts if re.fullmatch(r"[\d\s()+\-*/,]*|[\d\s()+\-*/,comb]*comb[^a-z]*", p)]
    sums = [p for p in sums if p.strip()]
    assert sums, kit.FORMULAS[key]
    for expression in sums:
        value = eval(expression, {"__builtins__": {}, "comb": math.comb})
        assert math.isclose(value, lessons.solution_value(key), abs_tol=1e-12), expression


@pytest.mark.slow
def test_a_lesson_without_notes_gets_a_generic_guide_and_a_warning(tmp_path: Path) -> None:
    folder = tmp_path / "nbs"
    folder.mkdir()
    shutil.copy(NOTEBOOKS / "04_chip_value.ipynb", folder / "09_new_lesson.ipynb")
    with pytest.warns(UserWarning, match="09_new_lesson: no teaching notes"):
        report = kit.export(tmp_path / "k", notebooks=folder, handouts=False)
    md = (tmp_path / "k" / "teacher" / "09_new_lesson.md").read_text()
    assert md.startswith("# Teacher's guide: What is a chip worth?")
    minutes = [int(m) for m in re.findall(r"^\| (\d+) \|", md, re.MULTILINE)]
    assert sum(minutes) == kit.PERIOD_MINUTES and len(minutes) > 3
    assert f"**Answer.** {_exact_text('break_even_20')}" in md
    assert "Worked example" not in md
    assert any("no teaching notes" in w for w in report.warnings)


def test_answers_are_fractions_when_rational() -> None:
    assert kit.solution("p28_start").text == "8/11 ≈ 0.727273"
    assert kit.solution("break_even_26_holding_27").literal == "-2"
    assert kit.solution("tiny_single_run").literal == "Fraction(1, 14)"
    irrational = kit.ExerciseAnswer("k", "q", 0.1234567890123, None, "h", None)
    assert irrational.text == "0.123457" and irrational.literal == "0.1234567890123"


# ------------------------------------------------------------------ handouts
@pytest.mark.slow
def test_handout_is_self_contained_and_offline(kit_dir: Path) -> None:
    page = (kit_dir / "handouts" / f"{HANDOUT}.html").read_text()
    fetched = re.findall(
        r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=\s*[\"']?((?:https?:)?//[^\"'\s>]+)",
        page,
        re.IGNORECASE,
    )
    assert fetched == []
    assert not re.search(r"import\s*\(?[\"']https?://", page)
    assert page.count('class="plotly-graph-div"') >= 3  # the lesson's figures, with their data
    assert "plotly.js v" in page  # the library itself, inline
    assert "Not answered yet" in page and "Traceback" not in page
    assert "pio.renderers" not in page  # the hidden setup cell shows no code
    prompts = [int(n) for n in re.findall(r"In\s\[(\d+)\]:", page)]
    assert prompts[:3] == [1, 2, 3]  # numbered as the lesson, from 1


@pytest.mark.slow
def test_handout_pdf_when_a_browser_is_here(kit_dir: Path) -> None:
    pdf = kit_dir / "handouts" / f"{HANDOUT}.pdf"
    why = kit.pdf_unavailable()
    if why is not None:
        assert not pdf.exists()
        pytest.skip(why)
    assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 20_000


# ------------------------------------------------------------------ nbgrader
@pytest.mark.slow
def test_nbgrader_source_cells(kit_dir: Path) -> None:
    seen_ids: set[str] = set()
    for path in (kit_dir / "nbgrader" / "source").glob("*/*.ipynb"):
        nb = read(path)
        graded = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
        answers = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]
        assert graded and len(graded) == len(answers)
        for sol, test in zip(answers, graded, strict=True):
            assert nb.cells.index(test) == nb.cells.index(sol) + 1
            meta = test.metadata["nbgrader"]
            assert meta["locked"] and meta["points"] == 1 and meta["schema_version"] == 3
            assert not meta["solution"] and sol.metadata["nbgrader"]["locked"] is False
            for m in (meta, sol.metadata["nbgrader"]):
                assert m["grade_id"] not in seen_ids
                seen_ids.add(m["grade_id"])
            (key, var), *_ = CHECK.findall(source(sol))
            block = source(sol).split("### BEGIN SOLUTION\n")[1].split("### END SOLUTION")[0]
            assert "lessons" not in block  # a literal, not a call into the package
            namespace: dict[str, Any] = {}
            exec(block, namespace)
            assert lessons.check_answer(key, namespace[var]).status == "right"
            assert f"check_answer({key!r}, {var})" in source(test)
            assert 'status == "right"' in source(test)


# A teacher's PATH: the system folders, without the venv's bin/ (which holds alembic).
TEACHER_PATH = os.pathsep.join(
    d
    for d in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
    if d and Path(d).resolve() != BIN.resolve() and not (Path(d) / "alembic").exists()
)


@pytest.mark.slow
def test_the_course_config_puts_the_venvs_bin_on_path_for_nbgrader(kit_dir: Path) -> None:
    """nbgrader runs `alembic` by name: its config file must make the venv's bin/ findable."""
    config = kit_dir / "nbgrader" / "nbgrader_config.py"
    probe = (
        "import os, shutil, runpy\n"
        "runpy.run_path(os.environ['CONFIG'], init_globals={'get_config': lambda: "
        "__import__('traitlets.config', fromlist=['Config']).Config()})\n"
        "print(shutil.which('alembic'))"
    )
    env = {**os.environ, "PATH": TEACHER_PATH, "CONFIG": str(config)}
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                       timeout=60, check=False)  # fmt: skip
    assert p.returncode == 0, p.stderr
    found = p.stdout.strip()
    if not (BIN / "alembic").exists():
        pytest.skip("alembic (nbgrader's dependency) is not installed")
    assert found != "None" and Path(found).parent.resolve() == BIN.resolve()


def _nbgrader(*args: str, cwd: Path) -> Any:
    if shutil.which("nbgrader", path=str(BIN)) is None:
        if in_ci():
            pytest.fail("nbgrader is not installed under CI (it is in the test extra)")
        pytest.skip("nbgrader is not installed (pip install nbgrader)")
    # As a teacher runs it: `.venv/bin/nbgrader ...` with the venv's bin/ NOT on PATH (nbgrader
    # runs `alembic` by name; the course's nbgrader_config.py must make that work).
    env = {**os.environ, "PATH": TEACHER_PATH}
    assert shutil.which("alembic", path=TEACHER_PATH) is None  # else the test proves nothing
    return subprocess.run(
        [str(BIN / "nbgrader"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )


@pytest.mark.slow
def test_nbgrader_generates_the_assignment_of_a_lesson(kit_dir: Path) -> None:
    course = kit_dir / "nbgrader"
    stem = "04_chip_value"
    p = _nbgrader("generate_assignment", stem, "--force", cwd=course)
    assert p.returncode == 0, p.stderr
    released = read(course / "release" / stem / f"{stem}.ipynb")
    text = "\n".join(source(c) for c in released.cells)
    assert "BEGIN SOLUTION" not in text and "answer = 19" not in text
    n_exercises = len(lessons.exercises(stem))
    assert n_exercises >= 4  # issue 17: at least four exercises on chip value
    assert text.count("answer = None  # your answer") == n_exercises
    graded = sum(c.metadata.get("nbgrader", {}).get("grade", False) for c in released.cells)
    assert graded == n_exercises


@pytest.mark.slow
def test_nbgrader_autogrades_a_right_and_an_unanswered_submission(tmp_path: Path) -> None:
    # A small lesson made of real exercises (fast to run), through the whole teacher's flow.
    folder = tmp_path / "nbs"
    folder.mkdir()
    nb = _lesson(
        [
            nbformat.v4.new_code_cell(
                f"from nothanks_lab import lessons\n\nanswer = None  # your answer\n"
                f'lessons.check_answer("{key}", answer)'
            )
            for key in ("p28_start", "break_even_26_holding_27", "tiny_single_run")
        ]
    )
    nbformat.write(nb, folder / "ex.ipynb")
    with pytest.warns(UserWarning, match="no teaching notes"):
        kit.export(tmp_path / "k", notebooks=folder, handouts=False)
    course = tmp_path / "k" / "nbgrader"
    assert _nbgrader("generate_assignment", "ex", cwd=course).returncode == 0
    for student, origin in (("alice", "source"), ("bob", "release")):
        (course / "submitted" / student / "ex").mkdir(parents=True)
        shutil.copy(course / origin / "ex" / "ex.ipynb", course / "submitted" / student / "ex")
    p = _nbgrader("autograde", "ex", cwd=course)
    assert p.returncode == 0, p.stderr
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        scores = {s: gb.find_submission("ex", s).score for s in ("alice", "bob")}
        max_score = gb.find_assignment("ex").max_score
    assert max_score == 3
    assert scores == {"alice": 3, "bob": 0}


@pytest.mark.slow
def test_a_lesson_that_fails_to_run_is_an_error_naming_it(tmp_path: Path) -> None:
    folder = tmp_path / "nbs"
    folder.mkdir()
    nbformat.write(_lesson([nbformat.v4.new_code_cell("1 / 0")]), folder / "bad.ipynb")
    p = cli("lessons", "export", str(tmp_path / "k"), "--notebooks", str(folder), "--no-pdf")
    assert p.returncode == 2
    assert p.stderr.splitlines()[-1].startswith("error: bad: the lesson failed")
    assert "ZeroDivisionError" in p.stderr


def test_no_execute_writes_handouts_without_running(tmp_path: Path) -> None:
    folder = tmp_path / "nbs"
    folder.mkdir()
    nbformat.write(_lesson([nbformat.v4.new_code_cell("1 / 0")]), folder / "bad.ipynb")
    with pytest.warns(UserWarning, match="no teaching notes"):
        report = kit.export(tmp_path / "k", notebooks=folder, execute=False, pdf=False)
    page = (tmp_path / "k" / "handouts" / "bad.html").read_text()
    assert "1 / 0" in re.sub(r"<[^>]+>", "", page) and "ZeroDivisionError" not in page
    assert tmp_path / "k" / "handouts" / "bad.html" in report.files


def test_every_name_of_the_former_module_is_importable_from_the_package() -> None:
    """`kit` became a package by concept; what callers imported from it still imports."""
    # The names, as the package exported them when it became one (a snapshot).
    public = set(
        (
            "ExerciseAnswer ExerciseCell HandoutError KitReport LESSON_NOTES LessonNotes "
            "exercise_cells export find_notebooks guide_html guide_markdown handout_html "
            "leaks nbgrader_notebook online_references pdf_unavailable print_pdfs "
            "solution student_notebook"
        ).split()
    )
    assert set(kit.__all__) == public
    constants = {"CHROMIUM", "FORMULAS", "PERIOD_MINUTES", "TEACHER_TAGS"}
    assert [n for n in sorted(public | constants) if not hasattr(kit, n)] == []
    assert callable(kit.export)  # the function, not the submodule that defines it
    with pytest.warns(DeprecationWarning, match="kit.Solution is deprecated"):
        assert kit.Solution is kit.ExerciseAnswer  # the old name, kept one release


def test_a_guides_timings_are_a_markdown_table() -> None:
    nb = nbformat.v4.new_notebook()
    md = kit.guide_markdown("01_play", nb)
    rows = [f"| {m} | {a} |" for m, a in kit.LESSON_NOTES["01_play"].timings]
    assert "\n".join(["| minutes | activity |", "|---|---|", *rows]) in md


# ------------------------------------------------------------------ index, rules sheet, quizzes
@pytest.mark.slow
def test_the_course_holds_exactly_the_lessons_with_exercises(kit_dir: Path) -> None:
    with_exercises = {s for s in LESSONS if kit.exercise_cells(read(NOTEBOOKS / f"{s}.ipynb"))}
    in_course = {p.name for p in (kit_dir / "nbgrader" / "source").iterdir()}
    assert in_course == with_exercises
    index = (kit_dir / "README.md").read_text()
    course_line = index.split("an nbgrader course holding every lesson with exercises:")[1]
    for stem in LESSONS:
        named_in = course_line.split("Not in it:")[0] if stem in with_exercises else course_line
        assert f"`{stem}`" in named_in, stem
    assert "teacher/rules_sheet.html" in index and "/.venv/bin/nbgrader" in index
    assert (kit_dir / "index.html").read_text().count("<li>") >= len(LESSONS)


@pytest.mark.slow
def test_the_rules_sheet_states_the_rules_and_scores_its_example(kit_dir: Path) -> None:
    from nothanks_lab.kit import rules_sheet

    page = (kit_dir / "teacher" / "rules_sheet.html").read_text()
    text = re.sub(r"<[^>]+>", "", page)
    assert "3 to 35" in text and "9 cards are taken out at random" in text
    for players, chips in (("3–5 players", 11), ("6 players", 9), ("7 players", 7)):
        assert f"{players} | {chips} chips" in rules_sheet.rules_sheet_markdown()
    # the worked example, scored independently: runs of consecutive cards count their lowest
    hand, chips = sorted(rules_sheet.EXAMPLE_HAND), rules_sheet.EXAMPLE_CHIPS
    lows = [c for c in hand if c - 1 not in hand]
    assert f"{' + '.join(map(str, lows))} = {sum(lows)}" in text
    assert f"{sum(lows)} − {chips} =\n{sum(lows) - chips}" in text
    assert "http" not in page
    pdf = kit_dir / "teacher" / "rules_sheet.pdf"
    why = kit.pdf_unavailable()
    if why is not None:
        pytest.skip(why)
    data = pdf.read_bytes()
    assert data[:5] == b"%PDF-"
    assert len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data)) == 1  # one A4 page
    assert rules_sheet.pdf_pages(pdf) == 1


def _tiny_run_counts(low: int, high: int, removed: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    cards = range(low, high + 1)
    for out in itertools.combinations(cards, removed):
        kept = [c for c in cards if c not in out]
        r = sum(1 for c in kept if c - 1 not in kept)
        counts[r] = counts.get(r, 0) + 1
    return counts


def test_quiz_answers_recomputed_independently() -> None:
    from math import comb

    from nothanks_lab.kit import quizzes

    def answers(stem: str) -> list[Any]:
        return [q.answer for q in quizzes.quiz(stem).questions]

    total = comb(33, 9)
    p02 = answers("02_chances_under_removed_cards")
    assert p02 == [
        1 - Fraction(comb(32, 9), total),
        Fraction(comb(31, 9), total),
        Fraction(23 - 9, 23),  # cards 3..12 seen: 23 unseen, 9 of them removed
        Fraction(comb(29, 9), total),
        Fraction(3 * comb(30, 7), total),
    ]
    counts = _tiny_run_counts(1, 5, 2)
    ways = sum(counts.values())
    p03 = answers("03_runs_exact_vs_simulated")
    assert p03[1:] == [
        ways,
        Fraction(counts[1], ways),
        Fraction(counts[2], ways),
        Fraction(sum(r * n for r, n in counts.items()), ways),
    ]
    assert p03[0] == 3  # 3-4-5, 9-10, 20
    assert answers("01_play")[:3] == [5 + 12 + 20 - 4, 30 + 33, 25 - (25 + 27) - 3]
    assert answers("04_chip_value")[:4] == [22 - 5, 23 - 48 - 2, 20, 0]
    assert answers("07_bot_lab")[:2] == [50, Fraction(3, 10)]


def test_a_quiz_does_not_repeat_its_lessons_exercises() -> None:
    # A paper quiz checks the same skills on new numbers: no answer is an exercise's answer.
    from nothanks_lab.kit import quizzes
    from nothanks_lab.lessons import keys

    for stem in quizzes.QUIZZES:
        done = {keys.exact_answer(k) for k in keys.exercises(stem)}
        repeated = [q.text for q in quizzes.quiz(stem).questions if q.answer in done]
        assert not repeated, (stem, repeated)


@pytest.mark.slow
@pytest.mark.parametrize("stem", sorted(set(LESSONS)))
def test_each_class_lesson_has_a_paper_quiz_and_key(kit_dir: Path, stem: str) -> None:
    from nothanks_lab.kit import quizzes

    sheet = kit_dir / "teacher" / f"quiz_{stem}.html"
    if stem not in quizzes.QUIZZES:
        assert not sheet.exists()
        assert stem in {"06_perfect_play", "08_bot_lab_for_analysts"}  # enrichment: no quiz
        return
    q = quizzes.quiz(stem)
    assert 4 <= len(q.questions) <= 6
    students = (kit_dir / "teacher" / f"quiz_{stem}.md").read_text()
    key = (kit_dir / "teacher" / f"quiz_{stem}_key.md").read_text()
    assert sheet.is_file() and (kit_dir / "teacher" / f"quiz_{stem}_key.html").is_file()
    assert "Answer:**" not in students and students.count("Answer: ____") == len(q.questions)
    for question in q.questions:
        assert question.text in students and question.text in key
        assert f"**Answer:** {question.answer_text}." in key
        if isinstance(question.answer, Fraction) and question.answer.denominator > 1:
            assert str(question.answer) not in students
    assert f"quiz_{stem}.html" in (kit_dir / "README.md").read_text()


def test_an_unknown_quiz_is_a_value_error() -> None:
    from nothanks_lab.kit import quizzes

    with pytest.raises(ValueError, match="stem '99_nope': no quiz"):
        quizzes.quiz("99_nope")


def test_a_failed_export_leaves_no_partial_kit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk part-way: no partial DIR, a previous kit untouched (issue 24)."""
    from nothanks_lab.kit import build

    real, calls = build.write_atomic, [0]

    def full_disk(path: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == 4:
            raise OSError(28, "No space left on device")
        return real(path, text, *args, **kwargs)

    monkeypatch.setattr(build, "write_atomic", full_disk)
    stem = LESSONS[0]
    with pytest.raises(OSError, match="No space"):
        kit.export(tmp_path / "kit", lessons=[stem], handouts=False, pdf=False)
    assert list(tmp_path.iterdir()) == []  # neither the kit nor its sibling work folder
    old = tmp_path / "old"
    (old / "teacher").mkdir(parents=True)
    (old / "teacher" / "mine.txt").write_text("the teacher's own file")
    calls[0] = 0
    with pytest.raises(OSError, match="No space"):
        kit.export(old, lessons=[stem], handouts=False, pdf=False)
    assert sorted(str(p.relative_to(old)) for p in old.rglob("*")) == [
        "teacher",
        "teacher/mine.txt",
    ]
    monkeypatch.undo()
    report = kit.export(old, lessons=[stem], handouts=False, pdf=False)
    assert (old / "teacher" / "mine.txt").read_text() == "the teacher's own file"
    assert (old / "student" / f"{stem}.ipynb").is_file()
    assert report.root == old and all(p.is_file() and old in p.parents for p in report.files)
    assert [p.name for p in tmp_path.iterdir()] == ["old"]
    new = kit.export(tmp_path / "fresh", lessons=[stem], handouts=False, pdf=False).root
    assert new.stat().st_mode & 0o077, "a new kit folder is not private to its maker"


@pytest.mark.slow
def test_export_stopped_by_sigterm_while_a_lesson_runs_says_so_and_writes_no_kit(
    tmp_path: Path,
) -> None:
    # nbclient takes SIGTERM and Ctrl-C itself while a lesson runs (it shuts the kernel down),
    # and the run then failed as "the lesson failed ... (AssertionError):" with no text.
    import signal
    import time

    out = tmp_path / "kit"
    p = subprocess.Popen(
        [sys.executable, "-m", "nothanks_lab", "lessons", "export", str(out), "--no-pdf"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NOTHANKS_LAB_LANG": "en"},
    )
    try:
        assert p.stderr is not None
        for line in p.stderr:  # the progress lines: wait until a lesson's kernel is running
            if "handout (executing)" in line:
                break
        time.sleep(3)
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 130, err[-2000:]
    assert err.strip().splitlines()[-1] == (
        "stopped (Ctrl-C or SIGTERM) while a lesson ran: no kit written"
    ), err[-2000:]
    assert not out.exists() and not any(tmp_path.iterdir()), list(tmp_path.iterdir())

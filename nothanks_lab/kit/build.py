"""The whole kit: :func:`export` writes student, teacher, handout and nbgrader folders.

``nothanks-lab lessons export DIR`` calls :func:`export`, which reads each lesson, writes its
student notebook, its teacher's guide (Markdown and HTML), its nbgrader source notebook and its
handout (HTML, then PDFs), the nbgrader settings and a README for the kit, and returns a
:class:`KitReport` of what was written and what could not be done. The kit is written into a
fresh sibling folder and moved into place at the end (`_kit_folder`), so a failure part-way
(a full disk, a lesson that fails, Ctrl-C) leaves no partial kit.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import _, get_language, ngettext, resolve_language
from ..i18n import language as speaking
from ..validate import current_umask, write_atomic
from .guides import guide_html, guide_markdown
from .handouts import HandoutError, handout_html, pdf_unavailable, print_pdfs
from .nbgrader_course import nbgrader_config, nbgrader_notebook
from .notebooks import _lesson_paths, _read, exercise_cells, find_notebooks, student_notebook
from .notes import FORMULAS, LESSON_NOTES, PERIOD_MINUTES
from .quizzes import QUIZZES, quiz, quiz_markdown
from .rules_sheet import pdf_pages, rules_sheet_html

__all__ = ["KitReport", "export"]


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
        lines = [_("wrote {n} files to {root}:").format(n=len(self.files), root=self.root)]
        for folder in ("student", "teacher", "handouts", "nbgrader"):
            mine = [p for p in self.files if p.relative_to(self.root).parts[0] == folder]
            if mine:
                lines.append("  " + _("{folder}/: {n} files").format(folder=folder, n=len(mine)))
        lines += [_("warning: {problem}").format(problem=w) for w in self.warnings]
        return "\n".join(lines)


# ------------------------------------------------------------------ the whole kit
def _write(path: Path, text: str, report: KitReport) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text)
    report.files.append(path)


def _write_nb(path: Path, nb: Any, report: KitReport) -> None:
    import nbformat

    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.validate(nb)
    write_atomic(path, nbformat.writes(nb) + "\n")  # type: ignore[no-untyped-call]
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
    language: str | None = None,
) -> KitReport:
    """Write the teacher's kit for the lessons into `root`; return what was written.

    `root` gets ``student/``, ``teacher/``, ``handouts/`` and ``nbgrader/``. `notebooks` is
    the lessons' folder (default: ``notebooks/`` of the source checkout), `lessons` a subset
    of their stems. `handouts` is False to skip the handouts, or the stems to make them for;
    `execute` False exports them without running the lessons (no outputs, no figures); `pdf`
    also prints each handout to PDF when Playwright and Chromium are here (else a warning).
    `language` (``"en"`` or ``"pt_BR"``; default: the language in use) is the kit's: in
    Portuguese the lessons come from ``notebooks/pt_BR/`` (unless `notebooks` is given), the
    kit's own titles are translated and the handouts run with ``NOTHANKS_LAB_LANG`` set, so
    every widget and message in them speaks Portuguese.
    """
    lang = resolve_language(language)
    folder = find_notebooks(notebooks, lang)
    with speaking(lang):
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
        kit = Path(root)
        if kit.exists() and not kit.is_dir():
            raise ValueError(f"{str(kit)!r} exists and is not a folder")

        def build(work: Path) -> KitReport:
            return _build(work, folder, paths, handout_stems, execute, pdf, timeout, progress, lang)

        return _kit_folder(kit, build)


def _kit_folder(root: Path, build: Callable[[Path], KitReport]) -> KitReport:
    """Run `build` in a fresh sibling folder of `root`, then move what it wrote into `root`.

    A failure (a full disk, a lesson that does not run, Ctrl-C) removes the sibling and leaves
    `root` as it was: absent, or the previous kit untouched. A new kit is one rename; into an
    existing folder each file is renamed over its old version (the teacher's other files, such
    as nbgrader submissions, stay; a lesson's nbgrader source is replaced whole).
    """
    try:
        root.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{root.name}.partial-", dir=root.parent))
        os.chmod(work, 0o777 & ~current_umask())  # a folder like any other, once renamed
    except OSError as e:
        raise ValueError(
            f"root must be a folder that can be created and written; {str(root)!r}: "
            f"{e.strerror or e}"
        ) from None
    try:
        report = build(work)
        if not root.exists():
            os.rename(work, root)
        else:
            source = work / "nbgrader" / "source"
            for lesson in sorted(source.iterdir()) if source.is_dir() else []:
                shutil.rmtree(root / "nbgrader" / "source" / lesson.name, ignore_errors=True)
            for path in sorted(p for p in work.rglob("*") if not p.is_dir()):
                dest = root / path.relative_to(work)
                dest.parent.mkdir(parents=True, exist_ok=True)
                os.replace(path, dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report.files = [root / p.relative_to(work) for p in report.files]
    report.root = root
    return report


def _build(
    root: Path,
    folder: Path,
    paths: Sequence[Path],
    handout_stems: set[str],
    execute: bool,
    pdf: bool,
    timeout: int,
    progress: Callable[[str], None] | None,
    lang: str,
) -> KitReport:
    """Write the whole kit into `root` (a fresh folder: see `_kit_folder`)."""
    report = KitReport(root)
    say = progress or (lambda _msg: None)
    source = root / "nbgrader" / "source"
    for path in paths:
        stem = path.stem
        nb = _read(path)
        say(_("{lesson}: student notebook, teacher's guide, nbgrader source").format(lesson=stem))
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
            root / "teacher" / f"{stem}.html",
            guide_html(md, _("Teacher's guide: {lesson}").format(lesson=stem)),
            report,
        )
        if exercise_cells(nb):
            target = source / stem / path.name
            if target.parent.exists():
                shutil.rmtree(target.parent)
            _write_nb(target, nbgrader_notebook(nb), report)
        if stem in handout_stems:
            doing = _("executing") if execute else _("not executed")
            say(_("{lesson}: handout ({doing})").format(lesson=stem, doing=doing))
            # The lesson's kernel inherits the environment: it speaks the kit's language.
            before = os.environ.get("NOTHANKS_LAB_LANG")
            os.environ["NOTHANKS_LAB_LANG"] = lang
            try:
                page = handout_html(student, cwd=folder, execute=execute, timeout=timeout)
            except HandoutError as e:
                raise HandoutError(f"{stem}: {e}") from e.__cause__
            finally:
                if before is None:
                    os.environ.pop("NOTHANKS_LAB_LANG", None)
                else:
                    os.environ["NOTHANKS_LAB_LANG"] = before
            _write(root / "handouts" / f"{stem}.html", page, report)
        if stem in QUIZZES:
            q = quiz(stem)
            for suffix, key in (("", False), ("_key", True)):
                md = quiz_markdown(q, key=key)
                _write(root / "teacher" / f"quiz_{stem}{suffix}.md", md, report)
                _write(
                    root / "teacher" / f"quiz_{stem}{suffix}.html", guide_html(md, q.title), report
                )
    sheet = root / "teacher" / "rules_sheet.html"
    _write(sheet, rules_sheet_html(), report)
    pages = [p for p in report.files if p.parent.name == "handouts"]
    if pdf:
        why = pdf_unavailable()
        if why:
            report.warnings.append(_("no PDF handouts or rules sheet: {why}").format(why=why))
        else:
            say(_("printing the rules sheet and {n} handout(s) to PDF").format(n=len(pages)))
            report.files += print_pdfs([sheet, *pages])
            n = pdf_pages(sheet.with_suffix(".pdf"))
            if n != 1:
                report.warnings.append(f"the rules sheet's PDF has {n} pages, not 1")
    course = sorted(
        p.parts[-2] for p in report.files if len(p.parts) >= 3 and p.parts[-3] == "source"
    )
    if course:
        _write(root / "nbgrader" / "nbgrader_config.py", nbgrader_config(), report)
    readme = _kit_readme(paths, handout_stems, course)
    _write(root / "README.md", readme, report)
    _write(root / "index.html", guide_html(readme, _("No Thanks! lessons: teacher's kit")), report)
    for w in report.warnings:
        warnings.warn(w, stacklevel=2)
    return report


# The kit's README in each language: one text per language, the same placeholders.
_README: dict[str, str] = {
    "en": """# No Thanks! lessons: teacher's kit

Written by `nothanks-lab lessons export`. Lessons:

{lessons}

- `student/`: the notebooks to hand out; every exercise is unanswered and no cell reveals an
  answer. They need the package installed (`pip install nothanks_lab`).
- `teacher/`: a guide per lesson (Markdown and HTML): goals, timings for a {period}-minute
  period, answers with working, discussion prompts, common misconceptions.
- `teacher/rules_sheet.html` (and `rules_sheet.pdf` when Chromium is here): the rules on one
  printable A4 page, with a worked scoring example.
- Paper quizzes (about 10 minutes, pen and paper) with answer keys, one per class lesson:
{quiz_list}
- `handouts/`: each lesson run and saved as one HTML page that opens offline; print it from a
  browser, or use the PDF beside it when there is one. ({n_handouts} written.)
- `nbgrader/`: an nbgrader course holding every lesson with exercises: {in_course}.{left_out}
  From that folder, with the venv's nbgrader (no PATH change needed: the course's
  `nbgrader_config.py` puts the folder of nbgrader's Python, which holds `alembic`, on PATH):
  `/path/to/.venv/bin/nbgrader generate_assignment LESSON` makes the student version in
  `release/`; collect submissions into `submitted/STUDENT/LESSON/` and run
  `/path/to/.venv/bin/nbgrader autograde LESSON`.
""",
    "pt_BR": """# As aulas do jogo: kit do professor

Gerado por `nothanks-lab lessons export`. Aulas:

{lessons}

- `student/`: os cadernos para entregar aos alunos; nenhum exercício vem respondido e nenhuma
  célula revela uma resposta. Precisam do pacote instalado (`pip install nothanks_lab`).
- `teacher/`: um guia por aula (Markdown e HTML): objetivos, tempos para uma aula de {period}
  minutos, respostas com a resolução, perguntas para discussão, erros comuns.
- `teacher/rules_sheet.html` (e `rules_sheet.pdf` quando o Chromium está instalado): as regras
  numa página A4 para imprimir, com um exemplo de pontuação resolvido.
- Avaliações em papel (cerca de 10 minutos, lápis e papel) com gabarito, uma por aula da turma:
{quiz_list}
- `handouts/`: cada aula executada e salva como uma página HTML que abre sem internet; imprima
  pelo navegador, ou use o PDF ao lado quando houver. ({n_handouts} gerados.)
- `nbgrader/`: um curso do nbgrader com todas as aulas que têm exercícios: {in_course}.{left_out}
  Nessa pasta, com o nbgrader do venv (sem mudar o PATH: o `nbgrader_config.py` do curso põe
  no PATH a pasta do Python do nbgrader, onde está o `alembic`):
  `/caminho/do/.venv/bin/nbgrader generate_assignment AULA` gera a versão do aluno em
  `release/`; junte as entregas em `submitted/ALUNO/AULA/` e rode
  `/caminho/do/.venv/bin/nbgrader autograde AULA` (AULA é o nome da aula, como `01_play`;
  ALUNO, o nome de cada aluno).
""",
}


def _kit_readme(paths: Sequence[Path], handout_stems: set[str], course: Sequence[str]) -> str:
    lessons = "\n".join(f"- `{p.stem}`" for p in paths)
    without = [p.stem for p in paths if p.stem not in course]
    quizzes = [p.stem for p in paths if p.stem in QUIZZES]
    in_course = ", ".join(f"`{s}`" for s in course) or _("none")
    left_out = (
        " "
        + ngettext(
            "Not in it: {lessons}: this lesson has no exercise cells to grade (a lesson gets "
            "into the course by having exercises, nothing else).",
            "Not in it: {lessons}: these lessons have no exercise cells to grade (a lesson gets "
            "into the course by having exercises, nothing else).",
            len(without),
        ).format(lessons=", ".join(f"`{s}`" for s in without))
        if without
        else ""
    )
    quiz_list = "\n".join(
        "  - "
        + _("`teacher/quiz_{stem}.html` (`.md`), key `teacher/quiz_{stem}_key.html`").format(stem=s)
        for s in quizzes
    )
    return _README[get_language()].format(
        lessons=lessons,
        period=PERIOD_MINUTES,
        quiz_list=quiz_list or "  - " + _("none for these lessons"),
        n_handouts=len(handout_stems),
        in_course=in_course,
        left_out=left_out,
    )

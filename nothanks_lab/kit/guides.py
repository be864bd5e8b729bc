"""The teacher's guides: one per lesson, in Markdown and as a self-contained HTML page.

A guide holds the lesson's goals, its timings for a class period, every exercise's exact answer
with the forms ``check_answer`` accepts (the rule students are graded by) and its working
(computed now, :mod:`nothanks_lab.kit.solutions`), discussion prompts and common misconceptions.
The notes come from :data:`~nothanks_lab.kit.notes.LESSON_NOTES`; a lesson
without notes gets a generic guide built from its headings.
"""

from __future__ import annotations

import html
from typing import Any

from ..i18n import _, get_language
from ..render.tables import markdown_table
from .notebooks import _CHECK, _source, exercise_cells
from .notes import PERIOD_MINUTES, LessonNotes
from .notes_pt import lesson_notes
from .solutions import solution

__all__ = ["guide_html", "guide_markdown"]


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
        (each + (1 if i < PERIOD_MINUTES - each * n else 0), s or _("the lesson"))
        for i, s in enumerate(sections or [_("the lesson")])
    )
    return LessonNotes(
        title=title,
        goals=(_("see the learning goals at the top of the notebook"),),
        timings=timings,
        prompts=(_("What surprised you in this lesson, and why?"),),
        misconceptions=(_("(no notes yet for this lesson)"),),
    )


def guide_markdown(stem: str, nb: Any, notes: LessonNotes | None = None) -> str:
    """The teacher's guide of lesson `stem` (notebook `nb`) as Markdown.

    `notes` defaults to :data:`~.notes.LESSON_NOTES` (in the language in use); the answers are
    computed by the package now.
    """
    if notes is None:
        notes = lesson_notes(stem) or _generic_notes(stem, nb)
    lines = [
        "# " + _("Teacher's guide: {lesson}").format(lesson=notes.title),
        "",
        _("Notebook: `{stem}.ipynb`").format(stem=stem),
        "",
    ]
    lines += ["## " + _("Goals"), "", _("After this lesson students can:"), ""]
    lines += [f"{i}. {g}" for i, g in enumerate(notes.goals, 1)]
    total = sum(m for m, _ in notes.timings)
    timings = markdown_table([_("minutes"), _("activity")], [[str(m), a] for m, a in notes.timings])
    lines += ["", "## " + _("Timings ({total} minutes)").format(total=total), "", timings]
    if notes.further:
        lines += ["", _("**Going further (optional).** {text}").format(text=notes.further)]
    lines += ["", "## " + _("Answers with working"), ""]
    cells = exercise_cells(nb)
    if not cells:
        lines.append(_("This lesson has no self-check exercises."))
    from ..lessons import EXERCISES, accepted_answers

    # A key checked outside an exercise cell is a worked example: the lesson shows its answer.
    asked = {ex.key for ex in cells}
    worked = [
        m["key"]
        for c in nb.cells
        if c.cell_type == "code"
        for m in _CHECK.finditer(_source(c))
        if m["key"] not in asked and m["key"] in EXERCISES
    ]
    items = [(_("Exercise {n}").format(n=n), ex.key) for n, ex in enumerate(cells, 1)]
    items += [(_("Worked example in the lesson"), key) for key in dict.fromkeys(worked)]
    for label, key in items:
        s = solution(key)
        accepted = accepted_answers(key)
        lines += [
            f"### {label}: `{key}`",
            "",
            _("**Question.** {text}").format(text=s.question),
            "",
            _("**Answer.** {text}").format(text=s.text),
            "",
            _("**Graded by `check_answer`.** {accepted}; anything else is wrong.").format(
                accepted=accepted[0].upper() + accepted[1:]
            ),
            "",
            _("**Working.** {text}").format(text=s.hint),
        ]
        if s.formula:
            lines += ["", _("Formula: `{formula}`").format(formula=s.formula)]
        lines.append("")
    lines += ["## " + _("Discussion prompts"), ""]
    lines += [f"- {p}" for p in notes.prompts]
    lines += ["", "## " + _("Common misconceptions"), ""]
    lines += [f"- {m}" for m in notes.misconceptions]
    return "\n".join(lines) + "\n"


_GUIDE_CSS = """
body { font-family: system-ui, sans-serif; max-width: 46em; margin: 2em auto; padding: 0 1em;
       line-height: 1.45; color: #222; }
table { border-collapse: collapse; } td, th { border: 1px solid #999; padding: .25em .6em; }
code { background: #f2f2f2; padding: 0 .2em; }
h3 { margin-top: 1.4em; } @media print { body { margin: 0; max-width: none; } }
"""


def guide_html(markdown: str, title: str | None = None) -> str:
    """A guide's Markdown as one self-contained HTML page (no scripts, nothing fetched)."""
    import mistune

    body = mistune.create_markdown(plugins=["table"])(markdown)
    title = _("Teacher's guide") if title is None else title
    lang = get_language().replace("_", "-")
    return (
        f"<!DOCTYPE html>\n<html lang='{lang}'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_GUIDE_CSS}</style></head>"
        f"<body>\n{body}</body></html>\n"
    )

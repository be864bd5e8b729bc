"""The Portuguese lessons (``notebooks/pt_BR/``): the English lessons, only the prose translated.

A translated lesson keeps the English notebook's cells in the same order, with the same ids,
types and tags; its exercises check the same keys; its code is the English code token for token
once comments and string literals are set aside, except the one line its first code cell adds,
``nt.set_language("pt_BR")`` (with the ``import nothanks_lab as nt`` it needs), so that what the
package prints is in Portuguese too. Its prose is really translated: no markdown cell is left
equal to the English one, and none still uses the English words of the game. The minutes, the
enrichment note and the "no answer given away" rules are checked in
``tests/test_lesson_structure.py``, next to the English ones.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import nbformat
import pytest
from notebook_runs import LessonRuns, own_seed

from nothanks_lab.kit.notebooks import exercise_cells, is_lesson

ROOT = Path(__file__).resolve().parent.parent
EN = ROOT / "notebooks"
PT = EN / "pt_BR"
# The class lessons, translated first; 06 and 08 (enrichment) follow when they are done.
CLASS_LESSONS = [
    "01_play",
    "02_chances_under_removed_cards",
    "03_runs_exact_vs_simulated",
    "04_chip_value",
    "04b_take_or_pass",
    "05_your_own_bot",
    "07_bot_lab",
]
PT_STEMS = sorted(p.stem for p in PT.glob("*.ipynb") if is_lesson(p))
# The lines a Portuguese lesson's first code cell adds to the English one, and only there.
ADDED = {"import nothanks_lab as nt", 'nt.set_language("pt_BR")'}
# English words of the game a Portuguese text must not use (outside `code`).
ENGLISH = re.compile(
    r"\b(the|and|chips?|cards?|Take|No Thanks!|your turn|seat|round|match|hints?)\b",
    re.IGNORECASE,
)

# English words of a comment: the game's words above, and common ones no Portuguese word is.
ENGLISH_COMMENT = re.compile(
    rf"{ENGLISH.pattern}|\b(is|of|to|in|at|on|every|first|while|both|never|more|than)\b",
    re.IGNORECASE,
)

# Python's own number formats in an f-string field (`{p:.4f}`, `{n:,}`, `{x:+.2f}`, `{s:.1%}`),
# which print the English way (0.1791, 28,048,800) whatever the language in use.
PYTHON_NUMBER_FORMAT = re.compile(r":[<>^]?\d*\+?(?:\.\d+[f%]|,)\}")
# A decimal written with a point (0.73, 38.6); not 20.000, which is twenty thousand in Portuguese.
DECIMAL_POINT = re.compile(r"(?<![\w.])(0\.\d+|\d+\.(\d{1,2}|\d{4,}))(?![\w.])")


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def code_tokens(source: str) -> list[tuple[int, str]]:
    """The tokens of `source` that are code: comments, strings and layout left out."""
    skip = {
        tokenize.COMMENT,
        tokenize.STRING,
        tokenize.NL,
        tokenize.NEWLINE,
        tokenize.INDENT,
        tokenize.DEDENT,
        tokenize.ENDMARKER,
        getattr(tokenize, "FSTRING_MIDDLE", -1),
    }
    # IPython's `%magic` and `!shell` lines are not Python: compared as written.
    lines = [ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!"))]
    magics = [(0, ln.strip()) for ln in source.splitlines() if ln.lstrip().startswith(("%", "!"))]
    toks = tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline)
    out = list(magics)
    for t in toks:
        if t.type == tokenize.STRING and re.match(r"[rRbB]*[fF]", t.string):
            # Python < 3.12 reads an f-string as one token: its {fields} are code.
            fields = re.findall(r"\{([^{}]*)\}", t.string.replace("{{", "").replace("}}", ""))
            out += [(tokenize.STRING, f) for f in fields]
        elif t.type not in skip:
            out.append((t.type, t.string))
    return out


def without_comments(source: str) -> list[str]:
    """The tokens of `source` but its comments and layout, strings kept as written."""
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    toks = tokenize.generate_tokens(io.StringIO(source + "\n").readline)
    return [t.string for t in toks if t.type not in skip]


def comments(source: str) -> str:
    """The comments of `source`, one a line."""
    toks = tokenize.generate_tokens(io.StringIO(source + "\n").readline)
    return "\n".join(t.string for t in toks if t.type == tokenize.COMMENT)


def without_added_lines(source: str) -> str:
    return "\n".join(ln for ln in source.splitlines() if ln.split("  #")[0].strip() not in ADDED)


def prose(markdown: str) -> str:
    """A markdown cell's text without its code (fenced blocks and `inline code`)."""
    return re.sub(r"`[^`]*`", " ", re.sub(r"```.*?```", " ", markdown, flags=re.DOTALL))


def test_the_class_lessons_are_translated() -> None:
    missing = [s for s in CLASS_LESSONS if not (PT / f"{s}.ipynb").exists()]
    assert not missing, f"notebooks/pt_BR/ lacks {missing}"
    english = {p.stem for p in EN.glob("*.ipynb") if is_lesson(p)}
    assert set(PT_STEMS) <= english, "a Portuguese lesson keeps its English lesson's file name"


def test_code_tokens_sees_code_not_words() -> None:
    """The comparison below ignores what a student reads and nothing else."""
    en = 'x = f(2)  # two\nprint(f"{x} cards", "and")\n'
    assert code_tokens(en) == code_tokens('x = f(2)  # dois\nprint(f"{x} cartas", "e")\n')
    assert code_tokens(en) != code_tokens('x = f(3)  # dois\nprint(f"{x} cartas", "e")\n')
    assert code_tokens(en) != code_tokens('x = f(2)\nprint(f"{x + 1} cartas", "e")\n')


@pytest.mark.parametrize("stem", PT_STEMS)
def test_same_cells_ids_tags_and_exercises(stem: str) -> None:
    en, pt = _read(EN / f"{stem}.ipynb"), _read(PT / f"{stem}.ipynb")
    assert [c.id for c in pt.cells] == [c.id for c in en.cells], stem
    assert [c.cell_type for c in pt.cells] == [c.cell_type for c in en.cells], stem
    for a, b in zip(en.cells, pt.cells, strict=True):
        assert a.metadata.get("tags", []) == b.metadata.get("tags", []), (stem, a.id)
        assert a.metadata.get("jupyter", {}) == b.metadata.get("jupyter", {}), (stem, a.id)
    assert [(e.index, e.key, e.variable) for e in exercise_cells(pt)] == [
        (e.index, e.key, e.variable) for e in exercise_cells(en)
    ], stem


@pytest.mark.parametrize("stem", PT_STEMS)
def test_same_code_but_the_language_line(stem: str) -> None:
    en, pt = _read(EN / f"{stem}.ipynb"), _read(PT / f"{stem}.ipynb")
    code = [(a, b) for a, b in zip(en.cells, pt.cells, strict=True) if a.cell_type == "code"]
    first_en, first_pt = code[0]
    assert first_pt.source.split("\n", 1)[0].startswith("SEED = "), "the SEED rule"
    assert (
        first_en.source.split("\n", 1)[0].split("#")[0]
        == (first_pt.source.split("\n", 1)[0].split("#")[0])
    ), f"{stem}: the same SEED"
    added = [ln for ln in first_pt.source.splitlines() if ln.split("  #")[0].strip() in ADDED]
    assert [ln.split("  #")[0].strip() for ln in added] == sorted(ADDED), stem
    for i, (a, b) in enumerate(code):
        src = without_added_lines(b.source) if i == 0 else b.source
        if i:
            assert 'set_language("pt_BR")' not in src, (stem, b.id)
        assert code_tokens(src) == code_tokens(a.source), f"{stem}: cell {b.id} changes code"
        if "check" in a.metadata.get("tags", []):
            # A check cell keeps its strings too; only its comments are translated.
            assert without_comments(b.source) == without_comments(a.source), (stem, b.id)


@pytest.mark.parametrize("stem", PT_STEMS)
def test_the_check_cells_comments_are_translated(stem: str) -> None:
    """A teacher opening a check cell reads why it holds in Portuguese."""
    en, pt = _read(EN / f"{stem}.ipynb"), _read(PT / f"{stem}.ipynb")
    for a, b in zip(en.cells, pt.cells, strict=True):
        if "check" not in a.metadata.get("tags", []) or not comments(a.source):
            continue
        assert comments(b.source) != comments(a.source), f"{stem}: cell {b.id} left in English"
        words = sorted({m.group(0) for m in ENGLISH_COMMENT.finditer(comments(b.source))})
        assert not words, f"{stem}: check cell {b.id} comments with English words {words}"


@pytest.mark.parametrize("stem", PT_STEMS)
def test_the_prose_is_translated(stem: str) -> None:
    en, pt = _read(EN / f"{stem}.ipynb"), _read(PT / f"{stem}.ipynb")
    for a, b in zip(en.cells, pt.cells, strict=True):
        if a.cell_type != "markdown":
            continue
        assert b.source != a.source, f"{stem}: markdown cell {a.id} left in English"
        words = sorted({m.group(0) for m in ENGLISH.finditer(prose(b.source))})
        assert not words, f"{stem}: markdown cell {a.id} uses English words {words}"
        # Decimal numbers in the prose use a comma (0,73); `0.42` in code stays Python.
        assert not DECIMAL_POINT.search(prose(b.source)), (stem, a.id)


@pytest.mark.parametrize("stem", PT_STEMS)
def test_printed_numbers_go_through_the_formatters(stem: str) -> None:
    """A lesson prints numbers and yes/no with fmt_int/fmt_decimal/fmt_percent/fmt_bool."""
    for cell in _read(PT / f"{stem}.ipynb").cells:
        if cell.cell_type != "code":
            continue
        fields = [t for k, t in code_tokens(cell.source) if k == tokenize.STRING]
        python_formats = [f for f in fields if PYTHON_NUMBER_FORMAT.search("{" + f + "}")]
        assert not python_formats, f"{stem}: cell {cell.id} formats {python_formats}"
        printed_round = re.search(r"print\(.*\bround\(", cell.source)
        assert not printed_round, f"{stem}: cell {cell.id} prints round()"


def _printed(nb: nbformat.NotebookNode) -> str:
    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            if o.get("output_type") == "stream":
                out.append(o.get("text", ""))
            elif set(o.get("data", {})) == {"text/plain"}:  # a value shown as text, no widget
                out.append(o["data"]["text/plain"])
    return "\n".join(out)


@pytest.mark.slow
@pytest.mark.parametrize("stem", ["01_play", "02_chances_under_removed_cards", "04_chip_value"])
def test_what_a_lesson_prints_reads_as_portuguese(stem: str, lesson_runs: LessonRuns) -> None:
    """Run with its own seed, a lesson prints 28.048.800 and 0,1791, never 0.1791 or True."""
    path = PT / f"{stem}.ipynb"
    text = _printed(lesson_runs.get(path, own_seed(path), variants=False))
    assert text.strip(), stem
    assert not DECIMAL_POINT.findall(text), (stem, DECIMAL_POINT.findall(text)[:5])
    assert not re.findall(r"\b(True|False)\b|\d,\d{3},\d{3}\b", text), stem  # 28,048,800
    # An interval's ends with decimal commas are split by "; " ([0,25; 0,50], not [0,25, 0,50]).
    assert not re.findall(r"\[[-+]?\d+,\d+, [-+]?\d", text), stem
    if stem.startswith("02"):
        assert "28.048.800" in text and re.search(r"\b0,\d{4}\b", text), text[:2000]


# The game's proper name is "No Thanks!" (as Brazilian editions print it); «Não, obrigado!» is
# only the move. A heading, a title or "jogue/aulas de/o jogo" before it would name the game.
# Pages the check reads for English words (the play table, the app page, the kit's
# rules sheet and README) name no game at all: "No Thanks!" there is the English move button.
GAME_NAMED_AS_THE_MOVE = re.compile(
    r"(^#+ |Jogue |Aulas de |jogo |^)\**«?Não, obrigado!»?\** (—|-|:)", re.M
)


def test_the_game_is_named_no_thanks_and_the_move_nao_obrigado() -> None:
    from nothanks_lab import render
    from nothanks_lab.i18n import _, language
    from nothanks_lab.kit.build import _README
    from nothanks_lab.kit.notes_pt import LESSON_NOTES_PT
    from nothanks_lab.kit.rules_sheet import rules_sheet_markdown

    texts = {"kit README": _README["pt_BR"]}
    with language("pt_BR"):
        texts["table title"] = render.title_html(1, 1, seed=5, difficulty="easy")
        texts["rules sheet"] = rules_sheet_markdown()
        texts["kit title"] = _("No Thanks! lessons: teacher's kit")
        texts["rules title"] = _("No Thanks! — the rules")
    texts |= {f"notes {k}": v.title for k, v in LESSON_NOTES_PT.items()}
    for p in sorted(PT.glob("*.ipynb")):
        for cell in _read(p).cells:
            if cell.cell_type == "markdown":
                texts[f"{p.stem} {cell.id}"] = prose(cell.source)
    named = {k: t for k, t in texts.items() if GAME_NAMED_AS_THE_MOVE.search(t)}
    assert named == {}, named
    unnamed = ["table title", "rules sheet", "kit title", "rules title", "play_table_app a3c1f0d2"]
    for k in unnamed:
        assert "Não, obrigado!" not in texts[k].split("\n")[0] and "No Thanks!" not in texts[k], k
    assert "<h2 style='margin:.2em 0'>Mesa de jogo</h2>" in texts["table title"]
    assert "Não, obrigado!" in texts["rules sheet"]  # the move, explained
    assert "No Thanks!" in texts["01_play 0"] and "No Thanks!" in texts["04_chip_value 0"]
    with language("en"):
        assert "<h2 style='margin:.2em 0'>No Thanks!</h2>" in render.title_html(
            1, 1, seed=5, difficulty="easy"
        )

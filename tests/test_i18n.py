"""The languages: catalogs complete and in step with the code, the choice of language, numbers.

The Portuguese catalog must translate every message id of the template (no empty or fuzzy
entry) with the same format placeholders; the template must hold exactly the strings the
package marks (`_`, `N_`, `ngettext` literals, found with `ast`, so calls inside f-strings
count too) and what Babel extracts; the language is chosen in the documented order; numbers
are formatted for the locale; a play table in Portuguese shows none of the English UI words
for a whole played round (in the kernel and, in a real browser, on the Portuguese app page).
"""

from __future__ import annotations

import ast
import gettext
import re
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import nothanks_lab as nt
from nothanks_lab import Action, i18n
from nothanks_lab.i18n import _, fmt_decimal, fmt_int, fmt_percent, language
from nothanks_lab.lessons.keys import EXERCISES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "nothanks_lab"
POT = PACKAGE / "locale" / "nothanks_lab.pot"
PO = PACKAGE / "locale" / "pt_BR" / "LC_MESSAGES" / "nothanks_lab.po"
APP = ROOT / "notebooks" / "pt_BR" / "play_table_app.ipynb"

#: English words of the play table that must not show on a Portuguese page (issue 29).
ENGLISH_UI = (
    "Take",
    "No Thanks!",
    "chips",
    "cards",
    "Your turn",
    "Final scores",
    "Play again",
    "Hint",
    "Review",
    "heuristic",  # a bot's name shown as a word (the Brazilian teacher trial found it)
)

PLACEHOLDER = re.compile(
    r"\{[A-Za-z_][A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}|%\([A-Za-z_]+\)[a-z]|%[sdif]"
)


def read_catalog(path: Path, locale: str | None = None) -> Any:
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=locale)


def ids(message: Any) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)


# ------------------------------------------------------------------ the catalogs
def test_every_message_id_has_a_portuguese_translation() -> None:
    pot, po = read_catalog(POT), read_catalog(PO, "pt_BR")
    template = [m for m in pot if m.id]
    assert len(template) > 100  # the play table, its panels, review and setup at least
    missing, fuzzy = [], []
    for m in template:
        t = po.get(m.id, m.context)  # a pgettext entry is found under its context
        strings = () if t is None else (t.string if isinstance(t.string, tuple) else (t.string,))
        if t is None or not strings or not all(s.strip() for s in strings):
            missing.append(m.id)
        elif t.fuzzy:
            fuzzy.append(m.id)
    assert missing == [] and fuzzy == [], (missing, fuzzy)
    assert not po.fuzzy  # a fuzzy header would make gettext tools skip the catalog


def test_placeholders_are_the_same_in_both_languages() -> None:
    po = read_catalog(PO, "pt_BR")
    wrong = []
    for m in po:
        if not m.id:
            continue
        sources = ids(m)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for k, text in enumerate(strings):
            source = sources[min(k, len(sources) - 1)]
            if Counter(PLACEHOLDER.findall(text)) != Counter(PLACEHOLDER.findall(source)):
                wrong.append((source, text))
    assert wrong == []


def test_a_changed_placeholder_is_caught() -> None:
    """The check above can fail: a translation that renames {card} differs."""
    a, b = "took {card} (+{n} chips)", "pegou o {carta} (+{n} fichas)"
    assert Counter(PLACEHOLDER.findall(a)) != Counter(PLACEHOLDER.findall(b))
    assert PLACEHOLDER.findall("%(x)d and %s, {name!r:>4}") == ["%(x)d", "%s", "{name!r:>4}"]


def marked_strings() -> set[str]:
    """Every literal the package passes to `_`, `gettext`, `N_`, `ngettext` or, as the message
    after its context, `pgettext` (f-strings too)."""
    found: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            where = {"_": (0, 1), "gettext": (0, 1), "N_": (0, 1), "ngettext": (0, 2)}
            start, stop = {**where, "pgettext": (1, 2)}.get(node.func.id, (0, 0))
            for arg in node.args[start:stop]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
    return found


def test_the_template_holds_exactly_the_marked_strings() -> None:
    in_template = {i for m in read_catalog(POT) if m.id for i in ids(m)}
    marked = marked_strings()
    assert marked - in_template == set(), "run pybabel extract (docs/howto/add-a-language.md)"
    assert in_template - marked == set(), "the template holds strings the code no longer has"


def test_babel_extracts_what_the_template_holds() -> None:
    from babel.messages.extract import extract_from_dir

    extracted = {
        i
        for _f, _line, msg, _c, _ctx in extract_from_dir(PACKAGE, [("**.py", "python")])
        for i in (msg if isinstance(msg, tuple) else (msg,))
        if i
    }
    in_template = {i for m in read_catalog(POT) if m.id for i in ids(m)}
    assert extracted == in_template


def test_compiled_catalog_loads_with_plain_gettext(tmp_path: Path) -> None:
    (mo,) = i18n.write_catalogs(tmp_path)
    assert mo == tmp_path / "pt_BR" / "LC_MESSAGES" / "nothanks_lab.mo"
    t = gettext.translation("nothanks_lab", localedir=tmp_path, languages=["pt_BR"])
    assert t.gettext("Take") == "Pegar" and t.gettext("No Thanks!") == "Não, obrigado!"
    assert t.ngettext("pot: <b>{n}</b> chip", "pot: <b>{n}</b> chips", 1).endswith("ficha")
    assert t.ngettext("pot: <b>{n}</b> chip", "pot: <b>{n}</b> chips", 0).endswith(
        "fichas"
    )  # zero is plural
    assert t.ngettext("pot: <b>{n}</b> chip", "pot: <b>{n}</b> chips", 2).endswith("fichas")


# ------------------------------------------------------------------ choosing the language
@pytest.fixture
def clean_language(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No language chosen and no language variables: each test sets what it needs."""
    monkeypatch.setattr(i18n, "_chosen", None)
    for var in ("NOTHANKS_LAB_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def test_the_choice_order(clean_language: pytest.MonkeyPatch) -> None:
    mp = clean_language
    assert nt.get_language() == "en"  # nothing set: English
    mp.setenv("LANG", "pt_BR.UTF-8")
    assert nt.get_language() == "pt_BR"  # the locale
    mp.setenv("LANG", "de_DE.UTF-8")
    assert nt.get_language() == "en"
    mp.setenv("NOTHANKS_LAB_LANG", "pt_BR")
    assert nt.get_language() == "pt_BR"  # the variable wins over the locale
    nt.set_language("en")
    assert nt.get_language() == "en"  # set_language wins over the variable
    assert i18n.resolve_language("pt_BR") == "pt_BR"  # an explicit argument wins over all
    with language("pt_BR"):
        assert _("Take") == "Pegar"
        with language("en"):
            assert _("Take") == "Take"
    assert _("Take") == "Take"


def test_bad_languages_say_what_is_allowed(clean_language: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match=r"lang must be one of 'en', 'pt_BR'; got 'fr'"):
        nt.set_language("fr")
    with pytest.raises(ValueError, match="language must be one of"):
        nt.PlayTable(3, seed=1, bot_delay=0, language="Portuguese")
    # A language the environment asks for but the package does not speak: English, and a
    # warning naming the variable and the languages there are (the trial's `es` traceback).
    clean_language.setenv("NOTHANKS_LAB_LANG", "klingon")
    clean_language.setattr(i18n, "_warned", set())
    with pytest.warns(UserWarning, match="NOTHANKS_LAB_LANG must be one of 'en', 'pt_BR'"):
        assert nt.get_language() == "en"
    assert i18n.check_language("pt-BR") == "pt_BR"


def test_numbers_for_a_person() -> None:
    assert (fmt_decimal(0.73, 2), fmt_percent(0.73), fmt_percent(0.125, 1)) == (
        "0.73",
        "73%",
        "12.5%",
    )
    with language("pt_BR"):
        assert fmt_decimal(0.73, 2) == "0,73"
        assert fmt_percent(0.73) == "73%"
        assert fmt_percent(0.125, 1) == "12,5%"
        assert fmt_percent(-0.031, 1, sign=True) == "-3,1%"
        assert fmt_decimal(2.0, 1, sign=True) == "+2,0"
        assert fmt_int(12345) == "12.345"
    assert (fmt_decimal(2.0, 1, sign=True), fmt_int(12345)) == ("+2.0", "12,345")


def test_english_output_is_the_source_text(clean_language: pytest.MonkeyPatch) -> None:
    from nothanks_lab.engine import Event
    from nothanks_lab.render import move_words

    e = Event(1, Action.TAKE, 27, 3)
    assert (move_words(e), e.describe()) == ("took 27 (+3 chips)", "Seat 1 takes 27 and 3 chips")
    with language("pt_BR"):
        assert (move_words(e), e.describe()) == (
            "pegou o 27 (+3 fichas)",
            "Lugar 1 pega o 27 e 3 fichas",
        )


# ------------------------------------------------------------------ the play table
def widget_texts(root: Any) -> str:
    """Everything a widget tree shows: HTML values, labels, titles, options (markup removed)."""
    import ipywidgets as W

    texts: list[str] = []

    def walk(w: Any) -> None:
        # A dropdown shows its options' labels, never its value (a registry name in code).
        shown = ("description",) if isinstance(w, W.Dropdown) else ("value", "description")
        for attr in shown:
            v = getattr(w, attr, None)
            if isinstance(v, str):
                texts.append(v)
        if isinstance(w, W.Accordion):
            texts.extend(w.get_title(i) or "" for i in range(len(w.children)))
        if isinstance(w, W.Dropdown):
            texts.extend(str(o[0]) if isinstance(o, tuple) else str(o) for o in w.options)
        for child in getattr(w, "children", ()):
            walk(child)

    walk(root)
    shown = re.sub(r"<style>.*?</style>", " ", "\n".join(texts), flags=re.S)  # CSS is not read
    return re.sub(r"<[^>]+>", " ", shown)


def english_words(text: str) -> list[str]:
    """The words of `ENGLISH_UI` in `text`, as whole words (a class name like HeuristicBot in
    the method's details, or ``p_take`` in code, is not the English word)."""
    return [
        w for w in ENGLISH_UI if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.IGNORECASE)
    ]


def play_out(t: Any) -> None:
    """Say No thanks! once, then take (the person's moves), until the round is over."""
    passed = False
    while t.phase == "human":
        t._last_move_at = -float("inf")  # not a double click: the test clicks at once
        move = Action.PASS if not passed and t.view.can_pass else Action.TAKE
        passed = True
        assert t.play(move)


def test_a_portuguese_round_shows_no_english_ui_word(clean_language: pytest.MonkeyPatch) -> None:
    t = nt.PlayTable(3, seed=5, bot_delay=0, language="pt_BR")
    assert (t.take_button.description, t.pass_button.description) == ("Pegar", "Não, obrigado!")
    assert t.language == "pt_BR"
    t.hint_toggle.value = True  # the hints panel and the evaluation, on the person's turn
    assert "Dicas" in t.hints.value and "Como isto é calculado?" in t.hints.value
    during = widget_texts(t.widget)
    play_out(t)
    assert t.phase in ("round_over", "match_over")
    after = widget_texts(t.widget)
    assert "Placar final" in after and "Sua vez" in during
    assert english_words(during) == [] and english_words(after) == [], (during, after)
    assert all("Lugar 0 (você)" in line for line in t.log_lines if line.startswith("Lugar 0"))
    # The English table beside it is untouched by the Portuguese one.
    en = nt.PlayTable(3, seed=5, bot_delay=0)
    assert (en.take_button.description, en.pass_button.description) == ("Take", "No Thanks!")
    assert "Your turn" in en.status.value


def test_the_table_keeps_its_language_on_a_timer_thread(
    clean_language: pytest.MonkeyPatch,
) -> None:
    """A bot's delayed move redraws from a timer thread, outside any language block."""
    t = nt.PlayTable(3, seed=5, bot_delay=None, language="pt_BR")
    t._last_move_at = -float("inf")
    t.play(Action.PASS if t.view.can_pass else Action.TAKE)
    assert t.phase == "bot"
    thread = threading.Thread(target=t._on_timer, args=(t.session,))
    thread.start()
    thread.join()
    assert "pensando" in t.status.value or "Sua vez" in t.status.value
    assert english_words(widget_texts(t.widget)) == []


@pytest.mark.slow
def test_a_portuguese_review_shows_no_english_ui_word(clean_language: pytest.MonkeyPatch) -> None:
    t = nt.PlayTable(3, seed=5, bot_delay=0, language="pt_BR", review_rollouts=4)
    play_out(t)
    t.review_round(background=False)
    text = widget_texts(t.widget)
    assert "Análise — Lugar 0 (você)" in text and "Analisada em" in text
    assert "de Lugar" not in text  # "de" before a seat's name reads wrong: a dash instead
    assert english_words(text) == [], text
    t.replay_panel.go(0)
    assert "A distribuição" in t.replay_panel.view.value


# ------------------------------------------------------------------ the app page in a browser
@pytest.mark.browser
@pytest.mark.slow
def test_the_portuguese_app_page_in_a_browser(tmp_path: Path) -> None:
    import test_browser as tb  # its server helper (a module import: its tests are not re-run)
    from browser_support import CLICK_GAP_S, chromium_page

    with tb.serve(APP, tmp_path / "voila.log") as url, chromium_page() as (page, offline, _):
        page.goto(url, timeout=45_000)
        take = page.get_by_role("button", name="Pegar", exact=True)
        no_thanks = page.get_by_role("button", name="Não, obrigado!", exact=True)
        take.wait_for(timeout=45_000)
        no_thanks.wait_for(timeout=5_000)
        size = page.viewport_size
        page.set_viewport_size({"width": 390, "height": 844})  # a phone: «Não, obriga…» was cut
        page.wait_for_timeout(500)
        cut_on_a_phone = page.evaluate(
            "() => [...document.querySelectorAll('button')]"
            ".filter(b => b.getClientRects().length && b.scrollWidth > b.clientWidth + 1)"
            ".map(b => b.innerText)"
        )
        assert cut_on_a_phone == [], cut_on_a_phone
        if size:
            page.set_viewport_size(size)
        final = page.locator(".nothanks-final")
        seen: list[str] = []
        passed, last_click = False, 0.0
        deadline = time.monotonic() + 90
        while "Placar final" not in final.inner_text():
            assert time.monotonic() < deadline, "the round did not end within 90 s"
            page.wait_for_function(
                """() => {
                    const f = document.querySelector('.nothanks-final');
                    if (f && f.innerText.includes('Placar final')) return true;
                    return [...document.querySelectorAll('button')].some(
                        b => b.innerText.trim() === 'Pegar' && !b.disabled);
                }""",
                timeout=30_000,
            )
            if "Placar final" in final.inner_text():
                break
            seen.append(page.locator("body").inner_text())
            time.sleep(max(0.0, last_click + CLICK_GAP_S - time.monotonic()))
            if not passed and no_thanks.is_enabled():
                no_thanks.click()
                passed = True
            else:
                take.click()
            last_click = time.monotonic()
            time.sleep(CLICK_GAP_S)
        seen.append(page.locator("body").inner_text())
        assert passed and "Sua vez" in seen[0]
        for text in seen:
            assert english_words(text) == [], text
        # Portuguese labels are longer: no button may cut its label ("Abrir uma rodad").
        cut = page.evaluate(
            "() => [...document.querySelectorAll('button, .widget-upload')]"
            ".filter(b => b.getClientRects().length && b.scrollWidth > b.clientWidth + 1)"
            ".map(b => b.innerText)"
        )
        assert cut == [], cut
        assert offline.foreign == [], offline.foreign


# ------------------------------------------------------------------ the other widgets, feedback
def test_the_advisor_speaks_portuguese(clean_language: pytest.MonkeyPatch) -> None:
    from nothanks_lab.widgets import Advisor

    a = Advisor(3, my_seat=0, hint_budget_s=0.05, language="pt_BR")
    a.enter_card("27")  # my turn, with a card face up: the advice shows
    assert a.take_button.description == "Lugar 0 (você) pega"
    assert "Dicas" in a.hints.value
    text = widget_texts(a.widget)
    assert "Conselheiro" in text and english_words(text) == [], text
    a.take_button.click()
    assert "Lugar 0 (você) pega o 27" in a.log.value
    en = Advisor(3, my_seat=0, hint_budget_s=0.05)
    assert en.undo_button.description == "Undo"


def test_the_explorers_speak_portuguese(clean_language: pytest.MonkeyPatch) -> None:
    from nothanks_lab.widgets import ChipValueExplorer, ProbabilityExplorer

    c = ChipValueExplorer(card=28, pot=2, hand=(27, 29), language="pt_BR")
    assert "Contando só esta jogada" in c.answer.value and "Pegar" in c.answer.value
    assert "fichas na carta (pote)" in c.figure.html
    c.pot.value = 3  # a redraw from a slider's own event keeps the language
    assert "Contando só esta jogada" in c.answer.value
    p = ProbabilityExplorer(hand=[29], language="pt_BR")
    assert "Quais cartas ainda podem sair?" in p.in_play.html
    assert [o[0] for o in p.mode.options] == ["na minha mão", "pegas por outros", "desmarcar"]
    assert english_words(widget_texts(c.widget) + widget_texts(p.widget)) == []


def test_check_answer_feedback_in_portuguese() -> None:
    from nothanks_lab.lessons import check_answer

    with language("pt_BR"):
        right = check_answer("p28_start", "0,727")
        wrong = check_answer("p28_start", 0.2)
    assert right.correct and "confere com a resposta exata" in right.message
    assert "casas decimais" in right.message
    assert not wrong.correct and "não é a resposta" in wrong.message
    assert "matches the exact answer" in check_answer("p28_start", "0.727").message


# ------------------------------------------------------------------ the kit in Portuguese
def translated_lesson(folder: Path, stem: str = "04_chip_value") -> Path:
    """A minimal translated copy of an English lesson (its first Markdown cell in Portuguese),
    for as long as notebooks/pt_BR/ does not hold the translator's lessons."""
    import nbformat

    nb = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    first = next(c for c in nb.cells if c.cell_type == "markdown")
    first.source = "# Quanto vale uma ficha?\n\nUma aula em português."
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / f"{stem}.ipynb")
    return folder


def test_the_kit_exports_in_portuguese(tmp_path: Path, clean_language: Any) -> None:
    from nothanks_lab.__main__ import main
    from nothanks_lab.kit.notebooks import find_notebooks

    assert find_notebooks(None, "pt_BR") == ROOT / "notebooks" / "pt_BR"
    lessons = translated_lesson(tmp_path / "pt_BR")
    out = tmp_path / "kit"
    argv = ["lessons", "export", str(out), "--notebooks", str(lessons), "--skip-handouts"]
    assert main([*argv, "--no-pdf", "--quiet", "--language", "pt_BR"]) == 0
    assert "Quanto vale uma ficha?" in (out / "student" / "04_chip_value.ipynb").read_text()
    assert (
        "Guia do professor: 04_chip_value" in (out / "teacher" / "04_chip_value.html").read_text()
    )
    assert "kit do professor" in (out / "index.html").read_text()
    assert nt.get_language() == "en"  # the export held its language only while it ran
    with pytest.raises(SystemExit):
        main([*argv, "--language", "fr"])


# ------------------------------------------------------------------ the kit's own texts
KIT_ENGLISH = (*ENGLISH_UI, "your answer", "Quiz", "Answer key")


def prose(page: str) -> str:
    """A kit page without its code: fenced and inline code, <pre>/<code>, styles and scripts."""
    for pattern in (r"```.*?```", r"<(pre|code|style|script)\b.*?</\1>", r"`[^`\n]*`"):
        page = re.sub(pattern, " ", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", page)


def kit_english(page: str) -> list[str]:
    """The English words of `KIT_ENGLISH` in a page's prose (case-insensitive)."""
    text = prose(page).lower()
    return [w for w in KIT_ENGLISH if w.lower() in text]


def test_prose_leaves_out_code_only() -> None:
    page = "Pegue ```x = Take```, `chips` <code>cards</code> <pre>Quiz</pre> but Review"
    assert kit_english(page) == ["Review"]
    assert kit_english("<h1>Answer key</h1>") == ["Answer key"]


def test_the_kit_texts_in_portuguese(clean_language: Any) -> None:
    """The kit's own texts (no export needed): rules sheet, quizzes, README, answer line."""
    from nothanks_lab.kit import build, quizzes, rules_sheet
    from nothanks_lab.kit.notebooks import student_notebook

    with language("pt_BR"):
        sheet = rules_sheet.rules_sheet_html()
        assert "Não, obrigado!" in sheet and "fichas" in sheet and "lang='pt-BR'" in sheet
        assert kit_english(sheet) == []
        for stem in quizzes.QUIZZES:
            q = quizzes.quiz(stem)
            for key in (False, True):
                md = quizzes.quiz_markdown(q, key=key)
                assert kit_english(md) == [], (stem, key, kit_english(md))
        key_07 = quizzes.quiz_markdown(quizzes.quiz("07_bot_lab"), key=True)
        assert re.search(r"0,\d{3}\b", key_07)  # the standard error with a decimal comma
        readme = build._kit_readme([Path("01_play.ipynb")], set(), ["01_play"])
        assert "kit do professor" in readme and kit_english(readme) == []
        nb = nbformat_lesson()
        cell = student_notebook(nb).cells[0].source
        assert cell.startswith("answer = None  # sua resposta")
    with language("en"):
        assert "answer = None  # your answer" in student_notebook(nbformat_lesson()).cells[0].source


def nbformat_lesson() -> Any:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell('answer = 19\nnt.lessons.check_answer("break_even_20", answer)')
    ]
    return nb


@pytest.mark.slow
def test_a_portuguese_kit_export_has_no_english_words(tmp_path: Path, clean_language: Any) -> None:
    from nothanks_lab import kit
    from nothanks_lab.kit import rules_sheet

    out = tmp_path / "kit"
    # Lesson 03's own Portuguese text has none of the words (01's calls the game "No Thanks!").
    stems = ["01_play", "03_runs_exact_vs_simulated", "07_bot_lab"]
    handout = "03_runs_exact_vs_simulated"
    kit.export(out, lessons=stems, handouts=[handout], execute=False, language="pt_BR")
    pages = {
        "index": out / "index.html",
        "README": out / "README.md",
        "rules sheet": out / "teacher" / "rules_sheet.html",
        "handout": out / "handouts" / f"{handout}.html",
    }
    for stem in stems:
        for suffix in ("", "_key"):
            pages[f"quiz {stem}{suffix}"] = out / "teacher" / f"quiz_{stem}{suffix}.html"
    found = {name: kit_english(p.read_text()) for name, p in pages.items()}
    assert found == {name: [] for name in pages}
    for stem in stems:
        guide = (out / "teacher" / f"{stem}.md").read_text()
        assert "Guia do professor" in guide and "Erros comuns" in guide
        # The guide's own text; the exercises' questions and hints come from
        # nothanks_lab.lessons, which does not translate them yet (test below).
        own = re.sub(r"\*\*(Pergunta|Resolução|Corrigido por)[^\n]*", "", guide)
        assert kit_english(own) == [], (stem, kit_english(own))
    why = kit.pdf_unavailable()
    if why is not None:
        pytest.skip(why)
    assert rules_sheet.pdf_pages(out / "teacher" / "rules_sheet.pdf") == 1  # one A4 page


@pytest.mark.parametrize("key", sorted(EXERCISES))
def test_the_exercise_texts_of_a_portuguese_guide(clean_language: Any, key: str) -> None:
    from nothanks_lab.kit.solutions import solution

    with language("pt_BR"):
        s = solution(key)
        assert kit_english(s.question + " " + s.hint) == []


def test_the_portuguese_notes_match_the_english_ones(clean_language: Any) -> None:
    from nothanks_lab.kit.notes import FORMULAS, LESSON_NOTES
    from nothanks_lab.kit.notes_pt import FORMULAS_PT, LESSON_NOTES_PT, formula, lesson_notes

    assert LESSON_NOTES_PT.keys() == LESSON_NOTES.keys()
    assert FORMULAS_PT.keys() == FORMULAS.keys()
    for stem, en in LESSON_NOTES.items():
        pt = LESSON_NOTES_PT[stem]
        assert [m for m, _a in pt.timings] == [m for m, _a in en.timings], stem
        assert len(pt.goals) == len(en.goals) and len(pt.prompts) == len(en.prompts), stem
        assert len(pt.misconceptions) == len(en.misconceptions), stem
    for key, en_formula in FORMULAS.items():  # the same numbers in both languages
        assert re.findall(r"\d+", FORMULAS_PT[key]) == re.findall(r"\d+", en_formula), key
    with language("pt_BR"):
        assert lesson_notes("01_play") is LESSON_NOTES_PT["01_play"]
        assert formula("p28_start") == FORMULAS_PT["p28_start"]
    assert lesson_notes("01_play") is LESSON_NOTES["01_play"]
    assert lesson_notes("no_such_lesson") is None


# ------------------------------------------------------------------ the lessons' texts
#: English words that no Portuguese lesson text holds (code such as ``RandomBot(p_take=0.2)``
#: and the number forms the checker reads are no English prose).
ENGLISH_PROSE = re.compile(
    r"\b(the|what|is|and|of|with|how|Exercise|Right|Close|Not|yet|could|read|write|Take|"
    r"Thanks|chips?|cards?|Hint|SEED must|whole number)\b",
    re.IGNORECASE,
)


def english_prose(text: str) -> list[str]:
    return ENGLISH_PROSE.findall(re.sub(r"\b\w+ ?=", "", text))  # not a keyword argument


def test_a_portuguese_exercise_shows_and_grades_without_english() -> None:
    from nothanks_lab.lessons import check_answer, exercises
    from nothanks_lab.lessons.keys import EXERCISES

    answers: tuple[object, ...] = (None, "", 0.2, 250, "abc", True, 1j, b"1", [1, 2], "9" * 300)
    for key in exercises():
        ex = EXERCISES[key]
        with language("pt_BR"):
            texts = [str(ex), ex._repr_html_(), ex.hint, ex.one_above or ""]
            texts += [str(check_answer(key, a)) for a in answers]
        for text in texts:
            assert english_prose(text) == [], (key, text)
        assert "{" not in texts[0], texts[0]  # the question's values are filled in
    # Shown after the language changed, the same exercise and verdict follow it.
    fb = check_answer("p28_start", 0.2)
    with language("pt_BR"):
        assert str(exercise_p28 := EXERCISES["p28_start"]).startswith("Exercício 'p28_start': ")
        assert str(fb).startswith("✘ Ainda não (p28_start)")
    assert str(exercise_p28).startswith("Exercise 'p28_start': At the start")
    assert "40, 52, 31, 47, 60" in EXERCISES["paired_mean_change"].question


def test_the_seed_line_in_portuguese() -> None:
    from nothanks_lab.lessons import use_seed
    from nothanks_lab.lessons.seed import SeedError

    for bad in (-5, 3.5, 2_000_000):
        with language("pt_BR"), pytest.raises(SeedError) as err:
            use_seed(bad)
        assert english_prose(str(err.value)) == [], str(err.value)
        assert "1.000.000" in str(err.value)
    with pytest.raises(SeedError, match=r"from 0 to 1,000,000; it is 2,000,000\."):
        use_seed(2_000_000)


def test_evaluation_interval_and_review_summary_in_portuguese() -> None:
    from nothanks_lab import analysis as an
    from nothanks_lab.stats import Interval

    interval = Interval(53.61, 52.39, 54.83, 400)
    with language("pt_BR"):
        assert str(interval) == "53,61 [52,39; 54,83] (95%, n=400)"
    assert str(interval) == "53.61 [52.39, 54.83] (95%, n=400)"
    ev = an.evaluate_position(an.position_view(11, 0, n_players=3), n=1000, seed=1)
    game = nt.Game(3, seed=4)
    game.step(Action.TAKE)
    rev = nt.review(game, 0, seed=1, n=200)
    with language("pt_BR"):
        texts = [str(ev), rev.summary()]
    assert "1.000 simulações por jogada" in texts[0] and "com 0 fichas no pote:" in texts[0]
    assert re.search(r"pontuação \d+,\d\d \[\d+,\d\d; \d+,\d\d\]", texts[0]), texts[0]
    assert "decisões em 1 carta" in texts[1] and "precisão" in texts[1], texts[1]
    for text in texts:
        assert not re.search(r"\d\.(?!\d{3}\b)\d", text), text  # a point only groups thousands
        assert english_prose(text) == [] and english_words(text) == [], text


def figure_words(fig: Any) -> str:
    """Every title, axis title, legend entry and hover text of a figure, in one string."""
    layout = fig.layout
    texts = [layout.title.text or ""]
    fig.for_each_xaxis(lambda a: texts.append(a.title.text or ""))
    fig.for_each_yaxis(lambda a: texts.append(a.title.text or ""))
    texts += [a.text or "" for a in layout.annotations]
    for trace in fig.data:
        texts += [str(trace.name or ""), str(getattr(trace, "hovertemplate", "") or "")]
        if getattr(trace, "colorbar", None) is not None:
            texts.append(str(trace.colorbar.title.text or ""))
    return "\n".join(texts)


def test_every_plot_in_portuguese_holds_no_english_word() -> None:
    from types import SimpleNamespace

    from nothanks_lab import analysis as an
    from nothanks_lab import plots
    from nothanks_lab import probability as pr
    from nothanks_lab.bots import MarginalCostBot

    result = nt.tournament([MarginalCostBot(t) for t in (10, 0, -20)], 3, 30, seed=1)
    sweep = [{"threshold": t, "milk": m, "win_share": 0.5} for t in (0, 4) for m in (0, 1)]
    gap = SimpleNamespace(gap=0.1, first=0.6, second=0.6)
    with language("pt_BR"):
        figures = {
            "in_play": plots.plot_in_play_chances([3, 10], hand=(27, 29)),
            "removed": plots.plot_removed_count(
                pr.removed_count_pmf([27, 28]), pr.mc_removed_count_pmf([27, 28], n=200, seed=1)
            ),
            "removed_all": plots.plot_removed_count(pr.removed_count_pmf([27]), cards=[27]),
            "runs": plots.plot_run_count(pr.run_count_pmf(), pr.mc_run_count_pmf(n=200, seed=2)),
            "convergence": plots.plot_convergence(
                pr.convergence(
                    lambda: pr.p_all_in_play(28),
                    lambda n, seed: pr.mc_p_all_in_play(28, n=n, seed=seed),
                    [100, 1000],
                    seed=4,
                )
            ),
            "chip_value": plots.plot_chip_value(
                an.chip_value((3,), extra_chips=(0, 1), n_games=40, seed=1)
            ),
            "take_pass": plots.plot_take_pass(an.take_pass_surface(range(3, 9), range(0, 4), ())),
            "take_rate": plots.plot_take_rate([0, 1, 2], [True, True, False], threshold=1),
            "exploitability": plots.plot_exploitability({"MarginalCostBot(5)": gap}),
            "win_shares": plots.plot_win_shares(result),
            "mean_scores": plots.plot_win_shares(result, metric="mean_score"),
            "sweep": plots.plot_sweep(sweep, "threshold", "milk"),
            "sweep_curve": plots.plot_sweep(sweep[:2], "threshold"),
            "scores": plots.plot_score_distribution(nt.simulate([MarginalCostBot(5)] * 3, 30)),
            "pairwise": plots.plot_pairwise(result),
            "ratings": plots.plot_ratings(result),
            "seats": plots.plot_seat_positions(result),
            "timeline": plots.plot_timeline(nt.play_game([MarginalCostBot(5)] * 3, seed=1)),
        }
    plot_words = re.compile(
        r"\b(play|score|share|rounds?|seats?|win|mean|over|by|exact|simulated|runs?|"
        r"probability|rating|row|column|fair|players?|net cost|worth|removed)\b",
        re.IGNORECASE,
    )
    for name, fig in figures.items():
        text = figure_words(fig)
        assert english_prose(text) == [] and english_words(text) == [], (name, text)
        assert plot_words.findall(text) == [], (name, text)
    assert "Quanto vale uma ficha?" in figure_words(figures["chip_value"])


def test_no_portuguese_turn_line_reads_zero_ficha() -> None:
    """Zero takes the plural in Portuguese (Plural-Forms n != 1): both forms must read well."""
    mine = (
        "<span style='font-size:1.3em'><b>Your turn</b></span>: take {card} with its {n} chip, "
        "or say No thanks! (costs 1 chip).",
        "<span style='font-size:1.3em'><b>Your turn</b></span>: take {card} with its {n} "
        "chips, or say No thanks! (costs 1 chip).",
    )
    head = ("Seat {seat} on card {card} with {pot} chip(s) in the pot:",) * 2
    with language("pt_BR"):
        turns = [i18n.ngettext(*mine, n).format(card=6, n=n) for n in (0, 1, 5)]
        heads = [i18n.ngettext(*head, n).format(seat=0, card=6, pot=n) for n in (0, 1, 5)]
    for text in turns + heads:
        assert not re.search(r"\b0 ficha\b|\ba 0 ficha|\b[02-9] ficha\b|\b1 fichas", text), text
        assert "fichas" in text or "ficha" in text
    assert "pegue o 6 (fichas nele: 0)" in turns[0] and "«Não, obrigado!»" in turns[0]
    assert "pegue o 6 com 1 ficha ou" in turns[1] and "pegue o 6 (fichas nele: 5)" in turns[2]
    assert "com 0 fichas no pote" in heads[0] and "com 1 ficha no pote" in heads[1]
    assert "com 5 fichas no pote" in heads[2]


def test_portuguese_zero_is_plural_on_the_table() -> None:
    """Pot 0, 1, 2, hands of 0, 1, 2 cards and moves with chips read "0 fichas", "1 ficha"."""
    from nothanks_lab import render
    from nothanks_lab.render.cards import _face_down
    from nothanks_lab.review import _counted

    catalog = read_catalog(PO, "pt_BR")
    assert catalog.plural_expr == "(n != 1)"
    game = nt.Game(3, deck=list(range(3, 27)))
    texts = []
    with language("pt_BR"):
        for _step in range(3):  # pot 0, 1, 2 on card 3
            texts.append(render.view_html(game.view(0)))
            game.step(Action.PASS)
        pots = [re.search(r"pote: <b>\d</b> fichas?", t) for t in texts]
        assert [m.group(0) if m else t for m, t in zip(pots, texts, strict=True)] == [
            "pote: <b>0</b> fichas",
            "pote: <b>1</b> ficha",
            "pote: <b>2</b> fichas",
        ]
        assert "nenhuma carta" in texts[0]  # no seat holds a card yet
        game.step(Action.PASS)  # seat 0 again: pot 3, then seat 1 takes it below
        game.step(Action.TAKE)
        took = [render.move_words(e) for e in game.history[-1:]]
        faces = [_face_down(n) for n in (0, 1, 2)]
        reviews = [_counted("mistake", n) for n in (0, 1, 2)]
    assert took == ["pegou o 3 (+4 fichas)"]
    assert faces == [
        "0 cartas viradas para baixo",
        "1 carta virada para baixo",
        "2 cartas viradas para baixo",
    ]
    assert reviews == ["0 erros", "1 erro", "2 erros"]


def test_errors_a_student_meets_speak_portuguese() -> None:
    """A lesson's or the table's refusals in pt_BR: no English sentence (analysts' may stay)."""
    from nothanks_lab import lessons
    from nothanks_lab.table import MAX_TABLE_SEED, TableSession, check_difficulty

    english = re.compile(r"\b(must|unknown|exercises|got|whole number|write|number|one of)\b")
    seen = {}
    with language("pt_BR"):
        for key, call in {
            "exercise": lambda: lessons.exercise("nope"),
            "difficulty": lambda: check_difficulty("facil"),
            "table seed": lambda: TableSession([None, "random", "random"], seed=MAX_TABLE_SEED + 1),
        }.items():
            with pytest.raises(ValueError) as err:
                call()
            seen[key] = str(err.value)
        seen |= {
            f"answer {a!r}": lessons.check_answer("p28_start", a).message
            for a in ("abc", True, [1], "x" * 500)
        }
    for key, text in seen.items():
        assert english.findall(text) == [], (key, text)
    assert seen["exercise"].startswith("não há exercício 'nope'; os exercícios são: ")
    assert seen["difficulty"] == (
        "difficulty precisa ser um destes: 'easy', 'medium', 'hard'; veio 'facil'"
    )
    assert f"de 0 a {MAX_TABLE_SEED}; veio {MAX_TABLE_SEED + 1}" in seen["table seed"]
    with pytest.raises(ValueError, match=r"^unknown exercise 'nope'; exercises: "):
        lessons.exercise("nope")  # English as before


# ------------------------------------------------------------------ the Brazilian teacher's trial
@pytest.mark.parametrize("answer", [(0, 371), (73,), (0, 5, 1)])
def test_a_decimal_comma_in_code_is_explained_not_echoed(answer: tuple[int, ...]) -> None:
    from nothanks_lab.lessons import check_answer

    with language("pt_BR"):
        fb = check_answer("p28_start", answer)
    assert fb.status == "wrong"
    assert "tuple" not in fb.message and "0,42" not in fb.message
    assert "vírgula separa valores" in fb.message and "0.371" in fb.message
    assert "'0,371'" in fb.message  # the text form, in quotes
    english = check_answer("p28_start", answer).message
    assert "comma separates values" in english and "tuple" not in english


def test_student_feedback_has_no_scientific_notation_in_portuguese() -> None:
    from nothanks_lab.lessons import check_answer

    with language("pt_BR"):
        fb = check_answer("p28_start", 24 / 33 + 1e-12)  # computed, not a rounding
    assert fb.correct and "1e-9" not in fb.message and "bilhão" in fb.message


def test_a_wrong_percentage_is_not_called_not_a_chance() -> None:
    from nothanks_lab.lessons import check_answer

    with language("pt_BR"):
        wrong = check_answer("p28_start", "40,5%")
        beyond = check_answer("p28_start", "140%")
    assert wrong.status == "wrong" and "não é uma chance" not in wrong.message
    assert "40,5%" in wrong.message and "Dica" in wrong.message
    assert "não é uma chance" in beyond.message


def test_the_teachers_accepted_line_in_portuguese() -> None:
    from nothanks_lab.kit.solutions import solution
    from nothanks_lab.lessons import accepted_answers, check_answer

    with language("pt_BR"):
        text = accepted_answers("tiny_two_runs")
        whole = accepted_answers("break_even_20")
        answer = solution("tiny_two_runs").text
        forms = re.search(r"truncado: (.*?), …", text)
        assert forms is not None
        for form in forms[1].split("; "):  # each listed form is graded right, as written
            assert check_answer("tiny_two_runs", form).status == "right", form
    for english in ("accepted", "or Fraction", "computed", "1e-9", "rounded", "fewer", "0.4"):
        assert english not in text, english
    assert text.startswith("aceita: 3/7") and "casas decimais" in text and "42,9%" in text
    assert whole == "aceita: 19 (também 19,0)" and answer == "3/7 ≈ 0,428571"


def test_portuguese_figures_use_a_decimal_comma() -> None:
    from nothanks_lab import plots
    from nothanks_lab.render.figures import gap_chances_figure

    def figures() -> list[Any]:
        return [
            plots.plot_in_play_chances([3, 10], hand=(27, 29)),  # through plots' _style
            gap_chances_figure({(5,): 0.25, (7, 8): 0.0}, [4, 6, 9]),  # drawn in render
        ]

    with language("pt_BR"):
        pt = figures()
    en = figures()
    assert pt and all(f.layout.separators == ",." for f in pt)
    assert all(f.layout.separators is None for f in en)  # English: plotly's default, unchanged


def test_portuguese_intervals_separate_their_ends_with_a_semicolon() -> None:
    from types import SimpleNamespace

    from nothanks_lab.render.review import _move_review_words
    from nothanks_lab.stats import fmt_share

    cost = SimpleNamespace(value=0.7, low=-0.9, high=2.2)
    move = SimpleNamespace(forced=False, action=Action.PASS, best=Action.TAKE, cost_estimate=cost)
    with language("pt_BR"):
        words = _move_review_words(move)  # type: ignore[arg-type]
        shares = fmt_share(0.042, 0.04, 0.05), fmt_share(0.0, 0.0, 0.00096)
    assert "custou 0,7 pontos [-0,9; 2,2]" in words, words
    assert shares == ("4% [4%; 5%]", "0% [0%; 0,1%]")
    english = _move_review_words(move)  # type: ignore[arg-type]
    assert "cost 0.7 points [-0.9, 2.2]; better: Take" == english
    assert fmt_share(0.042, 0.04, 0.05) == "4% [4%, 5%]"


def test_bot_names_a_student_reads_are_the_tables_words() -> None:
    from nothanks_lab import analysis as an
    from nothanks_lab.bots import make_bot
    from nothanks_lab.bots.specs import bot_label
    from nothanks_lab.table import display_label

    ev = an.evaluate_position(an.position_view(11, 0, n_players=3), make_bot("linear"), n=60)
    field = [make_bot("heuristic"), make_bot("marginal"), make_bot("marginal", threshold=3)]
    result = nt.tournament(field, 3, 2, seed=1)
    with language("pt_BR"):
        printed, table = str(ev), str(result)
        words = display_label("linear"), display_label("heuristic")
        assert bot_label("MarginalCostBot(threshold=3) #2") == "marginal(threshold=3) #2"
    assert f", {words[0]}, " in printed and "LinearBot" not in printed, printed
    assert words[1] == "heurístico" and "heurístico" in table and "Bot(" not in table, table
    assert "LinearBot(defaults)" in str(ev) and "HeuristicBot(defaults)" in str(result)


def test_the_trials_wording_and_a_portuguese_difficulty() -> None:
    from nothanks_lab.kit.build import _kit_readme
    from nothanks_lab.table import check_difficulty

    with language("pt_BR"):
        assert check_difficulty("médio") == "medium" and check_difficulty("difícil") == "hard"
        with pytest.raises(ValueError, match="'easy', 'medium', 'hard'"):
            check_difficulty("mediano")
        one = _kit_readme([Path("01_play.ipynb"), Path("08_x.ipynb")], set(), ["01_play"])
        assert "esta aula não tem" in one and "estas aulas" not in one
        assert not re.search(r"\b(LESSON|STUDENT)\b|/path/to", one), one
        assert _("{name} says no thanks").format(name="Ana") == "Ana diz «Não, obrigado!»"
    with pytest.raises(ValueError):
        check_difficulty("médio")  # in English, only the English names


def test_a_portuguese_bot_picker_shows_words_and_decimal_commas(
    clean_language: pytest.MonkeyPatch,
) -> None:
    """The custom-bot settings: labels in Portuguese words, readouts with a decimal comma."""
    import ipywidgets as W

    from nothanks_lab.bots import available_bots, params_of
    from nothanks_lab.widgets.common import BotPicker

    with language("pt_BR"):
        p = BotPicker("Lugar 1", ("heuristic", {"pot_weight": 1.25}))
    assert [w.description for w in p.sliders][:2] == ["limite", "peso do pote"]
    assert p.params["pot_weight"] == 1.25 and p.spec() == "heuristic(pot_weight=1.25)"
    row = p.main_box.children[1]
    slider, readout = row.children
    assert slider.readout is False and readout.value == "1,25"
    slider.value = 0.3  # a later event, whatever language is in use then
    assert readout.value == "0,30" and p.params["pot_weight"] == 0.3
    text = widget_texts(p.widget)
    assert not re.search(r"\b\d+\.\d+\b", text), text  # no decimal point shown
    for name in available_bots():
        with language("pt_BR"):
            p.dropdown.value = name
        for w, (param, declared) in zip(p.sliders, params_of(name).items(), strict=True):
            assert "_" not in w.description and w.description != param, (name, param)
            with language("pt_BR"):
                assert w.tooltip == declared.help != declared.doc, (name, param)
            if isinstance(w, W.FloatSlider):
                assert not w.readout
    table = nt.PlayTable(3, seed=5, bot_delay=0.5, language="pt_BR")
    assert not table.delay.readout and "0,5" in widget_texts(table.widget)  # the bots' pause
    assert not re.search(r"\b\d+\.\d+\b", widget_texts(table.widget))
    english = BotPicker("Seat 1", "heuristic")  # English: the names a spec writes, own readouts
    assert [w.description for w in english.sliders][:2] == ["threshold", "pot_weight"]
    assert all(w.readout for w in english.sliders if isinstance(w, W.FloatSlider))


# A lesson is an «aula» and a notebook a «caderno» everywhere a Portuguese reader looks.
LICAO_OR_NOTEBOOK = re.compile(r"\bli[çc][ãõ][oe]s?\b|(?<![/\w`.])notebooks?(?![/\w`])", re.I)


def test_one_word_for_a_lesson_and_one_for_a_notebook() -> None:
    import nbformat
    from babel.messages.pofile import read_po

    from nothanks_lab.kit.build import _README
    from nothanks_lab.kit.notes_pt import FORMULAS_PT, LESSON_NOTES_PT

    with PO.open("rb") as f:
        texts = {f"po {m.id!r}": str(m.string) for m in read_po(f) if m.id and m.string}
    texts["kit README"] = _README["pt_BR"]
    texts |= {f"notes {k}": repr(v) for k, v in LESSON_NOTES_PT.items()}
    texts |= {f"formula {k}": v for k, v in FORMULAS_PT.items()}
    for path in sorted((ROOT / "notebooks" / "pt_BR").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown":
                texts[f"{path.stem} {cell.id}"] = re.sub(r"`[^`]*`", " ", cell.source)
    found = {k: m.group(0) for k, t in texts.items() if (m := LICAO_OR_NOTEBOOK.search(t))}
    assert found == {}, found
    assert "aula" in texts["kit README"] and "cadernos" in texts["kit README"]

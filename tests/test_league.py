"""The class league: collecting a folder of student bots, the friendly messages, the tournament.

Every kind of broken student file is planted in a folder and must come back as a `Rejection`
naming the bot, its file and (for a bot that failed while playing) the very position it failed
in; the good bots must play a league whose numbers are those of `nt.tournament` itself.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab import Action, league
from nothanks_lab.bots import make_bot
from nothanks_lab.league import (
    LeagueEntries,
    Rejection,
    StudentBot,
    as_bot,
    collect_bots,
    describe_position,
    run_league,
    save_bot,
    screen_bot,
)
from nothanks_lab.tournaments.sandbox import IsolatedPolicy

GOOD_FUNCTION = """
import nothanks_lab as nt


def act(view):
    if view.my_chips == 0 or 2 * view.pot >= view.active_card:
        return nt.Action.TAKE
    return nt.Action.PASS
"""

GOOD_CLASS = """
from nothanks_lab import Action, card_points


class Bot:
    def __init__(self, share=0.4):
        self.share = share

    def act(self, view):
        if view.my_chips == 0:
            return Action.TAKE
        hand = view.my_hand
        cost = card_points(hand + (view.active_card,)) - card_points(hand)
        return Action.TAKE if view.pot >= self.share * cost else Action.PASS
"""

RAISES = """
from nothanks_lab import Action


def act(view):
    if view.active_card - 1 in view.hand:
        return Action.TAKE
    return Action.PASS
"""

NO_CHIPS = """
from nothanks_lab import Action


def act(view):
    return Action.TAKE if view.pot >= 8 else Action.PASS
"""

FILES = {
    "ada": GOOD_FUNCTION,
    "bo": GOOD_CLASS,
    "cy": RAISES,
    "dee": NO_CHIPS,
    "eve": "def act(view):\n    return 'take'\n",
    "fay": "def act(view)\n    return 1\n",
    "gus": "x = 1\n",
    "hal": "import no_such_module_for_sure\n",
    "ida": "def act(view):\n    if view.pot > 100:\n        return 1\n",
    "jo": "class Bot:\n    def __init__(self, k):\n        self.k = k\n\n    def act(self, view):\n"
    "        return None\n",
    "kim": "class Bot:\n    pass\n",
}


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, source in files.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def entries(tmp_path_factory: pytest.TempPathFactory) -> LeagueEntries:
    return collect_bots(write(tmp_path_factory.mktemp("league"), FILES), seed=11)


def rejection(entries: LeagueEntries, name: str) -> Rejection:
    return next(r for r in entries.rejections if r.name == name)


# ------------------------------------------------------------------ collecting
@pytest.mark.slow
def test_good_bots_are_kept_and_every_broken_one_is_left_out(entries: LeagueEntries) -> None:
    assert entries.names == ("ada", "bo")
    assert [r.name for r in entries.rejections] == sorted(set(FILES) - {"ada", "bo"})
    assert all(isinstance(b, StudentBot) and b.file == f"{b.name}.py" for b in entries.bots)
    # each student's bot lives in a process of its own: the parent holds only its proxy
    assert all(isinstance(b.policy, IsolatedPolicy) for b in entries.bots)


def test_trusted_files_load_in_this_process(tmp_path: Path) -> None:
    trusted = collect_bots(write(tmp_path, FILES), seed=11, isolate=False)
    assert trusted.names == ("ada", "bo")
    assert callable(trusted.bots[0].policy) and hasattr(trusted.bots[1].policy, "act")


@pytest.mark.parametrize(
    ("name", "stage", "words"),
    [
        ("cy", "screen", "raised AttributeError: 'PlayerView' object has no attribute 'hand'"),
        ("dee", "screen", "No Thanks! with no chips left"),
        ("eve", "screen", "answered 'take', of type str, which is not a move"),
        ("ida", "screen", "returned None (a missing return?)"),
        ("fay", "load", "does not load: SyntaxError"),
        ("hal", "load", "ModuleNotFoundError: No module named 'no_such_module_for_sure'"),
        ("gus", "find", "defines no bot"),
        ("jo", "find", "Bot() raised TypeError"),
        ("kim", "find", "class Bot has no method act"),
    ],
)
def test_each_message_names_the_bot_its_file_and_the_problem(
    entries: LeagueEntries, name: str, stage: str, words: str
) -> None:
    r = rejection(entries, name)
    assert r.stage == stage
    assert r.message.startswith(f"Bot '{name}' ({name}.py) is left out of the league: ")
    assert words in r.message and words in str(r)
    assert r.advice in r.message


@pytest.mark.parametrize("name", ["cy", "dee", "eve", "ida"])
def test_a_bot_that_failed_in_play_is_shown_its_position(entries: LeagueEntries, name: str) -> None:
    r = rejection(entries, name)
    assert isinstance(r.view, nt.PlayerView) and r.view.is_my_turn
    assert f"The position: {describe_position(r.view)}." in r.message
    assert f"on card {r.view.active_card} with {r.view.pot} chip" in r.message
    html = r._repr_html_()
    assert "left out of the league" in html and str(r.view.active_card) in html


def test_the_position_is_the_one_the_bot_fails_in(entries: LeagueEntries, tmp_path: Path) -> None:
    """Replaying the bot on the rejection's view reproduces the failure exactly."""
    cy = rejection(entries, "cy")
    bot = collect_bots(write(tmp_path, {"cy": RAISES}), seed=11).rejections[0]
    assert bot.view == cy.view  # the same seed screens on the same deals
    namespace: dict[str, object] = {}
    exec(RAISES, namespace)
    with pytest.raises(AttributeError, match="hand"):
        namespace["act"](cy.view)  # type: ignore[operator]
    dee = rejection(entries, "dee")
    assert dee.view is not None and dee.view.my_chips == 0 and not dee.view.can_pass
    exec(NO_CHIPS, namespace)
    assert namespace["act"](dee.view) is Action.PASS  # type: ignore[operator]


def test_errors_point_at_the_line_of_the_file(entries: LeagueEntries) -> None:
    assert "(cy.py, line 5)" in rejection(entries, "cy").problem
    assert "(fay.py, line 1)" in rejection(entries, "fay").problem


def test_the_collection_prints_ready_and_left_out(entries: LeagueEntries) -> None:
    text = str(entries)
    assert text.startswith("2 bots ready: ada, bo") and "9 left out:" in text
    assert "ada" in entries._repr_html_() and "dee.py" in entries._repr_html_()
    assert repr(entries).startswith("LeagueEntries(ready: ada, bo; left out: cy, dee")


def test_hidden_files_and_other_files_are_skipped(tmp_path: Path) -> None:
    write(tmp_path, {"ada": GOOD_FUNCTION, "_helpers": "raise RuntimeError", ".hidden": "x"})
    (tmp_path / "notes.txt").write_text("not a bot")
    found = collect_bots(tmp_path, seed=1)
    assert found.names == ("ada",) and not found.rejections


def test_an_edited_file_is_read_again_never_a_stale_copy(tmp_path: Path) -> None:
    """Same size, same second: a bytecode cache keyed on mtime and size would miss the edit."""
    take = "from nothanks_lab import Action\n\n\ndef act(view):\n    return Action.TAKE\n"
    path = tmp_path / "ada.py"
    path.write_text(take)
    assert collect_bots(tmp_path, seed=1).names == ("ada",)
    path.write_text(take.replace("TAKE", "PASS"))
    found = collect_bots(tmp_path, seed=1)
    assert not found.names and found.rejections[0].name == "ada"
    assert not (tmp_path / "__pycache__").exists()


@pytest.mark.slow
def test_a_bot_that_loops_forever_is_stopped(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "loop": "def act(view):\n    while True:\n        pass\n",
            "loads_forever": "while True:\n    pass\n",
        },
    )
    found = collect_bots(tmp_path, seed=1, time_limit=0.3)
    assert not found.names
    by_name = {r.name: r for r in found.rejections}
    assert "took more than 0.3 s to load" in by_name["loads_forever"].message
    # the limit and what was measured, not a guess at the cause (a slow bot is no endless loop)
    loop = by_name["loop"]
    assert loop.stage == "screen" and "0.3 s" in loop.message and "limit" in loop.message
    assert "endless" not in loop.message


def test_a_slow_bot_and_a_bot_that_cannot_be_copied_are_left_out(tmp_path: Path) -> None:
    slow = StudentBot("slow", lambda view: (sum(range(20_000)), Action.TAKE)[1])
    r = screen_bot(slow, seed=1, max_ms=0.001)
    assert r is not None and "too slow for a league" in r.message and "ms per decision" in r.problem

    class Holder:
        def __init__(self) -> None:
            self.gen = (i for i in range(3))

        def act(self, view: nt.PlayerView) -> Action:
            return Action.TAKE

    r = screen_bot(StudentBot("holder", Holder()), seed=1)
    assert r is not None and "cannot be copied" in r.message
    assert screen_bot(StudentBot("fine", lambda view: Action.TAKE), seed=1) is None


def test_screening_a_variant_deck(tmp_path: Path) -> None:
    rules = nt.Rules(low_card=3, high_card=12, n_removed=2)
    write(tmp_path, {"ada": GOOD_FUNCTION, "dee": NO_CHIPS})
    found = collect_bots(tmp_path, seed=2, rules=rules)
    assert found.names == ("ada",) and found.rejections[0].view.rules == rules  # type: ignore[union-attr]


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="folder must be an existing folder"):
        collect_bots(tmp_path / "nope")
    # An empty name ran the current folder (Path("") is Path("."), which says so itself).
    with pytest.raises(ValueError, match=r"'\.' for the current one"):
        collect_bots("")
    with pytest.raises(ValueError, match=r"'\.' for the current one"):
        run_league("", n_games=2, progress=False)
    with pytest.raises(ValueError, match="builtins must be a list"):
        collect_bots(tmp_path, builtins="marginal")
    with pytest.raises(ValueError, match="lineups must be 'gauntlet' or 'round robin'"):
        run_league(tmp_path, lineups="swiss")
    with pytest.raises(ValueError, match="give at least 2 builtins"):
        run_league(tmp_path, builtins=["marginal"])
    with pytest.raises(ValueError, match="n_games"):
        run_league(tmp_path, n_games=0)
    with pytest.raises(ValueError, match="policy must be a function"):
        StudentBot("x", 3)
    write(tmp_path, {"dee": NO_CHIPS})
    with pytest.raises(ValueError, match=r"(?s)no student bot is left to play.*Bot 'dee'"):
        run_league(tmp_path, seed=1, progress=False)


# ------------------------------------------------------------------ the league
@pytest.fixture(scope="module")
def played(entries: LeagueEntries) -> league.LeagueResult:
    return run_league(entries, n_games=12, seed=5, progress=False)


@pytest.mark.slow
def test_the_league_is_a_tournament_with_the_same_numbers(
    entries: LeagueEntries, played: league.LeagueResult
) -> None:
    # The gauntlet: each student bot (0, 1) at a table with both built-ins (2, 3).
    direct = nt.tournament(
        [*entries.bots, make_bot("marginal"), make_bot("heuristic")],
        3,
        12,
        seed=5,
        lineups=[(0, 2, 3), (1, 2, 3)],
        progress=False,
    )
    t = played.tournament
    assert t.lineups == direct.lineups and t.names == direct.names and t.seed == 5
    for field in ("win_share", "win_share_ci", "mean_score", "score_ci", "games"):
        np.testing.assert_array_equal(getattr(t, field), getattr(direct, field))
    np.testing.assert_array_equal(played.win_share_ci, direct.win_share_ci)
    assert played.students == ("ada", "bo")
    assert played.builtins == ("MarginalCostBot(threshold=10)", "HeuristicBot(defaults)")
    assert t.n_games == 12 * 2 * 6  # every deal in every order of the seats of both lineups


def test_the_leaderboard_and_its_figure(played: league.LeagueResult) -> None:
    rows = played.leaderboard()
    assert [r["bot"] for r in rows] == [
        played.tournament.names[i] for i in played.tournament.ranking()
    ]
    assert {r["bot"] for r in rows if r["student"]} == {"ada", "bo"}
    assert all(r["win_share_low"] <= r["win_share"] <= r["win_share_high"] for r in rows)
    fig = played.figure()
    bars = fig.data[0]
    assert list(bars.x) == [r["bot"] for r in rows]
    assert list(bars.marker.color) == [
        league.STUDENT_COLOR if r["student"] else league.BUILTIN_COLOR for r in rows
    ]
    np.testing.assert_allclose(
        np.asarray(bars.error_y.array) + bars.y, [r["win_share_high"] for r in rows]
    )
    assert "Class league" in fig.layout.title.text
    text = str(played)
    assert "Left out:" in text and "Bot 'cy' (cy.py)" in text
    assert "LeagueResult(2 student bots" in repr(played)
    assert played.ratings(n_boot=0).names == played.tournament.names


CRASHES_LATER = """
from nothanks_lab import Action

CALLS = [0]


def act(view):
    CALLS[0] += 1  # shared by every copy the league makes
    if CALLS[0] > 400:
        raise RuntimeError("out of ideas")
    return Action.TAKE if view.my_chips == 0 or 2 * view.pot >= view.active_card else Action.PASS
"""


@pytest.mark.slow
def test_a_bot_failing_during_the_league_is_left_out_and_the_league_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, {"ada": GOOD_CLASS, "zed": CRASHES_LATER})
    found = collect_bots(tmp_path, seed=3)
    assert found.names == ("ada", "zed")  # the screening did not find it
    result = run_league(found, n_games=20, seed=4, progress=True)
    assert "zed failed during the league" in capsys.readouterr().out
    (r,) = result.rejections
    assert r.stage == "league" and r.name == "zed" and r.file == "zed.py"
    assert "raised RuntimeError: out of ideas (zed.py, line 9)" in r.message
    assert r.view is not None and "The position:" in r.message
    assert result.students == ("ada",)
    direct = nt.tournament(
        [found.bots[0], make_bot("marginal"), make_bot("heuristic")],
        3,
        20,
        seed=4,
        lineups=[(0, 1, 2)],
        progress=False,
    )
    np.testing.assert_array_equal(result.win_share, direct.win_share)


def test_bots_given_directly_are_screened_and_named() -> None:
    def mine(view: nt.PlayerView) -> Action:
        return Action.TAKE if not view.can_pass or view.pot >= 3 else Action.PASS

    def always_pass(view: nt.PlayerView) -> Action:
        return Action.PASS

    result = run_league({"me": mine, "lazy": always_pass}, n_games=5, seed=1, progress=False)
    assert result.students == ("me",)
    assert [r.name for r in result.rejections] == ["lazy"] and result.rejections[0].file is None
    assert result.rejections[0].message.startswith("Bot 'lazy' is left out")
    listed = run_league([mine], n_games=5, seed=1, progress=False)
    assert listed.students == ("mine",)
    np.testing.assert_array_equal(listed.win_share, result.win_share)


def test_a_student_named_like_a_built_in_cannot_pass_for_it() -> None:
    # A file named "HeuristicBot(defaults).py" took the built-in's name: the table showed two
    # "HeuristicBot(defaults) #1/#2" rows, and the leaderboard marked the built-in a student.
    def mine(view: nt.PlayerView) -> Action:
        return Action.TAKE if not view.can_pass or view.pot >= 3 else Action.PASS

    bots = {"HeuristicBot(defaults)": mine, "HeuristicBot(defaults) (student)": mine, "a": mine}
    result = run_league(bots, n_games=2, seed=1, progress=False)
    assert result.students == (
        "HeuristicBot(defaults) (student)",
        "HeuristicBot(defaults) (student) (student)",
        "a",
    )
    assert result.builtins == ("MarginalCostBot(threshold=10)", "HeuristicBot(defaults)")
    rows = {r["bot"]: r["student"] for r in result.leaderboard()}
    assert rows["HeuristicBot(defaults)"] is False and len(rows) == 5
    assert "#" not in str(result)
    assert list(bots) == ["HeuristicBot(defaults)", "HeuristicBot(defaults) (student)", "a"]


def test_round_robin_seats_students_together(entries: LeagueEntries) -> None:
    result = run_league(entries, n_games=3, seed=2, lineups="round robin", progress=False)
    assert len(result.tournament.lineups) == 4  # every 3 of the 4 bots


# ------------------------------------------------------------------ a bot from a notebook
def test_as_bot_names_a_function_a_class_and_an_object() -> None:
    def act(view: nt.PlayerView) -> Action:
        return Action.TAKE

    class Mine:
        def act(self, view: nt.PlayerView) -> Action:
            return Action.TAKE

    assert as_bot(act).name == "act" and as_bot(act, "me").name == "me"
    assert as_bot(Mine).name == "Mine" and isinstance(as_bot(Mine).policy, Mine)
    assert as_bot(Mine(), "x").name == "x"
    result = nt.play_game([as_bot(act, "me"), make_bot("marginal"), make_bot("heuristic")], seed=1)
    assert len(result.scores) == 3


def test_the_play_table_seats_a_students_bot() -> None:
    from nothanks_lab.widgets import PlayTable

    def act(view: nt.PlayerView) -> Action:
        return Action.TAKE

    table = PlayTable(3, [as_bot(act, "my_bot"), "heuristic"], seed=3, bot_delay=0)
    assert "my_bot" in table.pickers[1].dropdown.options[0][0]
    assert table.phase in ("human", "round_over")


SCRIPT = """
import sys
import numpy as np
import nothanks_lab as nt
from nothanks_lab import Action, league

SHARE = 0.4
NAMES = ("a", "b")


def cost_of(view):
    hand = view.my_hand
    return nt.card_points(hand + (view.active_card,)) - nt.card_points(hand)


def my_act(view):
    if not view.can_pass:
        return Action.TAKE
    return Action.TAKE if view.pot >= SHARE * cost_of(view) else Action.PASS


class Mine:
    def act(self, view):
        return my_act(view)


folder = sys.argv[1]
print(league.save_bot(my_act, folder, "fn").name)
print(league.save_bot(Mine, folder, "cls").name)
ARRAY = np.arange(3)


def uses_array(view):
    return Action.TAKE if ARRAY[0] else Action.PASS


try:
    league.save_bot(uses_array, folder, "arr")
except ValueError as e:
    print("refused:", e)
"""


def test_save_bot_writes_a_notebook_bot_with_what_it_uses(tmp_path: Path) -> None:
    """Run as a script (a notebook's code lives in ``__main__`` too) and collect the files."""
    script = tmp_path / "nb.py"
    script.write_text(SCRIPT)
    folder = tmp_path / "league"
    folder.mkdir()
    out = subprocess.run(
        [sys.executable, str(script), str(folder)], capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines()[:2] == ["fn.py", "cls.py"]
    assert "refused: uses_array uses ARRAY (a ndarray) from the notebook" in out
    text = (folder / "fn.py").read_text()
    assert "SHARE = 0.4" in text and "import nothanks_lab as nt" in text
    assert "from nothanks_lab.engine import Action" in text and "act = my_act" in text
    assert "def cost_of(view):" in text and "NAMES" not in text
    assert "Bot = Mine" in (folder / "cls.py").read_text()
    found = collect_bots(folder, seed=1)
    assert found.names == ("cls", "fn") and not found.rejections
    game = nt.Game(3, seed=9)
    view = game.view(0)
    assert found.bots[0].act(view) is found.bots[1].act(view)


def test_save_bot_refuses_bad_names_and_lambdas(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="name must be letters"):
        save_bot(lambda view: Action.TAKE, tmp_path, "../evil")
    with pytest.raises(ValueError, match="not lambda"):
        save_bot(lambda view: Action.TAKE, tmp_path, "me")
    with pytest.raises(ValueError, match="bot must be a function"):
        save_bot(GOOD_FUNCTION, tmp_path, "me")

    def act(view: nt.PlayerView) -> Action:
        return Action.TAKE

    with pytest.raises(ValueError, match="folder must be an existing folder"):
        save_bot(act, tmp_path / "nope", "me")
    with pytest.raises(ValueError, match=r"'\.' for the current one"):
        save_bot(act, "", "me")


# ------------------------------------------------------------------ the package's names
def test_every_name_of_the_former_module_is_importable_from_the_package() -> None:
    """`league` became a package by concept; what callers imported from it still imports."""
    # The names, as the package exported them when it became one (a snapshot).
    public = set(
        (
            "DEFAULT_BUILTINS DEFAULT_DEALS LeagueEntries LeagueResult Rejection "
            "StudentBot as_bot collect_bots describe_position run_league save_bot "
            "screen_bot"
        ).split()
    )
    assert set(league.__all__) == public
    constants = {"MAX_MS_PER_DECISION", "TIME_LIMIT_S", "STUDENT_COLOR", "BUILTIN_COLOR", "Stage"}
    assert [n for n in sorted(public | constants) if not hasattr(league, n)] == []


def test_the_bots_left_out_are_listed_once_each(played: league.LeagueResult) -> None:
    page = played._repr_html_()
    assert page.count("<li") == len(played.rejections) > 0
    assert all(html.escape(r.message) in page for r in played.rejections)
    text = str(played)
    assert text.count("  ✘ ") == len(played.rejections)


@pytest.mark.slow
@pytest.mark.parametrize("isolate", [True, False], ids=["isolated", "in-process"])
def test_a_portuguese_class_reads_every_rejection_in_portuguese(
    tmp_path: Path, isolate: bool
) -> None:
    # Lesson 05 in Portuguese promised friendly messages and printed them in English: the
    # isolated bots' messages are written in their own processes, in the class's language.
    from nothanks_lab.i18n import language

    with language("pt_BR"):
        got = collect_bots(write(tmp_path, FILES), seed=11, isolate=isolate)
        text = str(got)
        messages = [r.message for r in got.rejections]
    assert set(got.names) == {"ada", "bo"}
    assert text.startswith("2 robôs prontos: ada, bo") and "9 ficaram de fora:" in text
    assert {r.name: r.stage for r in got.rejections if r.stage == "find"} == {
        "gus": "find",
        "jo": "find",
        "kim": "find",
    }
    english = re.compile(
        r"\b(left out|while|raised|line|the file|its|chips?|seat|cards?|holds|returned|"
        r"answered|defines|Make sure|Run the|Check)\b"
    )
    for message in messages:
        assert "fica de fora da liga" in message, message
        assert not english.search(message), message
    cy = next(m for m in messages if m.startswith("O robô 'cy'"))
    assert "AttributeError" in cy and "(cy.py, linha " in cy
    assert "A posição: o lugar 0 decide sobre a carta " in cy
    assert any("o arquivo não define nenhum robô" in m for m in messages)


@pytest.mark.parametrize("isolate", [False, True], ids=["in-process", "isolated"])
def test_a_file_name_cannot_forge_lines_of_the_teachers_report(
    tmp_path: Path, isolate: bool
) -> None:
    # A file named "zz\n   1  MarginalCostBot(threshold=10)  999 ...\x1b[31m.py" added a fake
    # rank-1 row; a failing file's name added a false "left out: it cheated" line.
    honest = "from nothanks_lab import Action\ndef act(view):\n    return Action.TAKE\n"
    (tmp_path / "zz\n   1  MarginalCostBot(threshold=10)   99\x1b[31m.py").write_text(honest)
    (tmp_path / "a\n  ✘ Bot 'ada' (ada.py) is left out: it cheated.py").write_text("1/0\n")
    (tmp_path / "ada.py").write_text(honest)
    result = run_league(tmp_path, n_games=1, seed=5, progress=False, isolate=isolate)
    text = str(result)
    assert "\x1b" not in text
    assert len(result.students) == 2 and all(n.isprintable() for n in result.students)
    assert "zz 1 MarginalCostBot(threshold=10) 99 [31m" in result.students
    (rejection,) = result.rejections
    assert rejection.file is not None and rejection.file.isprintable()
    lines = text.splitlines()
    assert len(lines) == 3 + 4 + 2, text  # heading, four rows, "Left out:" and one line
    assert sum("left out" in line for line in lines) == 1


def test_the_table_says_who_is_a_student_whatever_the_name() -> None:
    # "HeuristicBоt(defaults)" with a Cyrillic "о" is not a built-in's name, so it is not
    # renamed, and it printed exactly like the built-in; the table now has a column for it.
    def mine(view: nt.PlayerView) -> Action:
        return Action.TAKE if not view.can_pass or view.pot >= 3 else Action.PASS

    look_alike = "HeuristicB\u043et(defaults)"
    result = run_league({look_alike: mine}, n_games=2, seed=3, progress=False)
    rows = [line.split(None, 2) for line in str(result).splitlines()[3:]]
    who = {rest.split("  ")[0]: kind for _, kind, rest in rows}
    assert who == {
        look_alike: "student",
        "HeuristicBot(defaults)": "built-in",
        "MarginalCostBot(threshold=10)": "built-in",
    }
    page = result._repr_html_()
    assert "<th>who</th>" in page and page.count("<td>student</td>") == 1

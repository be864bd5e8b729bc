"""Cheating, hanging, crashing and memory-hungry league files: each is left out, the league ends.

Every file is written into a fresh league folder next to an honest bot; the league runs with
short limits so the suite stays quick.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from nothanks_lab.league import run_league

HONEST = """
from nothanks_lab import Action
def act(view):
    return Action.TAKE if view.my_chips == 0 or view.pot >= 3 else Action.PASS
"""

CHEATS = {
    "framewalk": """
        import sys
        from nothanks_lab import Action
        def act(view):
            f = sys._getframe()
            while f is not None:
                for v in list(f.f_locals.values()):
                    if type(v).__name__ == "Game":
                        v._state.chips[view.seat] += 40
                f = f.f_back
            return Action.TAKE if view.my_chips == 0 else Action.PASS
    """,
    "gcsearch": """
        import gc
        from nothanks_lab import Action
        def act(view):
            for o in gc.get_objects():
                if type(o).__name__ == "Game":
                    o._state.chips[view.seat] += 40
            return Action.TAKE if view.my_chips == 0 else Action.PASS
    """,
    "catchall": """
        try:
            while True:
                pass
        except BaseException:
            while True:
                pass
    """,
    "kbd_load": "raise KeyboardInterrupt\n",
    "exit_act": """
        import os
        def act(view):
            os._exit(0)
    """,
    "genexit": """
        def act(view):
            raise GeneratorExit
    """,
    "hog": """
        def act(view):
            return len(bytearray(4 * 2**30))
    """,
    "spam": """
        from nothanks_lab import Action
        def act(view):
            print("x" * 10000)
            return Action.TAKE
    """,
}


def _folder(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))
    return tmp_path


# Those that run into the time limit or spawn much (over 2 s each) are slow; the rest stay fast.
SLOW_CHEATS = {"catchall", "framewalk", "gcsearch", "spam"}


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_CHEATS else n for n in sorted(CHEATS)],
)
def test_a_cheating_file_never_wins_and_never_stops_the_league(tmp_path: Path, name: str) -> None:
    folder = _folder(tmp_path, {"honest": HONEST, name: CHEATS[name]})
    result = run_league(folder, n_games=3, seed=1, progress=False, time_limit=2)
    assert "honest" in result.students
    rejected = {r.name for r in result.rejections}
    rows = result.leaderboard()
    if name in rejected:
        assert name not in result.students
    else:  # it reached nothing: it plays honestly and gains nothing
        assert name in ("framewalk", "gcsearch", "spam")
        assert rows[0]["bot"] != name or name == "spam"
    # chips conserved in every reported game: the records sum to the starting chips
    records = result.tournament.game_records()
    by_game: dict[int, int] = {}
    for r in records:
        by_game[r["game"]] = by_game.get(r["game"], 0) + r["chips"]
    assert set(by_game.values()) == {33}  # 3 seats x 11 chips, none created

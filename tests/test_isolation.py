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


# --------------------------------------------------------------------------- each limit named
#: File -> (stage of the rejection, words its problem must say). None of these can be caught in
#: the league's own process: each would stop, hang or fool a league run in-process.
REJECTED = {
    "sysexit_act": ("screen", "SystemExit", "def act(view):\n    raise SystemExit(3)\n"),
    "sysexit_load": ("load", "SystemExit", "raise SystemExit(0)\n"),
    "kbd_act": ("screen", "KeyboardInterrupt", "def act(view):\n    raise KeyboardInterrupt\n"),
    "genexit_load": ("load", "GeneratorExit", "raise GeneratorExit\n"),
    "custom_load": (
        "load",
        "Boom",
        "class Boom(BaseException):\n    pass\nraise Boom('no')\n",
    ),
    "custom_act": (
        "screen",
        "Boom",
        "class Boom(BaseException):\n    pass\ndef act(view):\n    raise Boom('no')\n",
    ),
    "alarm_off": (
        "screen",
        "2 s",
        "import signal\ndef act(view):\n    signal.setitimer(signal.ITIMER_REAL, 0)\n"
        "    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    while True:\n        pass\n",
    ),
    "alarm_off_load": (
        "load",
        "2 s",
        "import signal\nsignal.setitimer(signal.ITIMER_REAL, 0)\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass\n",
    ),
    "catch_load": (
        "load",
        "2 s",
        "while True:\n    try:\n        while True:\n            pass\n"
        "    except BaseException:\n        pass\n",
    ),
    "sleeper": ("screen", "2 s", "import time\ndef act(view):\n    time.sleep(60)\n"),
    "memory": (
        "screen",
        "memory",
        "def act(view):\n    return len(bytearray(4 * 2**30))\n",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(REJECTED))
def test_each_escape_is_a_rejection_naming_file_limit_and_position(
    tmp_path: Path, name: str
) -> None:
    stage, words, text = REJECTED[name]
    folder = _folder(tmp_path, {"honest": HONEST, name: text})
    result = run_league(folder, n_games=2, seed=3, progress=False, time_limit=2)
    assert result.students == ("honest",) or list(result.students) == ["honest"]
    (rejection,) = [r for r in result.rejections if r.name == name]
    assert rejection.file == f"{name}.py"
    assert rejection.stage == stage
    assert words in rejection.problem, rejection.problem
    if stage != "load":
        assert rejection.view is not None  # the position it failed on


def test_a_monkeypatch_reaches_neither_the_parent_nor_later_games(tmp_path: Path) -> None:
    from nothanks_lab import play_game
    from nothanks_lab.bots import MarginalCostBot

    original = MarginalCostBot.act
    before = play_game([MarginalCostBot(5), MarginalCostBot(2), MarginalCostBot(8)], seed=4)
    patcher = """
        from nothanks_lab import Action
        from nothanks_lab.bots import MarginalCostBot
        MarginalCostBot.act = lambda self, view: Action.PASS if view.my_chips else Action.TAKE
        def act(view):
            MarginalCostBot.act = lambda self, view: Action.TAKE
            return Action.TAKE if view.my_chips == 0 or view.pot >= 2 else Action.PASS
    """
    folder = _folder(tmp_path, {"honest": HONEST, "patcher": patcher})
    run_league(folder, builtins=["marginal", "heuristic"], n_games=2, seed=1, progress=False)
    assert MarginalCostBot.act is original
    after = play_game([MarginalCostBot(5), MarginalCostBot(2), MarginalCostBot(8)], seed=4)
    assert after == before


# --------------------------------------------------------------------------- lockstep batching
class _Answerer:
    """Stands for a bot's process: answers a batch with the bot's moves, counting batches."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.batches: list[int] = []

    def __deepcopy__(self, memo: dict[int, object]) -> _Answerer:
        return self  # one process, shared by every copy of the bot


class _Batched:
    """An in-process bot that answers in batches through its `_Answerer` (no process)."""

    def __init__(self, answerer: _Answerer) -> None:
        self.answerer = answerer

    @property
    def batch_key(self) -> object:
        return self.answerer

    def act_many(self, views: list) -> list:
        self.answerer.batches.append(len(views))
        return [self.answerer.bot.act(v) for v in views]  # type: ignore[attr-defined]

    def act(self, view: object) -> object:
        return self.act_many([view])[0]


@pytest.mark.parametrize("compiled", [False, True], ids=["act", "compiled"])
def test_lockstep_plays_exactly_the_games_one_after_another_plays(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same games as `play_game`, whether the built-ins answer through their `act` or
    (from `COMPILED_FROM` games on) through the compiled kernel."""
    from nothanks_lab import play_game
    from nothanks_lab.bots import HeuristicBot, MarginalCostBot
    from nothanks_lab.deals import deal_decks
    from nothanks_lab.fast import answers
    from nothanks_lab.play import ask
    from nothanks_lab.rules import Rules
    from nothanks_lab.tournaments import lockstep
    from nothanks_lab.tournaments.lockstep import lockstep_ready, play_lockstep

    monkeypatch.setattr(answers, "COMPILED_FROM", 1 if compiled else 10**9)
    asked: list[bool] = []
    real = lockstep.compiled_ask
    monkeypatch.setattr(
        lockstep, "compiled_ask", lambda *a: asked.append(real(*a) is not ask) or real(*a)
    )
    rules = Rules()
    answerer = _Answerer(MarginalCostBot(4))
    seated = [_Batched(answerer), HeuristicBot(), MarginalCostBot(9)]
    decks = deal_decks(rules, seed=11, start=0, count=40)
    assert lockstep_ready(seated)
    played = play_lockstep([(seated, d) for d in decks], rules, 1)
    for deck, (points, chips, moves) in zip(decks, played, strict=True):
        alone = play_game(
            [MarginalCostBot(4), HeuristicBot(), MarginalCostBot(9)],
            rules=rules,
            deck=deck,
            first_player=1,
        )
        assert (points, chips, moves) == (alone.card_points, alone.chips, len(alone.history))
    assert asked == [compiled]
    # one message per round of the lockstep, many decisions in each
    assert max(answerer.batches) == 40
    assert sum(answerer.batches) > 10 * len(answerer.batches)


def test_lockstep_is_refused_beside_a_bot_with_its_own_generator() -> None:
    from nothanks_lab.bots import MarginalCostBot, RandomBot
    from nothanks_lab.tournaments.lockstep import lockstep_ready

    batched = _Batched(_Answerer(MarginalCostBot(4)))
    assert not lockstep_ready([batched, RandomBot(seed=1), MarginalCostBot(2)])
    assert not lockstep_ready([MarginalCostBot(4), MarginalCostBot(2)])


@pytest.mark.slow
def test_an_isolated_league_gives_the_in_process_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from nothanks_lab.fast import answers

    monkeypatch.setattr(answers, "COMPILED_FROM", 1)  # the built-ins answer compiled too
    other = HONEST.replace("pot >= 3", "pot >= 5")
    folder = _folder(tmp_path, {"honest": HONEST, "other": other})
    runs = [
        run_league(folder, n_games=6, seed=9, progress=False, isolate=isolate)
        for isolate in (False, True)
    ]
    assert runs[0].tournament.game_records() == runs[1].tournament.game_records()
    assert runs[0].leaderboard() == runs[1].leaderboard()


@pytest.mark.slow
def test_a_bot_hanging_on_one_view_of_a_batch_is_named_and_the_league_goes_on(
    tmp_path: Path,
) -> None:
    # Screening asks some 100 decisions; the league's batches reach the 1500th.
    late = """
        from nothanks_lab import Action
        calls = [0]
        def act(view):
            calls[0] += 1
            if calls[0] == 1500:
                while True:
                    pass
            return Action.TAKE if view.my_chips == 0 or view.pot >= 2 else Action.PASS
    """
    folder = _folder(tmp_path, {"honest": HONEST, "late": late})
    result = run_league(folder, n_games=20, seed=2, progress=False, time_limit=1)
    assert list(result.students) == ["honest"]
    (rejection,) = [r for r in result.rejections if r.name == "late"]
    assert rejection.stage == "league", rejection.problem
    assert "more than 1 s to decide" in rejection.problem
    assert rejection.view is not None and rejection.file == "late.py"
    assert result.tournament.n_games > 0


# --------------------------------------------------------------------------- the teacher's Ctrl-C
def _processes_naming(marker: str) -> list[int]:
    """Live processes whose command line names `marker` (the sandbox's config holds its path)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc")
def test_ctrl_c_stops_a_league_at_once_and_leaves_no_process(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    league = tmp_path / "class"
    league.mkdir()
    forker = """
        import os, time
        from nothanks_lab import Action
        if os.fork() == 0:  # a grandchild that would outlive a careless league
            time.sleep(600)
        def act(view):
            return Action.TAKE if view.my_chips == 0 or view.pot >= 4 else Action.PASS
    """
    _folder(league, {"honest": HONEST, "forker": forker})
    script = (
        "from nothanks_lab.league import run_league\n"
        f"run_league({str(league)!r}, n_games=100000, seed=1, progress=False)\n"
    )
    from nothanks_lab.tournaments.confine import available

    # two bot processes and the grandchild; in PID namespaces, each bot's waiting process too
    started = 3 + 2 * ("pid namespace" in available())
    proc = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while len(_processes_naming(str(league))) < started and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(_processes_naming(str(league))) >= started, "the league never started its bots"
        time.sleep(1.0)  # into the tournament
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        proc.wait(timeout=15)
        assert time.monotonic() - start < 10
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode != 0
    time.sleep(0.5)
    assert _processes_naming(str(league)) == []


# --------------------------------------------------------------------- file.py:Class, isolated
CLASS_BOT = """
    import gc
    from nothanks_lab import Action
    class Mine:
        def __init__(self, threshold=3):
            self.threshold = threshold
        def act(self, view):
            for o in gc.get_objects():  # a cheat: finds nothing in its own process
                if type(o).__name__ == "Game":
                    o._state.chips[view.seat] += 40
            return Action.TAKE if view.my_chips == 0 or view.pot >= self.threshold else Action.PASS
"""


@pytest.mark.slow
def test_tournament_isolate_plays_a_file_class_from_its_own_process(tmp_path: Path) -> None:
    from nothanks_lab.tournaments import tournament

    _folder(tmp_path, {"mine": CLASS_BOT})
    field = [f"{tmp_path / 'mine.py'}:Mine:threshold=4", "marginal", "heuristic"]
    # 3 deals (18 games): the cheat walks the child's whole heap at every decision, ~10 ms each
    result = tournament(field, 3, 3, seed=1, isolate=True, progress=False)
    assert result.names[0] == "Mine(threshold=4)"
    by_game: dict[int, int] = {}
    for r in result.game_records():
        by_game[r["game"]] = by_game.get(r["game"], 0) + r["chips"]
    assert set(by_game.values()) == {33}  # the cheat created no chip
    # the same decisions as the class played in this process without its cheat
    honest = tmp_path / "honest_mine.py"
    honest.write_text(textwrap.dedent(CLASS_BOT).replace("gc.get_objects()", "[]"))
    plain = tournament([f"{honest}:Mine:threshold=4", "marginal", "heuristic"], 3, 3, seed=1)

    def moves(t: object) -> list[dict[str, object]]:
        return [{k: v for k, v in r.items() if k != "bot"} for r in t.game_records()]  # type: ignore[attr-defined]

    assert moves(result) == moves(plain)
    with pytest.raises(ValueError, match="isolate must be True or False"):
        tournament(field, 3, 8, seed=1, isolate="yes")  # type: ignore[arg-type]


@pytest.mark.slow
def test_cli_isolate_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from nothanks_lab.__main__ import main

    _folder(tmp_path, {"mine": CLASS_BOT})
    spec = f"{tmp_path / 'mine.py'}:Mine:threshold=4"
    argv = ["tournament", "-p", "3", "-n", "5", "--seed", "2", "--no-progress", "--isolate"]
    code = main([*argv, "--format", "csv", "-b", spec, "marginal", "heuristic"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Mine(threshold=4)" in out


# ------------------------------------------------- signals, fork bombs and survivors (confine)
ESCAPERS = {
    "sigint_load": """
        import os, signal
        os.kill(os.getppid(), signal.SIGINT)
        from nothanks_lab import Action
        def act(view):
            return Action.TAKE if view.my_chips == 0 else Action.PASS
    """,
    "sigterm_act": """
        import os, signal
        from nothanks_lab import Action
        def act(view):
            os.kill(os.getppid(), signal.SIGTERM)
            return Action.TAKE if view.my_chips == 0 else Action.PASS
    """,
    "forks200": """
        import os, time
        for _ in range(200):
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
        from nothanks_lab import Action
        def act(view):
            return Action.TAKE if view.my_chips == 0 else Action.PASS
    """,
    "setsid_sleeper": """
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(600)
            os._exit(0)
        from nothanks_lab import Action
        def act(view):
            return Action.TAKE if view.my_chips == 0 or view.pot >= 2 else Action.PASS
    """,
}


def _living(marker: str) -> list[int]:
    """Processes (not zombies) whose command line names `marker`, seen through psutil."""
    psutil = pytest.importorskip("psutil")
    found = []
    for p in psutil.process_iter(["cmdline", "status"]):
        try:
            if p.info["status"] != psutil.STATUS_ZOMBIE and marker in " ".join(
                p.info["cmdline"] or ()
            ):
                found.append(p.pid)
        except (psutil.Error, TypeError):
            continue
    return found


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ESCAPERS))
def test_a_file_can_neither_signal_the_league_nor_outlive_it(tmp_path: Path, name: str) -> None:
    import os
    import signal
    import time

    from nothanks_lab.tournaments.confine import available

    measures = available()
    if name == "forks200" and "process limit" not in measures and "pid namespace" not in measures:
        pytest.skip("neither a process limit nor a PID namespace on this machine")
    folder = tmp_path / "class"
    folder.mkdir()
    _folder(folder, {"honest": HONEST, name: ESCAPERS[name]})
    caught: list[int] = []
    old = {s: signal.signal(s, lambda n, f: caught.append(n)) for s in (2, 15)}
    try:
        result = run_league(folder, n_games=3, seed=1, progress=False, time_limit=3)
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    assert caught == []  # the teacher's process was never signalled
    assert "honest" in result.students
    if name == "forks200" and "process limit" in measures:  # its forks failed at the limit
        rejected = {r.name: r.problem for r in result.rejections}
        assert "BlockingIOError" in rejected[name], rejected
    deadline = time.monotonic() + 10
    while _living(str(folder)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _living(str(folder)) == [], "a process of the file outlived the league"
    assert os.getpid() > 0


@pytest.mark.slow
def test_the_unseeded_global_generators_of_a_file_bot_follow_the_runs_seed(
    tmp_path: Path,
) -> None:
    from nothanks_lab.rules import Rules
    from nothanks_lab.tournaments.sandbox import IsolatedPolicy
    from nothanks_lab.view import hypothetical_view

    bot = tmp_path / "dice.py"
    bot.write_text(
        "import random\nimport numpy as np\nfrom nothanks_lab import Action\n"
        "def act(view):\n"
        "    coin = random.random() < 0.5 if view.pot % 2 else np.random.random() < 0.5\n"
        "    return Action.TAKE if coin or view.my_chips == 0 else Action.PASS\n"
    )
    views = [
        hypothetical_view(
            seat=0,
            n_players=3,
            active_card=20,
            pot=pot % 7,
            my_chips=5,
            chips=(5, 11, 11),
            hands=((), (), ()),
            cards_left=23,
            rules=Rules(),
        )
        for pot in range(60)
    ]

    def moves(seed: tuple[int, int]) -> list[object]:
        policy = IsolatedPolicy(bot, seed=seed)
        try:
            return policy.act_many(views)
        finally:
            policy.close()

    assert moves((5, 0)) == moves((5, 0))
    assert moves((5, 0)) != moves((6, 0))  # 2**-60 to be equal by chance
    assert moves((5, 0)) != moves((5, 1))  # its place in the field counts too


UNSEEDED = {  # how a student draws random numbers without a seed of their own
    "random module": ("import random", "random.random()"),
    "numpy legacy": ("import numpy as np", "np.random.random()"),
    # fresh system entropy on every run before (adversary trial, stop 40):
    "default_rng()": ("import numpy as np\n        rng = np.random.default_rng()", "rng.random()"),
    "random.Random()": ("import random\n        rng = random.Random()", "rng.random()"),
    "random.seed()": ("import random\n        random.seed()", "random.random()"),
}


@pytest.mark.slow
@pytest.mark.parametrize("how", list(UNSEEDED))
def test_a_league_of_an_unseeded_random_file_bot_reruns_identically(
    tmp_path: Path, how: str
) -> None:
    setup, draw = UNSEEDED[how]
    dice = f"""
        {setup}
        from nothanks_lab import Action
        def act(view):
            return Action.TAKE if view.my_chips == 0 or {draw} < 0.3 else Action.PASS
    """
    folder = _folder(tmp_path, {"honest": HONEST, "dice": dice})
    runs = [run_league(folder, n_games=3, seed=s, progress=False) for s in (7, 7, 8)]
    assert runs[0].tournament.game_records() == runs[1].tournament.game_records()
    assert runs[0].leaderboard() == runs[1].leaderboard()
    assert runs[0].tournament.game_records() != runs[2].tournament.game_records()


# ------------------------------------------------------------------ honest names and messages
NAMED = """
    from nothanks_lab import Action
    class Mine:
        def __init__(self, threshold=3):
            self.threshold = threshold
        def act(self, view):
            return Action.TAKE if view.my_chips == 0 or view.pot >= self.threshold else Action.PASS
    class Ada(Mine):
        name = "Ada the bold"
"""


@pytest.mark.parametrize("spec", ["Mine", "Mine:threshold=4", "Ada", "Ada:threshold=2"])
def test_an_isolated_bot_shows_the_name_it_shows_in_this_process(tmp_path: Path, spec: str) -> None:
    from nothanks_lab.play import policy_name
    from nothanks_lab.tournaments import make_policy
    from nothanks_lab.tournaments.sandbox import isolated_bot

    _folder(tmp_path, {"named": NAMED})
    full = f"{tmp_path / 'named.py'}:{spec}"
    isolated = isolated_bot(full)
    assert isolated is not None
    try:
        assert policy_name(isolated) == policy_name(make_policy(full))
    finally:
        isolated.close()
    expected = {"Mine": "Mine", "Mine:threshold=4": "Mine(threshold=4)"}
    assert policy_name(make_policy(full)) == expected.get(spec, "Ada the bold")


@pytest.mark.slow
def test_a_slow_bot_is_told_its_measured_time_and_the_limit_not_an_endless_loop(
    tmp_path: Path,
) -> None:
    from nothanks_lab.rules import Rules
    from nothanks_lab.tournaments.sandbox import BotProcessError, IsolatedPolicy
    from nothanks_lab.view import hypothetical_view

    slow = tmp_path / "slow.py"
    slow.write_text(
        "import time\nfrom nothanks_lab import Action\ncalls = [0]\n"
        "def act(view):\n    calls[0] += 1\n    time.sleep(0.3 if calls[0] <= 3 else 5)\n"
        "    return Action.TAKE\n"
    )
    view = hypothetical_view(
        seat=0, n_players=3, active_card=20, pot=0, my_chips=5, chips=(5, 11, 11),
        hands=((), (), ()), cards_left=23, rules=Rules(),
    )  # fmt: skip
    policy = IsolatedPolicy(slow, decision_s=1.5)
    with pytest.raises(BotProcessError) as info:
        policy.act_many([view] * 5)
    problem = info.value.problem
    assert "endless" not in problem
    assert "more than 1.5 s to decide (the limit per decision)" in problem, problem
    ms = int(problem.split("took ")[-1].split(" ms")[0])
    assert "its 3 decisions before took" in problem and 250 <= ms <= 1500, problem


@pytest.mark.slow
def test_screening_names_the_pace_and_the_limit(tmp_path: Path) -> None:
    slowish = """
        import time
        from nothanks_lab import Action
        def act(view):
            time.sleep(0.4)
            return Action.TAKE if view.my_chips == 0 or view.pot >= 3 else Action.PASS
    """
    folder = _folder(tmp_path, {"honest": HONEST, "slowish": slowish})
    result = run_league(folder, n_games=2, seed=1, progress=False, time_limit=1.2)
    (rejection,) = [r for r in result.rejections if r.name == "slowish"]
    assert "endless" not in rejection.problem
    assert "1.2 s" in rejection.problem and "decisions" in rejection.problem, rejection.problem

"""What a student's file can read and how long it may take, in a league's isolated processes.

A league reads each file (and, for a plain isolated bot, the files beside it) before the bot's
process drops its rights, so these tests plant what a student could plant: a symbolic link to a
file only the teacher may read, a classmate's file to import, a bot that is legal but slow.
"""

from __future__ import annotations

import os
import signal
import textwrap
from pathlib import Path

import pytest

import nothanks_lab as nt
from nothanks_lab.league import run_league
from nothanks_lab.tournaments import sandbox
from nothanks_lab.tournaments.sandbox import BotProcessError, IsolatedPolicy

HONEST = "from nothanks_lab import Action\ndef act(view):\n    return Action.TAKE\n"


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(text))


def _texts(result: object) -> str:
    return " ".join(f"{r.problem} {r.advice}" for r in result.rejections)  # type: ignore[attr-defined]


@pytest.mark.slow
def test_a_link_to_a_private_file_hands_its_text_to_no_bot(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET = 1\n")
    secret.chmod(0o600)
    league = tmp_path / "league"
    league.mkdir()
    (league / "notes.py").symlink_to(secret)  # a "bot" that is a link to the private file
    _write(
        league,
        {
            "honest": HONEST,
            "thief": """
                import sys
                from nothanks_lab import Action
                def act(view):
                    found = [str(getattr(f, "sources", "")) for f in sys.meta_path]
                    if any("TOPSECRET" in t for t in found):
                        raise ValueError("stolen: " + " ".join(found))
                    return Action.TAKE
            """,
        },
    )
    result = run_league(league, n_games=2, seed=1, progress=False, time_limit=5)
    assert "TOPSECRET" not in _texts(result)
    assert "thief" in result.students and "honest" in result.students
    notes = [r for r in result.rejections if r.name == "notes"]
    assert notes and "link" in notes[0].problem


@pytest.mark.slow
def test_a_league_bot_cannot_import_a_classmate_but_can_import_the_standard_library(
    tmp_path: Path,
) -> None:
    _write(
        tmp_path,
        {
            "alice": "SECRET = 4\n" + HONEST,
            "mallory": """
                from nothanks_lab import Action
                def act(view):
                    import alice
                    return Action.TAKE if alice.SECRET else Action.PASS
            """,
            "stats_user": """
                import glob, statistics
                from nothanks_lab import Action
                def act(view):
                    m = statistics.mean([view.pot, view.my_chips]) + len(glob.glob("*.nope"))
                    return Action.TAKE if m >= 2 or not view.can_pass else Action.PASS
            """,
        },
    )
    result = run_league(tmp_path, n_games=2, seed=1, progress=False, time_limit=5)
    assert "stats_user" in result.students and "alice" in result.students
    mallory = [r for r in result.rejections if r.name == "mallory"]
    assert mallory and "alice" in mallory[0].problem


@pytest.mark.slow
def test_a_legal_but_slow_bot_is_stopped_by_the_mean_time_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "slow.py"
    path.write_text("import time\nfrom nothanks_lab import Action\ndef act(view):\n"
                    "    time.sleep(0.02)\n    return Action.TAKE\n")  # fmt: skip
    monkeypatch.setattr(sandbox, "MEAN_DECISION_LIMIT_S", 0.01)
    bot = IsolatedPolicy(path, decision_s=5)
    view = nt.Game(3, seed=1).view(0)
    try:
        with pytest.raises(BotProcessError, match="on average"):
            bot.act_many([view] * (sandbox._MEAN_AFTER + 20))
    finally:
        bot.close()


def _bot_processes(outer: int) -> list[int]:
    """The process `outer` and every process below it (a bot in a PID namespace runs as the
    child of a waiting process, which `IsolatedPolicy` started)."""
    found, todo = [], [outer]
    while todo:
        pid = todo.pop()
        found.append(pid)
        try:
            text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
        except OSError:
            continue
        todo += [int(c) for c in text.split()]
    return found


@pytest.mark.slow
def test_a_bot_over_its_cpu_time_is_told_so_in_or_out_of_a_pid_namespace(tmp_path: Path) -> None:
    # Process 1 of a PID namespace ignores SIGXCPU; the hard limit's SIGKILL ended the bot and
    # the league said "its process ended while it was deciding (exit code 1)".
    path = tmp_path / "spin.py"
    path.write_text(
        "from nothanks_lab import Action\ndef act(view):\n    while True:\n        pass\n"
    )
    bot = IsolatedPolicy(path, cpu_s=1, decision_s=20)
    try:
        with pytest.raises(BotProcessError, match="more than 1 s of CPU time") as info:
            bot.act(nt.Game(3, seed=2).view(0))
        assert "exit code" not in info.value.problem
    finally:
        bot.close()


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
@pytest.mark.parametrize("which", ["started", "innermost"])
def test_a_process_killed_from_outside_is_not_blamed_on_the_cpu_limit(
    tmp_path: Path, which: str
) -> None:
    # started: the process IsolatedPolicy started; innermost: the bot itself (in a PID
    # namespace, the child of a waiting process: it was said to end with "exit code 1").
    path = tmp_path / "plain.py"
    path.write_text(HONEST)
    bot = IsolatedPolicy(path)
    view = nt.Game(3, seed=1).view(0)
    try:
        assert bot.act(view) is nt.Action.TAKE
        assert bot._proc is not None
        pids = _bot_processes(bot._proc.pid)
        os.kill(pids[0] if which == "started" else pids[-1], signal.SIGKILL)
        bot._proc.wait()
        with pytest.raises(BotProcessError, match="killed from outside") as info:
            bot.act(view)
        assert "CPU" not in str(info.value)
    finally:
        bot.close()


def test_a_classmates_hard_link_leaves_the_victim_in_and_a_link_from_outside_is_named(
    tmp_path: Path,
) -> None:
    # Re-trial: a hard link to a classmate's file got the classmate rejected as "not a plain
    # file (a link, device or folder)". Both names in the folder: both are the student's text
    # and play; a second name outside the folder could be any file: refused, and said so.
    league = tmp_path / "league"
    league.mkdir()
    _write(league, {"ada": HONEST, "bob": HONEST})
    os.link(league / "ada.py", league / "copycat.py")
    os.link(league / "bob.py", tmp_path / "outside.py")
    result = run_league(league, n_games=2, seed=1, progress=False, time_limit=5)
    assert {"ada", "copycat"} <= set(result.students)
    (bob,) = [r for r in result.rejections if r.name == "bob"]
    assert "second name outside its folder" in bob.problem and "copying" in bob.problem


def test_a_file_saved_with_a_byte_order_mark_plays(tmp_path: Path) -> None:
    # Re-trial: Windows editors may start a UTF-8 file with a BOM; it was refused.
    league = tmp_path / "league"
    league.mkdir()
    (league / "ada.py").write_bytes("\ufeff".encode() + HONEST.encode())
    result = run_league(league, n_games=2, seed=1, progress=False, time_limit=5)
    assert "ada" in result.students, _texts(result)
    trusted = run_league(league, n_games=2, seed=1, progress=False, time_limit=5, isolate=False)
    assert "ada" in trusted.students, _texts(trusted)


@pytest.mark.parametrize("isolate", [True, False])
def test_a_pipe_or_a_folder_named_like_a_bot_is_a_named_rejection(
    tmp_path: Path, isolate: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Re-trial: a FIFO or a folder called *.py was skipped without a word (and a FIFO read in
    # the teacher's process would wait forever); a socket gave a bare "[Errno 6]".
    import socket

    league = tmp_path / "league"
    league.mkdir()
    _write(league, {"ada": HONEST})
    os.mkfifo(league / "pipe.py")
    (league / "folder.py").mkdir()
    monkeypatch.chdir(league)  # a socket's path must be short: bind it by its name
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind("sock.py")
        result = run_league(
            league, n_games=2, seed=1, progress=False, time_limit=5, isolate=isolate
        )
    assert "ada" in result.students
    named = {r.name: r.problem for r in result.rejections}
    assert set(named) == {"pipe", "folder", "sock"}, named
    assert all("folder" in p and "socket" in p for p in named.values()), named
    assert not any("Errno" in p for p in named.values()), named


def test_a_file_whose_bot_class_has_another_name_is_told_which_to_rename(tmp_path: Path) -> None:
    league = tmp_path / "league"
    league.mkdir()
    two = (
        "from nothanks_lab import Action\n"
        "class Greedy:\n    def act(self, view):\n        return Action.TAKE\n"
        "class Careful:\n    def act(self, view):\n        return Action.PASS\n"
    )
    _write(league, {"ada": HONEST, "two": two})
    for isolate in (True, False):
        result = run_league(
            league, n_games=2, seed=1, progress=False, time_limit=5, isolate=isolate
        )
        (rejected,) = result.rejections
        assert "Careful, Greedy" in rejected.problem and "rename to Bot" in rejected.problem


def test_league_settings_that_cannot_work_are_refused_before_any_file_loads(
    tmp_path: Path,
) -> None:
    league = tmp_path / "league"
    league.mkdir()
    _write(league, {"ada": HONEST})
    with pytest.raises(ValueError, match="max_ms must be a number of milliseconds above 0"):
        run_league(league, n_games=2, seed=1, progress=False, max_ms=0)
    with pytest.raises(ValueError, match=r"workers must be 1 \(or None\)"):
        run_league(league, n_games=2, seed=1, progress=False, workers=2)
    collected = nt.league.collect_bots(league, seed=1)
    with pytest.raises(ValueError, match=r"workers must be 1 \(or None\)"):
        run_league(collected, n_games=2, seed=1, progress=False, workers=2)


def _processes_naming(text: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as f:
                    if text.encode() in f.read():
                        found.append(int(name))
            except OSError:
                continue
    return found


def test_a_bot_that_leaves_its_group_and_clears_its_death_signal_ends_with_the_league(
    tmp_path: Path,
) -> None:
    # Re-trial: a bot called prctl(PR_SET_PDEATHSIG, 0) and os.setsid() and kept a thread
    # alive: its process outlived the league (parent pid 1), holding its memory.
    import time
    import uuid

    from nothanks_lab.tournaments.confine import available

    if "pid namespace" not in available():
        pytest.skip("without a PID namespace a setsid process may outlive the league (docs)")
    league = tmp_path / f"league-{uuid.uuid4().hex}"
    league.mkdir()
    _write(
        league,
        {
            "stay": """
                import ctypes, os, threading, time
                from nothanks_lab import Action
                ctypes.CDLL(None).prctl(1, 0, 0, 0, 0)
                os.setsid()
                threading.Thread(target=lambda: [time.sleep(1) for _ in iter(int, 1)]).start()
                def act(view):
                    return Action.TAKE
            """,
            "honest": HONEST,
        },
    )
    result = run_league(league, n_games=2, seed=5, progress=False, time_limit=5)
    assert "stay" in result.students
    for _ in range(50):  # the kernel reaps a killed namespace in a moment
        if not _processes_naming(league.name):
            break
        time.sleep(0.1)
    assert _processes_naming(league.name) == []

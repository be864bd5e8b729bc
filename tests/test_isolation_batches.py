"""An isolated bot answers a whole batch in one message, and every decision keeps its deadline.

The bot's process counts the decisions it has finished in a counter it shares with the parent;
these tests check that a deadline still holds per decision (not per batch), that the decision a
bot is stuck on is the one named, and that a bot forging its counter gains at most one deadline
per decision of the batch.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import nothanks_lab as nt
from nothanks_lab.tournaments.sandbox import BotProcessError, IsolatedPolicy


def _views(k: int) -> list[nt.PlayerView]:
    """`k` distinct views of one seeded game (seat 0's on successive positions)."""
    game, views = nt.Game(3, seed=4), []
    while len(views) < k:
        views.append(game.view(game.current_player))  # type: ignore[arg-type]
        game.step(nt.Action.PASS if game.view(game.current_player).my_chips else nt.Action.TAKE)  # type: ignore[arg-type]
    return views


def _bot(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "bot.py"
    path.write_text("import time\nfrom nothanks_lab import Action\ncalls = [0]\n" + body)
    return path


#: Bot source that finds its process's pipe to the league (the one pipe it may write): ``OUT``.
OUT_PIPE = (
    "import fcntl, os, stat\n"
    "def _writes(fd):\n    try:\n        st = os.fstat(fd)\n    except OSError:\n"
    "        return False\n"
    "    return stat.S_ISFIFO(st.st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & 3 == 1\n"
    "OUT = next(fd for fd in range(3, 256) if _writes(fd))  # the pipe to the league\n"
)


def _first_move(tmp_path: Path, body: str) -> nt.Action:
    """The move of the bot of `body` in its first decision."""
    bot = IsolatedPolicy(_bot(tmp_path, body))
    try:
        return bot.act(_views(1)[0])
    finally:
        bot.close()


def _first_failure(tmp_path: Path, body: str) -> str:
    """The `BotProcessError` message of the bot of `body` on its first decision."""
    bot = IsolatedPolicy(_bot(tmp_path, body), decision_s=5)
    try:
        with pytest.raises(BotProcessError) as info:
            bot.act(_views(1)[0])
    finally:
        bot.close()
    return str(info.value)


def test_a_batch_answers_in_one_message_with_the_moves_of_each_view(tmp_path: Path) -> None:
    path = _bot(
        tmp_path, "def act(view):\n    return Action.TAKE if view.pot >= 2 else Action.PASS\n"
    )
    views = _views(40)
    bot = IsolatedPolicy(path)
    try:
        moves = bot.act_many(views)
        assert moves == [nt.Action.TAKE if v.pot >= 2 else nt.Action.PASS for v in views]
        assert bot._recv is not None and bot._recv._buf == bytearray()  # nothing left over
        assert bot.act_many(views[:3]) == moves[:3]  # the next batch lines up
    finally:
        bot.close()


@pytest.mark.slow
def test_the_deadline_is_per_decision_not_per_batch(tmp_path: Path) -> None:
    path = _bot(tmp_path, "def act(view):\n    time.sleep(0.25)\n    return Action.TAKE\n")
    bot = IsolatedPolicy(path, decision_s=0.6)
    try:  # 8 decisions of 0.25 s: 2 s in all, each well inside 0.6 s
        assert bot.act_many(_views(8)) == [nt.Action.TAKE] * 8
    finally:
        bot.close()


@pytest.mark.parametrize("stuck", [0, 5, 9])
def test_the_decision_a_bot_is_stuck_on_is_the_one_named(tmp_path: Path, stuck: int) -> None:
    path = _bot(
        tmp_path,
        "def act(view):\n    calls[0] += 1\n"
        f"    if calls[0] == {stuck + 1}:\n        time.sleep(60)\n    return Action.TAKE\n",
    )
    bot = IsolatedPolicy(path, decision_s=0.8)
    bot.start()  # loaded before the clock starts
    start = time.monotonic()
    with pytest.raises(BotProcessError, match=r"more than 0.8 s to decide") as info:
        bot.act_many(_views(10))
    assert info.value.index == stuck
    assert time.monotonic() - start < 0.8 * 1.125 + 1.5  # one deadline, not ten
    if stuck:
        assert f"its {stuck} decisions before took" in info.value.problem


def test_a_bot_forging_its_progress_counter_is_still_stopped(tmp_path: Path) -> None:
    # It finds the shared counter in its caller's frame and counts on as if it were deciding,
    # once past the batch's end: at most one deadline per view is gained, then it is killed.
    path = _bot(
        tmp_path,
        "import struct, sys\n"
        "def act(view):\n"
        "    frame = sys._getframe(1)\n"
        "    while frame is not None and 'counter' not in frame.f_locals:\n"
        "        frame = frame.f_back\n"
        "    counter = frame.f_locals['counter']\n"
        "    for k in range(1, 1000):\n"
        "        struct.pack_into('=q', counter, 0, k)\n"
        "        time.sleep(0.1)\n"
        "    return Action.TAKE\n",
    )
    bot = IsolatedPolicy(path, decision_s=0.4)
    bot.start()
    start = time.monotonic()
    with pytest.raises(BotProcessError, match="to decide"):
        bot.act_many(_views(3))
    assert time.monotonic() - start < 4 * 0.4 * 1.125 + 1.5
    with pytest.raises(BotProcessError):  # and it stays out
        bot.act_many(_views(1))


@pytest.mark.parametrize(
    ("body", "message", "at"),
    [
        ("    return 'take' if calls[0] == 4 else Action.TAKE\n", "not a move", 3),
        ("    if calls[0] == 3:\n        raise KeyboardInterrupt\n    return Action.TAKE\n",
         "KeyboardInterrupt", 2),
        ("    return None if calls[0] == 6 else Action.PASS\n", "returned None", 5),
    ],
)  # fmt: skip
def test_a_failure_late_in_a_batch_is_named_with_its_view(
    tmp_path: Path, body: str, message: str, at: int
) -> None:
    bot = IsolatedPolicy(_bot(tmp_path, "def act(view):\n    calls[0] += 1\n" + body))
    try:
        with pytest.raises(BotProcessError, match=message) as info:
            bot.act_many(_views(8))
        assert info.value.index == at
    finally:
        bot.close()


# --------------------------------------------------------------- found by an adversary trial
def test_a_bot_that_stops_reading_cannot_hold_the_league_past_its_deadline(
    tmp_path: Path,
) -> None:
    # A timer whose handler sleeps whenever the bot is not deciding: the process stops reading,
    # and a batch larger than the pipe's buffer used to block the parent's write for ever.
    path = _bot(
        tmp_path,
        "import signal\nbusy = [False]\n"
        "def _sleep(*_):\n    if not busy[0]:\n        time.sleep(10**6)\n"
        "signal.signal(signal.SIGALRM, _sleep)\n"
        "signal.setitimer(signal.ITIMER_REAL, 0.05, 0.05)\n"
        "def act(view):\n    busy[0] = True\n    return Action.TAKE\n",
    )
    bot = IsolatedPolicy(path, decision_s=1.0)
    bot.start()
    time.sleep(0.2)  # the handler is asleep now
    start = time.monotonic()
    with pytest.raises(BotProcessError, match="stopped reading"):
        bot.act_many(_views(5) * 400)  # 2,000 views: about 190 kB, three pipe buffers
    assert time.monotonic() - start < 1.0 + 2.0


def test_a_league_folder_readable_by_all_still_hides_classmates_from_import() -> None:
    import tempfile

    from nothanks_lab.league import run_league

    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:  # not under a private pytest folder
        folder = Path(tmp)
        folder.chmod(0o755)
        (folder / "alice.py").write_text(
            "from nothanks_lab import Action\nSECRET = 7\n"
            "def act(view):\n"
            "    return Action.TAKE if view.pot >= 2 or not view.can_pass else Action.PASS\n"
        )
        (folder / "mallory.py").write_text("import alice\nact = alice.act\n")
        for f in folder.iterdir():
            f.chmod(0o644)
        result = run_league(folder, n_games=1, seed=3, progress=False)
    assert "alice" in result.students
    (mallory,) = [r for r in result.rejections if r.name == "mallory"]
    assert "alice" in mallory.problem  # No module named 'alice'


def test_a_linked_file_bot_is_refused_not_read_through_the_link(tmp_path: Path) -> None:
    from nothanks_lab.tournaments.sandbox import isolated_bot

    secret = tmp_path / "secret.txt"
    secret.write_text("TEACHER_ONLY_42\n")
    secret.chmod(0o600)
    (tmp_path / "bot.py").symlink_to(secret)
    with pytest.raises(ValueError, match="symbolic link") as info:
        isolated_bot(f"{tmp_path / 'bot.py'}:Bot")
    assert "TEACHER_ONLY_42" not in str(info.value)


@pytest.mark.slow
def test_a_bot_dies_with_the_league_even_when_the_league_is_killed(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    # Asleep in a signal handler once loaded: it never reads the end of its pipe, so only the
    # kernel can end it when the league dies.
    path = _bot(
        tmp_path,
        "import signal\nsignal.signal(signal.SIGALRM, lambda *_: time.sleep(10**6))\n"
        "signal.setitimer(signal.ITIMER_REAL, 0.2)\n"
        "def act(view):\n    return Action.TAKE\n",
    )
    pid_file = tmp_path / "pid"
    driver = (
        "import sys, time\nfrom nothanks_lab.tournaments.sandbox import IsolatedPolicy\n"
        f"bot = IsolatedPolicy({str(path)!r})\nbot.start()\n"
        f"open({str(pid_file)!r}, 'w').write(str(bot._proc.pid))\ntime.sleep(60)\n"
    )
    league = subprocess.Popen([sys.executable, "-c", driver])
    try:
        deadline = time.monotonic() + 60
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline and league.poll() is None
            time.sleep(0.05)
        child = int(pid_file.read_text())
        time.sleep(0.5)  # the handler is asleep now
        os.kill(league.pid, signal.SIGKILL)  # no handler, no cleanup: only the kernel acts
        league.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                os.kill(child, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            os.kill(child, signal.SIGKILL)
            pytest.fail("the bot's process outlived the league")
    finally:
        league.kill()


def _rejection_of_fd_abuse(tmp_path: Path, on_each_fd: str, after: str) -> tuple[str, float]:
    """The problem named when a bot does `on_each_fd` to every descriptor it has, then `after`."""
    path = _bot(
        tmp_path,
        "import os\ndef act(view):\n    for fd in range(3, 64):\n        try:\n"
        f"            {on_each_fd}\n        except OSError:\n            pass\n{after}"
        "    return Action.TAKE\n",
    )
    bot = IsolatedPolicy(path, decision_s=10)
    start = time.monotonic()
    try:
        with pytest.raises(BotProcessError) as info:
            bot.act_many(_views(3))
    finally:
        bot.close()
    return info.value.problem, time.monotonic() - start


def test_a_bot_writing_junk_to_its_pipes_is_named_for_it_not_for_ending(tmp_path: Path) -> None:
    # The trial's bot wrote bytes to every file descriptor it had: its process lives on, so
    # "its process ended (exit code None)" was false.
    problem, _ = _rejection_of_fd_abuse(tmp_path, "os.write(fd, b'\\xff' * 16)", "")
    assert "something other than its answers" in problem, problem
    assert "exit code" not in problem


def test_a_bot_closing_its_answer_pipe_but_running_on_is_not_said_to_have_ended(
    tmp_path: Path,
) -> None:
    problem, seconds = _rejection_of_fd_abuse(tmp_path, "os.close(fd)", "    time.sleep(30)\n")
    assert "went on running" in problem, problem
    assert seconds < 10  # told at once (2 s to see it go on), not at the limit


def test_a_bot_that_forks_in_act_answers_once_and_plays_on(tmp_path: Path) -> None:
    # Both copies of a forked process used to answer: the parent read the copy's stale
    # answers as the next batch's and reported a timeout "(0 ms each)". Only the process the
    # league started answers now; the copy ends as soon as act returns in it.
    path = _bot(
        tmp_path,
        "import os\ndef act(view):\n    calls[0] += 1\n    if calls[0] == 2:\n        os.fork()\n"
        "    return Action.TAKE if view.pot >= 2 else Action.PASS\n",
    )
    views = _views(12)
    bot = IsolatedPolicy(path, decision_s=5)
    try:
        first = bot.act_many(views[:6])
        time.sleep(0.3)  # the copy has had time to answer, if it could
        assert first + bot.act_many(views[6:]) == [
            nt.Action.TAKE if v.pot >= 2 else nt.Action.PASS for v in views
        ]
        assert bot.act_many(views[:2]) == first[:2]
    finally:
        bot.close()


def test_the_runs_seed_never_reaches_a_bots_process(tmp_path: Path) -> None:
    # The trial's bot read json.loads(sys.argv[1])["seed"][0]: the league's seed (also a fresh
    # one drawn for seed=None), from which it dealt every card to come. Only two derived seeds
    # of its global generators reach it now; the same two as before, so its draws are unchanged.
    from nothanks_lab.tournaments.confine import global_random_seeds

    seed = 987_654_321_123
    path = _bot(
        tmp_path,
        "import json, os, sys\n"
        "seen = sys.argv[1] + json.dumps(dict(os.environ))\n"
        "try:\n    seen += open(f'/proc/{os.getppid()}/cmdline').read()\n"
        "except OSError:\n    pass\n"
        f"def act(view):\n    return Action.TAKE if {str(seed)!r} in seen else Action.PASS\n",
    )
    bot = IsolatedPolicy(path, seed=(seed, 4))
    try:
        assert bot.act(_views(1)[0]) is nt.Action.PASS
    finally:
        bot.close()
    import numpy as np

    assert global_random_seeds((seed, 4)) == [
        int(s) for s in np.random.SeedSequence([seed, 4]).generate_state(2, np.uint32)
    ]


@pytest.mark.parametrize("what", ["seeds", "classmate"])
def test_no_bot_can_read_a_classmates_seeds_from_the_process_list(
    tmp_path: Path, what: str
) -> None:
    # Every process's command line is readable in the machine's /proc; the configuration (with
    # the two seeds of a bot's global generators) was the child's command line. It now comes
    # on stdin, and where a mount namespace is allowed the bot has a /proc of its own, which
    # shows no other process at all (not the teacher's command line with its --seed either).
    from nothanks_lab.tournaments.confine import available, global_random_seeds

    seeds = [str(s) for s in global_random_seeds((55_555, 2)) or []]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    other = IsolatedPolicy(
        _bot(tmp_path / "b", "def act(view):\n    return Action.TAKE\n"), seed=(55_555, 2)
    )
    found = f"any(s in text for s in {seeds!r})" if what == "seeds" else "'b/bot.py' in text"
    spy_body = (
        "import os\n"
        "def seen():\n    text = ''\n    for pid in os.listdir('/proc'):\n"
        "        try:\n            text += open(f'/proc/{pid}/cmdline').read()\n"
        "        except OSError:\n            pass\n    return text\n"
        f"def act(view):\n    text = seen()\n"
        f"    return Action.TAKE if {found} else Action.PASS\n"
    )
    spy = IsolatedPolicy(_bot(tmp_path / "a", spy_body))
    try:
        other.start()
        saw = spy.act(_views(1)[0]) is nt.Action.TAKE
    finally:
        spy.close()
        other.close()
    if what == "seeds":
        assert not saw
    else:  # the classmate's process is listed only without a /proc of the bot's own
        assert saw == ("own /proc" not in available())


def test_a_bots_own_words_cannot_forge_lines_of_the_teachers_report(tmp_path: Path) -> None:
    # Newlines and escape sequences in a bot's exception text or its name printed as lines of
    # their own: a fake "✘ Bot 'goodie' ... is left out" under the table, a fake "rank 1" row.
    forged = "x.\\n  \\x1b[2J✘ Bot 'goodie' (goodie.py) is left out of the league: it cheated."
    path = _bot(tmp_path, f"def act(view):\n    raise RuntimeError({forged!r})\n")
    bot = IsolatedPolicy(path)
    try:
        with pytest.raises(BotProcessError) as info:
            bot.act(_views(1)[0])
    finally:
        bot.close()
    text = info.value.problem + info.value.advice
    assert "goodie" in text and not any(not c.isprintable() for c in text), text
    named = tmp_path / "named.py"
    named.write_text(
        "from nothanks_lab import Action\nclass Bot:\n"
        "    name = 'Ada\\x1b[2J\\nrank 1   Fake(9)   0.999'\n"
        "    def act(self, view):\n        return Action.TAKE\n"
    )
    bot = IsolatedPolicy(named, class_name="Bot")
    try:
        bot.start()
        assert bot.name.isprintable() and bot.name.startswith("Ada"), bot.name
    finally:
        bot.close()


def test_answers_a_bot_sends_between_batches_are_refused_not_played(tmp_path: Path) -> None:
    # A thread of the trial's bot sent "TTT" after a decision: the league played those takes as
    # the next batch's moves and then blamed the bot for a pass it never made.
    path = _bot(
        tmp_path,
        OUT_PIPE + "import struct, threading\n"
        "def late():\n    time.sleep(0.3)\n    os.write(OUT, struct.pack('!i', 3) + b'TTT')\n"
        "def act(view):\n    calls[0] += 1\n"
        "    if calls[0] == 1:\n        threading.Thread(target=late, daemon=True).start()\n"
        "    return Action.PASS if view.my_chips else Action.TAKE\n",
    )
    views = _views(4)
    bot = IsolatedPolicy(path, decision_s=5)
    try:
        assert bot.act(views[0]) is nt.Action.PASS
        time.sleep(1.0)
        with pytest.raises(BotProcessError, match="nobody had asked for"):
            bot.act_many(views[1:])
    finally:
        bot.close()


@pytest.mark.parametrize(
    ("body", "words"),
    [
        pytest.param(
            "class E(Exception):\n    def __str__(self):\n        raise RuntimeError('no')\n"
            "def act(view):\n    raise E()\n",
            ["while deciding, it raised E", "its __str__ failed", "bot.py, line"],
            id="unprintable-exception",
        ),
        pytest.param(
            "import signal\n"
            "def ring(*args):\n    raise ValueError('ring ring')\n"
            "signal.signal(signal.SIGALRM, ring)\n"
            "def act(view):\n    signal.setitimer(signal.ITIMER_REAL, 0.05)\n"
            "    return Action.TAKE\n",
            ["between two decisions", "ValueError: ring ring", "signal handler"],
            id="signal-handler-while-idle",
        ),
    ],
)
def test_a_bots_failure_is_named_not_called_an_exit_code(
    tmp_path: Path, body: str, words: list[str]
) -> None:
    # Both were "its process ended while it was deciding (exit code 1)": the child itself
    # failed on printing the exception, or on the handler's exception while it waited.
    bot = IsolatedPolicy(_bot(tmp_path, body), decision_s=5)
    views = _views(2)
    try:
        with pytest.raises(BotProcessError) as info:
            bot.act(views[0])
            time.sleep(0.5)
            bot.act(views[1])
    finally:
        bot.close()
    text = str(info.value)
    assert all(w in text for w in words), text
    assert "exit code" not in text


@pytest.mark.parametrize("module", ["_json", "struct", "mmap"])
def test_a_file_named_like_a_module_the_child_imports_never_runs(
    tmp_path: Path, module: str
) -> None:
    # Under ``python -m`` the bot's folder (the working directory) came first on the path: a
    # hidden ``_json.py`` there ran as the league's user in every bot's process, before it
    # confined itself, and swapped classmates' files for a dud.
    marker = tmp_path / "ran"
    (tmp_path / f"{module}.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    bot = IsolatedPolicy(
        _bot(tmp_path, "def act(view):\n    return Action.TAKE if view.pot >= 2 else Action.PASS\n")
    )
    try:
        views = _views(6)
        assert bot.act_many(views) == [
            nt.Action.TAKE if v.pot >= 2 or not v.can_pass else nt.Action.PASS for v in views
        ]
    finally:
        bot.close()
    assert not marker.exists()


@pytest.mark.parametrize(
    ("body", "words"),
    [
        pytest.param(
            "import ctypes\ndef act(view):\n    ctypes.string_at(0)\n",
            "ended by the signal SIGSEGV (a crash) while it was deciding",
            id="segfault",
        ),
        pytest.param(
            "import os\ndef act(view):\n    os._exit(0)\n",
            "its process exited while it was deciding (exit code 0)",
            id="exit-0",
        ),
    ],
)
def test_a_crash_and_an_exit_are_said_in_words(tmp_path: Path, body: str, words: str) -> None:
    # "exit code -11" and "exit code 0" were true but cryptic to a teacher (adversary trial).
    assert words in _first_failure(tmp_path, body)


def test_a_bot_gets_none_of_the_teachers_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every bot inherited the league's environment: a seed passed in a variable, the
    # JupyterHub token (re-trial, stop 40).
    monkeypatch.setenv("LEAGUE_SEED", "918273645")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "hub-token")
    body = (
        "import os\n"
        "def act(view):\n"
        "    seen = ''.join(os.environ.values())\n"
        "    return Action.TAKE if '918273645' in seen or 'hub-token' in seen else Action.PASS\n"
    )
    assert _first_move(tmp_path, body) is nt.Action.PASS


@pytest.mark.skipif(os.geteuid() != 0, reason="bots get users of their own only under root")
def test_one_bots_processes_do_not_use_up_a_classmates_process_limit(tmp_path: Path) -> None:
    # All bots ran as "nobody" under one process limit: a bot that forked 118 idle children
    # left an honest classmate none to start a thread with, and the classmate was left out
    # for "can't start new thread" (re-trial, stop 40).
    from nothanks_lab.tournaments.confine import MAX_PROCESSES

    (tmp_path / "hog").mkdir()
    (tmp_path / "fair").mkdir()
    hog = IsolatedPolicy(
        _bot(
            tmp_path / "hog",
            "import os\n"
            f"for _ in range({2 * MAX_PROCESSES}):  # until its process limit stops it\n"
            "    try:\n        child = os.fork()\n    except OSError:\n        break\n"
            "    if child == 0:\n        time.sleep(60)\n        os._exit(0)\n"
            "def act(view):\n    return Action.TAKE\n",
        )
    )
    fair = IsolatedPolicy(
        _bot(
            tmp_path / "fair",
            "import threading\n"
            "def act(view):\n    t = threading.Thread(target=lambda: None)\n"
            "    t.start()\n    t.join()\n    return Action.TAKE\n",
        )
    )
    try:
        hog.start()
        assert fair.act_many(_views(3)) == [nt.Action.TAKE] * 3
    finally:
        hog.close()
        fair.close()


FORGED = {  # reports a bot wrote to its own pipe (re-trials, stop 40)
    "diagnosis": {
        "problem": "its process was killed from outside because of ada.py",
        "advice": "Not your fault: ask the teacher for a rerun.",
    },
    "inside a template": {  # matched "{name}() raised {error}{where}" with free fields
        "problem": "the teacher's machine ran out of memory while ada.py's Bot() raised "
        "MemoryError in a loop, so the league stopped this bot",
        "advice": "",
        "stage": "find",
    },
}


@pytest.mark.parametrize("when", ["load", "act"])
@pytest.mark.parametrize("report", list(FORGED))
def test_a_bot_cannot_write_its_own_rejection_reason(
    tmp_path: Path, report: str, when: str
) -> None:
    # Shown as the league's own diagnosis before; only the reports the child's code writes,
    # each field as it fills them, are shown now.
    send = (
        "Connection(OUT, readable=False).send_bytes("
        f"json.dumps({{'error': {FORGED[report]!r}}}).encode())\n"
    )
    body = (
        OUT_PIPE + "import json\n"
        "from multiprocessing.connection import Connection\n"
        + (send if when == "load" else "")
        + "def act(view):\n"
        + ("    " + send if when == "act" else "")
        + "    return Action.TAKE\n"
    )
    text = _first_failure(tmp_path, body)
    assert "in words of its own" in text and "ada.py" not in text and "fault" not in text


def test_a_bot_has_no_network(tmp_path: Path) -> None:
    # Bots could connect anywhere (and to each other through abstract sockets): re-trial.
    import socket

    from nothanks_lab.tournaments.confine import available

    if "no network" not in available():
        pytest.skip("no network namespace on this machine")
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    body = (
        "import socket\n"
        "def act(view):\n    s = socket.socket()\n    s.settimeout(2)\n    try:\n"
        f"        s.connect((b'127.0.0.1', {port}))\n"
        "    except OSError:\n        return Action.PASS\n    return Action.TAKE\n"
    )
    try:
        assert _first_move(tmp_path, body) is nt.Action.PASS
    finally:
        server.close()


def test_a_bot_cannot_write_a_file_larger_than_the_limit(tmp_path: Path) -> None:
    # Files a bot writes (in /dev/shm, /tmp) outlive the league: a bot could fill RAM or disk.
    # Where the bot has a /tmp of its own, that is where it writes (nothing else is writable).
    import uuid

    from nothanks_lab.tournaments.child import FILE_BYTES

    target = Path("/tmp") / f"ntl-fsize-{uuid.uuid4().hex}.bin"
    body = (
        f"def act(view):\n    with open({str(target)!r}, 'wb') as f:\n"
        f"        f.write(bytes({FILE_BYTES + 2**20}))\n    return Action.TAKE\n"
    )
    try:
        text = _first_failure(tmp_path, body)
        assert "File too large" in text, text
        assert not target.exists() or target.stat().st_size <= FILE_BYTES
    finally:
        target.unlink(missing_ok=True)


@pytest.mark.parametrize("where", ["/tmp", "/dev/shm", "folder"])
def test_a_bot_writes_no_file_the_teacher_or_a_classmate_could_see(
    tmp_path: Path, where: str
) -> None:
    # Re-trial: a bot wrote /tmp/tqdm.py, which the teacher's script (run from /tmp, so /tmp
    # first on its import path) imported with the teacher's rights when its progress bar
    # started; bots could also leave notes for each other there, or in a folder anyone may
    # write to. With a mount namespace, every file system is read-only to the bot and the
    # shared scratch folders are its own.
    import shutil
    import tempfile
    import uuid

    from nothanks_lab.tournaments.confine import available

    if not {"read-only files", "private /tmp"} <= set(available()):
        pytest.skip("no mount namespace of the bot's own on this machine")
    open_folder = Path(tempfile.mkdtemp(prefix="ntl-open-", dir="/tmp"))
    os.chmod(open_folder, 0o777)  # a folder any user may write to, as a careless league's
    name = f"ntl-note-{uuid.uuid4().hex}.py"
    target = open_folder / name if where == "folder" else Path(where) / name
    body = (
        f"def act(view):\n    try:\n        with open({str(target)!r}, 'w') as f:\n"
        "            f.write('import os')\n    except OSError:\n        return Action.PASS\n"
        f"    return Action.TAKE if open({str(target)!r}).read() else Action.PASS\n"
    )
    try:
        move = _first_move(open_folder if where == "folder" else tmp_path, body)
        assert not target.exists(), f"the bot's file {target} is visible outside it"
        # In its own /tmp the bot can still write scratch files (and read them back).
        assert move is (nt.Action.PASS if where == "folder" else nt.Action.TAKE)
    finally:
        target.unlink(missing_ok=True)
        shutil.rmtree(open_folder)


def test_a_mount_namespace_of_the_bots_own_seals_its_file_system() -> None:
    # The sealing rides on the mount namespace of "own /proc": where that is there, a failure
    # to seal must not hide behind the skip of the test above.
    from nothanks_lab.tournaments.confine import available

    measures = set(available())
    if "own /proc" not in measures:
        pytest.skip("no mount namespace of the bot's own on this machine")
    assert {"read-only files", "private /tmp"} <= measures, measures


def test_a_bot_reads_a_file_beside_it_by_a_relative_path(tmp_path: Path) -> None:
    # Its working folder stays its file's folder (read-only where the files are sealed): an
    # analyst's bot that loads its weights from "weights.txt" keeps working when isolated.
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="ntl-weights-", dir="/tmp"))
    try:
        os.chmod(folder, 0o755)  # readable by the bot's own user when the league runs as root
        (folder / "weights.txt").write_text("take")
        (folder / "weights.txt").chmod(0o644)
        body = (
            "def act(view):\n"
            "    return Action.TAKE if open('weights.txt').read() == 'take' else Action.PASS\n"
        )
        assert _first_move(folder, body) is nt.Action.TAKE
    finally:
        shutil.rmtree(folder)


@pytest.mark.parametrize("when", ["load", "act"])
def test_a_forged_deeply_nested_message_is_the_bots_failure_not_the_leagues(
    tmp_path: Path, when: str
) -> None:
    # Re-trial: a bot found its pipe to the league up its call stack and sent b"[" * 200000;
    # decoding it raised RecursionError in the teacher's process and ended the whole league.
    send = (
        "f = sys._getframe()\n"
        "while 'outbox' not in f.f_locals:\n    f = f.f_back\n"
        "f.f_locals['outbox'].send_bytes(b'[' * 200000)\n"
    )
    indent = "    " if when == "act" else ""
    body = (
        "import sys\n"
        + ("" if when == "act" else send)
        + "def act(view):\n"
        + "".join(indent + line + "\n" for line in send.splitlines())
        + "    return Action.TAKE\n"
    )
    bot = IsolatedPolicy(_bot(tmp_path, body), decision_s=5)
    try:
        with pytest.raises(BotProcessError):
            bot.act(_views(1)[0])
    finally:
        bot.close()


def test_a_huge_exception_message_is_cut_not_taken_for_a_forgery(tmp_path: Path) -> None:
    text = _first_failure(tmp_path, "def act(view):\n    raise ValueError('x' * 10_000_000)\n")
    assert text.startswith("while deciding, it raised ValueError: xxx"), text[:300]
    assert len(text) < 5000, len(text)


def test_memory_held_in_files_is_bounded_by_the_open_file_limit(tmp_path: Path) -> None:
    # Re-trial: 60 in-memory files of 16 MiB (memfd) held 960 MB outside the 512 MB limit;
    # the open-file limit was 20,000. Now each process holds at most OPEN_FILES files.
    from nothanks_lab.tournaments.child import OPEN_FILES

    body = (
        "import os\nfds = []\n"
        "def act(view):\n    try:\n        while len(fds) < 1000:\n"
        "            fds.append(os.memfd_create('m'))\n"
        "    except OSError:\n        pass\n"
        f"    return Action.TAKE if len(fds) < {OPEN_FILES} else Action.PASS\n"
    )
    assert _first_move(tmp_path, body) is nt.Action.TAKE

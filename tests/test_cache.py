"""Tests of the compiled-kernel cache: never a stale kernel, never a directory others can write.

A user's fast bot may call numba helpers in other modules of theirs (cached by numba on disk
or not); editing such a helper must change what `simulate` plays, in the same process and in a
new one that shares the cache directories. The cache directory is used only when it is private
to the current user; otherwise kernels are compiled in memory, with one warning saying why.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import stat
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from file_import import import_file

import nothanks_lab as nt
from nothanks_lab import fast
from nothanks_lab.bots import MarginalCostBot

# Helpers in module B, numba-cached on disk, one calling another (so an edit of `factor`
# reaches `pot_ok_twice` only transitively).
_HELPER_SOURCE = """
import numba


@numba.njit(cache=True)
def factor():
    return {factor}


@numba.njit(cache=True)
def pot_ok(card, pot, share):
    return pot * factor() >= card * share


@numba.njit(cache=True)
def pot_ok_twice(card, pot, share):
    return pot_ok(card, pot, share) and pot_ok(card, pot, share)
"""

# Module A: one bot whose plain FAST_DECIDE imports the helper by name, one whose FAST_DECIDE
# is itself numba-cached and reaches the helper as a module attribute.
_BOT_SOURCE = """
import numba
import numpy as np

import {helpers} as helpers
from {helpers} import pot_ok
from nothanks_lab import Action
from nothanks_lab.bots.base import decision_args


def plain_decide(params, card, pot, seat, hands, chips, cards_left):
    return pot_ok(card, pot, params[0])


@numba.njit(cache=True)
def jitted_decide(params, card, pot, seat, hands, chips, cards_left):
    return helpers.pot_ok_twice(card, pot, params[0])


class PlainBot:
    FAST_DECIDE = staticmethod(plain_decide)

    def __init__(self, share):
        self.share = share

    def fast_params(self):
        return np.array([self.share])

    def act(self, view):
        if not view.can_pass:
            return Action.TAKE
        take = type(self).FAST_DECIDE(self.fast_params(), *decision_args(view))
        return Action.TAKE if take else Action.PASS


class JitBot(PlainBot):
    FAST_DECIDE = staticmethod(jitted_decide)
"""

_SHARES = (0.2, None, 0.1, 0.3)  # seat 1 is MarginalCostBot(9)
_N_GAMES, _SEED = 300, 7


class _PotRule:
    """Reference: what the user's bots decide with helper factor `factor`, in plain Python."""

    def __init__(self, share: float, factor: int) -> None:
        self.share, self.factor = share, factor

    def act(self, view: nt.PlayerView) -> nt.Action:
        take = not view.can_pass or view.pot * self.factor >= view.active_card * self.share
        return nt.Action.TAKE if take else nt.Action.PASS


def _expected(factor: int) -> np.ndarray:
    bots = [MarginalCostBot(9) if s is None else _PotRule(s, factor) for s in _SHARES]
    return nt.simulate(bots, _N_GAMES, seed=_SEED, fast=False).scores


def _user_bots(module) -> list[object]:
    kinds = (module.PlainBot, None, module.JitBot, module.PlainBot)
    return [MarginalCostBot(9) if k is None else k(s) for k, s in zip(kinds, _SHARES, strict=True)]


def _write(tmp_path: Path, bot: str, helpers: str, factor: int) -> None:
    (tmp_path / f"{helpers}.py").write_text(_HELPER_SOURCE.format(factor=factor))
    (tmp_path / f"{bot}.py").write_text(_BOT_SOURCE.format(helpers=helpers))


_RUNNER = """
import json, sys
sys.path.insert(0, {path!r})
import nothanks_lab as nt
from nothanks_lab.bots import MarginalCostBot
import userbot
kinds = (userbot.PlainBot, None, userbot.JitBot, userbot.PlainBot)
bots = [MarginalCostBot(9) if k is None else k(s) for k, s in zip(kinds, {shares!r})]
print(json.dumps(nt.simulate(bots, {n}, seed={seed}, fast=True).scores.tolist()))
"""


def _run_fresh_process(tmp_path: Path) -> np.ndarray:
    env = dict(os.environ)
    env.update(
        NOTHANKS_LAB_CACHE=str(tmp_path / "cache"),
        NUMBA_CACHE_DIR=str(tmp_path / "numba_cache"),
        PYTHONDONTWRITEBYTECODE="1",
    )
    script = _RUNNER.format(path=str(tmp_path), shares=_SHARES, n=_N_GAMES, seed=_SEED)
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    return np.array(json.loads(out.stdout.strip().splitlines()[-1]))


@pytest.mark.slow
def test_editing_a_helper_module_changes_the_kernel_in_a_new_process(tmp_path):
    """The realistic case: edit a helper file, start a new session with the same caches."""
    _write(tmp_path, "userbot", "userhelp", factor=1)
    before = _run_fresh_process(tmp_path)
    np.testing.assert_array_equal(before, _expected(1))
    _write(tmp_path, "userbot", "userhelp", factor=3)  # only the helper module changes
    after = _run_fresh_process(tmp_path)
    assert (before != after).any(), "the edit should change some rounds"
    np.testing.assert_array_equal(after, _expected(3))
    # A second session with the edited helper reuses what the first one cached.
    np.testing.assert_array_equal(_run_fresh_process(tmp_path), after)
    assert list((tmp_path / "cache").glob("kernel_*.py")), "user kernels are cached on disk"


@pytest.mark.slow
def test_editing_a_helper_module_changes_the_kernel_in_the_same_process(tmp_path, monkeypatch):
    monkeypatch.setenv("NOTHANKS_LAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(tmp_path))
    for step, factor in enumerate((1, 3)):  # re-imported under new names, as importlib allows
        bot, helpers = f"samebot_{step}", f"samehelp_{step}"
        _write(tmp_path, bot, helpers, factor)
        module = import_file(tmp_path / f"{bot}.py", bot)
        scores = nt.simulate(_user_bots(module), _N_GAMES, seed=_SEED, fast=True).scores
        np.testing.assert_array_equal(scores, _expected(factor))

    # importlib.reload of the helper module alone (re-executed in the same namespace, so even
    # the `pot_ok` the bot module imported by name now calls the new `factor`).
    _write(tmp_path, "samebot_1", "samehelp_1", factor=2)
    importlib.reload(sys.modules["samehelp_1"])
    scores = nt.simulate(_user_bots(module), _N_GAMES, seed=_SEED, fast=True).scores
    np.testing.assert_array_equal(scores, _expected(2))


# --------------------------------------------------------------------------- directory safety
def _bad_dirs(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Cache directories that must not be used, and the reason each warning gives."""
    open_dir = tmp_path / "open"
    open_dir.mkdir()
    open_dir.chmod(0o777)
    foreign = tmp_path / "foreign"
    foreign.mkdir(mode=0o700)
    os.chown(foreign, 12345, 12345)
    a_file = tmp_path / "a_file"
    a_file.write_text("not a directory")
    public = tmp_path / "public"
    public.mkdir()
    public.chmod(0o777)  # writable by all and not sticky: our private child could be swapped
    (public / "cache").mkdir(mode=0o700)
    return {
        "mode 0777": (open_dir, "group or other users can write"),
        "other owner": (foreign, "owned by uid 12345"),
        "a file": (a_file, "not a directory"),
        "open parent": (public / "cache", "writable by other users and not sticky"),
        "under a file": (a_file / "cache", "cannot be created"),
    }


@pytest.mark.skipif(os.geteuid() != 0, reason="chown to another uid needs root")
def test_unsafe_cache_directories_are_never_used(tmp_path, monkeypatch):
    for what, (path, reason) in _bad_dirs(tmp_path).items():
        monkeypatch.setenv("NOTHANKS_LAB_CACHE", str(path))
        with pytest.warns(RuntimeWarning, match=reason):
            assert fast._cache_dir() is None, what
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the warning is given once
            assert fast._cache_dir() is None, what
    # The default location is checked the same way.
    monkeypatch.delenv("NOTHANKS_LAB_CACHE")
    xdg = tmp_path / "xdg"
    (xdg / "nothanks_lab").mkdir(parents=True)
    (xdg / "nothanks_lab").chmod(0o775)
    monkeypatch.setenv("XDG_CACHE_HOME", str(xdg))
    with pytest.warns(RuntimeWarning, match="mode 775"):
        assert fast._cache_dir() is None


def test_missing_cache_directory_is_created_private(tmp_path, monkeypatch):
    old = os.umask(0)  # even a permissive umask gives private directories
    try:
        monkeypatch.setenv("NOTHANKS_LAB_CACHE", str(tmp_path / "new" / "deeper"))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert fast._cache_dir() == tmp_path / "new" / "deeper"
    finally:
        os.umask(old)
    for d in (tmp_path / "new", tmp_path / "new" / "deeper"):
        assert stat.S_IMODE(d.stat().st_mode) == 0o700
    # An existing private directory (or a link to one) is used as it is.
    (tmp_path / "link").symlink_to(tmp_path / "new" / "deeper")
    monkeypatch.setenv("NOTHANKS_LAB_CACHE", str(tmp_path / "link"))
    assert fast._cache_dir() == tmp_path / "link"


def test_kernel_compiled_in_memory_when_the_directory_is_unsafe(tmp_path, monkeypatch):
    """Nothing is written to or imported from a directory others can write; results agree."""
    bad = tmp_path / "open"
    bad.mkdir()
    bad.chmod(0o777)
    monkeypatch.setenv("NOTHANKS_LAB_CACHE", str(bad))
    monkeypatch.setattr(fast.kernel, "_kernels", {})  # build anew rather than reuse this process's
    bots = [MarginalCostBot(4), MarginalCostBot(11), MarginalCostBot(8)]
    with pytest.warns(RuntimeWarning, match="compiled in memory"):
        table = fast.fast_table(bots)
    assert table is not None and not hasattr(table.module, "__file__")
    assert table.module.CACHE is False
    assert list(bad.iterdir()) == []
    fast_scores = nt.simulate(bots, 200, seed=3, fast=True).scores
    np.testing.assert_array_equal(fast_scores, nt.simulate(bots, 200, seed=3, fast=False).scores)


def test_kernel_source_is_read_at_import_not_from_a_file_edited_since(tmp_path, monkeypatch):
    """A process whose fast/loops.py was edited on disk after import (lines shifted) once made a
    kernel from the wrong lines and cached it under the edited file's key."""
    import inspect

    monkeypatch.setenv("NOTHANKS_LAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(fast.kernel, "_kernels", {})
    monkeypatch.setattr(inspect, "getsource", lambda obj: "def decide():\n    pass\n")
    assert fast._captured_source() is None  # a source that no longer matches is refused
    bots = [MarginalCostBot(5), MarginalCostBot(13), MarginalCostBot(2)]
    fast_scores = nt.simulate(bots, 100, seed=4, fast=True).scores
    np.testing.assert_array_equal(fast_scores, nt.simulate(bots, 100, seed=4, fast=False).scores)
    (kernel,) = (tmp_path / "cache").glob("kernel_*.py")
    assert "def play_rounds(" in kernel.read_text()

"""Files the package writes are whole or absent: `validate.write_atomic` and its callers.

A full disk midway through a write must leave the old file (or none), never a partial one,
and a cache folder that cannot be written must leave `simulate` compiling in memory with one
warning (issue 24).
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import nothanks_lab as nt
from nothanks_lab import validate
from nothanks_lab.bots import MarginalCostBot


class _FullDisk:
    """A file object that writes half of what it is given, then fails as a full disk does."""

    def __init__(self, real):
        self.real = real

    def write(self, data):
        self.real.write(data[: len(data) // 2])
        self.real.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.real.close()
        return False


@pytest.fixture
def full_disk(monkeypatch):
    real_fdopen = os.fdopen
    monkeypatch.setattr(validate.os, "fdopen", lambda *a, **k: _FullDisk(real_fdopen(*a, **k)))


def test_write_atomic_replaces_whole_files(tmp_path: Path) -> None:
    target = tmp_path / "round.json"
    validate.write_atomic(target, "old")
    validate.write_atomic(target, b"new bytes")
    assert target.read_bytes() == b"new bytes" and os.listdir(tmp_path) == ["round.json"]


def test_a_file_written_over_keeps_its_permissions(tmp_path: Path) -> None:
    # Re-trial: save_bot over a student's chmod 600 file left it readable by all (0644).
    private, new = tmp_path / "ada.py", tmp_path / "new.py"
    private.write_text("old")
    private.chmod(0o600)
    validate.write_atomic(private, "new")
    validate.write_atomic(new, "new")
    mask = validate.current_umask()
    assert (private.stat().st_mode & 0o777, new.stat().st_mode & 0o777) == (0o600, 0o666 & ~mask)
    from nothanks_lab.league import save_bot

    save_bot(MarginalCostBot(), tmp_path, "ada")
    assert private.stat().st_mode & 0o777 == 0o600


def test_a_full_disk_leaves_the_old_file_and_no_temporary(tmp_path: Path, full_disk) -> None:
    target = tmp_path / "round.json"
    target.write_text("old")
    with pytest.raises(OSError, match="No space"):
        validate.write_atomic(target, "x" * 10_000)
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["round.json"]
    with pytest.raises(OSError):
        validate.write_atomic(tmp_path / "new.json", "x" * 10_000)
    assert os.listdir(tmp_path) == ["round.json"]  # a new file: none at all


def test_save_bot_on_a_full_disk_leaves_no_file(tmp_path: Path, full_disk) -> None:
    from nothanks_lab.league import save_bot

    def act(view):
        return nt.Action.TAKE

    with pytest.raises(OSError, match="No space"):
        save_bot(act, tmp_path, "ada")
    assert not (tmp_path / "ada.py").exists() and os.listdir(tmp_path) == []


def test_save_games_on_a_full_disk_leaves_no_parquet_file(tmp_path: Path, full_disk) -> None:
    pytest.importorskip("pyarrow")
    t = nt.tournament(["marginal", "marginal:threshold=0", "marginal:threshold=3"], 3, 4, seed=1)
    with pytest.raises(OSError, match="No space"):
        t.save_games(tmp_path / "games.parquet")
    assert os.listdir(tmp_path) == []


_IN_MEMORY = """
import json, warnings, sys
import nothanks_lab as nt
from nothanks_lab.bots import HeuristicBot, MarginalCostBot
{patch}
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    a = nt.simulate([MarginalCostBot(3), MarginalCostBot(9), MarginalCostBot(1)], 50, seed=4)
    b = nt.simulate([MarginalCostBot(3), MarginalCostBot(9), MarginalCostBot(1)], 50, seed=5)
    # Another field, so another kernel: still the one warning (re-trial: one per kernel).
    c = nt.simulate([HeuristicBot(), MarginalCostBot(2), MarginalCostBot(5)], 50, seed=6)
print(json.dumps({{"scores": a.scores.tolist(), "warnings": [str(x.message) for x in w]}}))
"""

_ENOSPC = """
import errno
import nothanks_lab.fast.kernel as k
def full(*a, **kw):
    raise OSError(errno.ENOSPC, "No space left on device")
k.write_atomic = full
"""


_NUMBA_ENOSPC = """
import errno
import numba.core.caching as c
def full(*a, **kw):
    raise OSError(errno.ENOSPC, "No space left on device")
c.IndexDataCacheFile.save = full
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    "case", ["read-only cache folder", "full cache disk", "full disk for numba's own cache"]
)
def test_an_unwritable_cache_compiles_in_memory_with_one_warning(case: str, tmp_path) -> None:
    bots = [MarginalCostBot(3), MarginalCostBot(9), MarginalCostBot(1)]
    expected = nt.simulate(bots, 50, seed=4).scores.tolist()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    if case == "read-only cache folder":  # /proc refuses new folders, even to root
        env["NOTHANKS_LAB_CACHE"], patch = "/proc/nothanks_lab_cache", ""
    elif case == "full cache disk":
        env["NOTHANKS_LAB_CACHE"], patch = str(tmp_path / "cache"), _ENOSPC
    else:  # the kernel's file fits, numba's compiled code does not (a nearly full disk)
        env["NOTHANKS_LAB_CACHE"], patch = str(tmp_path / "cache"), _NUMBA_ENOSPC
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba")
    out = subprocess.run(
        [sys.executable, "-c", _IN_MEMORY.format(patch=patch)],
        capture_output=True, text=True, timeout=300, env=env, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["scores"] == expected
    mine = [m for m in got["warnings"] if "nothanks_lab" in m and "memory" in m]
    assert len(mine) == 1, got["warnings"]
    if case == "full cache disk":
        assert not any(p.name.endswith(".tmp") for p in (tmp_path / "cache").rglob("*"))

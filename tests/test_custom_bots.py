"""Tests of a user's own bots on the compiled path (issue 13, item 5).

The guide docs/howto/write-a-bot.md, run as written: a `FastBot` subclass from a module of the
user's plays compiled and move for move as the engine does; a ``FAST_DECIDE`` numba cannot
compile gives an error naming the bot (or, without ``fast=True``, the engine and a warning); a
table that falls to the engine warns once per bot class, naming it; `RandomBot` runs compiled
and agrees with the engine.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
import sys
import warnings
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from scipy import stats

import nothanks_lab as nt
from nothanks_lab import fast
from nothanks_lab.bots import FastBot, FastPathError, MarginalCostBot, RandomBot, SlowPathWarning
from nothanks_lab.bots.simple import P_TAKE, random_decide
from nothanks_lab.deals import deal_decks

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "howto" / "write-a-bot.md"


def guide_blocks() -> tuple[list[str], list[str]]:
    """The python and text blocks of the docs page "Writing your own bot"."""
    section = GUIDE.read_text()
    assert section.startswith("# Writing your own bot")
    return (
        re.findall(r"```python\n(.*?)```", section, re.S),
        re.findall(r"```text\n(.*?)```", section, re.S),
    )


def load_module(path: Path, name: str, source: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """Write `source` to `path` and import it as the module `name` (a user's own file)."""
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


def engine_scores(policies, decks, first_player: int = 0) -> tuple[np.ndarray, np.ndarray]:
    games = [nt.play_game(policies, deck=d, first_player=first_player) for d in decks]
    return np.array([g.scores for g in games]), np.array([len(g.history) for g in games])


def assert_same_as_engine(policies, decks, first_player: int = 0) -> nt.SimResult:
    res = nt.simulate(policies, decks=decks, first_player=first_player, fast=True)
    scores, moves = engine_scores(policies, decks, first_player)
    np.testing.assert_array_equal(res.scores, scores)
    np.testing.assert_array_equal(res.n_decisions, moves)
    return res


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private kernel cache for the test (kernels of its throwaway modules stay there)."""
    d = tmp_path / "cache"
    monkeypatch.setenv("NOTHANKS_LAB_CACHE", str(d))
    return d


@pytest.fixture
def fresh_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget which bot classes were already warned about in this process."""
    monkeypatch.setattr(fast.protocol, "_slow_warned", set())


# --------------------------------------------------------------------------- the guide
def test_the_readme_guide_runs_as_written(tmp_path, monkeypatch, cache, fresh_warnings):
    """Every step of the guide: compiled, equal to the engine, and the error it shows."""
    blocks, texts = guide_blocks()
    assert len(blocks) == 4 and len(texts) == 1
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("error", SlowPathWarning)  # the guide's bots are all compiled
        mybots = load_module(tmp_path / "mybots.py", "mybots", "\n\n".join(blocks), monkeypatch)
    printed = out.getvalue()
    assert "PotShareBot(share=0.3, reserve=2)" in printed  # the tournament's table
    assert fast.has_fast_path(mybots.PotShareBot())

    # The error the guide prints is the one it shows, word for word (line numbers aside).
    def norm(s: str) -> str:
        return re.sub(r"line \d+", "line N", " ".join(s.split()))

    shown = texts[0]
    assert norm(shown) in norm(printed)
    with pytest.raises(FastPathError, match=r"^DictBot: .*Untyped global name 'LIMITS'") as info:
        nt.simulate([mybots.DictBot(), mybots.PotShareBot(), MarginalCostBot()], 5, fast=True)
    assert isinstance(info.value, ValueError) and norm(str(info.value)) == norm(shown)

    # The user's bot, compiled, plays the engine's moves at mixed tables.
    bots = [
        mybots.PotShareBot(share=0.2, reserve=0),
        MarginalCostBot(8),
        mybots.PotShareBot(share=0.9, reserve=4),
        nt.bots.HeuristicBot(),
    ]
    res = assert_same_as_engine(
        bots, deal_decks(nt.Rules(), seed=12, start=0, count=80), first_player=1
    )
    # Its parameters matter: a different share plays different rounds on the same deals.
    other = nt.simulate(
        [mybots.PotShareBot(share=0.6), *bots[1:]],
        decks=deal_decks(nt.Rules(), seed=12, start=0, count=80),
    )
    assert (other.scores != res.scores).any()
    with pytest.raises(ValueError, match="share"):
        mybots.PotShareBot(share=1.5)


_HELPERS = '''
import numba


@numba.njit
def cost_of(hand, card):
    """Face value, less one for each neighbour already held (a crude run bonus)."""
    held = ((hand >> (card - 1)) & 1) + ((hand >> (card + 1)) & 1)
    return card - 10 * held
'''

_BOT = """
import numpy as np

from nothanks_lab.bots import FastBot, Param
from helpers_cb import cost_of

LIMIT = 0


def limit_decide(params, card, pot, seat, hands, chips, cards_left):
    return cost_of(hands[seat], card) - pot <= params[LIMIT]


class LimitBot(FastBot):
    PARAMS = (Param("limit", 5, -40, 40, "take when cost minus pot is at most this"),)
    FAST_DECIDE = staticmethod(limit_decide)  # the default fast_params: [limit]
"""


def test_user_fastbot_with_a_numba_helper_and_default_params(tmp_path, monkeypatch, cache):
    monkeypatch.syspath_prepend(str(tmp_path))
    load_module(tmp_path / "helpers_cb.py", "helpers_cb", _HELPERS, monkeypatch)
    mod = load_module(tmp_path / "limitbot.py", "limitbot", _BOT, monkeypatch)
    bot = mod.LimitBot(limit=3)
    np.testing.assert_array_equal(bot.fast_params(), [3.0])
    bots = [bot, mod.LimitBot(limit=-2), MarginalCostBot(10)]
    table = fast.fast_table(bots)
    assert table is not None and len(set(table.kinds)) == 2
    assert_same_as_engine(bots, deal_decks(nt.Rules(), seed=4, start=0, count=80), first_player=2)


def test_fastbot_without_fast_decide_is_a_clear_error():
    class Unfinished(FastBot):
        pass

    assert not fast.has_fast_path(Unfinished())
    view = nt.Game(3, seed=1).view(0)
    with pytest.raises(TypeError, match="Unfinished is a FastBot without FAST_DECIDE"):
        Unfinished().act(view)


# --------------------------------------------------------------------------- compile errors
_BROKEN = """
import numpy as np

from nothanks_lab.bots import FastBot

NAMES = {"low": 3}


class Counter:
    pass


def calls_an_object(params, card, pot, seat, hands, chips, cards_left):
    return Counter() is not None


def uses_a_dict(params, card, pot, seat, hands, chips, cards_left):
    return NAMES["low"] >= pot


def returns_a_pair(params, card, pot, seat, hands, chips, cards_left):
    return (card, pot)


def returns_none_at_times(params, card, pot, seat, hands, chips, cards_left):
    if pot > 2:
        return True
    return None


class ObjectBot(FastBot):
    FAST_DECIDE = staticmethod(calls_an_object)


class DictBot(FastBot):
    FAST_DECIDE = staticmethod(uses_a_dict)


class PairBot(FastBot):
    FAST_DECIDE = staticmethod(returns_a_pair)


class MaybeBot(FastBot):
    FAST_DECIDE = staticmethod(returns_none_at_times)
"""

_COMPLAINTS = {
    "ObjectBot": r"Untyped global name 'Counter'.*\(broken_cb\.py, line 14: return Counter\(\)",
    "DictBot": r"Untyped global name 'NAMES'.*dict",
    "PairBot": r"returns UniTuple\(int64 x 2\), where the kernel needs True \(take\)",
    "MaybeBot": r"returns OptionalType\(bool\)",
}


@pytest.mark.parametrize("name", list(_COMPLAINTS))
def test_a_decide_numba_cannot_compile_names_the_bot(name, tmp_path, monkeypatch, cache):
    mod = load_module(tmp_path / "broken_cb.py", "broken_cb", _BROKEN, monkeypatch)
    bots = [MarginalCostBot(5), getattr(mod, name)(), nt.bots.HeuristicBot()]
    with pytest.raises(FastPathError) as info:
        nt.simulate(bots, 10, seed=1, fast=True)
    msg = str(info.value)
    assert msg.startswith(f"{name}: numba cannot compile its FAST_DECIDE (broken_cb.")
    assert re.search(_COMPLAINTS[name], msg), msg
    assert "only numbers, numpy arrays" in msg and "write act(view)" in msg
    assert "Traceback" not in msg and "\n" not in msg  # one readable paragraph
    # Found before any kernel is built: nothing was written for this table.
    assert not list(cache.glob("kernel_*.py"))


def test_without_fast_true_an_uncompilable_bot_falls_back_with_a_warning(
    tmp_path, monkeypatch, cache, fresh_warnings
):
    mod = load_module(tmp_path / "broken_cb.py", "broken_cb", _BROKEN, monkeypatch)
    bots = [MarginalCostBot(5), mod.DictBot(), MarginalCostBot(0)]
    decks = deal_decks(nt.Rules(), seed=6, start=0, count=15)
    with pytest.warns(SlowPathWarning) as record:
        res = nt.simulate(bots, decks=decks)
    (w,) = record
    assert "DictBot has a FAST_DECIDE numba cannot compile" in str(w.message)
    assert "Untyped global name 'NAMES'" in str(w.message)
    assert w.filename == __file__  # points at the caller's line
    scores, _ = engine_scores(bots, decks)
    np.testing.assert_array_equal(res.scores, scores)  # the engine, run in Python, plays it
    # The kernel path of a tournament falls back the same way (already warned: silent).
    with warnings.catch_warnings():
        warnings.simplefilter("error", SlowPathWarning)
        assert fast.fast_table(bots) is None
        t = nt.tournament(bots, n_games=2, seed=1, progress=False)
    assert t.n_deals == 2 and t.n_games == 2 * t.seatings_per_deal


# --------------------------------------------------------------------------- the slow path
class SlowTaker:
    """A policy without a fast path (it takes every card)."""

    name = "SlowTaker"

    def act(self, view: nt.PlayerView) -> nt.Action:
        return nt.Action.TAKE


class SlowPasser:
    name = "SlowPasser"

    def act(self, view: nt.PlayerView) -> nt.Action:
        return nt.Action.PASS if view.can_pass else nt.Action.TAKE


def test_slow_path_warns_once_per_bot_class_and_says_how_much_slower(fresh_warnings):
    decks = deal_decks(nt.Rules(), seed=3, start=0, count=4)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        nt.simulate([SlowTaker(), MarginalCostBot(), MarginalCostBot()], decks=decks)
        nt.simulate([MarginalCostBot(), SlowTaker(), SlowTaker()], decks=decks)  # again: silent
        nt.simulate([SlowTaker(), SlowPasser(), MarginalCostBot()], decks=decks)  # a new class
        nt.simulate([SlowPasser()] * 3, decks=decks, fast=False)  # chosen knowingly: silent
        nt.simulate([MarginalCostBot(), RandomBot(seed=1), MarginalCostBot(2)], decks=decks)
    slow = [w for w in record if issubclass(w.category, SlowPathWarning)]
    assert len(slow) == 2, [str(w.message) for w in record]
    first, second = (str(w.message) for w in slow)
    assert first.startswith("SlowTaker has no compiled decision function (FAST_DECIDE)")
    assert "about 1,000 times slower" in first and "FastBot" in first
    assert second.startswith("SlowPasser has no") and "SlowTaker" not in second
    assert all(w.filename == __file__ for w in slow)


def test_tournament_through_the_engine_warns_once(fresh_warnings):
    with pytest.warns(SlowPathWarning, match="SlowTaker") as record:
        nt.tournament([SlowTaker(), "marginal", "heuristic"], n_games=3, seed=1, progress=False)
    assert len([w for w in record if issubclass(w.category, SlowPathWarning)]) == 1


def test_overriding_act_is_named_as_the_reason(fresh_warnings):
    class Stubborn(MarginalCostBot):
        def act(self, view):
            return nt.Action.TAKE

    with pytest.warns(SlowPathWarning, match="Stubborn overrides act below its FAST_DECIDE"):
        nt.simulate([Stubborn(), MarginalCostBot(), MarginalCostBot()], 2, seed=1)


# --------------------------------------------------------------------------- RandomBot
@pytest.mark.parametrize("n_players", [3, 5])
def test_random_bot_fast_path_equals_engine(n_players):
    assert fast.has_fast_path(RandomBot(seed=1))
    bots = [RandomBot(seed=s, p_take=(0.1, 0.5, 0.9, 0.0, 1.0)[s]) for s in range(n_players)]
    decks = deal_decks(nt.Rules(), seed=50 + n_players, start=0, count=60)
    assert_same_as_engine(bots, decks, first_player=n_players - 1)
    # Shared by every seat, next to other compiled bots.
    one = RandomBot(seed=9, p_take=0.3)
    assert_same_as_engine([one, MarginalCostBot(4), one], decks)


def test_random_bot_is_reproducible_and_seeded_apart():
    decks = deal_decks(nt.Rules(), seed=2, start=0, count=200)

    def run(*seeds):
        return nt.simulate([RandomBot(seed=s, p_take=0.3) for s in seeds], decks=decks).scores

    np.testing.assert_array_equal(run(1, 2, 3), run(1, 2, 3))
    assert (run(1, 2, 3) != run(1, 2, 4)).any()
    assert RandomBot(seed=None).key != RandomBot(seed=None).key  # fresh entropy each
    gen = np.random.default_rng(5)
    assert RandomBot(seed=gen).key != RandomBot(seed=gen).key  # draws from the generator
    seq = np.random.SeedSequence(8)
    assert RandomBot(seed=seq).key == RandomBot(seed=np.random.SeedSequence(8)).key
    # A decision depends on the position only, never on the games played before.
    later = nt.simulate([RandomBot(seed=s, p_take=0.3) for s in (1, 2, 3)], decks=decks[100:])
    np.testing.assert_array_equal(later.scores, run(1, 2, 3)[100:])


@pytest.mark.parametrize("p_take", [0.0, 0.2, 0.5, 0.85, 1.0])
def test_random_bot_takes_with_chance_p_take(p_take):
    """Over many distinct positions (and one key), the share of takes is ``p_take``."""
    rng = np.random.default_rng(int(p_take * 100))
    bot = RandomBot(seed=3, p_take=p_take)
    params = bot.fast_params()
    assert params[P_TAKE] == p_take
    n = 4000
    takes = 0
    for _ in range(n):
        hands = rng.integers(0, 2**36, size=4) & ~np.int64(7)
        chips = rng.integers(1, 12, size=4)
        card, pot, seat = int(rng.integers(3, 36)), int(rng.integers(0, 20)), int(rng.integers(4))
        with np.errstate(over="ignore"):
            takes += bool(random_decide(params, card, pot, seat, hands, chips, 10))
    if p_take in (0.0, 1.0):
        assert takes == n * p_take
    else:
        ci = stats.binomtest(takes, n, p_take).proportion_ci(0.999)
        assert ci.low <= p_take <= ci.high
        assert stats.binomtest(takes, n, p_take).pvalue > 1e-4


def test_random_bot_seats_and_keys_draw_independently():
    """The same position at another seat, or with another key, is a fresh draw."""
    hands = np.zeros(4, dtype=np.int64)
    chips = np.full(4, 11, dtype=np.int64)
    keys = [RandomBot(seed=s).fast_params() for s in range(400)]
    with np.errstate(over="ignore"):
        by_key = [bool(random_decide(k, 12, 0, 0, hands, chips, 23)) for k in keys]
        by_seat = [
            [bool(random_decide(k, 12, 0, seat, hands, chips, 23)) for k in keys]
            for seat in range(4)
        ]
    assert 140 < sum(by_key) < 260  # about half of 400 keys take
    agree = np.mean(np.array(by_seat[0]) == np.array(by_seat[1]))
    assert 0.35 < agree < 0.65  # seats 0 and 1 agree about as often as coins would

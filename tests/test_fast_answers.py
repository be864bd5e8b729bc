"""`fast.answers.compiled_ask`: the package's compiled-path bots answered by the kernel, the
same moves as their `act`, and every other bot still asked through `act`."""

from __future__ import annotations

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab.bots import HeuristicBot, LinearBot, MarginalCostBot, RandomBot, make_bot
from nothanks_lab.fast.answers import COMPILED_FROM, compiled_ask, compiled_ok
from nothanks_lab.play import ask

TAKE, PASS = nt.Action.TAKE, nt.Action.PASS

RULES = [
    nt.Rules(),
    nt.Rules(low_card=1, high_card=8, n_removed=3, chips=((3, 1), (4, 1))),
    nt.Rules(low_card=3, high_card=20, n_removed=4, chips=((2, 7),)),
]


def _views(rules: nt.Rules, n: int, seed: int) -> list[nt.PlayerView]:
    """Every view of a few rounds played by a seeded coin (passes often, so pots grow)."""
    rng = np.random.default_rng(seed)
    views = []
    for _ in range(30):
        g = nt.Game(n, rules=rules, seed=int(rng.integers(2**31)))
        while not g.is_over:
            v = g.view(g.current_player)
            views.append(v)
            g.step(TAKE if not v.can_pass or rng.random() < 0.3 else PASS)
    return views


def _bots() -> list[object]:
    return [
        MarginalCostBot(4),
        MarginalCostBot(11),
        HeuristicBot(),
        make_bot("heuristic", pot_weight=0.5, milk=False),
        LinearBot(),
    ]


@pytest.mark.parametrize("r", range(len(RULES)))
def test_compiled_answers_are_the_bots_own_moves(r: int) -> None:
    rules = RULES[r]
    bots = _bots()
    assert all(compiled_ok(b) for b in bots)
    answer = compiled_ask(bots, rules, COMPILED_FROM)
    n = 2 if rules.chips[0][0] == 2 else 3
    views = _views(rules, n, seed=r)
    assert any(not v.can_pass for v in views) and len(views) > 150
    for bot in bots:
        moves = [answer(bot, v, (TAKE, PASS) if v.can_pass else (TAKE,)) for v in views]
        assert moves == [bot.act(v) for v in views], type(bot).__name__
        assert TAKE in moves and (PASS in moves or isinstance(bot, MarginalCostBot))


class _Counted(MarginalCostBot):
    """A subclass that overrides act: it decides otherwise, so it has no compiled path."""

    calls = 0

    def act(self, view: nt.PlayerView) -> nt.Action:
        _Counted.calls += 1
        return TAKE


def test_bots_without_a_trusted_compiled_path_are_asked_through_act() -> None:
    class Batched(MarginalCostBot):
        batch_key = "me"

    seeded = RandomBot(seed=3)
    counted, batched = _Counted(), Batched(5)
    assert not compiled_ok(seeded) and not compiled_ok(counted) and not compiled_ok(batched)
    assert compiled_ask([seeded, counted], nt.Rules(), 10**6) is ask  # nothing to compile
    assert compiled_ask([MarginalCostBot(3)], nt.Rules(), COMPILED_FROM - 1) is ask  # too few
    answer = compiled_ask([seeded, counted, MarginalCostBot(3)], nt.Rules(), COMPILED_FROM)
    views = _views(nt.Rules(), 3, seed=5)
    _Counted.calls = 0
    for v in views:
        legal = (TAKE, PASS) if v.can_pass else (TAKE,)
        assert answer(counted, v, legal) is TAKE
    assert _Counted.calls == len(views)
    twin = RandomBot(seed=3)
    assert [answer(seeded, v, (TAKE, PASS)) for v in views if v.can_pass] == [
        twin.act(v) for v in views if v.can_pass
    ]
    with pytest.raises(nt.PolicyError, match="raised"):  # still asked by play.ask
        answer(object(), views[0], (TAKE,))

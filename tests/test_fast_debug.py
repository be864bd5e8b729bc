"""The debug switch of the compiled path: bounds-checked decision functions, checked against act.

A ``FAST_DECIDE`` that reads past an array's end plays on silently when compiled; under
``NOTHANKS_LAB_DEBUG=1`` the table refuses it with `FastDebugError` naming the bot and the
position, and a sound bot plays exactly as without the switch.
"""

from __future__ import annotations

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab.bots import FastBot, MarginalCostBot, Param
from nothanks_lab.fast.debug import DEBUG_ENV, FastDebugError, check_fast_bot


def peek_decide(params, card, pot, seat, hands, chips, cards_left):  # type: ignore[no-untyped-def]
    # chips has one entry per seat: seat + 7 is past its end at any table
    return pot >= params[0] or chips[seat + 7] > 10**9


def sound_decide(params, card, pot, seat, hands, chips, cards_left):  # type: ignore[no-untyped-def]
    return pot >= params[0] or chips[seat] == 0


class Peeker(FastBot):
    PARAMS = (Param("pot", 3, 0, 30, "take at this pot"),)
    FAST_DECIDE = staticmethod(peek_decide)


class Sound(FastBot):
    PARAMS = (Param("pot", 3, 0, 30, "take at this pot"),)
    FAST_DECIDE = staticmethod(sound_decide)


def test_a_decision_function_reading_past_an_array_is_named_under_debug(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bots = [Peeker(pot=2), MarginalCostBot(5), MarginalCostBot(1)]
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    quiet = nt.simulate(bots, 20, seed=1, fast=True)  # compiled, unchecked: plays on silently
    assert quiet.scores.shape == (20, 3)
    monkeypatch.setenv(DEBUG_ENV, "1")
    with pytest.raises(FastDebugError, match=r"Peeker.*reads outside an array.*shown"):
        nt.simulate(bots, 20, seed=1, fast=True)
    with pytest.raises(FastDebugError, match="outside an array"):
        check_fast_bot(Peeker(pot=2))


def test_a_sound_bot_plays_the_same_with_the_switch_on(monkeypatch: pytest.MonkeyPatch) -> None:
    bots = [Sound(pot=4), MarginalCostBot(5), MarginalCostBot(1)]
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    plain = nt.simulate(bots, 50, seed=2, fast=True).scores
    monkeypatch.setenv(DEBUG_ENV, "1")
    checked = nt.simulate(bots, 50, seed=2, fast=True).scores
    np.testing.assert_array_equal(plain, checked)
    assert check_fast_bot(Sound(pot=4), n_games=3) > 20  # decisions compared


def test_a_compiled_function_that_disagrees_with_act_is_named() -> None:
    class Liar(Sound):
        def act(self, view):  # type: ignore[no-untyped-def]
            return nt.Action.TAKE  # not what its FAST_DECIDE says

    with pytest.raises(FastDebugError, match=r"Liar.*says PASS but its act"):
        check_fast_bot(Liar(pot=30))

"""The real-table advisor's model: rounds entered card by card, refusals, undo, score, files."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab.advisor import AdvisorSession, EntryError
from nothanks_lab.bots import MarginalCostBot


def enter_round(game: nt.Game, advisor: AdvisorSession) -> None:
    """Enter a played round into `advisor` as a person at the table would: card, moves, ..."""
    shown = None
    for e in game.history:
        if e.card != shown:
            advisor.turn(e.card)
            shown = e.card
        advisor.move(e.action)
        if e.action is nt.Action.TAKE:
            shown = None


def state(a: AdvisorSession) -> tuple[object, ...]:
    g = a.game
    return (list(a.entries), a.phase, a.to_act, a.active_card, g.history, g.chips, g.hands)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_round_entered_card_by_card_is_the_round_played(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 8))
    first = int(rng.integers(n))
    result = nt.play_game([MarginalCostBot(int(t)) for t in rng.integers(0, 15, n)], seed=seed,
                          first_player=first)  # fmt: skip
    game = nt.Game.replay(n, result.history, deck=[e.card for e in result.history
                          if e.action is nt.Action.TAKE], first_player=first)  # fmt: skip
    a = AdvisorSession(n, my_seat=n - 1, first_player=first)
    enter_round(game, a)
    assert a.phase == "over" and a.to_act is None and a.active_card is None
    assert a.game.history == game.history
    assert a.scores() == game.scores() == tuple(result.scores)
    assert a.game.removed_cards() == game.removed_cards()
    assert len(a.turned) == 24 and a.cards_to_come == 0
    # Saved for review: the same round comes back from the file.
    loaded = nt.Game.from_json(a.to_json())
    assert loaded.history == game.history and loaded.scores() == game.scores()
    review = nt.review(loaded, n - 1, seed=1, n=100)
    assert [m.index for m in review.moves] == [
        i for i, e in enumerate(game.history) if e.seat == n - 1
    ]


def test_turns_alternate_as_the_rules_say() -> None:
    a = AdvisorSession(3, my_seat=2)
    assert (a.phase, a.to_act, a.active_card) == ("card", 0, None)
    a.turn(20)
    assert (a.phase, a.to_act, a.active_card) == ("move", 0, 20)
    a.no_thanks()
    assert (a.phase, a.to_act, a.game.pot) == ("move", 1, 1)
    a.take()  # the taker keeps the turn and waits for the next card
    assert (a.phase, a.to_act, a.active_card) == ("card", 1, None)
    assert a.game.hands[1] == (20,) and a.game.chips == (10, 12, 11)
    assert a.log_lines() == [
        "card 20 turned face up",
        "Seat 0 says No thanks! on 20 (pot 0)",
        "Seat 1 takes 20 and 1 chip",
    ]


@pytest.mark.parametrize(
    ("entries", "bad", "message"),
    [
        ([27, "pass", "take"], ("turn", 27), "27 was already turned"),
        ([27, "pass"], ("turn", 28), r"first enter the move of Seat 1 \(you\) on 27"),
        ([], ("turn", 40), "card 40 is outside 3–35"),
        ([], ("turn", 2), "card 2 is outside 3–35"),
        ([], ("turn", "x"), "a card is a whole number from 3 to 35"),
        ([], ("turn", 27.5), "a card is a whole number from 3 to 35"),
        ([], ("take", None), "no card is face up: enter the card Seat 0 turns next"),
        ([27, "take"], ("pass", None), "no card is face up"),
    ],
)
def test_impossible_entries_are_refused_by_name_and_change_nothing(
    entries: list[object], bad: tuple[str, object], message: str
) -> None:
    a = AdvisorSession(4, my_seat=1)
    for e in entries:
        if e == "pass":
            a.no_thanks()
        elif e == "take":
            a.take()
        else:
            a.turn(e)
    before = state(a)
    kind, arg = bad
    with pytest.raises(EntryError, match=message):
        if kind == "turn":
            a.turn(arg)
        else:
            (a.take if kind == "take" else a.no_thanks)()
    assert state(a) == before


def test_a_pass_with_no_chips_is_refused() -> None:
    a = AdvisorSession(3, my_seat=0, chips=1)
    a.turn(30)
    a.no_thanks()
    a.no_thanks()
    a.no_thanks()  # every seat has spent its one chip
    assert a.game.chips == (0, 0, 0) and a.to_act == 0
    before = state(a)
    with pytest.raises(EntryError, match="seat 0 has no chips to pass"):
        a.no_thanks()
    assert state(a) == before
    a.take()
    assert a.game.chips == (3, 0, 0)


def test_no_more_cards_than_a_round_turns() -> None:
    rules = nt.Rules(low_card=1, high_card=10, n_removed=2)  # 8 cards a round
    a = AdvisorSession(3, rules=rules)
    for c in range(1, 9):
        a.turn(c)
        a.take()
    assert a.phase == "over" and a.scores() == (1 - 11, -11, -11)
    with pytest.raises(EntryError, match="a round turns only 8 cards"):
        a.turn(9)
    with pytest.raises(EntryError, match="the round is over"):
        a.take()


def test_undo_takes_back_each_entry_exactly() -> None:
    a = AdvisorSession(4, my_seat=3)
    states = [state(a)]
    for step in (12, "pass", "pass", "take", 13, "take", 30, "pass"):
        if step == "pass":
            a.no_thanks()
        elif step == "take":
            a.take()
        else:
            a.turn(step)
        states.append(state(a))
    for expected in reversed(states[:-1]):
        a.undo()
        assert state(a) == expected
    with pytest.raises(EntryError, match="nothing to undo"):
        a.undo()


def test_the_score_and_hidden_chips() -> None:
    a = AdvisorSession(3, my_seat=1, hidden_chips=True)
    a.turn(10)
    a.no_thanks()
    a.take()
    assert a.scores() == (-10, 10 - 12, -11)
    assert a.shown_chips() == ["?", "12", "?"]
    assert AdvisorSession(3, my_seat=1).shown_chips() == ["11", "11", "11"]


def test_chips_choose_the_start() -> None:
    a = AdvisorSession(5, chips=4)
    assert a.game.chips == (4,) * 5
    assert nt.Game.from_json(a.to_json()).chips == (4,) * 5


def test_advice_only_on_my_turn() -> None:
    a = AdvisorSession(3, my_seat=1)
    with pytest.raises(EntryError, match="your turn"):
        a.evaluate(seed=1, n=200, budget_s=None)
    a.turn(35)
    with pytest.raises(EntryError, match="your turn"):
        a.evaluate(seed=1, n=200, budget_s=None)
    a.no_thanks()
    assert a.is_my_turn
    ev = a.evaluate(seed=1, n=500, budget_s=None)
    assert ev.card == 35 and ev.pot == 1 and ev.best is nt.Action.PASS  # 35 with one chip
    assert ev.n == 500


def test_an_unfinished_round_saves_only_what_was_seen() -> None:
    a = AdvisorSession(3)
    a.turn(8)
    a.take()
    text = a.to_json()
    assert '"active_card"' not in text and '"deck"' not in text
    loaded = nt.Game.from_json(text, seed=1)
    assert loaded.history == a.game.history and loaded.hands == a.game.hands
    a.turn(9)
    loaded = nt.Game.from_json(a.to_json(), seed=1)
    assert loaded.active_card == 9 and loaded.view(0) == a.view


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_players": 2}, "n_players must be one of"),
        ({"my_seat": 4}, "my_seat"),
        ({"first_player": -1}, "first_player"),
        ({"chips": -1}, "chips"),
        ({"hidden_chips": "yes"}, "hidden_chips"),
        ({"names": ["a"]}, "names must hold one name"),
    ],
)
def test_bad_settings_are_value_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        AdvisorSession(**{"n_players": 4, **kwargs})  # type: ignore[arg-type]


def test_the_model_needs_no_ipywidgets() -> None:
    code = (
        "import sys; from nothanks_lab.advisor import AdvisorSession; "
        "a = AdvisorSession(3); a.turn(5); a.take(); print('ipywidgets' in sys.modules, a.phase)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "card"]

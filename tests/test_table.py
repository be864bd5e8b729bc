"""The play table's model without ipywidgets: deals, turns, bot moves, rounds, presets, hints."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab.bots import MarginalCostBot, RandomBot
from nothanks_lab.table import (
    DIFFICULTIES,
    RoundReplay,
    TableSession,
    build_bot,
    check_difficulty,
    difficulty_bots,
    spec_label,
)


def finish(session: TableSession, me: Any) -> None:
    """Play the person's seat with `me` and the bots to the end of the round."""
    while session.phase in ("human", "bot"):
        if session.phase == "human":
            session.play(me.act(session.view))
        else:
            session.bot_step()


class Raising:
    name = "Raiser"

    def act(self, view: nt.PlayerView) -> nt.Action:
        raise RuntimeError("boom")


def test_the_model_needs_no_ipywidgets() -> None:
    code = (
        "import sys; from nothanks_lab.table import TableSession; "
        "s = TableSession([None, 'marginal', 'marginal'], seed=1); s.run_bots(); "
        "print('ipywidgets' in sys.modules, s.phase)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "human"]


def test_a_match_equals_play_match_with_the_same_seed() -> None:
    seed, rounds = 21, 3
    s = TableSession(
        [None, ("marginal", {"threshold": 3}), ("marginal", {"threshold": 12})],
        seed=seed,
        rounds=rounds,
    )
    me = MarginalCostBot(7)
    for r in range(rounds):
        assert s.round_number == r + 1 and s.game.first_player == r % 3
        finish(s, me)
        assert s.phase == ("round_over" if r < rounds - 1 else "match_over")
        if r < rounds - 1:
            s.next_round()
    expected = nt.play_match(
        [me, MarginalCostBot(3), MarginalCostBot(12)], rounds=rounds, seed=seed
    )
    got = s.match_result()
    assert got is not None
    np.testing.assert_array_equal(got.round_scores, expected.round_scores)


def test_turns_bot_steps_and_refused_moves() -> None:
    s = TableSession(["marginal", None, "marginal"], human_seat=1, seed=4)
    assert s.phase == "bot" and s.to_act == 0
    with pytest.raises(nt.IllegalActionError, match="not your turn"):
        s.play(nt.Action.TAKE)
    assert s.game.history == ()
    moved = s.run_bots()
    assert moved and s.phase == "human" and s.to_act == 1
    assert list(s.game.history) == moved
    assert s.bot_step() is None  # nothing to move on the person's turn
    with pytest.raises(nt.IllegalActionError, match="finish this round first"):
        s.next_round()


def test_last_moves_are_per_seat_and_the_newest() -> None:
    s = TableSession([None, "marginal", "marginal"], seed=2)
    assert s.last_moves() == [None, None, None]
    s.play(nt.Action.PASS)
    s.run_bots()
    last = s.last_moves()
    for seat in range(3):
        mine = [e for e in s.game.history if e.seat == seat]
        assert last[seat] == (mine[-1] if mine else None)
    assert last[0] is not None and last[0].action is nt.Action.PASS


def test_a_failing_bot_stops_the_round_without_applying_a_move() -> None:
    s = TableSession([None, Raising(), "marginal"], seed=3)
    s.play(nt.Action.PASS)
    with pytest.raises(nt.PolicyError, match="boom"):
        s.run_bots()
    assert s.phase == "failed" and s.to_act is None
    assert s.failed == "Bot 1 (Raiser)" and len(s.game.history) == 1
    with pytest.raises(nt.IllegalActionError, match="failed"):
        s.play(nt.Action.TAKE)
    again = s.play_again()
    assert again.phase == "human" and again.seed == s.seed + 1


def test_play_again_keeps_seats_and_moves_the_seed_on() -> None:
    s = TableSession([None, "marginal", ("random", {"p_take": 0.3})], seed=5, rounds=2)
    finish(s, MarginalCostBot(10))
    t = s.play_again()
    assert t.seed == 6 and t.specs == s.specs and t.rounds == 2 and t.results == []
    assert t.policies[1] is not s.policies[1]  # fresh bots, fresh generators
    same = TableSession([None, "marginal", ("random", {"p_take": 0.3})], seed=6, rounds=2)
    assert t.game.view(0) == same.game.view(0)
    assert t.play_again(seed=99).seed == 99


def test_randomized_bots_are_seeded_from_the_match_seed() -> None:
    a = TableSession([None, "random", "random"], seed=8)
    b = TableSession([None, "random", "random"], seed=8)
    assert isinstance(a.policies[1], RandomBot)
    draws = [[p.rng.random() for _ in range(3)] for p in (a.policies[1], b.policies[1])]
    assert draws[0] == draws[1]
    assert a.policies[1].rng.random() != a.policies[2].rng.random()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bots": ["marginal", "marginal", "marginal"]}, "must hold None"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**40}, "seed"),
        ({"rounds": 0}, "rounds"),
        ({"human_seat": 5}, "human_seat"),
        ({"names": ["a"]}, "names"),
        ({"bots": [None, "nope", "marginal"]}, "nope"),
    ],
)
def test_bad_settings_are_value_errors(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"bots": [None, "marginal", "marginal"], "seed": 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        TableSession(args.pop("bots"), **args)


# ----------------------------------------------------------------------------- presets
def test_difficulty_presets_run_from_simple_bots_to_best() -> None:
    assert list(DIFFICULTIES) == ["easy", "medium", "hard"]
    assert DIFFICULTIES["easy"].bot[0] == "marginal"
    assert DIFFICULTIES["hard"].bot[0] == "best"
    specs = difficulty_bots("hard", 4, 2)
    assert specs[2] is None and [s[0] for s in specs if s] == ["best"] * 3
    for name, level in DIFFICULTIES.items():
        assert level.summary and check_difficulty(name) == name
        build_bot(level.bot)  # every preset names a registered bot with valid parameters


@pytest.mark.parametrize("bad", ["Hard", "expert", "", None, 3])
def test_an_unknown_difficulty_is_a_value_error(bad: object) -> None:
    with pytest.raises(ValueError, match="difficulty must be one of 'easy', 'medium', 'hard'"):
        check_difficulty(bad)


def test_spec_labels_name_only_changed_settings() -> None:
    assert spec_label("best") == "best"
    assert spec_label(("marginal", {"threshold": 10})) == "marginal"
    assert spec_label(("random", {"p_take": 0.25})) == "random(p_take=0.25)"
    assert spec_label(MarginalCostBot(3)) == nt.play.policy_name(MarginalCostBot(3))


# ----------------------------------------------------------------------------- hints
def test_rollouts_use_the_bots_at_the_table_or_say_who_stands_in() -> None:
    s = TableSession([None, ("marginal", {"threshold": 3}), "best", "heuristic"], seed=1)
    field, words = s.rollout_field()
    assert field[1] is s.policies[1] and field[3] is s.policies[3]
    assert type(field[2]) is type(nt.bots.make_bot("linear"))
    assert words == [
        "Bot 1 as itself (marginal(threshold=3))",
        "Bot 2 (best) played by linear",
        "Bot 3 as itself (heuristic)",
    ]


# ----------------------------------------------------------------------------- review and replay
def played_session(seed: int = 7, n: int = 4) -> tuple[TableSession, list[list[nt.PlayerView]]]:
    """A finished single round, and every seat's view before each move and at the end."""
    bots = [None, *[("marginal", {"threshold": 8 + i}) for i in range(n - 1)]]
    s = TableSession(bots, seed=seed)
    me = MarginalCostBot(6)
    seen = []
    while s.phase in ("human", "bot"):
        seen.append([s.game.view(i) for i in range(n)])
        if s.phase == "human":
            s.play(me.act(s.view))
        else:
            s.bot_step()
    seen.append([s.game.view(i) for i in range(n)])
    return s, seen


def test_the_replay_draws_the_table_as_it_was_at_every_step() -> None:
    s, seen = played_session()
    replay = s.replay()
    assert replay.n_steps == len(s.game.history) == len(seen) - 1
    for k, views in enumerate(seen):
        assert replay.view_at(k) == views[0]  # the person's view then
        assert replay.game_at(k).view(2) == views[2]
        assert replay.event_at(k) == (s.game.history[k - 1] if k else None)
        expected: list[nt.Event | None] = [None] * 4
        for e in s.game.history[:k]:
            expected[e.seat] = e
        assert replay.last_moves_at(k) == expected
    assert replay.to_act_at(0) == 0 and replay.to_act_at(replay.n_steps) is None
    assert replay.caption(0).startswith("The deal")
    assert replay.caption(3) == f"Move 3 of {replay.n_steps}: " + s.game.history[2].describe(
        s.names
    )
    # A step's game is a copy: moving it changes nothing in the replay.
    g = replay.game_at(0)
    g.step(nt.Action.TAKE)
    assert replay.view_at(0) == seen[0][0]
    for bad in (-1, replay.n_steps + 1, 1.5, "2"):
        with pytest.raises(ValueError, match="step must be a whole number"):
            replay.view_at(bad)  # type: ignore[arg-type]


def test_a_round_loaded_from_its_file_replays_the_same() -> None:
    s, _ = played_session(seed=8, n=3)
    text = s.round_json()
    record = nt.Game.from_json(text)
    a, b = s.replay(), RoundReplay(record, s.names)
    assert all(a.view_at(k) == b.view_at(k) for k in range(a.n_steps + 1))
    seats = json.loads(text)["seats"]
    assert [x["name"] for x in seats] == ["Seat 0 (you)", "Bot 1", "Bot 2"]
    assert seats[0]["bot"] is None and seats[1]["bot"].startswith("marginal:threshold=8")
    assert s.file_name() == "nothanks-seed8-round1.json"


def test_an_unfinished_rounds_replay_keeps_its_face_up_card() -> None:
    g = nt.Game(3, deck=range(3, 27))
    for a in (nt.Action.PASS, nt.Action.TAKE, nt.Action.PASS):
        g.step(a)
    replay = RoundReplay(g)
    assert replay.view_at(3) == g.view(0) and replay.view_at(3).active_card == 4


def test_a_custom_bot_is_saved_by_name_only() -> None:
    s = TableSession([None, MarginalCostBot(3), Raising()], seed=1)
    doc = json.loads(s.round_json())
    assert [x["name"] for x in doc["seats"]] == s.names
    assert all(x["bot"] is None for x in doc["seats"])


def test_the_review_is_of_the_persons_decisions_and_repeatable() -> None:
    s, _ = played_session(seed=9, n=3)
    r1 = s.review(n=200)
    r2 = s.review(n=200)
    assert [m.index for m in r1.moves] == [i for i, e in enumerate(s.game.history) if e.seat == 0]
    assert len(r1.moves) == s.human_decisions > 0
    assert [(m.label, m.cost) for m in r1.moves] == [(m.label, m.cost) for m in r2.moves]
    assert r1.name == "Seat 0 (you)" and r1.final_score == s.game.scores()[0]
    replay = s.replay(r1)
    assert replay.decision_steps() == [m.index + 1 for m in r1.moves]
    k = replay.decision_steps()[0]
    assert replay.move_review_at(k) is r1.moves[0] and replay.move_review_at(0) is None
    with pytest.raises(ValueError, match="review is of seat 0"):
        RoundReplay(s.game, seat=1, review=r1)

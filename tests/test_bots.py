"""Bots: one conformance test every registered bot passes, then each bot's own behaviour.

Conformance: a bot decides from public information only (the same move on two rounds that
differ only in cards nobody has seen), makes legal moves only, is reproducible from its seed,
declares its parameters (defaults inside their ranges; out-of-range or unknown values refused),
and explains its choice. Then: the heuristic bot's switches (all off = the marginal-cost rule; each
idea changes the move where it should), the compiled fast path equals the one-game engine, the
expectation bot's chances are the probability module's, and the search bot's rollouts.
Strength claims live in ``benchmarks/strength_table.py``, not here.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab import Action, Game, PlayerView
from nothanks_lab.bots import (
    ExpectationBot,
    HeuristicBot,
    MarginalCostBot,
    RandomBot,
    SearchBot,
    available_bots,
    make_bot,
    params_of,
)
from nothanks_lab.bots.heuristic import HEURISTIC_PARAMS
from nothanks_lab.bots.opponents import (
    MODELS,
    Decision,
    OpponentModel,
    decisions_between,
    model_params,
)
from nothanks_lab.bots.search import rollout_values
from nothanks_lab.probability import p_all_in_play
from nothanks_lab.view import hypothetical_view

ALL = available_bots()
# Search bots are slow in Python-level tests; a small budget keeps the suite quick while the
# decision code is the same (the default budget is exercised in `test_defaults_decide`).
QUICK = {"search": {"n_rollouts": 24}, "best": {"n_rollouts": 24}}


def build(name: str, seed: int = 0, **extra: Any) -> Any:
    """A registered bot with quick settings, seeded when it takes a seed."""
    params = {**QUICK.get(name, {}), **extra}
    return make_bot(name, seed=seed, **params)


def twin_positions(n_players: int, seed: int, n: int = 4) -> list[tuple[Game, Game]]:
    """Pairs of rounds at equal public positions whose removed cards and deck order differ."""
    rng = np.random.default_rng(seed)
    driver = MarginalCostBot(6)
    pairs = []
    for _ in range(n):
        a = Game(n_players, seed=rng)
        stop = int(rng.integers(0, 60))
        for _ in range(stop):
            if a.is_over or a.cards_left == 0:
                break
            a.step(driver.act(a.view(a.current_player)))
        v = a.view(a.current_player)
        # Another guess at the face-down cards: a different draw from the unseen ones.
        taken = [e.card for e in a.history if e.action is Action.TAKE]
        unseen = np.array(v.unseen_cards)
        rest = [int(c) for c in rng.permutation(unseen)[: v.cards_left]]
        b = Game.replay(n_players, a.history, deck=[*taken, v.active_card, *rest])
        pairs.append((a, b))
    return pairs


def future(game: Game) -> list[int]:
    """The face-down cards of `game` in turning order (learnt by taking all on a copy)."""
    probe = game.copy()
    while not probe.is_over:
        probe.step(Action.TAKE)
    return [e.card for e in probe.history[len(game.history) + 1 :]]


@pytest.mark.parametrize("name", ALL)
def test_uses_public_information_only(name: str) -> None:
    differ = 0
    for n_players in (3, 5):
        for a, b in twin_positions(n_players, seed=11 + n_players):
            seat = a.current_player
            va, vb = a.view(seat), b.view(seat)
            assert va == vb
            differ += future(a) != future(b)
            assert build(name, seed=3).act(va) == build(name, seed=3).act(vb)
            assert build(name, seed=3).explain(va) == build(name, seed=3).explain(vb)
    assert differ >= 6  # the twins really hide different cards


@pytest.mark.parametrize("name", ALL)
def test_legal_moves_only_and_only_views(name: str) -> None:
    seen_types: set[type] = set()

    class Spy:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def act(self, view: Any) -> Action:
            seen_types.add(type(view))
            action = self.inner.act(view)
            assert action in (Action.TAKE, Action.PASS)
            if not view.can_pass:
                assert action is Action.TAKE
            return action

    for n_players, seed in ((3, 1), (5, 2), (7, 3)):
        bot = Spy(build(name, seed=seed))
        others = [MarginalCostBot(t) for t in (0, 5, 10, 15, 20, 25)]
        # play_game raises PolicyError on any illegal answer.
        result = nt.play_game([bot, *others[: n_players - 1]], seed=seed, first_player=seed % 3)
        assert sum(len(h) for h in result.hands) == 24
        nt.play_game([bot] * n_players, seed=seed + 10)
    assert seen_types == {PlayerView}


@pytest.mark.parametrize("name", ALL)
def test_reproducible_from_seed(name: str) -> None:
    def run(seed: int) -> tuple[Any, ...]:
        bot = build(name, seed=seed)
        return nt.play_game([bot, bot, MarginalCostBot(8)], seed=5).history

    assert run(4) == run(4)


@pytest.mark.parametrize("name", ALL)
def test_parameters_declared_and_checked(name: str) -> None:
    params = params_of(name)
    bot = make_bot(name, seed=0)
    assert bot.params == {n: p.default for n, p in params.items()}
    for p in params.values():
        assert p.doc and p.kind in (int, float, bool)
        assert p.low <= p.default <= p.high, p
        if p.kind is bool:
            bad: list[Any] = ["yes", 1]
        else:
            bad = [p.high + 1, p.low - 1, "3"]
            if p.kind is int:
                bad.append(p.low + 0.5)
        for value in bad:
            with pytest.raises(ValueError, match=p.name):
                make_bot(name, **{p.name: value})
    with pytest.raises(ValueError, match="no parameter"):
        make_bot(name, not_a_knob=1)


@pytest.mark.parametrize("name", ALL)
def test_explain_gives_the_chosen_action(name: str) -> None:
    for a, _ in twin_positions(4, seed=7, n=3):
        view = a.view(a.current_player)
        why = build(name, seed=9).explain(view)
        assert isinstance(why, dict)
        assert why["action"] == build(name, seed=9).act(view)
    # A seat without chips is forced to take, and says so.
    g = Game(3, deck=range(3, 27))
    for _ in range(11):
        for _ in range(3):
            g.step(Action.PASS)
    assert g.view(0).my_chips == 0
    assert build(name).explain(g.view(0))["action"] is Action.TAKE


def test_defaults_decide() -> None:
    view = Game(3, deck=range(3, 27)).view(0)
    for name in ALL:
        assert make_bot(name, seed=1).act(view) in (Action.TAKE, Action.PASS)


# ------------------------------------------------------------------ the heuristic bot


def switched_off(threshold: float) -> HeuristicBot:
    return HeuristicBot(
        threshold=threshold,
        pot_weight=1.0,
        chip_weight=0.0,
        late_weight=0.0,
        bridge_weight=0.0,
        milk=False,
        block_weight=0.0,
    )


def test_heuristic_with_every_switch_off_is_the_marginal_rule() -> None:
    rng = np.random.default_rng(0)
    compared = 0
    for t in (-2, 0, 5, 10, 17):
        off, marginal = switched_off(t), MarginalCostBot(t)
        for _ in range(6):
            g = Game(4, seed=rng)
            while not g.is_over:
                v = g.view(g.current_player)
                move = marginal.act(v)
                assert off.act(v) == move
                compared += 1
                g.step(move)
    assert compared > 300


def position(hands: list[list[int]], chips: list[int], card: int, pot: int, seat: int = 0):
    """A view of `seat` deciding on `card` with `pot` chips, hands and chips as given."""
    n = len(hands)
    taken = [c for h in hands for c in h]
    rest = [c for c in range(3, 36) if c not in taken and c != card]
    game = Game.from_position(
        hypothetical_view(  # the positions below hold made-up chip counts
            seat=seat,
            n_players=n,
            active_card=card,
            pot=pot,
            my_chips=chips[seat],
            chips=tuple(chips),
            hands=tuple(tuple(sorted(h)) for h in hands),
            cards_left=24 - len(taken) - 1,
            rules=nt.Rules(),
            current_player=seat,
        ),
        rest[: 24 - len(taken) - 1],
    )
    return game.view(seat)


def test_milking_lets_a_card_nobody_else_wants_go_round() -> None:
    # 21 extends our run 19-20 for free; no rival holds anything near it.
    view = position([[19, 20], [5, 30], [8, 33]], [8, 9, 9], card=21, pot=1)
    assert HeuristicBot(milk=False).act(view) is Action.TAKE
    why = HeuristicBot(milk=True).explain(view)
    assert why["milking"] and why["action"] is Action.PASS
    # A rival whose run 22-23 the card extends would take it: no milking.
    risky = position([[19, 20], [22, 23], [8, 33]], [8, 9, 9], card=21, pot=1)
    assert HeuristicBot(milk=True).act(risky) is Action.TAKE
    # A rival without chips must take whatever comes: no milking.
    broke = position([[19, 20], [5, 30], [8, 33]], [8, 0, 9], card=21, pot=1)
    assert HeuristicBot(milk=True).act(broke) is Action.TAKE


def test_blocking_the_leader_loosens_the_threshold() -> None:
    # Seat 1 leads and 16 fits its run 17-18; we hold nothing near it.
    view = position([[30, 33], [17, 18], [25, 27]], [6, 9, 5], card=16, pot=4)
    plain = HeuristicBot(block_weight=0.0, milk=False).explain(view)
    block = HeuristicBot(block_weight=12.0, milk=False).explain(view)
    assert block["blocking_leader"] and not plain["blocking_leader"]
    assert block["threshold"] == pytest.approx(plain["threshold"] + 12.0)
    assert plain["action"] is Action.PASS and block["action"] is Action.TAKE


def test_bridging_discounts_a_card_next_to_an_unseen_gap() -> None:
    view = position([[24], [5], [8]], [11, 11, 11], card=22, pot=0)
    why = HeuristicBot(bridge_weight=0.8).explain(view)
    p = view.cards_left / (view.cards_left + 9)
    assert why["bridge"] == pytest.approx(0.8 * p * 22)
    assert HeuristicBot(bridge_weight=0.0).explain(view)["bridge"] == 0.0
    # With 23 already seen the gap cannot be filled by us later... unless we hold it: no hope.
    dead = position([[24], [23], [8]], [11, 11, 11], card=22, pot=0)
    assert HeuristicBot(bridge_weight=0.8).explain(dead)["bridge"] == 0.0


@pytest.mark.parametrize("n_players", [3, 5, 7])
def test_fast_path_equals_the_engine(n_players: int) -> None:
    bots = [
        HeuristicBot(),
        HeuristicBot(milk=False, threshold=14, block_weight=0),
        HeuristicBot(chip_weight=3.0, late_weight=12.0, bridge_weight=0.9, milk_margin=0.0),
        MarginalCostBot(10),
    ]
    table = [bots[i % len(bots)] for i in range(n_players)]
    decks = nt.deals.deal_decks(nt.Rules(), seed=42, start=0, count=60)
    for first in (0, n_players - 1):
        fast = nt.simulate(table, decks=decks, first_player=first, fast=True)
        slow = nt.simulate(table, decks=decks, first_player=first, fast=False)
        np.testing.assert_array_equal(fast.scores, slow.scores)
        np.testing.assert_array_equal(fast.chips, slow.chips)
        np.testing.assert_array_equal(fast.n_decisions, slow.n_decisions)
    one = nt.play_game(table, deck=decks[3], first_player=first)
    assert one.scores == tuple(fast.scores[3])


# ------------------------------------------------------------------ expectation and search


def test_expectation_uses_exact_in_play_chances() -> None:
    view = position([[19, 21], [5, 30], [8, 33]], [8, 9, 9], card=25, pot=2)
    why = ExpectationBot().explain(view)
    seen = view.seen_cards
    assert why["p_neighbours"] == {
        24: pytest.approx(p_all_in_play([24], seen=seen)),
        26: pytest.approx(p_all_in_play([26], seen=seen)),
    }
    # Chips are worth more when short of them.
    poor = position([[19, 21], [5, 30], [8, 33]], [1, 9, 16], card=25, pot=2)
    assert ExpectationBot().chip_worth(poor) > ExpectationBot().chip_worth(view)


def test_rollout_values_share_guesses_and_prefer_the_obvious() -> None:
    # Early, rich in chips, an isolated 35 with an empty pot: passing is clearly better.
    view = position([[], [], []], [11, 11, 11], card=35, pot=0)
    v = rollout_values(view, 64, np.random.default_rng(1), SearchBot().rollout_matrix(view))
    assert v.shape == (2, 64)
    assert v[1].mean() > v[0].mean()
    assert SearchBot(seed=1, n_rollouts=64).act(view) is Action.PASS
    # A card that extends our run, with a fat pot: taking is clearly better.
    rich = position([[20, 21], [5], [8]], [3, 9, 9], card=22, pot=9)
    assert SearchBot(seed=1, n_rollouts=64).act(rich) is Action.TAKE


def test_search_refuses_bad_rollout_settings() -> None:
    with pytest.raises(ValueError, match="rollout_params"):
        SearchBot(rollout_params={"nope": 1})
    with pytest.raises(ValueError, match="threshold"):
        SearchBot(rollout_params={"threshold": 1000})
    with pytest.raises(ValueError, match="not to act"):
        g = Game(3, deck=range(3, 27))
        rollout_values(g.view(1), 4, np.random.default_rng(0), np.zeros(12))


def test_best_is_registered_and_declared() -> None:
    best = make_bot("best")
    assert "best" in ALL and {p.name for p in HEURISTIC_PARAMS} >= {"threshold"}
    assert set(best.params) == set(params_of("best"))


# ------------------------------------------------------------------ opponent model


def test_decisions_between_reads_back_exactly_the_moves_made() -> None:
    # Differential: every move read back from two consecutive views of a seat is a move that
    # was really made, on the public facts it was made on; most non-forced moves are found.
    rng = np.random.default_rng(3)
    found = made = 0
    for n_players in (3, 4, 6):
        for _ in range(8):
            g = Game(n_players, seed=rng)
            bots = [RandomBot(seed=i) if i % 2 else MarginalCostBot(3 * i) for i in range(7)]
            last: dict[int, tuple[PlayerView, int]] = {}
            moves: list[tuple[Decision, int]] = []
            while not g.is_over:
                p = g.current_player
                v = g.view(p)
                if p in last:
                    old, since = last[p]
                    real = {d for d, t in moves if t >= since and d.seat != p}
                    read = decisions_between(old, v)
                    assert read is not None
                    assert set(read) <= real
                    found += len(read)
                    made += sum(1 for d in real if d.chips[d.seat] > 0)
                a = bots[p].act(v)
                fact = Decision(
                    p, v.active_card, v.pot, v.hand_masks, v.chips, v.cards_left, a is Action.TAKE
                )
                moves.append((fact, len(g.history)))
                last[p] = (v, len(g.history))
                g.step(a)
    assert found > 0.6 * made


def test_decisions_between_refuses_views_that_cannot_follow() -> None:
    a, b = Game(3, seed=1), Game(3, seed=2)
    before = a.view(0)
    a.step(Action.PASS)
    assert decisions_between(before, a.view(1)) is None  # another seat
    for _ in range(2):
        a.step(Action.PASS)
    assert decisions_between(before, a.view(0)) == [
        Decision(
            o,
            before.active_card,
            o,
            (0, 0, 0),
            tuple(10 if s < o else 11 for s in range(3)),
            23,
            False,
        )
        for o in (1, 2)
    ]
    assert decisions_between(a.view(0), before) is None  # backwards
    assert decisions_between(a.view(0), b.view(0)) is None  # a new round


def watch(
    opponent: Any, n_players: int = 3, seed: int = 0, model: OpponentModel | None = None
) -> np.ndarray:
    """Opponent-model weights of seat 0 (heuristic bot) after a round against `opponent` copies."""
    model = OpponentModel() if model is None else model
    me = HeuristicBot()
    g = Game(n_players, seed=seed)
    w = model.weights(g.view(0))
    while not g.is_over:
        p = g.current_player
        if p == 0:
            w = model.weights(g.view(0))
            assert np.array_equal(model.weights(g.view(0)), w)  # the same view counts once
        g.step((me if p == 0 else opponent).act(g.view(p)))
    return w


def test_opponent_model_recognises_each_policy() -> None:
    names = list(MODELS)
    assert watch(HeuristicBot())[1:].argmax(axis=1).tolist() == [names.index("heuristic")] * 2
    assert (
        watch(MarginalCostBot(0), seed=1)[1:].argmax(axis=1).tolist() == [names.index("greedy")] * 2
    )
    # MarginalCostBot(10) takes nearly every card, so its rivals rarely get to move: few clues,
    # and on some deals a seat ties with greedy (a move both would make). Over ten deals it is
    # never behind any other model, and ahead of all at some seat on every deal.
    m10 = names.index("marginal10")
    for seed in range(10):
        w = watch(MarginalCostBot(10), seed=seed)
        assert (w[1:, m10] >= w[1:].max(axis=1) - 1e-12).all(), seed
        assert (w[1:].argmax(axis=1) == m10).any(), seed
        assert w[0].tolist() == pytest.approx([0.5, 0.25, 0.25])  # own seat: the prior
    with pytest.raises(ValueError, match="prior_milker"):
        OpponentModel(prior_milker=1.0)


def test_opponent_model_learns_the_mix_of_rivals_across_rounds() -> None:
    greedy = list(MODELS).index("greedy")
    learner, fixed = OpponentModel(learn=True), OpponentModel()
    firsts = []
    for seed in range(4):  # four rounds against two greedy rivals
        firsts.append(learner.weights(Game(3, seed=seed).view(0)))
        watch(MarginalCostBot(0), seed=seed, model=learner)
        watch(MarginalCostBot(0), seed=seed, model=fixed)
    start = [0.5, 0.25, 0.25]
    assert firsts[0].tolist() == [pytest.approx(start)] * 3  # nothing learnt before a round ends
    # Each later round starts from the prior learnt so far, for every rival alike.
    shares = [f[1, greedy] for f in firsts]
    assert all(a < b for a, b in itertools.pairwise(shares)), shares
    new_round = learner.weights(Game(3, seed=99).view(0))
    assert new_round.tolist() == [pytest.approx(learner.prior.tolist())] * 3
    # Four rounds x two rivals, all recognised as greedy, against a prior worth 4 rival-rounds.
    expected = (4 * np.array(start) + 8 * np.eye(3)[greedy]) / 12
    assert learner.prior == pytest.approx(expected, abs=0.01)
    assert fixed.weights(Game(3, seed=99).view(0))[1].tolist() == pytest.approx(start)


def test_search_with_opponent_model_samples_rivals_from_the_weights() -> None:
    view = Game(3, seed=4).view(0)
    bot = SearchBot(seed=0, model_opponents=True)
    greedy = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 1.0, 0]])
    m = bot.rollout_matrix(view, greedy)
    np.testing.assert_array_equal(m[1], model_params()[1])
    np.testing.assert_array_equal(m[0], bot.rollout_matrix(view)[0])
    assert set(bot.explain(view)["rival_models"]) == {1, 2}


def test_trust_z_falls_back_to_the_heuristic_unless_search_is_sure() -> None:
    stubborn = SearchBot(seed=2, n_rollouts=200, trust_z=100.0)
    for a, _ in twin_positions(3, seed=5, n=8):
        view = a.view(a.current_player)
        why = stubborn.explain(view)
        assert why["action"] is (HeuristicBot().act(view) if view.can_pass else Action.TAKE)
        if view.can_pass:
            assert why["heuristic_action"] is why["action"]
    # On obvious positions a modest trust_z still lets the search decide.
    view = position([[20, 21], [5], [8]], [3, 9, 9], card=22, pot=9)
    assert SearchBot(seed=1, n_rollouts=200, trust_z=2.0).act(view) is Action.TAKE


def test_seat_tuned_5p_changes_only_the_own_seat_at_five_players() -> None:
    from nothanks_lab.bots.heuristic import pack_params
    from nothanks_lab.bots.search import SEAT_5P_PARAMS

    on, off = SearchBot(seat_tuned_5p=True), SearchBot()
    view5 = Game(5, seed=3).view(0)
    tuned = pack_params(SEAT_5P_PARAMS, view5.rules)
    m_on, m_off = on.rollout_matrix(view5), off.rollout_matrix(view5)
    np.testing.assert_array_equal(m_on[0], tuned)
    np.testing.assert_array_equal(m_on[1:], m_off[1:])
    assert not np.array_equal(m_off[0], tuned)
    # Other player counts keep the declared heuristic bot everywhere.
    view3 = Game(3, seed=3).view(0)
    np.testing.assert_array_equal(on.rollout_matrix(view3), off.rollout_matrix(view3))
    # The tuned values are legal heuristic bot parameters.
    HeuristicBot(**SEAT_5P_PARAMS)


def test_seat_5p_heuristic_beats_four_default_ones() -> None:
    # The reason the tuned seat exists: on fixed deals, every first player, it wins more
    # than its fair 20% of 5-player rounds against four default heuristic bots.
    from nothanks_lab import core
    from nothanks_lab.bots.heuristic import heuristic_decide, pack_params
    from nothanks_lab.bots.search import SEAT_5P_PARAMS, rollout_kernel
    from nothanks_lab.engine import deal

    rng = np.random.default_rng(11)
    decks = np.array([deal(nt.Rules(), seed=rng) for _ in range(400)], dtype=np.int64)
    default = pack_params({p.name: p.default for p in HEURISTIC_PARAMS})
    params = np.array([pack_params(SEAT_5P_PARAMS)] + [default] * 4)
    kernel = rollout_kernel(heuristic_decide)
    share = np.mean(
        [
            kernel(
                core.new_state(decks, 5, 11, first), params, np.full(400, -1), 0, 0.0, params[0]
            ).mean()
            for first in range(5)
        ]
    )
    assert share > 0.23


@pytest.mark.slow
def test_compiled_decisions_read_their_parameters_by_name() -> None:
    """The named indices of the heuristic bot's ``params`` match `pack_params`'s layout, and its
    terms come back as a named record, alike in Python and compiled."""
    from nothanks_lab.bots import heuristic as h
    from nothanks_lab.bots.base import decision_args
    from nothanks_lab.bots.simple import THRESHOLD, marginal_decide
    from nothanks_lab.fast import jit_pure

    names = [p.name for p in HEURISTIC_PARAMS]
    values = {n: float(i + 1) for i, n in enumerate(names)}
    packed = h.pack_params(values, nt.Rules(low_card=2, high_card=40, n_removed=7))
    assert len(packed) == h.N_PARAMS
    for n in names:
        assert packed[getattr(h, n.upper())] == values[n]
    assert packed[[h.LOW_CARD, h.HIGH_CARD, h.N_REMOVED]].tolist() == [2, 40, 7]

    view = nt.Game(4, seed=5).view(0)
    args = h.pack_params({p.name: p.default for p in HEURISTIC_PARAMS}), *decision_args(view)
    terms = h.heuristic_terms(*args)
    assert isinstance(terms, h.HeuristicTerms)
    assert jit_pure(h.heuristic_terms)(*args) == terms
    assert terms.take == h.heuristic_decide(*args)
    assert MarginalCostBot(7).fast_params()[THRESHOLD] == 7
    assert marginal_decide(np.array([99.0]), *decision_args(view))


def test_search_rollouts_run_on_the_one_playout_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search bot plays its rollouts through `fast.finish_rounds` (no loop of its own)."""
    from nothanks_lab import fast

    calls = []
    real = fast.finish_rounds

    def counting(s, decides, params):  # type: ignore[no-untyped-def]
        calls.append(s.deck.shape[0])
        return real(s, decides, params)

    monkeypatch.setattr(fast, "finish_rounds", counting)
    bot = SearchBot(seed=1, n_rollouts=120, batch=60, stop_z=100.0)
    why = bot.explain(Game(3, seed=2).view(0))
    assert why["rollouts"] == 120 and calls == [120, 120]  # two batches, both moves each

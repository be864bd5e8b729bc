"""The exact solver: agreement with a brute-force game tree, the engine, and simulation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from scipy import stats

import nothanks_lab as nt
from nothanks_lab import exact
from nothanks_lab.bots import HeuristicBot, MarginalCostBot, RandomBot

Vec = tuple[float, ...]

# Tiny variants: the brute force below expands the whole tree with no memo.
TINY_2P = [
    nt.Rules(low_card=1, high_card=5, n_removed=1, chips=((2, 1),)),
    nt.Rules(low_card=3, high_card=7, n_removed=0, chips=((2, 2),)),
    nt.Rules(low_card=1, high_card=6, n_removed=2, chips=((2, 2),)),
    nt.Rules(low_card=10, high_card=15, n_removed=3, chips=((2, 3),)),
]
TINY_3P = nt.Rules(low_card=1, high_card=5, n_removed=1, chips=((3, 1),))
SMALL_2P = nt.Rules(low_card=3, high_card=10, n_removed=2, chips=((2, 3),))
MID_2P = nt.Rules(low_card=3, high_card=9, n_removed=2, chips=((2, 2),))  # for plain Python


# --------------------------------------------------------------------------- brute force
def brute_force(
    rules: nt.Rules,
    n: int,
    objective: str,
    choose: Callable[[nt.PlayerView, Vec, Vec], Vec],
) -> Vec:
    """Every seat's value at the start, expanding the whole game tree (plain Python, no memo).

    Hands are frozensets of real cards, scores come from `nt.score`, and at every decision
    where passing is allowed ``choose(view, take_values, pass_values)`` picks the outcome.
    """

    def finish(hands: tuple[frozenset[int], ...], chips: tuple[int, ...]) -> Vec:
        scores = [nt.score(h, c) for h, c in zip(hands, chips, strict=True)]
        if objective == "win":
            best = min(scores)
            return tuple(1 / scores.count(best) if s == best else 0.0 for s in scores)
        return tuple(
            float(min(s for q, s in enumerate(scores) if q != p) - scores[p]) for p in range(n)
        )

    def turn(hands: tuple[frozenset[int], ...], chips: tuple[int, ...], actor: int) -> Vec:
        seen = frozenset().union(*hands)
        if len(seen) == rules.n_in_play:
            return finish(hands, chips)
        unseen = [c for c in rules.cards if c not in seen]
        outcomes = [decide(hands, chips, 0, actor, c) for c in unseen]
        return tuple(sum(v[p] for v in outcomes) / len(unseen) for p in range(n))

    def decide(
        hands: tuple[frozenset[int], ...], chips: tuple[int, ...], pot: int, actor: int, card: int
    ) -> Vec:
        took = tuple(h | {card} if p == actor else h for p, h in enumerate(hands))
        gained = tuple(c + pot if p == actor else c for p, c in enumerate(chips))
        take = turn(took, gained, actor)
        if chips[actor] == 0:
            return take
        paid = tuple(c - 1 if p == actor else c for p, c in enumerate(chips))
        pass_ = decide(hands, paid, pot + 1, (actor + 1) % n, card)
        seen = frozenset().union(*hands)
        view = nt.PlayerView(
            seat=actor,
            n_players=n,
            active_card=card,
            pot=pot,
            my_chips=chips[actor],
            chips=chips,
            hands=tuple(tuple(sorted(h)) for h in hands),
            cards_left=rules.n_in_play - len(seen) - 1,
            rules=rules,
            current_player=actor,
        )
        return choose(view, take, pass_)

    return turn((frozenset(),) * n, (rules.starting_chips(n),) * n, 0)


def maximiser(view: nt.PlayerView, take: Vec, pass_: Vec) -> Vec:
    """The seat to act picks the move better for itself (take on a tie)."""
    return take if take[view.seat] >= pass_[view.seat] else pass_


def following(policies: Sequence[Any], responder: int | None) -> Callable[..., Vec]:
    """`responder` maximises; every other seat plays its policy."""

    def choose(view: nt.PlayerView, take: Vec, pass_: Vec) -> Vec:
        if view.seat == responder:
            return maximiser(view, take, pass_)
        p = policies[view.seat]
        if isinstance(p, RandomBot):
            return tuple(
                p.p_take * a + (1 - p.p_take) * b for a, b in zip(take, pass_, strict=True)
            )
        return take if p.act(view) is nt.Action.TAKE else pass_

    return choose


# --------------------------------------------------------------------------- agreement
@pytest.mark.parametrize("objective", exact.OBJECTIVES)
@pytest.mark.parametrize(
    "rules",
    # 3-7 with no card removed is the largest brute force (about 4 s): in the slow tier
    [r if r.n_removed else pytest.param(r, marks=pytest.mark.slow) for r in TINY_2P],
    ids=lambda r: f"{r.low_card}-{r.high_card}",
)
def test_solve_agrees_with_brute_force(rules: nt.Rules, objective: str) -> None:
    sol = exact.solve(rules, objective=objective)
    want = brute_force(rules, 2, objective, maximiser)
    assert sol.value == pytest.approx(want[0], abs=1e-9)
    # Zero-sum: the second seat's value is the complement.
    other = 1 - want[0] if objective == "win" else -want[0]
    assert want[1] == pytest.approx(other, abs=1e-9)
    assert sol.n_positions > 0 and sol.n_decisions > sol.n_positions


@pytest.mark.parametrize("objective", exact.OBJECTIVES)
def test_compiled_and_python_solvers_agree(objective: str) -> None:
    compiled = exact.solve(MID_2P, objective=objective)
    python = exact.solve(MID_2P, objective=objective, engine="python")
    assert compiled.value == pytest.approx(python.value, abs=1e-12)
    assert (compiled.n_positions, compiled.n_decisions) == (
        python.n_positions,
        python.n_decisions,
    )
    for g in _random_decision_views(MID_2P, 2, seed=8, count=20):
        for seat in (0, 1):
            v = g.view(seat)
            assert compiled.value_of(v) == pytest.approx(python.value_of(v), abs=1e-12)


@pytest.mark.parametrize("objective", exact.OBJECTIVES)
@pytest.mark.parametrize("seat", [0, 1, 2])
def test_best_response_agrees_with_brute_force_3p(objective: str, seat: int) -> None:
    opponents = [MarginalCostBot(3), HeuristicBot()]
    sol = exact.best_response(TINY_3P, opponents, objective=objective, seat=seat)
    policies: list[Any] = [*opponents[:seat], None, *opponents[seat:]]
    want = brute_force(TINY_3P, 3, objective, following(policies, seat))
    assert sol.value == pytest.approx(want[seat], abs=1e-9)
    assert sol.seat == seat


@pytest.mark.slow
def test_best_response_handles_random_bot_exactly() -> None:
    rules = TINY_2P[2]
    opponents = [RandomBot(p_take=0.3, seed=1)]
    sol = exact.best_response(rules, opponents, seat=1)
    want = brute_force(rules, 2, "win", following([opponents[0], None], 1))
    assert sol.value == pytest.approx(want[1], abs=1e-9)


def test_evaluate_agrees_with_brute_force() -> None:
    policies = [MarginalCostBot(0), HeuristicBot(), MarginalCostBot(8)]
    got = exact.evaluate(TINY_3P, policies)
    want = brute_force(TINY_3P, 3, "win", following(policies, None))
    assert got == pytest.approx(want, abs=1e-9)
    assert sum(got) == pytest.approx(1.0)


def test_best_response_against_perfect_play_is_the_game_value() -> None:
    """Against the solved policy, the best response can gain nothing: the minimax value."""
    rules = TINY_2P[2]
    sol = exact.solve(rules)
    for seat in (0, 1):
        br = exact.best_response(rules, [sol.bot()], seat=seat)
        want = sol.value if seat == 0 else 1 - sol.value
        assert br.value == pytest.approx(want, abs=1e-12)
    # and evaluating perfect against perfect gives the same value
    assert exact.evaluate(rules, [sol.bot(), sol.bot()])[0] == pytest.approx(sol.value)


@pytest.mark.slow
def test_best_response_beats_the_policy_it_replaces() -> None:
    bot = MarginalCostBot(5)
    base = exact.evaluate(MID_2P, [bot, bot])
    br = exact.best_response(MID_2P, [bot], seat=0)
    assert br.value >= base[0] - 1e-12
    assert br.value > base[0] + 0.01  # a fixed threshold is far from perfect


# --------------------------------------------------------------------------- positions
def test_value_is_the_average_over_the_first_card() -> None:
    rules = SMALL_2P
    for objective in exact.OBJECTIVES:
        sol = exact.solve(rules, objective=objective)
        values = []
        for first in rules.cards:
            rest = [c for c in rules.cards if c != first][: rules.n_in_play - 1]
            g = nt.Game(2, rules=rules, deck=[first, *rest])
            values.append(sol.value_of(g.view(0)))
            other = sol.value_of(g.view(1))
            assert other == pytest.approx(1 - values[-1] if objective == "win" else -values[-1])
        assert np.mean(values) == pytest.approx(sol.value, abs=1e-12)


def _random_decision_views(rules: nt.Rules, n: int, seed: int, count: int) -> list[nt.Game]:
    """Games stopped at decision points reached by random legal play."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        g = nt.Game(n, rules=rules, seed=rng)
        stop = rng.integers(0, 3 * rules.n_in_play)
        for _ in range(stop):
            if g.is_over:
                break
            legal = g.legal_actions()
            g.step(legal[rng.integers(len(legal))])
        if not g.is_over:
            out.append(g)
    return out


def test_move_values_follow_the_engine() -> None:
    """The value of a move is the value after playing it in the engine (over the next card)."""
    rules = SMALL_2P
    sol = exact.solve(rules, objective="margin")
    for g in _random_decision_views(rules, 2, seed=3, count=25):
        seat = g.current_player
        view = g.view(seat)
        values = sol.action_values(view)
        assert sol.value_of(view) == pytest.approx(max(values.values()), abs=1e-12)
        if nt.Action.PASS in values:
            after = g.copy()
            after.step(nt.Action.PASS)
            assert -sol.value_of(after.view(1 - seat)) == pytest.approx(values[nt.Action.PASS])
            assert sol.value_of(after.view(seat)) == pytest.approx(values[nt.Action.PASS])
        # Taking: average over every unseen card turned next, replayed in the engine.
        taken = [c for h in g.hands for c in h]
        nexts = view.unseen_cards
        if len(taken) + 1 == rules.n_in_play:
            after = g.copy()
            after.step(nt.Action.TAKE)
            want = sol.value_of(after.view(seat))
        else:
            outcomes = []
            for nxt in nexts:
                played = [e.card for e in g.history if e.action is nt.Action.TAKE]
                rest = [c for c in rules.cards if c not in (*played, view.active_card, nxt)]
                deck = [*played, view.active_card, nxt, *rest][: rules.n_in_play]
                h = nt.Game.replay(2, g.history, deck=deck, rules=rules)
                h.step(nt.Action.TAKE)
                assert h.active_card == nxt
                outcomes.append(sol.value_of(h.view(seat)))
            want = float(np.mean(outcomes))
        assert values[nt.Action.TAKE] == pytest.approx(want, abs=1e-12)


def test_value_of_finished_round_is_its_result() -> None:
    rules = TINY_2P[1]
    sol = exact.solve(rules)
    margin = exact.solve(rules, objective="margin")
    g = nt.Game(2, rules=rules, seed=5)
    while not g.is_over:
        g.step(sol.action(g.view(g.current_player)))
    s = g.scores()
    win0 = 1.0 if s[0] < s[1] else 0.5 if s[0] == s[1] else 0.0
    assert sol.value_of(g.view(0)) == win0
    assert margin.value_of(g.view(1)) == s[0] - s[1]


def test_first_player_one_mirrors_seat_zero() -> None:
    rules = TINY_2P[2]
    a = exact.solve(rules)
    b = exact.solve(rules, first_player=1)
    assert b.value == pytest.approx(a.value, abs=1e-12)
    g = nt.Game(2, rules=rules, seed=2, first_player=1)
    assert a.value_of(g.view(1)) == pytest.approx(b.value_of(g.view(1)))


# --------------------------------------------------------------------------- the bot
def test_perfect_bot_realises_its_value_in_simulation() -> None:
    rules = SMALL_2P
    sol = exact.solve(rules)
    bot = sol.bot()
    res = nt.simulate([bot, bot], 3000, rules=rules, seed=11)
    share = res.win_share[:, 0]
    low, high = stats.t.interval(0.999, len(share) - 1, share.mean(), stats.sem(share))
    assert low <= sol.value <= high


def test_best_response_bot_realises_its_value_in_simulation() -> None:
    rules = MID_2P
    opponent = MarginalCostBot(4)
    br = exact.best_response(rules, [opponent], objective="margin", seat=1)
    res = nt.simulate([opponent, br.bot()], 2000, rules=rules, seed=12)
    margin = (res.scores[:, 0] - res.scores[:, 1]).astype(float)
    low, high = stats.t.interval(0.999, len(margin) - 1, margin.mean(), stats.sem(margin))
    assert low <= br.value <= high


def test_perfect_bot_never_loses_value_to_a_deviation() -> None:
    """Along perfect play the value never moves except through the card turned."""
    rules = SMALL_2P
    sol = exact.solve(rules)
    for g in _random_decision_views(rules, 2, seed=4, count=30):
        view = g.view(g.current_player)
        values = sol.action_values(view)
        best = sol.action(view)
        assert values[best] == max(values.values())


def test_best_response_bot_refuses_other_seats_and_rules() -> None:
    br = exact.best_response(TINY_3P, [MarginalCostBot(0), MarginalCostBot(0)], seat=2)
    g = nt.Game(3, rules=TINY_3P, seed=1)
    with pytest.raises(ValueError, match="seat 2"):
        br.bot().act(g.view(0))
    with pytest.raises(ValueError, match="view"):
        br.value_of(nt.Game(3, seed=1).view(0))
    # other seats' values are known too: a win objective sums to 1 over the seats
    total = sum(br.value_of(g.view(s)) for s in range(3))
    assert total == pytest.approx(1.0)


# --------------------------------------------------------------------------- arguments
def test_bad_arguments_are_value_errors_naming_them() -> None:
    r = TINY_2P[0]
    with pytest.raises(ValueError, match="objective"):
        exact.solve(r, objective="score")
    with pytest.raises(ValueError, match="n_players"):
        exact.solve(nt.Rules(chips=((2, 4), (3, 11))), n_players=3)
    with pytest.raises(ValueError, match="rules"):
        exact.solve("standard")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rules"):
        exact.solve(nt.Rules(chips=((2, 11),)))  # the standard deck: far too big
    with pytest.raises(ValueError, match="3 players"):
        exact.solve(r, n_players=3)  # the rules have no 3-player entry
    with pytest.raises(ValueError, match="engine"):
        exact.solve(r, engine="fortran")
    with pytest.raises(ValueError, match="seat"):
        exact.best_response(TINY_3P, [MarginalCostBot(0)] * 2, seat=3)
    with pytest.raises(ValueError, match="opponents"):
        exact.best_response(TINY_3P, [object(), object()])
    with pytest.raises(ValueError, match="objective"):
        exact.best_response(TINY_3P, [MarginalCostBot(0)] * 2, objective="points")
    with pytest.raises(ValueError, match="max_positions"):
        exact.best_response(SMALL_2P, [MarginalCostBot(0)], max_positions=100)


def test_memory_estimate_refuses_before_allocating() -> None:
    r = nt.Rules(low_card=3, high_card=14, n_removed=3, chips=((2, 4),))
    assert exact.estimate_memory(r) == 3**12 * 9 * 2 * 8
    with pytest.raises(ValueError, match="max_memory"):
        exact.solve(r, max_memory=10**6)


def test_exact_is_reachable_from_the_package() -> None:
    assert nt.exact is exact
    assert "exact" in nt.__all__
    assert all(hasattr(exact, name) for name in exact.__all__)


@pytest.mark.parametrize("objective", exact.OBJECTIVES)
def test_the_solver_scores_a_finished_round_by_the_rules(objective: str) -> None:
    """The compiled terminal value scores hands by the rules' one definition (`nt.score`)."""
    from nothanks_lab.exact import kernel

    rng = np.random.default_rng(5)
    low, n = 3, 16
    for _ in range(300):
        owner = rng.integers(0, 3, size=n)  # 0: nobody, 1: seat 0, 2: seat 1
        h0 = sum(1 << i for i in range(n) if owner[i] == 1)
        h1 = sum(1 << i for i in range(n) if owner[i] == 2)
        c0, c1 = (int(c) for c in rng.integers(0, 12, size=2))
        seat = int(rng.integers(2))
        cfg = np.array([n, low, 0, 0, exact.OBJECTIVES.index(objective)], dtype=np.int64)
        s0 = nt.score([low + i for i in range(n) if owner[i] == 1], c0)
        s1 = nt.score([low + i for i in range(n) if owner[i] == 2], c1)
        mine, theirs = (s0, s1) if seat == 0 else (s1, s0)
        want = (
            float(theirs - mine)
            if objective == "margin"
            else float(mine < theirs) + 0.5 * (mine == theirs)
        )
        assert kernel._terminal(h0, h1, c0, c1, seat, cfg) == want


def test_solutions_of_positions_are_reachable_counts() -> None:
    """Counts are of reachable positions: the start plus every position after a take."""
    rules = TINY_2P[0]
    sol = exact.solve(rules)
    seen: set[Any] = set()

    def walk(hands: tuple[int, int], chips: tuple[int, int], actor: int) -> None:
        key = (hands, chips, actor)
        if key in seen:
            return
        seen.add(key)
        taken = hands[0] | hands[1]
        if bin(taken).count("1") == rules.n_in_play:
            return
        for card in range(rules.n_cards):
            if (taken >> card) & 1:
                continue
            c, who, pot = list(chips), actor, 0
            while True:
                h = list(hands)
                h[who] |= 1 << card
                walk((h[0], h[1]), (c[0] + pot * (who == 0), c[1] + pot * (who == 1)), who)
                if c[who] == 0:
                    break
                c[who] -= 1
                pot += 1
                who = 1 - who

    start = rules.starting_chips(2)
    walk((0, 0), (start, start), 0)
    assert sol.n_positions == len(seen)


def test_brute_force_itself_on_a_hand_checked_case() -> None:
    """One card in play, no choice worth making: the brute force gets the obvious answer."""
    rules = nt.Rules(low_card=1, high_card=2, n_removed=1, chips=((2, 0),))
    # Seat 0 must take the only card: it scores that card; seat 1 scores 0 and wins.
    assert brute_force(rules, 2, "win", maximiser) == (0.0, 1.0)
    assert brute_force(rules, 2, "margin", maximiser) == (-1.5, 1.5)
    assert exact.solve(rules).value == 0.0
    assert exact.solve(rules, objective="margin").value == -1.5


# --------------------------------------------------------------------------- asking policies
class _Plain:
    """A bot's ``act`` as a plain-Python policy (no fast path), counting the views it is shown
    and checking each one as a bot would meet it."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.views = bot, []  # type: list[nt.PlayerView]

    def act(self, view: nt.PlayerView) -> nt.Action:
        assert view == nt.PlayerView(**{f: getattr(view, f) for f in _VIEW_FIELDS})  # valid
        assert view.is_my_turn and view.can_pass  # forced takes need no question
        self.views.append(view)
        return self.bot.act(view)


_VIEW_FIELDS = ("seat", "n_players", "active_card", "pot", "my_chips", "chips", "hands",
                "cards_left", "rules", "current_player")  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("objective", ["win", "margin"])
def test_each_view_asked_once_and_compiled_bots_answer_as_their_act(objective: str) -> None:
    """A plain-Python policy is asked once per distinct view, through valid views, also
    across the `Solution`'s later questions; a bot with a compiled fast path, asked through
    its compiled ``FAST_DECIDE``, gets the very values its plain ``act`` gets."""
    rules = MID_2P
    for bot in (HeuristicBot(), MarginalCostBot(2)):
        plain = _Plain(bot)
        slow = exact.best_response(rules, [plain], objective, seat=1)
        asked = len(plain.views)
        assert asked == len(set(plain.views)) > 100
        fast = exact.best_response(rules, [bot], objective, seat=1)
        assert fast.value == slow.value and fast.n_positions == slow.n_positions
        for g in _random_decision_views(rules, 2, seed=11, count=15):
            view = g.view(g.current_player)
            assert fast.value_of(view) == slow.value_of(view)
            if view.seat == 1:
                assert fast.action(view) == slow.action(view)
        assert len(plain.views) == len(set(plain.views))  # later questions: no repeat
        both = exact.evaluate(rules, [bot, _Plain(bot)], objective)
        assert both == exact.evaluate(rules, [_Plain(bot), bot], objective)

"""The perfect-play lesson's helpers and answers, checked against an independent game-tree search.

`Tree` below is written from the rules alone (frozensets of real cards, `nt.score`, exact
fractions), not from `nothanks_lab.exact`: it values two-seat positions for seat 0 with seat 0
playing perfectly and seat 1 either perfect too or following a fixed rule. The lesson's exercise
answers (also listed in tests/test_lessons.py) are derived with it here.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from functools import cache

import pytest

import nothanks_lab as nt
from nothanks_lab import exact, lessons, plots
from nothanks_lab.analysis import position_view
from nothanks_lab.bots import MarginalCostBot

LESSON = nt.Rules(low_card=3, high_card=8, n_removed=2, chips=((2, 3),))
TWO_CHIPS = nt.Rules(low_card=3, high_card=8, n_removed=2, chips=((2, 2),))
TINY = nt.Rules(low_card=1, high_card=4, n_removed=1, chips=((2, 1), (3, 1)))

Hands = tuple[frozenset[int], frozenset[int]]
# A fixed rule for seat 1 when it may pass: (hand, card, pot) -> its chance of taking.
Rule = Callable[[frozenset[int], int, int], Fraction]


def marginal_rule(threshold: int) -> Rule:
    """The MarginalCostBot rule from the contract: take iff added card points - pot <= t."""
    return lambda hand, card, pot: Fraction(
        nt.card_points([*hand, card]) - nt.card_points(hand) - pot <= threshold
    )


def random_rule(p_take: Fraction) -> Rule:
    """A coin with chance `p_take` of taking, whatever the position."""
    return lambda hand, card, pot: p_take


class Tree:
    """Seat 0's exact win chance (a tie counts 1/2) in a two-seat round of `rules`."""

    def __init__(self, rules: nt.Rules, seat1: Rule | None = None) -> None:
        self.rules = rules
        self.seat1 = seat1  # None: seat 1 plays perfectly (minimises seat 0's chance)
        self.turn = cache(self._turn)
        self.decide = cache(self._decide)

    def end(self, hands: Hands, chips: tuple[int, int]) -> Fraction:
        s0, s1 = nt.score(hands[0], chips[0]), nt.score(hands[1], chips[1])
        return Fraction(1) if s0 < s1 else Fraction(1, 2) if s0 == s1 else Fraction(0)

    def _turn(self, hands: Hands, chips: tuple[int, int], actor: int) -> Fraction:
        """Right after a take (or at the start): the next card is any unseen card alike."""
        seen = hands[0] | hands[1]
        if len(seen) == self.rules.n_in_play:
            return self.end(hands, chips)
        unseen = [c for c in self.rules.cards if c not in seen]
        return sum((self.decide(hands, chips, 0, actor, c) for c in unseen), Fraction(0)) / len(
            unseen
        )

    def take(
        self, hands: Hands, chips: tuple[int, int], pot: int, actor: int, card: int
    ) -> Fraction:
        new = list(hands)
        new[actor] = hands[actor] | {card}
        got = list(chips)
        got[actor] += pot
        return self.turn((new[0], new[1]), (got[0], got[1]), actor)

    def no_thanks(
        self, hands: Hands, chips: tuple[int, int], pot: int, actor: int, card: int
    ) -> Fraction:
        paid = list(chips)
        paid[actor] -= 1
        return self.decide(hands, (paid[0], paid[1]), pot + 1, 1 - actor, card)

    def _decide(
        self, hands: Hands, chips: tuple[int, int], pot: int, actor: int, card: int
    ) -> Fraction:
        take = self.take(hands, chips, pot, actor, card)
        if chips[actor] == 0:
            return take
        other = self.no_thanks(hands, chips, pot, actor, card)
        if actor == 0:
            return max(take, other)
        if self.seat1 is None:
            return min(take, other)
        p = self.seat1(hands[1], card, pot)
        return p * take + (1 - p) * other

    def start(self) -> Fraction:
        chips = self.rules.starting_chips(2)
        return self.turn((frozenset(), frozenset()), (chips, chips), 0)


# --------------------------------------------------------------------------- exercise answers
def test_last_two_cards_by_hand_and_by_tree() -> None:
    # Seat 0 holds 5 (2 chips), seat 1 holds 8 (3 chips); card 4 with 1 chip, seat 0 to act;
    # one of 3, 6, 7 comes last. Taking 4 (3 chips, run 4-5): on 3 or 6 seat 0 takes it and
    # wins; on 7 the chain of passes ends with seat 0 losing, so Take is worth 2/3.
    tree = Tree(LESSON)
    hands = (frozenset({5}), frozenset({8}))
    assert tree.take(hands, (2, 3), 1, 0, 4) == Fraction(2, 3)
    assert tree.no_thanks(hands, (2, 3), 1, 0, 4) == Fraction(5, 6)
    assert tree.decide(hands, (2, 3), 1, 0, 4) == Fraction(5, 6)
    assert lessons.solution_value("pp_last_two_cards") == pytest.approx(5 / 6, abs=1e-12)


def test_first_player_with_two_chips() -> None:
    assert Tree(TWO_CHIPS).start() == Fraction(91, 240)
    assert lessons.solution_value("pp_first_player_two_chips") == pytest.approx(91 / 240, abs=1e-12)


def test_best_response_against_a_random_bot() -> None:
    want = Tree(LESSON, random_rule(Fraction(1, 5))).start()  # the lesson's own rules, by hand
    assert want.denominator > 1 and 0.89 < want < 0.90
    assert lessons.solution_value("pp_best_response_random") == pytest.approx(
        float(want), abs=1e-12
    )


def test_best_response_against_marginal_cost_2() -> None:
    assert Tree(LESSON, marginal_rule(2)).start() == Fraction(311, 360)
    best = exact.best_response(LESSON, [MarginalCostBot(2)], seat=0)
    assert best.value == pytest.approx(311 / 360, abs=1e-12)


def test_first_card_8_is_taken_on_four_chips() -> None:
    tree = Tree(LESSON)
    empty: Hands = (frozenset(), frozenset())
    chips, pot, actor = [3, 3], 0, 0
    while chips[actor] > 0:
        take = tree.take(empty, (chips[0], chips[1]), pot, actor, 8)
        other = tree.no_thanks(empty, (chips[0], chips[1]), pot, actor, 8)
        # Seat 0 maximises its chance, seat 1 minimises it; a tie is a take (as the solver).
        if (take >= other) if actor == 0 else (take <= other):
            break
        chips[actor] -= 1
        pot += 1
        actor = 1 - actor
    assert pot == 4
    assert lessons.solution_value("pp_first_card_8") == 4


def test_the_lesson_value_and_exploitability_agree_with_the_tree() -> None:
    sol = exact.solve(LESSON, engine="python")
    assert sol.value == pytest.approx(float(Tree(LESSON).start()), abs=1e-12)
    ex = exploit_marginal = exact.exploitability(LESSON, MarginalCostBot(3))
    first = Tree(LESSON, marginal_rule(3)).start()
    assert ex.first == pytest.approx(float(first), abs=1e-12)
    assert 0 < exploit_marginal.gap < 0.5


# --------------------------------------------------------------------------- decision_views
def _decision_games(rules: nt.Rules, n: int, first: int = 0) -> list[nt.Game]:
    """The engine at every decision of every deal and every sequence of moves (a copy each)."""
    found: list[nt.Game] = []

    def walk(game: nt.Game) -> None:
        if game.is_over:
            return
        found.append(game)
        for action in game.legal_actions():
            nxt = game.copy()
            nxt.step(action)
            walk(nxt)

    for deck in itertools.permutations(rules.cards, rules.n_in_play):
        walk(nt.Game(n, rules=rules, deck=deck, first_player=first))
    return found


@pytest.mark.parametrize(("n", "first"), [(2, 0), (2, 1), (3, 0), (3, 2)])
def test_decision_views_are_exactly_the_reachable_positions(n: int, first: int) -> None:
    views = exact.decision_views(TINY, n, first_player=first)
    assert len(set(views)) == len(views)  # each once
    assert set(views) == {g.view(g.current_player) for g in _decision_games(TINY, n, first)}
    taken = [sum(len(h) for h in v.hands) for v in views]
    assert taken == sorted(taken)  # the first decisions first
    assert all(v.is_my_turn for v in views)
    assert views[0].seat == first and views[0].pot == 0


def test_decision_views_of_the_doctest_deck_by_count() -> None:
    # Cards 1-3, one removed, one chip each; per first card: 3 decisions on it (pass, pass,
    # forced take), then on each of the 2 other cards 3, 2 or 2 decisions after a take at pot
    # 0, 1 or 2 (the taker's chips decide how long the chain of passes can be).
    tiny = nt.Rules(low_card=1, high_card=3, n_removed=1, chips=((2, 1),))
    assert len(exact.decision_views(tiny)) == 3 * (3 + 2 * 3 + 2 * 2 + 2 * 2)


def test_decision_views_refuse_bad_input() -> None:
    with pytest.raises(ValueError, match="5 players is not allowed"):
        exact.decision_views(TINY, 5)
    with pytest.raises(ValueError, match="first_player"):
        exact.decision_views(TINY, 2, first_player=2)
    with pytest.raises(ValueError, match="max_positions"):
        exact.decision_views(LESSON, max_positions=10)


# --------------------------------------------------------------------------- after_pass
@pytest.mark.parametrize("n", [2, 3])
def test_after_pass_is_the_engines_next_view(n: int) -> None:
    checked = 0
    for game in _decision_games(TINY, n):
        view = game.view(game.current_player)
        if view.can_pass:
            nxt = game.copy()
            nxt.step(nt.Action.PASS)
            assert exact.after_pass(view) == nxt.view(nxt.current_player)
            checked += 1
    assert checked > 100


def test_after_pass_refuses_a_view_that_cannot_pass() -> None:
    broke = position_view(6, 0, n_players=2, my_chips=0, other_chips=6, rules=LESSON)
    with pytest.raises(ValueError, match="cannot say No Thanks!"):
        exact.after_pass(broke)
    with pytest.raises(ValueError, match="view must be a PlayerView"):
        exact.after_pass("view")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- exploitability
def test_perfect_play_is_not_exploitable() -> None:
    sol = exact.solve(LESSON, engine="python")
    ex = exact.exploitability(LESSON, sol.bot())
    assert ex.first == pytest.approx(sol.value, abs=1e-12)
    assert ex.second == pytest.approx(1 - sol.value, abs=1e-12)
    assert ex.gap == pytest.approx(0, abs=1e-12)


def test_a_bot_that_always_takes_loses_every_round() -> None:
    # Every card of the deck costs at most 8 points, so MarginalCostBot(10) always takes.
    ex = exact.exploitability(LESSON, MarginalCostBot(10))
    assert (ex.first, ex.second, ex.value, ex.gap) == (1.0, 1.0, 1.0, 0.5)
    assert float(Tree(LESSON, marginal_rule(10)).start()) == 1.0


def test_margin_objective_gap_is_measured_from_zero() -> None:
    ex = exact.exploitability(TWO_CHIPS, MarginalCostBot(2), objective="margin")
    assert ex.gap == ex.value > 0


def test_exploitability_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="objective"):
        exact.exploitability(LESSON, MarginalCostBot(2), objective="score")
    with pytest.raises(ValueError, match="policy"):
        exact.exploitability(LESSON, "marginal")
    with pytest.raises(ValueError, match="rules"):
        exact.exploitability("standard", MarginalCostBot(2))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- figures
def test_plot_take_rate_shares_and_threshold() -> None:
    fig = plots.plot_take_rate(
        [-1, -1, 2, 2, 2, 5], [True, False, True, True, False, False], threshold=2
    )
    bars, step = fig.data
    assert list(bars.x) == [-1, 2, 5] and list(bars.customdata) == [2, 3, 1]
    assert list(bars.y) == pytest.approx([1 / 2, 2 / 3, 0])
    assert list(step.y) == [1, 1, 0] and "MarginalCostBot(2)" in step.name
    assert len(plots.plot_take_rate([0], [True]).data) == 1
    with pytest.raises(ValueError, match="net_costs and takes"):
        plots.plot_take_rate([1, 2], [True])
    with pytest.raises(ValueError, match="net_costs and takes"):
        plots.plot_take_rate([], [])


def test_plot_exploitability_keeps_the_order() -> None:
    table = {
        "b": exact.Exploitability("win", 0.9, 0.7),
        "a": exact.Exploitability("win", 0.5, 0.5),
    }
    (bars,) = plots.plot_exploitability(table).data
    assert list(bars.y) == ["b", "a"]
    assert list(bars.x) == pytest.approx([0.3, 0.0])
    with pytest.raises(ValueError, match="at least one"):
        plots.plot_exploitability({})

"""Rounds and matches played by policies (`play_game`, `play_match`), the errors a misbehaving
policy raises, reproducibility from a seed, the bot registry and the marginal-cost rule."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab.bots import MarginalCostBot, RandomBot, make_bot

TAKE, PASS = nt.Action.TAKE, nt.Action.PASS


class Scripted:
    """A policy answering from a fixed list, recording the views it is shown."""

    def __init__(self, answers: list[object], name: str = "Scripted") -> None:
        self.answers = list(answers)
        self.views: list[nt.PlayerView] = []
        self.name = name

    def act(self, view: nt.PlayerView) -> object:
        self.views.append(view)
        return self.answers.pop(0)


class Raising:
    name = "Grumpy"

    def act(self, view: nt.PlayerView) -> nt.Action:
        raise RuntimeError("no opinion")


# ------------------------------------------------------------------------- play_game


def test_play_game_result_is_the_finished_round() -> None:
    deck = list(range(3, 27))
    bots = [MarginalCostBot(t) for t in (0, 4, 12)]
    r = nt.play_game(bots, deck=deck, first_player=1)
    g = nt.Game.replay(3, r.history, deck=deck, first_player=1)
    assert g.is_over
    assert r.scores == g.scores() and r.chips == g.chips and r.hands == g.hands
    assert r.card_points == g.card_points() and r.winners == g.winners()
    assert r.removed == tuple(range(27, 36)) and r.first_player == 1
    assert r.history[0].seat == 1
    assert sorted(c for h in r.hands for c in h) == deck
    assert sum(r.chips) == 33
    assert r.scores == tuple(nt.score(h, c) for h, c in zip(r.hands, r.chips, strict=True))


def test_policies_see_only_their_own_view() -> None:
    seen: dict[int, list[nt.PlayerView]] = {0: [], 1: [], 2: []}

    class Spy:
        def __init__(self, seat: int) -> None:
            self.seat = seat

        def act(self, view: nt.PlayerView) -> nt.Action:
            assert type(view) is nt.PlayerView
            seen[self.seat].append(view)
            return TAKE if not view.can_pass or view.pot >= 2 else PASS

    r = nt.play_game([Spy(0), Spy(1), Spy(2)], seed=3)
    for seat, views in seen.items():
        assert views and all(v.seat == seat and v.is_my_turn for v in views)
    assert sum(len(v) for v in seen.values()) == len(r.history)


def test_one_bot_object_for_several_seats_and_rounds() -> None:
    bot = MarginalCostBot(6)
    first = nt.play_game([bot] * 4, seed=10)
    again = nt.play_game([bot] * 4, seed=10)
    assert first == again
    assert nt.play_game([MarginalCostBot(6) for _ in range(4)], seed=10) == first


# ------------------------------------------------------------------------- policy errors


@pytest.mark.parametrize("policy", [object(), None, "marginal", print, 3])
def test_a_non_policy_is_refused_naming_it_and_the_view(policy: object) -> None:
    with pytest.raises(nt.PolicyError, match=r"seat 1: .* is not a policy") as info:
        nt.play_game([MarginalCostBot(3), policy, MarginalCostBot(3)], deck=range(3, 27))
    err = info.value
    assert err.policy is policy and isinstance(err, ValueError)
    assert err.view == nt.Game(3, deck=range(3, 27)).view(1)
    assert "PlayerView(seat=1" in str(err)


def test_a_lone_bot_instead_of_a_list_is_refused() -> None:
    with pytest.raises(ValueError, match="one policy per seat"):
        nt.play_game(MarginalCostBot(3))  # type: ignore[arg-type]


def test_a_bot_that_raises() -> None:
    with pytest.raises(nt.PolicyError, match=r"Grumpy \(seat 2\) raised RuntimeError: no opinion"):
        nt.play_game([MarginalCostBot(-40), MarginalCostBot(-40), Raising()], deck=range(3, 27))
    with pytest.raises(nt.PolicyError) as info:
        nt.play_game([Raising()] * 3, deck=range(3, 27), first_player=2)
    assert isinstance(info.value.__cause__, RuntimeError)
    assert info.value.view == nt.Game(3, deck=range(3, 27), first_player=2).view(2)
    assert "PlayerView(seat=2" in str(info.value)


@pytest.mark.parametrize("answer", ["take", None, True, 1, "PASS"])
def test_a_bot_that_returns_a_non_action(answer: object) -> None:
    bot = Scripted([answer], name="Confused")
    with pytest.raises(nt.PolicyError, match=r"Confused \(seat 0\) answered .*legal moves") as info:
        nt.play_game([bot, MarginalCostBot(0), MarginalCostBot(0)], deck=range(3, 27))
    assert info.value.policy is bot and info.value.view == bot.views[0]
    assert re.search(r"\['TAKE', 'PASS'\]", str(info.value))


def test_a_bot_that_passes_without_chips() -> None:
    rules = nt.Rules(low_card=1, high_card=8, n_removed=3, chips=((3, 1),))
    bot = Scripted([PASS, PASS], name="Stubborn")  # the second PASS comes with no chip left
    others = [Scripted([PASS]), Scripted([PASS])]
    with pytest.raises(nt.PolicyError, match=r"Stubborn \(seat 0\) answered .*\['TAKE'\]") as info:
        nt.play_game([bot, *others], rules=rules, deck=[5, 2, 8, 3, 1])
    assert info.value.view.my_chips == 0 and info.value.view.pot == 3


# ------------------------------------------------------------------------- play_match


def test_match_totals_rotation_and_winners() -> None:
    bots = [MarginalCostBot(t) for t in (-2, 5, 13)]
    m = nt.play_match(bots, rounds=5, seed=21, first_player=2)
    assert m.round_scores.shape == (5, 3)
    assert m.round_scores.tolist() == [list(g.scores) for g in m.games]
    assert m.totals.tolist() == [sum(g.scores[s] for g in m.games) for s in range(3)]
    assert [g.first_player for g in m.games] == [2, 0, 1, 2, 0]
    assert [g.history[0].seat for g in m.games] == [2, 0, 1, 2, 0]
    best = min(m.totals.tolist())
    assert m.winners == tuple(s for s in range(3) if m.totals[s] == best)
    assert len({g.removed for g in m.games}) == 5  # a fresh deal each round


def test_shared_wins_in_a_match() -> None:
    g = nt.play_game([MarginalCostBot(3)] * 3, seed=1)
    tie = nt.MatchResult(round_scores=np.array([[10, 4, 7], [1, 7, 4]]), games=(g, g))
    assert tie.totals.tolist() == [11, 11, 11] and tie.winners == (0, 1, 2)
    two = nt.MatchResult(round_scores=np.array([[5, 3, 3, 9]]), games=(g,))
    assert two.winners == (1, 2)
    # No chips and nothing removed: the first seat must take the whole deck (a run scoring
    # 1), so over a full rotation of first seats every seat totals 1 and all three share the win.
    no_chips = nt.Rules(low_card=1, high_card=4, n_removed=0, chips=((3, 0),))
    m = nt.play_match([MarginalCostBot(0)] * 3, rounds=3, seed=2, rules=no_chips)
    assert m.round_scores.tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert m.winners == (0, 1, 2)
    assert nt.play_match([MarginalCostBot(0)] * 3, rounds=2, rules=no_chips).winners == (2,)


def test_shared_wins_in_a_round() -> None:
    rules = nt.Rules(low_card=1, high_card=6, n_removed=3, chips=((3, 1),))
    seats = [Scripted([TAKE, PASS]), Scripted([TAKE, TAKE]), Scripted([])]
    r = nt.play_game(seats, rules=rules, deck=[4, 1, 2])
    assert r.scores == (4, -1, -1) and r.winners == (1, 2)


@pytest.mark.parametrize("rounds", [0, -1, 1.5, True, "4", None])
def test_match_needs_at_least_one_round(rounds: object) -> None:
    with pytest.raises(ValueError, match=r"rounds must be a whole number \(int\) >= 1"):
        nt.play_match([MarginalCostBot(3)] * 3, rounds=rounds)  # type: ignore[arg-type]


def test_match_refuses_a_bad_setup() -> None:
    with pytest.raises(ValueError, match="allowed player counts"):
        nt.play_match([MarginalCostBot(3)] * 2)
    with pytest.raises(ValueError, match="first_player"):
        nt.play_match([MarginalCostBot(3)] * 3, first_player=3)
    with pytest.raises(nt.PolicyError, match="is not a policy"):
        nt.play_match([MarginalCostBot(3), 7, MarginalCostBot(3)])


def test_match_html_shows_every_round_and_the_totals(html_numbers) -> None:
    m = nt.play_match([MarginalCostBot(t) for t in (1, 6, 11, 16)], rounds=3, seed=4)
    html = m._repr_html_()
    numbers = html_numbers(html)
    assert set(m.round_scores.ravel().tolist()) <= numbers
    assert set(m.totals.tolist()) <= numbers
    assert html.count("<tr>") == 1 + 3 + 1  # header, a row per round, the totals
    assert all(f"Seat {s}" in html for s in range(4))


# ------------------------------------------------------------------------- determinism


def random_table(n: int, seed: int) -> list[RandomBot]:
    return [RandomBot(seed=np.random.SeedSequence([seed, s]), p_take=0.35) for s in range(n)]


def test_same_seed_same_round_and_match() -> None:
    a = nt.play_game(random_table(5, 1), seed=99)
    assert nt.play_game(random_table(5, 1), seed=99) == a
    assert nt.play_game(random_table(5, 1), seed=98) != a
    assert nt.play_game(random_table(5, 1), seed=np.random.default_rng(99)) == a
    assert nt.play_game(random_table(5, 1), seed=np.random.SeedSequence(99)) == a
    m = nt.play_match(random_table(4, 2), rounds=3, seed=5)
    again = nt.play_match(random_table(4, 2), rounds=3, seed=5)
    assert again.games == m.games and np.array_equal(again.round_scores, m.round_scores)
    by_seq = nt.play_match(random_table(4, 2), rounds=3, seed=np.random.SeedSequence(5))
    assert by_seq.games == m.games
    gen = [nt.play_match(random_table(4, 2), rounds=2, seed=np.random.default_rng(6)) for _ in "ab"]
    assert gen[0].games == gen[1].games
    assert nt.play_match(random_table(4, 2), rounds=3, seed=7).games != m.games


def test_random_bot_is_seeded_and_answers_by_position() -> None:
    views = [nt.Game(3, seed=k).view(0) for k in range(30)]
    runs = [[RandomBot(seed=s).act(v) for v in views] for s in (4, 4, 5)]
    assert runs[0] == runs[1] != runs[2]
    assert set(runs[0]) == {TAKE, PASS}
    view = views[0]
    bot = RandomBot(seed=4)  # its draws come from its key and the position (the compiled path)
    assert answers(bot, view, 10) == [bot.act(view)] * 10
    assert all(RandomBot(p_take=0.0, seed=1).act(view) is PASS for _ in range(20))
    forced = nt.PlayerView(0, 3, 10, 2, 0, (0, 15, 16), ((), (), ()), 23, nt.Rules(), 0)
    assert all(RandomBot(p_take=0.0, seed=s).act(forced) is TAKE for s in range(20))


class Disturbing:
    """Wraps a policy and scrambles the global random generators before every answer."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.k = 0

    def act(self, view: nt.PlayerView) -> nt.Action:
        self.k += 1
        np.random.seed(self.k)  # noqa: NPY002 - disturbing the legacy global on purpose
        np.random.random(5)  # noqa: NPY002
        random.seed(self.k)
        random.random()
        return self.inner.act(view)  # type: ignore[attr-defined]


def test_global_random_state_changes_nothing(restore_global_random) -> None:
    plain = nt.play_match(random_table(3, 8), rounds=2, seed=31)
    disturbed = nt.play_match([Disturbing(b) for b in random_table(3, 8)], rounds=2, seed=31)
    assert disturbed.games == plain.games
    np.random.seed(0)  # noqa: NPY002
    random.seed(0)
    unseeded_deals = {nt.play_game(random_table(3, 8)).removed for _ in range(3)}
    assert len(unseeded_deals) > 1  # seed=None draws fresh entropy, not the global generator


# ------------------------------------------------------------------------- bots


def test_make_bot_builds_the_registered_bots() -> None:
    assert {"random", "marginal"} <= set(nt.bots.available_bots())
    m = make_bot("marginal", threshold=4)
    assert isinstance(m, MarginalCostBot) and m.threshold == 4
    assert make_bot("marginal").threshold == 10
    r = make_bot("random", p_take=0.25, seed=3)
    assert isinstance(r, RandomBot) and r.p_take == 0.25
    view = nt.Game(3, seed=0).view(0)
    assert answers(r, view, 20) == answers(RandomBot(p_take=0.25, seed=3), view, 20)


def answers(bot: object, view: nt.PlayerView, k: int) -> list[nt.Action]:
    """`bot`'s next `k` answers in `view`."""
    return [bot.act(view) for _ in range(k)]  # type: ignore[attr-defined]


def test_make_bot_refuses_unknown_names_and_parameters() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nope'; available: ") as info:
        make_bot("nope")
    for name in nt.bots.available_bots():
        assert name in str(info.value)
    with pytest.raises(ValueError, match="no parameter colour; allowed: threshold"):
        make_bot("marginal", colour=3)
    with pytest.raises(ValueError, match="no parameter threshold; allowed: p_take"):
        make_bot("random", threshold=3)
    with pytest.raises(ValueError, match=r"threshold=99 is outside its allowed range \[-40, 40\]"):
        make_bot("marginal", threshold=99)
    with pytest.raises(ValueError, match="p_take must be a number"):
        make_bot("random", p_take="high")
    with pytest.raises(ValueError, match="outside its allowed range"):
        RandomBot(p_take=1.5)


def contract_marginal(view: nt.PlayerView, threshold: float) -> nt.Action:
    """The contract's rule, computed independently from the readable scoring."""
    if view.my_chips == 0:
        return TAKE
    hand = list(view.hands[view.seat])
    cost = nt.card_points([*hand, view.active_card]) - nt.card_points(hand)
    return TAKE if cost - view.pot <= threshold else PASS


@pytest.mark.parametrize("threshold", [-5, 0, 2.5, 7, 13])
def test_marginal_cost_bot_follows_the_contract(threshold: float) -> None:
    rng = np.random.default_rng(int(threshold * 10) + 100)
    bot = MarginalCostBot(threshold)
    checked = takes = forced = 0
    for _ in range(25):
        n = int(rng.integers(3, 8))
        g = nt.Game(n, seed=rng)
        p_take = rng.uniform(0.05, 0.6)  # pass-heavy rounds run seats out of chips
        while not g.is_over:
            view = g.view(g.current_player)
            expected = contract_marginal(view, threshold)
            assert bot.act(view) is expected, view
            explained = bot.explain(view)
            assert explained["action"] is expected and explained["forced"] == (view.my_chips == 0)
            checked += 1
            takes += expected is TAKE
            forced += view.my_chips == 0
            # Random moves, not the bot's, so the views cover hands it would never build.
            take = len(g.legal_actions()) == 1 or rng.random() < p_take
            g.step(TAKE if take else PASS)
    assert checked > 1000 and 0 < takes < checked and forced > 0

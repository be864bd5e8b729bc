"""The one-round engine `Game`: hand-played rounds with expected state after every move,
invariants over thousands of random rounds, replay and copy, determinism, every bad input."""

from __future__ import annotations

import random

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab import core
from nothanks_lab.engine import Event

TAKE, PASS = nt.Action.TAKE, nt.Action.PASS

# A tiny variant so a whole round fits a table: cards 1..8, 3 removed, one chip each.
TINY = nt.Rules(low_card=1, high_card=8, n_removed=3, chips=((3, 1), (4, 1)))
TINY_DECK = [5, 2, 8, 3, 1]  # removed: 4, 6, 7

# (move, seat to act after, active card, pot, chips, hands, cards_left)
TINY_ROUND = [
    (PASS, 1, 5, 1, (0, 1, 1), ((), (), ()), 4),
    (PASS, 2, 5, 2, (0, 0, 1), ((), (), ()), 4),
    (PASS, 0, 5, 3, (0, 0, 0), ((), (), ()), 4),  # passing wraps from seat 2 to seat 0
    (TAKE, 0, 2, 0, (3, 0, 0), ((5,), (), ()), 3),  # forced take; the taker keeps the turn
    (PASS, 1, 2, 1, (2, 0, 0), ((5,), (), ()), 3),
    (TAKE, 1, 8, 0, (2, 1, 0), ((5,), (2,), ()), 2),
    (PASS, 2, 8, 1, (2, 0, 0), ((5,), (2,), ()), 2),
    (TAKE, 2, 3, 0, (2, 0, 1), ((5,), (2,), (8,)), 1),
    (PASS, 0, 3, 1, (2, 0, 0), ((5,), (2,), (8,)), 1),
    (TAKE, 0, 1, 0, (3, 0, 0), ((3, 5), (2,), (8,)), 0),
    (PASS, 1, 1, 1, (2, 0, 0), ((3, 5), (2,), (8,)), 0),
    (TAKE, 1, None, 0, (2, 1, 0), ((3, 5), (1, 2), (8,)), 0),  # last take ends the round
]


def test_tiny_round_move_by_move() -> None:
    g = nt.Game(3, rules=TINY, deck=TINY_DECK)
    assert (g.current_player, g.active_card, g.pot, g.chips, g.cards_left) == (0, 5, 0, (1,) * 3, 4)
    assert g.legal_actions() == (TAKE, PASS)
    for i, (move, seat, card, pot, chips, hands, left) in enumerate(TINY_ROUND):
        before = g.current_player
        g.step(move)
        assert g.history[-1].seat == before and g.history[-1].action is move
        state = (g.current_player, g.active_card, g.pot, g.chips, g.hands, g.cards_left)
        assert state == (seat, card, pot, chips, hands, left), f"after move {i}"
        assert sum(chips) + pot == 3
        if i < len(TINY_ROUND) - 1:
            forced = chips[seat] == 0
            assert g.legal_actions() == ((TAKE,) if forced else (TAKE, PASS))
            assert g.can(PASS) is not forced
    assert g.is_over and g.active_card is None and g.legal_actions() == ()
    assert g.card_points() == (8, 1, 8)
    assert g.scores() == (6, 0, 8)
    assert g.winners() == (1,)
    assert g.removed_cards() == (4, 6, 7)
    assert [(e.seat, e.action, e.card, e.pot) for e in g.history] == [
        (0, PASS, 5, 0),
        (1, PASS, 5, 1),
        (2, PASS, 5, 2),
        (0, TAKE, 5, 3),
        (0, PASS, 2, 0),
        (1, TAKE, 2, 1),
        (1, PASS, 8, 0),
        (2, TAKE, 8, 1),
        (2, PASS, 3, 0),
        (0, TAKE, 3, 1),
        (0, PASS, 1, 0),
        (1, TAKE, 1, 1),
    ]


def test_tied_round_shares_the_win() -> None:
    rules = nt.Rules(low_card=1, high_card=6, n_removed=3, chips=((3, 1),))
    g = nt.Game(3, rules=rules, deck=[4, 1, 2])
    for move in (TAKE, PASS, TAKE, TAKE):
        g.step(move)
    assert g.hands == ((4,), (1, 2), ())
    assert g.chips == (0, 2, 1)
    assert g.scores() == (4, -1, -1)
    assert g.winners() == (1, 2)


def test_standard_deck_by_hand_and_first_player() -> None:
    g = nt.Game(5, deck=list(range(35, 11, -1)), first_player=3)
    assert (g.current_player, g.active_card, g.chips, g.cards_left) == (3, 35, (11,) * 5, 23)
    for expected_next in (4, 0, 1):  # 3 -> 4 -> wraps to 0 -> 1
        g.step(PASS)
        assert g.current_player == expected_next
    assert (g.pot, g.chips) == (3, (10, 11, 11, 10, 10))
    g.step(TAKE)
    assert (g.current_player, g.active_card, g.pot) == (1, 34, 0)
    assert g.chips == (10, 14, 11, 10, 10) and g.hands[1] == (35,)
    g.step(TAKE)  # 34 joins 35 in a run: card points 34
    assert g.hands[1] == (34, 35) and g.card_points()[1] == 34
    assert g.scores() == (-10, 20, -11, -10, -10)
    assert g.cards_left == 21
    assert [e.describe() for e in g.history[-2:]] == [
        "Seat 1 takes 35 and 3 chips",
        "Seat 1 takes 34",
    ]
    assert (
        g.history[0].describe(["Ann", "Bo", "Cy", "Di", "Ed"]) == "Di says No thanks! on 35 (pot 0)"
    )


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_seat_to_act_cycles_when_everyone_passes(n: int) -> None:
    g = nt.Game(n, seed=1, first_player=n - 1)
    seats = []
    for _ in range(2 * n + 1):
        seats.append(g.current_player)
        g.step(PASS)
    assert seats == [(n - 1 + k) % n for k in range(2 * n + 1)]
    assert g.pot == 2 * n + 1


def test_removed_cards_hidden_until_the_end() -> None:
    g = nt.Game(3, rules=TINY, deck=TINY_DECK)
    with pytest.raises(nt.IllegalActionError, match="hidden until the round is over"):
        g.removed_cards()


# ------------------------------------------------------------------------- invariants

VARIANTS = [(n, nt.Rules()) for n in range(3, 8)] + [
    (3, nt.Rules(low_card=1, high_card=10, n_removed=2, chips=((3, 4), (4, 3))))
]


@pytest.mark.parametrize(("n", "rules"), VARIANTS, ids=[f"{n}p-{r.n_cards}" for n, r in VARIANTS])
def test_invariants_over_random_rounds(n: int, rules: nt.Rules) -> None:
    rng = np.random.default_rng([2024, n, rules.n_cards])
    total_chips = n * rules.starting_chips(n)
    for _ in range(400):
        cards = rng.permutation(rules.cards)
        deck = [int(c) for c in cards[: rules.n_in_play]]
        removed = set(rules.cards) - set(deck)
        first = int(rng.integers(n))
        g = nt.Game(n, rules=rules, deck=deck, first_player=first)
        assert g.current_player == first and g.active_card == deck[0]
        p_take = rng.uniform(0.1, 0.9)
        turned = 0
        while not g.is_over:
            seat, card, pot, chips = g.current_player, g.active_card, g.pot, g.chips
            assert card == deck[turned]
            assert g.cards_left == rules.n_in_play - turned - 1
            legal = g.legal_actions()
            assert legal == ((TAKE, PASS) if chips[seat] else (TAKE,))
            take = len(legal) == 1 or rng.random() < p_take
            g.step(TAKE if take else PASS)
            assert sum(g.chips) + g.pot == total_chips
            if take:
                turned += 1
                assert g.current_player == seat  # the taker keeps the turn
                assert card in g.hands[seat] and g.pot == 0
                assert g.chips[seat] == chips[seat] + pot
            else:
                assert g.current_player == (seat + 1) % n
                assert g.pot == pot + 1 and g.chips[seat] == chips[seat] - 1
                assert g.active_card == card
        assert turned == rules.n_in_play
        assert g.active_card is None and g.legal_actions() == () and g.cards_left == 0
        taken = [c for h in g.hands for c in h]
        assert sorted(taken) == sorted(deck)  # every in-play card taken exactly once
        assert not removed & set(taken)  # removed cards never
        assert set(g.removed_cards()) == removed
        assert all(list(h) == sorted(h) for h in g.hands)
        assert g.scores() == tuple(nt.score(h, c) for h, c in zip(g.hands, g.chips, strict=True))
        assert g.card_points() == tuple(nt.card_points(h) for h in g.hands)
        best = min(g.scores())
        assert g.winners() == tuple(i for i, s in enumerate(g.scores()) if s == best)
        takes = [e for e in g.history if e.action is TAKE]
        assert [e.card for e in takes] == deck
        assert sum(e.pot for e in takes) == sum(e.action is PASS for e in g.history)


def test_replay_and_copy(snapshot, play_random) -> None:
    rng = np.random.default_rng(11)
    for n in (3, 5, 7):
        for _ in range(60):
            deck = [int(c) for c in rng.permutation(nt.Rules().cards)[:24]]
            first = int(rng.integers(n))
            g = nt.Game(n, deck=deck, first_player=first)
            # Stop somewhere in the middle, copy, then play the original on.
            for _ in range(int(rng.integers(0, 40))):
                if g.is_over:
                    break
                g.step(g.legal_actions()[int(rng.integers(len(g.legal_actions())))])
            frozen = snapshot(g)
            twin = g.copy()
            assert snapshot(twin) == frozen
            moves = play_random(g, rng).history[len(twin.history) :]
            assert snapshot(twin) == frozen  # the copy did not move with the original
            for e in moves:
                twin.step(e.action)
            assert snapshot(twin) == snapshot(g)
            again = nt.Game.replay(n, g.history, deck=deck, first_player=first)
            assert snapshot(again) == snapshot(g)


def test_copy_is_independent_both_ways(snapshot) -> None:
    g = nt.Game(4, seed=3)
    g.step(PASS)
    twin = g.copy()
    before = snapshot(g)
    twin.step(TAKE)
    twin.step(PASS)
    assert snapshot(g) == before
    assert twin.history[:1] == g.history and len(twin.history) == 3


def test_cached_position_is_the_core_state_after_every_move() -> None:
    """The engine reads each position back from `core`'s state once per move and shares it:
    every public value equals what `core` says of the state, views taken before a move stay
    as they were, and a position's view is built once per seat."""
    rng = np.random.default_rng(26)
    for n in (2, 3, 5, 7):
        rules = nt.Rules(low_card=3, high_card=20, n_removed=4, chips=((2, 7),)) if n == 2 else None
        g = nt.Game(n, rules=rules, seed=int(rng.integers(1 << 30)))
        shown: list[tuple[nt.PlayerView, tuple]] = []
        while True:
            s = g._state
            over = bool(core.is_over(s, 0))
            assert g.is_over is over and g.current_player == s.player[0] and g.pot == s.pot[0]
            assert g.chips == tuple(s.chips[0].tolist())
            assert tuple(core.mask_of(h) for h in g.hands) == tuple(s.hands[0].tolist())
            assert all(list(h) == sorted(h) for h in g.hands)
            assert g.active_card == (None if over else core.active_card(s, 0))
            can = not over and bool(core.can_pass(s, 0))
            assert g.legal_actions() == (() if over else (TAKE, PASS) if can else (TAKE,))
            seat = int(rng.integers(n))
            view = g.view(seat)
            assert g.view(seat) is view and g.view(np.int64(seat)) == view
            assert view == nt.PlayerView(**{f: getattr(view, f) for f in FIELDS})  # checked
            assert view.hand_masks == tuple(s.hands[0].tolist())
            shown.append((view, tuple(getattr(view, f) for f in FIELDS)))
            if over:
                break
            g.step(TAKE if len(g.legal_actions()) == 1 or rng.random() < 0.4 else PASS)
        assert all(tuple(getattr(v, f) for f in FIELDS) == fields for v, fields in shown)
        assert sum(len(h) for h in g.hands) == g.rules.n_in_play


FIELDS = ("seat", "n_players", "active_card", "pot", "my_chips", "chips", "hands",
          "cards_left", "rules", "current_player")  # fmt: skip


class _Recorder:
    """A policy that keeps every view it is shown and plays a seeded coin (a forced take
    when it must), raising once it has seen `fail_after` views."""

    def __init__(self, seed: int, fail_after: int | None = None) -> None:
        self.rng, self.fail_after = np.random.default_rng(seed), fail_after
        self.views: list[nt.PlayerView] = []

    def act(self, view: nt.PlayerView) -> nt.Action:
        self.views.append(view)
        if self.fail_after is not None and len(self.views) > self.fail_after:
            raise RuntimeError("stop here")
        return PASS if view.can_pass and self.rng.random() < 0.7 else TAKE


@pytest.mark.parametrize("n", [2, 3, 5, 7])
def test_play_out_shows_the_views_of_a_step_by_step_round(n: int) -> None:
    """`play_game`'s loop (snapshot shared until a take, one view per decision) shows each
    bot exactly what `Game.view` gives in the same position of a round played by `step`, and
    valid views: the checked constructor accepts each as it is."""
    rules = nt.Rules(low_card=3, high_card=20, n_removed=4, chips=((2, 7),)) if n == 2 else None
    for seed in range(3):
        bot = _Recorder(seed)
        result = nt.play_game([bot] * n, rules=rules, seed=seed)
        g = nt.Game(n, rules=rules, seed=seed)
        assert len(bot.views) == len(result.history)
        for view, event in zip(bot.views, result.history, strict=True):
            assert view == g.view(g.current_player)
            assert view == nt.PlayerView(**{f: getattr(view, f) for f in FIELDS})
            assert view.hand_masks == g.view(g.current_player).hand_masks
            g.step(event.action)
        assert g.is_over and g.scores() == result.scores


def test_policy_error_mid_card_leaves_the_position_read_back() -> None:
    """A policy that fails after some passes stops the round in a position whose cached
    values (chips, pot, turn, legal moves, views) are the core state's, and play goes on."""
    from nothanks_lab.play import PolicyError, play_out

    for fail_after in (1, 2, 5, 17):
        g = nt.Game(3, seed=fail_after)
        bot = _Recorder(fail_after, fail_after=fail_after)
        with pytest.raises(PolicyError):
            play_out(g, [bot] * 3)
        s = g._state
        assert g.current_player == s.player[0] and g.pot == s.pot[0]
        assert g.chips == tuple(s.chips[0].tolist())
        assert g.view(g.current_player) == bot.views[-1]
        assert len(g.history) == fail_after
        assert g.legal_actions() == ((TAKE, PASS) if core.can_pass(s, 0) else (TAKE,))
        play_out(g, [_Recorder(1)] * 3)
        assert g.is_over and sum(g.chips) == 3 * 11  # chips conserved across the stop
        assert sum(len(h) for h in g.hands) == g.rules.n_in_play


def test_replay_refuses_events_that_do_not_fit() -> None:
    history = [Event(0, PASS, 5, 0), Event(2, PASS, 5, 1)]  # seat 1 should act second
    with pytest.raises(ValueError, match=r"event 1 .* expected seat, card, pot \(1, 5, 1\)"):
        nt.Game.replay(3, history, deck=TINY_DECK, rules=TINY)


# ------------------------------------------------------------------------- determinism


def test_same_seed_same_round(deck_of) -> None:
    assert deck_of(nt.Game(4, seed=42)) == deck_of(nt.Game(4, seed=42))
    assert deck_of(nt.Game(4, seed=42)) != deck_of(nt.Game(4, seed=43))
    by_int = deck_of(nt.Game(3, seed=7))
    assert deck_of(nt.Game(3, seed=np.random.default_rng(7))) == by_int
    assert deck_of(nt.Game(3, seed=np.random.SeedSequence(7))) == by_int
    deck = by_int
    assert len(deck) == 24 and len(set(deck)) == 24 and set(deck) <= set(range(3, 36))


def test_deck_given_means_seed_plays_no_part(deck_of) -> None:
    deck = list(range(12, 36))
    assert deck_of(nt.Game(3, deck=deck, seed=1)) == deck_of(nt.Game(3, deck=deck, seed=2)) == deck
    assert deck_of(nt.Game(3, deck=np.array(deck))) == deck


def test_unseeded_games_differ(deck_of) -> None:
    decks = {tuple(deck_of(nt.Game(3))) for _ in range(5)}
    assert len(decks) > 1


def test_global_random_state_changes_nothing(snapshot, restore_global_random) -> None:
    def run(disturb: bool) -> tuple:
        g = nt.Game(5, seed=np.random.default_rng(9))
        bot = nt.bots.RandomBot(seed=4)
        k = 0
        while not g.is_over:
            if disturb:
                np.random.seed(k)  # noqa: NPY002 - disturbing the legacy global on purpose
                np.random.rand(3)  # noqa: NPY002
                random.seed(k)
                random.random()
                k += 1
            g.step(bot.act(g.view(g.current_player)))
        return snapshot(g)

    assert run(disturb=True) == run(disturb=False)


# ------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("n", [2, 8, 0, -1, 3.0, "3", True, None])
def test_bad_player_count(n: object) -> None:
    with pytest.raises(ValueError, match=r"players|n_players"):
        nt.Game(n)  # type: ignore[arg-type]


def test_player_count_from_numpy_int() -> None:
    assert nt.Game(np.int64(6), seed=0).chips == (9,) * 6


@pytest.mark.parametrize("seat", [3, -1, 1.0, "0", True, None])
def test_bad_seat(seat: object) -> None:
    with pytest.raises(ValueError, match=r"first_player must be .*0\.\.2"):
        nt.Game(3, first_player=seat)  # type: ignore[arg-type]
    g = nt.Game(3, seed=0)
    with pytest.raises(ValueError, match=r"seat must be .*0\.\.2"):
        g.view(seat)  # type: ignore[arg-type]


BAD_DECKS = [
    (list(range(3, 26)), "exactly 24 in-play cards"),
    (list(range(3, 28)), "exactly 24 in-play cards"),
    ([], "exactly 24 in-play cards"),
    ([*range(3, 26), 3], r"holds \[3\] more than once"),
    ([*range(4, 27), 2], r"\[2\], outside the deck 3\.\.35"),
    ([*range(4, 27), 36], r"\[36\], outside the deck 3\.\.35"),
    ([*range(4, 27), 3.5], "whole numbers"),
    ([*range(4, 27), "3"], "whole numbers"),
    ([*range(4, 27), None], "whole numbers"),
]


@pytest.mark.parametrize(("deck", "message"), BAD_DECKS)
def test_bad_deck(deck: list[object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        nt.Game(3, deck=deck)  # type: ignore[arg-type]


@pytest.mark.parametrize("deck", [5, None.__class__, "abcdefghijklmnopqrstuvwx"])
def test_a_deck_that_is_not_a_sequence_of_cards(deck: object) -> None:
    with pytest.raises(ValueError, match="deck must"):
        nt.Game(3, deck=deck)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["abc", 1.5, -1, object()])
def test_bad_seed(seed: object) -> None:
    with pytest.raises(ValueError, match=r"seed|non-negative"):
        nt.Game(3, seed=seed)  # type: ignore[arg-type]


def test_bad_rules_argument() -> None:
    with pytest.raises(ValueError, match=r"rules must be a nothanks_lab\.Rules"):
        nt.Game(3, rules={"low_card": 1})  # type: ignore[arg-type]


def test_passing_without_chips_is_refused_and_changes_nothing(snapshot) -> None:
    g = nt.Game(3, rules=TINY, deck=TINY_DECK)
    for move in (PASS, PASS, PASS):
        g.step(move)
    before = snapshot(g)
    with pytest.raises(nt.IllegalActionError, match=r"seat 0 has no chips.*only legal move is"):
        g.step(PASS)
    assert snapshot(g) == before
    assert isinstance(nt.IllegalActionError("x"), ValueError)


def test_moving_after_the_end_is_refused_and_changes_nothing(snapshot) -> None:
    g = nt.Game(3, rules=TINY, deck=TINY_DECK)
    for move in [m for m, *_ in TINY_ROUND]:
        g.step(move)
    before = snapshot(g)
    for move in (TAKE, PASS):
        with pytest.raises(nt.IllegalActionError, match="round is over; no move is allowed"):
            g.step(move)
        assert snapshot(g) == before


@pytest.mark.parametrize("move", ["take", True, 0, None, "TAKE"])
def test_non_action_is_refused_and_changes_nothing(move: object, snapshot) -> None:
    g = nt.Game(3, seed=5)
    before = snapshot(g)
    with pytest.raises(ValueError, match=r"must be Action\.TAKE or Action\.PASS"):
        g.step(move)  # type: ignore[arg-type]
    assert snapshot(g) == before


# ------------------------------------------------------------------------- display


# Cards 40..62 cannot be confused with any chip count, pot, seat or score in a 3-player round.
HIGH = nt.Rules(low_card=40, high_card=62, n_removed=5, chips=((3, 5),))


def test_game_html_shows_the_table_and_no_removed_card_before_the_end(html_numbers) -> None:
    rng = np.random.default_rng(8)
    g = nt.Game(3, rules=HIGH, seed=rng)
    shown = []
    while not g.is_over:
        html = g._repr_html_()
        numbers = html_numbers(html)
        seen = {c for h in g.hands for c in h} | {g.active_card}
        assert g.active_card in numbers
        # No removed or face-down card (card points and scores are sums, shown too).
        allowed = seen | set(g.card_points()) | set(g.scores())
        assert {n for n in numbers if n >= 40} <= allowed
        assert set(g.scores()) <= numbers and set(g.chips) <= numbers
        assert f"Seat {g.current_player}" in html
        shown.append(html)
        legal = g.legal_actions()
        g.step(legal[int(rng.integers(len(legal)))])
    end = g._repr_html_()
    numbers = html_numbers(end)
    assert "Round over" in end
    assert set(g.removed_cards()) <= numbers  # revealed for teaching once it is over
    assert {c for h in g.hands for c in h} <= numbers
    assert set(g.scores()) <= numbers
    assert len(shown) > 18
    assert repr(g).startswith("<Game 3 players, over")


def test_from_position_continues_a_round_consistently() -> None:
    rng = np.random.default_rng(17)
    for n in (3, 4, 6):
        for _ in range(20):
            g = nt.Game(n, seed=rng)
            for _ in range(int(rng.integers(0, 30))):
                g.step(TAKE if len(g.legal_actions()) == 1 or rng.random() < 0.4 else PASS)
            if g.is_over:
                continue
            seat = g.current_player
            view = g.view(seat)
            turned = sum(e.action is TAKE for e in g.history)
            truth = g.copy()
            while not truth.is_over:
                truth.step(TAKE)
            rest = [e.card for e in truth.history if e.action is TAKE][turned + 1 :]
            rebuilt = nt.Game.from_position(view, rest)
            assert rebuilt.history == ()
            assert [rebuilt.view(s) for s in range(n)] == [g.view(s) for s in range(n)]
            # The same moves from there lead to the same end.
            tail = truth.history[len(g.history) :]
            for e in tail:
                rebuilt.step(e.action)
            assert (rebuilt.scores(), rebuilt.hands, rebuilt.chips) == (
                truth.scores(),
                truth.hands,
                truth.chips,
            )


def test_from_position_refuses_inconsistent_guesses() -> None:
    g = nt.Game(3, rules=TINY, deck=TINY_DECK)
    g.step(TAKE)  # seat 0 takes 5; 2 is face up; 8, 3, 1 are face down
    view = g.view(1)
    assert view.cards_left == 3
    with pytest.raises(ValueError, match="deck_rest must hold 3 cards; got 2"):
        nt.Game.from_position(view, [8, 3])
    with pytest.raises(ValueError, match="not seen"):
        nt.Game.from_position(view, [8, 3, 5])  # 5 is in seat 0's hand
    with pytest.raises(ValueError, match="not seen"):
        nt.Game.from_position(view, [8, 8, 3])
    with pytest.raises(ValueError, match="outside the deck"):
        nt.Game.from_position(view, [8, 3, 9])
    alt = nt.Game.from_position(view, [4, 6, 7])  # any unseen cards will do
    assert alt.view(1) == view
    end = nt.Game(3, rules=TINY, deck=TINY_DECK)
    while not end.is_over:
        end.step(TAKE)
    with pytest.raises(ValueError, match="over"):
        nt.Game.from_position(end.view(0), [])


def test_one_dealer_game_play_game_and_simulate_agree() -> None:
    """The contract: the same seed deals the same first round (the simulation's game 0)."""
    from nothanks_lab.bots import MarginalCostBot
    from nothanks_lab.deals import deal_decks, deal_one

    for seed in (0, 7, 12345, np.random.SeedSequence(9)):
        deck = deal_decks(None, seed=seed)[0]
        np.testing.assert_array_equal(deal_one(None, seed=seed), deck)  # uncompiled = compiled
        g = nt.Game(3, seed=seed)
        assert g.active_card == int(deck[0]) and g.cards_left == len(deck) - 1
        bots = [MarginalCostBot(t) for t in (2, 6, 11)]
        played = nt.play_game(bots, seed=seed).scores
        assert played == nt.play_game(bots, deck=deck).scores
        assert played == tuple(int(x) for x in nt.simulate(bots, 3, seed=seed).scores[0])
    # A fresh Generator of the same seed deals the same round too.
    assert nt.Game(3, seed=np.random.default_rng(7)).active_card == int(
        deal_decks(None, seed=7)[0][0]
    )

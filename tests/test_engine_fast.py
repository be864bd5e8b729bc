"""The differential test of the engine's play loop against `core`, the one rule definition.

`Game._play_out` (the loop behind `play_game` and every `act(view)` bot) makes its moves on
plain local values instead of calling `core.step` per decision; this file plays thousands of
seeded random move sequences through it and through `core.step` on a numpy batch of one, and
asserts that every view it shows is the core state's position and that both end identically,
also when a policy error stops the loop at a random decision and play goes on by `step`.
The compiled bots' `act` on that loop keeps its parameters and arrays between decisions:
the last tests check that a change to a bot, or another seed, is never answered from them.
"""

from __future__ import annotations

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab import core
from nothanks_lab.play import PolicyError, play_out

TAKE, PASS = nt.Action.TAKE, nt.Action.PASS

#: (rules, player counts): the standard game and variants with few chips (many forced takes),
#: a one-card deck, two players, no removed card, seven seats.
VARIANTS = [
    (nt.Rules(), (3, 4, 5, 6, 7)),
    (nt.Rules(low_card=1, high_card=8, n_removed=3, chips=((3, 1), (4, 1))), (3, 4)),
    (nt.Rules(low_card=3, high_card=20, n_removed=4, chips=((2, 7),)), (2,)),
    (nt.Rules(low_card=5, high_card=6, n_removed=1, chips=((3, 2),)), (3,)),
    (nt.Rules(low_card=10, high_card=30, n_removed=0, chips=((7, 3),)), (7,)),
]


class _Coin:
    """Passes with probability `p` when it may (a seeded coin), else takes; keeps every view
    it is shown; raises at its `fail_at`-th decision (None: never)."""

    def __init__(self, rng: np.random.Generator, p: float, fail_at: int | None) -> None:
        self.rng, self.p, self.fail_at = rng, p, fail_at
        self.views: list[nt.PlayerView] = []

    def act(self, view: nt.PlayerView) -> nt.Action:
        if len(self.views) == self.fail_at:
            raise RuntimeError("stopped by the test")
        self.views.append(view)
        return PASS if view.can_pass and self.rng.random() < self.p else TAKE


def _position(s: core.State) -> tuple[object, ...]:
    """The public position of round 0 of a numpy core state, as the engine reports it."""
    over = bool(core.is_over(s, 0))
    return (
        int(s.player[0]),
        None if over else int(core.active_card(s, 0)),
        int(s.pot[0]),
        tuple(s.chips[0].tolist()),
        tuple(s.hands[0].tolist()),
        max(0, s.deck.shape[1] - int(s.turned[0]) - 1),
    )


def _shown(view: nt.PlayerView) -> tuple[object, ...]:
    return (view.seat, view.active_card, view.pot, view.chips, view.hand_masks, view.cards_left)


def _of_game(g: nt.Game) -> tuple[object, ...]:
    masks = tuple(core.mask_of(h) for h in g.hands)
    return (g.current_player, g.active_card, g.pot, g.chips, masks, g.cards_left)


def _one_sequence(seed: int) -> int:
    """One seeded random round through the loop and through `core.step`; its decision count."""
    rng = np.random.default_rng(seed)
    rules, counts = VARIANTS[seed % len(VARIANTS)]
    n = int(rng.choice(counts))
    deck = rng.permutation(np.array(rules.cards))[: rules.n_in_play]
    first = int(rng.integers(n))
    fail_at = int(rng.integers(0, 3 * rules.n_in_play)) if seed % 3 == 0 else None
    bot = _Coin(rng, float(rng.uniform(0.0, 1.0)), fail_at)
    g = nt.Game(n, rules=rules, deck=deck, first_player=first)
    s = core.new_state(deck[None, :], n, rules.starting_chips(n), first)
    try:
        play_out(g, [bot] * n)
    except PolicyError:
        assert fail_at is not None
    events = g.history
    assert len(events) == len(bot.views)
    for view, event in zip(bot.views, events, strict=True):
        assert _shown(view) == _position(s), f"seed {seed}: view differs from core's position"
        assert view.my_chips == view.chips[view.seat] and view.current_player == view.seat
        assert view.can_pass == bool(core.can_pass(s, 0))
        assert (event.seat, event.card, event.pot) == _position(s)[:3]
        core.step(s, 0, event.action is TAKE)
    # Where the loop stopped (the end, or a policy error): the game's position is core's,
    # read back into every cached value and into the game's own core state.
    assert _of_game(g) == _position(s), f"seed {seed}: the game's position differs from core's"
    assert g.is_over == bool(core.is_over(s, 0))
    assert g.legal_actions() == (
        () if g.is_over else (TAKE, PASS) if core.can_pass(s, 0) else (TAKE,)
    )
    for a, b in zip(g._state, s, strict=True):
        assert np.array_equal(a, b), f"seed {seed}: the written-back core state differs"
    # Play goes on by `step` (core's functions on the game's tables) to the same end.
    while not g.is_over:
        take = len(g.legal_actions()) == 1 or rng.random() < 0.5
        g.step(TAKE if take else PASS)
        core.step(s, 0, take)
        assert _of_game(g) == _position(s)
    return len(events)


@pytest.mark.parametrize("block", range(4))
def test_play_loop_agrees_with_core_step_on_random_move_sequences(block: int) -> None:
    """2,000 seeded random rounds (4 blocks of 500) over five rule sets and 2-7 players."""
    decisions = sum(_one_sequence(seed) for seed in range(block * 500, (block + 1) * 500))
    assert decisions > 500 * 5  # real rounds were played, not empty ones


def _one_paused_sequence(seed: int) -> int:
    """One seeded random round through `Game._decisions` with some seats answered from
    outside (the generator pauses at them, as a lockstep does) and through `core.step`."""
    rng = np.random.default_rng(10_000 + seed)
    rules, counts = VARIANTS[seed % len(VARIANTS)]
    n = int(rng.choice(counts))
    deck = rng.permutation(np.array(rules.cards))[: rules.n_in_play]
    first = int(rng.integers(n))
    outside = [bool(rng.random() < 0.5) for _ in range(n)]
    bot = _Coin(rng, float(rng.uniform(0.0, 1.0)), None)
    g = nt.Game(n, rules=rules, deck=deck, first_player=first)
    s = core.new_state(deck[None, :], n, rules.starting_chips(n), first)
    shown: list[nt.PlayerView] = []

    def ask(policy: object, view: nt.PlayerView, legal: tuple[nt.Action, ...]) -> nt.Action:
        assert not outside[view.seat], f"seed {seed}: an outside seat was asked in process"
        assert legal == ((TAKE, PASS) if view.can_pass else (TAKE,))
        shown.append(view)
        return bot.act(view)

    play = g._decisions([bot] * n, ask, outside)
    try:
        view = next(play)
        while True:
            assert outside[view.seat], f"seed {seed}: paused at an in-process seat"
            shown.append(view)
            view = play.send(bot.act(view))
    except StopIteration:
        pass
    events = g.history
    assert len(events) == len(shown) and g.is_over
    for view, event in zip(shown, events, strict=True):
        assert _shown(view) == _position(s), f"seed {seed}: view differs from core's position"
        assert view.can_pass == bool(core.can_pass(s, 0))
        assert (event.seat, event.card, event.pot) == _position(s)[:3]
        core.step(s, 0, event.action is TAKE)
    assert _of_game(g) == _position(s), f"seed {seed}: the game's end differs from core's"
    for a, b in zip(g._state, s, strict=True):
        assert np.array_equal(a, b), f"seed {seed}: the written-back core state differs"
    return sum(outside[e.seat] for e in events)


def test_paused_play_loop_agrees_with_core_step_on_random_move_sequences() -> None:
    """1,000 seeded rounds with random seats answered from outside (a lockstep's batched
    bots): the same views and moves as `core.step`, and outside seats are really paused at."""
    outside_moves = sum(_one_paused_sequence(seed) for seed in range(1000))
    assert outside_moves > 1000 * 5


def test_paused_play_loop_refuses_an_illegal_outside_move_and_writes_back_when_closed() -> None:
    """An outside move that is not legal (a pass with no chips, not a move) is an
    `IllegalActionError`; a loop closed while paused leaves the game at its position."""
    rules = nt.Rules(low_card=3, high_card=12, n_removed=0, chips=((3, 1),))
    g = nt.Game(3, rules=rules, deck=range(3, 13))
    play = g._decisions([None] * 3, lambda p, v, legal: PASS, [True, False, False])
    view = next(play)
    assert view.seat == 0 and view.my_chips == 1
    view = play.send(PASS)  # seats 1 and 2 pass in process; seat 0 is on card 3 again
    assert (view.seat, view.pot, view.my_chips) == (0, 3, 0)
    with pytest.raises(nt.IllegalActionError):
        play.send(PASS)
    g2 = nt.Game(3, rules=rules, deck=range(3, 13))
    play2 = g2._decisions([None] * 3, lambda p, v, legal: PASS, [True, False, False])
    next(play2)
    with pytest.raises(nt.IllegalActionError):
        play2.send("take")  # type: ignore[arg-type]
    g3 = nt.Game(3, rules=rules, deck=range(3, 13))
    play3 = g3._decisions([None] * 3, lambda p, v, legal: PASS, [True, False, False])
    next(play3)
    play3.send(TAKE)  # seat 0 takes 3 and is asked again on 4
    play3.close()
    assert g3.hands == ((3,), (), ()) and g3.active_card == 4 and g3.current_player == 0
    assert len(g3.history) == 1


def _view_where_threshold_matters() -> nt.PlayerView:
    """A view of seat 0 on card 30 with an empty hand and no pot: cost 30, passing allowed."""
    deck = [30, *[c for c in range(3, 36) if c != 30][:23]]
    return nt.Game(3, deck=deck).view(0)


def test_fastbot_act_follows_a_change_to_the_bot() -> None:
    """`FastBot.act` keeps ``fast_params`` per rule set, but setting an attribute drops them."""
    from nothanks_lab.bots import MarginalCostBot

    view = _view_where_threshold_matters()
    bot = MarginalCostBot(0)
    assert bot.act(view) is PASS and bot.act(view) is PASS  # 30 - 0 > 0, asked twice
    bot.threshold = 40
    assert bot.act(view) is TAKE  # the new threshold, not the kept parameters
    other = nt.Rules(low_card=3, high_card=35, n_removed=8)
    assert bot.fast_params(other)[0] == 40.0


def test_fastbot_act_arrays_are_shared_read_only_and_decision_args_fresh() -> None:
    """The arrays `act` hands ``FAST_DECIDE`` are read-only (shared between decisions, as the
    kernel's state rows are never the bot's to write); `decision_args` gives new arrays."""
    from nothanks_lab.bots import FastBot, decision_args
    from nothanks_lab.play import PolicyError

    seen: list[np.ndarray] = []

    def writes_its_input(params, card, pot, seat, hands, chips, cards_left):
        seen.append(hands)
        hands[seat] = 0
        return True

    class Scribbler(FastBot):
        FAST_DECIDE = staticmethod(writes_its_input)

    view = _view_where_threshold_matters()
    with pytest.raises(PolicyError, match="read-only"):
        nt.play_game([Scribbler()] * 3, deck=[30, *range(3, 26)])
    assert seen and not seen[0].flags.writeable
    _, _, _, hands, chips, _ = decision_args(view)
    hands[0], chips[0] = 1, 0  # the caller's own arrays
    assert view.hand_masks[0] == 0 and view.chips[0] == 11


def test_randomized_fastbot_reseeded_copy_decides_from_its_own_key() -> None:
    """`with_seed` copies a bot that has played (its kept parameters included): the copy
    decides from its new key, as its ``fast_params`` say, not from the original's."""
    from nothanks_lab.bots import RandomBot, decision_args
    from nothanks_lab.bots.simple import random_decide

    bot = RandomBot(seed=1)
    nt.play_game([bot] * 3, seed=5)  # fills the kept parameters
    twin = bot.with_seed(2)
    assert isinstance(twin, RandomBot)
    assert twin.key != bot.key
    g = nt.Game(3, seed=9)
    agree = 0
    while not g.is_over:
        view = g.view(g.current_player)
        with np.errstate(over="ignore"):  # the decision wraps 64-bit integers
            own = random_decide(twin.fast_params(view.rules), *decision_args(view))
        expected = TAKE if (own or not view.can_pass) else PASS
        assert twin.act(view) is expected
        agree += bot.act(view) is expected
        g.step(expected)
    assert agree < len(g.history)  # the two keys do differ somewhere on this round


def _overflows(params, card, pot, seat, hands, chips, cards_left):
    return bool(np.int64(2**62) * np.int64(4) == 0)  # wraps to 0, as compiled code does


def test_fastbot_act_wraps_integers_silently_unless_the_bot_says_it_never_does() -> None:
    """A ``FAST_DECIDE`` runs under ``np.errstate(over="ignore")`` by default (a user's hash
    wraps silently, as compiled); ``FAST_DECIDE_WRAPS = False`` (the package's own masks and
    counts) runs it bare: the same answer, and an overflow would warn."""
    import warnings

    from nothanks_lab.bots import FastBot, HeuristicBot, LinearBot, MarginalCostBot, RandomBot

    class Hashing(FastBot):
        FAST_DECIDE = staticmethod(_overflows)

    class Bare(Hashing):
        FAST_DECIDE_WRAPS = False

    view = _view_where_threshold_matters()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Hashing().act(view) is TAKE
        with pytest.raises(RuntimeWarning, match="overflow"):
            Bare().act(view)
    assert Hashing.FAST_DECIDE_WRAPS and RandomBot.FAST_DECIDE_WRAPS  # a 64-bit hash
    assert not any(b.FAST_DECIDE_WRAPS for b in (MarginalCostBot, HeuristicBot, LinearBot))

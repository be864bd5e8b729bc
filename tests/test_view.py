"""What a seat may know: `PlayerView` is an immutable value with no hidden card in it, and two
rounds that differ only in unseen cards give every seat equal views at every step."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab import core
from nothanks_lab.bots import decision_args

TAKE, PASS = nt.Action.TAKE, nt.Action.PASS

# Cards 40..62 cannot be confused with any chip count, pot, seat or cards_left of these rounds,
# so any whole number >= 40 reachable from a view must be a card that seat has seen.
HIGH = nt.Rules(low_card=40, high_card=62, n_removed=5, chips=((3, 5), (4, 4), (5, 3)))
SMALL = nt.Rules(low_card=1, high_card=10, n_removed=3, chips=((3, 2), (4, 2)))
SETUPS = [(3, nt.Rules()), (5, nt.Rules()), (7, nt.Rules()), (4, SMALL), (3, HIGH), (5, HIGH)]
SETUP_IDS = [f"{n}p-{r.low_card}-{r.high_card}" for n, r in SETUPS]


def unseen_variant(deck: list[int], k: int, rules: nt.Rules, rng: np.random.Generator) -> list[int]:
    """A deck that shares the first `k` turned cards with `deck` and differs after them."""
    rest = [c for c in rules.cards if c not in deck[:k]]
    while True:
        other = deck[:k] + [int(c) for c in rng.permutation(rest)[: len(deck) - k]]
        if other != deck:
            return other


@pytest.mark.parametrize(("n", "rules"), SETUPS, ids=SETUP_IDS)
def test_rounds_differing_only_in_unseen_cards_give_equal_views(n: int, rules: nt.Rules) -> None:
    rng = np.random.default_rng([7, n, rules.low_card])
    compared = 0
    for trial in range(25):
        deck = [int(c) for c in rng.permutation(rules.cards)[: rules.n_in_play]]
        k = int(rng.integers(1, rules.n_in_play))  # cards both rounds turn face up alike
        other = unseen_variant(deck, k, rules, rng)
        first = int(rng.integers(n))
        a = nt.Game(n, rules=rules, deck=deck, first_player=first)
        b = nt.Game(n, rules=rules, deck=other, first_player=first)
        # Each round gets its own, identically seeded bots: equal views must mean equal moves.
        bots_a = [
            nt.bots.RandomBot(seed=np.random.SeedSequence([trial, s]), p_take=0.4) for s in range(n)
        ]
        bots_b = [
            nt.bots.RandomBot(seed=np.random.SeedSequence([trial, s]), p_take=0.4) for s in range(n)
        ]
        takes = 0
        while takes < k:
            views = [a.view(s) for s in range(n)]
            assert views == [b.view(s) for s in range(n)]
            assert [hash(v) for v in views] == [hash(b.view(s)) for s in range(n)]
            seat = a.current_player
            move = bots_a[seat].act(views[seat])
            assert bots_b[seat].act(b.view(seat)) is move
            a.step(move)
            b.step(move)
            takes += move is TAKE
            compared += 1
        assert a.history == b.history
    assert compared > 25 * 5


def reachable(obj: object, path: str = "view", seen: set[int] | None = None):
    """Yield ``(path, value)`` for everything reachable from `obj` through fields, instance
    attributes, properties and containers (methods and the public `rules` left out)."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    yield path, obj
    if isinstance(obj, nt.Rules | str | int | float | bool | type(None) | nt.Action):
        return
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from reachable(value, f"{path}[{key!r}]", seen)
        return
    if isinstance(obj, tuple | list | set | frozenset):
        for i, value in enumerate(obj):
            yield from reachable(value, f"{path}[{i}]", seen)
        return
    names = set(getattr(obj, "__dict__", {}))
    if dataclasses.is_dataclass(obj):
        names |= {f.name for f in dataclasses.fields(obj)}
    for klass in type(obj).__mro__:
        for name, attr in vars(klass).items():
            if isinstance(attr, property | functools.cached_property):
                names.add(name)
    for name in sorted(names):
        yield from reachable(getattr(obj, name), f"{path}.{name}", seen)


def check_view_reveals_nothing(view: nt.PlayerView, seen_cards: set[int]) -> int:
    """Assert that no hidden card is reachable from `view`; return how many values were checked."""
    # unseen_cards lists every card not yet seen, removed or face down alike, in card order:
    # it names no card's fate, so it is checked on its own and not walked.
    assert view.unseen_cards == tuple(c for c in view.rules.cards if c not in seen_cards)
    count = 0
    for path, value in reachable(view):
        count += 1
        if path.startswith("view.unseen_cards"):
            continue
        assert not isinstance(value, np.ndarray | nt.Game | core.State | list | dict | set), path
        if isinstance(value, int) and value >= HIGH.low_card:
            if value >= 1 << HIGH.low_card:  # a hand as a bit mask
                bits = {c for c in range(HIGH.low_card, HIGH.high_card + 1) if value >> c & 1}
                assert value == core.mask_of(sorted(bits)), path
                assert bits <= seen_cards, path
            else:
                assert value in seen_cards, path
    return count


@pytest.mark.parametrize("n", [3, 4, 5])
def test_no_attribute_of_a_view_exposes_a_hidden_card(n: int) -> None:
    rng = np.random.default_rng(n)
    checked = 0
    for _ in range(15):
        g = nt.Game(n, rules=HIGH, seed=rng)
        while True:
            seen = {c for h in g.hands for c in h} | ({g.active_card} - {None})
            for seat in range(n):
                view = g.view(seat)
                _ = view.seen_cards, view.hand_masks  # fill the cached properties too
                checked += check_view_reveals_nothing(view, seen)
            if g.is_over:
                break
            g.step(TAKE if len(g.legal_actions()) == 1 or rng.random() < 0.5 else PASS)
    assert checked > 1000


def test_the_walk_would_catch_a_leak() -> None:
    g = nt.Game(3, rules=HIGH, seed=1)
    view = g.view(0)
    seen = {g.active_card}
    assert check_view_reveals_nothing(view, seen) > 10
    hidden = next(c for c in HIGH.cards if c not in seen)
    leaks = {
        "secret": (hidden,),  # a hidden card in an extra attribute
        "deck": g._state.deck,  # the engine's array itself
        "masks": (1 << hidden,),  # a hidden card as a bit mask
        "nested": ((0, (hidden, 3)),),
    }
    for name, value in leaks.items():
        leaky = dataclasses.replace(view)
        leaky.__dict__[name] = value
        with pytest.raises(AssertionError, match=f"view.{name}"):
            check_view_reveals_nothing(leaky, seen)


def test_view_is_an_immutable_hashable_value() -> None:
    g = nt.Game(4, seed=2)
    g.step(PASS)
    g.step(TAKE)
    v = g.view(1)
    for f in dataclasses.fields(v):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(v, f.name, getattr(v, f.name))
    assert type(v.chips) is tuple and all(type(c) is int for c in v.chips)
    assert type(v.hands) is tuple and all(type(h) is tuple for h in v.hands)
    assert all(type(c) is int for h in v.hands for c in h)
    for name in ("seat", "n_players", "active_card", "pot", "my_chips", "cards_left"):
        assert type(getattr(v, name)) is int, name
    twin = g.copy().view(1)
    assert v == twin and hash(v) == hash(twin) and v is not twin
    assert len({v, twin, g.view(0)}) == 2
    moved = (v.chips[0] - 1, *v.chips[1:])  # seat 0 puts one more chip on the card
    assert dataclasses.replace(v, pot=v.pot + 1, chips=moved) != v
    assert v != g.view(2)


def test_mutating_what_a_view_returned_cannot_change_the_game(snapshot) -> None:
    g = nt.Game(3, seed=4)
    for move in (PASS, TAKE, PASS):
        g.step(move)
    before = snapshot(g)
    v = g.view(g.current_player)
    _, _, _, hands, chips, _ = decision_args(v)
    hands[:] = 0
    chips[:] = 99
    object.__setattr__(v, "chips", (0, 0, 0))  # even forcing the frozen view
    object.__setattr__(v, "hands", ((3,), (4,), (5,)))
    v.__dict__["seen_cards"] = frozenset()
    assert snapshot(g) == before
    for seat in range(3):
        assert g.view(seat) == before[1][-1][seat]


def test_view_properties_by_hand() -> None:
    rules = nt.Rules(low_card=1, high_card=8, n_removed=3, chips=((3, 1),))
    g = nt.Game(3, rules=rules, deck=[5, 2, 8, 3, 1])
    g.step(PASS)
    g.step(TAKE)  # seat 1 takes 5 with 1 chip, and faces 2
    v1, v0 = g.view(1), g.view(0)
    assert (v1.seat, v1.n_players, v1.active_card, v1.pot, v1.cards_left) == (1, 3, 2, 0, 3)
    assert (v1.my_chips, v1.chips, v1.hands) == (2, (0, 2, 1), ((), (5,), ()))
    assert v1.rules == rules and v1.current_player == 1 == v0.current_player
    assert v1.my_hand == (5,) and v0.my_hand == ()
    assert v1.is_my_turn and v1.can_pass and not v0.is_my_turn and not v0.can_pass
    assert not v1.is_over
    assert v1.seen_cards == frozenset({5, 2})
    assert v1.unseen_cards == (1, 3, 4, 6, 7, 8)
    assert len(v1.unseen_cards) - v1.cards_left == rules.n_removed  # the rest were removed
    assert v1.hand_masks == (0, 1 << 5, 0)
    assert v1.card_points() == 5 and v1.card_points(0) == 0
    assert v1.scores() == (0, 3, -1) == g.scores()
    g.step(PASS)
    g.step(PASS)  # seat 0 spent its only chip: it may not pass now its turn has come
    assert g.current_player == 0 and g.view(0).is_my_turn and not g.view(0).can_pass
    assert g.view(0).my_chips == 0 and g.legal_actions() == (TAKE,)
    while not g.is_over:
        g.step(TAKE)
    end = g.view(2)
    assert end.is_over and end.active_card is None and end.current_player is None
    assert not end.is_my_turn and not end.can_pass and end.cards_left == 0
    assert end.unseen_cards == (4, 6, 7)  # the removed cards, unnamed as such
    assert end.scores() == g.scores()


def test_a_view_has_one_name_per_fact() -> None:
    """Public names: the contract's fields plus facts derived from them, and no alias of a
    field (``n_unseen_in_play`` once repeated `cards_left` under a second name)."""
    fields = {f.name for f in dataclasses.fields(nt.PlayerView)}
    assert fields == {
        "seat", "n_players", "active_card", "pot", "my_chips", "chips", "hands", "cards_left",
        "rules", "current_player",
    }  # fmt: skip
    derived = {
        "my_hand", "is_over", "is_my_turn", "can_pass", "seen_cards", "unseen_cards",
        "hand_masks", "card_points", "scores",
    }  # fmt: skip
    view = nt.Game(3, seed=0).view(0)
    assert {n for n in dir(view) if not n.startswith("_")} == fields | derived


def test_view_html_marks_the_seat_and_hides_no_card_it_should_show(html_numbers) -> None:
    from nothanks_lab.render import view_html

    rng = np.random.default_rng(5)
    g = nt.Game(3, rules=HIGH, seed=rng)
    for _ in range(12):
        g.step(TAKE if rng.random() < 0.5 or len(g.legal_actions()) == 1 else PASS)
    v = g.view(2)
    html = v._repr_html_()
    numbers = html_numbers(html)
    seen = {c for h in v.hands for c in h} | {v.active_card}
    assert v.active_card in numbers and {c for h in v.hands for c in h} <= numbers
    assert set(v.chips) <= numbers and v.pot in numbers and v.cards_left in numbers
    points = {v.card_points(s) for s in range(3)}
    assert {x for x in numbers if x >= 40} <= seen | points
    assert "Seat 2 (you)" in html and "Seat 0 (you)" not in html
    hidden = view_html(v, hide_chips=True)
    assert hidden.count(">?<") == 2  # both opponents' counts, never the own count
    assert f">{v.my_chips}<" in hidden


def test_a_hand_built_view_holds_exactly_the_chips_of_a_round() -> None:
    """Issue 24: chips are never made or lost, so a view whose chips and pot do not add up to
    the table's starting chips is refused, naming the totals; a made-up position for analysis
    goes through `view.hypothetical_view` (and `analysis.position_view`), checked otherwise."""
    from nothanks_lab.view import hypothetical_view

    real = nt.Game(3, seed=4).view(0)
    fields = {f.name: getattr(real, f.name) for f in dataclasses.fields(real)}
    rich = {**fields, "chips": (40, 11, 11), "my_chips": 40}
    with pytest.raises(ValueError, match=r"add up to 62, but a round of 3 players holds 33"):
        nt.PlayerView(**rich)
    with pytest.raises(ValueError, match="hypothetical_view"):
        nt.PlayerView(**{**fields, "pot": fields["pot"] + 5})
    with pytest.raises(ValueError, match="add up to"):
        dataclasses.replace(real, pot=real.pot + 1)
    assert hypothetical_view(**rich).my_chips == 40  # analysis may ask "what if"
    with pytest.raises(ValueError, match="also in a hand"):  # and nothing else is relaxed
        hypothetical_view(**{**rich, "hands": ((real.active_card,), (), ())})
    six = nt.Game(6, seed=1).view(2)  # 9 chips each at six seats: 54
    assert sum(six.chips) + six.pot == 54
    assert nt.PlayerView(**{f.name: getattr(six, f.name) for f in dataclasses.fields(six)}) == six

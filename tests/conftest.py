"""Shared fixtures for the foundation's tests: a full-state snapshot and a random legal round.

Kept small on purpose: each test module states its own golden tables; only what several modules
need (comparing a whole game before/after a move, playing random legal moves) lives here, and
the session's executed lessons (``lesson_runs``: each lesson run once per seed and test session,
shared by the seed-variant and lesson-structure tests).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import numpy as np
import pytest
from notebook_runs import LessonRuns

import nothanks_lab as nt


def snapshot(game: nt.Game) -> tuple[Any, ...]:
    """Everything a game holds, public and internal, as comparable plain values."""
    internal = tuple(a.tolist() for a in game._state)
    public = (
        game.current_player,
        game.active_card,
        game.pot,
        game.chips,
        game.hands,
        game.cards_left,
        game.is_over,
        game.history,
        game.legal_actions(),
        game.scores(),
        tuple(game.view(s) for s in range(game.n_players)),
    )
    return internal, public


def play_random(game: nt.Game, rng: np.random.Generator, p_take: float = 0.5) -> nt.Game:
    """Finish `game` with random legal moves (TAKE with chance `p_take` when passing is legal)."""
    while not game.is_over:
        legal = game.legal_actions()
        take = len(legal) == 1 or rng.random() < p_take
        game.step(nt.Action.TAKE if take else nt.Action.PASS)
    return game


def deck_of(game: nt.Game) -> list[int]:
    """The turning order of `game`'s in-play cards, learnt by taking every card of a copy."""
    probe = game.copy()
    while not probe.is_over:
        probe.step(nt.Action.TAKE)
    return [e.card for e in probe.history if e.action is nt.Action.TAKE]


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def html_numbers(html: str) -> set[int]:
    """Whole numbers in the visible text of `html` (tags and inline styles left out)."""
    parser = _Text()
    parser.feed(html)
    return {int(x) for x in re.findall(r"-?\d+", " ".join(parser.parts))}


@pytest.fixture(name="html_numbers")
def html_numbers_fixture() -> Callable[[str], set[int]]:
    """`html_numbers(html)`: the whole numbers a reader sees in `html`."""
    return html_numbers


@pytest.fixture(name="snapshot")
def snapshot_fixture() -> Callable[[nt.Game], tuple[Any, ...]]:
    """`snapshot(game)`: the full state of a game, for before/after comparisons."""
    return snapshot


@pytest.fixture(name="play_random")
def play_random_fixture() -> Callable[..., nt.Game]:
    """`play_random(game, rng, p_take=0.5)`: finish a game with random legal moves."""
    return play_random


@pytest.fixture(name="deck_of")
def deck_of_fixture() -> Callable[[nt.Game], list[int]]:
    """`deck_of(game)`: the in-play cards of a fresh game in turning order."""
    return deck_of


@pytest.fixture
def restore_global_random():
    """Let a test disturb the global random generators, then put them back as they were."""
    np_state = np.random.get_state()  # noqa: NPY002 - saving the legacy global on purpose
    py_state = random.getstate()
    yield
    np.random.set_state(np_state)  # noqa: NPY002
    random.setstate(py_state)


@pytest.fixture(scope="session")
def lesson_runs(nbval_runs: Any) -> LessonRuns:
    """Lessons executed once per (path, seed, content) for the whole session; see notebook_runs.

    A lesson nbval already ran completely this session (`nbval_runs`, from the root conftest)
    is not executed again for its own seed: nbval's outputs are that run.
    """
    return LessonRuns(ready=nbval_runs.notebook)

"""The play table's model: a match of rounds between one person and bots, without widgets.

`TableSession` owns everything a play UI needs beyond drawing: the deals (drawn from the
match seed exactly as `play_match` draws them), each bot built with its own seeded generator,
whose turn it is, the bots' moves one at a time, the person's moves, finished rounds, the next
round of a match, and "play again" with a fresh seed. A widget (`nothanks_lab.widgets.PlayTable`)
only draws a session and forwards clicks to it, so the whole state machine is tested here
without ipywidgets. The difficulty presets (`DIFFICULTIES`) live here too.

>>> s = TableSession(["marginal", "marginal", None], human_seat=2, seed=5)
>>> s.phase, s.round_number
('bot', 1)
>>> _ = s.run_bots()
>>> s.phase
'human'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .bots.specs import BOT_WORDS
from .engine import Action, Event, Game, IllegalActionError
from .i18n import N_, _
from .play import GameResult, MatchResult, PolicyError, ask, policy_name
from .rules import Rules
from .validate import check_int, check_rules, check_seat, check_seed, keyword_only_after
from .view import PlayerView

if TYPE_CHECKING:
    from .review import MoveReview, Review

__all__ = [
    "DEFAULT_DIFFICULTY",
    "DIFFICULTIES",
    "BotSpec",
    "Difficulty",
    "RoundReplay",
    "TableSession",
    "build_bot",
    "check_difficulty",
    "difficulty_bots",
    "display_label",
    "spec_label",
]

#: A bot for one seat: a registered name, ``(name, params)``, or any policy object.
BotSpec = str | tuple[str, Mapping[str, Any]] | Any

#: Largest seed a table accepts (what a seed box can show).
MAX_TABLE_SEED = 2**31 - 1


@dataclass(frozen=True)
class Difficulty:
    """A preset of opponents: the bot every other seat gets, and what it means in words."""

    name: str
    """``"easy"``, ``"medium"`` or ``"hard"``."""
    bot: tuple[str, Mapping[str, Any]]
    """Registered bot name and parameters given to every bot seat."""
    summary: str
    """One sentence for the setup panel and the README."""


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty(
        "easy",
        ("marginal", {"threshold": 10}),
        N_(
            "simple rule bots (marginal, threshold 10): they take a card when its extra points "
            "minus the chips on it are at most 10, and never plan ahead"
        ),
    ),
    "medium": Difficulty(
        "medium",
        ("heuristic", {}),
        N_("heuristic bots: a hand-tuned rule that also weighs runs, chips and the late game"),
    ),
    "hard": Difficulty(
        "hard",
        ("best", {}),
        N_(
            "the strongest bot (best): it plays each decision out by simulation, up to 50 ms a move"
        ),
    ),
}
DEFAULT_DIFFICULTY = "medium"


def check_difficulty(difficulty: object, name: str = "difficulty") -> str:
    """The preset `difficulty` names (its word in the language in use too: ``"médio"`` is
    ``"medium"`` in Portuguese), else `ValueError` listing the presets.

    >>> check_difficulty("hard")
    'hard'
    """
    if isinstance(difficulty, str) and difficulty not in DIFFICULTIES:
        words = {_(k): k for k in DIFFICULTIES if _(k) != k}  # a translation, exactly
        difficulty = words.get(difficulty, difficulty)
    if not isinstance(difficulty, str) or difficulty not in DIFFICULTIES:
        allowed = ", ".join(repr(k) for k in DIFFICULTIES)
        msg = _("{name} must be one of {allowed}; got {value}")  # a student may meet it
        raise ValueError(msg.format(name=name, allowed=allowed, value=repr(difficulty)))
    return difficulty


def difficulty_bots(difficulty: str, n_players: int, human_seat: int) -> list[BotSpec | None]:
    """Bot specs per seat for a preset, None at the person's seat.

    >>> difficulty_bots("easy", 3, 0)
    [None, ('marginal', {'threshold': 10}), ('marginal', {'threshold': 10})]
    """
    name, params = DIFFICULTIES[check_difficulty(difficulty)].bot
    return [None if i == human_seat else (name, dict(params)) for i in range(n_players)]


def spec_label(spec: BotSpec) -> str:
    """A short name for a bot spec, naming only non-default settings: ``"marginal(threshold=4)"``.

    >>> spec_label(("marginal", {"threshold": 10})), spec_label(("marginal", {"threshold": 4}))
    ('marginal', 'marginal(threshold=4)')
    """
    from .bots import params_of

    if isinstance(spec, str):
        return spec
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        name, params = spec
        declared = params_of(name)
        inner = ", ".join(
            f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
            for k, v in params.items()
            if k not in declared or v != declared[k].default
        )
        return f"{name}({inner})" if inner else name
    return policy_name(spec)


def display_label(spec: BotSpec) -> str:
    """`spec_label` for a person: the bot's name as a word of the language in use.

    >>> from nothanks_lab.i18n import language
    >>> with language("pt_BR"):
    ...     display_label("heuristic"), display_label(("marginal", {"threshold": 4}))
    ('heurístico', 'marginal(threshold=4)')
    """
    label = spec_label(spec)
    name, paren, rest = label.partition("(")
    if name in BOT_WORDS:
        return _(BOT_WORDS[name]) + paren + rest
    return label


@keyword_only_after(1, "seed")
def build_bot(spec: BotSpec, *, seed: np.random.SeedSequence | None = None) -> Any:
    """The policy a spec names; a randomized bot draws from its own generator seeded by `seed`."""
    from .bots import bot_class, make_bot
    from .bots.base import RandomizedBot

    if isinstance(spec, str):
        spec = (spec, {})
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        name, params = spec[0], dict(spec[1])
        cls = bot_class(name)  # ValueError naming the registered bots
        if isinstance(cls, type) and issubclass(cls, RandomizedBot):
            params["seed"] = seed
        return make_bot(name, **params)
    if callable(getattr(spec, "act", None)):
        return spec
    raise ValueError(
        f"a bot is a registered name, (name, params) or an object with act(view); got {spec!r}"
    )


class TableSession:
    """One match (one or more rounds) between a person at `human_seat` and bots.

    Args:
        bots: one spec per seat, None at the person's seat (see `build_bot`).
        human_seat: the seat the person plays.
        seed: the match seed: deal ``r`` comes from ``SeedSequence(seed).spawn(rounds)[r]``
            (as in `play_match`), bot ``i``'s generator from ``SeedSequence(seed).spawn(n + 1)``.
        rounds: rounds in the match (1 for a single round).
        rules: the rule set.
        names: a display name per seat (default ``"Seat 0 (you)"``, ``"Bot 1"``, ...).

    Phases: ``"human"`` (the person is to act), ``"bot"``, ``"failed"`` (a bot raised),
    ``"round_over"`` (a match continues with `next_round`), ``"match_over"``.
    """

    def __init__(
        self,
        bots: Sequence[BotSpec | None],
        *,
        human_seat: int = 0,
        seed: int = 0,
        rounds: int = 1,
        rules: Rules | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        self.rules = check_rules(rules)
        n = len(bots)
        self.human_seat = check_seat(human_seat, n, "human_seat")
        if bots[self.human_seat] is not None:
            raise ValueError(f"bots: the person's seat {self.human_seat} must hold None")
        self.rounds = check_int(rounds, "rounds", low=1, high=20)
        checked = check_seed(seed)
        if not isinstance(checked, int | np.integer) or not 0 <= checked <= MAX_TABLE_SEED:
            msg = _("seed must be a whole number from 0 to {high}; got {seed}")
            raise ValueError(msg.format(high=MAX_TABLE_SEED, seed=seed))
        self.seed = int(checked)
        self.specs = list(bots)
        bot_seeds = np.random.SeedSequence(self.seed).spawn(n + 1)[1:]
        self.policies: list[Any] = [
            None if i == self.human_seat else build_bot(s, seed=bot_seeds[i])
            for i, s in enumerate(self.specs)
        ]
        self.names = list(names) if names is not None else self.default_names(n, self.human_seat)
        if len(self.names) != n:
            raise ValueError(f"names must hold one name per seat ({n}); got {len(self.names)}")
        self.labels = ["you" if s is None else display_label(s) for s in self.specs]
        self._deal_seeds = np.random.SeedSequence(self.seed).spawn(self.rounds)
        self.results: list[GameResult] = []
        self.failed: str | None = None
        self.failure: PolicyError | None = None
        self._round_index = 0
        self.game = self._deal(0)

    @staticmethod
    def default_names(n: int, human_seat: int) -> list[str]:
        """``"Seat i (you)"`` for the person, ``"Bot i"`` for the others."""
        return [
            _("Seat {i} (you)").format(i=i) if i == human_seat else _("Bot {i}").format(i=i)
            for i in range(n)
        ]

    # ----------------------------------------------------------------- state
    @property
    def n_players(self) -> int:
        """Seats at the table."""
        return len(self.specs)

    @property
    def view(self) -> PlayerView:
        """The person's `PlayerView` of the round on the table."""
        return self.game.view(self.human_seat)

    @property
    def phase(self) -> str:
        """Who may act now (see the class docstring)."""
        if self.game.is_over:
            return "match_over" if len(self.results) >= self.rounds else "round_over"
        if self.failed is not None:
            return "failed"
        return "human" if self.game.current_player == self.human_seat else "bot"

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None once the round is over or a bot failed."""
        return self.game.current_player if self.phase in ("human", "bot") else None

    @property
    def round_number(self) -> int:
        """1-based number of the round on the table."""
        return self._round_index + 1

    @property
    def is_match(self) -> bool:
        """Whether this session plays more than one round."""
        return self.rounds > 1

    def last_moves(self) -> list[Event | None]:
        """Each seat's latest move in the current round (None before its first)."""
        out: list[Event | None] = [None] * self.n_players
        for e in self.game.history:
            out[e.seat] = e
        return out

    def log_lines(self) -> list[str]:
        """The round's moves in words, oldest first."""
        return [e.describe(self.names) for e in self.game.history]

    def match_result(self) -> MatchResult | None:
        """The rounds finished so far as a `MatchResult` (None before the first one ends)."""
        if not self.results:
            return None
        scores = np.array([r.scores for r in self.results], dtype=np.int64)
        return MatchResult(round_scores=scores, games=tuple(self.results))

    # ----------------------------------------------------------------- moves
    def play(self, action: Action) -> Event:
        """The person's move; `IllegalActionError` (nothing changes) when it is not theirs."""
        phase = self.phase
        if phase != "human":
            raise IllegalActionError(
                {
                    "bot": "it is not your turn yet",
                    "failed": f"{self.failed} failed; start a new game",
                    "round_over": "the round is over",
                    "match_over": "the match is over",
                }[phase]
            )
        self.game.step(action)
        return self._after_move()

    def bot_step(self) -> Event | None:
        """One bot move; None if no bot is to act. A failing bot stops the round (`failed`)."""
        if self.phase != "bot":
            return None
        game = self.game
        seat = game.current_player
        try:
            action = ask(self.policies[seat], game.view(seat), game.legal_actions())
        except PolicyError as exc:
            self.failed = f"{self.names[seat]} ({policy_name(self.policies[seat])})"
            self.failure = exc
            raise
        game.step(action)
        return self._after_move()

    def run_bots(self) -> list[Event]:
        """Bot moves until the person is to act or the round ends."""
        moved = []
        while self.phase == "bot":
            event = self.bot_step()
            assert event is not None
            moved.append(event)
        return moved

    def play_out(self, policy: Any) -> list[Event]:
        """Finish the round, the person's seat played by `policy` (a lesson's stand-in).

        >>> s = TableSession([None, "marginal", "marginal"], seed=2)
        >>> from nothanks_lab.bots import MarginalCostBot
        >>> moves = s.play_out(MarginalCostBot(6))
        >>> s.phase, len(moves) == len(s.game.history)
        ('match_over', True)
        """
        moved: list[Event] = []
        while self.phase in ("human", "bot"):
            if self.phase == "human":
                moved.append(self.play(ask(policy, self.view, self.game.legal_actions())))
            else:
                moved += self.run_bots()
        return moved

    def _after_move(self) -> Event:
        if self.game.is_over and len(self.results) == self._round_index:
            self.results.append(GameResult.of(self.game))
        return self.game.history[-1]

    # ----------------------------------------------------------------- rounds
    def _deal(self, r: int) -> Game:
        n = self.n_players
        return Game(
            n, rules=self.rules, seed=np.random.default_rng(self._deal_seeds[r]), first_player=r % n
        )

    def next_round(self) -> Game:
        """Deal the next round of the match (it starts one seat further on)."""
        if self.phase != "round_over":
            raise IllegalActionError(
                "there is no next round to deal: "
                + ("the match is over" if self.phase == "match_over" else "finish this round first")
            )
        self._round_index = len(self.results)
        self.failed = self.failure = None
        self.game = self._deal(self._round_index)
        return self.game

    def play_again(self, seed: int | None = None) -> TableSession:
        """A new session with the same seats and bots and seed ``seed`` (default: this + 1)."""
        seed = (self.seed + 1) % (MAX_TABLE_SEED + 1) if seed is None else seed
        return TableSession(
            self.specs,
            human_seat=self.human_seat,
            seed=seed,
            rounds=self.rounds,
            rules=self.rules,
            names=self.names,
        )

    # ----------------------------------------------------------------- hints
    def rollout_field(self) -> tuple[list[Any], list[str]]:
        """Per-seat policies hints roll out with, and for each bot seat what it stands for.

        A bot with a compiled decision is used as it is; a bot without one (a search bot such
        as ``best``, or a custom policy) would be too slow to play thousands of rounds, so
        `analysis.advice_policy()` stands in for it and the description says so.
        """
        from .analysis import ADVICE_BOT, rollout_field

        field = rollout_field(self.policies)
        stand_in = ADVICE_BOT
        words: list[str] = []
        for i, p in enumerate(self.policies):
            if p is None:
                continue
            if field[i] is p:
                words.append(
                    _("{name} as itself ({bot})").format(name=self.names[i], bot=self.labels[i])
                )
            else:
                words.append(
                    _("{name} ({bot}) played by {stand_in}").format(
                        name=self.names[i], bot=self.labels[i], stand_in=stand_in
                    )
                )
        return field, words

    # ----------------------------------------------------------------- after a round
    @property
    def human_decisions(self) -> int:
        """The person's moves so far in the round on the table (what a review looks at)."""
        return sum(e.seat == self.human_seat for e in self.game.history)

    def review(
        self,
        *,
        n: int | None = None,
        seed: Any = None,
        progress: Callable[[int, int], object] | None = None,
    ) -> Review:
        """The review of the person's decisions in the round on the table (`nt.review`).

        The rollouts model the bots at the table as the hints do (`rollout_field`). `seed`
        defaults to one derived from the round itself, so the same round always gets the same
        review, also once saved and loaded. `progress(done, total)` follows the decisions.
        """
        from .analysis.labels import DEFAULT_ROLLOUTS
        from .review import review

        return review(
            self.game,
            self.human_seat,
            seed=seed,
            field=self.rollout_field()[0],
            n=DEFAULT_ROLLOUTS if n is None else n,
            name=self.names[self.human_seat],
            progress=progress,
        )

    def replay(self, review: Review | None = None) -> RoundReplay:
        """The round on the table, step by step (with `review`'s labels on the person's moves)."""
        return RoundReplay(self.game, self.names, seat=self.human_seat, review=review)

    def round_json(self) -> str:
        """The round on the table as a round document (`Game.to_json`) with names and bots.

        A custom policy has no registry spec to write; then only the names are saved.
        """
        try:
            return self.game.to_json(names=self.names, bots=self.policies)
        except ValueError:
            return self.game.to_json(names=self.names)

    def file_name(self) -> str:
        """A file name for the round on the table: ``nothanks-seed5-round1.json``."""
        return f"nothanks-seed{self.seed}-round{self.round_number}.json"


def public_deck(game: Game) -> list[int]:
    """A deck that turns `game`'s seen cards in the order they were turned.

    The cards in the history in order of first appearance, then the face-up card, then any
    unseen cards (nobody's knowledge: no view shows them). Replaying the history on it gives
    the same views as `game` at every step.
    """
    order = list(dict.fromkeys(e.card for e in game.history))
    if game.active_card is not None and game.active_card not in order:
        order.append(game.active_card)
    seen = set(order)
    rest = [c for c in game.rules.cards if c not in seen]
    return (order + rest)[: game.rules.n_in_play]


class RoundReplay:
    """A round step by step: the table as it was after each move, for a replay stepper.

    Step 0 is the deal (nobody has moved yet); step ``k`` is the table after the round's first
    ``k`` moves; the last step, `n_steps`, is the position the round ended in (or stands at).
    Each step is the round's public history replayed through the engine on `public_deck`, so a
    round loaded from a file replays like the one on the table. With a `review` of `seat`, the
    steps the seat's moves lead to carry that move's label.

    >>> g = Game(3, deck=range(3, 27))
    >>> g.step(Action.PASS); g.step(Action.TAKE)
    >>> r = RoundReplay(g)
    >>> r.n_steps, r.view_at(0).chips, r.view_at(2).hands[1]
    (2, (11, 11, 11), (3,))
    >>> r.caption(1)
    'Move 1 of 2: Seat 0 says No thanks! on 3 (pot 0)'
    """

    def __init__(
        self,
        game: Game,
        names: Sequence[str] | None = None,
        *,
        seat: int = 0,
        review: Review | None = None,
    ) -> None:
        if not isinstance(game, Game):
            raise ValueError(f"game must be a nothanks_lab.Game; got {type(game).__name__}")
        self.n_players = game.n_players
        self.seat = check_seat(seat, self.n_players, "seat")
        self.names = (
            list(names)
            if names is not None
            else [_("Seat {i}").format(i=i) for i in range(self.n_players)]
        )
        if len(self.names) != self.n_players:
            raise ValueError(
                f"names must hold one name per seat ({self.n_players}); got {len(self.names)}"
            )
        if review is not None and review.seat != self.seat:
            raise ValueError(f"review is of seat {review.seat}, but the replay shows seat {seat}")
        self.review = review
        self.rules = game.rules
        self.history = game.history
        self.is_over = game.is_over
        replay = Game(
            self.n_players, rules=game.rules, deck=public_deck(game), first_player=game.first_player
        )
        self._games = [replay.copy()]
        for e in self.history:
            replay.step(e.action)
            self._games.append(replay.copy())
        self._reviewed = {} if review is None else {m.index + 1: m for m in review.moves}

    @property
    def n_steps(self) -> int:
        """The last step (the number of moves in the round)."""
        return len(self.history)

    def check_step(self, step: object) -> int:
        """`step` as an int, or `ValueError` unless it is 0..`n_steps`."""
        return check_int(step, "step", low=0, high=self.n_steps)

    def game_at(self, step: int) -> Game:
        """The round after its first `step` moves (a copy: stepping it changes nothing here)."""
        return self._games[self.check_step(step)].copy()

    def view_at(self, step: int) -> PlayerView:
        """What `seat` saw after the first `step` moves."""
        return self._games[self.check_step(step)].view(self.seat)

    def event_at(self, step: int) -> Event | None:
        """The move that led to `step` (None at step 0, the deal)."""
        step = self.check_step(step)
        return self.history[step - 1] if step else None

    def to_act_at(self, step: int) -> int | None:
        """The seat to act at `step` (None once the round is over)."""
        g = self._games[self.check_step(step)]
        return None if g.is_over else g.current_player

    def last_moves_at(self, step: int) -> list[Event | None]:
        """Each seat's latest move among the first `step` moves (None before its first)."""
        out: list[Event | None] = [None] * self.n_players
        for e in self.history[: self.check_step(step)]:
            out[e.seat] = e
        return out

    def move_review_at(self, step: int) -> MoveReview | None:
        """The reviewed move that led to `step` (None if it was not a reviewed seat's move)."""
        return self._reviewed.get(self.check_step(step))

    def with_review(self, review: Review) -> RoundReplay:
        """The same round with `review`'s labels on the reviewed seat's moves."""
        return RoundReplay(self._games[-1], self.names, seat=review.seat, review=review)

    def decision_steps(self) -> list[int]:
        """The steps the reviewed moves lead to, in order."""
        return sorted(self._reviewed)

    def caption(self, step: int) -> str:
        """What happened at `step`, in words."""
        event = self.event_at(step)
        if event is None:
            return _("The deal: nobody has moved yet ({n} moves follow)").format(n=self.n_steps)
        return _("Move {step} of {n}: {move}").format(
            step=step, n=self.n_steps, move=event.describe(self.names)
        )

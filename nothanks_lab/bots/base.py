"""What a bot is: the policy protocol, declared parameters, and the registry behind `make_bot`.

A policy is any object with ``act(view) -> Action``. The bots of this package also declare
their parameters (`Param`: name, default, range, one-line meaning) so that notebooks and
widgets can build sliders from them, validate them at construction (`ValueError` naming the
parameter and its allowed range), and explain a decision (`explain(view)`) for the play UI's
hints. A bot that needs randomness owns a `numpy.random.Generator` seeded at construction.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

import numpy as np

from ..engine import Action
from ..i18n import _
from ..rules import Rules
from ..validate import check_seed, is_int, make_rng, short_repr
from ..view import PlayerView

__all__ = [
    "Bot",
    "FastBot",
    "FastPathError",
    "Param",
    "Policy",
    "SlowPathWarning",
    "TupleArrays",
    "available_bots",
    "bot_class",
    "decision_args",
    "make_bot",
    "register",
]


@runtime_checkable
class Policy(Protocol):
    """Anything that chooses a move from what its seat may know."""

    def act(self, view: PlayerView) -> Action:
        """Choose a legal move for ``view.seat``."""
        ...


#: How a weight's doc begins: ``weight of: <the feature's meaning>`` (`Param.help`).
WEIGHT_OF = "weight of: "


@dataclass(frozen=True)
class Param:
    """A declared, tunable bot parameter."""

    name: str
    """Keyword argument of the bot's constructor."""
    default: float | int | bool
    """Value used when the parameter is not given."""
    low: float | int | bool
    """Smallest allowed value (for a slider's left end)."""
    high: float | int | bool
    """Largest allowed value (for a slider's right end)."""
    doc: str
    """One line on what it changes."""
    kind: type = float
    """`int`, `float` or `bool`."""

    @property
    def help(self) -> str:
        """`doc` in the language in use, for a person (the ``bots`` command, a slider's tooltip).

        A linear bot's weight reads ``weight of: <feature>`` (`WEIGHT_OF`): both parts are
        translated.
        """
        if self.doc.startswith(WEIGHT_OF):
            feature = _(self.doc.removeprefix(WEIGHT_OF))
            return _("weight of: {feature}").format(feature=feature)
        return _(self.doc)

    def check(self, value: Any, owner: str) -> Any:
        """Return `value` converted to `kind`, or raise `ValueError` naming the allowed range.

        The message names the bot (`owner`), the parameter, its type and its range; NaN and
        infinities are refused like any other value outside the range.
        """
        if self.kind is bool:
            if not isinstance(value, bool | np.bool_):
                raise ValueError(f"{owner}: {self.name} must be True or False; got {value!r}")
            return bool(value)
        kind = "a whole number (int)" if self.kind is int else "a number"
        if isinstance(value, bool | np.bool_) or not isinstance(
            value, int | float | np.integer | np.floating
        ):
            raise ValueError(
                f"{owner}: {self.name} must be {kind} in [{self.low}, {self.high}]; got {value!r}"
            )
        if not math.isfinite(value) or not (self.low <= value <= self.high):
            raise ValueError(
                f"{owner}: {self.name}={value!r} is outside its allowed range "
                f"[{self.low}, {self.high}] ({self.doc})"
            )
        if self.kind is int and int(value) != value:
            raise ValueError(
                f"{owner}: {self.name} must be {kind} in [{self.low}, {self.high}]; got {value!r}"
            )
        return self.kind(value)


class Bot:
    """Base of the package's bots: declared parameters, validation, a readable repr.

    Subclasses list their parameters in `PARAMS` and implement `act`; they read their
    (validated) parameters as attributes of the same name.
    """

    PARAMS: ClassVar[tuple[Param, ...]] = ()
    #: Name in the registry (set by `register`).
    registry_name: ClassVar[str] = ""

    def __init__(self, **params: Any) -> None:
        owner = type(self).__name__
        if "seed" in params:
            # A bot without randomness takes seed= too (callers may seed every bot alike), but
            # only a seed the package's one seed rule accepts; it uses none.
            check_seed(params.pop("seed"), "seed", owner=owner)
        known = {p.name: p for p in self.PARAMS}
        unknown = sorted(set(params) - set(known))
        if unknown:
            allowed = ", ".join(known) or "none"
            raise ValueError(f"{owner} has no parameter {', '.join(unknown)}; allowed: {allowed}")
        values = {n: p.check(params.get(n, p.default), owner) for n, p in known.items()}
        for n, v in values.items():
            setattr(self, n, v)
        self._params = values

    @property
    def params(self) -> dict[str, Any]:
        """The bot's parameter values."""
        return dict(self._params)

    @property
    def name(self) -> str:
        """Short name with parameters, for tables and logs."""
        inner = ", ".join(
            f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in self._params.items()
        )
        return f"{type(self).__name__}({inner})"

    def act(self, view: PlayerView) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def explain(self, view: PlayerView) -> dict[str, Any]:
        """The numbers behind the decision in `view` (subclasses add their own)."""
        return {"action": self.act(view)}

    def __repr__(self) -> str:
        return self.name


class FastPathError(ValueError):
    """A bot's ``FAST_DECIDE`` cannot be compiled by numba (the message names the bot and why)."""


class SlowPathWarning(UserWarning):
    """A table plays through the one-game engine, far slower than the compiled path."""


class FastBot(Bot):
    """A bot whose decision is one pure function, ``FAST_DECIDE``, shared with the simulator.

    Subclasses declare `PARAMS` and set ``FAST_DECIDE``, a numba-compilable function
    ``(params, card, pot, seat, hands, chips, cards_left) -> bool`` (True = take; see
    `decision_args` for the arguments), which may assume passing is allowed. ``fast_params``
    gives its ``params`` array: by default the declared parameters in `PARAMS` order, as
    float64; override it (``fast_params(self, rules=None)``) to pass anything else, such as
    constants of the rule set. `act` runs that function on the view's public facts, exactly
    what the simulator's compiled kernel runs, so the two cannot drift apart (it asks
    ``fast_params`` once per rule set until an attribute of the bot is set, and shares
    read-only arrays between decisions, as the kernel does). A decision
    function numba cannot compile makes ``simulate(..., fast=True)`` raise `FastPathError`
    (and plain ``simulate`` fall back to the engine with a `SlowPathWarning`).
    """

    FAST_DECIDE: ClassVar[Callable[..., bool]]
    #: Whether ``FAST_DECIDE`` may wrap integers on purpose (a hash, say): then `act` runs it
    #: under ``np.errstate(over="ignore")``, silent as compiled code is. A bot whose decision
    #: never overflows sets False and saves about a microsecond a decision (an overflow would
    #: then warn; the answer is the same either way).
    FAST_DECIDE_WRAPS: ClassVar[bool] = True

    def fast_params(self, rules: Rules | None = None) -> np.ndarray:
        """float64[K]: the ``params`` of ``FAST_DECIDE`` (default: `PARAMS` values in order)."""
        return np.array([float(self._params[p.name]) for p in self.PARAMS], dtype=np.float64)

    def act(self, view: PlayerView) -> Action:
        if not isinstance(view, PlayerView):
            raise TypeError(
                f"{type(self).__name__}.act needs a nothanks_lab.PlayerView (game.view(seat)); "
                f"got {type(view).__name__}"
            )
        if not view.can_pass:
            return Action.TAKE
        decide = getattr(type(self), "FAST_DECIDE", None)
        if not callable(decide):
            raise TypeError(
                f"{type(self).__name__} is a FastBot without FAST_DECIDE: set "
                "FAST_DECIDE = staticmethod(your_decide_function), or override act"
            )
        if self.FAST_DECIDE_WRAPS:
            quiet = _QUIET.get(decide)
            if quiet is None:
                # Compiled code wraps integers silently; the same function in Python does too.
                # The decorator form of errstate, built once per function, costs a third of a
                # `with np.errstate(...)` block per call.
                quiet = _QUIET[decide] = np.errstate(over="ignore")(decide)
            decide = quiet
        rules = view.rules
        params = self.__dict__.get("_fast_params_of")
        if params is None or params[0] is not rules:
            # A read-only copy, kept until an attribute of the bot is set (`__setattr__`).
            array = np.array(self.fast_params(rules))
            array.flags.writeable = False
            params = (rules, array)
            object.__setattr__(self, "_fast_params_of", params)
        return Action.TAKE if decide(params[1], *_decision_args(view, _shared)) else Action.PASS

    def __setattr__(self, name: str, value: Any) -> None:
        # Any change to the bot may change its `fast_params`: `act` computes them anew.
        self.__dict__.pop("_fast_params_of", None)
        object.__setattr__(self, name, value)


#: Each ``FAST_DECIDE`` run by `FastBot.act`, wrapped once in ``np.errstate(over="ignore")``.
_QUIET: dict[Callable[..., bool], Callable[..., bool]] = {}


class RandomizedBot(Bot):
    """A bot that owns a seeded `numpy.random.Generator` (never the global one)."""

    def __init__(
        self,
        *,
        seed: int | np.random.Generator | np.random.SeedSequence | None = None,
        **params: Any,
    ) -> None:
        self.rng = make_rng(seed, "seed", owner=type(self).__name__)
        super().__init__(**params)
        self.seed = seed

    @property
    def name(self) -> str:
        """Short name with parameters and, when it has a whole-number seed, that seed."""
        base = super().name
        if not is_int(self.seed):
            return base
        sep = "" if base.endswith("()") else ", "
        return f"{base[:-1]}{sep}seed={int(self.seed)})"

    def with_seed(self, seed: int) -> RandomizedBot:
        """A copy of this bot drawing from a generator seeded by `seed` (this bot untouched).

        A run seeds each unseeded randomized bot of its field this way, from the run's seed
        and the bot's place, so the same run seed gives the same play however it is split.
        """
        seed = check_seed(seed, "seed", owner=type(self).__name__)  # type: ignore[assignment]
        twin = copy.deepcopy(self)
        twin.rng = make_rng(seed)
        twin.seed = seed
        twin._seeded()
        return twin

    def _seeded(self) -> None:
        """Redraw whatever the bot drew from its generator at construction (after `with_seed`)."""


def seed_field(policies: Sequence[Any], seed: int) -> tuple[Any, ...]:
    """The field with every unseeded randomized bot replaced by a copy seeded from the run.

    Bot ``i``'s seed is a 32-bit draw of ``SeedSequence(seed, spawn_key=(i,))``: fixed by the
    run's seed and the bot's place, never by when or where it was built, so the same seed gives
    identical results whatever the workers or chunk size. A bot given its own seed is kept.
    """
    out = []
    for i, p in enumerate(policies):
        if isinstance(p, RandomizedBot) and p.seed is None:
            own = np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(1)[0]
            p = p.with_seed(int(own))
        out.append(p)
    return tuple(out)


def decision_args(view: PlayerView) -> tuple[int, int, int, np.ndarray, np.ndarray, int]:
    """Public facts of `view` in the form the shared decision functions take.

    ``(card, pot, seat, hands int64[P] bit masks, chips int64[P], cards_left)``: the same
    arguments the simulator's compiled kernel passes from its state, so a bot's ``act`` and
    its fast path run one decision function. The arrays are new ones, the caller's to change.
    """
    return _decision_args(view, _fresh)


def _fresh(values: tuple[int, ...]) -> np.ndarray:
    return np.array(values, dtype=np.int64)


class TupleArrays:
    """int64 arrays of the chip and hand-mask tuples of views, by value: a view's arrays are
    shared with every view holding the same counts (the cache is emptied when full).
    ``writeable=False`` makes them read-only, for code that could write to them."""

    def __init__(self, *, writeable: bool, limit: int = 20_000) -> None:
        self.writeable, self.limit = writeable, limit
        self._arrays: dict[tuple[int, ...], np.ndarray] = {}

    def __call__(self, values: tuple[int, ...]) -> np.ndarray:
        arrays = self._arrays
        array = arrays.get(values)
        if array is None:
            if len(arrays) >= self.limit:
                arrays.clear()
            array = arrays[values] = np.array(values, dtype=np.int64)
            array.flags.writeable = self.writeable
        return array


#: The arrays `FastBot.act` hands a bot's decision function (read-only: its code may be a
#: user's, and one view's arrays are every such view's).
_shared = TupleArrays(writeable=False)


def _decision_args(
    view: PlayerView, array: Callable[[tuple[int, ...]], np.ndarray]
) -> tuple[int, int, int, np.ndarray, np.ndarray, int]:
    """`decision_args`, with the arrays made by `array` from the view's tuples."""
    return (
        int(view.active_card),  # type: ignore[arg-type]
        view.pot,
        view.seat,
        array(view.hand_masks),
        array(view.chips),
        view.cards_left,
    )


_REGISTRY: dict[str, Callable[..., Any]] = {}
B = TypeVar("B", bound=type)


def register(name: str) -> Callable[[B], B]:
    """Class decorator: make a bot buildable as ``make_bot(name, **params)``."""

    def deco(cls: B) -> B:
        old = _REGISTRY.get(name)
        if old is not None and getattr(old, "__qualname__", None) != cls.__qualname__:
            raise ValueError(f"a bot named {name!r} is already registered")
        _REGISTRY[name] = cls
        cls.registry_name = name  # type: ignore[attr-defined]
        return cls

    return deco


def available_bots() -> tuple[str, ...]:
    """Names `make_bot` accepts."""
    return tuple(sorted(_REGISTRY))


def bot_class(name: str) -> Callable[..., Any]:
    """The class or factory registered under `name`."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown bot {short_repr(name)}; available: {', '.join(available_bots())}"
        ) from None


def make_bot(name: str, **params: Any) -> Policy:
    """Build a registered bot by name.

    Parameters
    ----------
    name : str
        A registered name (``nothanks-lab bots`` lists them): ``"marginal"``, ``"heuristic"``,
        ``"linear"``, ``"random"``, ``"best"`` (the strongest bot within 50 ms a decision), ...
    **params
        The bot's parameters by name, checked against its declared ranges.

    Returns
    -------
    Policy
        A new bot.

    Raises
    ------
    ValueError
        For an unknown name, or a parameter the bot lacks or outside its range.

    >>> make_bot("marginal", threshold=4)
    MarginalCostBot(threshold=4)
    """
    factory = bot_class(name)
    try:
        bot: Policy = factory(**params)
        return bot
    except TypeError as e:
        # A factory or constructor given an argument it lacks: say which bot, as ValueError.
        raise ValueError(f"make_bot({name!r}): {e}") from e


def params_of(bot_or_name: Any) -> Mapping[str, Param]:
    """Declared parameters of a bot, its class, or a registered name."""
    target = bot_class(bot_or_name) if isinstance(bot_or_name, str) else bot_or_name
    return {p.name: p for p in getattr(target, "PARAMS", ())}

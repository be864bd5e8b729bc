"""`tune`: a candidate's parameters tuned with ``scipy.optimize`` on common random numbers."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..bots.specs import make_policy
from ..i18n import _
from ..parallel import open_executor
from ..render.tables import html_sections
from ..rules import Rules
from ..stats import fmt_number
from ..validate import (
    MAX_EVALS,
    MAX_GAMES,
    MAX_TUNED_PARAMS,
    check_bool,
    check_count,
    check_players,
    check_product,
    check_rules,
    is_int,
    keyword_only_after,
)
from .frames import _estimates, _frame
from .result import TournamentResult
from .run import _check_seed, _chunk_size, _Plan
from .sweep import _candidate_factory
from .tournament import _opponent_field, head_to_head


@dataclass(frozen=True, eq=False)
class TuneResult:
    """The best parameters found, the evaluations made, and a check on fresh deals."""

    best_params: dict[str, Any]
    """Parameters with the best objective on the tuning deals."""
    best: TournamentResult
    """Head-to-head result at `best_params` on the tuning deals (optimistic: it was picked)."""
    validation: TournamentResult | None
    """Head-to-head result at `best_params` on independent deals (an honest estimate)."""
    history: tuple[dict[str, Any], ...]
    """Every evaluation in order: parameters, win share and mean score with intervals."""
    method: str
    """The scipy.optimize method used."""
    metric: str
    """``"win_share"`` (maximized) or ``"mean_score"`` (minimized)."""

    def to_records(self) -> list[dict[str, Any]]:
        """The evaluations as a tidy table (one dict per distinct parameter set tried).

        Column ``best`` marks the chosen parameters; on that row the ``fresh_*`` columns give
        the check on independent deals (None elsewhere, or when there was no validation).
        """
        cand = None
        if self.validation is not None:
            first = self.validation.names[0]
            cand = next((r for r in self.validation.to_records() if r["bot"] == first), None)
        rows = []
        for h in self.history:
            best = all(h.get(k) == v for k, v in self.best_params.items())
            row = {**h, "best": best}
            for key in ("win_share", "win_share_low", "win_share_high", "mean_score"):
                row[f"fresh_{key}"] = cand[key] if best and cand is not None else None
            rows.append(row)
        return rows

    def to_document(self) -> dict[str, Any]:
        """Everything as one JSON-ready dict: best parameters, both checks, the history."""
        cand = self.best.to_records()
        fresh = self.validation.to_records() if self.validation is not None else None
        return {
            "best_params": dict(self.best_params),
            "metric": self.metric,
            "method": self.method,
            "tuning_deals": cand,
            "fresh_deals": fresh,
            "history": [dict(h) for h in self.history],
        }

    def to_frame(self) -> Any:
        """The evaluations as a pandas DataFrame (needs pandas, which is optional)."""
        return _frame(self.to_records())

    def __str__(self) -> str:
        params = ", ".join(
            f"{k}={fmt_number(v, 'g')}" if isinstance(v, float) else f"{k}={v}"
            for k, v in self.best_params.items()
        )
        lines = [
            _("Tuned ({method}, {n} evaluations, {metric}): {params}").format(
                method=self.method, n=len(self.history), metric=self.metric, params=params
            ),
            _("on the tuning deals:"),
            str(self.best),
        ]
        if self.validation is not None:
            lines += [_("on fresh deals:"), str(self.validation)]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        sections = [(_("on the tuning deals:"), self.best._repr_html_())]
        if self.validation is not None:
            sections.append((_("on fresh deals:"), self.validation._repr_html_()))
        return html_sections(str(self).splitlines()[0], sections)

    def __repr__(self) -> str:
        return f"TuneResult(best_params={self.best_params!r}, method={self.method!r})"


@keyword_only_after(5, "seed")  # by position: one release more, with a warning
def tune(
    make_candidate: Any,
    bounds: Mapping[str, tuple[float, float]],
    opponents: Any,
    n_players: int,
    n_games: int = 1_000,
    *,
    seed: int | None = None,
    method: str | None = None,
    max_evals: int = 30,
    metric: str = "win_share",
    integer: Iterable[str] | None = None,
    validate: bool = True,
    executor: Any = None,
    workers: int | None = None,
    rules: Rules | None = None,
    first_player: int = 0,
    chunk_size: int | None = None,
    progress: bool | None = None,
    confidence: float = 0.95,
) -> TuneResult:
    """Tune a candidate's parameters against opponents with ``scipy.optimize``.

    Every evaluation is a `head_to_head` on the same deals (common random numbers), so
    differences between trial parameters are not drowned by the luck of the cards.

    Args:
        make_candidate: a registered bot name or ``callable(**params)`` returning a policy.
        bounds: parameter name -> (low, high) search range.
        opponents: one opponent (copies fill the other seats) or a list of P-1.
        n_players: seats at the table.
        n_games: deals per evaluation.
        seed: seed of the tuning deals (None: fresh entropy).
        method: for one parameter ``"grid-bounded"`` (the default: a coarse grid, then
            ``minimize_scalar`` between the best point's neighbours) or ``"bounded"``
            (``minimize_scalar`` alone); for any number ``"differential-evolution"`` (the
            default for several; seeded) or ``"nelder-mead"`` (local, from the middle).
        max_evals: budget of distinct evaluations (approximately, for differential evolution);
            at most `MAX_EVALS` (10,000), and ``max_evals x n_games`` at most `MAX_GAMES`.
        metric: ``"win_share"`` (maximized) or ``"mean_score"`` (minimized).
        integer: parameters searched over whole numbers (default: those whose bounds are
            both ints, and those the bot declares as int).
        validate: also play the best parameters on independent deals (reported apart,
            since the best of many noisy evaluations is optimistic).

    Other arguments are those of `tournament`.

    >>> t = tune("marginal", {"threshold": (-20, 20)}, "marginal:threshold=10", 3, 100,
    ...          seed=1, max_evals=8, validate=False)
    >>> -20 <= t.best_params["threshold"] <= 20, len(t.history) <= 8
    (True, True)
    """
    from scipy import optimize

    rules = check_rules(rules)
    n_players = check_players(n_players, rules)
    n_games = check_count(n_games, "n_games", MAX_GAMES)
    max_evals = check_count(max_evals, "max_evals", MAX_EVALS)
    check_product({"max_evals": max_evals, "n_games": n_games}, MAX_GAMES, "MAX_GAMES")
    validate = check_bool(validate, "validate")
    seed = _check_seed(seed)
    if metric not in ("win_share", "mean_score"):
        raise ValueError(f"metric must be 'win_share' or 'mean_score'; got {metric!r}")
    build = _candidate_factory(make_candidate)
    names, lows, highs = _check_bounds(bounds)
    ints = _integer_params(make_candidate, bounds, integer)
    method = method or ("grid-bounded" if len(names) == 1 else "differential-evolution")
    if method not in _METHODS:
        raise ValueError(f"method must be one of {', '.join(_METHODS)}; got {method!r}")
    if method in ("bounded", "grid-bounded") and len(names) != 1:
        raise ValueError(f"method {method!r} tunes one parameter; got {len(names)}: {names}")
    options: dict[str, Any] = {
        "rules": rules,
        "first_player": first_player,
        "chunk_size": chunk_size,
        "executor": executor,
        "workers": workers,
        "progress": False,
        "confidence": confidence,
    }
    cache: dict[tuple[Any, ...], TournamentResult] = {}
    history: list[dict[str, Any]] = []

    from tqdm.auto import tqdm

    bar = tqdm(
        total=max_evals, desc=_("tune"), disable=not (progress or progress is None), leave=False
    )

    def params_of_x(x: Sequence[float]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, v, lo, hi in zip(names, x, lows, highs, strict=True):
            v = float(np.clip(v, lo, hi))
            out[name] = round(v) if name in ints else v
        return out

    def evaluate(params: dict[str, Any]) -> TournamentResult:
        key = tuple(params.values())
        if key not in cache:
            if len(cache) >= max_evals:
                raise _BudgetSpent
            r = head_to_head(build(**params), opponents, n_players, n_games, seed=seed, **options)
            cache[key] = r
            history.append({**params, **_estimates(r)[0]})
            bar.update(1)
        return cache[key]

    def objective(x: Any) -> float:
        r = evaluate(params_of_x(np.atleast_1d(x).tolist()))
        return -float(r.win_share[0]) if metric == "win_share" else float(r.mean_score[0])

    # No more worker processes than one evaluation has chunks of work.
    probe = make_policy(
        build(**params_of_x([(lo + hi) / 2 for lo, hi in zip(lows, highs, strict=True)]))
    )
    ops, _field = _opponent_field(opponents, n_players)
    chunk = _chunk_size([_Plan((probe, *ops), ((0,),))], options.get("chunk_size"))
    with open_executor(executor, workers, n_tasks=-(-n_games // chunk)) as ex:
        options["executor"], options["workers"] = ex, None
        try:
            _optimize(optimize, method, objective, names, lows, highs, ints, max_evals, seed)
        except _BudgetSpent:
            pass  # the optimizer wanted more evaluations than allowed: keep the best so far
        finally:
            bar.close()
        best_key = min(cache, key=lambda k: _objective_value(cache[k], metric))
        best_params = dict(zip(names, best_key, strict=True))
        validation = None
        if validate:
            fresh = int(np.random.SeedSequence([seed, 1]).generate_state(1, np.uint64)[0] >> 1)
            validation = head_to_head(
                build(**best_params), opponents, n_players, n_games, seed=fresh, **options
            )
    return TuneResult(best_params, cache[best_key], validation, tuple(history), method, metric)


_METHODS = ("grid-bounded", "bounded", "differential-evolution", "nelder-mead")


class _BudgetSpent(Exception):
    """Raised inside the objective to stop an optimizer at the evaluation budget."""


def _optimize(
    optimize: Any,
    method: str,
    objective: Callable[[Any], float],
    names: list[str],
    lows: list[float],
    highs: list[float],
    ints: set[str],
    max_evals: int,
    seed: int,
) -> None:
    """Run the chosen scipy.optimize method; the objective records every evaluation."""
    xatol = 0.5 if names[0] in ints else (highs[0] - lows[0]) * 1e-3
    if method == "bounded":
        optimize.minimize_scalar(
            objective,
            bounds=(lows[0], highs[0]),
            method="bounded",
            options={"maxiter": max_evals, "xatol": xatol},
        )
    elif method == "grid-bounded":
        # A win-share curve can have several peaks (a copy of the opponents is one), which
        # a bounded Brent search alone may miss: scan a coarse grid with half the budget,
        # then refine between the best point's neighbours.
        xs = np.linspace(lows[0], highs[0], max(3, max_evals // 2))
        values = [objective(x) for x in xs]
        i = int(np.argmin(values))
        lo, hi = xs[max(i - 1, 0)], xs[min(i + 1, len(xs) - 1)]
        if hi - lo > 2 * xatol:
            optimize.minimize_scalar(
                objective, bounds=(lo, hi), method="bounded", options={"xatol": xatol}
            )
    elif method == "nelder-mead":
        x0 = [(lo + hi) / 2 for lo, hi in zip(lows, highs, strict=True)]
        optimize.minimize(
            objective,
            x0,
            method="Nelder-Mead",
            bounds=list(zip(lows, highs, strict=True)),
            options={"maxfev": max_evals, "xatol": 0.5, "fatol": 1e-4},
        )
    else:
        popsize = 5
        optimize.differential_evolution(
            objective,
            list(zip(lows, highs, strict=True)),
            popsize=popsize,
            maxiter=max(1, max_evals // (popsize * len(names)) - 1),
            seed=seed,
            polish=False,
            integrality=[n in ints for n in names],
        )


def _objective_value(r: TournamentResult, metric: str) -> float:
    return -float(r.win_share[0]) if metric == "win_share" else float(r.mean_score[0])


def _check_bounds(
    bounds: Mapping[str, tuple[float, float]],
) -> tuple[list[str], list[float], list[float]]:
    if not isinstance(bounds, Mapping) or not bounds:
        raise ValueError("bounds must be a non-empty dict of parameter name -> (low, high)")
    if len(bounds) > MAX_TUNED_PARAMS:
        raise ValueError(
            f"bounds names {len(bounds)} parameters; at most {MAX_TUNED_PARAMS} (MAX_TUNED_PARAMS)"
        )
    names, lows, highs = [], [], []
    for name, b in bounds.items():
        try:
            lo, hi = (float(v) for v in b)
        except (TypeError, ValueError):
            raise ValueError(f"bounds[{name!r}] must be a (low, high) pair; got {b!r}") from None
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise ValueError(f"bounds[{name!r}] must be finite numbers; got {b!r}")
        if not lo < hi:
            raise ValueError(f"bounds[{name!r}] must have low < high; got {b!r}")
        names.append(name)
        lows.append(lo)
        highs.append(hi)
    return names, lows, highs


def _integer_params(
    make_candidate: Any, bounds: Mapping[str, Any], integer: Iterable[str] | None
) -> set[str]:
    if integer is not None:
        ints = set(integer)
        unknown = ints - set(bounds)
        if unknown:
            raise ValueError(f"integer names {sorted(unknown)} that are not in bounds")
        return ints
    from ..bots import params_of

    try:
        declared = params_of(make_candidate) if isinstance(make_candidate, str | type) else {}
    except ValueError:
        declared = {}
    # A declared parameter keeps its declared type (float bounds written as ints still search
    # floats); only an undeclared one is taken as whole-numbered from int bounds.
    ints = set()
    for name, b in bounds.items():
        kind = getattr(declared.get(name), "kind", None)
        if kind is int or (kind is None and all(is_int(v) for v in b)):
            ints.add(name)
    return ints

"""`sweep`: a candidate bot at every point of a parameter grid, all on the same deals."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..bots.specs import make_policy
from ..i18n import _, fmt_decimal, fmt_int, fmt_percent
from ..render.tables import html_table, text_table
from ..rules import Rules
from ..stats import fmt_number
from ..validate import MAX_EVALS, MAX_GAMES, MAX_TUNED_PARAMS, check_product, keyword_only_after
from .frames import _estimates, _frame
from .ratings import fmt_ci
from .result import TournamentResult
from .run import _check_setting, _Execution, _Plan
from .tournament import _opponent_field, _play_plans


def _candidate_factory(make_candidate: Any) -> Callable[..., Any]:
    if isinstance(make_candidate, str):
        from ..bots import make_bot

        name = make_candidate

        def build(**params: Any) -> Any:
            return make_bot(name, **params)

        return build
    if callable(make_candidate):
        return cast(Callable[..., Any], make_candidate)
    raise ValueError(
        f"make_candidate must be a registered bot name or a callable(**params) -> policy; "
        f"got {make_candidate!r}"
    )


def _grid_points(grid: Mapping[str, Sequence[Any]], n_games: int) -> list[dict[str, Any]]:
    """Every combination of the grid's values, refused before any is built when the grid has
    more than `MAX_EVALS` points or its points times `n_games` exceed `MAX_GAMES`."""
    if not isinstance(grid, Mapping) or not grid:
        raise ValueError("grid must be a non-empty dict of parameter name -> list of values")
    if len(grid) > MAX_TUNED_PARAMS:
        raise ValueError(
            f"grid names {len(grid)} parameters; at most {MAX_TUNED_PARAMS} (MAX_TUNED_PARAMS)"
        )
    lists: dict[str, list[Any]] = {}
    points = 1
    for name, values in grid.items():
        if isinstance(values, str) or not isinstance(values, Iterable):
            raise ValueError(f"grid[{name!r}] must be a non-empty list of values")
        given = list(itertools.islice(values, MAX_EVALS + 1))  # an endless iterator stops here
        if not given:
            raise ValueError(f"grid[{name!r}] must be a non-empty list of values")
        points *= len(given)
        if points > MAX_EVALS:
            raise ValueError(
                f"grid has more than {MAX_EVALS} points (MAX_EVALS, the product over its "
                f"parameters of their numbers of values); sweep a coarser grid"
            )
        twice = _repeated(given)
        if twice:
            raise ValueError(f"grid[{name!r}] must name each value once; {twice} repeat")
        lists[name] = given
    check_product({"grid points": points, "n_games": n_games}, MAX_GAMES, "MAX_GAMES")
    names = list(lists)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*lists.values())]


def _repeated(values: list[Any]) -> list[Any]:
    """The values equal to an earlier one, found by hashing (pairwise only for unhashables)."""
    try:
        seen: set[Any] = set()
        return [v for v in values if v in seen or seen.add(v)]  # type: ignore[func-returns-value]
    except TypeError:
        return [v for i, v in enumerate(values) if v in values[:i]]


@dataclass(frozen=True, eq=False)
class SweepResult:
    """A candidate's results at every grid point, all on the same deals."""

    points: tuple[dict[str, Any], ...]
    """Parameter values of each grid point."""
    results: tuple[TournamentResult, ...]
    """The head-to-head tournament at each grid point (candidate is bot 0)."""

    @property
    def win_share(self) -> np.ndarray:
        """float[points]: the candidate's win share at each grid point."""
        return np.array([r.win_share[0] for r in self.results])

    @property
    def mean_score(self) -> np.ndarray:
        """float[points]: the candidate's mean score at each grid point."""
        return np.array([r.mean_score[0] for r in self.results])

    def best(self, metric: str = "win_share") -> dict[str, Any]:
        """Parameters of the best grid point (highest win share, or lowest mean score)."""
        if metric == "win_share":
            return dict(self.points[int(np.argmax(self.win_share))])
        if metric == "mean_score":
            return dict(self.points[int(np.argmin(self.mean_score))])
        raise ValueError(f"metric must be 'win_share' or 'mean_score'; got {metric!r}")

    def to_records(self) -> list[dict[str, Any]]:
        """A tidy table: one dict per grid point with the candidate's numbers and intervals."""
        rows = []
        for point, r in zip(self.points, self.results, strict=True):
            rows.append(
                {
                    **point,
                    "candidate": r.names[0],
                    "games": int(r.games[0]),
                    "deals": r.n_deals,
                    "n_players": r.n_players,
                    **_estimates(r)[0],
                }
            )
        return rows

    def to_frame(self) -> Any:
        """The tidy table as a pandas DataFrame (needs pandas, which is optional)."""
        return _frame(self.to_records())

    def _rows(self) -> tuple[list[str], list[list[str]]]:
        names = list(self.points[0]) if self.points else []
        head = [*names, _("win share"), _("CI"), _("mean score"), _("CI")]
        rows = [
            [
                *(fmt_number(p[n], "g") if isinstance(p[n], float) else str(p[n]) for n in names),
                fmt_decimal(r["win_share"], 4),
                fmt_ci(r["win_share_low"], r["win_share_high"], 4),
                fmt_decimal(r["mean_score"], 2),
                fmt_ci(r["score_low"], r["score_high"], 2),
            ]
            for p, r in zip(self.points, self.to_records(), strict=True)
        ]
        return head, rows

    def _title(self) -> str:
        r = self.results[0]
        ops = ", ".join(sorted(set(r.names[1:])))
        return _(
            "Sweep: candidate vs {ops}; {players} players, {deals} deals per point x {seatings} "
            "seatings, seed {seed}, {pct} CI"
        ).format(
            ops=ops,
            players=r.n_players,
            deals=fmt_int(r.n_deals),
            seatings=r.seatings_per_deal,
            seed=r.seed,
            pct=fmt_percent(r.confidence),
        )

    def __str__(self) -> str:
        head, rows = self._rows()
        n = len(head) - 4
        return self._title() + "\n" + text_table(head, rows, right=set(range(n)) | {n, n + 2})

    def _repr_html_(self) -> str:
        head, rows = self._rows()
        return html_table(head, rows, caption=self._title(), css_class="nothanks-tournament")

    def __repr__(self) -> str:
        return f"SweepResult({len(self.points)} points)"


@keyword_only_after(5, "seed", "executor")  # by position: one release more
def sweep(
    make_candidate: Any,
    grid: Mapping[str, Sequence[Any]],
    opponents: Any,
    n_players: int,
    n_games: int = 1_000,
    *,
    seed: int | None = None,
    executor: Any = None,
    workers: int | None = None,
    rules: Rules | None = None,
    first_player: int = 0,
    chunk_size: int | None = None,
    progress: bool | None = None,
    confidence: float = 0.95,
) -> SweepResult:
    """Evaluate a candidate at every point of a parameter grid on the same deals.

    Args:
        make_candidate: a registered bot name (``"marginal"``) or ``callable(**params)``
            returning a policy.
        grid: parameter name -> values; every combination is a grid point.
        opponents: one opponent (copies fill the other P-1 seats) or a list of P-1.
        n_players: seats at the table.
        n_games: deals per grid point, the same deals at every point (common random
            numbers), each played with the candidate in every seat. The grid has at most
            `MAX_EVALS` (10,000) points, and points x `n_games` is at most `MAX_GAMES`
            (100,000,000), both refused before anything is played.
        seed: seed of the deal stream (None: fresh entropy, recorded in the results).
        executor: where to run (see `tournament`); all grid points share it.

    Other arguments are those of `tournament`.

    >>> s = sweep("marginal", {"threshold": [-40, 10]}, "marginal:threshold=10", 3, 100, seed=1)
    >>> s.best()
    {'threshold': 10}
    """
    setting = _check_setting(rules, n_players, n_games, first_player, confidence, seed)
    build = _candidate_factory(make_candidate)
    points = _grid_points(grid, setting.n_games)
    ops, positions = _opponent_field(opponents, setting.n_players)
    lineups = ((0, *positions),)
    plans = [_Plan((make_policy(build(**p)), *ops), lineups) for p in points]
    run = _Execution(chunk_size, executor, workers, progress)
    results = tuple(_play_plans(plans, setting, run, desc=_("sweep")))
    return SweepResult(tuple(points), results)

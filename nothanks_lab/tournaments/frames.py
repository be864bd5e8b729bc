"""The results as data: records as a pandas DataFrame, and JSON lists back to tuples.

Shared by the tournament, sweep and tuning results (their tables are laid out by
`nothanks_lab.render.tables`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .result import TournamentResult


def _tuples(value: Any) -> Any:
    """JSON lists back to the tuples a frozen dataclass holds."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _frame(records: list[dict[str, Any]]) -> Any:
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(
            "to_frame() needs pandas (pip install pandas); to_records() gives the same table "
            "as a list of dicts"
        ) from None
    return pd.DataFrame.from_records(records)


def _estimates(result: TournamentResult) -> list[dict[str, float]]:
    """Per bot of `result`, its win share and mean score with their interval ends: the columns
    a tournament's, a sweep's and a tuning's records share."""
    ws, wci = result.win_share, result.win_share_ci
    ms, sci = result.mean_score, result.score_ci
    return [
        {
            "win_share": float(ws[b]),
            "win_share_low": float(wci[b, 0]),
            "win_share_high": float(wci[b, 1]),
            "mean_score": float(ms[b]),
            "score_low": float(sci[b, 0]),
            "score_high": float(sci[b, 1]),
        }
        for b in range(len(result.names))
    ]

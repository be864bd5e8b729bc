"""The results as data: records as a pandas DataFrame, and JSON lists back to tuples.

Shared by the tournament, sweep and tuning results (their tables are laid out by
`nothanks_lab.render.tables`).
"""

from __future__ import annotations

from typing import Any


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

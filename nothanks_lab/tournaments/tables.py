"""Plain-text and HTML tables shared by the tournament, sweep and tuning results."""

from __future__ import annotations

import html
import math
from typing import Any


def _fmt_ci(low: float, high: float, digits: int) -> str:
    if math.isnan(low):
        return "n/a"
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def _text_table(head: list[str], rows: list[list[str]], right: set[int]) -> str:
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return "\n".join([line(head), line(["-" * w for w in widths]), *map(line, rows)])


def _html_table(title: str, head: list[str], rows: list[list[str]]) -> str:
    esc = html.escape
    th = "".join(f"<th>{esc(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    return (
        f'<table class="nothanks-tournament"><caption>{esc(title)}</caption>'
        f"<thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"
    )


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

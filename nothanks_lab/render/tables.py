"""Tables as text, markdown, CSV, JSON or HTML: pure string formatting of rows of strings.

Every table the package prints or displays (tournament, sweep, tuning and rating results, the
command line's ``--format`` output, the notebooks' panels) is laid out here, so a table looks
the same wherever it is shown. This module imports nothing from the package: it sits in the
lowest layer, below the engine objects whose ``__str__`` calls it (the rest of `render`, which
draws games and views, sits above them).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Collection, Mapping, Sequence
from html import escape
from typing import Any

__all__ = [
    "RECORD_FORMATS",
    "csv_table",
    "fmt_interval",
    "html_sections",
    "html_table",
    "markdown_table",
    "records_table",
    "text_table",
]

#: The formats `records_table` writes.
RECORD_FORMATS = ("text", "markdown", "csv", "json", "html")


def _check_widths(head: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    for i, row in enumerate(rows):
        if len(row) != len(head):
            raise ValueError(
                f"rows[{i}] has {len(row)} cells; every row must have one per column of head "
                f"({len(head)})"
            )


def text_table(
    head: Sequence[str], rows: Sequence[Sequence[str]], right: Collection[int] = ()
) -> str:
    """Aligned columns two spaces apart, a dashes line under the header; `right` right-aligns.

    >>> print(text_table(["bot", "wins"], [["a", "3"], ["long", "12"]], right={1}))
    bot   wins
    ----  ----
    a        3
    long    12
    """
    _check_widths(head, rows)
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return "\n".join([line(head), line(["-" * w for w in widths]), *map(line, rows)])


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub-flavoured markdown table (a ``|`` inside a cell is escaped).

    >>> print(markdown_table(["bot", "wins"], [["a", "3"]]))
    | bot | wins |
    |---|---|
    | a | 3 |
    """
    _check_widths(head, rows)
    lines = ["| " + " | ".join(map(_md_cell, head)) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(map(_md_cell, row)) + " |" for row in rows]
    return "\n".join(lines)


def html_table(
    head: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    caption: str = "",
    css_class: str = "nothanks-table",
) -> str:
    """A plain HTML table, every cell (and the caption) escaped.

    >>> html_table(["a"], [["<1>"]], caption="t")
    '<table class="nothanks-table"><caption>t</caption><thead><tr><th>a</th></tr></thead><tbody><tr><td>&lt;1&gt;</td></tr></tbody></table>'
    """  # noqa: E501
    _check_widths(head, rows)
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    return (
        f'<table class="{escape(css_class)}">{cap}'
        f"<thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"
    )


def html_sections(title: str, sections: Sequence[tuple[str, str]]) -> str:
    """A bold title, then each ``(label, html)``: the label as a paragraph, then `html` as is.

    Titles and labels are escaped; each `html` is ready-made markup (a table from above).

    >>> html_sections("Tuned <x>", [("on fresh deals:", "<table></table>")])
    '<p><b>Tuned &lt;x&gt;</b></p><p>on fresh deals:</p><table></table>'
    """
    parts = [f"<p><b>{escape(title)}</b></p>"]
    for label, body in sections:
        parts += [f"<p>{escape(label)}</p>", body]
    return "".join(parts)


def csv_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    r"""CSV with a header line, ``\n`` line ends and no final newline.

    >>> csv_table(["a", "b"], [["1", "x,y"]])
    'a,b\n1,"x,y"'
    """
    _check_widths(head, rows)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(head)
    writer.writerows(rows)
    return buf.getvalue().rstrip("\n")


def fmt_interval(low: float, high: float, digits: int, *, signed: bool = False) -> str:
    """An interval as ``[low, high]`` with `digits` decimals; "n/a" when it is undefined (NaN).

    `signed` writes a sign on both ends (for differences and ratings).

    >>> fmt_interval(0.25, 0.5, 2), fmt_interval(float("nan"), float("nan"), 2)
    ('[0.25, 0.50]', 'n/a')
    >>> fmt_interval(-12.4, 30.6, 0, signed=True)
    '[-12, +31]'
    """
    if math.isnan(low) or math.isnan(high):
        return "n/a"
    sign = "+" if signed else ""
    return f"[{low:{sign}.{digits}f}, {high:{sign}.{digits}f}]"


def _cell(value: Any) -> str:
    """A record's value as shown in a text, markdown or HTML table (floats to 4 decimals)."""
    if value is None:
        return ""
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def records_table(records: Sequence[Mapping[str, Any]], fmt: str) -> str:
    """Records (one mapping per row, the keys the columns) in `fmt`: one of `RECORD_FORMATS`.

    ``json`` keeps the values as they are; ``csv`` writes them in full; ``text``, ``markdown``
    and ``html`` show floats to 4 decimals (``text`` right-aligns the numeric columns). No
    records give ``[]`` in JSON and an empty string otherwise.

    >>> print(records_table([{"bot": "a", "share": 0.5}], "markdown"))
    | bot | share |
    |---|---|
    | a | 0.5000 |
    """
    if fmt not in RECORD_FORMATS:
        raise ValueError(f"fmt must be one of {', '.join(RECORD_FORMATS)}; got {fmt!r}")
    if fmt == "json":
        return json.dumps(list(map(dict, records)), indent=2)
    if not records:
        return ""
    keys = list(dict.fromkeys(k for r in records for k in r))
    values = [[r.get(k) for k in keys] for r in records]
    if fmt == "csv":
        return csv_table(keys, [["" if v is None else str(v) for v in row] for row in values])
    rows = [[_cell(v) for v in row] for row in values]
    if fmt == "markdown":
        return markdown_table(keys, rows)
    if fmt == "html":
        return html_table(keys, rows)
    numeric = {
        j
        for j in range(len(keys))
        if all(_is_number(row[j]) for row in values if row[j] is not None)
    }
    return text_table(keys, rows, right=numeric)

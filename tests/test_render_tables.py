"""`render.tables`: the one place tables are laid out (golden outputs, escaping, bad input)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable

import pytest

from nothanks_lab import render
from nothanks_lab.render import tables
from nothanks_lab.render.tables import (
    csv_table,
    fmt_interval,
    html_table,
    markdown_table,
    records_table,
    text_table,
)

HEAD = ["bot", "games", "win share"]
ROWS = [["marginal", "100", "0.512"], ["a|b <x>", "7", "0.1"]]


def test_text_table_golden() -> None:
    assert text_table(HEAD, ROWS, right={1, 2}) == (
        "bot       games  win share\n"
        "--------  -----  ---------\n"
        "marginal    100      0.512\n"
        "a|b <x>       7        0.1"
    )


def test_text_table_left_aligned_by_default_and_no_trailing_spaces() -> None:
    out = text_table(["a", "b"], [["long cell", ""], ["x", "y"]])
    assert out.splitlines() == ["a          b", "---------  -", "long cell", "x          y"]


def test_text_table_header_only() -> None:
    assert text_table(["a", "bb"], []) == "a  bb\n-  --"


def test_markdown_table_golden_and_pipe_escaped() -> None:
    assert markdown_table(HEAD, ROWS) == (
        "| bot | games | win share |\n"
        "|---|---|---|\n"
        "| marginal | 100 | 0.512 |\n"
        "| a\\|b <x> | 7 | 0.1 |"
    )


def test_html_table_golden() -> None:
    assert html_table(["a", "b"], [["1", "2"]]) == (
        '<table class="nothanks-table"><thead><tr><th>a</th><th>b</th></tr></thead>'
        "<tbody><tr><td>1</td><td>2</td></tr></tbody></table>"
    )


def test_html_table_escapes_every_cell_head_caption_and_class() -> None:
    out = html_table(["<h>"], [["<script>alert('x')</script>"]], caption="a & b", css_class='c"d')
    assert "<script>" not in out and "<h>" not in out
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in out
    assert "<th>&lt;h&gt;</th>" in out
    assert "<caption>a &amp; b</caption>" in out
    assert 'class="c&quot;d"' in out


def test_csv_table_golden_quotes_when_needed() -> None:
    assert csv_table(["a", "b"], [["1", "x,y"], ['say "hi"', ""]]) == (
        'a,b\n1,"x,y"\n"say ""hi""",'
    )


@pytest.mark.parametrize("fn", [text_table, markdown_table, html_table, csv_table])
def test_a_row_of_the_wrong_width_is_a_value_error(fn: Callable[..., str]) -> None:
    with pytest.raises(ValueError, match=r"rows\[1\] has 1 cells.*head \(2\)"):
        fn(["a", "b"], [["1", "2"], ["3"]])


def test_fmt_interval() -> None:
    assert fmt_interval(0.123, 0.456, 2) == "[0.12, 0.46]"
    assert fmt_interval(-1.0, 2.5, 1) == "[-1.0, 2.5]"
    assert fmt_interval(math.nan, math.nan, 3) == "n/a"
    assert fmt_interval(0.0, math.nan, 3) == "n/a"


RECORDS = [
    {"bot": "marginal", "games": 100, "share": 0.5125, "note": None},
    {"bot": "random", "games": 7, "share": 0.25, "note": "x"},
]


def test_records_table_every_format_golden() -> None:
    assert records_table(RECORDS, "markdown") == (
        "| bot | games | share | note |\n"
        "|---|---|---|---|\n"
        "| marginal | 100 | 0.5125 |  |\n"
        "| random | 7 | 0.2500 | x |"
    )
    assert records_table(RECORDS, "csv") == (
        "bot,games,share,note\nmarginal,100,0.5125,\nrandom,7,0.25,x"
    )
    assert json.loads(records_table(RECORDS, "json")) == RECORDS
    assert records_table(RECORDS, "json") == json.dumps(RECORDS, indent=2)
    assert records_table(RECORDS, "text") == (
        "bot       games   share  note\n"
        "--------  -----  ------  ----\n"
        "marginal    100  0.5125\n"
        "random        7  0.2500  x"
    )
    assert records_table(RECORDS, "html") == html_table(
        ["bot", "games", "share", "note"],
        [["marginal", "100", "0.5125", ""], ["random", "7", "0.2500", "x"]],
    )


def test_records_table_no_records() -> None:
    assert records_table([], "json") == "[]"
    for fmt in ("text", "markdown", "csv", "html"):
        assert records_table([], fmt) == ""


def test_records_table_columns_are_the_union_of_keys_in_order() -> None:
    out = records_table([{"a": 1}, {"b": 2, "a": 3}], "csv")
    assert out == "a,b\n1,\n3,2"


@pytest.mark.parametrize("fmt", ["xml", "", "TEXT", None])
def test_records_table_bad_fmt_names_it_and_the_allowed_values(fmt: object) -> None:
    with pytest.raises(ValueError, match=r"fmt must be one of text, markdown, csv, json, html"):
        records_table(RECORDS, fmt)  # type: ignore[arg-type]


def test_the_package_re_exports_the_table_api() -> None:
    for name in tables.__all__:
        assert getattr(render, name) is getattr(tables, name)


def test_render_tables_imports_nothing_from_the_package() -> None:
    """It sits in the lowest layer (the engine's objects print through it)."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(tables.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("nothanks_lab")
        elif isinstance(node, ast.Import):
            assert all(not a.name.startswith("nothanks_lab") for a in node.names)

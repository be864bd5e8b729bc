"""The documentation site's sources, read as a maintainer would, without building them.

`.ci/run` builds the site with ``sphinx-build -W`` (every lesson executed); these fast tests
check what a build would not: the README stays short and every link from it resolves, the
tutorials list exactly the lessons of ``notebooks/``, each name the contract page documents
imports, and each how-to, explanation and reference page is reachable from a table of contents.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from nothanks_lab.kit.notebooks import is_lesson

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _toctree_entries(page: Path) -> list[str]:
    entries = []
    for block in re.findall(r"```\{toctree\}\n(.*?)```", page.read_text(), re.S):
        entries += [line.strip() for line in block.splitlines() if line and line[0] not in ": "]
    return entries


def test_the_readme_is_short_and_its_links_resolve() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 150
    links = re.findall(r"\]\(([^)#]+)\)", text.replace("\n", " "))
    local = [link for link in links if "://" not in link]
    assert any(link.startswith("docs/") for link in local)
    for link in local:
        assert (ROOT / link).exists(), f"README links to {link}, which does not exist"


def test_the_tutorials_are_exactly_the_lessons() -> None:
    lessons = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb") if is_lesson(p))
    listed = [e.removeprefix("lessons/") for e in _toctree_entries(DOCS / "tutorials/index.md")]
    assert sorted(listed) == lessons


@pytest.mark.parametrize("section", ["howto", "explanation"])
def test_every_page_is_in_its_sections_table_of_contents(section: str) -> None:
    pages = {p.stem for p in (DOCS / section).glob("*.md")} - {"index"}
    assert pages and set(_toctree_entries(DOCS / section / "index.md")) == pages


def test_every_name_on_the_contract_page_imports() -> None:
    names = re.findall(r"^\.\. auto\w+:: (\S+)", (DOCS / "reference/contract.md").read_text(), re.M)
    assert "nothanks_lab.Game" in names and "nothanks_lab.tournament" in names
    for name in names:
        module, _, attr = name.rpartition(".")
        assert hasattr(importlib.import_module(module), attr), name


def test_the_docs_extra_names_the_tools_the_build_uses() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    block = re.search(r"^docs = \[(.*?)^\]", pyproject, re.S | re.M)
    assert block, "pyproject.toml has no docs extra"
    names = {re.split(r"[<>=\[ ]", d)[0] for d in re.findall(r'"([^"]+)"', block.group(1))}
    assert {"sphinx", "myst-nb", "pydata-sphinx-theme"} <= names

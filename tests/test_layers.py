"""The package's layering, kept by a test: no import cycles, and no layer imports a higher one.

The import graph is built with `ast` from every module of `nothanks_lab`: module-level imports
and imports inside functions alike (a lazy import is still a dependency), but not imports under
``if TYPE_CHECKING:`` (annotations only) nor inside the presentation hooks ``_repr_html_``,
``_repr_mimebundle_`` and ``_repr_svg_``: the engine's objects draw themselves through
`render`, which sits above them, and that is the one documented way up. An import of
``pkg.sub`` counts as a dependency on ``pkg.sub`` only, not on the package ``pkg`` whose
``__init__`` Python also runs (``nothanks_lab/__init__.py`` is the public facade at the top).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import nothanks_lab

PACKAGE = "nothanks_lab"
ROOT = Path(nothanks_lab.__file__).parent

#: The layers, lowest first. A module belongs to the first entry that names it or a package
#: above it (``"bots"`` covers ``bots.base``...). A module may import its own layer or lower.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # render.tables formats strings only (no package import): the engine's objects print
    # their tables through it, so it sits at the bottom, below the rest of render.
    # i18n (the message catalogs, numbers for a person) imports only Babel: every layer speaks.
    ("rules", ("rules", "validate", "stats", "render.tables", "i18n")),
    ("core", ("core", "deals", "jit")),
    ("engine", ("engine", "view", "tables")),
    ("players", ("play", "fast", "bots", "probability")),
    (
        "analysis",
        (
            "simulation",
            "analysis",
            "seating",
            "exact",
            "records",
            "review",
            "positions",
            # RL environments: the engine, the fast kernel and bot specs below them
            "envs",
        ),
    ),
    ("tournaments", ("tournaments", "parallel")),
    ("presentation", ("render", "plots", "lessons", "league")),
    # "" is nothanks_lab/__init__.py
    ("apps", ("widgets", "table", "advisor", "kit", "__main__", "serve", "")),
)

#: Imports that go up a layer or close a cycle, each with why it is tolerated and what edit
#: would remove it. Keep this list short: a new entry needs a reason as good as these.
KNOWN_EXCEPTIONS: dict[tuple[str, str], str] = {
    # `Game.to_json()` / `Game.from_json()` (public names) hand the round to the file format
    # in `records`, which replays rounds through `Game` and checks the bots named in a file
    # against the registry: engine -> records -> records.rounds -> engine. Removing it means
    # moving the round codec (`records.rounds` with `records.schema` and `records.validation`)
    # into the engine layer, with the bot-spec check passed in by records, or making records
    # the only entry point.
    ("engine", "records"): "file-format hook of Game, like the _repr_html_ hooks",
}


def module_name(path: Path) -> str:
    """``nothanks_lab/tournaments/run.py`` -> ``tournaments.run`` ("" for the package)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}
HOOKS = {"_repr_html_", "_repr_mimebundle_", "_repr_svg_"}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _package_of(name: str) -> list[str]:
    """The package a module's relative imports start from, as parts."""
    parts = name.split(".") if name else []
    return parts if MODULES[name].name == "__init__.py" else parts[:-1]


def _targets(name: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The package modules (short names) an import statement in module `name` loads."""
    found: set[str] = set()

    def add(dotted: str) -> None:
        if dotted == PACKAGE or dotted.startswith(PACKAGE + "."):
            found.add(dotted[len(PACKAGE) + 1 :])

    if isinstance(node, ast.Import):
        for alias in node.names:
            add(alias.name)
    else:
        if node.level:
            base = _package_of(name)[: len(_package_of(name)) - node.level + 1]
            prefix = ".".join([PACKAGE, *base, *([node.module] if node.module else [])])
        else:
            prefix = node.module or ""
        for alias in node.names:
            sub = f"{prefix}.{alias.name}"
            short = sub[len(PACKAGE) + 1 :] if sub.startswith(PACKAGE + ".") else None
            add(sub if short in MODULES else prefix)
    return {t for t in found if t in MODULES or t == ""}


def imports_of(name: str) -> set[str]:
    """Every package module that module `name` imports (see the module docstring)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    deps: set[str] = set()

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.orelse:
                    walk(stmt)
                continue
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) and child.name in HOOKS:
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                deps.update(_targets(name, child))
            walk(child)

    walk(tree)
    deps.discard(name)
    return deps


GRAPH = {name: imports_of(name) for name in MODULES}


def layer_of(name: str) -> int:
    """Index in `LAYERS` of a module's layer; AssertionError for a module in no layer."""
    for i, (_, members) in enumerate(LAYERS):
        for m in members:
            if name == m or (m and name.startswith(m + ".")):
                return i
    raise AssertionError(
        f"module nothanks_lab.{name} is in no layer: add it to LAYERS in {Path(__file__).name}"
    )


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph` as a path ``[a, b, ..., a]``, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        path.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return [*path[path.index(w) :], w]
            if w not in state and (found := visit(w)) is not None:
                return found
        path.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state and (found := visit(v)) is not None:
            return found
    return None


def without_exceptions(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    return {a: {b for b in bs if (a, b) not in KNOWN_EXCEPTIONS} for a, bs in graph.items()}


# ------------------------------------------------------------------------------ the checks
def test_the_graph_sees_the_imports_that_matter() -> None:
    """The builder finds module-level, lazy and relative imports, and skips the hooks."""
    assert "rules" in GRAPH["engine"]  # module level: from .rules import Rules
    assert "jit" in GRAPH["deals"]  # inside deal_decks: from .jit import jit_pure
    assert {"tournaments.run", "tournaments.result"} <= GRAPH["tournaments"]
    assert "render" not in GRAPH["engine"]  # only inside Game._repr_html_
    assert "fast" in GRAPH["simulation"] and "core" in GRAPH["fast.loops"]  # from .. import core


def test_no_import_cycles() -> None:
    cycle = find_cycle(without_exceptions(GRAPH))
    assert cycle is None, "import cycle: " + " -> ".join(f"nothanks_lab.{m}" for m in cycle)


def test_every_module_has_a_layer() -> None:
    for name in MODULES:
        layer_of(name)


def test_no_layer_imports_a_higher_one() -> None:
    upward = [
        f"nothanks_lab.{a} ({LAYERS[layer_of(a)][0]}) imports nothanks_lab.{b} "
        f"({LAYERS[layer_of(b)][0]})"
        for a, bs in without_exceptions(GRAPH).items()
        for b in sorted(bs)
        if layer_of(b) > layer_of(a)
    ]
    assert not upward, "imports up the layers:\n" + "\n".join(upward)


@pytest.mark.parametrize("edge", sorted(KNOWN_EXCEPTIONS))
def test_known_exceptions_are_still_needed(edge: tuple[str, str]) -> None:
    """An exception whose import has gone must leave the list (so the list stays honest)."""
    a, b = edge
    assert b in GRAPH[a], f"{a} no longer imports {b}: remove it from KNOWN_EXCEPTIONS"


def test_the_checker_catches_a_cycle_and_an_upward_import() -> None:
    """The checks are not vacuous: a planted cycle and a planted upward import are found."""
    planted = {k: set(v) for k, v in without_exceptions(GRAPH).items()}
    planted["core"].add("engine")  # engine imports core, so this closes a cycle
    assert find_cycle(planted) is not None
    assert layer_of("core") < layer_of("engine")


def test_no_module_is_far_over_600_lines() -> None:
    """Split by concept, not by size alone; but no module of tournaments grows past ~600."""
    sizes = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, path in MODULES.items()
        if name.startswith("tournaments")
    }
    assert max(sizes.values()) <= 600, sizes

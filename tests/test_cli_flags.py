"""Every flag of every command: a bad value is one ``error:`` line naming the flag, exit 2.

The flags are read from the parser itself (so a new flag is tested the day it is added): an
int flag gets a value argparse cannot read and one it reads but the library refuses; a flag
with choices gets one outside them; a text flag gets the bad value of `TEXT_BAD`. The error
line must name the flag as argparse does (``--games/-n``), never the Python argument name
(``n_games``), and hold no traceback.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

import nothanks_lab as nt
from nothanks_lab.__main__ import _PYTHON_NAMES, _parser, cli_flags, cli_words, main

#: A bad value for each text flag (a new text flag fails the test until it has one here).
TEXT_BAD = {
    "bots": "nope",
    "candidate": "nope",
    "opponent": "nope",
    "grid": "threshold",
    "bounds": "threshold=1",
    "scheduler": "nope",
    "ip": "not an address",
    "notebook": "/nope/app.ipynb",
    "notebooks": "/nope",
    "lesson": "nope",
    "handout": "nope",
}
ROUND = "ROUND"  # replaced by a saved round's path
#: A valid command line for each command: the bad value is what makes it fail.
BASE = {
    ("tournament",): ["-p", "3", "-n", "2", "--no-progress", "-b", "marginal", "random", "random"],
    ("head-to-head",): ["-c", "marginal", "-o", "random", "-p", "3", "-n", "2", "--no-progress"],
    ("sweep",): ["-c", "marginal", "-g", "threshold=1,2", "-o", "random", "-p", "3", "-n", "2",
                 "--no-progress"],
    ("tune",): ["-c", "marginal", "--bounds", "threshold=0:5", "-o", "random", "-p", "3", "-n",
                "2", "--max-evals", "2", "--no-progress"],
    ("review",): [ROUND, "--seat", "0", "-n", "2"],
    ("serve-class",): [],
    ("lessons", "export"): ["KIT", "--no-execute", "--no-pdf", "--quiet"],
}  # fmt: skip


def _commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        return [(path, parser)]
    return [c for name, p in subs[0].choices.items() for c in _commands(p, (*path, name))]


def _cases() -> list[tuple[tuple[str, ...], list[str], str]]:
    cases = []
    for path, parser in _commands(_parser()):
        for action in parser._actions:
            if not action.option_strings or action.nargs == 0 or action.dest == "help":
                continue
            flag = action.option_strings[0]
            if action.choices:
                cases.append((path, [flag, "nope"], action.dest))
            elif action.type is int:
                cases.append((path, [flag, "abc"], action.dest))  # argparse refuses it
                cases.append((path, [flag, "-7"], action.dest))  # the library refuses it
            else:
                cases.append((path, [flag, TEXT_BAD.get(action.dest, "MISSING")], action.dest))
    return cases


CASES = _cases()


def test_every_command_with_flags_has_a_valid_base_line() -> None:
    with_flags = {path for path, _, _ in CASES}
    assert with_flags == set(BASE) and len(CASES) > 50


@pytest.mark.parametrize(
    ("path", "bad", "dest"), CASES, ids=[f"{' '.join(c[0])} {' '.join(c[1])}" for c in CASES]
)
def test_a_bad_flag_value_is_one_error_line_naming_the_flag(
    path: tuple[str, ...],
    bad: list[str],
    dest: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert "MISSING" not in bad, f"give {bad[0]} a bad value in TEXT_BAD"

    def no_server(settings: Any) -> int:
        raise AssertionError("serve-class started a server with a bad setting")

    monkeypatch.setattr("nothanks_lab.serve.serve_class", no_server)
    game = nt.Game(3, seed=1)
    while not game.is_over:
        game.step(game.legal_actions()[0])
    (tmp_path / "round.json").write_text(game.to_json())
    base = [str(tmp_path / "round.json") if a == ROUND else a for a in BASE[path]]
    base = [str(tmp_path / "kit") if a == "KIT" else a for a in base]
    if bad[0] in base:  # replace the flag's valid value(s) by the bad one
        i = base.index(bad[0])
        j = i + 1
        while j < len(base) and not base[j].startswith("-"):
            j += 1
        base = base[:i] + base[j:]
    try:
        code = main([*path, *base, *bad])
    except SystemExit as e:  # argparse's own refusal (usage line, then one error line)
        code = e.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and err.count("error:") == 1, err
    line = next(ln for ln in err.splitlines() if "error:" in ln)
    action = next(a for a in _commands_parser(path)._actions if a.dest == dest)
    assert any(opt in line for opt in action.option_strings), line
    for py, flag_dest in _PYTHON_NAMES.items():
        if flag_dest == dest and "_" in py:
            assert py not in line, line


def _commands_parser(path: tuple[str, ...]) -> argparse.ArgumentParser:
    return dict(_commands(_parser()))[path]


def test_python_names_are_said_as_flags_and_bot_parameters_keep_theirs() -> None:
    args = _parser().parse_args(["tournament", "-b", "marginal"])
    flags = cli_flags(_parser(), args)
    assert flags["n_games"] == "--games/-n" and flags["chunk_size"] == "--chunk-size"
    said = cli_words("grid points (4) x n_games (10); n_games must be >= 1", flags)
    assert said == "grid points (4) x --games/-n (10); --games/-n must be >= 1"
    assert cli_words("RandomBot: seed must be 1", flags) == "RandomBot: seed must be 1"
    assert cli_words("n_players: 9 players", flags) == "--players/-p: 9 players"
    assert cli_words("seeds of the seed stream", flags) == "seeds of the seed stream"
    sweep = cli_flags(
        _parser(), _parser().parse_args(["sweep", "-c", "m", "-g", "x", "-o", "m", "-p", "3"])
    )
    assert cli_words("grid['threshold'] must name", sweep) == "--grid/-g threshold must name"


def test_a_short_field_gets_command_line_advice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "-p", "3", "-n", "0", "-b", "linear", "heuristic"]) == 2
    err = capsys.readouterr().err
    assert err.count("error:") == 1 and "--bots" in err and "head-to-head command" in err
    assert "lineups=" not in err and "head_to_head(" not in err

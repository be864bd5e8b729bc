"""The command line in Portuguese (``NOTHANKS_LAB_LANG=pt_BR nothanks-lab ...``).

The human-readable tables (tournament, sweep, tune), the ``--help`` texts and the kit's
console lines speak the language in use, with decimal commas and grouped thousands; CSV and
JSON stay English (column names and numbers are for programs, not readers). argparse's own
words (``usage:``, ``options:``, ``show this help message and exit``) stay as argparse prints them.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nothanks_lab.__main__ import run
from nothanks_lab.i18n import language

ROOT = Path(__file__).resolve().parents[1]

#: English words of the CLI's own output that a Portuguese run must not print.
ENGLISH_CLI = re.compile(
    r"\b(tournament|players|deals|seatings|games|seed|rank|win share|mean score|CI|"
    r"Sweep|candidate|Tuned|evaluations|on fresh deals|on the tuning deals|ratings|"
    r"wrote|files|warning|default|seats|output format|deals per point)\b"
)
FIELD = ["--bots", "marginal:threshold=10", "marginal:threshold=0", "random"]
KIT = ["--lesson", "01_play", "--skip-handouts", "--no-pdf"]
SMALL = ["--players", "3", "--games", "30", "--seed", "1", "--no-progress"]


def _command(lang: str, *argv: str, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    """``nothanks-lab ARGV`` in a fresh process with ``NOTHANKS_LAB_LANG=lang``."""
    env = {**os.environ, "NOTHANKS_LAB_LANG": lang, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "nothanks_lab", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def pt(*argv: str) -> str:
    with language("pt_BR"):
        return run(list(argv))


def test_tournament_table_in_portuguese() -> None:
    text = re.sub(r"\w+Bot\([^)]*\)", "BOT", pt("tournament", *FIELD, *SMALL))  # names: code
    assert ENGLISH_CLI.findall(text) == [], text
    assert "Torneio de No Thanks!: 3 jogadores, 30 distribuições x 6 arranjos" in text
    assert "semente 1, IC 95%" in text and "proporção de vitórias" in text
    assert re.search(r"\b0,\d{4}\b", text) and re.search(r"\[0,\d{4}; 0,\d{4}\]", text), text
    assert not re.search(r"\b\d+\.\d+\b", text), text  # no decimal point left


def test_tournament_csv_and_json_stay_machine_readable() -> None:
    with language("en"):
        english = run(["tournament", *FIELD, *SMALL, "--format", "csv"])
    assert pt("tournament", *FIELD, *SMALL, "--format", "csv") == english
    assert english.splitlines()[0].startswith("rank,bot,")


def test_sweep_and_tune_in_portuguese() -> None:
    opp = ["--opponent", "marginal:threshold=10"]
    sweep = pt("sweep", "--candidate", "marginal", "--grid", "threshold=0,10", *opp, *SMALL)
    head = (
        "Varredura: candidato contra MarginalCostBot(threshold=10); 3 jogadores, 30 distribuições"
    )
    assert sweep.startswith(head), sweep
    assert ENGLISH_CLI.findall(sweep) == [], sweep
    tune = pt(
        "tune",
        "--candidate",
        "marginal",
        "--bounds",
        "threshold=0:20",
        "--max-evals",
        "3",
        *opp,
        *SMALL,
    )
    assert tune.startswith("Ajustado (") and "nas distribuições do ajuste:" in tune, tune
    assert "em distribuições novas:" in tune
    assert ENGLISH_CLI.findall(tune.replace("win_share", "")) == [], tune


@pytest.mark.parametrize("command", [[], ["tournament"], ["sweep"], ["lessons", "export"]])
def test_help_in_portuguese(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        pt(*command, "--help")
    assert stop.value.code == 0
    out = capsys.readouterr().out
    # argparse's own words may stay, and so may what is typed (commands, options, METAVARS,
    # the examples); every help text of ours is Portuguese.
    ours = out.replace("show this help message and exit", "").split("\n\n", 1)[1]
    ours = re.sub(r"--?[\w-]+|\{[^}]*\}|\b[A-Z][A-Z_.=,:0-9]+\b|python -m nothanks_lab.*", "", ours)
    ours = re.sub(r"(?m)^ {2,}[\w-]+(?= {2,}|$)", "", ours)
    assert ENGLISH_CLI.findall(ours) == [], ours
    assert "padrão" in out or "robôs" in out or "kit" in out, out


@pytest.mark.slow
def test_kit_console_lines_in_portuguese(tmp_path: Path) -> None:
    """The real console: ``NOTHANKS_LAB_LANG=pt_BR``, the summary and the progress lines."""
    done = _command("pt_BR", "lessons", "export", str(tmp_path / "kit"), *KIT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.match(r"\d+ arquivos escritos em ", done.stdout), done.stdout
    assert "  student/: " in done.stdout and " arquivos" in done.stdout
    assert "01_play: caderno do aluno, guia do professor, fonte do nbgrader" in done.stderr
    assert ENGLISH_CLI.findall(done.stdout + done.stderr) == [], done.stdout + done.stderr


def test_a_language_not_spoken_falls_back_to_english() -> None:
    """``NOTHANKS_LAB_LANG=es nothanks-lab bots`` lists the bots in English, with one warning."""
    done = _command("es", "bots")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "marginal" in done.stdout
    assert done.stderr.count("NOTHANKS_LAB_LANG must be one of 'en', 'pt_BR'; got 'es'") == 1


@pytest.mark.slow
def test_the_progress_bar_speaks_portuguese() -> None:
    done = _command("pt_BR", "tournament", *FIELD, "--players", "3", "--games", "6", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert "torneio:" in done.stderr and "tournament:" not in done.stderr, done.stderr


def test_the_bots_listing_explains_every_parameter_in_portuguese() -> None:
    """``nothanks-lab bots`` in Portuguese: each parameter's help is the catalog's translation."""
    from nothanks_lab.bots import available_bots, params_of

    text = pt("bots")
    params = [p for name in available_bots() for p in params_of(name).values()]
    assert len(params) >= 40
    for p in params:
        with language("pt_BR"):
            help_pt = p.help
        assert help_pt != p.doc and help_pt in text, p.name  # translated, and what is printed
        assert not re.search(r"\b(the|of|when|weight|chips?|cards?)\b", help_pt), help_pt
    assert "peso de: fichas na carta" in text  # a linear bot's weight: both parts translated
    with language("en"):
        english = run(["bots"])
    assert all(p.doc in english for p in params)  # English prints the source text

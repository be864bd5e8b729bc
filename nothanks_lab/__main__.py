"""Command line for headless runs: tournaments, head-to-heads, sweeps and tuning.

``python -m nothanks_lab tournament --players 5 --games 20000 --bots marginal:threshold=10
marginal:threshold=0 heuristic linear random --seed 1 --workers 2`` prints the rating table
(also installed as ``nothanks-lab``). Bots are given as registered names with optional
parameters, ``name:key=value,key=value`` (``python -m nothanks_lab bots`` lists them), or as a
user's own class, ``path/to/mybot.py:MyBot:key=value`` or ``package.module:MyBot``. Tables
print as text, Markdown, CSV or JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from .bots.specs import bots_listing
from .i18n import N_, _, language
from .parallel import Terminated, sigterm_stops

__all__ = ["cli_flags", "cli_words", "main"]

#: Seconds to wait for a Dask scheduler given with --scheduler before giving up.
SCHEDULER_TIMEOUT_S = 5

_EPILOG = N_("""examples:
  python -m nothanks_lab tournament --players 5 --games 20000 --seed 1 --workers 2 \\
      --bots marginal:threshold=10 marginal:threshold=0 heuristic linear random
  python -m nothanks_lab tournament --players 3 --games 2000 --seed 1 \\
      --bots path/to/mybot.py:MyBot:margin=3 heuristic linear
  python -m nothanks_lab head-to-head --candidate marginal:threshold=5 \\
      --opponent marginal:threshold=10 --players 3 --games 20000 --seed 1
  python -m nothanks_lab sweep --candidate marginal --grid threshold=0,5,10,15 \\
      --opponent marginal:threshold=10 --players 5 --games 20000 --seed 1
  python -m nothanks_lab tune --candidate marginal --bounds threshold=-10:30 \\
      --opponent marginal:threshold=10 --players 5 --games 5000 --seed 1
  python -m nothanks_lab bots

Each deal is played in a balanced block of seatings (every order of the seats for up to 4
players; for more, a block in which every bot holds every seat and sits directly after every
other bot equally often, drawn at random per deal), so a run plays games x seatings rounds.
Results depend only on the seed, never on --workers.
""")


class _Once(argparse.Action):
    """Store an option's values, refusing the option given twice (the last would win)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if getattr(namespace, f"_seen_{self.dest}", False):
            raise ValueError(
                f"{option_string} is given twice; list every value after one {option_string}"
            )
        setattr(namespace, f"_seen_{self.dest}", True)
        setattr(namespace, self.dest, values)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m nothanks_lab",
        description=_(
            "No Thanks! bot tournaments, sweeps and tuning with 95% confidence "
            "intervals, on paired deals with balanced seating."
        ),
        epilog=_(_EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def common(p: argparse.ArgumentParser, players_required: bool = True) -> None:
        p.add_argument(
            "--players",
            "-p",
            type=int,
            required=players_required,
            help=_("seats at the table (3-7 in the standard game)"),
        )
        p.add_argument(
            "--games",
            "-n",
            type=int,
            default=10_000,
            help=_("deals (each played in every seating; default 10000)"),
        )
        p.add_argument(
            "--seed", type=int, default=None, help=_("seed of the deals (default: fresh)")
        )
        p.add_argument(
            "--workers", "-w", type=int, default=None, help=_("local worker processes (default 1)")
        )
        p.add_argument(
            "--scheduler",
            default=None,
            metavar="ADDRESS",
            help=_("run on a Dask cluster at this scheduler address (needs nothanks_lab[dask])"),
        )
        p.add_argument("--chunk-size", type=int, default=None, help=_("deals per unit of work"))
        p.add_argument("--first-player", type=int, default=0, help=_("seat that acts first"))
        p.add_argument(
            "--format",
            choices=("text", "markdown", "csv", "json"),
            default="text",
            help=_("output format (default text)"),
        )
        p.add_argument("--no-progress", action="store_true", help=_("hide the progress bar"))

    t = sub.add_parser(
        "tournament",
        help=_("a field of bots on paired deals with balanced seating"),
        description=_(
            "Play a field of bots against each other; print the rating table. With "
            "more bots than seats, every combination of --players bots sits down."
        ),
    )
    t.add_argument(
        "--bots",
        "-b",
        nargs="+",
        action=_Once,
        required=True,
        metavar="BOT",
        help=_("bots as name or name:key=value,key=value (see the 'bots' command)"),
    )
    t.add_argument(
        "--isolate",
        action="store_true",
        help=_(
            "play each file.py:Class bot from a process of its own, with time and memory "
            "limits (for files you do not trust; one worker)"
        ),
    )
    common(t, players_required=False)

    h = sub.add_parser(
        "head-to-head",
        help=_("one candidate against copies of an opponent"),
        description=_(
            "The candidate against P-1 copies of one opponent (or P-1 opponents), "
            "the candidate sitting in every seat equally often."
        ),
    )
    h.add_argument("--candidate", "-c", required=True, metavar="BOT")
    h.add_argument("--opponent", "-o", nargs="+", required=True, metavar="BOT")
    common(h)

    def searched(
        name: str, summary: str, description: str, flags: tuple[str, ...], spec: str, what: str
    ) -> argparse.ArgumentParser:
        """A command over a registered candidate's parameters (`flags` once per parameter,
        written as `spec`, meaning `what`) against opponents."""
        p = sub.add_parser(name, help=summary, description=description)
        p.add_argument("--candidate", "-c", required=True, metavar="NAME", help=_("registered bot"))
        p.add_argument(*flags, action="append", required=True, metavar=spec, help=what)
        p.add_argument("--opponent", "-o", nargs="+", required=True, metavar="BOT")
        return p

    s = searched(
        "sweep",
        _("a candidate's win share over a parameter grid"),
        _(
            "Evaluate a candidate at every grid point against the opponents, on the "
            "same deals at every point."
        ),
        ("--grid", "-g"),
        "PARAM=V1,V2,...",
        _("values of one parameter (repeat for more parameters)"),
    )
    common(s)

    u = searched(
        "tune",
        _("tune a candidate's parameters with scipy.optimize"),
        _(
            "Search parameter ranges for the best win share against the opponents "
            "(common random numbers), then check the best on fresh deals."
        ),
        ("--bounds",),
        "PARAM=LOW:HIGH",
        _("search range of one parameter (repeat for more parameters)"),
    )
    u.add_argument("--max-evals", type=int, default=30, help=_("evaluation budget (default 30)"))
    u.add_argument(
        "--method",
        choices=("grid-bounded", "bounded", "differential-evolution", "nelder-mead"),
        default=None,
    )
    u.add_argument(
        "--metric", choices=("win_share", "mean_score"), default="win_share", help=_("objective")
    )
    common(u)

    sub.add_parser("bots", help=_("list the registered bots and their parameters"))
    c = sub.add_parser("serve-class", help=_("serve the play table to a class with Voila"))
    c.add_argument("--port", type=int, default=8866, help=_("port (default 8866)"))
    c.add_argument("--ip", default="127.0.0.1", help=_("address to bind; 0.0.0.0 for a network"))
    c.add_argument("--students", type=int, default=30, help=_("kernels to preheat (default 30)"))
    c.add_argument("--notebook", default=None, help=_("app page (notebooks/play_table_app.ipynb)"))
    c.add_argument("--cull-idle-timeout", type=int, default=600, help=_("seconds (default 600)"))

    r = sub.add_parser(
        "review",
        help=_("review one seat's decisions in a saved round"),
        description=_(
            "Value every decision of one seat in a round saved as JSON (Game.to_json) "
            "by rollouts, and label each good, inaccuracy, mistake or blunder."
        ),
    )
    r.add_argument("file", metavar="ROUND.json", help=_("a round document (see README)"))
    r.add_argument(
        "--seat",
        "-s",
        type=int,
        default=None,
        help=_("seat to review (default: the first seat without a bot, else seat 0)"),
    )
    r.add_argument(
        "--seed", type=int, default=None, help=_("seed of the rollouts (default: from the round)")
    )
    r.add_argument(
        "--rollouts", "-n", type=int, default=8000, help=_("rollouts per move (default 8000)")
    )
    r.add_argument(
        "--format",
        choices=("text", "markdown", "json"),
        default="text",
        help=_("output format (default text)"),
    )
    _lessons_parser(sub)
    return parser


def _lessons_parser(sub: Any) -> None:
    """The ``lessons`` command: ``lessons export DIR`` writes the teacher's kit."""
    lessons = sub.add_parser("lessons", help=_("the lesson notebooks: export a teacher's kit"))
    lsub = lessons.add_subparsers(dest="lessons_command", metavar="ACTION", required=True)
    e = lsub.add_parser(
        "export",
        help=_("write student notebooks, teacher's guides, HTML handouts and an nbgrader course"),
        description=_(
            "Write DIR/student/ (the lessons, every exercise unanswered, no solution "
            "reachable), DIR/teacher/ (a guide per lesson, Markdown and HTML, with the answers), "
            "DIR/handouts/ (each lesson executed, one offline HTML page) and DIR/nbgrader/ (an "
            "nbgrader course's source/ folder). Executing every lesson takes a minute or two."
        ),
    )
    e.add_argument("dir", metavar="DIR", help=_("folder to write the kit into"))
    e.add_argument(
        "--notebooks",
        metavar="DIR",
        default=None,
        help=_("folder of the lesson notebooks (default: notebooks/ of the source checkout)"),
    )
    for flag, what in (  # the lessons to export, the lessons to make handouts of
        (
            "--lesson",
            _("export only this lesson, e.g. 04_chip_value (repeat for more; default all)"),
        ),
        (
            "--handout",
            _("make handouts only for this lesson (repeat for more; default every lesson)"),
        ),
    ):
        e.add_argument(flag, action="append", default=None, metavar="STEM", help=what)
    e.add_argument("--skip-handouts", action="store_true", help=_("write no handouts (fast)"))
    e.add_argument(
        "--no-execute",
        action="store_true",
        help=_("export the handouts without running the lessons (no outputs, no figures)"),
    )
    e.add_argument("--no-pdf", action="store_true", help=_("no PDF beside each HTML handout"))
    e.add_argument(
        "--timeout", type=int, default=600, help=_("seconds a handout's cell may run (default 600)")
    )
    e.add_argument(
        "--language",
        choices=("en", "pt_BR"),
        default=None,
        help=_(
            "the kit's language; pt_BR takes the lessons from notebooks/pt_BR/ (default: "
            "NOTHANKS_LAB_LANG, else the locale, else en)"
        ),
    )
    e.add_argument("--quiet", "-q", action="store_true", help=_("no progress on stderr"))


def _lessons(args: argparse.Namespace) -> str:
    """The ``lessons export`` command: write the kit, return its summary."""
    import warnings

    from .kit import HandoutError, export

    handouts: bool | list[str] = False if args.skip_handouts else (args.handout or True)

    def say(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the report lists them
        try:
            report = export(
                args.dir,
                notebooks=args.notebooks,
                lessons=args.lesson,
                handouts=handouts,
                execute=not args.no_execute,
                pdf=not args.no_pdf,
                timeout=args.timeout,
                progress=None if args.quiet else say,
                language=args.language,
            )
        except HandoutError as e:  # the kit so far stays on disk; say which lesson failed
            raise ValueError(str(e)) from None
    with language(args.language):  # the summary in the kit's language
        return str(report)


def _parse_pairs(items: Sequence[str], flag: str, form: str) -> dict[str, Any]:
    """``--grid PARAM=V1,V2,...`` as {PARAM: [values]}, ``--bounds PARAM=LOW:HIGH`` as
    {PARAM: (low, high)}; each parameter once."""
    from .bots.specs import parse_value

    pairs: dict[str, Any] = {}
    for item in items:
        name, eq, rest = (part.strip() for part in item.partition("="))
        low, colon, high = rest.partition(":")
        if not eq or not name or not rest or (flag == "--bounds" and not colon):
            raise ValueError(f"{flag} {item!r}: write PARAM{form}")
        if name in pairs:
            raise ValueError(f"{flag} gives {name!r} twice; give each parameter once")
        if flag == "--bounds":
            pairs[name] = (parse_value(low.strip()), parse_value(high.strip()))
        else:
            pairs[name] = [parse_value(v.strip()) for v in rest.split(",") if v.strip()]
    return pairs


@contextmanager
def _dask_client(address: str | None) -> Any:
    if address is None:
        yield None
        return
    try:
        from dask.distributed import Client
    except ImportError:
        raise ValueError("--scheduler needs Dask: pip install 'nothanks_lab[dask]'") from None
    try:
        # A short timeout: an unreachable scheduler is an error in seconds, not a 30 s wait.
        client = Client(address, timeout=SCHEDULER_TIMEOUT_S)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        raise ValueError(
            f"--scheduler {address!r}: cannot reach a Dask scheduler there within "
            f"{SCHEDULER_TIMEOUT_S} s ({type(e).__name__}: {e})"
        ) from None
    try:
        yield client
    finally:
        client.close()  # type: ignore[no-untyped-call]


def _review(args: argparse.Namespace) -> str:
    """The ``review`` command: load the round, review the seat, render the table."""
    from pathlib import Path

    from .analysis import rollout_field_of_specs
    from .records import load_round
    from .review import review
    from .validate import read_file_bytes

    text = read_file_bytes(Path(args.file), "the round file")  # no device, FIFO or huge file
    try:
        record = load_round(text, seed=0)
    except ValueError as e:
        raise ValueError(f"{args.file}: {e}") from None
    seat = args.seat
    if seat is None:
        seat = next((i for i, s in enumerate(record.seats) if s.bot is None), 0)
    result = review(
        record.game,
        seat,
        seed=args.seed,
        field=rollout_field_of_specs([s.bot for s in record.seats]),
        n=args.rollouts,
        name=record.names[seat] if (0 <= seat < len(record.names)) else None,
    )
    if args.format == "json":
        keys = ("seat", "name", "policy", "final_score", "accuracy", "counts")
        cost = result.total_cost
        doc = {k: getattr(result, k) for k in keys} | {"rollouts": result.n}
        doc |= {"thresholds": vars(result.thresholds), "total_cost": cost.value}
        doc |= {"total_cost_low": cost.low, "total_cost_high": cost.high}
        return json.dumps(doc | {"moves": result.to_records()}, indent=2)
    if args.format == "markdown":
        return "\n\n".join([result.header(), result.table("markdown"), result.summary()])
    return str(result)


#: Python argument names whose flag has another dest; every other flag's dest is its name.
_PYTHON_NAMES = {"n_games": "games", "n_players": "players", "n": "rollouts", "lessons": "lesson"}
_PYTHON_NAMES |= {"executor": "scheduler", "cull_interval": "cull_idle_timeout"}
_PYTHON_NAMES |= {"handouts": "handout"}


def cli_flags(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, str]:
    """Python argument name -> the subcommand's flag as argparse names it, read from its actions."""
    flags: dict[str, str] = {}
    for command in (args.command, getattr(args, "lessons_command", None)):
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        if sub is None or command not in sub.choices:
            break
        parser = sub.choices[command]
        flags = {
            a.dest: "/".join(a.option_strings)
            for a in parser._actions
            if a.option_strings and a.dest != "help"
        }
    return flags | {py: flags[dest] for py, dest in _PYTHON_NAMES.items() if dest in flags}


def cli_words(message: str, flags: Mapping[str, str]) -> str:
    """`message` with the Python argument names it states a rule for said as flags: ``n_games
    must`` as ``--games/-n must``, ``bounds['x']`` as ``--bounds x``; a bot's own parameter
    (``RandomBot: seed must``) keeps its name."""
    from .validate import SEED_RULE

    def said(m: re.Match[str]) -> str:
        return flags[m[1]] + (f" {m[3]}" if m[3] is not None else "")

    for name in sorted(flags, key=len, reverse=True):
        message = re.sub(
            rf"(?<![\w.:'\-])(?<!: )({re.escape(name)})(?:\[('?)([^\]']*)\2\]|"
            rf"(?=:| must\b| \(\d| ['\[]))",
            said,
            message,
        )
    return message.replace(SEED_RULE, "a whole number >= 0")


def run(argv: Sequence[str] | None = None) -> str:
    """Run the command line on `argv` and return what it prints (`ValueError` naming flags)."""
    parser = _parser()
    args = parser.parse_args(argv)
    flags = cli_flags(parser, args)
    try:
        return _run(args, flags)
    except ValueError as e:
        raise ValueError(cli_words(str(e), flags)) from None


def _check_specs(args: argparse.Namespace, flags: Mapping[str, str]) -> None:
    """Build the registered bots of --bots, --candidate, --opponent: a bad one names its flag."""
    from .bots.specs import make_policy

    for dest in ("bots", "candidate", "opponent"):
        given = getattr(args, dest, None)
        for spec in [given] if isinstance(given, str) else given or []:
            where = spec.partition(":")[0]
            if not (where.endswith(".py") or "/" in where or "." in where):  # no file bot here
                try:
                    make_policy(spec)
                except ValueError as e:
                    raise ValueError(f"{flags[dest]} {spec!r}: {e}") from None


def _run(args: argparse.Namespace, flags: Mapping[str, str]) -> str:
    if args.command == "serve-class":
        from .serve import check_settings, serve_class

        settings = check_settings(
            port=args.port,
            ip=args.ip,
            students=args.students,
            notebook=args.notebook,
            cull_idle_timeout=args.cull_idle_timeout,
            cull_interval=min(60, args.cull_idle_timeout),
        )
        return _("serve-class ended (status {status})").format(status=serve_class(settings))
    if args.command == "bots":
        return bots_listing()
    if args.command == "review":
        return _review(args)
    if args.command == "lessons":
        return _lessons(args)
    from .render.tables import records_table
    from .tournaments import head_to_head, sweep, tournament, tune

    _check_specs(args, flags)
    if args.command == "tournament" and args.players is not None:
        from .validate import check_players, check_rules

        if len(args.bots) < check_players(args.players, check_rules(None)):
            raise ValueError(
                _(
                    "--bots names {n} bots for --players {p}: name at least {p} (a bot may be "
                    "named twice), or use the head-to-head command"
                ).format(n=len(args.bots), p=args.players)
            )

    # Everything is parsed and checked before a Dask scheduler is reached or a game played.
    opponents = getattr(args, "opponent", None) or [""]  # one opponent or a list of P-1
    setting, ops = (args.players, args.games), opponents[0] if len(opponents) == 1 else opponents
    grid = _parse_pairs(args.grid, "--grid", "=V1,V2,...") if args.command == "sweep" else {}
    bounds = _parse_pairs(args.bounds, "--bounds", "=LOW:HIGH") if args.command == "tune" else {}
    with _dask_client(args.scheduler) as client:
        options: dict[str, Any] = {
            "chunk_size": args.chunk_size,
            "first_player": args.first_player,
            "progress": not args.no_progress,
            "executor": client,
            "workers": args.workers,
        }
        result: Any
        if args.command == "tournament":
            result = tournament(
                args.bots, *setting, seed=args.seed, isolate=args.isolate, **options
            )
        elif args.command == "head-to-head":
            result = head_to_head(args.candidate, ops, *setting, seed=args.seed, **options)
        elif args.command == "sweep":
            result = sweep(args.candidate, grid, ops, *setting, seed=args.seed, **options)
        else:
            options |= {"method": args.method, "max_evals": args.max_evals, "metric": args.metric}
            result = tune(args.candidate, bounds, ops, *setting, seed=args.seed, **options)
    if args.format == "text":
        return str(result)
    if args.format == "json" and hasattr(result, "to_document"):
        return json.dumps(result.to_document(), indent=2)
    return records_table(result.to_records(), args.format)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m nothanks_lab`` and the ``nothanks-lab`` script."""
    stopped: list[int] = []
    try:
        try:
            with sigterm_stops(stopped):
                out = run(argv)
        except BaseException as e:
            if stopped and not isinstance(e, Terminated):  # an error on the way out of a stop
                raise Terminated from None
            raise
    except (ValueError, TypeError) as e:  # bad input, wherever it was found: no traceback
        return _fail(_("error: {problem}").format(problem=e))
    except Terminated:  # SIGTERM: as Ctrl-C, with the signal's own exit status
        return _fail(_("stopped (SIGTERM): stopped before the end, no result"), 143)
    except KeyboardInterrupt as e:  # Ctrl-C: the run has stopped its workers; no traceback
        from .kit.handouts import HandoutInterrupted  # loaded already if the kit ran

        if isinstance(e, HandoutInterrupted):  # a kit lesson's run: Ctrl-C and SIGTERM alike
            return _fail(_("stopped (Ctrl-C or SIGTERM) while a lesson ran: no kit written"), 130)
        return _fail(_("interrupted (Ctrl-C): stopped before the end, no result"), 130)
    except SystemExit:  # argparse's own exits (--help, usage errors) keep their status
        raise
    except BrokenProcessPool:  # a worker killed (kill -9, out of memory): one line
        died = _(
            "a worker process died before finishing (killed, or out of memory); no result. "
            "Rerun, with fewer --workers if memory is short"
        )
        return _fail(_("error: {problem}").format(problem=died))
    except OSError as e:  # a folder or file that cannot be written or read
        where = f"{e.filename}: " if e.filename else ""
        return _fail(f"error: {where}{e.strerror or e}")
    except BaseException as e:  # anything else (a file bot's own exception): one line
        return _fail(f"error: {type(e).__name__}: {e}")
    try:
        print(out)
        sys.stdout.flush()
    except OSError as e:  # a full disk (or /dev/full); a closed pipe: the reader has had enough
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush is quiet
        if not isinstance(e, BrokenPipeError):  # piped into `head`: not an error
            why = _("the result could not be written to the output: {why}")
            return _fail(_("error: {problem}").format(problem=why.format(why=e.strerror or e)))
    return 0


def _fail(line: str, status: int = 2) -> int:
    """Print `line` to stderr (the one line a failed command shows); `status`, to exit with."""
    print(line, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())

"""Where the compiled simulator's time goes: variants of its kernel beside the C reference.

The kernel `simulate` runs for 5 x ``MarginalCostBot(10)`` is generated as Python source by
:mod:`nothanks_lab.fast.kernel`. This script takes that source from the generator itself (not
from a cache file), applies each variant's text substitutions to it, compiles every variant as
a module of its own (in memory), and plays the same seeded games through each one:

- ``base``: the generated source unchanged (compiled in memory, like every variant);
  ``package``: the kernel `simulate` itself uses (loaded from the cache when it can be);
- compiler options: bounds checks on (``decide`` and ``play_rounds`` only: ``core``'s
  functions are compiled elsewhere), ``decide`` inlined, ``fastmath``, numpy's error model;
- changes to the loop: card points added up as cards are taken instead of at the end of the
  round, card points by bit-sliced popcounts, the round's rows of ``hands`` and ``chips``
  taken once per round, decks dealt beforehand (outside the clock) instead of in the kernel;
- ``no-points`` (profiling only): no end-of-round card points at all, so its scores are wrong
  by design; it bounds what the end-of-round scoring can cost.

Every variant except the profiling-only ones must give exactly the base's total score over all
games (the checksum printed); a substitution whose text no longer occurs in the generated
kernel stops the script, naming the variant. Each variant is then timed ``--repeats`` times,
each time right after a run of the C reference (``/work/shared/tools/reference_sim.c``, built
with gcc as ``benchmarks/bench_simulate.py`` builds it; skipped if gcc is missing), on CPU time
(``time.process_time`` for ours, ``RUSAGE_CHILDREN`` for C), so each ratio compares two runs
that saw the same machine load.

Read the ratio column (ours / C in the same pair, median and range over the repeats), and the
difference between a variant's ratio and the base's: the machines are shared and noisy, so
absolute games/s move from run to run while paired ratios move much less. A variant within the
base's range has not shown an effect.

Usage: ``python benchmarks/kernel_variants.py [--games N] [--repeats R] [--variants a,b]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # one thread: the kernel is serial anyway

import numpy as np

import nothanks_lab as nt
from nothanks_lab import core
from nothanks_lab.bots import MarginalCostBot
from nothanks_lab.deals import deal_decks, stream_key
from nothanks_lab.fast import FastTable, fast_table
from nothanks_lab.fast import kernel as kernel_gen
from nothanks_lab.fast.table import _kind_key

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_simulate import PLAYERS, THRESHOLD, build_reference, run_reference

SEED = 2  # the games' stream (the C reference deals its own games)
CHUNK = 8192  # games per kernel call, as `simulate` plays them

# Texts of the generated kernel the variants rewrite (asserted present).
DECIDE_JIT = "@numba.njit(cache=CACHE, _nrt=NRT)"
ROUNDS_JIT = "@numba.njit(cache=CACHE, nogil=True, _nrt=NRT)"
POINTS = "            points[g, q] = core.card_points_mask(s.hands[g, q])"
POINTS_LOOP = "        for q in range(s.hands.shape[1]):\n" + POINTS + "\n"
MOVES = "        moves = 0\n"
STEP = "            core.step(s, g, take)\n"
ROWS = "                    s.hands[g],\n                    s.chips[g],\n"

POPCOUNT = """@numba.njit(cache=CACHE, _nrt=NRT)
def _pop(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@numba.njit(cache=CACHE, _nrt=NRT)
def _pts(mask):
    st = np.uint64(mask & ~(mask << 1))
    return (
        _pop(st & np.uint64(0xAAAAAAAAAAAAAAAA))
        + 2 * _pop(st & np.uint64(0xCCCCCCCCCCCCCCCC))
        + 4 * _pop(st & np.uint64(0xF0F0F0F0F0F0F0F0))
        + 8 * _pop(st & np.uint64(0xFF00FF00FF00FF00))
        + 16 * _pop(st & np.uint64(0xFFFF0000FFFF0000))
        + 32 * _pop(st & np.uint64(0xFFFFFFFF00000000))
    )


"""


@dataclass(frozen=True)
class Variant:
    """One kernel variant: substitutions on the generated source and how it is played."""

    name: str  # short id for --variants
    label: str  # what the table shows
    subs: tuple[tuple[str, str], ...] = ()  # (old, new) text substitutions, in order
    deal: bool = True  # the kernel deals each round's deck (else decks are given)
    profiling_only: bool = False  # its scores are wrong by design: no checksum check
    package: bool = False  # the package's own kernel module, not one built from the text


def _with(option: str, *decorators: str) -> tuple[tuple[str, str], ...]:
    """Substitutions adding the njit `option` to each of `decorators`."""
    return tuple((d, d[:-1] + f", {option})") for d in decorators)


VARIANTS: tuple[Variant, ...] = (
    Variant("base", "base (generated source, in memory)"),
    Variant("package", "package kernel (as `simulate` loads it)", package=True),
    Variant("no-deal", "decks given (dealt outside the clock)", deal=False),
    Variant("boundscheck", "bounds checks on", _with("boundscheck=True", DECIDE_JIT, ROUNDS_JIT)),
    Variant("inline", "decide inline='always'", _with("inline='always'", DECIDE_JIT)),
    Variant("fastmath", "fastmath", _with("fastmath=True", DECIDE_JIT, ROUNDS_JIT)),
    Variant("error-model", "error_model='numpy'", _with("error_model='numpy'", ROUNDS_JIT)),
    Variant(
        "no-points",
        "no end-of-round points (profiling only)",
        ((POINTS, "            points[g, q] = s.hands[g, q] & 7"),),
        profiling_only=True,
    ),
    Variant(
        "incremental",
        "incremental points on take",
        (
            (
                MOVES,
                MOVES + "        for q in range(s.hands.shape[1]):\n            points[g, q] = 0\n",
            ),
            (
                STEP,
                "            if take:\n                points[g, p] += core.marginal_points("
                "s.hands[g, p], core.active_card(s, g))\n" + STEP,
            ),
            (POINTS_LOOP, ""),
        ),
    ),
    Variant(
        "popcount",
        "card points by bit-sliced popcount",
        (
            (DECIDE_JIT + "\ndef decide", POPCOUNT + DECIDE_JIT + "\ndef decide"),
            (POINTS, "            points[g, q] = _pts(s.hands[g, q])"),
        ),
    ),
    Variant(
        "hoisted",
        "hoisted row views",
        (
            (MOVES, MOVES + "        hg = s.hands[g]\n        cg = s.chips[g]\n"),
            (ROWS, "                    hg,\n                    cg,\n"),
        ),
    ),
)


def bots() -> list[MarginalCostBot]:
    """The benchmark table (as in bench_simulate.py)."""
    return [MarginalCostBot(THRESHOLD)] * PLAYERS


def generated_source(table: FastTable) -> str:
    """The kernel module source the package generates for `table`'s kinds (CACHE off).

    The generator writes the module into its cache directory; it is pointed at a private
    temporary directory here, so the text comes from the generator, not from a cache file.
    """
    kinds = sorted({type(b).FAST_DECIDE for b in bots()}, key=_kind_key)  # as FastTable does
    original, registered = kernel_gen._cache_dir, dict(sys.modules)
    with tempfile.TemporaryDirectory() as tmp:
        kernel_gen._cache_dir = lambda: Path(tmp)
        try:
            with kernel_gen._lock:
                module = kernel_gen._build_kernel_module(tuple(kinds), nrt=table.module.NRT)
        finally:
            kernel_gen._cache_dir = original
            # It registered itself under the package kernel's name: give that name back.
            kernels = [k for k in sys.modules if k.startswith("_nothanks_lab_kernel_")]
            for name in [k for k in kernels if sys.modules[k] is not registered.get(k)]:
                if name in registered:
                    sys.modules[name] = registered[name]
                else:
                    del sys.modules[name]
        assert module.__file__, "the generator compiled in memory: its kinds cannot be keyed"
        text = Path(module.__file__).read_text()
    assert "CACHE = True" in text, "the generated kernel no longer has its CACHE switch"
    return text.replace("CACHE = True", "CACHE = False", 1)


def variant_module(v: Variant, base: str, table: FastTable) -> types.ModuleType:
    """`v`'s kernel module: `base` with its substitutions, executed in memory."""
    if v.package:
        return table.module
    text = base
    for old, new in v.subs:
        if old not in text:
            raise SystemExit(
                f"variant {v.name!r}: the generated kernel no longer contains {old!r}; "
                "update its substitutions"
            )
        text = text.replace(old, new)
    module = types.ModuleType(f"_kernel_variant_{v.name.replace('-', '_')}")
    # The generated module binds its compiled decision functions from `_building`: reuse the
    # ones the package's kernel was built with.
    kernel_gen._building = table.module._kinds
    try:
        exec(compile(text, f"<kernel variant {v.name}>", "exec"), module.__dict__)
    finally:
        kernel_gen._building = ()
    return module


def play(module: types.ModuleType, table: FastTable, v: Variant, n: int) -> tuple[int, float]:
    """Total score over `n` games of the stream, and the CPU seconds the kernel took.

    Dealing for a variant that is given its decks happens outside the clock.
    """
    rules = nt.Rules()
    key = stream_key(SEED)
    points = np.empty((CHUNK, PLAYERS), dtype=np.int64)
    moves = np.empty(CHUNK, dtype=np.int64)
    total, cpu = 0, 0.0
    for lo in range(0, n, CHUNK):
        c = min(CHUNK, n - lo)
        decks = None if v.deal else deal_decks(rules, seed=SEED, start=lo, count=c)
        t = time.process_time()
        if decks is None:
            decks = np.empty((c, rules.n_in_play), dtype=np.int64)
        s = core.new_state(decks, PLAYERS, rules.starting_chips(PLAYERS), 0)
        module.play_chunk(
            s,
            table.kinds,
            table.params,
            v.deal,
            key[0],
            key[1],
            np.int64(lo),
            np.int64(rules.low_card),
            np.int64(rules.n_cards),
            points[:c],
            moves[:c],
        )
        cpu += time.process_time() - t
        total += int(points[:c].sum() - s.chips.sum())
    return total, cpu


def spread(values: Sequence[float], fmt: Callable[[float], str]) -> str:
    """Median and range of `values`, each written with `fmt`."""
    return f"{fmt(statistics.median(values))} ({fmt(min(values))}-{fmt(max(values))})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1_000_000, help="games per timed run")
    ap.add_argument("--repeats", type=int, default=5, help="C / variant pairs per variant")
    names = [v.name for v in VARIANTS]
    ap.add_argument(
        "--variants",
        default=",".join(names),
        help=f"comma list of variants (base is always run); default all: {','.join(names)}",
    )
    a = ap.parse_args()
    if a.games < 1 or a.repeats < 1:
        ap.error("--games and --repeats must be at least 1")
    wanted = [w.strip() for w in a.variants.split(",") if w.strip()]
    unknown = [w for w in wanted if w not in names]
    if unknown:
        ap.error(f"--variants: unknown {', '.join(unknown)}; allowed: {', '.join(names)}")
    chosen = [v for v in VARIANTS if v.name == "base" or v.name in wanted]

    table = fast_table(bots(), strict=True)
    assert table is not None
    base = generated_source(table)
    modules = {}
    for v in chosen:
        t = time.perf_counter()
        modules[v.name] = variant_module(v, base, table)
        play(modules[v.name], table, v, 10)  # compile before any timing
        print(f"compiled {v.name:12s} {time.perf_counter() - t:6.2f} s", flush=True)

    print(f"\n== checksums: total score over {a.games:,} games (seed {SEED}) ==")
    sums = {v.name: play(modules[v.name], table, v, a.games)[0] for v in chosen}
    wrong = []
    for v in chosen:
        if v.profiling_only:
            verdict = "(profiling only: not checked)"
        elif sums[v.name] == sums["base"]:
            verdict = "== base"
        else:
            verdict = "DIFFERS FROM BASE"
            wrong.append(v.name)
        print(f"{v.name:12s} {sums[v.name]:16,d}  {verdict}")
    if wrong:
        raise SystemExit(f"variants whose scores differ from the base: {', '.join(wrong)}")

    exe = build_reference()
    if exe is None:
        print("\nC reference: skipped (no gcc on PATH or no reference source); ours only")
    c_rates: list[float] = []
    rates: dict[str, list[float]] = {v.name: [] for v in chosen}
    ratios: dict[str, list[float]] = {v.name: [] for v in chosen}
    for _ in range(a.repeats):
        for v in chosen:
            c = run_reference(exe, a.games)[2] if exe is not None else None
            ours = a.games / play(modules[v.name], table, v, a.games)[1]
            rates[v.name].append(ours)
            if c is not None:
                c_rates.append(c)
                ratios[v.name].append(ours / c)

    print(
        f"\n== {PLAYERS} x MarginalCostBot({THRESHOLD}), {a.games:,} games, {a.repeats} "
        "C/variant pairs each, CPU time, one thread ==\n"
    )
    if exe is not None:
        print(f"C reference: {statistics.median(c_rates):,.0f} games per CPU second (median)\n")
    print("| variant | games/s (median) | ratio vs C: median (range) |")
    print("|---|---:|---|")
    for v in chosen:
        r = ratios[v.name]
        ratio = spread(r, lambda x: f"{x:.2f}") if r else "n/a (no C reference)"
        print(f"| {v.label} | {statistics.median(rates[v.name]):,.0f} | {ratio} |")


if __name__ == "__main__":
    main()

"""`TournamentResult`: per-bot numbers with intervals, paired comparisons, games one by one.

Every number is computed from the exact integer sums a run returns (`run._Sums`); each game
can be rebuilt from the seed (`TournamentResult.game_records`, `TournamentResult.replay`).
"""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..bots.specs import bot_label
from ..i18n import N_, _, fmt_decimal, fmt_int, fmt_percent
from ..render.tables import html_table, text_table
from ..rules import Rules
from ..stats import Interval, fmt_number, mean_interval, share_difference_interval, share_interval
from ..validate import check_int, is_int, write_atomic
from .frames import _estimates, _frame, _tuples
from .ratings import Pairwise, Ratings, fit_ratings, fmt_ci, pairwise_record
from .run import (
    _SUM_FIELDS,
    WIN_UNIT,
    _batches,
    _Chunk,
    _fresh_policies,
    _Games,
    _has_fast_path,
    _Plan,
    _play_chunk,
    _Sums,
)


def _per_deal(x1: int, x2: int, k: int, unit: int) -> tuple[Fraction, Fraction]:
    """Sum and sum of squares over deals of ``X / (k * unit)``, from the sums of ``X``."""
    return Fraction(x1, k * unit), Fraction(x2, (k * unit) ** 2)


def _deal_interval(
    x1: int, x2: int, k: int, n: int, unit: int, confidence: float, share: bool
) -> Interval:
    """One item's mean per game with its interval over deals, from exact per-deal sums.

    A win share (`share`) gets `share_interval` (inside [0, 1], positive width); a score gets
    the Student-t `mean_interval`.
    """
    total, total_sq = _per_deal(x1, x2, k, unit)
    return (share_interval if share else mean_interval)(
        n=n, total=total, total_sq=total_sq, confidence=confidence
    )


def _means_and_cis(
    x1: Sequence[int], x2: Sequence[Sequence[int]], k: Sequence[int], n: int, unit: int,
    confidence: float, share: bool,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Means per game and intervals over deals (`_deal_interval`), from exact per-deal sums.

    Item ``b``'s per-deal value is ``X_b / (k_b * unit)``; ``x1`` sums ``X_b`` over deals,
    ``x2[b][b]`` sums its squares.
    """
    means = np.empty(len(x1))
    cis = np.empty((len(x1), 2))
    for b in range(len(x1)):
        iv = _deal_interval(x1[b], x2[b][b], k[b], n, unit, confidence, share)
        means[b], cis[b] = iv.value, (iv.low, iv.high)
    return means, cis


@dataclass(frozen=True)
class Comparison(Interval):
    """A paired difference ``a - b`` between two bots on the same deals, with its interval.

    An `~nothanks_lab.stats.Interval` (``value`` is the difference, ``n`` the deals) that
    also names what was compared; ``diff`` is the same number as ``value``.
    """

    metric: str = "win_share"
    """``"win_share"`` or ``"mean_score"``."""
    a: str = ""
    """Name of the first bot."""
    b: str = ""
    """Name of the second bot."""

    @property
    def diff(self) -> float:
        """Mean of ``a``'s per-deal value minus ``b``'s (the interval's `value`)."""
        return self.value

    def __str__(self) -> str:
        ci = fmt_ci(self.low, self.high, 4, signed=True)
        what = _(N_("win share") if self.metric == "win_share" else N_("mean score"))
        value = fmt_decimal(self.diff, 4, sign=True)
        text = _("{a} - {b}, difference in {what}: {value} {ci}")
        return text.format(a=self.a, b=self.b, what=what, value=value, ci=ci)


@dataclass(frozen=True, eq=False)
class TournamentResult:
    """Per-bot win shares and mean scores with confidence intervals; best first in tables.

    Win share: the share of games won, a win shared by k tied players counting 1/k (a bot
    as good as its table wins 1/P). Mean score: lower is better.
    """

    names: tuple[str, ...]
    """Bot names, in field order (repeats get ``#2``...)."""
    n_players: int
    """Seats at the table."""
    n_deals: int
    """Deals played; each one in every seating."""
    seed: int
    """Seed of the deal stream (rerun with it to get the same table)."""
    lineups: tuple[tuple[int, ...], ...]
    """Which bots sit down together: field index per lineup position."""
    confidence: float
    """Confidence level of the intervals, e.g. 0.95."""
    sums: _Sums = field(repr=False)
    """Exact integer sums behind every number."""
    policies: tuple[Any, ...] = field(default=(), repr=False)
    """The field as played (copies are reseeded per batch; see `replay`)."""
    rules: Rules = field(default_factory=Rules, repr=False)
    """The rule set the deals were played under."""
    first_player: int = 0
    """The seat that acted first in every game."""
    chunk_size: int = 0
    """Deals per unit of work (records and replays rebuild the same batches)."""

    # ---------------------------------------------------------------- numbers per bot
    @property
    def seatings_per_deal(self) -> int:
        """Games each deal was played in: one balanced block of seatings per lineup."""
        return _Plan(self.policies, self.lineups).seatings_per_deal

    @property
    def n_games(self) -> int:
        """Games played in all: deals x seatings per deal."""
        return self.n_deals * self.seatings_per_deal

    @property
    def seats_per_deal(self) -> np.ndarray:
        """int[bots]: seats each bot holds per deal, summed over its seatings."""
        counts = np.zeros(len(self.names), dtype=np.int64)
        for blocks in _Plan(self.policies, self.lineups).blocks:
            for seating in blocks[0]:
                for b in seating:
                    counts[b] += 1
        return counts

    @property
    def games(self) -> np.ndarray:
        """int[bots]: games each bot played (a bot in two seats of a game counts twice)."""
        return self.seats_per_deal * self.n_deals

    @property
    def win_share(self) -> np.ndarray:
        """float[bots]: mean win share per game played."""
        return self._mean("win_share")

    @property
    def win_share_ci(self) -> np.ndarray:
        """float[bots, 2]: confidence interval of `win_share`."""
        return self._ci("win_share")

    @property
    def mean_score(self) -> np.ndarray:
        """float[bots]: mean final score per game played (lower is better)."""
        return self._mean("mean_score")

    @property
    def score_ci(self) -> np.ndarray:
        """float[bots, 2]: confidence interval of `mean_score`."""
        return self._ci("mean_score")

    @property
    def seat_win_share(self) -> np.ndarray:
        """float[P]: win share of each seat position (seat 0 acts first unless moved)."""
        return self._seat("win_share")[0]

    @property
    def seat_win_share_ci(self) -> np.ndarray:
        """float[P, 2]: confidence interval of `seat_win_share` (over deals)."""
        return self._seat("win_share")[1]

    @property
    def seat_mean_score(self) -> np.ndarray:
        """float[P]: mean score of each seat position."""
        return self._seat("mean_score")[0]

    @property
    def seat_score_ci(self) -> np.ndarray:
        """float[P, 2]: confidence interval of `seat_mean_score` (over deals)."""
        return self._seat("mean_score")[1]

    def _seat(self, metric: str) -> tuple[np.ndarray, np.ndarray]:
        if metric == "win_share":
            y1, y2, unit = self.sums.seat_win, self.sums.seat_win2, WIN_UNIT
        else:
            y1, y2, unit = self.sums.seat_score, self.sums.seat_score2, 1
        k = [self.seatings_per_deal] * len(y1)
        return _means_and_cis(y1, y2, k, self.n_deals, unit, self.confidence, metric == "win_share")

    @property
    def mean_decisions(self) -> float:
        """Mean number of decisions per game."""
        return self.sums.decisions / self.n_games

    def ranking(self) -> list[int]:
        """Bot indices, best first: highest win share, then lowest mean score."""
        ws, ms = self.win_share, self.mean_score
        return sorted(range(len(self.names)), key=lambda b: (-ws[b], ms[b], self.names[b]))

    def index(self, bot: int | str) -> int:
        """The field index of a bot given by index or name."""
        if isinstance(bot, str):
            if bot not in self.names:
                raise ValueError(f"no bot named {bot!r}; the field is {list(self.names)}")
            return self.names.index(bot)
        if not is_int(bot) or not 0 <= bot < len(self.names):
            raise ValueError(
                f"bot must be a name or an index in 0..{len(self.names) - 1}; got {bot!r}"
            )
        return int(bot)

    def compare(self, a: int | str, b: int | str, metric: str = "win_share") -> Comparison:
        """Paired difference of two bots' per-deal values (``a - b``) with its interval.

        Both bots played the same deals, so the interval is much tighter than one built
        from two separate intervals. Student t over deals; a win-share difference is kept
        inside [-1, 1] with positive width (`nothanks_lab.stats.share_difference_interval`).
        """
        ia, ib = self.index(a), self.index(b)
        x1, x2, unit = self._raw(metric)
        ka, kb = (int(k) for k in self.seats_per_deal[[ia, ib]])
        # Per deal d = A / (ka * unit) - B / (kb * unit): its exact sum and sum of squares.
        sa, sqa = _per_deal(x1[ia], x2[ia][ia], ka, unit)
        sb, sqb = _per_deal(x1[ib], x2[ib][ib], kb, unit)
        cross = Fraction(x2[ia][ib], ka * kb * unit * unit)
        make = share_difference_interval if metric == "win_share" else mean_interval
        iv = make(
            n=self.n_deals,
            total=sa - sb,
            total_sq=sqa + sqb - 2 * cross,
            confidence=self.confidence,
        )
        return Comparison(
            iv.value, iv.low, iv.high, iv.n, iv.confidence, metric, self.names[ia], self.names[ib]
        )

    def interval(self, bot: int | str, metric: str = "win_share") -> Interval:
        """One bot's win share or mean score per game, with its interval over deals.

        >>> from nothanks_lab.tournaments import tournament
        >>> r = tournament(["marginal:threshold=10", "marginal:threshold=-40"], 3, 100, seed=1,
        ...                lineups=[(0, 1, 1)])
        >>> iv = r.interval(0)
        >>> (iv.value, iv.low, iv.high) == (r.win_share[0], *r.win_share_ci[0]), iv.n
        (True, 100)
        """
        b = self.index(bot)
        x1, x2, unit = self._raw(metric)
        k = int(self.seats_per_deal[b])
        share = metric == "win_share"
        return _deal_interval(x1[b], x2[b][b], k, self.n_deals, unit, self.confidence, share)

    def _raw(self, metric: str) -> tuple[list[int], list[list[int]], int]:
        if metric == "win_share":
            return self.sums.win, self.sums.win2, WIN_UNIT
        if metric == "mean_score":
            return self.sums.score, self.sums.score2, 1
        raise ValueError(f"metric must be 'win_share' or 'mean_score'; got {metric!r}")

    def _mean(self, metric: str) -> np.ndarray:
        return self._means_cis(metric)[0]

    def _ci(self, metric: str) -> np.ndarray:
        return self._means_cis(metric)[1]

    def _means_cis(self, metric: str) -> tuple[np.ndarray, np.ndarray]:
        x1, x2, unit = self._raw(metric)
        k = [int(c) for c in self.seats_per_deal]
        share = metric == "win_share"
        return _means_and_cis(x1, x2, k, self.n_deals, unit, self.confidence, share)

    # ---------------------------------------------------------------- structure
    def _meets(self) -> np.ndarray:
        """int[bots, bots]: per deal, the games in which bots a and b both sat."""
        n_bots = len(self.names)
        meets = np.zeros((n_bots, n_bots), dtype=np.int64)
        for blocks in _Plan(self.policies, self.lineups).blocks:
            for seating in blocks[0]:
                for a in set(seating):
                    for b in set(seating):
                        if a != b:
                            meets[a, b] += seating.count(a) * seating.count(b)
        return meets

    def pairwise(self) -> Pairwise:
        """Each pair's head-to-head record with intervals (see `Pairwise`).

        >>> from nothanks_lab.tournaments import tournament
        >>> r = tournament(["marginal:threshold=10", "marginal:threshold=-40", "marginal"],
        ...                n_games=200, seed=1)
        >>> pw = r.pairwise()
        >>> bool(pw.low[0, 1] > 0.5), float(pw.share[0, 1] + pw.share[1, 0])
        (True, 1.0)
        """
        return pairwise_record(
            self.names,
            self._meets(),
            self.n_deals,
            self.sums.beat,
            self.sums.beat2,
            self.confidence,
        )

    def ratings(
        self, anchor: int | str | None = None, *, n_boot: int = 200, seed: int = 0
    ) -> Ratings:
        """Bradley–Terry ratings of the field on the Elo scale (see `Ratings`).

        Every pair must be connected through games (the default lineups always are).

        >>> from nothanks_lab.tournaments import tournament
        >>> r = tournament(["marginal:threshold=10", "marginal:threshold=-40",
        ...                 "marginal:threshold=0"], n_games=200, seed=1)
        >>> rt = r.ratings(anchor="MarginalCostBot(threshold=-40)")
        >>> rt.names[int(rt.rating.argmax())], float(rt.rating[1])
        ('MarginalCostBot(threshold=10)', 0.0)
        """
        ref = None if anchor is None else self.index(anchor)
        n_boot = check_int(n_boot, "n_boot", low=0)
        return fit_ratings(self.pairwise(), self.n_deals, ref, n_boot=n_boot, seed=seed)

    # ---------------------------------------------------------------- games one by one
    def _plan(self) -> _Plan:
        if not self.policies:
            raise ValueError("this result does not carry its field; rerun the tournament")
        return _Plan(self.policies, self.lineups)

    def _chunks(self) -> Iterator[_Chunk]:
        plan, size = self._plan(), self.chunk_size
        for start in range(0, self.n_deals, size):
            count = min(size, self.n_deals - start)
            yield _Chunk(plan, 0, self.rules, self.seed, start, count, self.first_player)

    def seatings_of(self, deal: int) -> list[tuple[int, ...]]:
        """The seatings (bot index per seat) deal `deal` was played in, in slot order."""
        deal = check_int(deal, "deal", low=0, high=self.n_deals - 1)
        chunk = _Chunk(self._plan(), 0, self.rules, self.seed, deal, 1, self.first_player)
        return [seating for _, seating, _, _ in _batches(chunk)]

    def game_records(self) -> list[dict[str, Any]]:
        """One record per game and seat, rebuilt from the seed (the games are replayed).

        Keys: ``game`` (index, deal-major: ``deal * seatings_per_deal + slot``), ``deal``,
        ``lineup`` (index into `lineups`), ``slot``, ``seat``, ``bot`` (name), ``bot_index``,
        ``score``, ``card_points``, ``chips``, ``win_share``. `replay` rebuilds any game.

        >>> from nothanks_lab.tournaments import tournament
        >>> r = tournament(["marginal:threshold=10", "marginal:threshold=0", "random"], n_games=3,
        ...                seed=1)
        >>> recs = r.game_records()
        >>> len(recs) == r.n_games * 3, sorted(recs[0])[:4]
        (True, ['bot', 'bot_index', 'card_points', 'chips'])
        """
        plan = self._plan()
        n_slots, n_seats = self.seatings_per_deal, self.n_players
        slot_lineup = [li for li, b in enumerate(plan.blocks) for _ in b[0]]
        records: list[dict[str, Any]] = []
        for chunk in self._chunks():
            shape = (n_slots, chunk.count, n_seats)
            g = _Games.zeros(shape)
            _play_chunk(chunk, g)
            for d in range(chunk.count):
                deal = chunk.start + d
                for slot in range(n_slots):
                    for seat in range(n_seats):
                        b = int(g.bots[slot, d, seat])
                        records.append(
                            {
                                "game": deal * n_slots + slot,
                                "deal": deal,
                                "lineup": slot_lineup[slot],
                                "slot": slot,
                                "seat": seat,
                                "bot": self.names[b],
                                "bot_index": b,
                                "score": int(g.scores[slot, d, seat]),
                                "card_points": int(g.card_points[slot, d, seat]),
                                "chips": int(g.chips[slot, d, seat]),
                                "win_share": float(g.win_share[slot, d, seat]),
                            }
                        )
        return records

    def save_games(self, path: Any) -> None:
        """Write `game_records` to a Parquet file (needs the ``frames`` extra: pandas, pyarrow)."""
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            msg = "save_games needs pyarrow (pip install 'nothanks_lab[frames]'); game_records()"
            raise ImportError(f"{msg} gives the same table as a list of dicts") from None
        buffer = io.BytesIO()  # written whole, then renamed: never a partial Parquet file
        self.game_frame().to_parquet(buffer, index=False)
        write_atomic(path, buffer.getvalue())

    # ---------------------------------------------------------------- files
    def to_json(self) -> str:
        """The result as a versioned JSON document: every number behind the tables.

        The field itself is kept by name only, so a loaded result prints, compares and
        rates like the original, while `game_records` and `replay` need the original (or a
        rerun with the same seed).
        """
        doc = {
            "format": "nothanks_lab.tournament",
            "version": 1,
            "names": list(self.names),
            "n_players": self.n_players,
            "n_deals": self.n_deals,
            "seed": self.seed,
            "lineups": [list(lu) for lu in self.lineups],
            "confidence": self.confidence,
            "rules": dataclasses.asdict(self.rules),
            "first_player": self.first_player,
            "chunk_size": self.chunk_size,
            "sums": {f: getattr(self.sums, f) for f in _SUM_FIELDS},
        }
        return json.dumps(doc)

    @classmethod
    def from_json(cls, text: str) -> TournamentResult:
        """A result saved by `to_json`; a malformed or foreign document is a `ValueError`."""
        try:
            doc = json.loads(text)
        except (TypeError, ValueError) as e:
            raise ValueError(f"text is not a JSON document: {e}") from None
        if not isinstance(doc, dict) or doc.get("format") != "nothanks_lab.tournament":
            raise ValueError("format: not a nothanks_lab tournament result")
        if doc.get("version") != 1:
            raise ValueError(f"version: {doc.get('version')!r} is not a known version (1)")
        try:
            rules_doc = doc["rules"]
            rules = Rules(**{k: _tuples(v) for k, v in rules_doc.items()})
            sums = _Sums(**{f: doc["sums"][f] for f in _SUM_FIELDS})
            lineups = tuple(tuple(int(b) for b in lu) for lu in doc["lineups"])
            names = tuple(str(n) for n in doc["names"])
            result = cls(
                names,
                int(doc["n_players"]),
                int(doc["n_deals"]),
                int(doc["seed"]),
                lineups,
                float(doc["confidence"]),
                sums,
                (),
                rules,
                int(doc["first_player"]),
                int(doc["chunk_size"]),
            )
            _ = result.win_share_ci, result.pairwise()  # every number must be computable
        except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError) as e:
            raise ValueError(f"the document is inconsistent: {type(e).__name__}: {e}") from None
        return result

    def game_frame(self) -> Any:
        """`game_records` as a pandas DataFrame (needs pandas, which is optional)."""
        return _frame(self.game_records())

    def replay(self, i: int) -> Any:
        """Game `i` (as numbered by `game_records`) replayed through the one-game engine.

        Returns the finished `nothanks_lab.Game`: same deal, same seating, same moves, so its
        ``scores()`` equal the records'. A randomized bot replays the same draws: its batch of
        games is replayed in order up to game `i`.
        """
        from ..engine import Game
        from ..play import play_out

        n_slots = self.seatings_per_deal
        total = self.n_deals * n_slots
        i = check_int(i, "i (a game index)", low=0, high=total - 1)
        deal, slot = divmod(i, n_slots)
        start = deal - deal % self.chunk_size
        chunk = _Chunk(
            self._plan(),
            0,
            self.rules,
            self.seed,
            start,
            min(self.chunk_size, self.n_deals - start),
            self.first_player,
        )
        from ..deals import deal_decks

        decks = deal_decks(self.rules, seed=self.seed, start=start, count=chunk.count)
        for s, seating, rows, key in _batches(chunk):
            if s != slot or deal - start not in rows:
                continue
            policies = _fresh_policies(self.policies, self.seed, key)
            seated = [policies[b] for b in seating]
            # Deterministic bots need only this deal; a randomized one (no compiled path)
            # drew from its generator on every earlier game of the batch, in deal order.
            compiled = all(map(_has_fast_path, seated))
            earlier: np.ndarray = rows[rows < deal - start] if not compiled else rows[:0]
            for row in earlier:
                play_out(
                    Game(
                        self.n_players,
                        rules=self.rules,
                        deck=decks[row],
                        first_player=self.first_player,
                    ),
                    seated,
                )
            game = Game(
                self.n_players,
                rules=self.rules,
                deck=decks[deal - start],
                first_player=self.first_player,
            )
            return play_out(game, seated)
        raise AssertionError("every deal is played in every slot")  # pragma: no cover

    # ---------------------------------------------------------------- tables
    def to_records(self) -> list[dict[str, Any]]:
        """A tidy table, best first: one dict per bot (for plotting or a DataFrame)."""
        games, estimates = self.games, _estimates(self)
        return [
            {
                "rank": rank,
                "bot": self.names[b],
                "games": int(games[b]),
                "deals": self.n_deals,
                "n_players": self.n_players,
                **estimates[b],
            }
            for rank, b in enumerate(self.ranking(), start=1)
        ]

    def to_frame(self) -> Any:
        """The tidy table as a pandas DataFrame (needs pandas, which is optional)."""
        return _frame(self.to_records())

    def table_title(self) -> str:
        title = _(
            "No Thanks! tournament: {n} players, {deals} deals x {k} seatings = {games} games, "
            "seed {seed}, {pct}% CI"
        )
        deals, games = fmt_int(self.n_deals), fmt_int(self.n_games)
        seed, k, pct = self.seed, self.seatings_per_deal, fmt_number(self.confidence * 100, "g")
        return title.format(n=self.n_players, deals=deals, k=k, games=games, seed=seed, pct=pct)

    def table_rows(self) -> tuple[list[str], list[list[str]]]:
        """The printed table's heading and rows (text), best first (`to_records` order)."""
        ci = _("{pct} CI").format(pct=fmt_percent(self.confidence))
        head = [_("rank"), _("bot"), _("games"), _("win share"), ci, _("mean score"), _("CI")]
        rows = [
            [
                str(r["rank"]),
                bot_label(r["bot"]),
                fmt_int(r["games"]),
                fmt_decimal(r["win_share"], 4),
                fmt_ci(r["win_share_low"], r["win_share_high"], 4),
                fmt_decimal(r["mean_score"], 2),
                fmt_ci(r["score_low"], r["score_high"], 2),
            ]
            for r in self.to_records()
        ]
        return head, rows

    def __str__(self) -> str:
        head, rows = self.table_rows()
        return self.table_title() + "\n" + text_table(head, rows, right={0, 2, 3, 5})

    def _repr_html_(self) -> str:
        head, rows = self.table_rows()
        return html_table(head, rows, caption=self.table_title(), css_class="nothanks-tournament")

    def __repr__(self) -> str:
        return (
            f"TournamentResult({len(self.names)} bots, {self.n_players} players, "
            f"{self.n_deals} deals, seed={self.seed})"
        )

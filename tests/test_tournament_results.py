"""What an analyst takes away from a tournament: records, replays, ratings, files, frames."""

from __future__ import annotations

import json

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab import plots
from nothanks_lab.tournaments import TournamentResult, tournament, tune

FIELD = ["marginal:threshold=10", "marginal:threshold=-40", "heuristic", "linear"]


@pytest.fixture(scope="module")
def result() -> TournamentResult:
    return tournament(FIELD, 3, 300, seed=4, progress=False)


def test_pairwise_shares_are_complementary_and_match_the_records(result) -> None:
    pw = result.pairwise()
    off = ~np.eye(4, dtype=bool)
    assert np.allclose((pw.share + pw.share.T)[off], 1.0)
    assert np.isnan(np.diag(pw.share)).all()
    assert (pw.low[off] <= pw.share[off]).all() and (pw.share[off] <= pw.high[off]).all()
    # Recount from the per-game records: a beat b when its score was lower, ties half.
    beat = np.zeros((4, 4))
    games = np.zeros((4, 4))
    by_game: dict[int, list[dict]] = {}
    for rec in result.game_records():
        by_game.setdefault(rec["game"], []).append(rec)
    for recs in by_game.values():
        for x in recs:
            for y in recs:
                if x["bot_index"] != y["bot_index"]:
                    a, b = x["bot_index"], y["bot_index"]
                    games[a, b] += 1
                    beat[a, b] += (x["score"] < y["score"]) + 0.5 * (x["score"] == y["score"])
    assert np.array_equal(games, pw.games)
    assert np.allclose(beat[off] / games[off], pw.share[off])


def test_ratings_order_the_field_and_anchor(result) -> None:
    rt = result.ratings(anchor="MarginalCostBot(threshold=-40)")
    assert rt.rating[1] == 0.0
    assert rt.names[int(np.argmax(rt.rating))] == "LinearBot(defaults)"
    assert (rt.low <= rt.rating + 1e-9).all() and (rt.rating <= rt.high + 1e-9).all()
    # Stronger in the pairwise records means a higher rating.
    pw = result.pairwise()
    assert (rt.rating[3] > rt.rating[2]) == (pw.share[3, 2] > 0.5)
    assert "Elo" in str(rt)
    # Reproducible.
    again = result.ratings(anchor=1)
    assert np.array_equal(again.low, rt.low)


def test_figures_for_structure(result) -> None:
    for fig in (
        plots.plot_pairwise(result),
        plots.plot_ratings(result),
        plots.plot_seat_positions(result),
        plots.plot_seat_positions(result, metric="mean_score"),
    ):
        assert len(fig.data) >= 1
    with pytest.raises(ValueError, match="metric"):
        plots.plot_seat_positions(result, metric="nope")


def test_json_round_trip_keeps_every_number(result) -> None:
    loaded = TournamentResult.from_json(result.to_json())
    assert loaded.names == result.names
    assert np.array_equal(loaded.win_share_ci, result.win_share_ci)
    assert np.array_equal(loaded.seat_win_share, result.seat_win_share)
    assert str(loaded.compare(0, 2)) == str(result.compare(0, 2))
    assert str(loaded) == str(result)
    with pytest.raises(ValueError, match="carry its field"):
        loaded.replay(0)


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda d: d.update(version=9), "version"),
        (lambda d: d.update(format="x"), "format"),
        (lambda d: d["sums"].pop("win"), "inconsistent"),
        (lambda d: d.update(lineups=[[0, 1, 9]]), "inconsistent"),
    ],
)
def test_json_refuses_tampered_documents(result, edit, match: str) -> None:
    doc = json.loads(result.to_json())
    edit(doc)
    with pytest.raises(ValueError, match=match):
        TournamentResult.from_json(json.dumps(doc))
    with pytest.raises(ValueError, match="JSON"):
        TournamentResult.from_json("{not json")


def test_frames_and_parquet(result, tmp_path) -> None:
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    frame = result.game_frame()
    assert len(frame) == result.n_games * 3
    assert frame.groupby("bot_index")["win_share"].sum().to_numpy() / result.games == (
        pytest.approx(result.win_share)
    )
    path = tmp_path / "games.parquet"
    result.save_games(path)
    assert pd.read_parquet(path).equals(frame)
    sim = nt.simulate([nt.bots.MarginalCostBot(10)] * 3, 50, seed=1)
    sf = sim.to_frame()
    assert len(sf) == 150 and sf["score"].to_numpy().reshape(50, 3).tolist() == sim.scores.tolist()
    assert sim.to_records()[4]["seat"] == 1


def test_tune_keeps_a_declared_float_parameter_float() -> None:
    r = tune(
        "heuristic",
        {"threshold": (0, 8)},
        "marginal",
        3,
        60,
        seed=1,
        max_evals=6,
        validate=False,
        progress=False,
    )
    tried = [h["threshold"] for h in r.history]
    assert any(t != int(t) for t in tried), tried
    assert len(r.to_frame()) == len(r.history)


def test_seeds_may_be_generators_or_seed_sequences() -> None:
    a = tournament(FIELD[:3], 3, 40, seed=np.random.SeedSequence(5), progress=False)
    b = tournament(FIELD[:3], 3, 40, seed=np.random.SeedSequence(5), progress=False)
    assert a.seed == b.seed and np.array_equal(a.win_share, b.win_share)
    c = tournament(FIELD[:3], 3, 40, seed=np.random.default_rng(1), progress=False)
    again = tournament(FIELD[:3], 3, 40, seed=c.seed, progress=False)
    assert np.array_equal(c.win_share, again.win_share)


def test_user_bot_from_a_file(tmp_path) -> None:
    path = tmp_path / "mybot.py"
    path.write_text(
        "from nothanks_lab import Action\n"
        "class Taker:\n"
        "    def __init__(self, margin=0):\n"
        "        self.margin = margin\n"
        "    def act(self, view):\n"
        "        ok = not view.can_pass or view.pot >= self.margin\n"
        "        return Action.TAKE if ok else Action.PASS\n"
    )
    r = tournament(
        [f"{path}:Taker:margin=3", "marginal", "heuristic"], 3, 20, seed=1, progress=False
    )
    assert r.names[0] == "Taker(margin=3)"  # a file class is named with its parameters
    with pytest.raises(ValueError, match="no class 'Nope'"):
        tournament([f"{path}:Nope", "marginal", "heuristic"], 3, 5, seed=1)
    with pytest.raises(ValueError, match="no file"):
        tournament([f"{tmp_path}/none.py:Taker", "marginal", "heuristic"], 3, 5, seed=1)
    with pytest.raises(ValueError, match="cannot import module"):
        tournament(["no_such_pkg.mod:Bot", "marginal", "heuristic"], 3, 5, seed=1)

"""Bad input across the public API: one rule, one kind of error, a message naming the argument.

Each row is a call that must fail at once with a `ValueError` (or `TypeError`, or a subclass)
whose message holds a given word, usually the argument's name. The rows cover the engine, the
rules, hand-built views, every bot parameter, games, matches, simulations, tournaments,
probability, analysis, the widgets' constructors and the command line.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import nothanks_lab as nt
from nothanks_lab import analysis as an
from nothanks_lab import probability as pr
from nothanks_lab.__main__ import main
from nothanks_lab.bots import MarginalCostBot, RandomBot, available_bots, make_bot, params_of
from nothanks_lab.bots.opponents import OpponentModel
from nothanks_lab.deals import deal_decks
from nothanks_lab.engine import Event
from nothanks_lab.simulation import SimResult, simulate_chunks
from nothanks_lab.stats import proportion_interval
from nothanks_lab.tournaments import make_policy, parse_bot_spec
from nothanks_lab.tournaments.sweep import sweep
from nothanks_lab.validate import check_seed

INF, NAN = float("inf"), float("nan")
DECK = list(range(3, 27))
BOT = MarginalCostBot(5)
BOTS = [BOT] * 3
FIELD = ["marginal", "random", "random"]
QUIET = {"progress": False}


def view(**changes: Any) -> nt.PlayerView:
    """A real view (seat 0 to act on 3, nothing taken) with some fields replaced."""
    return dataclasses.replace(nt.Game(3, deck=DECK).view(0), **changes)


def pv(**fields: Any) -> nt.PlayerView:
    """A hand-built view: the standard start of a 3-player round unless `fields` say otherwise."""
    base: dict[str, Any] = {
        "seat": 0,
        "n_players": 3,
        "active_card": 3,
        "pot": 0,
        "my_chips": 11,
        "chips": (11, 11, 11),
        "hands": ((), (), ()),
        "cards_left": 23,
        "rules": nt.Rules(),
        "current_player": 0,
    }
    return nt.PlayerView(**{**base, **fields})


def game() -> nt.Game:
    return nt.Game(3, deck=DECK)


def sim(n: int, seed: Any = 1, offset: int = 0) -> SimResult:
    return nt.simulate(BOTS, n, seed=seed, game_offset=offset)


# (label, call, word the message must hold)
CASES: list[tuple[str, Callable[[], Any], str]] = [
    # ------------------------------------------------------------------ engine
    ("game n_players 2", lambda: nt.Game(2), "n_players"),
    ("game n_players 8", lambda: nt.Game(8), "n_players"),
    ("game n_players float", lambda: nt.Game(3.0), "n_players"),  # type: ignore[arg-type]
    ("game n_players str", lambda: nt.Game("3"), "n_players"),  # type: ignore[arg-type]
    ("game n_players bool", lambda: nt.Game(True), "n_players"),
    ("game n_players None", lambda: nt.Game(None), "n_players"),  # type: ignore[arg-type]
    ("game n_players np.float", lambda: nt.Game(np.float64(3)), "n_players"),  # type: ignore[arg-type]
    ("game rules str", lambda: nt.Game(3, rules="standard"), "rules"),  # type: ignore[arg-type]
    ("game rules dict", lambda: nt.Game(3, rules={}), "rules"),  # type: ignore[arg-type]
    ("game seed -1", lambda: nt.Game(3, seed=-1), "seed"),
    ("game seed 1.5", lambda: nt.Game(3, seed=1.5), "seed"),  # type: ignore[arg-type]
    ("game seed list", lambda: nt.Game(3, seed=[1, 2]), "seed"),  # type: ignore[arg-type]
    ("game seed True", lambda: nt.Game(3, seed=True), "seed"),
    ("game seed str", lambda: nt.Game(3, seed="x"), "seed"),  # type: ignore[arg-type]
    ("game seed np -3", lambda: nt.Game(3, seed=np.int64(-3)), "seed"),
    ("game seed nan", lambda: nt.Game(3, seed=NAN), "seed"),  # type: ignore[arg-type]
    ("game seed object", lambda: nt.Game(3, seed=object()), "seed"),  # type: ignore[arg-type]
    ("game seed with deck", lambda: nt.Game(3, seed=-1, deck=DECK), "seed"),
    ("game first_player 3", lambda: nt.Game(3, first_player=3), "first_player"),
    ("game first_player -1", lambda: nt.Game(3, first_player=-1), "first_player"),
    ("game first_player 1.0", lambda: nt.Game(3, first_player=1.0), "first_player"),  # type: ignore[arg-type]
    ("game first_player True", lambda: nt.Game(3, first_player=True), "first_player"),
    ("game first_player None", lambda: nt.Game(3, first_player=None), "first_player"),  # type: ignore[arg-type]
    ("deck set", lambda: nt.Game(3, deck=set(DECK)), "deck"),
    ("deck frozenset", lambda: nt.Game(3, deck=frozenset(DECK)), "deck"),
    ("deck dict", lambda: nt.Game(3, deck=dict.fromkeys(DECK)), "deck"),
    ("deck str", lambda: nt.Game(3, deck="abc"), "deck"),
    ("deck int", lambda: nt.Game(3, deck=5), "deck"),  # type: ignore[arg-type]
    ("deck short", lambda: nt.Game(3, deck=DECK[:-1]), "deck"),
    ("deck card 99", lambda: nt.Game(3, deck=[*DECK[1:], 99]), "deck"),
    ("deck twice", lambda: nt.Game(3, deck=[*DECK[1:], 4]), "deck"),
    ("deck 2-d", lambda: nt.Game(3, deck=np.array(DECK).reshape(4, 6)), "deck"),
    ("deck None card", lambda: nt.Game(3, deck=[*DECK[1:], None]), "deck"),  # type: ignore[list-item]
    ("view seat 3", lambda: game().view(3), "seat"),
    ("view seat str", lambda: game().view("0"), "seat"),  # type: ignore[arg-type]
    ("view seat None", lambda: game().view(None), "seat"),  # type: ignore[arg-type]
    ("step str", lambda: game().step("take"), "Action"),  # type: ignore[arg-type]
    ("step None", lambda: game().step(None), "Action"),  # type: ignore[arg-type]
    ("replay events None", lambda: nt.Game.replay(3, None, deck=DECK), "events"),  # type: ignore[arg-type]
    ("replay events ints", lambda: nt.Game.replay(3, [1, 2], deck=DECK), "events"),  # type: ignore[list-item]
    ("replay events str", lambda: nt.Game.replay(3, "ab", deck=DECK), "events"),  # type: ignore[arg-type]
    (
        "replay events set",
        lambda: nt.Game.replay(3, {Event(0, nt.Action.TAKE, 3, 0)}, deck=DECK),
        "events",
    ),
    ("replay deck None", lambda: nt.Game.replay(3, [], deck=None), "deck"),  # type: ignore[arg-type]
    ("from_position view str", lambda: nt.Game.from_position("v", []), "view"),  # type: ignore[arg-type]
    ("from_position rest None", lambda: nt.Game.from_position(view(), None), "deck_rest"),  # type: ignore[arg-type]
    (
        "from_position rest set",
        lambda: nt.Game.from_position(view(), set(range(4, 27))),
        "deck_rest",
    ),
    ("from_position rest 99", lambda: nt.Game.from_position(view(), [99] * 23), "deck_rest"),
    # ------------------------------------------------------------------ rules
    ("rules chips None", lambda: nt.Rules(chips=None), "chips"),  # type: ignore[arg-type]
    ("rules chips 10**30", lambda: nt.Rules(chips=((3, 10**30),)), "chips"),
    ("rules chips 2**63-1", lambda: nt.Rules(chips=((3, 2**63 - 1),)), "1000"),
    ("rules chips 1001", lambda: nt.Rules(chips=((3, 1001),)), "chips"),
    ("rules chips dict", lambda: nt.Rules(chips={3: 11}), "chips"),  # type: ignore[arg-type]
    ("rules chips str", lambda: nt.Rules(chips="311"), "chips"),  # type: ignore[arg-type]
    ("rules chips float", lambda: nt.Rules(chips=((3, 11.0),)), "chips"),  # type: ignore[arg-type]
    ("rules chips bool", lambda: nt.Rules(chips=((3, True),)), "chips"),
    ("rules chips 30 players", lambda: nt.Rules(chips=((30, 11),)), "players"),
    ("rules chips negative", lambda: nt.Rules(chips=((3, -1),)), "chips"),
    ("rules chips single", lambda: nt.Rules(chips=((3,),)), "chips"),  # type: ignore[arg-type]
    ("rules chips empty", lambda: nt.Rules(chips=()), "chips"),
    ("rules chips twice", lambda: nt.Rules(chips=((3, 11), (3, 9))), "chips"),
    ("rules low_card 1.5", lambda: nt.Rules(low_card=1.5), "low_card"),  # type: ignore[arg-type]
    ("rules low_card True", lambda: nt.Rules(low_card=True), "low_card"),
    ("rules low_card 0", lambda: nt.Rules(low_card=0), "low_card"),
    ("rules high_card 63", lambda: nt.Rules(high_card=63), "high_card"),
    ("rules high_card str", lambda: nt.Rules(high_card="35"), "high_card"),  # type: ignore[arg-type]
    ("rules n_removed -1", lambda: nt.Rules(n_removed=-1), "n_removed"),
    ("rules n_removed 33", lambda: nt.Rules(n_removed=33), "n_removed"),
    ("rules n_removed None", lambda: nt.Rules(n_removed=None), "n_removed"),  # type: ignore[arg-type]
    ("starting_chips 5.0", lambda: nt.Rules().starting_chips(5.0), "players"),  # type: ignore[arg-type]
    ("starting_chips 8", lambda: nt.Rules().starting_chips(8), "players"),
    ("check_cards 99", lambda: nt.Rules().check_cards([99]), "cards"),
    ("score chips -1", lambda: nt.score([3], -1), "chips"),
    ("score chips 1.5", lambda: nt.score([3], 1.5), "chips"),  # type: ignore[arg-type]
    ("card_points twice", lambda: nt.card_points([3, 3]), "hand"),
    ("card_points None", lambda: nt.card_points(None), "a hand is a list"),  # type: ignore[arg-type]
    ("card_points int", lambda: nt.card_points(5), "a hand is a list"),  # type: ignore[arg-type]
    ("card_points str", lambda: nt.card_points("3 4"), "a hand is a list"),  # type: ignore[arg-type]
    ("score dict", lambda: nt.score({3: 1}, 0), "a hand is a list"),  # type: ignore[arg-type]
    ("runs text card", lambda: nt.runs(["a"]), "hand"),  # type: ignore[list-item]
    # ------------------------------------------------------------------ hand-built views
    ("view active_card 99", lambda: pv(active_card=99), "active_card"),
    ("view active_card 3.5", lambda: pv(active_card=3.5), "active_card"),
    ("view active_card held", lambda: pv(hands=((3,), (), ()), cards_left=22), "active_card"),
    ("view hands shared", lambda: pv(hands=((4,), (4,), ()), cards_left=21), "hands"),
    ("view hand twice", lambda: pv(hands=((4, 4), (), ()), cards_left=21), "hand"),
    ("view hand card 99", lambda: pv(hands=((99,), (), ()), cards_left=22), "hands"),
    ("view hands count", lambda: pv(hands=((), ())), "hands"),
    ("view hands None", lambda: pv(hands=None), "hands"),
    ("view hands text", lambda: pv(hands=(("a",), (), ())), "hands"),
    ("view chips negative", lambda: pv(chips=(-1, 11, 11), my_chips=-1), "chips"),
    ("view chips length", lambda: pv(chips=(11, 11)), "chips"),
    ("view chips float", lambda: pv(chips=(11.5, 11, 11)), "chips"),
    ("view chips huge", lambda: pv(chips=(10**9, 11, 11), my_chips=10**9), "chips"),
    ("view my_chips differs", lambda: pv(my_chips=3), "my_chips"),
    ("view pot -1", lambda: pv(pot=-1), "pot"),
    ("view pot 1.5", lambda: pv(pot=1.5), "pot"),
    ("view pot True", lambda: pv(pot=True), "pot"),
    ("view seat 3", lambda: pv(seat=3), "seat"),
    ("view seat -1", lambda: pv(seat=-1), "seat"),
    ("view n_players 8", lambda: pv(n_players=8), "n_players"),
    ("view n_players str", lambda: pv(n_players="3"), "n_players"),
    ("view cards_left 99", lambda: pv(cards_left=99), "cards_left"),
    ("view cards_left -1", lambda: pv(cards_left=-1), "cards_left"),
    ("view cards_left inconsistent", lambda: pv(cards_left=20), "cards_left"),
    ("view rules str", lambda: pv(rules="standard"), "rules"),
    ("view current_player 5", lambda: pv(current_player=5), "current_player"),
    (
        "view 25 seen",
        lambda: pv(active_card=None, hands=(tuple(range(3, 28)), (), ()), cards_left=0),
        "finished",
    ),
    ("view over with a player", lambda: pv(active_card=None, cards_left=0), "finished"),
    ("view replace pot", lambda: view(pot=-2), "pot"),
    # ------------------------------------------------------------------ bots
    ("make_bot unknown", lambda: make_bot("nope"), "nope"),
    ("make_bot int name", lambda: make_bot(3), "bot"),  # type: ignore[arg-type]
    ("make_bot list name", lambda: make_bot(["x"]), "bot"),  # type: ignore[arg-type]
    ("make_bot unknown param", lambda: make_bot("marginal", colour=1), "colour"),
    ("marginal threshold inf", lambda: MarginalCostBot(INF), "threshold"),
    ("marginal threshold None", lambda: MarginalCostBot(None), "threshold"),  # type: ignore[arg-type]
    ("random seed 1.5", lambda: make_bot("random", seed=1.5), "seed"),
    ("random seed -1", lambda: make_bot("random", seed=-1), "seed"),
    ("random seed list", lambda: RandomBot(seed=[1, 2]), "seed"),  # type: ignore[arg-type]
    ("random seed True", lambda: RandomBot(seed=True), "seed"),
    ("random seed np.float", lambda: RandomBot(seed=np.float64(1)), "seed"),  # type: ignore[arg-type]
    ("marginal seed str", lambda: make_bot("marginal", seed="x"), "seed"),
    ("marginal seed -1", lambda: make_bot("marginal", seed=-1), "seed"),
    ("heuristic seed 1.5", lambda: make_bot("heuristic", seed=1.5), "seed"),
    (
        "search rollout_params list",
        lambda: make_bot("search", rollout_params=[1]),
        "rollout_params",
    ),
    (
        "search rollout_params name",
        lambda: make_bot("search", rollout_params={"x": 1}),
        "rollout_params",
    ),
    (
        "search rollout threshold inf",
        lambda: make_bot("search", rollout_params={"threshold": INF}),
        "threshold",
    ),
    ("search linear_params str", lambda: make_bot("search", linear_params="x"), "linear_params"),
    (
        "search linear_params bad",
        lambda: make_bot("search", linear_params={"nope": 1}),
        "linear_params",
    ),
    ("opponent model prior str", lambda: OpponentModel(prior_milker="x"), "prior_milker"),  # type: ignore[arg-type]
    ("opponent model eps nan", lambda: OpponentModel(eps=NAN), "eps"),
    ("opponent model learn 1", lambda: OpponentModel(learn=1), "learn"),  # type: ignore[arg-type]
    # ------------------------------------------------------------------ play
    ("play_game lone bot", lambda: nt.play_game(BOT), "policies"),  # type: ignore[arg-type]
    ("play_game seed -1", lambda: nt.play_game(BOTS, seed=-1), "seed"),
    ("play_game seed list", lambda: nt.play_game(BOTS, seed=[1, 2]), "seed"),  # type: ignore[arg-type]
    ("play_game deck set", lambda: nt.play_game(BOTS, deck=set(DECK)), "deck"),
    ("play_game 2 players", lambda: nt.play_game(BOTS[:2]), "players"),
    ("play_game first_player", lambda: nt.play_game(BOTS, first_player=5), "first_player"),
    ("play_game rules", lambda: nt.play_game(BOTS, rules="x"), "rules"),  # type: ignore[arg-type]
    ("play_match rounds 0", lambda: nt.play_match(BOTS, rounds=0), "rounds"),
    ("play_match rounds 1.5", lambda: nt.play_match(BOTS, rounds=1.5), "rounds"),  # type: ignore[arg-type]
    ("play_match seed -1", lambda: nt.play_match(BOTS, seed=-1), "seed"),
    ("play_match seed list", lambda: nt.play_match(BOTS, seed=[1, 2]), "seed"),  # type: ignore[arg-type]
    ("play_match seed 1.5", lambda: nt.play_match(BOTS, seed=1.5), "seed"),  # type: ignore[arg-type]
    ("play_match first_player", lambda: nt.play_match(BOTS, first_player=3), "first_player"),
    (
        "play_match rounds 10**9",
        lambda: nt.play_match(BOTS, rounds=10**9),
        "rounds must be a whole number (int) >= 1 and at most 10000",
    ),
    # ------------------------------------------------------------------ simulate
    ("simulate n_games -1", lambda: nt.simulate(BOTS, -1), "n_games"),
    ("simulate n_games 1.5", lambda: nt.simulate(BOTS, 1.5), "n_games"),  # type: ignore[arg-type]
    ("simulate n_games True", lambda: nt.simulate(BOTS, True), "n_games"),
    ("simulate seed -1", lambda: nt.simulate(BOTS, 2, seed=-1), "seed"),
    ("simulate seed list", lambda: nt.simulate(BOTS, 2, seed=[1, 2]), "seed"),  # type: ignore[arg-type]
    ("simulate seed 1.5", lambda: nt.simulate(BOTS, 2, seed=1.5), "seed"),  # type: ignore[arg-type]
    ("simulate seed True", lambda: nt.simulate(BOTS, 2, seed=True), "seed"),
    ("simulate chunk_size 0", lambda: nt.simulate(BOTS, 2, chunk_size=0), "chunk_size"),
    ("simulate chunk_size 1e30", lambda: nt.simulate(BOTS, 2, chunk_size=10**30), "ceiling"),
    ("simulate game_offset -1", lambda: nt.simulate(BOTS, 2, game_offset=-1), "game_offset"),
    ("simulate fast 1", lambda: nt.simulate(BOTS, 2, fast=1), "fast"),  # type: ignore[arg-type]
    ("simulate fast str", lambda: nt.simulate(BOTS, 2, fast="yes"), "fast"),  # type: ignore[arg-type]
    ("simulate rules", lambda: nt.simulate(BOTS, 2, rules="x"), "rules"),  # type: ignore[arg-type]
    ("simulate decks shape", lambda: nt.simulate(BOTS, decks=np.zeros((2, 5))), "decks"),
    ("simulate first_player", lambda: nt.simulate(BOTS, 2, first_player=3), "first_player"),
    ("simulate lone bot", lambda: nt.simulate(BOT, 2), "policies"),  # type: ignore[arg-type]
    ("simulate_chunks chunk 0", lambda: simulate_chunks(BOTS, 2, chunk_size=0), "chunk_size"),
    ("concat empty", lambda: SimResult.concat([]), "concat"),
    ("concat not results", lambda: SimResult.concat(["x"]), "SimResult"),  # type: ignore[list-item]
    ("concat other seeds", lambda: SimResult.concat([sim(3, 1), sim(3, 2, 3)]), "seed"),
    ("concat overlap", lambda: SimResult.concat([sim(3), sim(3, offset=2)]), "game_offset"),
    ("concat gap", lambda: SimResult.concat([sim(3), sim(3, offset=4)]), "game_offset"),
    ("concat order", lambda: SimResult.concat([sim(3, offset=3), sim(3)]), "game_offset"),
    ("concat set", lambda: SimResult.concat({sim(3)}), "parts"),
    ("deal_decks seed -1", lambda: deal_decks(nt.Rules(), seed=-1), "seed"),
    # ------------------------------------------------------------------ tournaments
    ("tournament n_games 0", lambda: nt.tournament(FIELD, n_games=0, **QUIET), "n_games"),
    ("tournament n_games 1.5", lambda: nt.tournament(FIELD, n_games=1.5, **QUIET), "n_games"),
    ("tournament seed -1", lambda: nt.tournament(FIELD, n_games=5, seed=-1, **QUIET), "seed"),
    ("tournament seed 1.5", lambda: nt.tournament(FIELD, n_games=5, seed=1.5, **QUIET), "seed"),
    ("tournament seed list", lambda: nt.tournament(FIELD, n_games=5, seed=[1], **QUIET), "seed"),
    ("tournament players 2", lambda: nt.tournament(FIELD, 2, n_games=5, **QUIET), "n_players"),
    (
        "tournament confidence",
        lambda: nt.tournament(FIELD, n_games=5, confidence=1.5, **QUIET),
        "confidence",
    ),
    (
        "tournament confidence nan",
        lambda: nt.tournament(FIELD, n_games=5, confidence=NAN, **QUIET),
        "confidence",
    ),
    (
        "tournament bot unknown",
        lambda: nt.tournament(["nope", "random", "random"], n_games=5, **QUIET),
        "nope",
    ),
    (
        "tournament bot param inf",
        lambda: nt.tournament(["search:n_rollouts=inf", "random", "random"], n_games=5, **QUIET),
        "n_rollouts",
    ),
    (
        "tournament chunk_size 0",
        lambda: nt.tournament(FIELD, n_games=5, chunk_size=0, **QUIET),
        "chunk_size",
    ),
    (
        "tournament chunk_size past its ceiling",
        lambda: nt.tournament(FIELD, n_games=5, chunk_size=10**30, **QUIET),
        "ceiling",
    ),
    (
        "tournament workers 0",
        lambda: nt.tournament(FIELD, n_games=5, workers=0, **QUIET),
        "workers",
    ),
    (
        "tournament first_player",
        lambda: nt.tournament(FIELD, n_games=5, first_player=5, **QUIET),
        "first_player",
    ),
    ("tournament rules", lambda: nt.tournament(FIELD, n_games=5, rules="x", **QUIET), "rules"),
    (
        "tournament executor",
        lambda: nt.tournament(FIELD, n_games=5, executor="x", **QUIET),
        "executor",
    ),
    (
        "head_to_head players 2",
        lambda: nt.head_to_head("marginal", "marginal", 2, 5, **QUIET),
        "n_players",
    ),
    (
        "head_to_head n_games 0",
        lambda: nt.head_to_head("marginal", "marginal", 3, 0, **QUIET),
        "n_games",
    ),
    (
        "head_to_head seed -1",
        lambda: nt.head_to_head("marginal", "marginal", 3, 5, seed=-1, **QUIET),
        "seed",
    ),
    (
        "sweep value inf",
        lambda: nt.sweep("marginal", {"threshold": [INF]}, "marginal", 3, 5, seed=1, **QUIET),
        "threshold",
    ),
    (
        "sweep value nan",
        lambda: nt.sweep("search", {"n_rollouts": [NAN]}, "marginal", 3, 5, seed=1, **QUIET),
        "n_rollouts",
    ),
    (
        "sweep unknown param",
        lambda: nt.sweep("marginal", {"nope": [1]}, "marginal", 3, 5, seed=1, **QUIET),
        "nope",
    ),
    (
        "sweep empty values",
        lambda: nt.sweep("marginal", {"threshold": []}, "marginal", 3, 5, seed=1, **QUIET),
        "threshold",
    ),
    (
        "sweep grid list",
        lambda: nt.sweep("marginal", [1], "marginal", 3, 5, seed=1, **QUIET),
        "grid",
    ),
    (
        "tune max_evals 0",
        lambda: nt.tune(
            "marginal", {"threshold": (0, 5)}, "marginal", 3, 5, seed=1, max_evals=0, **QUIET
        ),
        "max_evals",
    ),
    (
        "tune metric",
        lambda: nt.tune(
            "marginal", {"threshold": (0, 5)}, "marginal", 3, 5, seed=1, metric="x", **QUIET
        ),
        "metric",
    ),
    (
        "tune method",
        lambda: nt.tune(
            "marginal", {"threshold": (0, 5)}, "marginal", 3, 5, seed=1, method="x", **QUIET
        ),
        "method",
    ),
    (
        "tune bounds reversed",
        lambda: nt.tune("marginal", {"threshold": (5, 0)}, "marginal", 3, 5, seed=1, **QUIET),
        "bounds",
    ),
    ("parse_bot_spec empty", lambda: parse_bot_spec(""), "spec"),
    ("parse_bot_spec no value", lambda: parse_bot_spec("marginal:threshold"), "threshold"),
    ("parse_bot_spec bad value", lambda: parse_bot_spec("marginal:threshold=abc"), "abc"),
    ("make_policy int", lambda: make_policy(3), "bot"),
    # ------------------------------------------------------------------ probability
    ("p_all_in_play card 99", lambda: pr.p_all_in_play([99]), "cards"),
    ("p_all_in_play 25 seen", lambda: pr.p_all_in_play([3], seen=range(3, 28)), "seen"),
    ("p_all_in_play text", lambda: pr.p_all_in_play("28"), "cards"),  # type: ignore[arg-type]
    ("p_all_in_play float", lambda: pr.p_all_in_play(3.5), "cards"),  # type: ignore[arg-type]
    ("p_all_in_play rules", lambda: pr.p_all_in_play([3], rules="x"), "rules"),  # type: ignore[arg-type]
    ("p_all_in_play seen 99", lambda: pr.p_all_in_play([3], seen=[99]), "seen"),
    ("removed_count_pmf 99", lambda: pr.removed_count_pmf([99]), "cards"),
    ("removed_count_pmf 25 seen", lambda: pr.removed_count_pmf([30], seen=range(3, 28)), "seen"),
    ("run_count_pmf rules", lambda: pr.run_count_pmf("standard"), "Rules"),  # type: ignore[arg-type]
    ("run_count_pmf seen 99", lambda: pr.run_count_pmf(seen=[99]), "seen"),
    ("longest run k -1", lambda: pr.p_longest_run_at_least(-1), "k"),
    ("longest run k 1.5", lambda: pr.p_longest_run_at_least(1.5), "k"),  # type: ignore[arg-type]
    ("longest run k True", lambda: pr.p_longest_run_at_least(True), "k"),
    ("mc n 0", lambda: pr.mc_p_all_in_play(28, n=0), "n"),
    ("mc n 1.5", lambda: pr.mc_p_all_in_play(28, n=1.5), "n"),  # type: ignore[arg-type]
    ("mc seed -1", lambda: pr.mc_p_all_in_play(28, n=10, seed=-1), "seed"),
    ("mc seed 1.5", lambda: pr.mc_p_all_in_play(28, n=10, seed=1.5), "seed"),  # type: ignore[arg-type]
    ("mc seed list", lambda: pr.mc_run_count_pmf(n=10, seed=[1, 2]), "seed"),  # type: ignore[arg-type]
    ("mc level 1.5", lambda: pr.mc_p_all_in_play(28, n=10, level=1.5), "level"),
    ("mc level str", lambda: pr.mc_p_all_in_play(28, n=10, level="x"), "level"),  # type: ignore[arg-type]
    ("mc level nan", lambda: pr.mc_p_all_in_play(28, n=10, level=NAN), "level"),
    ("sample_removed n 0", lambda: pr.sample_removed(0), "n"),
    ("sample_removed seed", lambda: pr.sample_removed(5, seed=-1), "seed"),
    ("sample_in_play seed", lambda: pr.sample_in_play(5, seed=True), "seed"),  # type: ignore[arg-type]
    ("convergence mc_fn", lambda: pr.convergence(0.5, "x", [10]), "mc_fn"),  # type: ignore[arg-type]
    ("convergence ns set", lambda: pr.convergence(0.5, pr.mc_run_count_pmf, {10, 20}), "ns"),
    ("convergence n 0", lambda: pr.convergence(0.5, pr.mc_run_count_pmf, [0]), "n"),
    ("convergence seed", lambda: pr.convergence(0.5, pr.mc_run_count_pmf, [10], seed=-1), "seed"),
    ("gap_fillable seen 99", lambda: pr.p_gap_fillable([3, 5], seen=[99]), "seen"),
    # ------------------------------------------------------------------ analysis
    ("evaluate_position view", lambda: an.evaluate_position("x"), "view"),  # type: ignore[arg-type]
    ("evaluate_position seed", lambda: an.evaluate_position(view(), seed=-1), "seed"),
    ("position_view card 99", lambda: an.position_view(99), "card"),
    ("position_view pot -1", lambda: an.position_view(20, pot=-1), "pot"),
    ("position_view my_chips", lambda: an.position_view(20, my_chips=10**9), "chips"),
    ("position_view players", lambda: an.position_view(20, n_players=9), "players"),
    ("take_minus_pass card 99", lambda: an.immediate_take_minus_pass(99, 0), "card"),
    ("take_minus_pass pot -1", lambda: an.immediate_take_minus_pass(20, -1), "pot"),
    ("take_minus_pass pot 1.5", lambda: an.immediate_take_minus_pass(20, 1.5), "pot"),  # type: ignore[arg-type]
    ("take_minus_pass hand twice", lambda: an.immediate_take_minus_pass(20, 1, [3, 3]), "hand"),
    ("break_even_pots hand twice", lambda: an.break_even_pots([3, 3], [20]), "hand"),
    ("take_pass_surface card", lambda: an.take_pass_surface([99], [0]), "cards"),
    ("take_pass_surface pots", lambda: an.take_pass_surface([20], [-1]), "pots"),
    ("bot_boundary policy", lambda: an.bot_boundary("x", [20], [0]), "policy"),
    # ------------------------------------------------ crash-type errors of the issue 24 trial
    (
        "simulate game_offset 2**64",
        lambda: nt.simulate(BOTS, 2, seed=1, game_offset=2**64),
        "game_offset",
    ),
    ("proportion_interval huge n", lambda: proportion_interval(10**20, 10**21), "n must"),
    ("save_bot 300-character name", lambda: _save_bot("a" * 300, "."), "name"),
    ("save_bot under /proc", lambda: _save_bot("ada", "/proc"), "folder"),
    ("review policy str", lambda: nt.review(nt.Game(3, seed=1), 0, policy="nope"), "policy"),
    ("review field str", lambda: nt.review(nt.Game(3, seed=1), 0, field=["x", BOT, BOT]), "field"),
    (
        "sweep duplicate grid values",
        lambda: sweep(
            "marginal", {"threshold": [1, 1]}, ["heuristic", "linear"], 3, 4, seed=1, progress=False
        ),
        "grid",
    ),
    ("card_points 0", lambda: nt.card_points([0]), "cards"),
    ("card_points -1", lambda: nt.card_points([-1, 5]), "cards"),
    ("card_points 63", lambda: nt.card_points([63]), "cards"),
    ("runs 0", lambda: nt.runs([0, 1]), "cards"),
]


def _save_bot(name: str, folder: str) -> Any:
    from nothanks_lab.league import save_bot

    return save_bot(MarginalCostBot, folder, name)


def _widget_cases() -> list[tuple[str, Callable[[], Any], str]]:
    from nothanks_lab.widgets import BotLab, ChipValueExplorer, PlayTable, ProbabilityExplorer

    return [
        ("table bot_delay inf", lambda: PlayTable(bot_delay=INF), "bot_delay"),
        ("table bot_delay nan", lambda: PlayTable(bot_delay=NAN), "bot_delay"),
        ("table bot_delay -1", lambda: PlayTable(bot_delay=-1), "bot_delay"),
        ("table bot_delay 1e6", lambda: PlayTable(bot_delay=1e6), "bot_delay"),
        ("table bot_delay str", lambda: PlayTable(bot_delay="1"), "bot_delay"),
        ("table bot_delay bool", lambda: PlayTable(bot_delay=True), "bot_delay"),
        ("table double_click inf", lambda: PlayTable(double_click_s=INF), "double_click_s"),
        ("table seed -1", lambda: PlayTable(seed=-1), "seed"),
        ("table seed 1.5", lambda: PlayTable(seed=1.5), "seed"),
        ("table seed 2**40", lambda: PlayTable(seed=2**40), "seed"),
        ("table rounds 0", lambda: PlayTable(rounds=0), "rounds"),
        ("table rounds 21", lambda: PlayTable(rounds=21), "rounds"),
        ("table rounds 1.5", lambda: PlayTable(rounds=1.5), "rounds"),
        ("table hide_chips str", lambda: PlayTable(hide_chips="yes"), "hide_chips"),
        ("table n_players 8", lambda: PlayTable(8), "n_players"),
        ("table n_players float", lambda: PlayTable(4.0), "n_players"),
        ("table human_seat 5", lambda: PlayTable(human_seat=5), "human_seat"),
        ("table rules", lambda: PlayTable(rules="x"), "rules"),
        ("chip explorer card 99", lambda: ChipValueExplorer(card=99), "card"),
        ("chip explorer card 2", lambda: ChipValueExplorer(card=2), "card"),
        ("chip explorer card 1.5", lambda: ChipValueExplorer(card=1.5), "card"),
        ("chip explorer pot -1", lambda: ChipValueExplorer(pot=-1), "pot"),
        ("chip explorer pot > max", lambda: ChipValueExplorer(pot=31), "pot"),
        ("chip explorer max_pot 0", lambda: ChipValueExplorer(max_pot=0), "max_pot"),
        ("chip explorer hand twice", lambda: ChipValueExplorer(hand=[3, 3]), "hand"),
        ("chip explorer hand 99", lambda: ChipValueExplorer(hand=[99]), "hand"),
        ("chip explorer hand text", lambda: ChipValueExplorer(hand="27"), "hand"),
        ("chip explorer card in hand", lambda: ChipValueExplorer(card=20, hand=[20]), "card"),
        ("chip explorer threshold", lambda: ChipValueExplorer(threshold=99), "threshold"),
        ("chip explorer rules", lambda: ChipValueExplorer(rules="x"), "rules"),
        ("probability explorer hand twice", lambda: ProbabilityExplorer(hand=[3, 3]), "hand"),
        ("probability explorer seen twice", lambda: ProbabilityExplorer(seen=[5, 5]), "seen"),
        ("probability explorer hand 99", lambda: ProbabilityExplorer(hand=[99]), "hand"),
        ("probability explorer both", lambda: ProbabilityExplorer(hand=[3], seen=[3]), "both"),
        ("probability explorer rules", lambda: ProbabilityExplorer(rules="x"), "rules"),
        ("bot lab n_games 0", lambda: BotLab(n_games=0), "n_games"),
        ("bot lab n_games huge", lambda: BotLab(n_games=10**6), "n_games"),
        ("bot lab seed -1", lambda: BotLab(seed=-1), "seed"),
        ("bot lab chunks 0", lambda: BotLab(chunks=0), "chunks"),
        ("bot lab bots str", lambda: BotLab("marginal"), "bots"),
        ("bot lab 8 bots", lambda: BotLab(["marginal"] * 8), "bots"),
    ]


def _expect(call: Callable[[], Any], word: str) -> None:
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    assert word.lower() in str(info.value).lower(), str(info.value)


@pytest.mark.parametrize(("label", "call", "word"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_refused_naming_the_argument(
    label: str, call: Callable[[], Any], word: str
) -> None:
    _expect(call, word)


@pytest.mark.parametrize(
    "call",
    [
        lambda: an.position_view(20, rules="standard"),
        lambda: an.break_even_pots((27,), rules={"low_card": 3}),
        lambda: an.take_pass_surface([10], [0], rules="standard"),
        lambda: an.chip_value(3, rules="standard"),
    ],
    ids=["position_view", "break_even_pots", "take_pass_surface", "chip_value"],
)
def test_analysis_refuses_rules_that_are_not_a_rule_set(call: Callable[[], Any]) -> None:
    # These once failed with an AttributeError deep inside; now the shared check names `rules`.
    with pytest.raises(ValueError, match=r"rules must be a nothanks_lab\.Rules or None"):
        call()


@pytest.mark.parametrize("other_chips", [1.5, "5", {4, 5}, [5, -1], [5, 5, 5], [5, True]])
def test_position_view_refuses_bad_other_chips_with_a_value_error(other_chips: Any) -> None:
    # A float or a string once escaped as a TypeError from list(); a set has no seat order.
    with pytest.raises(ValueError, match="other_chips"):
        an.position_view(20, n_players=3, other_chips=other_chips)


WIDGET_LABELS = [
    "table bot_delay inf", "table bot_delay nan", "table bot_delay -1", "table bot_delay 1e6",
    "table bot_delay str", "table bot_delay bool", "table double_click inf", "table seed -1",
    "table seed 1.5", "table seed 2**40", "table rounds 0", "table rounds 21", "table rounds 1.5",
    "table hide_chips str", "table n_players 8", "table n_players float", "table human_seat 5",
    "table rules", "chip explorer card 99", "chip explorer card 2", "chip explorer card 1.5",
    "chip explorer pot -1", "chip explorer pot > max", "chip explorer max_pot 0",
    "chip explorer hand twice", "chip explorer hand 99", "chip explorer hand text",
    "chip explorer card in hand", "chip explorer threshold", "chip explorer rules",
    "probability explorer hand twice", "probability explorer seen twice",
    "probability explorer hand 99", "probability explorer both", "probability explorer rules",
    "bot lab n_games 0", "bot lab n_games huge", "bot lab seed -1", "bot lab chunks 0",
    "bot lab bots str", "bot lab 8 bots",
]  # fmt: skip


@pytest.mark.parametrize("label", WIDGET_LABELS)
def test_widget_constructors_refuse_bad_settings(label: str) -> None:
    pytest.importorskip("ipywidgets")
    cases = {c[0]: c for c in _widget_cases()}
    assert set(cases) == set(WIDGET_LABELS)
    _, call, word = cases[label]
    _expect(call, word)


# Every declared parameter of every registered bot, given values outside its type or range:
# the message names the bot and the parameter.
PARAM_CASES = [
    (name, p.name, value)
    for name in available_bots()
    for p in params_of(name).values()
    for value in ([INF, NAN, "3", None] if p.kind is not bool else [1, "yes", None])
]


@pytest.mark.parametrize(
    ("bot", "param", "value"),
    PARAM_CASES,
    ids=[f"{b}-{p}-{v!r}" for b, p, v in PARAM_CASES],
)
def test_every_bot_parameter_names_bot_and_parameter(bot: str, param: str, value: Any) -> None:
    with pytest.raises(ValueError) as info:
        make_bot(bot, **{param: value})
    message = str(info.value)
    owner = type(make_bot(bot, n_rollouts=1) if bot in ("search", "best") else make_bot(bot))
    assert param in message and owner.__name__ in message, message
    if value is not None and not isinstance(value, str) and math.isnan(float(value)):
        assert "range" in message  # NaN is outside every range, said as such


@pytest.mark.parametrize("name", available_bots())
@pytest.mark.parametrize("seed", [-1, 1.5, [1, 2], True, "x"])
def test_every_bot_applies_the_one_seed_rule(name: str, seed: Any) -> None:
    with pytest.raises(ValueError, match="seed must be None, a whole number >= 0"):
        make_bot(name, seed=seed)


@pytest.mark.parametrize("name", available_bots())
def test_every_bot_accepts_every_valid_seed_form(name: str) -> None:
    for seed in (None, 0, np.int64(3), np.uint8(1), np.random.SeedSequence(2)):
        make_bot(name, seed=seed)
    make_bot(name, seed=np.random.default_rng(1))


def test_one_seed_rule_same_message_everywhere() -> None:
    messages = set()
    for call in (
        lambda: nt.Game(3, seed=-1),
        lambda: nt.simulate(BOTS, 2, seed=-1),
        lambda: nt.play_match(BOTS, seed=-1),
        lambda: pr.sample_removed(2, seed=-1),
        lambda: an.evaluate_position(view(), seed=-1),
        lambda: nt.tournament(FIELD, n_games=2, seed=-1, **QUIET),
        lambda: check_seed(-1),
    ):
        with pytest.raises(ValueError) as info:
            call()
        messages.add(str(info.value))
    assert len(messages) == 1, messages
    # Every valid form is accepted by the engine, simulate and play_match alike.
    for seed in (0, np.int64(5), np.random.SeedSequence(1), np.random.default_rng(2), None):
        nt.Game(3, seed=seed)
        nt.simulate(BOTS, 2, seed=seed)
        nt.play_match(BOTS, rounds=1, seed=seed)


# ------------------------------------------------------------------ views, once valid, are trusted
def test_a_valid_hand_built_view_is_normalized_and_equals_the_engines() -> None:
    g = nt.Game(3, deck=DECK)
    g.step(nt.Action.TAKE)  # seat 0 takes 3 and acts again on 4
    real = g.view(1)
    built = nt.PlayerView(
        seat=np.int64(1),
        n_players=3,
        active_card=np.int64(4),
        pot=0,
        my_chips=11,
        chips=[11, 11, 11],
        hands=[[3], [], []],
        cards_left=22,
        rules=nt.Rules(),
        current_player=0,
    )
    assert built == real and hash(built) == hash(real)
    assert type(built.chips) is tuple and type(built.hands[0]) is tuple
    assert type(built.seat) is int and type(built.active_card) is int
    unsorted = dataclasses.replace(real, hands=((3,), (), ()))
    assert unsorted == real


def test_probability_of_a_view_is_a_real_distribution() -> None:
    g = nt.Game(4, seed=5)
    for _ in range(30):
        g.step(
            nt.Action.PASS if g.legal_actions()[-1] is nt.Action.PASS and _ % 3 else nt.Action.TAKE
        )
    v = g.view(g.current_player)
    pmf = pr.run_count_pmf(seen=v)
    assert abs(pmf.sum() - 1) < 1e-12 and (pmf >= 0).all()
    assert 0 <= pr.p_all_in_play([35], seen=v) <= 1


def test_engine_rules_bound_keeps_chip_sums_exact() -> None:
    rules = nt.Rules(chips=((3, 1000),))
    g = nt.Game(3, rules=rules, seed=1)
    for _ in range(10):
        g.step(nt.Action.PASS)
    assert sum(g.chips) + g.pot == 3000 and min(g.chips) >= 0


# ------------------------------------------------------------------ widgets' behaviour
class _Raiser:
    name = "Raiser"

    def act(self, view: nt.PlayerView) -> nt.Action:
        raise RuntimeError("boom at the start")


def test_bot_failing_on_the_first_move_at_bot_delay_0_shows_the_failure() -> None:
    pytest.importorskip("ipywidgets")
    from nothanks_lab.widgets import PlayTable

    t = PlayTable(3, [_Raiser(), "marginal"], human_seat=1, bot_delay=0, seed=1)
    assert t.phase == "failed"
    assert any("boom at the start" in m for m in t.errors.messages)
    assert t.game is not None and t.game.history == ()


def test_bot_lab_keeps_n_games_it_was_given() -> None:
    pytest.importorskip("ipywidgets")
    from nothanks_lab.widgets import BotLab, ChipValueExplorer

    assert BotLab(n_games=30).n_games.value == 30
    assert ChipValueExplorer(card=28, pot=2, hand=(27, 29)).card.value == 28


# ------------------------------------------------------------------ the command line
T = ["tournament", "--players", "3", "--games", "4", "--no-progress", "--bots"]
BOTS3 = ["marginal", "random", "random"]
CLI_CASES = [
    ([*T, "search:n_rollouts=inf", "random", "random"], ["SearchBot", "n_rollouts"]),
    ([*T, "search:n_rollouts=nan", "random", "random"], ["SearchBot", "n_rollouts"]),
    ([*T, "random:seed=1.5", "marginal", "marginal"], ["RandomBot", "seed"]),
    ([*T, "random:seed=-1", "marginal", "marginal"], ["RandomBot", "seed"]),
    ([*T, "marginal:threshold=abc", "random", "random"], ["abc"]),
    ([*T, "nope", "random", "random"], ["nope"]),
    ([*T[:-1], "--seed", "-1", "--bots", "marginal", "random", "random"], ["seed"]),
    ([*T[:-1], "--chunk-size", "0", "--bots", *BOTS3], ["--chunk-size must"]),
    ([*T[:-1], "--first-player", "9", "--bots", *BOTS3], ["--first-player must"]),
    (
        ["tournament", "--players", "2", "--games", "4", "--no-progress", "--bots", "marginal"],
        ["players"],
    ),
    (
        [
            "sweep", "--candidate", "search", "--grid", "n_rollouts=inf", "--opponent",
            "marginal", "--players", "3", "--games", "4", "--seed", "1", "--no-progress",
        ],
        ["SearchBot", "n_rollouts"],
    ),
    (
        [
            "head-to-head", "--candidate", "nope", "--opponent", "marginal", "--players", "3",
            "--games", "4", "--no-progress",
        ],
        ["nope"],
    ),
    (
        [
            "tune", "--candidate", "marginal", "--bounds", "threshold=5:0", "--opponent",
            "marginal", "--players", "3", "--games", "4", "--seed", "1", "--no-progress",
        ],
        ["bounds"],
    ),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "words"), CLI_CASES)
def test_cli_bad_input_is_an_error_line_with_status_2(
    argv: list[str], words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err, err
    for word in words:
        assert word in err, err


@pytest.mark.slow
def test_cli_unreachable_scheduler_fails_fast_without_traceback() -> None:
    pytest.importorskip("dask.distributed")
    start = time.monotonic()
    done = subprocess.run(
        [
            sys.executable, "-m", "nothanks_lab", "tournament", "--players", "3", "--games",
            "4", "--no-progress", "--bots", "marginal", "random", "random", "--scheduler",
            "tcp://127.0.0.1:9",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "--scheduler" in done.stderr
    assert time.monotonic() - start < 25  # the old wait was 30 s of timeout alone


def test_cli_bad_bot_parameter_in_a_real_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nothanks_lab", *T, "search:n_rollouts=inf", "random", "random"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "error: " in done.stderr and "n_rollouts" in done.stderr


@pytest.mark.parametrize(
    "rules",
    [nt.Rules(), nt.Rules(low_card=1, high_card=10, n_removed=2, chips=((3, 2), (4, 1)))],
)
def test_every_engine_view_passes_the_full_check(rules: nt.Rules) -> None:
    # The engine's views skip re-checking for speed; here every one is re-checked in full.
    rng = np.random.default_rng(7)
    for n in rules.player_counts:
        for _ in range(5):
            g = nt.Game(n, rules=rules, seed=rng, first_player=int(rng.integers(n)))
            while True:
                for seat in range(n):
                    v = g.view(seat)
                    assert dataclasses.replace(v) == v
                if g.is_over:
                    break
                g.step(g.legal_actions()[int(rng.integers(len(g.legal_actions())))])


def test_tournament_progress_must_be_a_bool_or_none() -> None:
    with pytest.raises(ValueError, match="progress"):
        nt.tournament(["marginal", "marginal:threshold=0", "heuristic"], 3, 5, seed=1, progress="x")


@pytest.mark.parametrize("bad", ["not a view", None, 3])
def test_a_compiled_bot_refuses_what_is_not_a_view(bad: object) -> None:
    with pytest.raises(TypeError, match="PlayerView"):
        nt.bots.MarginalCostBot(10).act(bad)  # type: ignore[arg-type]


# ------------------------------------------------- issue 24: ceilings, bools, specs, files
ISSUE_24_CASES = [
    ("tournament n_games 10**15", lambda: nt.tournament(FIELD, 3, 10**15, seed=1), "ceiling"),
    ("simulate n_games 10**12", lambda: nt.simulate(BOTS, 10**12, seed=1), "ceiling"),
    ("sample_removed 10**11", lambda: pr.sample_removed(10**11, seed=1), "ceiling"),
    ("mc_p_all_in_play 10**12", lambda: pr.mc_p_all_in_play(28, n=10**12, seed=1), "ceiling"),
    (
        "tune max_evals 10**9",
        lambda: nt.tournaments.tune(
            "marginal", {"threshold": (0, 5)}, "marginal", 3, 4, seed=1, max_evals=10**9
        ),
        "max_evals",
    ),
    (
        "tune validate 'no'",
        lambda: nt.tournaments.tune(
            "marginal", {"threshold": (0, 5)}, "marginal", 3, 4, seed=1, validate="no"
        ),
        "validate",
    ),
    ("review n 10**9", lambda: nt.review(nt.Game(3, seed=1), 0, n=10**9), "ceiling"),
    ("run_league n_games 10**15", lambda: nt.league.run_league(".", n_games=10**15), "ceiling"),
    (
        "run_league screen_rounds 10**9",
        lambda: nt.league.run_league(".", n_games=2, screen_rounds=10**9),
        "screen_rounds must be a whole number (int) >= 1 and at most 100 ",
    ),
    (  # an OverflowError from deep in the pipes (adversary trial, stop 40)
        "run_league time_limit 1e12",
        lambda: nt.league.run_league(".", n_games=2, time_limit=1e12),
        "time_limit must be a finite number in [0.001, 3600.0]",
    ),
    (
        "collect_bots time_limit 1e300",
        lambda: nt.league.collect_bots(".", time_limit=1e300),
        "time_limit must be a finite number in [0.001, 3600.0]",
    ),
    (  # hung for over a minute on seed.spawn(rounds) before any file
        "collect_bots rounds 10**9",
        lambda: nt.league.collect_bots(".", rounds=10**9),
        "rounds must be a whole number (int) >= 1 and at most 100 ",
    ),
    ("from_json 17 MiB", lambda: nt.Game.from_json(" " * (17 * 2**20)), "MAX_FILE_BYTES"),
    ("to_json include_deal 'yes'", lambda: nt.Game(3).to_json(include_deal="yes"), "include_deal"),
    ("card_points floats", lambda: nt.card_points([3.0, 4.0]), "3.0"),
    ("spec with an empty parameter list", lambda: make_policy("marginal:"), "no parameters"),
    ("spec with a repeated parameter", lambda: make_policy("marginal:threshold=1,threshold=2"),
     "twice"),
    ("load_round seed -1", lambda: nt.records.load_round(nt.Game(3).to_json(), seed=-1), "seed"),
    ("load_round seed True", lambda: nt.records.load_round(nt.Game(3).to_json(), seed=True),
     "seed"),
    (
        "solve max_memory float",
        lambda: nt.exact.solve(
            nt.Rules(low_card=3, high_card=8, n_removed=2, chips=((2, 2),)), max_memory=1e9
        ),
        "max_memory",
    ),
    ("run_league isolate 'yes'", lambda: nt.league.run_league(".", isolate="yes"), "isolate"),
    ("collect_bots isolate 1", lambda: nt.league.collect_bots(".", isolate=1), "isolate"),
    ("tournament isolate 'yes'", lambda: nt.tournaments.tournament(FIELD, 3, 4, isolate="yes"),
     "isolate"),
    ("isolated spec, no such file", lambda: _isolated_bot("/nope/missing.py:Bot"), "no file"),
    # a name too long for the file system was an OSError (ENAMETOOLONG), echoed whole
    ("isolated spec, 5,000-character file name", lambda: _isolated_bot("/" + "a" * 4995 +
     ".py:Bot"), "no file"),
    ("isolated spec, no class name", lambda: _isolated_bot(f"{__file__}:9x"), "class name"),
    ("isolated spec, repeated parameter", lambda: _isolated_bot(f"{__file__}:B:k=1,k=2"), "twice"),
    ("IsolatedPolicy class_name '1x'", lambda: _isolated(class_name="1x"), "class_name"),
    ("IsolatedPolicy params without a class", lambda: _isolated(params={"k": 1}), "class_name"),
    ("IsolatedPolicy a list as a parameter", lambda: _isolated(class_name="B", params={"k": [1]}),
     "params['k']"),
    ("IsolatedPolicy memory_mb 1", lambda: _isolated(memory_mb=1), "memory_mb"),
    ("IsolatedPolicy decision_s 0", lambda: _isolated(decision_s=0), "decision_s"),
    # ----------------------------------------- what the last trial found open (ceilings, decks)
    ("deal_decks count 10**12 (was 175 TiB)",
     lambda: deal_decks(nt.Rules(), seed=1, start=0, count=10**12),
     "count must be a whole number (int) >= 0 and at most 100000000 (its ceiling)"),
    ("deal_decks start 2**63", lambda: deal_decks(nt.Rules(), seed=1, start=2**63), "start"),
    ("deal_decks count True", lambda: deal_decks(nt.Rules(), seed=1, count=True), "count"),
    ("deal_one game 2**64", lambda: _deals().deal_one(nt.Rules(), seed=1, game=2**64), "game"),
    ("deal_cosets count 10**12", lambda: _seating().deal_cosets(_KEY, 0, 0, 10**12, 6),
     "count must be a whole number (int) >= 0 and at most 100000000"),
    ("deal_cosets start -1", lambda: _seating().deal_cosets(_KEY, 0, -1, 5, 6), "start"),
    ("deal_cosets n_cosets 0", lambda: _seating().deal_cosets(_KEY, 0, 0, 5, 0), "n_cosets"),
    ("balanced_design 12 seats (12! orders)", lambda: _seating().balanced_design(12),
     "n_players must be a whole number (int) >= 1 and at most 7"),
    ("lineup_blocks 11 seats", lambda: _seating().lineup_blocks(tuple(range(11))), "at most 7"),
    ("tournament 12 seats", lambda: nt.tournament(["marginal"] * 12, 12, 5, seed=1,
     rules=nt.Rules(chips=((12, 2),)), progress=False), "at most 7"),
    ("Game deck of floats", lambda: nt.Game(3, deck=[float(c) for c in DECK]),
     "the deck's cards must be whole numbers (int or numpy integer, 3..35"),
    ("Game deck float array", lambda: nt.Game(3, deck=np.array(DECK, dtype=float)), "deck"),
    ("Game deck one float", lambda: nt.Game(3, deck=[*DECK[:-1], 26.0]), "26.0"),
    ("Game deck bools", lambda: nt.Game(3, deck=np.ones(24, dtype=bool)), "deck"),
    ("Game deck endless iterator", lambda: nt.Game(3, deck=itertools.count(3)), "deck"),
    ("Game deck range 10**12", lambda: nt.Game(3, deck=range(10**12)), "deck"),
    ("play_game deck of floats", lambda: nt.play_game(BOTS, deck=[float(c) for c in DECK]),
     "deck"),
    ("simulate decks float", lambda: nt.simulate(BOTS, decks=np.array([DECK], dtype=float)),
     "decks must be an integer array of whole-numbered cards (any integer dtype), 3..35"),
    ("simulate decks bool", lambda: nt.simulate(BOTS, decks=np.ones((1, 24), dtype=bool)),
     "decks"),
    ("simulate decks list of floats", lambda: nt.simulate(BOTS, decks=[[float(c) for c in DECK]]),
     "decks"),
    ("sweep grid of 10**7 values",
     lambda: nt.sweep("marginal", {"threshold": range(10**7)}, "marginal", 3, 5, seed=1, **QUIET),
     "grid has more than 10000 points (MAX_EVALS"),
    ("sweep grid 10**4 x 10**4 points",
     lambda: nt.sweep("marginal", {"threshold": range(10**4), "seed": range(10**4)},
                      "marginal", 3, 5, seed=1, **QUIET), "MAX_EVALS"),
    ("sweep endless grid values",
     lambda: nt.sweep("marginal", {"threshold": itertools.count()}, "marginal", 3, 5, seed=1,
                      **QUIET),
     "grid"),
    ("sweep points x n_games", lambda: nt.sweep("marginal", {"threshold": range(1000)},
     "marginal", 3, 10**6, seed=1, **QUIET), "grid points (1000) x n_games (1000000)"),
    ("sweep 101 parameters", lambda: nt.sweep("marginal", {f"p{i}": [1] for i in range(101)},
     "marginal", 3, 5, seed=1, **QUIET), "MAX_TUNED_PARAMS"),
    ("tune max_evals x n_games", lambda: nt.tune("marginal", {"threshold": (0, 5)}, "marginal",
     3, 10**6, seed=1, max_evals=1000, **QUIET), "max_evals (1000) x n_games (1000000)"),
    ("tune bounds infinite", lambda: nt.tune("marginal", {"threshold": (-INF, INF)}, "marginal",
     3, 5, seed=1, **QUIET), "finite"),
    ("tune 101 parameters", lambda: nt.tune("marginal", {f"p{i}": (0, 1) for i in range(101)},
     "marginal", 3, 5, seed=1, **QUIET), "MAX_TUNED_PARAMS"),
]  # fmt: skip

_KEY = np.array([1, 2], dtype=np.uint64)


def _deals() -> Any:
    import nothanks_lab.deals

    return nothanks_lab.deals


def _seating() -> Any:
    import nothanks_lab.seating

    return nothanks_lab.seating


def test_integer_decks_of_any_integer_dtype_stay_accepted() -> None:
    """Only non-integer cards are refused: numpy integers of every width still deal."""
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.uint64):
        assert nt.Game(3, deck=np.array(DECK, dtype=dtype)).active_card == 3
        r = nt.simulate(BOTS, decks=np.array([DECK, DECK[::-1]], dtype=dtype))
        assert r.scores.shape == (2, 3)
    assert nt.Game(3, deck=[np.int64(c) for c in DECK]).cards_left == 23
    assert nt.Game(3, deck=iter(DECK)).cards_left == 23  # an iterator of 24 cards is a deck
    assert deal_decks(nt.Rules(), seed=1, count=0).shape == (0, 24)


def _isolated_bot(spec: str) -> Any:
    from nothanks_lab.tournaments.sandbox import isolated_bot

    return isolated_bot(spec)


def _isolated(**options: Any) -> Any:
    from nothanks_lab.tournaments.sandbox import IsolatedPolicy

    return IsolatedPolicy(__file__, **options)  # checked before any process starts


@pytest.mark.parametrize(
    ("label", "call", "word"), ISSUE_24_CASES, ids=[c[0] for c in ISSUE_24_CASES]
)
def test_issue_24_bad_input_is_refused_before_any_work(
    label: str, call: Callable[[], Any], word: str
) -> None:
    start = time.perf_counter()
    _expect(call, word)
    assert time.perf_counter() - start < 5  # refused up front, not after the work


def test_reading_a_device_a_fifo_or_a_huge_file_is_refused(tmp_path) -> None:
    import os

    from nothanks_lab.validate import MAX_FILE_BYTES, read_file_bytes

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in ("/dev/zero", fifo, tmp_path):
        with pytest.raises(ValueError, match="not a regular file"):
            read_file_bytes(path)
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: no real disk used
    with pytest.raises(ValueError, match="MAX_FILE_BYTES"):
        read_file_bytes(big)
    ok = tmp_path / "ok.json"
    ok.write_bytes(b"{}")
    assert read_file_bytes(ok) == b"{}"


@pytest.mark.parametrize("target", ["/dev/zero", "FIFO"])
def test_cli_review_of_a_device_or_fifo_is_one_error_line(
    target: str, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    if target == "FIFO":
        target = str(tmp_path / "pipe")
        os.mkfifo(target)
    assert main(["review", target, "--seat", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "regular file" in err and "Traceback" not in err


def test_cli_games_above_the_ceiling_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--players", "3", "--games", str(10**23), "--no-progress", "--bots"]
    assert main([*argv, "marginal", "random", "random"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "ceiling" in err and "Traceback" not in err


ISSUE_24_CLI = [
    ([*T, "marginal", "random", "random", "--bots", "linear", "linear", "linear"], ["twice"]),
    ([*T, "marginal:", "random", "random"], ["no parameters"]),
    ([*T, "marginal:threshold=1,threshold=2", "random", "random"], ["twice"]),
    (
        [
            "sweep", "--candidate", "marginal", "--grid", "threshold=1,2", "--grid",
            "threshold=3", "--opponent", "marginal", "--players", "3", "--games", "4",
            "--no-progress",
        ],
        ["--grid", "twice"],
    ),
    (["lessons", "export", "/proc/nope"], ["/proc/nope"]),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "words"), ISSUE_24_CLI)
def test_issue_24_cli_input_is_one_error_line(
    argv: list[str], words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]  # (an export reports its progress on stderr first)
    assert last.startswith("error: ") and "Traceback" not in err and err.count("error:") == 1, err
    for word in words:
        assert word in err, err


def test_cli_file_bot_raising_base_exception_is_one_error_line(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = tmp_path / "rude.py"
    bot.write_text(
        "class Boom(BaseException):\n    pass\n\n\n"
        "class Rude:\n    def act(self, view):\n        raise Boom('no')\n"
    )
    argv = ["tournament", "--players", "3", "--games", "2", "--no-progress", "--bots"]
    assert main([*argv, f"{bot}:Rude", "marginal", "marginal"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err, err


def test_cli_killed_worker_is_one_line_naming_it(monkeypatch, capsys) -> None:
    from concurrent.futures.process import BrokenProcessPool

    import nothanks_lab.__main__ as cli_module

    def killed(argv):
        raise BrokenProcessPool("A process in the process pool was terminated abruptly")

    monkeypatch.setattr(cli_module, "run", killed)
    assert main(["tournament"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: a worker process died") and err.count("\n") == 1, err


def test_rules_altered_through_object_setattr_are_refused_when_played() -> None:
    rules = nt.Rules()
    object.__setattr__(rules, "n_removed", 0)
    for call in (
        lambda: nt.Game(3, rules=rules),
        lambda: nt.simulate(BOTS, 5, rules=rules, seed=1),
        lambda: nt.play_game(BOTS, rules=rules, seed=1),
    ):
        _expect(call, "altered")
    assert nt.Game(3, rules=nt.Rules(n_removed=0)).cards_left == 32  # a real rule set plays


# ------------------------------------------------ decisions on inputs that are not errors
def test_cards_of_a_variant_deck_score_and_cards_no_deck_holds_are_refused() -> None:
    # RULES.md: variants are configuration (Rules(low_card=1, ...)): 2 and 36 are cards of
    # some rule set, so card_points scores them; 0 and 63 belong to none.
    assert nt.card_points([2]) == 2 and nt.card_points([36, 35]) == 35
    assert nt.card_points([1, 2, 62]) == 1 + 62
    for bad in ([0], [63], [-3, 5]):
        with pytest.raises(ValueError, match="cards from 1 to 62"):
            nt.card_points(bad)


def test_a_card_named_twice_in_a_probability_question_changes_nothing() -> None:
    # Decided in probability.common: a set of cards asked about may name one twice.
    twice = pr.mc_p_all_in_play([5, 5], n=2000, seed=3)
    once = pr.mc_p_all_in_play([5], n=2000, seed=3)
    assert (twice.value, twice.low, twice.high) == (once.value, once.low, once.high)
    assert pr.p_all_in_play([5, 5]) == pr.p_all_in_play([5])


def test_save_bot_into_an_unwritable_folder_leaves_nothing(tmp_path: Any) -> None:
    from nothanks_lab.league import save_bot

    locked = tmp_path / "locked"
    locked.mkdir()
    with pytest.raises(ValueError, match="folder"):
        save_bot(MarginalCostBot, "/proc/self", "ada")
    path = save_bot(MarginalCostBot, tmp_path, "b" * 100)  # the longest name is accepted
    assert path.name == "b" * 100 + ".py" and path.read_text().strip()
    with pytest.raises(ValueError, match="at most 100 characters"):
        save_bot(MarginalCostBot, tmp_path, "b" * 101)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b" * 100 + ".py", "locked"]


@pytest.mark.slow
def test_isolation_applies_to_file_bots_only(tmp_path: Any, capsys: Any) -> None:
    """No file bot: --isolate changes nothing and workers run; with one, workers must be 1."""
    (tmp_path / "mine.py").write_text(
        "from nothanks_lab import Action\nclass Mine:\n    def act(self, view):\n"
        "        return Action.TAKE if view.my_chips == 0 or view.pot >= 3 else Action.PASS\n"
    )
    argv = ["tournament", "-p", "3", "-n", "2", "--seed", "1", "--no-progress", "--isolate"]
    assert main([*argv, "-w", "2", "-b", "marginal", "heuristic", "linear"]) == 0
    capsys.readouterr()
    assert (
        main([*argv, "-w", "2", "-b", f"{tmp_path / 'mine.py'}:Mine", "heuristic", "linear"]) == 2
    )
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "--workers/-w must be 1" in err and "file.py" in err, err


# ------------------------------------- issue 24, items 5/7/9: endless and huge inputs, probes
def _endless() -> Any:
    return itertools.count()


def _huge() -> Any:
    return range(10**8)


def _view0() -> nt.PlayerView:
    return nt.Game(3, deck=DECK).view(0)


# (argument, call given that argument's value): every sequence argument of the public API
# that is read whole (cards, seen cards, events, deck_rest, pots, ns, extra_chips, grids).
SEQUENCE_ARGUMENTS: list[tuple[str, Callable[[Any], Any]]] = [
    ("events", lambda v: nt.Game.replay(3, v, deck=DECK)),
    ("deck_rest", lambda v: nt.Game.from_position(_view0(), v)),
    ("deck", lambda v: nt.Game(3, deck=v)),
    ("cards", lambda v: pr.p_all_in_play(v)),
    ("seen", lambda v: pr.p_all_in_play([3], seen=v)),
    ("cards", lambda v: pr.removed_count_pmf(v)),
    ("seen", lambda v: pr.run_count_pmf(seen=v)),
    ("hand", lambda v: pr.p_gap_fillable(v)),
    ("seen", lambda v: pr.p_in_play_each(v)),
    ("cards", lambda v: pr.mc_p_all_in_play(v, n=10, seed=1)),
    ("ns", lambda v: pr.convergence(0.5, pr.mc_run_count_pmf, v)),
    ("hand", lambda v: an.immediate_take_minus_pass(20, 0, v)),
    ("pots", lambda v: an.take_pass_surface([20], v)),
    ("pots", lambda v: an.bot_boundary(BOT, [20], v)),
    ("other_chips", lambda v: an.position_view(20, n_players=3, other_chips=v)),
    ("extra_chips", lambda v: an.chip_value(3, extra_chips=v, n_games=2, seed=1)),
    ("grid", lambda v: nt.sweep("marginal", {"threshold": v}, "marginal", 3, 5, seed=1, **QUIET)),
    ("cards", lambda v: nt.Rules().check_cards(v)),
    ("cards", lambda v: an.break_even_pots(cards=v)),
    ("hand", lambda v: an.break_even_pots(hand=v)),
    ("cards", lambda v: an.take_pass_surface(v, [0])),
    ("hand", lambda v: an.position_view(20, hand=v)),
    ("policies", lambda v: nt.simulate(v, 2, seed=1)),
    ("policies", lambda v: nt.play_game(v, seed=1)),
    ("bots", lambda v: nt.tournament(v, 3, 2, seed=1, **QUIET)),
    ("chips", lambda v: dataclasses.replace(_view0(), chips=v)),
    ("hands", lambda v: dataclasses.replace(_view0(), hands=v)),
]


@pytest.mark.parametrize("make", [_endless, _huge], ids=["itertools.count()", "range(10**8)"])
@pytest.mark.parametrize(
    ("name", "call"),
    SEQUENCE_ARGUMENTS,
    ids=[f"{i}-{name}" for i, (name, _) in enumerate(SEQUENCE_ARGUMENTS)],
)
def test_an_endless_or_huge_sequence_is_refused_at_once(
    name: str, call: Callable[[Any], Any], make: Callable[[], Any]
) -> None:
    start = time.perf_counter()
    with pytest.raises(ValueError) as info:
        call(make())
    assert name in str(info.value), str(info.value)
    assert time.perf_counter() - start < 5  # read at most MAX_ITEMS items, not all of them


def _vector_env(num_envs: int) -> Any:
    pytest.importorskip("gymnasium")
    return nt.envs.VectorNoThanksEnv(num_envs, [BOT, BOT])


def _decks_with_card_99(kind: str) -> np.ndarray:
    import tempfile

    decks = np.array([DECK, DECK[::-1]], dtype=np.int16)
    decks[1, 5] = 99
    if kind == "read-only":
        decks.setflags(write=False)
        return decks
    path = f"{tempfile.mkdtemp()}/decks.npy"
    np.save(path, decks)
    return np.load(path, mmap_mode="r")


# (label, call, error type, word the message must hold)
ISSUE_24_PROBES: list[tuple[str, Callable[[], Any], type[Exception], str]] = [
    ("evaluate_position n 10**9", lambda: an.evaluate_position(_view0(), n=10**9, seed=1),
     ValueError, "n must be a whole number (int) >= 2 and at most 1000000 (its ceiling)"),
    ("simulate read-only decks, card 99", lambda: nt.simulate(BOTS, decks=_decks_with_card_99(
     "read-only")), ValueError, "decks[1] holds card 99"),
    ("simulate memory-mapped decks, card 99", lambda: nt.simulate(BOTS, decks=_decks_with_card_99(
     "memory-mapped")), ValueError, "decks[1] holds card 99"),
    ("5,000-character bot file spec", lambda: make_policy("/" + "a" * 4995 + ".py:Bot"),
     ValueError, "bot spec"),
    ("VectorNoThanksEnv num_envs 10**9 (was a 510 GiB MemoryError)", lambda: _vector_env(10**9),
     ValueError, "num_envs must be a whole number (int) >= 1 and at most 100000 (its ceiling)"),
    ("best_response on the standard deck (ran for hours)", lambda: nt.exact.best_response(
     nt.Rules(), [BOT, BOT]), ValueError, "above max_positions=3,000,000"),
    ("evaluate on the standard deck", lambda: nt.exact.evaluate(nt.Rules(), BOTS), ValueError,
     "above max_positions"),
    ("decision_views of the standard deck", lambda: nt.exact.decision_views(nt.Rules(), 3),
     ValueError, "above max_positions"),
    ("solve in Python, standard deck", lambda: nt.exact.solve(nt.Rules(chips=((2, 11),)),
     engine="python"), ValueError, "max_positions"),
    ("best_response max_positions 1.5", lambda: nt.exact.best_response(nt.Rules(
     low_card=1, high_card=5, n_removed=1, chips=((2, 1),)), [BOT], max_positions=1.5),
     ValueError, "max_positions must be a whole number"),
    ("card_points of an endless hand of 3s", lambda: nt.card_points(itertools.cycle([3])),
     ValueError, "at most once"),
    ("score of an endless hand", lambda: nt.score(itertools.repeat(5), 0), ValueError,
     "at most once"),
    ("view hand endless", lambda: dataclasses.replace(_view0(), hands=(itertools.repeat(4), (),
     ())), ValueError, "hand"),
    ("tournament of 10**8 bots", lambda: nt.tournament(range(10**8), 3, 2, seed=1, **QUIET),
     ValueError, "MAX_FIELD"),
    ("seed a 1 MB string", lambda: nt.Game(3, seed="x" * 10**6), ValueError, "seed"),
    ("check_cards a 10**6 list of 99", lambda: nt.Rules().check_cards([99] * 10**6), ValueError,
     "cards"),
    ("chips a 10**6 list", lambda: dataclasses.replace(_view0(), chips=[1] * 10**6), ValueError,
     "chips"),
    ("deck a list of 10**6", lambda: nt.Game(3, deck=[3] * 10**6), ValueError, "deck"),
    ("a 1 MB bot name", lambda: make_bot("x" * 10**6), ValueError, "x"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("label", "call", "error", "word"), ISSUE_24_PROBES, ids=[c[0] for c in ISSUE_24_PROBES]
)
def test_issue_24_probe_is_refused_fast_naming_the_argument(
    label: str, call: Callable[[], Any], error: type[Exception], word: str
) -> None:
    start = time.perf_counter()
    with pytest.raises(error) as info:
        call()
    assert word in str(info.value), str(info.value)
    assert len(str(info.value)) < 400  # a readable line, not the input echoed back
    assert time.perf_counter() - start < 5


def test_helpers_take_seed_by_keyword_and_warn_when_it_comes_by_position() -> None:
    """Issue 27: seed is keyword-only; a positional seed still works, with a DeprecationWarning."""
    from nothanks_lab.engine import deal
    from nothanks_lab.render import title_html
    from nothanks_lab.table import build_bot

    by_keyword = deal(nt.Rules(), seed=5)
    with pytest.warns(DeprecationWarning, match="give seed by keyword"):
        assert (deal(nt.Rules(), 5) == by_keyword).all()
    with pytest.warns(DeprecationWarning, match="give seed, difficulty by keyword"):
        assert title_html(1, 1, 5, "easy") == title_html(1, 1, seed=5, difficulty="easy")
    seed = np.random.SeedSequence(3)
    with pytest.warns(DeprecationWarning, match="give seed by keyword"):
        assert build_bot("random", seed).act(_view0()) == build_bot("random", seed=seed).act(
            _view0()
        )

"""The teaching notes: per-lesson goals, timings, prompts and misconceptions, and the formulas.

This is data, not code: :data:`LESSON_NOTES` holds what a teacher needs to know about each
lesson beyond the notebook (a :class:`LessonNotes` per notebook stem, its timings filling a
:data:`PERIOD_MINUTES` class period), and :data:`FORMULAS` the working behind each exercise's
answer, shown in the teacher's guides beside the answer the package computes. A lesson missing
here still gets a generic guide (:mod:`nothanks_lab.kit.guides`). The Portuguese notes, and
the choice by the language in use, are in :mod:`.notes_pt`.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FORMULAS", "LESSON_NOTES", "PERIOD_MINUTES", "LessonNotes"]

#: Length of a class period the guides' timings fill, in minutes.
PERIOD_MINUTES = 45


@dataclass(frozen=True)
class LessonNotes:
    """What a teacher needs to know about one lesson beyond the notebook itself."""

    title: str
    """The lesson's name in the guide."""
    goals: tuple[str, ...]
    """What students can do after the lesson."""
    timings: tuple[tuple[int, str], ...]
    """(minutes, activity) for one class period, in order; the minutes add up to the period."""
    prompts: tuple[str, ...]
    """Questions to discuss with the class."""
    misconceptions: tuple[str, ...]
    """Mistakes students commonly make, each with what to say."""
    further: str = ""
    """What the lesson's optional part after the timed sections holds, and when to skip it."""


#: Teaching notes per lesson (notebook stem). A lesson missing here gets a generic guide.
LESSON_NOTES: dict[str, LessonNotes] = {
    "05_your_own_bot": LessonNotes(
        title="Write your own bot, and enter it in the class league",
        goals=(
            "read a PlayerView: what a bot may know, and what no player sees",
            "write act(view) that always answers a legal move (take when out of chips)",
            "save a bot to a league folder and read the messages when a bot is left out",
            "read a leaderboard with 95% intervals: luck against skill",
        ),
        timings=(
            (5, "section 1: what a bot may see"),
            (12, "section 2: students write and change act(view)"),
            (8, "section 3: play a round against your bot; watch it play a round"),
            (8, "section 4: the league folder; the messages of bots left out"),
            (7, "section 5: run the class league (about 20-30 s for ten students)"),
            (5, "section 6: luck or skill: intervals and paired differences"),
        ),
        prompts=(
            "Your bot won the round you played against it. Is it a good bot?",
            "Two bars' intervals overlap. What would tell the two bots apart?",
            "Why does every student bot meet the same deals and the same opponents?",
        ),
        misconceptions=(
            "'My bot can see the removed cards': nobody sees them; a view holds public facts only.",
            "'Return \"take\" or True': act must return Action.TAKE or Action.PASS.",
            "'Passing is always allowed': with no chips left a player must take.",
        ),
    ),
    "01_play": LessonNotes(
        title="Play No Thanks! against bots",
        goals=(
            "state the rules: take the card and its chips, or pay a chip to pass it on",
            "score a hand by hand: runs count only their lowest card, chips count minus one",
            "read the hint panel: the chance a wanted card is still coming, and the "
            "whole-round estimate of Take versus No Thanks!",
        ),
        timings=(
            (10, "section 1: the rules, read aloud; one example of scoring a run on the board"),
            (15, "section 2: everyone plays a round at the play table (easy bots)"),
            (5, "section 3: the two scoring exercises; pairs score each other's final hands"),
            (10, "section 4: the hint panel: its two parts, with the notebook's position"),
            (5, "section 5: review the round; when did you take a card with no chips on it?"),
        ),
        prompts=(
            "Why would anyone take a card with chips on it that adds points to their score?",
            "Which cards did you hope for, and did they come? What could have stopped them?",
            "A bot never forgets who has how many chips. Does that help it, and how?",
        ),
        misconceptions=(
            "'A run scores the sum of its cards': it scores only its lowest card (27-30 "
            "scores 27).",
            "'Chips only matter for passing': every chip left at the end is one point off.",
            "'The taker's turn ends': the taker turns the next card and decides again.",
        ),
    ),
    "02_chances_under_removed_cards": LessonNotes(
        title="Chances under removed cards: is the card I need still coming?",
        goals=(
            "explain why the removed cards make every plan uncertain",
            "derive the chance that a card, or a group of cards, is in play by counting "
            "equally likely removed sets (the hypergeometric model)",
            "update that chance as cards are seen during a round",
            "compare the chance of filling a gap of one card with a gap of two cards",
        ),
        timings=(
            (4, "section 1: why removed cards matter (the 27, 29 hand)"),
            (12, "section 2: counting removed sets; the tiny deck listed in full; groups"),
            (8, "section 3: the chance in a real round, as seat 0 sees it"),
            (6, "section 4: gaps of one and two cards; the chance falls as cards are seen"),
            (12, "section 5: exercises in pairs"),
            (3, "wrap-up with the explorer: mark cards as seen and watch the chances fall"),
        ),
        prompts=(
            "Is the chance that both 27 and 29 are in play the square of the chance for one? "
            "Why not?",
            "Twenty cards have been seen and 28 is not among them: is 28 now more or less "
            "likely to come than at the start? Does it matter which twenty were seen?",
            "Why is a two-card gap so much harder to fill than a one-card gap?",
        ),
        misconceptions=(
            "'Cards are independent': removed slots are shared, so one card in play makes "
            "another slightly less likely.",
            "'Which cards were seen matters': only how many were seen, as long as the wanted "
            "card is not among them.",
            "Writing a chance as a percentage (72.7) where a probability (0.727) is asked.",
        ),
    ),
    "03_runs_exact_vs_simulated": LessonNotes(
        title="Runs, and exact versus simulated",
        goals=(
            "count the runs the in-play cards form, on a tiny deck by listing every removed "
            "set and on the standard deck by formula",
            "read a simulation's estimate with its 95% interval and its standard error",
            "see a simulation converge to the exact value, its interval shrinking as one "
            "over the square root of the number of rounds",
            "tell a normal miss of a 95% interval from a bug",
        ),
        timings=(
            (10, "section 1: runs on a tiny deck, listed in full, then the formula"),
            (7, "section 2: runs in a standard round, exact and simulated"),
            (8, "section 3: one chance simulated: estimate, interval, standard errors"),
            (8, "section 4: a simulation converging; 100 times more rounds"),
            (10, "section 5: exercises in pairs"),
            (2, "wrap-up: when would you trust a simulation without an exact answer?"),
        ),
        prompts=(
            "A simulation's 95% interval missed the exact value. Is the code wrong?",
            "How many more rounds does it take to make an interval ten times narrower?",
            "Why is listing every removed set possible for cards 1 to 7 but not for 3 to 35?",
        ),
        misconceptions=(
            "'A 95% interval always covers the truth': it misses about one time in twenty.",
            "'Twice the rounds, half the width': the width shrinks with the square root.",
            "'A run is any set of cards in a row in my hand': runs here are the maximal runs "
            "of the in-play cards, before anyone takes them.",
        ),
    ),
    "04_chip_value": LessonNotes(
        title="What is a chip worth?",
        goals=(
            "compute what a move costs counting this move only, and a card's break-even pot",
            "explain how runs in the hand change that price",
            "build a paired simulation from a handful of deals, and measure what extra chips "
            "are worth over a whole round",
            "(going further) explain why the seat changes what an extra chip is worth",
        ),
        timings=(
            (8, "section 1: one move's bookkeeping"),
            (10, "section 2: the break-even pot and the heatmap"),
            (15, "section 3: paired simulation: a handful of deals, then 1,200; per extra chip"),
            (12, "section 4: exercises in pairs"),
        ),
        prompts=(
            "In the handful of deals, the difference the extra chips made was small in some "
            "deals and large in others, even of either sign. Why does pairing still help?",
        ),
        misconceptions=(
            "'The break-even pot is where Take becomes better': at the break-even pot both "
            "moves cost the same; Take is strictly better one chip above it.",
            "'A card's cost is its face value': a card next to a run costs less, even below zero.",
            "'A paired simulation needs fewer games because it is luckier': it compares the "
            "same deals, so the luck of the cards cancels in the difference.",
            "'The two experiments disagree, so one is wrong': they measure a chip for different "
            "players (the first seat, or the average seat).",
        ),
        further=(
            "After the exercises, 'Going further' holds why pairing helps (the interval on "
            "different deals), bigger tables with an.chip_value, and the seat effect (seat 0 "
            "always first against seats rotated). In a single period, 45 or 50 minutes, skip "
            "it: the four sections take 45 minutes, and a 50-minute period keeps the other 5 "
            "for starting the notebooks and for questions. It suits a group that finishes "
            "early, a second period or homework; its discussion prompt: extra chips lowered "
            "seat 0's score when it always moved first, but by less per chip than with the "
            "seats rotated. Who gains most from an extra chip, and why?"
        ),
    ),
    "04b_take_or_pass": LessonNotes(
        title="Take or No Thanks? Rollouts from one decision",
        goals=(
            "build rollouts from one decision, and compare them with the bookkeeping",
            "read a take-versus-pass surface made of rollouts",
            "explain milking, and when it backfires",
            "explore any card, pot and hand with the chip-value explorer",
        ),
        timings=(
            (5, "section 1: recap of one move's bookkeeping and the break-even pot"),
            (12, "section 2: rollouts: one decision played out a few times, then many"),
            (12, "section 3: rollouts over a grid; milking 28 while holding 27 and 29"),
            (6, "section 4: the chip-value explorer"),
            (10, "section 5: exercises in pairs"),
        ),
        prompts=(
            "The rollouts take cards at a smaller pot than the bookkeeping's break-even pot. "
            "What does that say a chip is worth?",
            "Holding 27 and 29, why might you say No Thanks! to 28? When does that backfire?",
        ),
        misconceptions=(
            "'A rollout knows the face-down cards': each rollout guesses them anew from the "
            "unseen cards.",
            "'Milking always pays': it works only when no other player wants the card.",
        ),
    ),
    "07_bot_lab": LessonNotes(
        title="Bot lab: a fair tournament, luck versus skill, the winner's curse",
        goals=(
            "say why one round, or a few, cannot tell a better bot from a luckier one",
            "run a fair tournament (paired deals, every order of the seats) and read win "
            "shares and a paired difference with 95% intervals",
            "explain the winner's curse: the best of many noisy results is flattered by luck",
        ),
        timings=(
            (7, "section 1 (with the goals): one round move by move: who won, and was it skill?"),
            (6, "section 2: luck versus skill: the same bots over more and more deals"),
            (7, "section 3: a fair tournament: seat order, win shares, a paired difference"),
            (5, "section 4: the winner's curse: pick the best, then look again"),
            (
                20,
                "section 5: students' own tournaments in the bot lab widget, or start "
                "05_your_own_bot",
            ),
        ),
        prompts=(
            "Your bot won the round. Is it the better bot? How many rounds would convince you?",
            "Two bots' intervals overlap, yet their paired difference lies above zero. How?",
            "The winner of a small tournament did worse in the big one. Did it get worse?",
        ),
        misconceptions=(
            "'One round shows which bot is better': luck dominates a single round.",
            "'A fair share is 1/2': at four seats a bot as good as the table wins 1/4.",
            "'The winner's result is its true strength': it was picked because it did well "
            "on these deals, so it is flattered; check it on fresh deals.",
        ),
    ),
    "08_bot_lab_for_analysts": LessonNotes(
        title="Bot lab for analysts: parameters, sweeps, tuning and Dask (Enrichment: "
        "university / analysts, not a class period)",
        goals=(
            "read a bot's declared parameters and explain one of its decisions",
            "sweep two parameters and read the heatmap",
            "tune a parameter with scipy and check the pick on fresh deals",
            "run the same sweep on more processes or a Dask cluster, with identical results",
            "write a bot on the compiled path and check it plays the engine's moves",
        ),
        timings=(
            (7, "section 1: the bots, their parameters, explain()"),
            (10, "section 2: a parameter sweep and its heatmap"),
            (8, "section 3: tuning, and why the pick is checked on fresh deals"),
            (5, "section 4: the same sweep on more processes (demonstrate, do not run all)"),
            (10, "section 5: a compiled bot of your own"),
            (5, "wrap-up: what would you tune next, and on how many deals?"),
        ),
        prompts=(
            "Why is the best point of a sweep flattered by luck, and how does tuning guard "
            "against it?",
            "What would you need to change to make a bot that blocks other players' runs?",
            "Why do more workers give exactly the same numbers?",
        ),
        misconceptions=(
            "'More workers give different results': every chunk depends only on the seed.",
            "'The tuned value is the truth': it is an estimate from noisy deals; check it on "
            "fresh ones.",
            "'A compiled bot may read the view': its decision function sees numbers and "
            "arrays only.",
        ),
    ),
    "06_perfect_play": LessonNotes(
        title="Perfect play in a tiny deck (Enrichment: university / analysts, not a class period)",
        goals=(
            "say what a public position is, and why the next card is an even draw",
            "value a position by backward induction, by hand on the last two cards",
            "use the exact solver on a small variant and read a position's value",
            "describe what perfect play does that simple bots do not (milking, pricing)",
            "measure a bot's distance from perfect play with a best response",
        ),
        timings=(
            (6, "section 1: the tiny variant and public positions"),
            (10, "section 2: backward induction by hand on the last two cards"),
            (7, "section 3: solving the whole tiny game; the first player's disadvantage"),
            (7, "section 4: what perfect play does (milking, how it prices the pot)"),
            (5, "section 5: how far each bot is from perfect play"),
            (10, "section 6: exercises in pairs"),
        ),
        prompts=(
            "Why does moving first lose on this deck? Would it on the standard deck?",
            "Perfect play passes a card next to its own run. When is that right, and what "
            "does it risk?",
            "A best response beats a bot by more than perfect play does. Is the best "
            "response a better strategy?",
        ),
        misconceptions=(
            "'Perfect play means always winning': it maximizes the chance of winning against "
            "a perfect opponent, and the first player here still wins less than half.",
            "'The solver knows the removed cards': it values public positions, averaging over "
            "every unseen card.",
            "'Exploitability is a win rate against perfect play': it is how much more a best "
            "response wins against the bot than against perfect play.",
        ),
    ),
}

#: The formula behind each exercise's answer, for the guides' working (hint plus formula).
FORMULAS: dict[str, str] = {
    "score_hand_7_cards": "the runs 5-7, 20, 22-23 and 30 score their lowest cards, minus 4 "
    "chips: 5 + 20 + 22 + 30 - 4",
    "points_change_26_holding_25_27": "the run 25-27 scores 25, and 25 and 27 apart score "
    "52: 25 - (25 + 27)",
    "p28_start": "comb(32, 9) / comb(33, 9) = 24/33",
    "p27_28_29_start": "comb(30, 9) / comb(33, 9)",
    "p28_after_20_seen": "13 unseen cards, 4 of them in play: comb(12, 9) / comb(13, 9) = 4/13",
    "p_gap_21_22_holding_20_23": "31 unseen cards, 9 removed among them: comb(29, 9) / comb(31, 9)",
    "one_of_top3_removed": "3 * comb(30, 8) / comb(33, 9)",
    "tiny_single_run": "one run of 5 starts at 1, 2, 3 or 4: 4 / comb(8, 3) = 4/56",
    "break_even_20": "take costs 20 - pot, pass costs 1: 20 - pot = 1, pot = 20 - 1",
    "break_even_26_holding_27": "taking 26 adds 26 - 27 = -1 points: -1 - pot = 1, pot = -1 - 1",
    "take_minus_pass_28_holding_27_29": "27, 29 score 56 and 27, 28, 29 score 27, so taking "
    "adds -29 points and gains the pot, while passing costs a chip: -29 - 2 - 1",
    "paired_mean_change": "the deals' differences, with minus without: (-2 + 0 - 11 + 2 - 9) / 5",
    "rollout_take_minus_pass": "the guesses' differences, Take minus No Thanks!: "
    "(2 - 6 + 8 - 6) / 4",
    "tiny_two_runs": "comb(4, 1) * comb(4, 2) / comb(8, 5) = 24/56",
    "pp_last_two_cards": "exact.solve(rules).value_of(view) for the position (by hand: "
    "backward induction over the last card, as in section 2)",
    "pp_first_player_two_chips": "exact.solve(nt.Rules(low_card=3, high_card=8, n_removed=2, "
    "chips=((2, 2),))).value",
    "smallest_pot_example_bot_takes_25": "25 is next to neither 12 nor 30, so it adds 25 points; "
    "the bot takes once pot >= 0.4 * 25 = 10",
    "games_per_deal_four_bots": "every order of 4 seats: 4 * 3 * 2 * 1 = 24",
    "pp_best_response_random": "exact.best_response(rules, [RandomBot(p_take=0.2)], seat=0).value",
    "pp_first_card_8": "follow sol.action(view) from pot 0, exact.after_pass while it says "
    "No Thanks!; the pot when it says Take",
}

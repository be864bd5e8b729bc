"""The one-page rules sheet: the game in plain words for a class, with a worked scoring example.

:func:`rules_sheet_markdown` writes the rules of a rule set (cards, removed cards, chips per
player count, a turn, scoring) for a 15-year-old, and one scoring example whose runs, card
points and score are computed by the package (:func:`~nothanks_lab.rules.runs`,
:func:`~nothanks_lab.rules.card_points`, :func:`~nothanks_lab.rules.score`) when the kit is
written, never typed in. :func:`rules_sheet_html` is the printable page (A4, one page);
:func:`pdf_pages` counts a PDF's pages, so the kit can check the printed sheet fits one page.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..rules import Rules, card_points, runs, score
from .guides import guide_html

__all__ = ["EXAMPLE_CHIPS", "EXAMPLE_HAND", "pdf_pages", "rules_sheet_html", "rules_sheet_markdown"]

#: The worked example's hand (three runs and two single cards) and its chips at the end.
EXAMPLE_HAND = (8, 13, 14, 15, 21, 27, 28, 29, 30, 34)
EXAMPLE_CHIPS = 6

# Print layout: A4 with small margins, text sized so the whole sheet stays on one page.
_SHEET_CSS = """
@page { size: A4; margin: 14mm 16mm; }
body { max-width: 178mm; font-size: 10.5pt; line-height: 1.3; margin: 0 auto; padding: 0; }
h1 { font-size: 17pt; margin: 0 0 4pt; } h2 { font-size: 12.5pt; margin: 8pt 0 2pt; }
p, ul { margin: 3pt 0; } li { margin: 1pt 0; }
table { margin: 4pt 0; } th, td { padding: 2pt 8pt; }
"""


_RUN = (27, 28, 29, 30)


def rules_sheet_markdown(rules: Rules | None = None) -> str:
    """The rules of `rules` (default: the standard game) on one page, as Markdown."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nothanks_lab.Rules, got {rules!r}")
    counts = rules.player_counts
    chips = {n: rules.starting_chips(n) for n in counts}
    by_chips: dict[int, list[int]] = {}
    for n, c in chips.items():
        by_chips.setdefault(c, []).append(n)
    chip_rows = "\n".join(
        f"| {ns[0]}–{ns[-1]} players | {c} chips each |"
        if len(ns) > 1
        else f"| {ns[0]} players | {c} chips each |"
        for c, ns in by_chips.items()
    )
    hand = [c for c in EXAMPLE_HAND if rules.low_card <= c <= rules.high_card]
    groups = runs(hand)
    points = card_points(hand)
    total = score(hand, EXAMPLE_CHIPS)
    run_rows = "\n".join(
        f"| {', '.join(map(str, r))} | "
        f"{'a run: counts its lowest card' if len(r) > 1 else 'on its own'} | {r[0]} |"
        for r in groups
    )
    lows = " + ".join(str(r[0]) for r in groups)
    return f"""# No Thanks! — the rules on one page

**The aim:** end the round with the **lowest** score. Cards cost you points; chips save you
points.

## What is in the box

- {rules.n_cards} cards numbered {rules.low_card} to {rules.high_card}. Before each round,
  **{rules.n_removed} cards are taken out at random, face down, and nobody looks at them**. The
  other {rules.n_in_play} cards are shuffled into a pile: they are the cards of the round. So
  when you wait for a card, it may never come.
- Chips. Everyone starts with the same number; it depends on how many play
  ({counts[0]} to {counts[-1]} players):

| players | chips |
|---|---|
{chip_rows}

Keep your chips hidden if you like; the cards you take lie face up for everyone to see.

## Your turn

The top card of the pile is turned face up. The player whose turn it is does one of two things:

- **"No thanks!"**: put one of your chips on the card. Now the next player (to your left)
  decides about the same card, with one more chip on it. If you have no chips left, you
  cannot say no: you must take it.
- **Take it**: put the card face up in front of you, together with **every chip on it**
  (they are yours now). Then turn the next card face up: it is your turn again.

The round ends when the last card is taken. A match is several rounds (four is good): add up
each player's scores; the lowest total wins. Players with the same lowest score share the win.

## Scoring

- Each card counts its number in points: a 30 costs you 30 points.
- **But a run of cards in a row counts only its lowest card.** 27, 28, 29, 30 costs
  {card_points(_RUN)} points, not {sum(_RUN)}. That is why a high card can be worth taking if it
  fits next to one you have.
- **Each chip you hold at the end takes one point off.**

## A worked example

At the end of a round you hold the cards {", ".join(map(str, hand))} and {EXAMPLE_CHIPS} chips.

| cards | why | points |
|---|---|---|
{run_rows}

Card points: {lows} = **{points}**. Minus {EXAMPLE_CHIPS} chips: {points} − {EXAMPLE_CHIPS} =
**{total}**. Without the runs, the same cards would have cost {sum(hand)} points.
"""


def rules_sheet_html(rules: Rules | None = None) -> str:
    """The rules sheet as one self-contained, printable HTML page (A4, one page)."""
    page = guide_html(rules_sheet_markdown(rules), "No Thanks! — the rules")
    return page.replace("</style>", _SHEET_CSS + "</style>", 1)


def pdf_pages(path: str | Path) -> int:
    """How many pages the PDF at `path` has (Chromium writes each page as a ``/Type /Page``)."""
    data = Path(path).read_bytes()
    if not data.startswith(b"%PDF-"):
        raise ValueError(f"path {str(path)!r} is not a PDF file")
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))

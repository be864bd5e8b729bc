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

from ..i18n import _, get_language
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

# The sheet's prose in each language: one text per language, the same placeholders, filled
# by :func:`rules_sheet_markdown` (a long block reads better whole than cut into messages).
_SHEET: dict[str, str] = {
    "en": """# No Thanks! — the rules on one page

**The aim:** end the round with the **lowest** score. Cards cost you points; chips save you
points.

## What is in the box

- {n_cards} cards numbered {low} to {high}. Before each round,
  **{n_removed} cards are taken out at random, face down, and nobody looks at them**. The
  other {n_in_play} cards are shuffled into a pile: they are the cards of the round. So
  when you wait for a card, it may never come.
- Chips. Everyone starts with the same number; it depends on how many play
  ({fewest} to {most} players):

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
  {run_points} points, not {run_sum}. That is why a high card can be worth taking if it
  fits next to one you have.
- **Each chip you hold at the end takes one point off.**

## A worked example

At the end of a round you hold the cards {hand} and {chips} chips.

| cards | why | points |
|---|---|---|
{run_rows}

Card points: {lows} = **{points}**. Minus {chips} chips: {points} − {chips} =
**{total}**. Without the runs, the same cards would have cost {hand_sum} points.
""",
    "pt_BR": """# As regras do jogo em uma página

**O objetivo:** terminar a rodada com a **menor** pontuação. As cartas custam pontos; as fichas
descontam pontos.

## O que vem na caixa

- {n_cards} cartas numeradas de {low} a {high}. Antes de cada rodada, **{n_removed} cartas são
  retiradas ao acaso, viradas para baixo, e ninguém olha para elas**. As outras {n_in_play}
  cartas são embaralhadas num monte: são as cartas da rodada. Por isso, quando você espera por
  uma carta, ela pode nunca aparecer.
- Fichas. Todos começam com o mesmo número; ele depende de quantos jogam
  (de {fewest} a {most} jogadores):

| jogadores | fichas |
|---|---|
{chip_rows}

Você pode esconder suas fichas; as cartas que você pega ficam viradas para cima, à vista de
todos.

## A sua vez

A carta do topo do monte é virada para cima. Quem está na vez faz uma de duas coisas:

- **"Não, obrigado!"**: coloque uma das suas fichas sobre a carta. Agora o próximo jogador (à
  sua esquerda) decide sobre a mesma carta, com uma ficha a mais no pote. Se você não tem mais
  fichas, não pode recusar: é obrigado a pegar a carta.
- **Pegar**: coloque a carta virada para cima na sua frente, junto com **todas as fichas do
  pote** (agora são suas). Depois vire a próxima carta: é a sua vez de novo.

A rodada termina quando a última carta é pega. Uma partida tem várias rodadas (quatro é um
bom número): somam-se as pontuações de cada jogador; vence o menor total. Jogadores empatados
com o menor total dividem a vitória.

## A pontuação

- Cada carta vale o seu número em pontos: um 30 custa 30 pontos.
- **Mas uma sequência de cartas seguidas conta só a sua menor carta.** 27, 28, 29, 30 custa
  {run_points} pontos, não {run_sum}. Por isso pode valer a pena pegar uma carta alta que
  encaixa ao lado de uma que você já tem.
- **Cada ficha que você tem no final desconta um ponto.**

## Um exemplo resolvido

No fim de uma rodada você tem as cartas {hand} e {chips} fichas.

| cartas | por quê | pontos |
|---|---|---|
{run_rows}

Pontos das cartas: {lows} = **{points}**. Menos {chips} fichas: {points} − {chips} =
**{total}**. Sem as sequências, as mesmas cartas custariam {hand_sum} pontos.
""",
}


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
        _("| {lo}–{hi} players | {chips} chips each |").format(lo=ns[0], hi=ns[-1], chips=c)
        if len(ns) > 1
        else _("| {n} players | {chips} chips each |").format(n=ns[0], chips=c)
        for c, ns in by_chips.items()
    )
    hand = [c for c in EXAMPLE_HAND if rules.low_card <= c <= rules.high_card]
    groups = runs(hand)
    points = card_points(hand)
    total = score(hand, EXAMPLE_CHIPS)
    why = {True: _("a run: counts its lowest card"), False: _("on its own")}
    run_rows = "\n".join(
        f"| {', '.join(map(str, r))} | {why[len(r) > 1]} | {r[0]} |" for r in groups
    )
    lows = " + ".join(str(r[0]) for r in groups)
    return _SHEET[get_language()].format(
        n_cards=rules.n_cards,
        low=rules.low_card,
        high=rules.high_card,
        n_removed=rules.n_removed,
        n_in_play=rules.n_in_play,
        fewest=counts[0],
        most=counts[-1],
        chip_rows=chip_rows,
        run_points=card_points(_RUN),
        run_sum=sum(_RUN),
        hand=", ".join(map(str, hand)),
        chips=EXAMPLE_CHIPS,
        run_rows=run_rows,
        lows=lows,
        points=points,
        total=total,
        hand_sum=sum(hand),
    )


def rules_sheet_html(rules: Rules | None = None) -> str:
    """The rules sheet as one self-contained, printable HTML page (A4, one page)."""
    page = guide_html(rules_sheet_markdown(rules), _("No Thanks! — the rules"))
    return page.replace("</style>", _SHEET_CSS + "</style>", 1)


def pdf_pages(path: str | Path) -> int:
    """How many pages the PDF at `path` has (Chromium writes each page as a ``/Type /Page``)."""
    data = Path(path).read_bytes()
    if not data.startswith(b"%PDF-"):
        raise ValueError(f"path {str(path)!r} is not a PDF file")
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))

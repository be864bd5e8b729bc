"""The chance explorers: which cards are in play, and what a chip is worth."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import ipywidgets as W

from .. import render
from ..bots import params_of
from ..i18n import N_, _, check_language, resolve_language, speaks
from ..render.figures import gap_chances_figure
from ..rules import Rules
from ..validate import (
    check_int,
    check_rules,
)
from .common import _WRAP, ErrorLine, FigureArea, paint, plotly_loader


def _distinct_cards(cards: object, rules: Rules, name: str) -> tuple[int, ...]:
    """`cards` as distinct cards of `rules`, or `ValueError` naming `name` (never merged)."""
    if isinstance(cards, str | bytes) or not isinstance(cards, Iterable):
        raise ValueError(f"{name} must be a collection of card numbers; got {cards!r}")
    out = rules.check_cards(cards, what=name)
    if len(set(out)) != len(out):
        twice = sorted({c for c in out if out.count(c) > 1})
        raise ValueError(f"{name} names {twice} more than once; each card at most once")
    return out


def _checked_language(language: str | None) -> str:
    """An explorer's `language` argument, checked, else the language in use."""
    if language is not None:
        check_language(language)
    return resolve_language(language)


def _readable_cards(fig: Any) -> Any:
    """An explorer's figure readable from 390 px up: title on top, legend at the bottom.

    The legend sits at the foot of the figure, below the axis title: above the plot it grew
    into the title when its entries wrapped onto two rows (a phone, or JupyterLab with its file
    browser open), and on the right it takes half of a narrow panel.
    """
    fig.update_layout(
        font={"size": 13},
        # 15 px: a title fits the 250-px figure of JupyterLab at 390 px.
        title={"font": {"size": 15}, "x": 0.01, "xanchor": "left", "y": 0.98, "yanchor": "top"},
        margin={"l": 60, "r": 20, "t": 60, "b": 120},
        legend={
            "orientation": "h",
            "yref": "container",
            "y": 0.01,
            "yanchor": "bottom",
            "xanchor": "left",
            "x": 0,
            "font": {"size": 13},
        },
    )
    fig.update_xaxes(tickfont={"size": 11})
    fig.update_yaxes(tickfont={"size": 11})
    # A colour bar's title along the bar, not across it: across, it took a third of a phone.
    fig.update_traces(
        selector={"type": "heatmap"},
        colorbar={"title": {"side": "right", "font": {"size": 13}}, "thickness": 14},
    )
    return fig


class ProbabilityExplorer:
    """Click cards to mark them as mine or taken by others; the chance plots redraw at once.

    Two figures, each redrawn as a whole on every change (so they stay in step in Voilà and
    after a reload): the chance that each card is in play, and the chance that each gap
    between my runs can still be filled.
    """

    MODES = ((N_("in my hand"), "mine"), (N_("taken by others"), "seen"), (N_("clear"), "clear"))

    @speaks
    def __init__(
        self,
        hand: Sequence[int] = (),
        seen: Sequence[int] = (),
        *,
        rules: Rules | None = None,
        language: str | None = None,
    ) -> None:
        from .. import plots, probability

        self.language = _checked_language(language)
        self._plots, self._probability = plots, probability
        self.rules = check_rules(rules)
        self.errors = ErrorLine()
        self.mine: frozenset[int] = frozenset()
        self.seen: frozenset[int] = frozenset()
        self.mode = W.ToggleButtons(
            options=[(_(text), key) for text, key in self.MODES],
            value="mine",
            description=_("mark as"),
        )
        self.cards = {
            c: W.Button(description=str(c), layout=W.Layout(width="3.2em", height="2.2em"))
            for c in self.rules.cards
        }
        for c, b in self.cards.items():
            b.on_click(self.errors.guard(functools.partial(self._on_card, c), clear=True))
        self.clear_button = W.Button(description=_("Clear all"))
        self.clear_button.on_click(self.errors.guard(lambda _: self.clear_all(), clear=True))
        self.summary = W.HTML()
        self.summary.add_class("nothanks-summary")
        self.in_play = FigureArea(height=400)
        self.gap = FigureArea(height=360)
        self.in_play.output.add_class("nothanks-in-play")
        self.gap.output.add_class("nothanks-gaps")
        self.widget = W.VBox(
            [
                plotly_loader(),
                W.HTML(render.heading_html(_("Which cards are still to come?"))),
                self.mode,
                # Eleven cards a row where they fit, fewer on a phone (11 × 3.4em is wider
                # than a 390-px page: the last column was cut off).
                W.GridBox(
                    list(self.cards.values()),
                    layout=W.Layout(
                        grid_template_columns="repeat(auto-fill, 3.4em)",
                        width="100%",
                        max_width="37.4em",
                    ),
                ),
                W.HBox([self.clear_button, self.summary]),
                self.errors.widget,
                self.in_play.output,
                self.gap.output,
            ],
            # "auto", not 100%: the widget's own 2-px margins made the root 4 px wider than
            # its box in JupyterLab (newcomer trial).
            layout=W.Layout(width="auto"),
        )
        self.set_cards(hand, seen)

    def _figures(self, mine: frozenset[int], seen: frozenset[int]) -> tuple[Any, Any]:
        """Both figures for a marking; raises `ValueError` for an impossible one."""
        fig1 = self._plots.plot_in_play_chances(sorted(seen), hand=sorted(mine), rules=self.rules)
        chances = self._probability.p_gap_fillable(
            sorted(mine), sorted(seen), self.rules, taken=sorted(seen)
        )
        return _readable_cards(fig1), gap_chances_figure(chances, sorted(mine))

    @speaks
    def clear_all(self) -> None:
        """Forget every marked card and go back to marking cards "in my hand" (so the next
        click on the grid visibly marks a card)."""
        self.set_cards((), ())
        self.mode.value = "mine"

    @speaks
    def set_cards(self, hand: Sequence[int] = (), seen: Sequence[int] = ()) -> None:
        """Mark `hand` as mine and `seen` as taken by others; nothing changes on a bad marking."""
        mine = frozenset(_distinct_cards(hand, self.rules, "hand"))
        others = frozenset(_distinct_cards(seen, self.rules, "seen"))
        both = sorted(mine & others)
        if both:
            raise ValueError(f"cards {both} cannot be both in my hand and taken by others")
        if len(others) > self.rules.n_in_play:
            raise ValueError(
                f"at most {self.rules.n_in_play} cards are turned up in a round; "
                f"{len(others)} are marked as taken by others"
            )
        fig1, fig2 = self._figures(mine, others)  # may raise: then nothing is applied
        self.mine, self.seen = mine, others
        self.in_play.show(fig1)
        self.gap.show(fig2)
        for c, b in self.cards.items():
            status = "mine" if c in mine else "seen" if c in others else ""
            paint(b, render.CARD_STATUS_KIND.get(status, ""))
        unseen = self.rules.n_cards - len(mine | others)
        self.summary.value = render.hand_summary_html(sorted(mine), len(others), unseen)

    @speaks
    def _on_card(self, card: int, _button: W.Button | None = None) -> None:
        mine, seen = set(self.mine), set(self.seen)
        mine.discard(card)
        seen.discard(card)
        if self.mode.value == "mine":
            mine.add(card)
        elif self.mode.value == "seen":
            seen.add(card)
        self.set_cards(sorted(mine), sorted(seen))

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


#: Largest pot axis a chip-value explorer draws.
MAX_EXPLORER_POT = 200


class ChipValueExplorer:
    """Sliders for card, pot and hand; the take-versus-pass figure redraws at once.

    The heatmap is Take minus No Thanks! over card × pot for the hand (this move's bookkeeping:
    the card's points against the chips; from :mod:`nothanks_lab.analysis`), with the card and
    pot of the sliders marked and the boundary where `MarginalCostBot(threshold)` starts taking.
    A bad input (a card already in the hand, a hand that is not card numbers) shows as one
    line and hides the verdict and figure until the inputs are valid again.
    """

    @speaks
    def __init__(
        self,
        card: int = 20,
        pot: int = 5,
        hand: Sequence[int] = (),
        *,
        max_pot: int = 30,
        threshold: int = 10,
        rules: Rules | None = None,
        language: str | None = None,
    ) -> None:
        from .. import analysis, plots
        from ..bots import MarginalCostBot

        self.language = _checked_language(language)
        self._analysis, self._plots, self._bot_class = analysis, plots, MarginalCostBot
        self.rules = r = check_rules(rules)
        # Checked here: a slider would silently clamp an out-of-range value.
        card = check_int(card, "card", low=r.low_card, high=r.high_card)
        max_pot = check_int(max_pot, "max_pot", low=1, high=MAX_EXPLORER_POT)
        pot = check_int(pot, "pot", low=0, high=max_pot)
        declared = params_of("marginal")["threshold"]
        threshold = check_int(
            threshold, "threshold", low=int(declared.low), high=int(declared.high)
        )
        hand = tuple(sorted(_distinct_cards(hand, r, "hand")))
        if card in hand:
            raise ValueError(f"card {card} is already in the hand {list(hand)}; pick another")
        if len(hand) + 1 > r.n_in_play:
            raise ValueError(
                f"hand holds {len(hand)} cards; with the card that exceeds the "
                f"{r.n_in_play} in-play cards of a round"
            )
        self.errors = ErrorLine()
        self.card = W.IntSlider(
            value=card,
            min=r.low_card,
            max=r.high_card,
            description=_("card"),
            continuous_update=False,
        )
        self.pot = W.IntSlider(
            value=pot, min=0, max=max_pot, description=_("pot"), continuous_update=False
        )
        self.hand = W.Text(
            value=" ".join(map(str, hand)),
            description=_("my hand"),
            placeholder=_("e.g. 27 29"),
            continuous_update=False,
        )
        self.threshold = W.IntSlider(
            value=threshold,
            min=int(declared.low),
            max=int(declared.high),
            description=_("bot threshold"),
            style={"description_width": "8em"},
            continuous_update=False,
        )
        self.answer = W.HTML()
        self.answer.add_class("nothanks-verdict")
        self.hand_cards: tuple[int, ...] = ()
        self.figure = FigureArea(height=460)
        self.widget = W.VBox(
            [
                plotly_loader(),
                W.HTML(render.heading_html(_("Take or No Thanks?"))),
                W.Box([self.card, self.pot], layout=_WRAP),
                W.Box([self.hand, self.threshold], layout=_WRAP),
                self.errors.widget,
                self.answer,
                self.figure.output,
            ],
            # "auto", not 100%: the widget's own 2-px margins made the root 4 px wider than
            # its box in JupyterLab (newcomer trial).
            layout=W.Layout(width="auto"),
        )
        for w in (self.card, self.pot, self.hand, self.threshold):
            w.observe(self._on_input, names="value")
        self.update()

    @speaks
    def _on_input(self, _change: Mapping[str, Any] | None = None) -> None:
        try:
            self.update()
        except Exception as exc:
            self.errors.report(exc)
            self.answer.value = ""  # stale: it no longer matches the inputs
            self.answer.layout.display = "none"
            self.figure.hide()
        else:
            self.errors.clear()

    def _parse_hand(self) -> tuple[int, ...]:
        text = self.hand.value.replace(",", " ").split()
        bad = [x for x in text if not x.lstrip("-").isdigit()]
        if bad:
            raise ValueError(
                f"my hand must be card numbers separated by spaces; {bad[0]!r} is not a number"
            )
        cards = [int(x) for x in text]
        outside = [c for c in cards if not self.rules.low_card <= c <= self.rules.high_card]
        if outside:
            raise ValueError(
                f"{outside[0]} is not a card: cards run from {self.rules.low_card} to "
                f"{self.rules.high_card}"
            )
        twice = sorted({c for c in cards if cards.count(c) > 1})
        if twice:
            raise ValueError(f"{twice[0]} is in my hand twice; each card exists once")
        if len(cards) + 1 > self.rules.n_in_play:
            raise ValueError(
                f"a hand holds at most {self.rules.n_in_play - 1} cards before this one"
            )
        return tuple(sorted(cards))

    def _figure(self, card: int, pot: int, hand: tuple[int, ...], threshold: int) -> Any:
        a, r = self._analysis, self.rules
        pots = range(self.pot.max + 1)
        surface = a.take_pass_surface(r.cards, pots, hand, rules=r)
        boundary = a.bot_boundary(self._bot_class(threshold), r.cards, pots, hand, rules=r)
        fig = self._plots.plot_take_pass(surface, boundary)
        # "MarginalCostBot(threshold=10) takes from here" is wider than a phone's figure; the
        # threshold is on its slider right above.
        fig.update_traces(
            selector={"type": "scatter"},
            name=_("{bot} takes from here").format(bot=_("the bot")),
        )
        fig.add_scatter(
            x=[pot],
            y=[card],
            mode="markers",
            marker={"size": 18, "symbol": "x", "color": "gold", "line": {"width": 2}},
            name=_("card {card}, pot {pot}").format(card=card, pot=pot),
        )
        # Only real cards on the axis (3..35 in the standard rules), not 2 and 36.
        fig.update_yaxes(**self._plots.card_axis(r.low_card, r.high_card))
        # The hand and the method as the title (the widget's heading asks the question): the
        # lesson figure's one-line title is wider than a phone.
        hand_text = " ".join(map(str, hand)) or _("no cards")
        method = _("this move only") if surface.method == "immediate" else _("whole-round rollouts")
        fig.update_layout(title={"text": f"{_('hand: {hand}').format(hand=hand_text)}; {method}"})
        return _readable_cards(fig)

    @speaks
    def update(self) -> None:
        """Redraw from the sliders: the figure and the verdict for card and pot."""
        hand = self._parse_hand()
        card, pot = self.card.value, self.pot.value
        if card in hand:
            raise ValueError(
                _("{card} is already in your hand; pick another card").format(card=card)
            )
        fig = self._figure(card, pot, hand, self.threshold.value)
        diff = self._analysis.immediate_take_minus_pass(card, pot, hand)
        even = self._analysis.break_even_pots(hand, [card], rules=self.rules)[card]
        self.hand_cards = hand
        self.figure.show(fig)
        self.answer.value = render.immediate_verdict_html(card, diff, even)
        self.answer.layout.display = ""

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

"""The words a bot's settings show beside their sliders, in the language in use.

A slider's label is the parameter's own name in English (``threshold``, ``p_take``: what a spec
such as ``marginal:threshold=4`` writes and an analyst reads in a table) and words in another
language (*limite*, *chance de pegar*), each a ``pgettext`` entry in the context ``a bot
parameter's slider label``, so one English name can be translated apart from any other use of
the word. A parameter missing here shows its name. The one-line meaning of each parameter, the
slider's tooltip, is `Param.help <nothanks_lab.bots.base.Param.help>`.
"""

from __future__ import annotations

from ..i18n import pgettext

__all__ = ["param_label"]


def param_label(name: str) -> str:
    """The label of bot parameter `name` beside its slider.

    >>> from nothanks_lab.i18n import language
    >>> param_label("p_take")
    'p_take'
    >>> with language("pt_BR"):
    ...     param_label("p_take")
    'chance de pegar'
    """
    # A literal context on every line: Babel extracts a pgettext call only in this form.
    labels = {
        "n_rollouts": pgettext("a bot parameter's slider label", "n_rollouts"),
        "batch": pgettext("a bot parameter's slider label", "batch"),
        "stop_z": pgettext("a bot parameter's slider label", "stop_z"),
        "margin_weight": pgettext("a bot parameter's slider label", "margin_weight"),
        "pass_bias": pgettext("a bot parameter's slider label", "pass_bias"),
        "model_opponents": pgettext("a bot parameter's slider label", "model_opponents"),
        "prior_milker": pgettext("a bot parameter's slider label", "prior_milker"),
        "learn_rivals": pgettext("a bot parameter's slider label", "learn_rivals"),
        "model_eps": pgettext("a bot parameter's slider label", "model_eps"),
        "trust_z": pgettext("a bot parameter's slider label", "trust_z"),
        "seat_tuned_5p": pgettext("a bot parameter's slider label", "seat_tuned_5p"),
        "own_linear": pgettext("a bot parameter's slider label", "own_linear"),
        "chip_value": pgettext("a bot parameter's slider label", "chip_value"),
        "scarcity": pgettext("a bot parameter's slider label", "scarcity"),
        "neighbour_value": pgettext("a bot parameter's slider label", "neighbour_value"),
        "bridge_value": pgettext("a bot parameter's slider label", "bridge_value"),
        "margin": pgettext("a bot parameter's slider label", "margin"),
        "threshold": pgettext("a bot parameter's slider label", "threshold"),
        "pot_weight": pgettext("a bot parameter's slider label", "pot_weight"),
        "chip_ref": pgettext("a bot parameter's slider label", "chip_ref"),
        "chip_weight": pgettext("a bot parameter's slider label", "chip_weight"),
        "late_weight": pgettext("a bot parameter's slider label", "late_weight"),
        "bridge_weight": pgettext("a bot parameter's slider label", "bridge_weight"),
        "milk": pgettext("a bot parameter's slider label", "milk"),
        "milk_margin": pgettext("a bot parameter's slider label", "milk_margin"),
        "block_weight": pgettext("a bot parameter's slider label", "block_weight"),
        "p_take": pgettext("a bot parameter's slider label", "p_take"),
        "w_bias": pgettext("a bot parameter's slider label", "w_bias"),
        "w_cost": pgettext("a bot parameter's slider label", "w_cost"),
        "w_pot": pgettext("a bot parameter's slider label", "w_pot"),
        "w_gain": pgettext("a bot parameter's slider label", "w_gain"),
        "w_chips": pgettext("a bot parameter's slider label", "w_chips"),
        "w_scarcity": pgettext("a bot parameter's slider label", "w_scarcity"),
        "w_late": pgettext("a bot parameter's slider label", "w_late"),
        "w_pot_late": pgettext("a bot parameter's slider label", "w_pot_late"),
        "w_cost_late": pgettext("a bot parameter's slider label", "w_cost_late"),
        "w_bridge": pgettext("a bot parameter's slider label", "w_bridge"),
        "w_fits": pgettext("a bot parameter's slider label", "w_fits"),
        "w_block": pgettext("a bot parameter's slider label", "w_block"),
        "w_lead_gap": pgettext("a bot parameter's slider label", "w_lead_gap"),
        "w_returns": pgettext("a bot parameter's slider label", "w_returns"),
        "w_returns_cost": pgettext("a bot parameter's slider label", "w_returns_cost"),
        "w_cost_per_chip": pgettext("a bot parameter's slider label", "w_cost_per_chip"),
        "w_rival_chips": pgettext("a bot parameter's slider label", "w_rival_chips"),
        "w_returns_pot": pgettext("a bot parameter's slider label", "w_returns_pot"),
    }
    return labels.get(name, name)

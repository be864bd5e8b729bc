"""Shared parts of the notebook widgets: error line, seeds, figures, bot pickers."""

from __future__ import annotations

import functools
import itertools
import logging
import traceback
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import ipywidgets as W
import numpy as np

from .. import render
from ..bots import available_bots, bot_class, params_of
from ..bots.base import Param
from ..i18n import _, fmt_decimal, get_language, language, speaks
from ..play import policy_name
from ..table import (
    DEFAULT_DIFFICULTY,
    DIFFICULTIES,
    MAX_TABLE_SEED,
    BotSpec,
    build_bot,
    display_label,
    spec_label,
)
from ..validate import (
    check_seed,
    keyword_only_after,
)
from .param_labels import param_label

F = TypeVar("F", bound=Callable[..., Any])
log = logging.getLogger("nothanks_lab.widgets")


def paint(button: W.Button, kind: str) -> W.Button:
    """Give `button` the ipywidgets style `kind` ("" for plain) in readable colours.

    The fill and text colour come from `render.BUTTON_COLORS` (at least 4.5:1 on any theme);
    a plain button keeps the theme's own colours.
    """
    fill, ink = render.BUTTON_COLORS.get(kind, (None, None))
    button.button_style = kind
    button.style.button_color = fill
    button.style.text_color = ink
    return button


def default_bot_name() -> str:
    """The registry name of the default preset's bot."""
    return DIFFICULTIES[DEFAULT_DIFFICULTY].bot[0]


#: Longest pause between bot moves a table accepts, in seconds (its slider stops at 3).
MAX_BOT_DELAY_S = 60.0


def _table_seed(seed: object, name: str = "seed") -> int | None:
    """A seed for a table's seed box: the one seed rule, as an int the box can show."""
    seed = check_seed(seed, name)
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(MAX_TABLE_SEED + 1))
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(1)[0]) % (MAX_TABLE_SEED + 1)
    if seed is not None and seed > MAX_TABLE_SEED:
        raise ValueError(
            f"{name} must be at most {MAX_TABLE_SEED} (the seed box's limit); got {seed}"
        )
    return None if seed is None else int(seed)


def _fresh_seed() -> int:
    """A new small seed from OS entropy (never the global generator), easy to retype."""
    return int(np.random.SeedSequence().entropy) % 1_000_000  # type: ignore[arg-type]  # an int


def parse_seed_text(text: str) -> int | None:
    """What a person typed in a seed box: a whole number 0..`MAX_TABLE_SEED`, or None if empty.

    Anything else ("abc", "1e5", "-3", "2.5") is a `ValueError` saying what is allowed; it is
    never turned into some other seed.

    >>> parse_seed_text(" 42 "), parse_seed_text("")
    (42, None)
    """
    raw = str(text).strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit()) or int(raw) > MAX_TABLE_SEED:
        raise ValueError(
            _("seed:")
            + " "
            + _(
                "type a whole number from 0 to {max}, or leave the box empty for a random "
                "seed (“{text}” is not allowed)"
            ).format(max=MAX_TABLE_SEED, text=raw[:40])
        )
    return int(raw)


class SeedBox:
    """A seed box that never changes what was typed into another seed.

    `widget` holds a text box and, below it, one line saying what is allowed while the text is
    not a seed (an ipywidgets number box silently clamps "-3" to 0 and reads "1e5" as 100000).
    `value` is the seed typed (None when empty: a random seed); reading it while the text is
    not a seed raises the same `ValueError`, so nothing starts with a seed nobody typed.
    """

    def __init__(
        self, value: int | None, description: str, tooltip: str, errors: ErrorLine | None = None
    ) -> None:
        self.errors = errors
        """The table's error line, cleared once the text is a seed again (if it was the seed's)."""
        self.text = W.Text(
            value="" if value is None else str(value),
            description=description,
            tooltip=tooltip,
            placeholder=_("empty: a random seed"),
            continuous_update=False,
            layout=W.Layout(width="19em", max_width="100%"),
        )
        self.message = W.HTML()
        self.message.add_class("nothanks-seed-message")
        self.widget = W.VBox([self.text, self.message], layout=W.Layout(max_width="100%"))
        self.text.observe(self._on_text, names="value")

    @property
    def value(self) -> int | None:
        """The seed typed, or None for a random one; `ValueError` for any other text."""
        return parse_seed_text(self.text.value)

    @value.setter
    def value(self, seed: int | None) -> None:
        self.text.value = "" if seed is None else str(_table_seed(seed))

    def _on_text(self, _change: Mapping[str, Any] | None = None) -> None:
        try:
            parse_seed_text(self.text.value)
        except ValueError as exc:
            self.message.value = render.error_html(str(exc))
        else:
            self.message.value = ""
            if self.errors is not None and self.errors.text.startswith(_("seed:")):
                self.errors.clear()  # the table's line said the same; the box is valid now


def plain_message(exc: BaseException) -> str:
    """One short line for a person: the error's own words, without the view dump or type.

    >>> plain_message(ValueError("card 27 is already in your hand"))
    'card 27 is already in your hand'
    """
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    for cut in (" when shown ", "; it was shown ", "; it would be shown "):
        text = text.split(cut)[0]
    if not isinstance(exc, ValueError):
        text = f"{type(exc).__name__}: {text} (details in the log)"
    return text if len(text) <= 240 else text[:237] + "…"


class ErrorLine:
    """One line saying what went wrong, in plain words; tracebacks go to the log, not the page.

    `guard` wraps a callback so an exception it raises is shown here instead of being lost;
    with ``clear=True`` a callback that succeeds clears the line (the input is valid again).
    """

    def __init__(self) -> None:
        self.widget = W.HTML()
        self.widget.add_class("nothanks-errors")
        self.messages: list[str] = []
        """Every message shown, oldest first (for tests and notebooks)."""
        self.tracebacks: list[str] = []
        """The matching tracebacks, for developers."""

    @property
    def text(self) -> str:
        """The message on display ("" when none)."""
        return self.messages[-1] if self.messages and self.widget.value else ""

    def report(self, exc: BaseException) -> None:
        """Show `exc` as one line; keep and log its traceback."""
        message = plain_message(exc)
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        self.messages.append(message)
        self.tracebacks.append(tb)
        log.debug("%s\n%s", message, tb)  # for developers: logging.basicConfig(level=DEBUG)
        self.widget.value = render.error_html(message)

    def clear(self) -> None:
        """Hide the shown message (the history stays in `messages`)."""
        self.widget.value = ""

    def guard(self, fn: F, clear: bool = False) -> F:
        """Wrap a callback so that any exception it raises is shown here, not swallowed."""

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                out = fn(*args, **kwargs)
            except Exception as exc:
                self.report(exc)
                return None
            if clear:
                self.clear()
            return out

        return wrapper  # type: ignore[return-value]


# --------------------------------------------------------------------------- figures
_figure_ids = itertools.count()


def page_script(html: str, text: str) -> W.Output:
    """An invisible ``Output`` that runs the script in `html` on the page (an HTML widget's
    scripts never run); `text` is its plain-text stand-in."""
    out = W.Output(layout=W.Layout(height="0px", overflow="hidden"))
    out.outputs = (_html_output(html, text),)
    return out


def plotly_loader() -> W.Output:
    """An ``Output`` that defines ``window.Plotly`` from the installed package (no network)."""
    return page_script(render.plotly_js_html(), "plotly.js")


def _html_output(html: str, text: str) -> dict[str, Any]:
    return {
        "output_type": "display_data",
        "data": {"text/html": html, "text/plain": text},
        "metadata": {},
    }


class FigureArea:
    """A figure redrawn as a whole into an ``Output``, as wide as the page.

    `figure` is the last ``go.Figure`` shown (None when hidden); `html` its markup.
    """

    def __init__(self, height: int = 420) -> None:
        self.height = height
        self.output = W.Output(layout=W.Layout(width="100%"))
        self.figure: Any = None
        self.html = ""
        self.draws = 0

    def show(self, fig: Any) -> None:
        """Draw `fig` in place of the previous figure."""
        self.draws += 1
        div = f"nothanks-fig-{next(_figure_ids)}"
        self.html = render.figure_div(fig, div, self.height)
        self.figure = fig
        title = fig.layout.title.text or "figure"
        self.output.outputs = (_html_output(self.html, f"<{title}>"),)
        self.output.layout.display = ""

    def hide(self) -> None:
        """Hide the figure (its inputs are no longer valid)."""
        self.figure = None
        self.output.layout.display = "none"


# --------------------------------------------------------------------------- bot pickers
#: The few parameters a student would change, per bot; the rest sit under "advanced".
STUDENT_PARAMS: dict[str, tuple[str, ...]] = {
    "marginal": ("threshold",),
    "random": ("p_take",),
    "heuristic": ("threshold", "pot_weight"),
    "expectation": ("chip_value", "scarcity"),
    "search": ("n_rollouts",),
    "best": ("n_rollouts",),
    "linear": (),
}


def bot_label(name: str) -> str:
    """A dropdown label: the bot's name and the difficulty preset it stands for, if any.

    >>> bot_label("best"), bot_label("random")
    ('best (hard)', 'random')
    """
    levels = [d.name for d in DIFFICULTIES.values() if d.bot[0] == name and not d.bot[1]]
    levels += [
        d.name
        for d in DIFFICULTIES.values()
        if d.bot[0] == name
        and d.bot[1]
        and all(params_of(name)[k].default == v for k, v in d.bot[1].items())
    ]
    shown = display_label(name)  # a word of the language in use ("heurístico")
    return f"{shown} ({_(levels[0])})" if levels else shown


def param_widget(param: Param, value: Any = None) -> W.ValueWidget:
    """A slider (or checkbox) for a declared bot parameter, spanning its allowed range.

    Its label is `param_label` (the name in English, words in Portuguese), its tooltip the
    parameter's meaning. Where the language writes a decimal comma, a float slider shows no
    readout of its own (the browser's number format prints a point): `slider_row` adds one.
    """
    value = param.default if value is None else value
    style = {"description_width": "10em"}
    layout = W.Layout(width="26em", max_width="100%")
    label = param_label(param.name)
    if param.kind is bool:
        return W.Checkbox(
            value=bool(value),
            description=label,
            tooltip=param.help,
            style=style,
            layout=layout,
        )
    if param.kind is int:
        return W.IntSlider(
            value=int(value),
            min=int(param.low),
            max=int(param.high),
            description=label,
            tooltip=param.help,
            continuous_update=False,
            style=style,
            layout=layout,
        )
    return W.FloatSlider(
        value=float(value),
        min=float(param.low),
        max=float(param.high),
        step=(float(param.high) - float(param.low)) / 100 or 0.01,
        description=label,
        tooltip=param.help,
        continuous_update=False,
        readout=point_readout(),
        readout_format=".2f",
        style=style,
        layout=layout,
    )


def point_readout() -> bool:
    """Whether a float slider may show its own readout: the browser prints a decimal point."""
    return fmt_decimal(0.5, 1) == "0.5"


def slider_row(control: W.ValueWidget, digits: int = 2) -> W.Widget:
    """`control` as it sits in a panel: with a readout in the language's decimals if it lacks one.

    A float slider without its own readout (a decimal-comma language, see `point_readout`) gets
    a label beside it that prints its value with `fmt_decimal` (``0,25``), `digits` decimals.
    """
    if not isinstance(control, W.FloatSlider) or control.readout:
        return control
    readout = W.Label(fmt_decimal(control.value, digits), layout=W.Layout(width="4em"))
    lang = get_language()  # the picker's, also when a later event runs under another

    def show(change: Mapping[str, Any]) -> None:
        with language(lang):
            readout.value = fmt_decimal(change["new"], digits)

    control.observe(show, names="value")
    return W.HBox([control, readout], layout=W.Layout(align_items="center"))


_WRAP = W.Layout(display="flex", flex_flow="row wrap", align_items="center", width="100%")


class BotPicker:
    """One seat's bot: a dropdown of registered bots, its main parameters, the rest collapsed.

    The few parameters a student would change (`STUDENT_PARAMS`) show beside the dropdown;
    the others sit in a collapsed "advanced" section whose rows wrap inside the page width.
    A policy object given as `spec` is offered as an extra choice (``"custom: <name>"``).
    """

    CUSTOM = "custom"

    def __init__(self, label: str, spec: BotSpec | None = None) -> None:
        self.custom: Any = None
        self.language = get_language()  # the page's: the picker redraws on its own events
        self.label_text = label
        self.label = W.HTML(render.caption_html(label), layout=W.Layout(width="5em"))
        self.dropdown = W.Dropdown(layout=W.Layout(width="13em"))
        self.main_box = W.Box(layout=_WRAP)
        self.advanced_box = W.Box(layout=_WRAP)
        self.advanced = W.Accordion(children=[self.advanced_box], selected_index=None)
        self.advanced.layout = W.Layout(width="100%")
        self._initial: dict[str, Any] = {}
        self._controls: dict[str, W.ValueWidget] = {}  # parameter name -> its control
        self.set_spec(spec)
        self.dropdown.observe(self._on_name, names="value")
        self.widget = W.VBox(
            [W.Box([self.label, self.dropdown, self.main_box], layout=_WRAP), self.advanced],
            layout=W.Layout(width="100%", margin="0 0 .4em 0"),
        )

    def set_spec(self, spec: BotSpec | None) -> None:
        """Show `spec` (a name, ``(name, params)`` or a policy); `ValueError` if it is none."""
        params: Mapping[str, Any] = {}
        custom = None
        if spec is None:
            name = default_bot_name()
        elif isinstance(spec, str):
            name = spec
        elif isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
            name, params = spec[0], dict(spec[1])
        elif callable(getattr(spec, "act", None)):
            custom, name = spec, self.CUSTOM
        else:
            raise ValueError(
                f"{self.label_text}: a bot is a registered name, (name, params) or an object "
                f"with act(view); got {spec!r}"
            )
        if name != self.CUSTOM:
            bot_class(name)  # ValueError naming the available bots
            known = params_of(name)
            unknown = sorted(set(params) - set(known))
            if unknown:
                raise ValueError(
                    f"{self.label_text}: bot {name!r} has no parameter {', '.join(unknown)}; "
                    f"allowed: {', '.join(known) or 'none'}"
                )
        if custom is not None or self.custom is None:
            self.custom = custom if custom is not None else self.custom
        options = [(bot_label(n), n) for n in available_bots()]
        if self.custom is not None:
            options.insert(0, (f"custom: {policy_name(self.custom)}", self.CUSTOM))
        self._initial = dict(params)
        if list(self.dropdown.options) != options:
            self.dropdown.options = options
        self.dropdown.value = name
        self._build_params()
        self._initial = {}

    @property
    def name(self) -> str:
        """The chosen registry name (or ``"custom"``)."""
        return str(self.dropdown.value)

    @property
    def sliders(self) -> list[W.ValueWidget]:
        """Every parameter control, main ones first."""
        return list(self._controls.values())

    @property
    def params(self) -> dict[str, Any]:
        """Values of the parameter controls."""
        return {name: w.value for name, w in self._controls.items()}

    @speaks
    def _build_params(self) -> None:
        if self.name == self.CUSTOM:
            self.main_box.children = self.advanced_box.children = ()
            self._controls = {}
            self.advanced.layout.display = "none"
            return
        declared = params_of(self.name)
        main = [n for n in STUDENT_PARAMS.get(self.name, tuple(declared)[:2]) if n in declared]
        rest = [n for n in declared if n not in main]
        self._controls = {n: param_widget(declared[n], self._initial.get(n)) for n in main + rest}
        self.main_box.children = tuple(slider_row(self._controls[n]) for n in main)
        self.advanced_box.children = tuple(slider_row(self._controls[n]) for n in rest)
        self.advanced.set_title(
            0,
            _("advanced: {n} more settings of {bot}").format(
                n=len(rest), bot=display_label(self.name)
            ),
        )
        self.advanced.layout.display = "" if rest else "none"

    def _on_name(self, change: Mapping[str, Any]) -> None:
        self._build_params()

    def spec_value(self) -> BotSpec:
        """The chosen bot as a spec: ``(name, params)`` or the custom policy."""
        if self.name == self.CUSTOM:
            return self.custom
        return (self.name, self.params)

    def spec(self) -> str:
        """A short description naming only changed settings, e.g. ``"marginal(threshold=4)"``."""
        return spec_label(self.spec_value())

    @keyword_only_after(1, "seed")
    def make(self, *, seed: np.random.SeedSequence | None = None) -> Any:
        """Build the chosen bot; a randomized bot draws from its own generator seeded by `seed`."""
        return build_bot(self.spec_value(), seed=seed)

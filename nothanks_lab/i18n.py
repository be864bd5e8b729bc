"""The package's languages: gettext catalogs, the language in use, and numbers for a person.

English is the source language: every user-facing string is an English literal wrapped in
`_` (or `ngettext`), so the English output is the text in the code, unchanged. The other
languages' translations are ``.po`` sources under ``nothanks_lab/locale/<lang>/LC_MESSAGES/``
(the template ``nothanks_lab/locale/nothanks_lab.pot`` is extracted with Babel, see
``docs/howto/add-a-language.md``); each is compiled to ``.mo`` form with Babel on first use, in
memory (milliseconds; `write_catalogs` writes ``.mo`` files for a build), never committed.

The language in use is, first to last: an explicit ``language=`` argument (a widget's, which
holds it with `language` while it draws), `set_language`, the ``NOTHANKS_LAB_LANG``
environment variable (a language the package does not speak, such as ``es``, means English,
with one warning), the locale (``LC_ALL`` / ``LC_MESSAGES`` / ``LANG`` starting with ``pt``),
else English. Numbers shown to a person go through `fmt_decimal`, `fmt_percent` and
`fmt_int` (``0,73`` and ``73%`` in Portuguese; English keeps Python's own formatting), a
yes/no through `fmt_bool` (``sim``/``não``).

>>> with language("pt_BR"):
...     _("Take"), fmt_decimal(0.73, 2), fmt_percent(0.73)
('Pegar', '0,73', '73%')
>>> _("Take"), fmt_decimal(0.73, 2)
('Take', '0.73')
"""

from __future__ import annotations

import contextvars
import functools
import gettext as _gettext
import io
import os
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "check_language",
    "fmt_bool",
    "fmt_decimal",
    "fmt_int",
    "fmt_percent",
    "fmt_separator",
    "get_language",
    "gettext",
    "language",
    "ngettext",
    "pgettext",
    "resolve_language",
    "set_language",
    "speaks",
    "translations",
    "write_catalogs",
]

#: The gettext domain of the package's catalogs.
DOMAIN = "nothanks_lab"
#: The languages the package speaks (English is the source language, with no catalog).
LANGUAGES = ("en", "pt_BR")
#: Where the ``.po`` sources live: ``LOCALE_DIR / lang / "LC_MESSAGES" / "nothanks_lab.po"``.
LOCALE_DIR = Path(__file__).parent / "locale"

# The language `set_language` chose (None: not chosen, fall back to the environment).
_chosen: str | None = None
# The language a widget or test holds while it draws (`language`): wins over `set_language`.
_held: contextvars.ContextVar[str | None] = contextvars.ContextVar("nothanks_lang", default=None)
_catalogs: dict[str, _gettext.NullTranslations] = {}
# The unknown NOTHANKS_LAB_LANG values already warned about (one warning each per process).
_warned: set[str] = set()


def check_language(lang: object, name: str = "language") -> str:
    """`lang` as one of `LANGUAGES` (``"pt-BR"`` means ``"pt_BR"``), or a ValueError."""
    if isinstance(lang, str):
        norm = lang.strip().replace("-", "_")
        for known in LANGUAGES:
            if norm.lower() == known.lower():
                return known
    raise ValueError(f"{name} must be one of {', '.join(map(repr, LANGUAGES))}; got {lang!r}")


def _from_environment() -> str:
    env = os.environ.get("NOTHANKS_LAB_LANG")
    if env:
        try:
            return check_language(env, "NOTHANKS_LAB_LANG")
        except ValueError as e:
            # A language the package does not speak (``es``) is the environment's wish, not a
            # mistake in a call: speak English, and say so once, rather than fail every print.
            if env not in _warned:
                _warned.add(env)
                warnings.warn(f"{e}; speaking English", stacklevel=2)
            return "en"
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            # The first variable set decides (as for gettext): ``pt_BR.UTF-8`` and ``pt_PT``
            # choose pt_BR, a locale of no known language chooses English.
            for known in LANGUAGES[1:]:
                if value.lower().startswith(known.split("_")[0].lower()):
                    return known
            return "en"
    return "en"


def resolve_language(lang: str | None = None) -> str:
    """The language to use: `lang` if given, else the one in use (see the module's order)."""
    if lang is not None:
        return check_language(lang)
    return get_language()


def get_language() -> str:
    """The language in use: held by `language`, else `set_language`'s, else the environment's."""
    held = _held.get()
    if held is not None:
        return held
    if _chosen is not None:
        return _chosen
    return _from_environment()


def set_language(lang: str) -> None:
    """Speak `lang` from now on: ``"pt_BR"`` (Brazilian Portuguese) or ``"en"`` (English).

    >>> set_language("fr")
    Traceback (most recent call last):
    ...
    ValueError: lang must be one of 'en', 'pt_BR'; got 'fr'
    """
    global _chosen
    _chosen = check_language(lang, "lang")


@contextmanager
def language(lang: str | None) -> Iterator[str]:
    """Hold `lang` (None: the language in use) inside the block; yields the language held."""
    chosen = resolve_language(lang)
    token = _held.set(chosen)
    try:
        yield chosen
    finally:
        _held.reset(token)


# ------------------------------------------------------------------ catalogs
def _compile(po_path: Path) -> bytes:
    """The ``.mo`` bytes of a ``.po`` source (Babel), without fuzzy entries."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path.open("rb") as f:
        catalog = read_po(f, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def _mo_bytes(lang: str) -> bytes:
    """The compiled catalog of `lang`, compiled from its ``.po`` source once per process.

    Compiling in memory takes milliseconds, so no ``.mo`` is written anywhere (a read-only
    install, Binder and a class server work alike); `write_catalogs` writes them for tools that
    want files.
    """
    return _compile(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po")


def write_catalogs(directory: str | os.PathLike[str]) -> list[Path]:
    """Compile every language's ``.po`` into ``directory/<lang>/LC_MESSAGES/nothanks_lab.mo``.

    The layout `gettext.translation` reads (``localedir=directory``); returns the files written.
    """
    out = []
    for lang in LANGUAGES[1:]:
        path = Path(directory) / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_mo_bytes(lang))
        out.append(path)
    return out


def translations(lang: str) -> _gettext.NullTranslations:
    """The gettext translations of `lang` (English: the identity), compiled once per process."""
    lang = check_language(lang)
    if lang not in _catalogs:
        if lang == "en":
            _catalogs[lang] = _gettext.NullTranslations()
        else:
            _catalogs[lang] = _gettext.GNUTranslations(io.BytesIO(_mo_bytes(lang)))
    return _catalogs[lang]


def gettext(message: str) -> str:
    """`message` (English) in the language in use."""
    return translations(get_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """`singular` or `plural` (English) for the count `n`, in the language in use."""
    return translations(get_language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` (English) in the language in use, as meant in `context` (``msgctxt``).

    For one English text in two roles: ``No Thanks!`` is the move (``Não, obrigado!``) and,
    as the table's title, the game's name.
    """
    return translations(get_language()).pgettext(context, message)


_ = gettext


# ------------------------------------------------------------------ numbers for a person
def _babel_locale() -> str | None:
    lang = get_language()
    return None if lang == "en" else lang


def fmt_decimal(x: float, digits: int = 1, *, sign: bool = False) -> str:
    """`x` with `digits` decimals (``0.73``; ``0,73`` in Portuguese); `sign` adds ``+``."""
    loc = _babel_locale()
    if loc is None:
        return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    if sign:
        pattern = f"+{pattern};-{pattern}"
    return format_decimal(round(x, digits), format=pattern, locale=loc)


def fmt_percent(x: float, digits: int = 0, *, sign: bool = False) -> str:
    """The share `x` as a percentage (``73%``, ``12.5%``; ``12,5%`` in Portuguese)."""
    loc = _babel_locale()
    if loc is None:
        return f"{x:+.{digits}%}" if sign else f"{x:.{digits}%}"
    from babel.numbers import format_percent

    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "") + "%"
    if sign:
        pattern = f"+{pattern};-{pattern}"
    return format_percent(round(x, digits + 2), format=pattern, locale=loc)


def fmt_separator() -> str:
    """What separates numbers in a list or an interval: ``", "``, or ``"; "`` where the
    decimal mark is a comma (Portuguese: ``[0,9; 2,2]``, ``0,371; 0,370``)."""
    return "; " if fmt_decimal(0.5, 1)[1] == "," else ", "


def fmt_int(n: int) -> str:
    """A whole number with thousands grouped (``1,000``; ``1.000`` in Portuguese)."""
    loc = _babel_locale()
    if loc is None:
        return f"{n:,}"
    from babel.numbers import format_decimal

    return format_decimal(n, format="#,##0", locale=loc)


def fmt_bool(value: object) -> str:
    """A yes/no shown as a word: ``True``/``False`` in English (Python's own), ``sim``/``não``.

    >>> with language("pt_BR"):
    ...     fmt_bool(True), fmt_bool(False)
    ('sim', 'não')
    >>> fmt_bool(True)
    'True'
    """
    # TRANSLATORS: a true/false value printed in a lesson (English keeps Python's True).
    return _("True") if value else _("False")


def N_(message: str) -> str:
    """Mark `message` for extraction only; it is translated where it is shown (with `_`)."""
    return message


def speaks(method: Callable[..., T]) -> Callable[..., T]:
    """Run a widget's method in the widget's own language (its ``language`` attribute).

    The widgets' callbacks, timers and threads start outside any `language` block, so each
    entry point holds the widget's language itself. In ``__init__``, before the attribute is
    set, the ``language=`` argument is used (checked there).
    """

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> T:
        lang = getattr(self, "language", None) or kwargs.get("language")
        with language(lang):
            return method(self, *args, **kwargs)

    return wrapper

"""Bots by name: ``"name:key=value"`` specs, a user's own bot classes, and names for tables.

A spec is how a bot is written where only text fits: on the command line, in a saved round, in
a tournament's field. `make_policy` turns any of the accepted forms (a policy object, a
registered name with parameters, a ``(name, params)`` pair, or ``"path/to/file.py:Class:k=v"``
for a user's class) into a policy; `short_name` names one for a table, and `bot_label` says
that name to a person in the language in use (``heurístico`` for ``HeuristicBot(defaults)``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..i18n import N_, _, get_language
from ..play import policy_name
from ..validate import short_repr
from .base import _REGISTRY, make_bot

__all__ = [
    "BOT_WORDS",
    "bot_label",
    "make_policy",
    "parse_bot_spec",
    "parse_value",
    "short_name",
    "unique_names",
]

#: What each registered bot's name says, as a word a person reads (translated where shown;
#: the spec names in code stay as they are).
BOT_WORDS = {
    "marginal": N_("marginal"),
    "random": N_("random"),
    "heuristic": N_("heuristic"),
    "expectation": N_("expectation"),
    "search": N_("search"),
    "best": N_("best"),
    "linear": N_("linear"),
}

# A class name and its parameters: "HeuristicBot(defaults)", "MarginalCostBot(threshold=3)".
_CLASS_NAME = re.compile(r"\b([A-Z][A-Za-z0-9]*)\(([^()]*)\)")


def _default_text(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def bot_label(name: str) -> str:
    """A table's bot name (`short_name`, `unique_names`) as a person reads it.

    English keeps the name as printed (``HeuristicBot(defaults)``); in another language each
    registered bot's class name becomes its word (`BOT_WORDS`, the word the play table's
    labels use), with only the parameters that differ from the defaults (and no seed), as the
    play table names its bots: ``heurístico``, ``marginal(threshold=3) #2``, ``aleatório``.

    >>> from nothanks_lab.i18n import language
    >>> with language("pt_BR"):
    ...     bot_label("HeuristicBot(defaults) / MarginalCostBot(threshold=3) #2")
    'heurístico / marginal(threshold=3) #2'
    >>> bot_label("HeuristicBot(defaults)")
    'HeuristicBot(defaults)'
    """
    if get_language() == "en":
        return name
    classes = {getattr(cls, "__name__", ""): (key, cls) for key, cls in _REGISTRY.items()}

    def word(m: re.Match[str]) -> str:
        key, cls = classes.get(m[1], ("", None))
        if key not in BOT_WORDS:
            return m[0]
        defaults = {p.name: _default_text(p.default) for p in getattr(cls, "PARAMS", ())}
        pairs = [kv.partition("=") for kv in m[2].split(", ") if kv and kv != "defaults"]
        # A seed is how the run was drawn, not a setting of the bot: the table names none.
        changed = [k + eq + v for k, eq, v in pairs if k != "seed" and defaults.get(k) != v]
        shown = _(BOT_WORDS[key])
        return f"{shown}({', '.join(changed)})" if changed else shown

    return _CLASS_NAME.sub(word, name)


def parse_bot_spec(text: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value,key=value"`` into a bot name and its parameters.

    >>> parse_bot_spec("marginal:threshold=10")
    ('marginal', {'threshold': 10})
    >>> parse_bot_spec("random:p_take=0.25,seed=3")
    ('random', {'p_take': 0.25, 'seed': 3})
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(
            f"a bot spec must be a non-empty string like 'marginal:threshold=10'; got {text!r}"
        )
    name, colon, rest = text.strip().partition(":")
    if colon and not rest.strip():
        raise ValueError(
            f"bot spec {text!r} ends in ':' with no parameters; write {name.strip()!r} alone "
            "or name:key=value,key=value"
        )
    params: dict[str, Any] = {}
    for item in rest.split(",") if rest.strip() else []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise ValueError(
                f"bad parameter {item!r} in bot spec {text!r}; write name:key=value,key=value"
            )
        if key.strip() in params:
            raise ValueError(
                f"bot spec {text!r} gives parameter {key.strip()!r} twice; give each once"
            )
        params[key.strip()] = parse_value(value.strip())
    return name.strip(), params


def parse_value(text: str) -> Any:
    """A parameter value as written in a spec or on the command line: a bool, int or float.

    >>> parse_value("10"), parse_value("0.5"), parse_value("True")
    (10, 0.5, True)
    """
    lower = text.lower()
    if lower in ("true", "false"):
        return lower == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    raise ValueError(f"parameter value {text!r} is not a number or true/false")


def _user_bot_class(spec: str) -> tuple[Any, str] | None:
    """For ``"path/to/file.py:Class[:k=v]"`` or ``"package.module:Class[:k=v]"``: the class.

    Returns None for a registered name (``"marginal:threshold=10"``: no dot, no slash). The
    class is whatever builds a policy from keyword parameters (a `Bot` subclass, with its
    declared parameters checked, or any callable returning an object with ``act``).
    """
    import importlib
    import importlib.util
    import sys
    from pathlib import Path

    where, _, rest = spec.strip().partition(":")
    if not (where.endswith(".py") or "/" in where or "." in where):
        return None
    class_name, _, params = rest.partition(":")
    if not class_name.strip().isidentifier():
        raise ValueError(
            f"bot spec {short_repr(spec)}: after {short_repr(where)} give the class name, as "
            f"'{where}:ClassName' or '{where}:ClassName:key=value'"
        )
    if where.endswith(".py") or "/" in where:
        path = Path(where).expanduser().resolve()
        try:
            is_file = path.is_file()
        except OSError:  # a name too long for the file system, and the like
            is_file = False
        if not is_file:
            raise ValueError(f"bot spec {short_repr(spec)}: no file {short_repr(str(path))}")
        mod_name = f"nothanks_user_{abs(hash(str(path))):x}_{path.stem}"
        module = sys.modules.get(mod_name)
        if module is None:
            loader_spec = importlib.util.spec_from_file_location(mod_name, path)
            if loader_spec is None or loader_spec.loader is None:
                raise ValueError(
                    f"bot spec {short_repr(spec)}: cannot load {short_repr(str(path))} as Python"
                )
            module = importlib.util.module_from_spec(loader_spec)
            sys.modules[mod_name] = module  # so worker processes can unpickle its bots
            # Its sibling modules import as they do when the file is run as a script, under
            # `python -m nothanks_lab` and the installed `nothanks-lab` command alike.
            if str(path.parent) not in sys.path:
                sys.path.insert(0, str(path.parent))
            try:
                loader_spec.loader.exec_module(module)
            except Exception as e:
                del sys.modules[mod_name]
                raise ValueError(
                    f"bot spec {short_repr(spec)}: {path.name} failed to load: "
                    f"{type(e).__name__}: {e}"
                ) from None
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as e:
            raise ValueError(
                f"bot spec {short_repr(spec)}: cannot import module {short_repr(where)} ({e})"
            ) from None
    cls = getattr(module, class_name.strip(), None)
    if cls is None or not callable(cls):
        raise ValueError(
            f"bot spec {short_repr(spec)}: {short_repr(where)} has no class {class_name.strip()!r}"
        )
    return cls, params


def make_policy(spec: Any) -> Any:
    """A policy from a spec: a policy object (used as is), ``"name:k=v"``, or ``(name, params)``.

    A user's own bot class is given by where it lives: ``"path/to/mybot.py:MyBot:k=v"`` or
    ``"package.module:MyBot:k=v"`` (built as ``MyBot(k=v)``).

    >>> make_policy(("marginal", {"threshold": 3}))
    MarginalCostBot(threshold=3)
    """
    if isinstance(spec, str):
        user = _user_bot_class(spec)
        if user is not None:
            cls, rest = user
            _, params = parse_bot_spec("user:" + rest) if rest else ("user", {})
            try:
                made = cls(**params)
            except (TypeError, ValueError) as e:
                raise ValueError(f"bot spec {short_repr(spec)}: {e}") from None
            return _named(made, params)
        name, params = parse_bot_spec(spec)
        return make_bot(name, **params)
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        name, params = spec
        if not isinstance(params, Mapping):
            raise ValueError(f"bot spec {short_repr(spec)}: parameters must be a dict")
        return make_bot(name, **dict(params))
    if callable(getattr(spec, "act", None)):
        return spec
    raise ValueError(
        f"not a bot: {short_repr(spec)}; give a policy (an object with act(view)), a "
        f"registered name like 'marginal:threshold=10', or a (name, params) pair"
    )


def user_bot_name(cls_name: str, params: Mapping[str, Any]) -> str:
    """The name a user's ``file.py:Class:k=v`` bot shows when it has no ``name`` of its own."""
    shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
    return f"{cls_name}({shown})" if params else cls_name


def _named(bot: Any, params: Mapping[str, Any]) -> Any:
    """`bot`, named ``Class(k=v)`` after its parameters unless it has a name of its own (the
    same name it shows when it plays from a process of its own)."""
    if params and not isinstance(getattr(bot, "name", None), str):
        try:
            bot.name = user_bot_name(type(bot).__name__, params)
        except (AttributeError, TypeError):
            pass  # a class with slots or a read-only name keeps its class name
    return bot


def short_name(policy: Any, limit: int = 40) -> str:
    """`policy_name`, or for a long one only the parameters that differ from the defaults.

    >>> from nothanks_lab.bots import MarginalCostBot
    >>> short_name(MarginalCostBot(3)), short_name(MarginalCostBot(3), limit=10)
    ('MarginalCostBot(threshold=3)', 'MarginalCostBot(threshold=3)')
    >>> short_name(MarginalCostBot(10), limit=10)
    'MarginalCostBot(defaults)'
    """
    name = policy_name(policy)
    params = getattr(policy, "params", None)
    declared = getattr(type(policy), "PARAMS", ())
    if len(name) <= limit or not isinstance(params, Mapping) or not declared:
        return name
    changed = [
        f"{p.name}={params[p.name]:g}"
        if isinstance(params[p.name], float)
        else f"{p.name}={params[p.name]}"
        for p in declared
        if p.name in params and params[p.name] != p.default
    ]
    return f"{type(policy).__name__}({', '.join(changed) or 'defaults'})"


def unique_names(policies: Sequence[Any]) -> tuple[str, ...]:
    """Names for a table (long ones shortened); repeats get ``#1``, ``#2``... to tell apart."""
    names = [short_name(p) for p in policies]
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if names.count(n) == 1 else f"{n} #{seen[n]}")
    return tuple(out)


def bots_listing() -> str:
    """Every registered bot with its parameters (default, range, help): the CLI's ``bots``."""
    from . import available_bots, params_of

    lines = []
    for name in available_bots():
        try:
            params = params_of(name)
        except ValueError:
            params = {}
        lines.append(name)
        lines += [
            f"    {p.name}={p.default}  [{p.low}..{p.high}]  {p.help}" for p in params.values()
        ]
    lines.append("\n" + _("give a bot as NAME or NAME:param=value,param=value"))
    return "\n".join(lines)

"""Saving a notebook's bot to a league file that runs on its own.

:func:`save_bot` writes a function ``act(view)`` or a class with ``act``, defined in a notebook
cell, to ``folder/name.py``. What it uses from the notebook comes along: modules and library
names become imports, numbers and strings become constants, other functions and classes of the
notebook are copied in; anything else is a `ValueError` naming it.
"""

from __future__ import annotations

import ast
import errno
import inspect
import re
import sys
import textwrap
import types
from os import PathLike, fspath
from pathlib import Path
from typing import Any

from ..i18n import _
from ..validate import write_atomic
from .student import StudentBot

__all__ = ["save_bot"]

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
#: Longest bot name (a file name of at most 255 bytes, with room for a temporary suffix).
MAX_NAME = 100


# --------------------------------------------------------------------------- saving
def _literal(value: Any) -> bool:
    """Whether ``repr(value)`` writes `value` back exactly (numbers, strings, and nests of them)."""
    try:
        return bool(ast.literal_eval(repr(value)) == value)
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return False


def _importable(value: Any) -> tuple[str, str] | None:
    """(module, qualified name) a value can be imported from, if it lives in a real module."""
    module, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or module == "__main__":
        return None
    mod = sys.modules.get(module)
    if mod is None or getattr(mod, "__file__", None) is None or "." in qualname:
        return None
    if module.startswith("nothanks_league_") or getattr(mod, qualname, None) is not value:
        return None
    return module, qualname


def _functions_of(obj: Any) -> list[types.FunctionType]:
    """The plain functions whose global names `obj` (a function or class) uses."""
    if isinstance(obj, types.FunctionType):
        return [obj]
    found = []
    for member in vars(obj).values():
        if isinstance(member, staticmethod | classmethod):
            member = member.__func__
        if isinstance(member, property):
            found += [f for f in (member.fget, member.fset) if isinstance(f, types.FunctionType)]
        if isinstance(member, types.FunctionType):
            found.append(member)
    return found


def _bot_source(bot: Any, name: str) -> str:
    """A module defining `bot` (a function or class of a notebook) with what it uses."""
    imports: dict[str, str] = {}
    constants: dict[str, str] = {}
    sources: list[str] = []
    seen: set[int] = set()

    def use(global_name: str, value: Any, owner: str) -> None:
        if isinstance(value, types.ModuleType):
            mod = value.__name__
            line = f"import {mod}" + (f" as {global_name}" if mod != global_name else "")
            imports[global_name] = line
        elif (where := _importable(value)) is not None:
            module, qualname = where
            alias = f" as {global_name}" if qualname != global_name else ""
            imports[global_name] = f"from {module} import {qualname}{alias}"
        elif isinstance(value, types.FunctionType | type) and value.__module__ == "__main__":
            if value.__name__ != global_name:
                raise ValueError(f"{owner} uses {global_name}, another name for {value.__name__}")
            add(value)
        elif _literal(value):
            constants[global_name] = f"{global_name} = {value!r}"
        else:
            raise ValueError(
                f"{owner} uses {global_name} (a {type(value).__name__}) from the notebook, "
                "which cannot be written to a file; define it inside the bot"
            )

    def add(obj: Any) -> None:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        owner = obj.__name__
        if owner == "<lambda>":
            raise ValueError("a bot to save must be defined with def or class, not lambda")
        try:
            source = textwrap.dedent(inspect.getsource(obj))
        except (OSError, TypeError) as e:
            raise ValueError(f"the source of {owner} cannot be found ({e})") from None
        if isinstance(obj, type):
            for base in obj.__bases__:
                if base is not object:
                    use(base.__name__, base, owner)
        for fn in _functions_of(obj):
            found = inspect.getclosurevars(fn)
            for global_name, value in {**found.nonlocals, **found.globals}.items():
                use(global_name, value, owner)
        sources.append(source)

    add(bot)
    main = bot.__name__
    alias = ""
    if isinstance(bot, type) and main != "Bot":
        alias = f"\n\nBot = {main}\n"
    elif not isinstance(bot, type) and main != "act":
        alias = f"\n\nact = {main}\n"
    about = _("{name}: a bot for the class league (saved from a notebook).").format(name=name)
    parts = [f'"""{about}"""']
    if imports:
        parts.append("\n".join(sorted(imports.values())))
    if constants:
        parts.append("\n".join(constants.values()))
    return "\n\n".join(parts) + "\n\n\n" + "\n\n".join(s.rstrip() + "\n" for s in sources) + alias


def save_bot(bot: Any, folder: str | PathLike[str], name: str) -> Path:
    """Write a bot defined in a notebook cell to ``folder/name.py``, as a league file.

    `bot` is a function ``act(view)`` or a class with ``act`` (or `as_bot`'s wrapper of one).
    What it uses from the notebook comes along: modules and library names become imports,
    numbers and strings become constants, other functions and classes of the notebook are
    copied in. Anything else is a `ValueError` naming it.
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name) or len(name) > MAX_NAME:
        raise ValueError(
            f"name must be letters, digits, '_' or '-', starting with a letter or digit, at most "
            f"{MAX_NAME} characters (it becomes the file name); got {name!r}"
        )
    if isinstance(bot, StudentBot):
        bot = bot.policy
    if not isinstance(bot, types.FunctionType | type):
        if not callable(getattr(bot, "act", None)):
            raise ValueError(
                f"bot must be a function act(view), a class or an object with act; got {bot!r}"
            )
        bot = type(bot)  # an object: save its class
    where = Path(folder).expanduser()
    if not fspath(folder) or not where.is_dir():  # "" is not "." (give "." to mean here)
        raise ValueError(
            f"folder must be an existing folder ('.' for the current one); got {str(folder)!r}"
        )
    path = where / f"{name}.py"
    source = _bot_source(bot, name)
    try:
        write_atomic(path, source)  # a full disk leaves no half-written bot
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            raise  # a full disk is not a wrong argument: the OSError says what happened
        raise ValueError(
            f"folder must be a folder this account can write files in; writing {str(path)!r} "
            f"failed: {e.strerror or e}"
        ) from None
    return path

"""Importing a Python file by its path, as a user's own module (tests/ is not a package).

Used by `test_cache.py` and `test_fast.py` for bot files they write and edit, and by
`test_fast.py` and `test_seating.py` for scripts of benchmarks/ (not a package either).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def import_file(path: Path, name: str) -> ModuleType:
    """Import the file `path` as the module `name`, registered in ``sys.modules``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

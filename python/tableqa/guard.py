"""Detect programs that tamper with the interpreter so the executor can replace it.

A program runs in a fresh namespace, but it can still reach shared state: rebind a runtime-library
function, replace a builtin, swap a module in ``sys.modules``, edit ``sys.path`` or empty the host's
table store. Any of those would change what the *next* program sees. :func:`fingerprint` captures
the identities of that shared state; when it differs after a run, the interpreter is retired and a
fresh one takes the next run. Deep in-place edits inside objects are not covered (documented in
docs/SECURITY.md); retiring is cheap because a warm spare is always booted.
"""

from __future__ import annotations

import builtins
import importlib
import sys
from typing import Any

_WATCHED_STDLIB = (
    "json",
    "math",
    "re",
    "statistics",
    "datetime",
    "collections",
    "functools",
    "itertools",
    "sqlite3",
    "io",
    "os",
    "sys",
)


# Imported up front so that a program's first `import statistics` is not mistaken for tampering.
for _name in _WATCHED_STDLIB:
    importlib.import_module(_name)


# Bookkeeping the runtime itself rebinds on every run (call counters, cached flags); the host resets
# these before each program, so their identity says nothing about tampering.
_VOLATILE: dict[str, frozenset[str]] = {
    "tableqa.host": frozenset({"_last_run_tampered", "_pandas"}),
    "tableqa.qa": frozenset({"_calls", "_limit"}),
    "tableqa.trace": frozenset({"_cells", "_seen"}),
}


def _module_ids(module: Any) -> tuple[tuple[str, int], ...]:
    skip = _VOLATILE.get(getattr(module, "__name__", ""), frozenset())
    return tuple(sorted((name, id(value)) for name, value in vars(module).items() if name not in skip))


def fingerprint(tables: dict[str, Any]) -> tuple[Any, ...]:
    """The identities of the state programs share, plus the host's table ids.

    Examples
    --------
    >>> a = fingerprint({})
    >>> a == fingerprint({})
    True
    """
    modules = sys.modules
    library = tuple(
        sorted(
            (name, _module_ids(module))
            for name, module in list(modules.items())
            if name == "tableqa" or name.startswith("tableqa.")
        )
    )
    stdlib = tuple(
        (name, id(modules.get(name)), _module_ids(modules[name]) if name in modules else ())
        for name in _WATCHED_STDLIB
    )
    return (
        library,
        stdlib,
        _module_ids(builtins),
        tuple(sys.path),
        tuple(sorted(tables)),
        tuple(id(entry) for _key, entry in sorted(tables.items())),
    )

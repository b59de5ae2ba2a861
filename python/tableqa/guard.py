"""Detect programs that tamper with the interpreter so the executor can replace it.

A program runs in a fresh namespace, but it can still reach shared state: rebind a runtime-library
function, swap a function's code, replace a builtin, swap a module in ``sys.modules``, edit
``sys.path`` or empty the host's table store. Any of those would change what the *next* program sees.
:func:`snapshot` digests that state, code included: the identity of every module-level value of the
runtime library and the watched standard modules, and for each function its code object, the CRC of
its bytecode (an in-place edit through ``ctypes`` changes that), its defaults and its closure cells.
The host takes one when the interpreter has booted and compares against it before and after every
program; any difference retires the interpreter. Deeper in-place edits (a list inside a module) are
not covered (docs/SECURITY.md); retiring is cheap because a warm spare is always booted, and the
executor never lets an interpreter that ran a program serve another question anyway.
"""

from __future__ import annotations

import builtins
import importlib
import sys
import types
import zlib
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
    "contextlib",
    "traceback",
    "linecache",
    "ast",
)


# Imported up front so that a program's first `import statistics` is not mistaken for tampering.
for _name in _WATCHED_STDLIB:
    importlib.import_module(_name)


# Bookkeeping the runtime itself rebinds on every run (call counters, cached flags); the host resets
# these before each program, so their identity says nothing about tampering.
_VOLATILE: dict[str, frozenset[str]] = {
    "tableqa.host": frozenset({"_pandas"}),
    "tableqa.qa": frozenset({"_calls", "_limit"}),
    "tableqa.trace": frozenset({"_cells", "_seen"}),
}


def _function_parts(fn: types.FunctionType) -> tuple[Any, ...]:
    code = fn.__code__
    cells = tuple(id(cell.cell_contents) if _filled(cell) else 0 for cell in fn.__closure__ or ())
    return (id(code), zlib.crc32(code.co_code), id(fn.__defaults__), id(fn.__kwdefaults__), cells)


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


# Modules whose functions' code and classes are digested too: the runtime library and the standard
# modules the host itself runs on the way to a result (serialising it, capturing output, compiling).
_CODE_WATCHED = frozenset({"tableqa", "json", "contextlib", "traceback", "linecache", "ast", "io"})


# Classes whose methods are digested: the runtime library's own and the JSON encoder the host uses.
_CLASSES_WATCHED = frozenset({"tableqa", "json"})


def _watched_module(name: object) -> bool:
    return isinstance(name, str) and name.split(".", 1)[0] in _CODE_WATCHED


def _class_parts(cls: type) -> tuple[Any, ...]:
    members = vars(cls)
    code = tuple(_function_parts(m) for m in members.values() if type(m) is types.FunctionType)
    return (tuple(members), tuple(map(id, members.values())), code)


def _module_parts(module: Any) -> tuple[Any, ...]:
    # Insertion order is kept: adding and removing a name shows as a change, which is what it is.
    members = vars(module)
    name = getattr(module, "__name__", "")
    skip = _VOLATILE.get(name)
    if skip is not None:
        members = {key: value for key, value in members.items() if key not in skip}
    values = members.values()
    if not _watched_module(name):
        return (tuple(members), tuple(map(id, values)))
    code = tuple(_function_parts(v) for v in values if type(v) is types.FunctionType)
    classes = tuple(
        _class_parts(v)
        for v in values
        if isinstance(v, type) and getattr(v, "__module__", "").split(".")[0] in _CLASSES_WATCHED
    )
    return (tuple(members), tuple(map(id, values)), code, classes)


def snapshot() -> str:
    """A digest of the interpreter state every program shares (not the tables).

    Examples
    --------
    >>> snapshot() == snapshot()
    True
    """
    modules = sys.modules
    library = tuple(
        sorted(
            (name, id(module), _module_parts(module))
            for name, module in list(modules.items())
            if name == "tableqa" or name.startswith("tableqa.")
        )
    )
    stdlib = tuple(
        (name, id(modules.get(name)), _module_parts(modules[name]) if name in modules else ())
        for name in _WATCHED_STDLIB
    )
    state = (
        library,
        stdlib,
        _module_parts(builtins),
        tuple(sys.path),
        id(sys.meta_path),
        tuple(map(id, sys.meta_path)),
    )
    return format(hash(state) & 0xFFFFFFFFFFFFFFFF, "016x")

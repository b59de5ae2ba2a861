"""A program's source made ready to run: parsed, with the runtime's readings of what models write.

Three readings, each of which only applies where the program as written cannot run:

- A header label that holds a quote character, written between the same quotes
  (``df.loc["Available seat miles ("ASMs") (millions)"]`` copies a label of a financial report as it
  stands, and is a ``SyntaxError``). When the program does not parse, every such literal of a label of a
  table in the namespace is written again with Python's own quoting; if the program then parses, it runs
  that way and a line on stderr says which labels were re-quoted. Otherwise the original error stands.
- A table read from a file that is not there (``df = pd.read_csv("table.csv")``, the first line of
  many scripts a model has seen): the tables are already DataFrames in the namespace, so the
  assignment takes the loaded table instead, the one of that name or the only one, and a line on
  stderr says so. A file that exists (the CPython executor runs beside the user's files) is read.
- ``.loc`` reads that name header paths (:mod:`tableqa.pathloc`).
"""

from __future__ import annotations

import ast
import os
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from .pathloc import header_path_reads, is_frame

__all__ = ["loaded_tables", "parse_program", "requote_labels", "table_labels"]

_QUOTES = ('"', "'")

# Most labels looked at per table: header labels of real tables are far fewer.
_MAX_LABELS = 20_000


def parse_program(code: str, namespace: Mapping[str, Any], filename: str) -> ast.Module:
    """Parse ``code`` as the runtime runs it (see the module's description).

    Raises the original ``SyntaxError`` when re-quoting labels does not make the program parse.
    """
    try:
        tree = ast.parse(code, filename, "exec")
    except SyntaxError:
        fixed, labels = requote_labels(code, table_labels(namespace))
        if not labels:
            raise
        try:
            tree = ast.parse(fixed, filename, "exec")
        except SyntaxError:
            pass
        else:
            shown = ", ".join(repr(label) for label in labels[:5])
            print(f"[tableqa] labels with quotes in them were read as written: {shown}", file=sys.stderr)
            return header_path_reads(loaded_tables(tree, namespace))
        raise
    return header_path_reads(loaded_tables(tree, namespace))


# pandas' readers of a table from a file, and the names of their path argument.
_READERS = frozenset(
    {"read_csv", "read_table", "read_excel", "read_json", "read_parquet", "read_feather", "read_pickle"}
)
_PATH_ARGS = frozenset({"filepath_or_buffer", "io", "path", "path_or_buf"})


def _read_path(call: ast.Call) -> str | None:
    """The file a ``pd.read_…("name")`` call reads, when it is written as a string; else None."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in _READERS and isinstance(func.value, ast.Name)):
        return None
    if func.value.id not in ("pd", "pandas"):
        return None
    arg = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg in _PATH_ARGS), None)
    return arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None


def loaded_tables(tree: ast.Module, namespace: Mapping[str, Any]) -> ast.Module:
    """The program with each ``name = pd.read_…("file")`` of a file that is not there reading a loaded table.

    The table is the DataFrame bound to ``name`` in the namespace, else the namespace's only DataFrame;
    with neither, the read is left as written (and fails with a note on what may be read).

    Examples
    --------
    >>> import pandas as pd
    >>> ns = {"df": pd.DataFrame({"a": [1]})}
    >>> src = "import pandas as pd\\ndata = pd.read_csv('table.csv', index_col=0)\\nanswer = len(data)"
    >>> print(ast.unparse(loaded_tables(ast.parse(src), ns)))
    import pandas as pd
    data = df
    answer = len(data)
    """
    frames = [name for name, value in namespace.items() if not name.startswith("_") and is_frame(value)]
    skipped: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            continue
        path = _read_path(node.value) if isinstance(node.value, ast.Call) else None
        if path is None or os.path.exists(path):
            continue
        target = node.targets[0].id
        table = target if target in frames else frames[0] if len(frames) == 1 else None
        if table is None:
            continue
        node.value = ast.copy_location(ast.Name(id=table, ctx=ast.Load()), node.value)
        skipped.append((path, table))
    if skipped:
        shown = ", ".join(f"{path!r} as {table}" for path, table in skipped[:5])
        print(f"[tableqa] no files are here; the loaded table was read instead: {shown}", file=sys.stderr)
    return tree


def requote_labels(code: str, labels: Iterable[str]) -> tuple[str, list[str]]:
    """Write every literal ``QlabelQ`` whose label holds the quote ``Q`` with Python's quoting.

    Returns the new source and the labels that were re-quoted (longest first, so a label inside a
    longer one does not cut it). Labels without a quote character are never touched.

    Examples
    --------
    >>> requote_labels('x = d["seat miles ("ASMs")"]', ['seat miles ("ASMs")'])
    ('x = d[\\'seat miles ("ASMs")\\']', ['seat miles ("ASMs")'])
    """
    done: list[str] = []
    for label in sorted({lb for lb in labels if any(q in lb for q in _QUOTES)}, key=len, reverse=True):
        for quote in _QUOTES:
            written = f"{quote}{label}{quote}"
            if quote in label and written in code:
                code = code.replace(written, repr(label))
                if label not in done:
                    done.append(label)
    return code, done


def table_labels(namespace: Mapping[str, Any]) -> list[str]:
    """The text header labels (every level of both axes) of the DataFrames in ``namespace``."""
    labels: list[str] = []
    for value in [v for v in namespace.values() if is_frame(v)]:
        for axis in (value.columns, value.index):
            levels: list[Any] = list(getattr(axis, "levels", None) or [axis])
            for level in levels:
                if len(level) <= _MAX_LABELS:
                    labels.extend(v for v in level if isinstance(v, str))
    return labels

"""A program's source made ready to run: parsed, with the runtime's readings of what models write.

Two readings, each of which only applies where the program as written cannot run:

- A header label that holds a quote character, written between the same quotes
  (``df.loc["Available seat miles ("ASMs") (millions)"]`` copies a label of a financial report as it
  stands, and is a ``SyntaxError``). When the program does not parse, every such literal of a label of a
  table in the namespace is written again with Python's own quoting; if the program then parses, it runs
  that way and a line on stderr says which labels were re-quoted. Otherwise the original error stands.
- ``.loc`` reads that name header paths (:mod:`tableqa.pathloc`).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from .pathloc import header_path_reads, is_frame

__all__ = ["parse_program", "requote_labels", "table_labels"]

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
            return header_path_reads(tree)
        raise
    return header_path_reads(tree)


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

"""The table payload (a ParsedTable as JSON) read without pandas: typed columns, flat names, rows.

``rows_view`` is what a program gets as ``rows`` when pandas is not installed. The same flat names are
used by :func:`tableqa.sql.sqldf` for hierarchical columns, so both views agree.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

from .columns import Column, _plain_number, column_texts, plain_numbers, read_columns, typed_columns

__all__ = [
    "LEVEL_SEP",
    "column_texts",
    "flat_name",
    "flat_names",
    "header_tuples",
    "index_names",
    "plain_numbers",
    "rows_view",
    "typed_columns",
]

LEVEL_SEP = " | "
"""Joins the levels of a hierarchical header into one flat name, e.g. ``"2016 | men"``."""


def flat_name(label: object) -> str:
    """Flatten one header label (a tuple for hierarchical headers) into a single name.

    Blank levels are dropped and the remaining levels are joined with ``" | "``.

    Parameters
    ----------
    label : object
        A plain label or a tuple of levels.

    Returns
    -------
    str
        The flat name (empty when every level is blank).

    Examples
    --------
    >>> flat_name(("2016", "", "men"))
    '2016 | men'
    >>> flat_name("Total")
    'Total'
    """
    if isinstance(label, tuple):
        return LEVEL_SEP.join(str(x).strip() for x in label if str(x).strip())
    return str(label).strip()


def flat_names(labels: Sequence[object], fallback: str = "column") -> list[str]:
    """Flat, unique names for a sequence of header labels.

    Empty names become ``"<fallback>_<position>"``; a repeated name gets ``" (2)"``, ``" (3)"``, ...

    Parameters
    ----------
    labels : sequence
        Plain labels or tuples of levels.
    fallback : str, default "column"
        Stem for labels with no text.

    Returns
    -------
    list of str
        One unique name per label, in order.

    Examples
    --------
    >>> flat_names([("2016", "men"), ("2016", "women"), ("", ""), "Total", "Total"])
    ['2016 | men', '2016 | women', 'column_2', 'Total', 'Total (2)']
    """
    out: list[str] = []
    seen: dict[str, int] = {}
    for pos, label in enumerate(labels):
        name = flat_name(label) or f"{fallback}_{pos}"
        base = name
        while name.lower() in seen:
            seen[base.lower()] += 1
            name = f"{base} ({seen[base.lower()]})"
        seen.setdefault(base.lower(), 1)
        seen.setdefault(name.lower(), 1)
        out.append(name)
    return out


def index_names(levels: int) -> list[str]:
    """Column names given to row-header levels when they become ordinary columns.

    These follow pandas' ``reset_index`` for unnamed levels: ``"index"`` for one level,
    ``"level_0"``, ``"level_1"``, ... for several.

    Parameters
    ----------
    levels : int
        Number of row-header levels.

    Returns
    -------
    list of str

    Examples
    --------
    >>> index_names(1), index_names(2)
    (['index'], ['level_0', 'level_1'])
    """
    if levels <= 0:
        return []
    if levels == 1:
        return ["index"]
    return [f"level_{k}" for k in range(levels)]


def header_tuples(raw: object) -> list[tuple[str, ...]]:
    """Header tuples of a payload field, padded with blank levels to one length.

    Parameters
    ----------
    raw : object
        The payload's ``columns`` or ``index`` (a list of lists of strings).

    Returns
    -------
    list of tuple of str

    Examples
    --------
    >>> header_tuples([["a", "b"], ["c"]])
    [('a', 'b'), ('c', '')]
    """
    if not isinstance(raw, Sequence):
        raise TypeError("header tuples must be a list of lists of strings")
    if not any(raw):  # no left header: one empty tuple per row, and a table may have millions of rows
        return [()] * len(raw)
    tuples = [tuple("" if x is None else str(x) for x in t) for t in raw]
    depth = max((len(t) for t in tuples), default=0)
    return [t + ("",) * (depth - len(t)) for t in tuples]


def rows_view(payload: Mapping[str, Any]) -> list[dict[str, object]]:
    """The table as a list of dicts, for programs that run without pandas.

    Row-header levels come first (named as :func:`index_names` says), then one key per data column
    named by :func:`flat_names`. Numeric columns hold floats (ints when whole) or None when missing;
    other columns hold each cell's value (:func:`tableqa.columns.read_columns`): its text, or the date,
    truth value or number a typed source stores, and None where it is missing.

    Parameters
    ----------
    payload : mapping
        A ParsedTable as JSON.

    Returns
    -------
    list of dict

    Examples
    --------
    >>> table = {"columns": [["Year"], ["Passengers"]], "index": [],
    ...          "values": [["2019", "1,200"], ["2020", "\u2014"]]}
    >>> rows_view(table)
    [{'Year': 2019, 'Passengers': 1200}, {'Year': 2020, 'Passengers': None}]
    """
    columns = header_tuples(payload.get("columns") or [])
    index = header_tuples(payload.get("index") or [])
    typed = read_columns(payload)
    n_rows = len(payload.get("values") or [])
    labels: list[object] = [t if len(t) != 1 else t[0] for t in columns]
    labels += [""] * (len(typed) - len(labels))
    depth = len(index[0]) if index else 0
    idx_names = index_names(depth)
    col_names = flat_names(idx_names + labels)[depth:]
    data = [_plain_values(column) for column in typed]
    if depth == 0 or len(index) == n_rows:
        # Built column-wise and zipped into rows: per-cell work in Python is what makes big tables slow.
        keys = idx_names + col_names
        cols = [list(map(itemgetter(k), index)) for k in range(depth)] + data
        if cols:
            return [dict(zip(keys, cells, strict=True)) for cells in zip(*cols, strict=True)]
        return [{} for _ in range(n_rows)]
    rows: list[dict[str, object]] = []
    for i in range(n_rows):
        row: dict[str, object] = {}
        if i < len(index):
            row.update(zip(idx_names, index[i], strict=True))
        row.update(zip(col_names, (col[i] for col in data), strict=True))
        rows.append(row)
    return rows


def _plain_values(column: Column) -> list[Any]:
    """A column as plain Python values for the rows view: None wherever a value is missing."""
    if column.kind == "number":
        if column.from_text:
            return plain_numbers(column.texts, column.values)
        return [_plain_number(v) for v in column.values]
    return [None if isinstance(v, float) and math.isnan(v) else v for v in column.values]

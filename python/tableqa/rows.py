"""The table payload (a ParsedTable as JSON) read without pandas: typed columns, flat names, rows.

``rows_view`` is what a program gets as ``rows`` when pandas is not installed. The same flat names are
used by :func:`tableqa.sql.sqldf` for hierarchical columns, so both views agree.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

from .text import is_blank_cell, parse_number

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


def _cell_number(numbers: object, i: int, j: int) -> tuple[bool, float | None]:
    """The host's numeric view of cell (i, j), if the payload has one."""
    if not isinstance(numbers, Sequence):
        return False, None
    try:
        v = numbers[i][j]
    except (IndexError, TypeError, KeyError):
        return False, None
    if v is None:
        return True, None
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return True, float(v)
    return False, None


# Cells written as plain decimals read the same with float() as with parse_number(). A column is checked
# in one regex search over its joined text, for a line that is not such a number: per-cell calls are
# what makes a table of millions of cells slow.
_PLAIN = r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
_PLAIN_NUMBER = re.compile(_PLAIN)
_NOT_PLAIN_NUMBER = re.compile(rf"^(?!{_PLAIN}$)", re.MULTILINE)
# Whole numbers that int() reads exactly as _plain_number() would give them.
_NOT_PLAIN_INT = re.compile(r"^(?!-?[0-9]{1,15}$)", re.MULTILINE)


def _all_lines_match(texts: list[str], not_matching: re.Pattern[str]) -> bool:
    joined = "\n".join(texts)
    return joined.count("\n") == len(texts) - 1 and not_matching.search(joined) is None


def column_texts(values: Sequence[Sequence[object]], width: int) -> list[list[str]]:
    """The cell text of each column; cells missing from short rows read as empty, None as empty.

    Examples
    --------
    >>> column_texts([["a", "1"], ["b"], [None, 2]], 2)
    [['a', 'b', ''], ['1', '', '2']]
    """
    full = min(map(len, values), default=width) == width
    out: list[list[str]] = []
    for j in range(width):
        col: list[Any] = (
            list(map(itemgetter(j), values)) if full else [r[j] if j < len(r) else "" for r in values]
        )
        try:
            "".join(col)  # fails on anything but text, at C speed
        except TypeError:
            col = ["" if x is None else str(x) for x in col]
        out.append(col)
    return out


def _read_column(texts: list[str]) -> tuple[bool, list[float | None]]:
    """Numeric or not, and the numbers of a numeric column (empty for a text column)."""
    if _all_lines_match(texts, _NOT_PLAIN_NUMBER):
        return True, list(map(float, texts))
    nums: list[float] = []
    plain = _PLAIN_NUMBER.fullmatch
    for text in texts:
        v = float(text) if plain(text) else parse_number(text)
        if v is None:  # one text cell makes the column text; the rest need not be read
            return False, []
        nums.append(v)
    return any(not math.isnan(v) for v in nums), list[float | None](nums)


def _read_known_column(texts: list[str], numbers: object, j: int) -> tuple[bool, list[float | None]]:
    nums: list[float | None] = []
    for i, text in enumerate(texts):
        known, v = _cell_number(numbers, i, j)
        if not known:
            v = parse_number(text)
        elif v is None and is_blank_cell(text):
            v = math.nan
        nums.append(v)
    numeric = all(v is not None for v in nums) and any(v is not None and not math.isnan(v) for v in nums)
    return numeric, (nums if numeric else [])


def typed_columns(payload: Mapping[str, Any]) -> list[tuple[bool, list[str], list[float | None]]]:
    """Decide, column by column, whether the data is numeric.

    A column is numeric when each of its cells is either a number (``1,234``, ``(12)``, ``12%``,
    ``$3.5``) or a missing-value mark (empty, ``—``, ``n/a``), and at least one is a number.
    The payload's optional ``numbers`` matrix (the host's numeric view) is used where present.

    Parameters
    ----------
    payload : mapping
        A ParsedTable as JSON: ``values`` (rows of cell text), optionally ``numbers``.

    Returns
    -------
    list of (bool, list of str, list of float)
        Per column: numeric or not, the raw texts, and for a numeric column its numbers (NaN for
        missing marks; an empty list for a text column, whose reading stops at its first text cell).

    Examples
    --------
    >>> [c[0] for c in typed_columns({"values": [["a", "1,200", "3"], ["b", "\u2014", "x1"]]})]
    [False, True, False]
    """
    values = payload.get("values") or []
    numbers = payload.get("numbers")
    width = max((len(r) for r in values), default=0)
    width = max(width, len(payload.get("columns") or []))
    out: list[tuple[bool, list[str], list[float | None]]] = []
    for j, texts in enumerate(column_texts(values, width)):
        if isinstance(numbers, Sequence):
            numeric, nums = _read_known_column(texts, numbers, j)
        else:
            numeric, nums = _read_column(texts)
        out.append((numeric, texts, nums))
    return out


def plain_numbers(texts: list[str], nums: list[float | None]) -> list[float | int | None]:
    """A numeric column as plain Python values: ints when whole, None when missing.

    Examples
    --------
    >>> plain_numbers(["1", "2.5", "\u2014"], [1.0, 2.5, float("nan")])
    [1, 2.5, None]
    """
    if _all_lines_match(texts, _NOT_PLAIN_INT):
        return list(map(int, texts))
    return [_plain_number(v) for v in nums]


def rows_view(payload: Mapping[str, Any]) -> list[dict[str, object]]:
    """The table as a list of dicts, for programs that run without pandas.

    Row-header levels come first (named as :func:`index_names` says), then one key per data column
    named by :func:`flat_names`. Numeric columns hold floats (ints when whole) or None when missing;
    other columns hold the cell text.

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
    typed = typed_columns(payload)
    n_rows = len(payload.get("values") or [])
    labels: list[object] = [t if len(t) != 1 else t[0] for t in columns]
    labels += [""] * (len(typed) - len(labels))
    depth = len(index[0]) if index else 0
    idx_names = index_names(depth)
    col_names = flat_names(idx_names + labels)[depth:]
    data = [plain_numbers(texts, nums) if numeric else texts for numeric, texts, nums in typed]
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


def _plain_number(v: float | None) -> float | int | None:
    if v is None or math.isnan(v):
        return None
    if v.is_integer() and abs(v) < 2**53:
        return int(v)
    return v

"""The data columns of a table payload, read without pandas: cell text and stored values.

A payload's ``values`` hold each data cell's text, as the grid shows it. Sources that type their cells
(spreadsheets, databases) add ``stored``: per data column a ``kinds`` string with one letter per row and the
``numbers`` the letters need, so a program computes on the value the source stores (15.141 shown as "15",
0.12 shown as "12%", a date shown as "1/2/2020") rather than on its text. The letters:

====  ======================================================================================
``.``  untyped: the text is all there is (read as today: report numbers, missing-value marks)
``s``  text the source types as text (a database TEXT value): a string, even when it reads as a number
``n``  a number: the text read as a decimal once its thousands commas are removed
``N``  a number: the next entry of ``numbers``
``t``  true; ``f`` false
``d``  a date and time: the next entry of ``numbers``, milliseconds since 1970-01-01 00:00
``h``  a time of day: the next entry, milliseconds since midnight
``e``  elapsed time: the next entry, in milliseconds
``0``  no value (a database NULL, a formula error)
====  ======================================================================================

An empty untyped cell is a missing value too. A column is numeric when each cell is a number, a missing value
or (untyped) text that reads as a number or a missing-value mark; a column of dates (or of elapsed times) and
missing values holds dates (times); one of truth values only, booleans; any other column holds each cell's
own value: numbers (ints when whole), dates, booleans, text, None for a stored missing value and NaN for an
empty cell, as ``pandas.read_sql`` and ``read_csv`` give them.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any, NamedTuple

from .text import is_blank_cell, parse_number

__all__ = ["Column", "column_texts", "plain_numbers", "read_columns", "typed_columns"]

_EPOCH = dt.datetime(1970, 1, 1)
_MIDNIGHT = dt.datetime(2000, 1, 1)
_WITH_NUMBER = frozenset("Ndhe")


class Column(NamedTuple):
    """One data column: how it reads, its texts, and its values.

    ``kind`` is ``"number"`` (``values`` are floats, NaN for missing), ``"datetime"`` or ``"duration"``
    (datetimes or timedeltas, None for missing), ``"bool"`` or ``"object"`` (each cell's own value).
    ``from_text`` tells that a number column's values are the readings of its texts.
    """

    kind: str
    texts: list[str]
    values: list[Any]
    from_text: bool = True


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


def _width(payload: Mapping[str, Any]) -> int:
    values = payload.get("values") or []
    return max(max((len(r) for r in values), default=0), len(payload.get("columns") or []))


def typed_columns(payload: Mapping[str, Any]) -> list[tuple[bool, list[str], list[float | None]]]:
    """Decide, column by column, whether the text of the data is numeric.

    A column is numeric when each of its cells is either a number (``1,234``, ``(12)``, ``12%``,
    ``$3.5``) or a missing-value mark (empty, ``—``, ``n/a``), and at least one is a number.
    Stored values are not read here (see :func:`read_columns`).

    Parameters
    ----------
    payload : mapping
        A ParsedTable as JSON: ``values`` (rows of cell text).

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
    out: list[tuple[bool, list[str], list[float | None]]] = []
    for texts in column_texts(payload.get("values") or [], _width(payload)):
        numeric, nums = _read_column(texts)
        out.append((numeric, texts, nums))
    return out


def read_columns(payload: Mapping[str, Any]) -> list[Column]:
    """Every data column of a payload, with its stored values where it has them.

    Parameters
    ----------
    payload : mapping
        A ParsedTable as JSON: ``values``, optionally ``stored`` (see the module's documentation).

    Returns
    -------
    list of Column

    Examples
    --------
    >>> cols = read_columns({"values": [["15", "12%", ""], ["9", "7%", "x"]],
    ...                      "stored": [{"kinds": "NN", "numbers": [15.141, 9.2]},
    ...                                 {"kinds": "NN", "numbers": [0.12, 0.07]}, None]})
    >>> [(c.kind, c.values) for c in cols]
    [('number', [15.141, 9.2]), ('number', [0.12, 0.07]), ('object', [nan, 'x'])]
    """
    stored = payload.get("stored")
    out: list[Column] = []
    for j, texts in enumerate(column_texts(payload.get("values") or [], _width(payload))):
        column = stored[j] if isinstance(stored, Sequence) and j < len(stored) else None
        if isinstance(column, Mapping):
            out.append(_stored_column(texts, str(column.get("kinds") or ""), column.get("numbers") or []))
        else:
            numeric, nums = _read_column(texts)
            out.append(Column("number", texts, nums) if numeric else Column("object", texts, _untyped(texts)))
    return out


def _untyped(texts: list[str]) -> list[Any]:
    """Text cells as values: an empty one is missing (NaN, as ``read_csv`` gives it)."""
    if "" not in texts:
        return list(texts)
    return [math.nan if t == "" else t for t in texts]


def _number_value(v: float) -> float | int:
    return int(v) if v.is_integer() and abs(v) < 2**53 else v


def _cell_value(kind: str, text: str, number: float) -> Any:
    """The value of one typed cell (not an untyped one)."""
    if kind == "n":
        return float(text.replace(",", ""))
    if kind == "N":
        return number
    if kind == "d":
        return _EPOCH + dt.timedelta(milliseconds=number)
    if kind == "h":
        return (_MIDNIGHT + dt.timedelta(milliseconds=number)).time()
    if kind == "e":
        return dt.timedelta(milliseconds=number)
    if kind in ("t", "f"):
        return kind == "t"
    if kind == "s":
        return text
    return None  # "0", and a letter this runtime does not know: no value


def _stored_column(texts: list[str], kinds: str, numbers: Sequence[float]) -> Column:
    kinds = kinds[: len(texts)].ljust(len(texts), ".")
    if kinds.strip("n") == "":  # every cell a number shown as itself: the common case, read at C speed
        plain = texts if not any("," in t for t in texts) else [t.replace(",", "") for t in texts]
        return Column("number", texts, list(map(float, plain)))
    cells: list[Any] = []  # each cell's own value
    nums: list[float] = []  # each cell's number, NaN where missing, while the column can be numeric
    numeric = True
    counted = False  # some cell holds a number, not only missing values
    dated = True  # every cell a date, an elapsed time or missing
    kinds_seen: set[str] = set()
    at = 0
    for text, kind in zip(texts, kinds, strict=True):
        if kind == ".":
            reading = parse_number(text)
            numeric = numeric and reading is not None
            counted = counted or (reading is not None and not math.isnan(reading))
            dated = dated and is_blank_cell(text)
            nums.append(math.nan if reading is None else reading)
            cells.append(math.nan if text == "" else text)
            continue
        number = math.nan
        if kind in _WITH_NUMBER:
            number = float(numbers[at]) if at < len(numbers) else math.nan
            at += 1
        value = _cell_value(kind, text, number)
        kinds_seen.add(kind)
        if kind in ("n", "N"):
            counted = True
            nums.append(value)
            value = _number_value(value) if not math.isnan(value) else value
        elif kind == "0":
            nums.append(math.nan)
        else:
            numeric = False
        dated = dated and kind in ("d", "e", "0")
        cells.append(value)
    if numeric and counted:
        return Column("number", texts, nums, from_text=False)
    present = kinds_seen - {"0"}
    if dated and present in ({"d"}, {"e"}):
        values = [v if isinstance(v, (dt.datetime, dt.timedelta)) else None for v in cells]
        return Column("datetime" if present == {"d"} else "duration", texts, values, from_text=False)
    if present and present <= {"t", "f"} and "." not in kinds and "0" not in kinds:
        return Column("bool", texts, cells, from_text=False)
    return Column("object", texts, cells, from_text=False)


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


def _plain_number(v: float | None) -> float | int | None:
    if v is None or math.isnan(v):
        return None
    if v.is_integer() and abs(v) < 2**53:
        return int(v)
    return v

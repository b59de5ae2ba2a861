"""Ordering a column of text that begins with numbers, or of dates written as text, which pandas does
letter by letter.

A column such as ``Titles`` holding ``"7 (3+1+2+1)"`` and ``"10 (4+6)"`` is text: the cells carry more than
a number, so the table's columns are read as text (:mod:`tableqa.columns`). ``df["Titles"].max()`` then
compares the cells as words and answers ``"7 (3+1+2+1)"``, because ``"7"`` comes after ``"1"``; no error
says so, and the answer looks like one. So does a column of dates such as ``"6 February 1922"`` (a CSV
file does not say its cells are dates, so they stay text). No reader of such a table orders it that way.

Before a program runs, each call of one of :data:`ORDER_METHODS` (``X.max()``, ``X.idxmin()``,
``X.sort_values(...)``, …) becomes ``order_test(X, "max", ...)``
(see :func:`tableqa.pathloc.header_path_reads`).
That calls the method as written and returns what pandas answers, unless ``X`` is (or, for
``DataFrame.sort_values``, sorts by) a column whose cells nearly all read as dates with a year, or begin
with a number, and the order of the letters gives another answer than the order of those dates (numbers)
would: then it raises ``TypeError`` with the cells that show it and code that reads the dates (takes the
numbers out). Where pandas refuses itself (``nlargest`` of text), its error gets the same note.
"""

from __future__ import annotations

import itertools
import re
import sys
import warnings
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from .ops import show_key
from .text import EXTRACT_NUMBER, is_blank_cell

__all__ = ["ORDER_METHODS", "ORDER_TESTER", "leading_number", "order_tester"]

# The name a program's ordering calls are routed through.
ORDER_TESTER = "__tableqa_order__"
# Methods that order the values of a Series (or, sort_values, a DataFrame's rows by a column).
ORDER_METHODS = frozenset(
    {"max", "min", "idxmax", "idxmin", "argmax", "argmin", "sort_values", "nlargest", "nsmallest"}
)
# Share of a column's non-blank cells that must begin with a number (or read as a date) for the column to be
# ordered by those numbers (dates).
ORDERED_SHARE = 0.8
# Distinct cells read as dates before the rest of a column is.
DATE_PROBE = 200
# A cell that is a number and nothing else (a year alone reads as a date).
_BARE_NUMBER = re.compile(r"\s*-?\d+(?:\.\d+)?\s*")
# A number at the start of a cell: sign, digits with or without thousands commas, decimals.
_LEADING = re.compile(r"\s*([-+\u2212]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?!\d)")


def leading_number(text: str) -> float | None:
    """The number a cell's text begins with, or None.

    Examples
    --------
    >>> [leading_number(t) for t in ("7 (3+1+2+1)", "1,204 m", "-3.5%", "2\u20131", "n/a", "(5)", "12a")]
    [7.0, 1204.0, -3.5, 2.0, None, None, 12.0]
    """
    found = _LEADING.match(text)
    if found is None:
        return None
    sign, digits, decimals = found.groups()
    value = float(digits.replace(",", "") + (decimals or ""))
    return -value if sign in ("-", "\u2212") else value


def _order_keys(pd: Any, column: Any) -> tuple[str, dict[str, Any]] | None:
    """How the cells of a column of text are meant to be ordered, with each non-blank cell's key (None where
    it has none): ``"dates"`` when nearly all read as dates with a year (and not all as bare numbers),
    ``"numbers"`` when nearly all begin with a number (at least two different ones); else None."""
    cells = column.tolist()
    texts = list(dict.fromkeys(x for x in cells if isinstance(x, str) and not is_blank_cell(x)))
    if len(texts) < 2 or any(not isinstance(x, str) and x == x and x is not None for x in cells):
        return None
    # Most text has no digit in it: names are never dates or numbers, and reading dates is slow.
    if sum(any(c.isdigit() for c in x) for x in texts) < ORDERED_SHARE * len(texts):
        return None
    # Dates are read one cell at a time, which is slow: a column is read whole only when its first cells are
    # dates.
    dates = _read_dates(pd, texts[:DATE_PROBE])
    if len(texts) > DATE_PROBE and _dated(dates):
        dates = _read_dates(pd, texts)
    if _dated(dates):
        return ("dates", dates)
    numbers = {x: leading_number(x) for x in texts}
    found = [n for n in numbers.values() if n is not None]
    if len(found) < ORDERED_SHARE * len(texts) or len(set(found)) < 2:
        return None
    return ("numbers", numbers)


def _read_dates(pd: Any, texts: list[str]) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        read = pd.to_datetime(pd.Series(texts, dtype=object), errors="coerce", format="mixed")
    # A year below 1000 is one the reader made up: "1st" reads as the first day of year 1.
    return {x: (d if d is not pd.NaT and d.year >= 1000 else None) for x, d in zip(texts, read, strict=True)}


def _dated(dates: dict[str, Any]) -> bool:
    """Whether cells read as dates are dates: nearly all of them read, on more than one day, and not only
    bare numbers (a year alone)."""
    dated = [x for x, d in dates.items() if d is not None]
    return (
        len(dated) >= ORDERED_SHARE * len(dates)
        and len({dates[x] for x in dated}) > 1
        and any(_BARE_NUMBER.fullmatch(x) is None for x in dated)
    )


def _differs(
    method: str, column: Any, ordered: Any, ascending: bool, keys: dict[str, Any]
) -> tuple[str, str] | None:
    """Two cells that the letter order gives the other way round from their keys (numbers or dates), where
    the answer of ``method`` depends on it (for max and min, the cell picked and the one the keys pick); else
    None."""
    cells = [x for x in column.tolist() if isinstance(x, str)]
    if method != "sort_values":
        largest = method in ("max", "idxmax", "argmax", "nlargest")
        # pandas orders text as Python does, blank cells included.
        picked = max(cells) if largest else min(cells)
        found = [(k, x) for x, k in keys.items() if k is not None]
        best = (max if largest else min)(found, key=lambda pair: pair[0])[1]
        key = keys.get(picked)
        return (picked, best) if key is None or key != keys[best] else None
    # sort_values: each cell with a key against the next one in the order given.
    order = [x for x in ordered.tolist() if isinstance(x, str) and keys.get(x) is not None]
    for a, b in itertools.pairwise(order):
        if keys[a] > keys[b] if ascending else keys[a] < keys[b]:
            return (a, b)
    return None


def _note(
    label: Hashable, table: str, method: str, kind: str, cells: tuple[str, str] | None, commas: bool
) -> str:
    column = f"{table}[{show_key(label)}]"
    if kind == "dates":
        said = f"column {show_key(label)} of {table} holds dates written as text"
        fix = f'order the dates read from it, e.g. pd.to_datetime({column}, format="mixed", errors="coerce")'
    else:
        said = f"column {show_key(label)} of {table} holds text that begins with numbers"
        extract = (".str.replace(',', '')" if commas else "") + EXTRACT_NUMBER
        fix = f"order the numbers taken out of it, e.g. {column}{extract}"
    if cells is None:
        return f"{said}: {fix}"
    first, second = cells
    # max() picked the first cell over the second; min() and sort_values() put it before the second.
    where = "after" if method in ("max", "idxmax", "argmax") else "before"
    return f"{said}: {method}() compares it letter by letter, which puts {first!r} {where} {second!r}; {fix}"


def order_tester(tables: Sequence[tuple[str, Any]]) -> Callable[..., Any]:
    """The function a program's ordering calls are routed through: ``order_test(X, method, *args, **kwargs)``
    is ``X.method(*args, **kwargs)``, unless the letter order of a column of numbers with text, or of dates
    written as text, decides the answer (see the module). ``tables`` are the program's tables by name, for
    the code in the note.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"School": ["Eton", "Harrow"], "Titles": ["7 (3+1+2+1)", "10 (4+6)"]})
    >>> order_test = order_tester([("df", df)])
    >>> by_length = order_test(df["Titles"], "sort_values", key=lambda s: s.str.len())
    >>> order_test(df["School"], "max"), by_length.tolist()
    ('Harrow', ['10 (4+6)', '7 (3+1+2+1)'])
    >>> order_test(df["Titles"], "max")
    Traceback (most recent call last):
    ...
    TypeError: column 'Titles' of df holds text that begins with numbers: max() compares it letter by \
letter, which puts '7 (3+1+2+1)' after '10 (4+6)'; order the numbers taken out of it, e.g. \
df['Titles'].str.extract(r"(-?\\d+(?:\\.\\d+)?)")[0].astype(float)
    """

    def order_test(obj: Any, method: str, *args: Any, **kwargs: Any) -> Any:
        pd = sys.modules.get("pandas")
        call = getattr(obj, method)
        # A sort with its own key does not order the letters.
        if pd is None or method not in ORDER_METHODS or "key" in kwargs:
            return call(*args, **kwargs)
        column = _ordered_column(pd, obj, method, args, kwargs)
        found = _order_keys(pd, column) if column is not None else None
        if found is None or column is None:
            return call(*args, **kwargs)
        kind, keys = found

        def note(cells: tuple[str, str] | None) -> str:
            return _note(column.name, _table_of(tables, column), method, kind, cells, _commas(column))

        try:
            result = call(*args, **kwargs)
        except TypeError as exc:
            exc.add_note(note(None))
            raise
        ordered = result
        if isinstance(result, pd.DataFrame):
            ordered = result[column.name] if column.name in result.columns else None
        if ordered is None:
            return result
        ascending = kwargs.get("ascending", True)
        if isinstance(ascending, (list, tuple)):
            ascending = ascending[0] if ascending else True
        cells = _differs(method, column, ordered, bool(ascending), keys)
        if cells is not None:
            raise TypeError(note(cells))
        return result

    return order_test


def _ordered_column(pd: Any, obj: Any, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The column whose order decides the answer: the Series itself, or the first column a DataFrame is
    sorted by; else None."""
    if isinstance(obj, pd.Series):
        return obj if obj.dtype == object or pd.api.types.is_string_dtype(obj.dtype) else None
    if not isinstance(obj, pd.DataFrame) or method != "sort_values":
        return None
    by = kwargs.get("by", args[0] if args else None)
    if isinstance(by, list) and by:
        by = by[0]
    try:
        column = obj[by]
    except (KeyError, TypeError, ValueError):
        return None
    if not isinstance(column, pd.Series):
        return None
    return _ordered_column(pd, column, method, (), {})


def _commas(column: Any) -> bool:
    return any(isinstance(x, str) and re.match(r"\s*[-+]?\d{1,3},\d{3}", x) for x in column.tolist())


def _table_of(tables: Sequence[tuple[str, Any]], column: Any) -> str:
    """The name of the program's table that has a column of this label, else ``df``."""
    for name, frame in tables:
        try:
            if column.name in frame.columns:
                return name
        except TypeError:
            continue
    return "df"

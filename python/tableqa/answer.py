"""Answer normalisation: whatever a program returns, as a flat list of typed values.

Works without pandas; pandas and numpy objects are recognised by their type and converted through
their own methods, so nothing here imports them unless such an object is present.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "MAX_ITEMS",
    "MAX_TABLE_CELLS",
    "MAX_TABLE_ROWS",
    "answer_item",
    "answer_table",
    "is_pandas_like",
    "normalize_answer",
]

MAX_ITEMS = 10_000
_MAX_CELLS = 2_000
MAX_TABLE_ROWS = 1_000
"""Rows of a DataFrame or Series answer kept for the answer's table."""
MAX_TABLE_CELLS = 10_000
"""Cells of that table, at most: a wide frame keeps fewer rows."""


def _module(value: object) -> str:
    return type(value).__module__.split(".")[0]


def is_pandas_like(value: object) -> bool:
    """Whether ``value`` is, or directly contains, a pandas or numpy object.

    Examples
    --------
    >>> is_pandas_like([1, 2]), is_pandas_like({"a": 1.5})
    (False, False)
    """
    if _module(value) in ("pandas", "numpy"):
        return True
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(_module(v) in ("pandas", "numpy") for v in list(value)[:MAX_ITEMS])
    if isinstance(value, Mapping):
        return any(_module(v) in ("pandas", "numpy") for v in list(value.values())[:MAX_ITEMS])
    return False


def _number(value: float) -> dict[str, Any] | None:
    if math.isnan(value):
        return None
    if math.isinf(value):
        return {"value": "inf" if value > 0 else "-inf", "type": "string"}
    if value.is_integer() and abs(value) < 2**53:
        return {"value": int(value), "type": "number"}
    return {"value": value, "type": "number"}


def _date(value: dt.date) -> dict[str, Any]:
    if isinstance(value, dt.datetime):
        if (value.hour, value.minute, value.second, value.microsecond) == (0, 0, 0, 0):
            return {"value": value.date().isoformat(), "type": "date"}
        return {"value": value.isoformat(), "type": "date"}
    return {"value": value.isoformat(), "type": "date"}


def answer_item(value: object) -> dict[str, Any] | None:
    """One scalar as ``{"value", "type"}``; None for missing values (None, NaN, NaT, NA).

    Parameters
    ----------
    value : object
        A Python, numpy or pandas scalar.

    Returns
    -------
    dict or None
        ``type`` is "number", "string", "date" or "boolean".

    Examples
    --------
    >>> answer_item(3.0), answer_item(True), answer_item(" Oslo ")
    ({'value': 3, 'type': 'number'}, {'value': True, 'type': 'boolean'}, {'value': 'Oslo', 'type': 'string'})
    >>> answer_item(float("nan")) is None
    True
    """
    if value is None:
        return None
    module = _module(value)
    if module == "pandas":
        name = type(value).__name__
        if name in ("NAType", "NaTType"):
            return None
        if name == "Timestamp":
            return _date(value.to_pydatetime())  # type: ignore[attr-defined]
        if name == "Period":
            return {"value": str(value), "type": "date"}
    if module == "numpy":
        kind = getattr(getattr(value, "dtype", None), "kind", "")
        if kind == "M":
            import numpy as np

            if np.isnat(value):  # type: ignore[call-overload]
                return None
            return {
                "value": str(value)[:10]
                if str(value).endswith("T00:00:00") or len(str(value)) == 10
                else str(value),
                "type": "date",
            }
        item = getattr(value, "item", None)
        if callable(item):
            value = item()
    if isinstance(value, bool):
        return {"value": value, "type": "boolean"}
    if isinstance(value, int):
        return {"value": value, "type": "number"} if abs(value) < 2**53 else _number(float(value))
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, decimal.Decimal):
        return _number(float(value))
    if isinstance(value, (dt.date, dt.datetime)):
        return _date(value)
    if isinstance(value, str):
        return {"value": value.strip(), "type": "string"}
    if isinstance(value, bytes):
        return {"value": value.decode("utf-8", "replace").strip(), "type": "string"}
    return {"value": str(value).strip(), "type": "string"}


def _flatten(value: object, out: list[object], depth: int = 0) -> None:
    if len(out) >= MAX_ITEMS:
        return
    module = _module(value)
    if module in ("pandas", "numpy"):
        name = type(value).__name__
        if name == "DataFrame":
            for row in value.itertuples(index=False, name=None):  # type: ignore[attr-defined]
                for v in row:
                    _flatten(v, out, depth + 1)
            return
        if name in ("Series", "ndarray", "Categorical") or name.endswith(("Index", "Array")):
            seq: Any = value
            items: list[Any] = seq.ravel().tolist() if name == "ndarray" else list(seq)
            for v in items:
                _flatten(v, out, depth + 1)
            return
    if isinstance(value, (str, bytes)):
        out.append(value)
    elif isinstance(value, Mapping):
        for v in value.values():
            _flatten(v, out, depth + 1)
    elif isinstance(value, (set, frozenset)):
        for v in sorted(value, key=lambda x: (str(type(x)), str(x))):
            _flatten(v, out, depth + 1)
    elif isinstance(value, Iterable):
        for v in value:
            _flatten(v, out, depth + 1)
            if len(out) >= MAX_ITEMS:
                return
    else:
        out.append(value)


def _source_cells(value: object) -> list[dict[str, int]]:
    from .frame import source_of  # no pandas import at module level there either

    src = source_of(value)
    if src is None:
        return []
    name = type(value).__name__
    cells: list[dict[str, int]] = []
    row_keys = set(_safe_keys(src.raw.index.tolist()))
    col_keys = set(_safe_keys(src.raw.columns.tolist()))
    if name == "DataFrame":
        rows = [k for k in value.index.tolist() if _hashable_in(k, row_keys)]  # type: ignore[attr-defined]
        cols = [k for k in value.columns.tolist() if _hashable_in(k, col_keys)]  # type: ignore[attr-defined]
        for r in rows:
            for c in cols:
                cells += src.cells(r, c)
                if len(cells) >= _MAX_CELLS:
                    return cells[:_MAX_CELLS]
    elif name == "Series":
        label = getattr(value, "name", None)
        labels = value.index.tolist()  # type: ignore[attr-defined]
        if _hashable_in(label, col_keys) and all(_hashable_in(k, row_keys) for k in labels):
            for r in labels:
                cells += src.cells(r, label)
        elif _hashable_in(label, row_keys) and all(_hashable_in(k, col_keys) for k in labels):
            for c in labels:
                cells += src.cells(label, c)
    return cells[:_MAX_CELLS]


def _safe_keys(keys: list[Any]) -> list[Any]:
    out = []
    for k in keys:
        try:
            hash(k)
        except TypeError:
            continue
        out.append(k)
    return out


def _hashable_in(key: object, keys: set[Any]) -> bool:
    try:
        return key in keys
    except TypeError:
        return False


def _text(label: object) -> str:
    item = answer_item(label)
    return "" if item is None else str(item["value"])


def _tuples(axis: Any) -> list[list[str]]:
    if getattr(axis, "nlevels", 1) > 1:
        return [[_text(part) for part in key] for key in axis.tolist()]
    return [[_text(key)] for key in axis.tolist()]


def _cell(value: object) -> str | int | float | bool | None:
    item = answer_item(value)
    if item is None:
        return None
    out: str | int | float | bool = item["value"]
    return out


def answer_table(value: object) -> dict[str, Any] | None:
    """A DataFrame or Series answer as a table to show: header tuples, row index, cells.

    The row index is left out when it only numbers the rows (a plain ``RangeIndex``). Rows are cut to
    :data:`MAX_TABLE_ROWS` and to :data:`MAX_TABLE_CELLS` cells; ``rowCount`` says how many there were.

    Parameters
    ----------
    value : object
        The program's answer.

    Returns
    -------
    dict or None
        ``{"columns", "indexNames", "index", "rows", "rowCount"}``; None when the value is neither a
        DataFrame nor a Series.

    Examples
    --------
    >>> import pandas as pd
    >>> table = answer_table(pd.Series([3, 5], index=["north", "south"], name="sales"))
    >>> table["columns"], table["index"], table["rows"], table["rowCount"]
    ([['sales']], [['north'], ['south']], [[3], [5]], 2)
    >>> answer_table([1, 2]) is None
    True
    """
    if _module(value) != "pandas" or type(value).__name__ not in ("DataFrame", "Series"):
        return None
    frame: Any = value
    if type(value).__name__ == "Series":
        name = getattr(value, "name", None)
        frame = frame.to_frame(name=name if name is not None else "value")
    width = max(1, len(frame.columns))
    keep = min(len(frame), MAX_TABLE_ROWS, max(1, MAX_TABLE_CELLS // width))
    head = frame.iloc[:keep]
    index = head.index
    plain = type(index).__name__ == "RangeIndex" and all(n is None for n in index.names)
    return {
        "columns": _tuples(frame.columns),
        "indexNames": [] if plain else [_text(n) for n in index.names],
        "index": [] if plain else _tuples(index),
        "rows": [[_cell(v) for v in row] for row in head.itertuples(index=False, name=None)],
        "rowCount": len(frame),
    }


def normalize_answer(value: object, cells: Iterable[Mapping[str, int]] = ()) -> dict[str, Any]:
    """Normalise a program's answer to typed items plus the source cells it came from.

    Scalars give one item, containers (list, tuple, set, dict values, Series, DataFrame row by row,
    numpy arrays) one item per element, flattened. Missing values (None, NaN, NaT) are left out.

    Parameters
    ----------
    value : object
        The program's answer.
    cells : iterable of {"row", "col"}, optional
        Cells known to have been read (e.g. by the Operation APIs); merged with the cells of a
        Series or DataFrame that still carries its source.

    Returns
    -------
    dict
        ``{"items": [{"value", "type"}, ...], "cells": [{"row", "col"}, ...]}``, plus ``"table"``
        (see :func:`answer_table`) when the value is a DataFrame or a Series; a short Series whose values
        are still the cells of a given table they were read from has the read of each in the table's
        ``"reads"`` (see :mod:`tableqa.cellreads`).

    Examples
    --------
    >>> normalize_answer([1, "two", None])
    {'items': [{'value': 1, 'type': 'number'}, {'value': 'two', 'type': 'string'}], 'cells': []}
    >>> import datetime
    >>> normalize_answer(datetime.date(2020, 5, 1))["items"]
    [{'value': '2020-05-01', 'type': 'date'}]
    """
    flat: list[object] = []
    _flatten(value, flat)
    items = [item for item in (answer_item(v) for v in flat) if item is not None]
    merged: list[dict[str, int]] = []
    seen: set[tuple[int, int]] = set()
    for cell in [*_source_cells(value), *cells]:
        key = (int(cell["row"]), int(cell["col"]))
        if key not in seen and len(merged) < _MAX_CELLS:
            seen.add(key)
            merged.append({"row": key[0], "col": key[1]})
    out: dict[str, Any] = {"items": items, "cells": merged}
    table = answer_table(value)
    if table is not None:
        from .cellreads import reads_of  # no pandas import at module level there either

        reads = reads_of(value)
        if reads is not None:
            table["reads"] = reads
        out["table"] = table
    return out

"""Which cell of a given table each value of a short Series is, written as the read that gives it alone.

A program that answers "how many percent of X …" with ``df.loc["percent", "X"]`` gets several values
where the question asks for one: the read stopped a level or two short of a cell. pandas drops the
levels a read selected, so the Series' own labels no longer say where its values stand, and a program
written from those labels alone (``df.loc["percent", ("X", "total")]``) reads a whole column instead.
Here each read of a table the program was given (``df.loc[...]``, ``df[...]``), or of a frame read from
one (``df["men"]["total"]``), is repeated on a frame of cell positions with the same headers: a short
Series keeps, for each value, the row and column paths of its cell in the table (in ``attrs``), and a
frame its positions, for the reads made from it. :func:`reads_of` writes them back as reads
(``df.loc[("percent", "X"), ("men", "total")]``) for execution feedback, only while every value is still
the cell it came from: arithmetic keeps ``attrs`` but changes the values, and then there are none.

Nothing here imports pandas or numpy; they are taken from ``sys.modules`` where a program has them.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Hashable, Sequence
from typing import Any

__all__ = ["MAX_TAGGED", "reads_of", "reset", "tag_reads"]

MAX_TAGGED = 50
"""Longest Series whose values keep their cells: a repair note lists a few values, not a column."""

_MAX_CELLS = 200_000
"""Largest table read this way (its positions frame is one integer per cell)."""

_ATTR = "tableqa_cells"
_FRAME_ATTR = "tableqa_frame_cells"

# One frame of cell positions per given table, for the run (see reset()).
_positions: dict[int, Any] = {}


def reset() -> None:
    """Forget the positions frames of the last run's tables."""
    _positions.clear()


class _Known:
    """Where the cells of a frame read from a given table stand in it: the table, its name, and a frame of
    cell positions (row * width + column) with the read frame's headers. Kept in ``attrs``, which pandas
    deep-copies into every derived object: it returns itself from ``__deepcopy__``."""

    def __init__(self, name: str, table: Any, positions: Any) -> None:
        self.name, self.table, self.positions = name, table, positions

    def __deepcopy__(self, memo: dict[int, object]) -> _Known:
        return self


def _positions_of(frame: Any) -> Any:
    pd, np = sys.modules["pandas"], sys.modules["numpy"]
    known = _positions.get(id(frame))
    if known is not None and known.index is frame.index and known.columns is frame.columns:
        return known
    positions = pd.DataFrame(
        np.arange(frame.size).reshape(frame.shape), index=frame.index, columns=frame.columns
    )
    _positions[id(frame)] = positions
    return positions


def _known(tables: Sequence[tuple[str, Any]], frame: Any) -> _Known | None:
    """What is known of the cells of ``frame``: a given table, or a frame read from one."""
    name = next((n for n, t in tables if t is frame), None)
    if name is not None:
        return _Known(name, frame, _positions_of(frame)) if frame.size <= _MAX_CELLS else None
    attrs = getattr(frame, "attrs", None)
    known = attrs.get(_FRAME_ATTR) if isinstance(attrs, dict) else None
    if not isinstance(known, _Known):
        return None
    positions = known.positions
    if positions.shape != frame.shape or not (
        positions.index.equals(frame.index) and positions.columns.equals(frame.columns)
    ):
        return None
    return known


def _plain(x: object) -> object:
    item = getattr(x, "item", None)
    return item() if type(x).__module__.split(".")[0] == "numpy" and callable(item) else x


def tag_reads(
    tables: Sequence[tuple[str, Any]], frame: Any, result: Any, select: Callable[[Any], Any]
) -> Any:
    """``result``, which ``select(frame)`` gave, with where its cells stand in the given table they were
    read from, when ``frame`` is one of ``tables`` (by identity) or a frame read from one; else as it is.

    ``select`` is the same read, done again on a frame of cell positions with ``frame``'s headers. A Series
    of 2 to :data:`MAX_TAGGED` values whose values are the table's cells keeps the row and column path
    of each (:func:`reads_of`); a frame keeps its positions, for the reads made from it.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame([[1.5, 2.0], [3.0, 4.0]], index=["men", "women"], columns=["2019", "2020"])
    >>> row = tag_reads([("df", df)], df, df.loc["women"], lambda f: f.loc["women"])
    >>> reads_of(row)
    ['df.loc["women", "2019"]', 'df.loc["women", "2020"]']
    >>> reads_of(row * 100) is None
    True
    """
    pd = sys.modules.get("pandas")
    if pd is None or "numpy" not in sys.modules or not isinstance(frame, pd.DataFrame):
        return result
    series = isinstance(result, pd.Series) and 2 <= len(result) <= MAX_TAGGED
    if not (series or (isinstance(result, pd.DataFrame) and result.size <= _MAX_CELLS)):
        return result
    known = _known(tables, frame)
    if known is None:
        return result
    try:
        where = select(known.positions)
    except Exception:  # the read gave a result once; a second reading that fails names no cell
        return result
    if type(where) is not type(result) or where.shape != result.shape or not where.index.equals(result.index):
        return result
    if not series:
        if not where.columns.equals(result.columns):
            return result
        result.attrs[_FRAME_ATTR] = _Known(known.name, known.table, where)
        return result
    table = known.table
    width = max(1, len(table.columns))
    cells = []
    for label, code, value in zip(result.index.tolist(), where.tolist(), result.tolist(), strict=True):
        r, c = divmod(int(code), width)
        cell = _plain(table.iat[r, c])
        if not _same(cell, value):
            return result
        cells.append((label, table.index[r], table.columns[c], cell))
    result.attrs[_ATTR] = (known.name, cells)
    return result


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _literal(x: object) -> str:
    item = getattr(x, "item", None)
    if type(x).__module__.split(".")[0] == "numpy" and callable(item):
        x = item()
    return json.dumps(x, ensure_ascii=False) if isinstance(x, str) else repr(x)


def _path(label: Hashable) -> str:
    if isinstance(label, tuple):
        parts = [_literal(x) for x in label]
        return f"({parts[0]},)" if len(parts) == 1 else f"({', '.join(parts)})"
    return _literal(label)


def reads_of(value: object) -> list[str] | None:
    """For a Series whose values are still the cells :func:`tag_reads` found, the read of each cell
    (``df.loc[row_path, column_path]``) in the Series' order; None otherwise."""
    pd = sys.modules.get("pandas")
    if pd is None or not isinstance(value, pd.Series) or not 2 <= len(value) <= MAX_TAGGED:
        return None
    tag = value.attrs.get(_ATTR)
    if not isinstance(tag, tuple) or len(tag) != 2:
        return None
    name, cells = tag
    by_label: dict[Hashable, list[tuple[Hashable, Hashable, object]]] = {}
    for label, row, col, cell in cells:
        by_label.setdefault(label, []).append((row, col, cell))
    reads: list[str] = []
    for label, v in zip(value.index.tolist(), value.tolist(), strict=True):
        found = {(row, col) for row, col, cell in by_label.get(label, []) if _same(cell, v)}
        if len(found) != 1:
            return None
        row, col = next(iter(found))
        reads.append(f"{name}.loc[{_path(row)}, {_path(col)}]")
    return reads

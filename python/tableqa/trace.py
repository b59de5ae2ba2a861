"""Cells read by the Operation APIs during one program, for answer provenance.

The runner clears the record before each program; :mod:`tableqa.ops` adds the source cells that a
lookup or aggregation read, and the answer normaliser reports them.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["MAX_CELLS", "record_cells", "recorded_cells", "reset_cells"]

MAX_CELLS = 2000
_cells: list[dict[str, int]] = []
_seen: set[tuple[int, int]] = set()


def record_cells(cells: Iterable[dict[str, int]]) -> None:
    """Remember source cells ``{"row", "col"}`` (duplicates and cells past ``MAX_CELLS`` ignored)."""
    for cell in cells:
        key = (cell["row"], cell["col"])
        if key not in _seen and len(_cells) < MAX_CELLS:
            _seen.add(key)
            _cells.append({"row": cell["row"], "col": cell["col"]})


def recorded_cells() -> list[dict[str, int]]:
    """The cells recorded since the last :func:`reset_cells`, in the order first read."""
    return list(_cells)


def reset_cells() -> None:
    """Forget the recorded cells (the runner calls this before each program)."""
    _cells.clear()
    _seen.clear()

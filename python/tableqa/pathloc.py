"""``df.loc`` reads that also take header paths the way people (and models) write them.

On a table with hierarchical headers, ``df.loc["services", "men"]`` fails in pandas when the row is
``("employed", "services")`` and the column ``("2020", "men")``: pandas wants every level from the top.
``df.loc["services", "2020", "men"]`` fails too ("Too many indexers"), as does
``df.loc["employed", "services", ("2020", "men")]``: the labels of both axes run together. Each names
one cell of the header tree without doubt, and the Operation APIs (:mod:`tableqa.ops`) already read
such paths.

The same holds for a column asked by a label below the top level: ``df["men"]`` fails in pandas when the
column is ``("2020", "men")``. Every other subscript a program reads, ``X[key]``, becomes
``column_read(X, key)``: pandas' answer first; only when it raises ``KeyError`` on a DataFrame and the key is
a label (or a tuple of labels) that names exactly one column header, or one whole branch, that column (or
those columns) is returned, and a line on stderr says so. ``X.loc[condition, column]`` reads its column
label the same way, with the rows pandas selects for the condition (or list).

Comparisons with text, text searches and arithmetic between two selections are routed too, only to
record what pandas' answer alone does not show (:mod:`tableqa.trace`): a condition that matched no row,
and arithmetic whose two sides share no row label (``a - b`` where ``a`` is the row of 2000 and ``b`` that
of 1990: pandas pairs values by label, and every value is NaN). Ordering calls (``X.max()``,
``X.sort_values(...)``) are routed to refuse one answer pandas gives without a word: the letter order of a
column of text that begins with numbers (:mod:`tableqa.order`).

Before a program runs, every ``X.loc[key]`` it *reads* (not assignments, not keys with slices) becomes
``loc_read(X, key)`` (:func:`header_path_reads`). That first does exactly what pandas does. Only when
pandas raises ``KeyError``, ``IndexingError`` or ``IndexError`` (more key parts than levels) on a
DataFrame and the key is made of labels (or of label paths), the labels are read as header paths
(:func:`tableqa.headers.match_header`): split into a row part and a column part in every way their
order allows, each part naming one header or one whole branch (its labels top down, or, when only one
order of them names a header, in any order: ``df.loc["services", "employed"]``); when no such split
fits, a key of up to five labels is also read with the two axes' labels interleaved
(``df.loc["employed", "2020", "services"]``), if exactly one way to give each label an axis fits. When
exactly one reading fits (the split the key was written with wins among several), that selection is
returned and a line on stderr says how the key was read. Labels that are no header and no cell but words
of the table's title (``df.attrs["title"]``: "…, 2013/2014") say what the whole table is about, and the
key is read without them when the rest reads so; otherwise pandas' own error is raised with a
note that says
which labels are no header of the table (with close matches), or, when all are, which label names
several headers (the same label under different parents, when the question the program answers names
none of them or several: :func:`tableqa.headers.named_by_question`) or how to write the key
(the runner adds the note to the error message, and where the labels stand). Nothing pandas answers
changes.
"""

from __future__ import annotations

import ast
import itertools
import operator
import sys
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from . import cellreads, trace
from .cellreads import tag_reads
from .headers import PREFIX, HeaderMatch, close_labels, match_header, named_by_question, says
from .ops import (
    HOLDER_SCAN_CELLS,
    cell_number,
    elsewhere_detail,
    holder_note,
    record_read,
    show_key,
    unmatched_detail,
)
from .order import ORDER_METHODS, ORDER_TESTER, order_tester
from .text import label_key

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ARITH_TESTER",
    "CONTAINS_TESTER",
    "EQ_TESTER",
    "GET_READER",
    "LOC_READER",
    "arith_test",
    "bind_readers",
    "column_read",
    "contains_test",
    "equal_test",
    "header_path_reads",
    "is_frame",
    "loc_read",
    "miss_note",
    "read_key",
    "said_read",
]

# The names a program's ``.loc`` reads and other subscript reads are routed through (set in its
# namespace by :func:`bind_readers`).
LOC_READER = "__tableqa_loc__"
GET_READER = "__tableqa_get__"
# The name a program's comparisons of a value with text (``X == "text"``) are routed through.
EQ_TESTER = "__tableqa_eq__"
# The name a program's text searches of a column (``X.str.contains("text")``) are routed through.
CONTAINS_TESTER = "__tableqa_contains__"
# The name a program's arithmetic between two values (``a - b``, not ``a - 1``) is routed through.
ARITH_TESTER = "__tableqa_arith__"

# A key longer than this is not a header path someone wrote by hand; it is left to pandas.
MAX_LABELS = 8

Label = str | int | float


def _labels(key: object) -> tuple[list[Label], int] | None:
    """The key's labels in order and where its own row/column boundary falls, or None if it holds
    anything but labels (slices, lists, masks, callables are pandas' business)."""

    def flat(part: object) -> list[Label] | None:
        if isinstance(part, bool):
            return None
        if isinstance(part, (str, int, float)):
            return [part]
        if isinstance(part, tuple) and all(
            isinstance(x, (str, int, float)) and not isinstance(x, bool) for x in part
        ):
            return list(part)
        return None

    if not isinstance(key, tuple):
        one = flat(key)
        return None if one is None else (one, len(one))
    if len(key) == 2:
        rows, cols = flat(key[0]), flat(key[1])
        if rows is not None and cols is not None:
            return rows + cols, len(rows)
    # More parts, some of them paths: ("Total", "Revenue", ("2016", "men")) is a run of labels too.
    parts = [flat(part) for part in key]
    if any(part is None for part in parts):
        return None
    labels = [label for part in parts if part is not None for label in part]
    # A path written last is read as the columns' part first.
    last = parts[-1] if parts and isinstance(key[-1], tuple) else None
    return labels, len(labels) - (len(last) if last is not None else 0)


# Labels of one axis written in another order than their levels ("services", "employed") are tried in
# every order up to this many labels.
MAX_REORDERED = 3


def _branch(keys: Sequence[Hashable], labels: Sequence[Label]) -> list[int] | None:
    """Positions of the one header, or the one branch, that ``labels`` name on an axis; None when
    they name nothing or several unrelated headers.

    Labels written child first (``("services", "employed")`` for the row ``("employed", "services")``)
    name the same header when no order of them names another one.
    """
    found = _branch_in_order(keys, labels)
    if found is not None or not 2 <= len(labels) <= MAX_REORDERED:
        return found
    readings = {
        tuple(b)
        for order in itertools.permutations(labels)
        if list(order) != list(labels) and (b := _branch_in_order(keys, order)) is not None
    }
    return list(next(iter(readings))) if len(readings) == 1 else None


def _branch_in_order(keys: Sequence[Hashable], labels: Sequence[Label]) -> list[int] | None:
    found: list[HeaderMatch] = match_header(keys, tuple(labels))
    if not found:
        return None
    best = min(m.kind for m in found)
    top = [m for m in found if m.kind == best]
    if len(top) == 1:
        return [top[0].position]
    # Several headers under one node named from the top (a whole branch) is one selection; the same
    # label under different parents, or duplicated headers, is not, unless the question names one of them.
    if best == PREFIX:
        return [m.position for m in top]
    chosen = named_by_question(top, trace.question())
    return [chosen.position] if chosen is not None else None


def read_key(frame: pd.DataFrame, key: object) -> tuple[list[int], list[int]] | None:
    """Row and column positions that a label key names as header paths, or None when no single
    reading fits.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame([[1, 2], [3, 4]],
    ...     index=pd.MultiIndex.from_tuples([("employed", "industry"), ("employed", "services")]),
    ...     columns=pd.MultiIndex.from_tuples([("2020", "men"), ("2020", "women")]))
    >>> read_key(df, ("services", "women"))
    ([1], [1])
    >>> read_key(df, ("services", "2020", "women"))
    ([1], [1])
    >>> read_key(df, ("women", "services"))
    ([1], [1])
    >>> read_key(df, ("nowhere", "women")) is None
    True
    >>> read_key(df, ("services", "employed"))
    ([1], [0, 1])
    """
    parsed = _labels(key)
    if parsed is None:
        return None
    labels, written = parsed
    if not labels or len(labels) > MAX_LABELS:
        return None
    row_keys = frame.index.tolist()
    col_keys = frame.columns.tolist()
    every_col = list(range(len(col_keys)))
    readings: dict[tuple[bool, int], tuple[list[int], list[int]]] = {}
    for i in range(len(labels) + 1):
        for rows_first in (True, False):
            first, second = labels[:i], labels[i:]
            row_part, col_part = (first, second) if rows_first else (second, first)
            if not row_part:
                continue  # a key names rows first; a bare column label stays pandas' KeyError
            rows = _branch(row_keys, row_part)
            cols = every_col if not col_part else _branch(col_keys, col_part)
            if rows is None or cols is None:
                continue
            readings[(rows_first, i)] = (rows, cols)
    if not readings:
        return _interleaved(row_keys, col_keys, labels)
    if (True, written) in readings:
        return readings[(True, written)]
    distinct = {(tuple(r), tuple(c)) for r, c in readings.values()}
    if len(distinct) != 1:
        return None
    return next(iter(readings.values()))


# Keys of up to this many labels are also read with the two axes' labels interleaved.
MAX_INTERLEAVED = 5


def _interleaved(
    row_keys: Sequence[Hashable], col_keys: Sequence[Hashable], labels: Sequence[Label]
) -> tuple[list[int], list[int]] | None:
    """The one reading of ``labels`` as a row path and a column path whose labels are interleaved
    (``("percent", "men", "services")`` for the row ``("percent", "services")`` and the column
    ``"men"``): every way to give each label to one axis, keeping their order within it. None when no
    such split, or more than one, names headers on both axes.

    Examples
    --------
    >>> rows = [("percent", "services"), ("percent", "industry")]
    >>> cols = [("men", "total"), ("women", "total")]
    >>> _interleaved(rows, cols, ["percent", "women", "services"])
    ([0], [1])
    >>> _interleaved(rows, cols, ["percent", "total", "services"]) is None
    True
    """
    if not 3 <= len(labels) <= MAX_INTERLEAVED:
        return None
    found: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for sides in itertools.product((True, False), repeat=len(labels)):
        row_part = [x for x, is_row in zip(labels, sides, strict=True) if is_row]
        col_part = [x for x, is_row in zip(labels, sides, strict=True) if not is_row]
        if not row_part or not col_part:
            continue
        rows, cols = _branch(row_keys, row_part), _branch(col_keys, col_part)
        if rows is not None and cols is not None:
            found.add((tuple(rows), tuple(cols)))
    if len(found) != 1:
        return None
    row_positions, col_positions = next(iter(found))
    return list(row_positions), list(col_positions)


def _select(frame: pd.DataFrame, rows: list[int], cols: list[int]) -> Any:
    if len(rows) == 1 and len(cols) == 1:
        return frame.iat[rows[0], cols[0]]
    if len(rows) == 1:
        return frame.iloc[rows[0], cols]
    if len(cols) == 1:
        return frame.iloc[rows, cols[0]]
    return frame.iloc[rows, cols]


def _shown(keys: list[Hashable], positions: list[int]) -> str:
    if len(positions) == len(keys) and len(keys) > 1:
        return "all"
    if len(positions) == 1:
        return repr(keys[positions[0]])
    return f"{len(positions)} under {keys[positions[0]]!r}…"


def _indexing_errors() -> tuple[type[BaseException], ...]:
    pd = sys.modules.get("pandas")
    errors = getattr(pd, "errors", None) if pd is not None else None
    indexing = getattr(errors, "IndexingError", None)
    # pandas raises IndexError for a key with more parts than a MultiIndex has levels.
    return (KeyError, IndexError, indexing) if isinstance(indexing, type) else (KeyError, IndexError)


def is_frame(obj: object) -> bool:
    """Whether ``obj`` is a pandas DataFrame (pandas is not imported for it)."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(obj, pd.DataFrame)


def _key_text(key: object) -> str:
    if isinstance(key, tuple):
        return ", ".join(repr(k) for k in key)
    return repr(key)


def loc_read(obj: Any, key: object) -> Any:
    """``obj.loc[key]``, and where pandas finds nothing on a DataFrame, the key read as header paths.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame([[1, 2], [3, 4]],
    ...     index=pd.MultiIndex.from_tuples([("employed", "industry"), ("employed", "services")]),
    ...     columns=pd.MultiIndex.from_tuples([("2020", "men"), ("2020", "women")]))
    >>> int(loc_read(df, ("services", "women")))
    4
    >>> loc_read(df, ("employed", "industry")).tolist()
    [1, 2]
    """
    try:
        return tag_reads(_given, obj, obj.loc[key], lambda positions: positions.loc[key])
    except _indexing_errors() as exc:
        selected = _rows_then_column(obj, key) if is_frame(obj) else None
        if selected is not None:
            return selected
        reading = read_key(obj, key) if is_frame(obj) else None
        titled: list[Label] = []
        if reading is None and is_frame(obj):
            titled, reading = _without_title_labels(obj, key)
        if reading is None:
            note = (miss_note(obj, key) or _selected_column_note(obj, key)) if is_frame(obj) else None
            if note is not None:
                exc.add_note(note)
            raise
    rows, cols = reading
    left_out = (
        f" without {', '.join(repr(x) for x in titled)} (the table's title, no header)" if titled else ""
    )
    said_read(
        obj,
        rows,
        cols,
        f".loc[{_key_text(key)}] read as header paths{left_out}: row {_shown(obj.index.tolist(), rows)}, "
        f"column {_shown(obj.columns.tolist(), cols)}",
    )
    return tag_reads(_given, obj, _select(obj, rows, cols), lambda positions: _select(positions, rows, cols))


def _without_title_labels(
    frame: pd.DataFrame, key: object
) -> tuple[list[Label], tuple[list[int], list[int]] | None]:
    """A key read without its labels that are no header, like none, are no cell, but are words of the
    table's title.

    A title says what the whole table is about ("…, 2013/2014", "… performed by the company"); a program
    that writes those words into a key names nothing more than the rest of the key does. Returns the
    labels left out and the one reading of the rest (:func:`read_key`), or ``([], None)``.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame([[5, 6]], index=["total"], columns=pd.MultiIndex.from_tuples(
    ...     [("remand", "number"), ("remand", "rate")]))
    >>> df.attrs["title"] = "Adults in custody, by jurisdiction, 2013/2014"
    >>> _without_title_labels(df, ("total", "remand", "2013/2014", "number"))
    (['2013/2014'], ([0], [0]))
    >>> _without_title_labels(df, ("total", "remand", "2015/2016", "number"))
    ([], None)
    >>> df.attrs["title"] = "Remands and probation, 2013/2014"
    >>> _without_title_labels(df, ("total", "remands", "number"))
    ([], None)
    """
    title = frame.attrs.get("title") if isinstance(frame.attrs, dict) else None
    parsed = _labels(key)
    if not isinstance(title, str) or not title.strip() or parsed is None:
        return [], None
    labels = parsed[0]
    if not 2 <= len(labels) <= MAX_LABELS or len(frame.index) > NOTE_SCAN or len(frame.columns) > NOTE_SCAN:
        return [], None
    row_keys, col_keys = frame.index.tolist(), frame.columns.tolist()
    missing = [x for x in labels if not match_header(row_keys, x) and not match_header(col_keys, x)]
    if not missing or len(missing) == len(labels):
        return [], None
    # A label that looks like a header ("black" for "black male workers") is a header written wrong, not
    # the title's subject, even where the title holds its words.
    headers = [*row_keys, *col_keys]
    if not all(
        isinstance(x, str) and says(title, x) and not close_labels(headers, x) and not holder_note(frame, x)
        for x in missing
    ):
        return [], None
    rest = [x for x in labels if x not in missing]
    return missing, read_key(frame, rest[0] if len(rest) == 1 else tuple(rest))


def _rows_then_column(frame: pd.DataFrame, key: object) -> Any:
    """``frame.loc[rows, column]`` for rows selected by a condition or a list (pandas' own reading of
    them) and a column label (or path) that pandas does not find but that names one column, or one
    branch, of the table as :func:`column_read` reads it; None otherwise. The shape is pandas': a
    Series for one column, a DataFrame for a branch, whatever number of rows the condition keeps.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"Hand": ["Full house", "Flush"], "1 credit": [8, 5]})
    >>> _rows_then_column(df, (df["Hand"] == "Full house", "1credit")).tolist()
    [8]
    >>> _rows_then_column(df, (df["Hand"] == "Full house", "2 credits")) is None
    True
    """
    if not isinstance(key, tuple) or len(key) != 2 or callable(key[0]) or _labels(key) is not None:
        return None
    labels = _column_labels(key[1])
    col_keys: list[Hashable] = list(frame.columns)
    cols = _branch(col_keys, labels) if labels is not None else None
    if cols is None:
        return None
    pd = sys.modules["pandas"]
    failures: tuple[type[BaseException], ...] = (*_indexing_errors(), TypeError, ValueError)
    try:
        picked = pd.Series(range(len(frame.index)), index=frame.index).loc[key[0]]
    except failures:
        return None
    rows = [int(x) for x in (picked.tolist() if isinstance(picked, pd.Series) else [picked])]
    said_read(
        frame,
        rows,
        cols,
        f".loc[…, {_key_text(key[1])}] read as the column {_shown(col_keys, cols)}",
    )
    return frame.iloc[rows, cols[0]] if len(cols) == 1 else frame.iloc[rows, cols]


def _selected_column_note(frame: pd.DataFrame, key: object) -> str | None:
    """For ``frame.loc[rows, column]`` with rows selected by a condition (or a list) and a column label
    that names no column: what the table has instead (:func:`column_miss_note`); else None.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"Hand": ["Full house", "Flush"], "1 credit": [8, 5]})
    >>> _selected_column_note(df, (df["1 credit"] == 8, "Payout"))
    "'Payout' is no column header of this table; its columns: 'Hand', '1 credit'"
    """
    if not isinstance(key, tuple) or len(key) != 2 or _labels(key) is not None:
        return None
    labels = _column_labels(key[1])
    return column_miss_note(frame, labels) if labels is not None else None


def said_read(frame: pd.DataFrame, rows: list[int], cols: list[int], how: str) -> None:
    """Record the cells a header-path reading took (for the answer's provenance) and how the program's
    words were read (:func:`tableqa.trace.record_reading`, and on stderr)."""
    record_read(frame, rows, cols)
    trace.record_reading(how)
    print(f"note: {how}", file=sys.stderr)


def _column_labels(key: object) -> list[Label] | None:
    parts = list(key) if isinstance(key, tuple) else [key]
    labels = [x for x in parts if isinstance(x, (str, int, float)) and not isinstance(x, bool)]
    return labels if parts and len(labels) == len(parts) <= MAX_LABELS else None


def column_read(obj: Any, key: object) -> Any:
    """``obj[key]``, and where pandas finds no such column of a DataFrame, the key read as a column
    header path.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame([[1, 2], [3, 4]],
    ...     columns=pd.MultiIndex.from_tuples([("size, 2014", "attrition"), ("size, 2014", "growth")]))
    >>> column_read(df, "attrition").tolist()
    [1, 3]
    >>> column_read({"a": 1}, "a")
    1

    A key that names no column keeps pandas' ``KeyError``, with a note on what the table has instead
    (:func:`column_miss_note`).
    """
    try:
        return tag_reads(_given, obj, obj[key], lambda positions: positions[key])
    except KeyError as exc:
        labels = _column_labels(key) if is_frame(obj) else None
        cols = _branch(obj.columns.tolist(), labels) if labels is not None else None
        if cols is None:
            row = row_of_cell(obj, labels[0]) if labels is not None and len(labels) == 1 else None
            if row is not None:
                return row
            note = column_miss_note(obj, labels) if labels is not None else None
            if note:
                exc.add_note(note)
            raise
    shown = _shown(obj.columns.tolist(), cols)
    said_read(obj, list(range(len(obj.index))), cols, f"[{_key_text(key)}] read as the column {shown}")
    if len(cols) > 1:
        return obj.iloc[:, cols]
    return tag_reads(_given, obj, obj.iloc[:, cols[0]], lambda positions: positions.iloc[:, cols[0]])


def row_of_cell(frame: pd.DataFrame, label: Label) -> Any:
    """The row a label names as a cell, read as a column would be: where ``frame[label]`` names no column
    but the label is the text of exactly one cell of a one-level table, that cell's row across the other
    columns, labelled by their headers (numbers where all of them are), and the reading is said. A table
    that lists its measures down its first column and years or months across its columns (a "wide"
    table) is read this way by anyone: ``df["Avg. snowy days"]`` is that row, month by month. None when
    the label is no cell, or the cell of several rows or columns.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"Month": ["Record high", "Avg. snowy days"],
    ...                    "Jan": ["12", "9"], "Dec": ["14", "7"]})
    >>> row = row_of_cell(df, "avg. snowy days")
    >>> row.to_dict(), row.idxmax()
    ({'Jan': 9.0, 'Dec': 7.0}, 'Jan')
    >>> row_of_cell(df, "Snow") is None
    True
    """
    pd = sys.modules["pandas"]
    if not isinstance(label, str) or frame.columns.nlevels != 1 or not any(c.isalpha() for c in label):
        return None
    if frame.shape[0] * frame.shape[1] > HOLDER_SCAN_CELLS:
        return None
    key = label_key(label)
    found = [
        (i, j)
        for j in range(frame.shape[1])
        for i, x in enumerate(frame.iloc[:, j].tolist())
        if isinstance(x, str) and label_key(x) == key
    ]
    if len(found) != 1:
        return None
    i, j = found[0]
    others = [k for k in range(frame.shape[1]) if k != j]
    values = frame.iloc[i, others]
    numbers = pd.to_numeric(
        values.map(lambda x: cell_number(x) if isinstance(x, str) else x), errors="coerce"
    )
    if numbers.notna().sum() == values.notna().sum() and numbers.notna().any():
        values = numbers
    values.name = frame.iloc[i, j]
    holder = show_key(frame.columns[j])
    how = (
        f"[{_key_text(label)}] read as the row whose {holder} is {frame.iloc[i, j]!r}, across the other "
        "columns (that label is a cell, not a column header)"
    )
    trace.record_reading(how)
    print(f"note: {how}", file=sys.stderr)
    return values


# The tables a program was given, by variable name (bound with the readers, before it runs): where a
# value that no cell of the column a condition read holds may stand.
_given: list[tuple[str, Any]] = []


def bind_readers(namespace: dict[str, Any]) -> None:
    """Bind the names :func:`header_path_reads` routes reads through, in a program's namespace, and note
    the tables it holds."""
    pd = sys.modules.get("pandas")
    _given[:] = [
        (name, value)
        for name, value in namespace.items()
        if pd is not None and isinstance(value, pd.DataFrame) and not name.startswith("_")
    ]
    cellreads.reset()
    namespace[LOC_READER] = loc_read
    namespace[GET_READER] = column_read
    namespace[EQ_TESTER] = equal_test
    namespace[CONTAINS_TESTER] = contains_test
    namespace[ARITH_TESTER] = arith_test
    namespace[ORDER_TESTER] = order_tester(_given)


def equal_test(left: Any, right: Any) -> Any:
    """``left == right``, exactly as Python and pandas give it; when one side is a column and the other
    text that no cell of the column equals, the condition is recorded as one that matched no row
    (:func:`tableqa.trace.record_unmatched`), with the cells that contain the text or are close to it.

    Examples
    --------
    >>> import pandas as pd
    >>> towns = pd.Series(["Raleigh, NC", "Boston, MA"], name="Town")
    >>> trace.reset_cells()
    >>> equal_test(towns, "NC").tolist(), equal_test("a", "a")
    ([False, False], True)
    >>> said, cells = trace.recorded_unmatched()[0].split("; ")
    >>> said
    "df['Town'] == 'NC' matched no row"
    >>> print(cells.replace(" (", "\\n("))
    cells of 'Town' that contain it: 'Raleigh, NC'
    (select them with df['Town'].str.contains('NC', case=False))
    """
    result = left == right
    pd = sys.modules.get("pandas")
    if pd is None:
        return result
    column, value = (left, right) if isinstance(right, str) else (right, left)
    if (
        isinstance(column, pd.Series)
        and isinstance(value, str)
        and isinstance(result, pd.Series)
        and len(result)
        and result.dtype == bool
        and not result.any()
    ):
        _record_no_match(column, value, "df[{}] == {!r}")
    return result


def _record_no_match(column: pd.Series, text: str, condition: str) -> None:
    """Record ``condition`` (``{}`` the column's name, ``{!r}`` the text) as one that matched no row of
    ``column``, with what its cells hold and the code that selects them."""
    name = show_key(column.name) if column.name is not None else "the column"
    codes = (
        f"df[{name}].str.contains({{}}, case=False)",
        f"df[{name}] == {{}}",
        f"df[{name}].str.contains({{}})",
    )
    said = condition.format(name, text) + " matched no row"
    trace.record_unmatched(said + (unmatched_detail(column, text, *codes) or elsewhere_detail(_given, text)))


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}
_ARITH_NODES: dict[type[ast.operator], str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
# Longest side of an expression quoted in a note; a longer one is called "the left (right) side".
_SIDE_CHARS = 60


def arith_test(op: str, left: Any, right: Any, left_text: str = "", right_text: str = "") -> Any:
    """``left op right`` (``op`` one of ``+ - * /``), exactly as Python and pandas give it; when both
    sides are Series (or DataFrames) with values whose row labels have none in common, every value of
    the result is NaN: pandas pairs values by label, not by position. That is recorded as a
    combination that matched no row (:func:`tableqa.trace.record_unmatched`), with the labels of each
    side and code that combines the values themselves (``left_text`` and ``right_text``: the sides as
    the program writes them).

    Examples
    --------
    >>> import pandas as pd
    >>> a = pd.Series([9], index=[1], name="Points")
    >>> b = pd.Series([5], index=[0], name="Points")
    >>> trace.reset_cells()
    >>> arith_test("-", a, b, "a", "b").tolist(), arith_test("-", 9, 5)
    ([nan, nan], 4)
    >>> print(trace.recorded_unmatched()[0].replace(", and", ",\\nand").replace("; ", ";\\n"))
    a - b matched no row: the row labels of a (1) are not those of b (0),
    and pandas pairs values by label, so every value is NaN;
    combine the values themselves: a.iloc[0] - b.iloc[0]
    """
    result = _ARITH[op](left, right)
    pd = sys.modules.get("pandas")
    if pd is None:
        return result
    # Two Series, or two DataFrames: a Series beside a DataFrame pairs its labels with the columns instead.
    same = any(isinstance(left, kind) and isinstance(right, kind) for kind in (pd.Series, pd.DataFrame))
    if not same or not isinstance(result, (pd.Series, pd.DataFrame)):
        return result
    try:
        aligned = (
            len(result.index) > 0
            and bool(result.isna().to_numpy().all())
            and bool(left.notna().to_numpy().any())
            and bool(right.notna().to_numpy().any())
            and len(left.index.intersection(right.index)) == 0
        )
    except (TypeError, ValueError):
        return result
    if aligned:
        _record_misaligned(op, left, right, left_text, right_text)
    return result


def _record_misaligned(op: str, left: Any, right: Any, left_text: str, right_text: str) -> None:
    """Record ``left op right`` as a combination whose row labels matched none of the other side's."""
    sides = [
        text if text and len(text) <= _SIDE_CHARS else f"the {name} side"
        for text, name in ((left_text, "left"), (right_text, "right"))
    ]

    def labels(obj: Any) -> str:
        shown = ", ".join(show_key(k) for k in list(obj.index[:3]))
        return shown + (", …" if len(obj.index) > 3 else "")

    said = (
        f"{sides[0]} {op} {sides[1]} matched no row: the row labels of {sides[0]} ({labels(left)}) are not "
        f"those of {sides[1]} ({labels(right)}), and pandas pairs values by label, so every value is NaN"
    )
    quoted = all(text and len(text) <= _SIDE_CHARS for text in (left_text, right_text))
    one = len(left.index) == 1 and len(right.index) == 1 and left.ndim == 1 and right.ndim == 1

    def wrapped(text: str) -> str:
        return text if text.isidentifier() or text.endswith((")", "]")) else f"({text})"

    if quoted and one:
        code = f"{wrapped(left_text)}.iloc[0] {op} {wrapped(right_text)}.iloc[0]"
    elif quoted and len(left.index) == len(right.index):
        code = f"{wrapped(left_text)}.to_numpy() {op} {wrapped(right_text)}.to_numpy()"
    else:
        code = "take the one value asked for from each side (.iloc[0], or by its label) first"
    trace.record_unmatched(f"{said}; combine the values themselves: {code}")


def contains_test(column: Any, pattern: Any, *args: Any, **kwargs: Any) -> Any:
    """``column.str.contains(pattern, ...)``, exactly as pandas gives it; when no cell of the column
    contains the text, the search is recorded as one that matched no row (as :func:`equal_test` does),
    with the cells that contain it written otherwise or are close to it.

    Examples
    --------
    >>> import pandas as pd
    >>> names = pd.Series(["Charmaine Sheh", "Moses Chan"], name="Winner")
    >>> trace.reset_cells()
    >>> contains_test(names, "sheh").tolist(), contains_test(names, "Sheh").tolist()
    ([False, False], [True, False])
    >>> said, cells = trace.recorded_unmatched()[0].split("; ")
    >>> said
    "df['Winner'].str.contains('sheh') matched no row"
    >>> print(cells.replace(" (", "\\n("))
    cells of 'Winner' that contain it: 'Charmaine Sheh'
    (select them with df['Winner'].str.contains('sheh', case=False))
    """
    result = column.str.contains(pattern, *args, **kwargs)
    pd = sys.modules.get("pandas")
    if (
        pd is not None
        and isinstance(column, pd.Series)
        and isinstance(pattern, str)
        and isinstance(result, pd.Series)
        and len(result)
        and not result.fillna(False).astype(bool).any()
    ):
        _record_no_match(column, pattern, "df[{}].str.contains({!r})")
    return result


# Axes longer than this are not scanned for a failed key's note.
NOTE_SCAN = 20_000


def miss_note(frame: pd.DataFrame, key: object) -> str | None:
    """Why a label key names no cell of ``frame``: the labels that are no header of either axis, with
    close matches; or, when every label is one, how a key with header paths is written. None for keys
    that are not labels, and for axes too long to scan.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame([[1, 2]], index=["Revenue"], columns=["2019", "2020"])
    >>> miss_note(df, ("Revenues", "2020"))
    "'Revenues' is no row or column header of this table (close: 'Revenue')"
    >>> miss_note(df, ("2020", "2019")).startswith("each label is a header of this table, but")
    True
    """
    parsed = _labels(key)
    if parsed is None or len(frame.index) > NOTE_SCAN or len(frame.columns) > NOTE_SCAN:
        return None
    labels, _ = parsed
    if not labels or len(labels) > MAX_LABELS:
        return None
    row_keys, col_keys = frame.index.tolist(), frame.columns.tolist()
    missing = [x for x in labels if not match_header(row_keys, x) and not match_header(col_keys, x)]
    if not missing:
        several = _several(row_keys, col_keys, labels)
        if several:
            return several
        return (
            "each label is a header of this table, but they do not read as one row path followed by one "
            "column path: write df.loc[row_path, column_path], each path a label or a tuple of labels "
            "from its top level down"
        )
    notes = []
    for label in missing:
        held = holder_note(frame, label)
        if held:
            notes.append(f"{label!r} is no row or column header of this table but {held}")
            continue
        close = close_labels([*row_keys, *col_keys], label, n=3)
        shown = f" (close: {', '.join(repr(c) for c in close)})" if close else ""
        notes.append(f"{label!r} is no row or column header of this table{shown}")
    return "; ".join(notes)


# Headers listed for a label that names several.
NOTE_PATHS = 4


def _several(row_keys: Sequence[Hashable], col_keys: Sequence[Hashable], labels: Sequence[Label]) -> str:
    """The labels of a key that each name several headers of an axis that are no one branch (the same
    label under different parents): which headers, so the one meant can be written in full; else ``""``.

    Examples
    --------
    >>> note = _several([("a", "x"), ("a", "total")], [("men", "total"), ("women", "total")], ["x", "total"])
    >>> note.startswith("'total' names 2 column headers: ('men', 'total'), ('women', 'total'); write the")
    True
    >>> note.endswith("full path of the one meant, e.g. df.loc[..., ('men', 'total')]")
    True
    """
    notes = []
    for label in labels:
        for word, keys in (("row", row_keys), ("column", col_keys)):
            found = match_header(keys, label)
            if len(found) < 2 or _branch(keys, [label]) is not None:
                continue
            shown = [show_key(m.key) for m in found[:NOTE_PATHS]]
            more = f" and {len(found) - NOTE_PATHS} more" if len(found) > NOTE_PATHS else ""
            where = f"df.loc[..., {shown[0]}]" if word == "column" else f"df.loc[{shown[0]}, ...]"
            notes.append(
                f"{label!r} names {len(found)} {word} headers: {', '.join(shown)}{more}; write the full "
                f"path of the one meant, e.g. {where}"
            )
    return "; ".join(notes)


# Columns listed by name in a note when none is close to the label asked for.
NOTE_COLUMNS = 12


def column_miss_note(frame: pd.DataFrame, labels: Sequence[Label]) -> str | None:
    """Why labels read as a column name none: each label that is no column header, with close ones, the
    row header it is, or the table's columns. None when every label is a column header (a path written
    in the wrong order, which pandas' error already shows) and for axes too long to scan.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame([[1, 2]], index=["Total"], columns=["Year", "Points scored"])
    >>> column_miss_note(df, ["Points"])
    "'Points' is no column header of this table (close: 'Points scored')"
    >>> column_miss_note(df, ["Rider"])
    "'Rider' is no column header of this table; its columns: 'Year', 'Points scored'"
    >>> column_miss_note(df, ["total"])
    "'total' is a row header, not a column: read its row with df.loc['total']"
    """
    if len(frame.index) > NOTE_SCAN or len(frame.columns) > NOTE_SCAN:
        return None
    row_keys, col_keys = frame.index.tolist(), frame.columns.tolist()
    notes = []
    for label in labels:
        if match_header(col_keys, label):
            continue
        if match_header(row_keys, label):
            notes.append(f"{label!r} is a row header, not a column: read its row with df.loc[{label!r}]")
            continue
        held = holder_note(frame, label)
        if held:
            notes.append(f"{label!r} is no column header of this table but {held}")
            continue
        close = close_labels(col_keys, label, n=3)
        if close:
            shown = ", ".join(repr(c) for c in close)
            notes.append(f"{label!r} is no column header of this table (close: {shown})")
            continue
        names = [show_key(k) for k in col_keys[:NOTE_COLUMNS]]
        more = f" and {len(col_keys) - NOTE_COLUMNS} more" if len(col_keys) > NOTE_COLUMNS else ""
        notes.append(f"{label!r} is no column header of this table; its columns: {', '.join(names)}{more}")
    return "; ".join(notes) or None


def _has_slice(node: ast.expr) -> bool:
    if isinstance(node, ast.Slice):
        return True
    return isinstance(node, ast.Tuple) and any(isinstance(e, (ast.Slice, ast.Starred)) for e in node.elts)


# Indexers whose keys are positions (or already routed): their subscripts are left as written.
_POSITIONAL = frozenset({"iloc", "iat", "at"})


class _LocReads(ast.NodeTransformer):
    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) != 1 or not isinstance(node.ops[0], ast.Eq):
            return node
        sides = (node.left, node.comparators[0])
        if not any(isinstance(x, ast.Constant) and isinstance(x.value, str) for x in sides):
            return node
        call = ast.Call(func=ast.Name(id=EQ_TESTER, ctx=ast.Load()), args=list(sides), keywords=[])
        return ast.copy_location(call, node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        # The sides as the program writes them, before their own reads are routed.
        texts = [ast.unparse(side) for side in (node.left, node.right)]
        self.generic_visit(node)
        op = _ARITH_NODES.get(type(node.op))
        # A number or a text on either side cannot pair rows by label: such arithmetic is left as written.
        if op is None or any(isinstance(side, ast.Constant) for side in (node.left, node.right)):
            return node
        args: list[ast.expr] = [ast.Constant(op), node.left, node.right, *(ast.Constant(t) for t in texts)]
        call = ast.Call(func=ast.Name(id=ARITH_TESTER, ctx=ast.Load()), args=args, keywords=[])
        return ast.copy_location(call, node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ORDER_METHODS:
            args: list[ast.expr] = [func.value, ast.Constant(func.attr), *node.args]
            tester = ast.Name(id=ORDER_TESTER, ctx=ast.Load())
            ordered = ast.Call(func=tester, args=args, keywords=node.keywords)
            return ast.copy_location(ordered, node)
        if not (
            isinstance(func, ast.Attribute)
            and func.attr == "contains"
            and isinstance(func.value, ast.Attribute)
            and func.value.attr == "str"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            return node
        name = ast.Name(id=CONTAINS_TESTER, ctx=ast.Load())
        call = ast.Call(func=name, args=[func.value.value, *node.args], keywords=node.keywords)
        return ast.copy_location(call, node)

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        target = node.value
        if not isinstance(node.ctx, ast.Load) or _has_slice(node.slice):
            return node
        if isinstance(target, ast.Attribute) and target.attr == "loc":
            reader, obj = LOC_READER, target.value
        elif isinstance(target, ast.Attribute) and target.attr in _POSITIONAL:
            return node
        else:
            reader, obj = GET_READER, target
        call = ast.Call(func=ast.Name(id=reader, ctx=ast.Load()), args=[obj, node.slice], keywords=[])
        return ast.copy_location(call, node)


def header_path_reads(tree: ast.Module) -> ast.Module:
    """The program with each ``X.loc[key]`` read routed through :func:`loc_read`, each other
    subscript read ``X[key]`` through :func:`column_read`, each comparison ``X == "text"`` through
    :func:`equal_test`, each search ``X.str.contains("text")`` through :func:`contains_test` and each
    ``a + b``, ``a - b``, ``a * b`` or ``a / b`` without a constant side through :func:`arith_test` and
    each ordering call ``X.max()`` (any of :data:`tableqa.order.ORDER_METHODS`) through the order test
    (its namespace must bind them, :func:`bind_readers`); assignments, keys with slices and positional
    indexers are left alone.

    Examples
    --------
    >>> src = "a = df.loc['x', 'y']\\ndf.loc['x'] = 1\\nb = df.loc[1:2]\\nc = df['m'].iloc[0]\\ndf['n'] = 2"
    >>> print(ast.unparse(header_path_reads(ast.parse(src))))
    a = __tableqa_loc__(df, ('x', 'y'))
    df.loc['x'] = 1
    b = df.loc[1:2]
    c = __tableqa_get__(df, 'm').iloc[0]
    df['n'] = 2
    >>> print(ast.unparse(header_path_reads(ast.parse("d = df[df['t'] == 'NC']\\ne = 1 < x == 'a'"))))
    d = __tableqa_get__(df, __tableqa_eq__(__tableqa_get__(df, 't'), 'NC'))
    e = 1 < x == 'a'
    >>> print(ast.unparse(header_path_reads(ast.parse("f = df.t.str.contains('NC', case=False)"))))
    f = __tableqa_contains__(df.t, 'NC', case=False)
    >>> print(ast.unparse(header_path_reads(ast.parse("g = (a - b) / b * 100"))))
    g = __tableqa_arith__('/', __tableqa_arith__('-', a, b, 'a', 'b'), b, 'a - b', 'b') * 100
    >>> print(ast.unparse(header_path_reads(ast.parse("h = df.sort_values('R', ascending=False).A.max()"))))
    h = __tableqa_order__(__tableqa_order__(df, 'sort_values', 'R', ascending=False).A, 'max')
    """
    changed: ast.Module = _LocReads().visit(tree)
    return ast.fix_missing_locations(changed)

"""Operation APIs: header-path lookups, subtree selection and aggregation, row filters.

Every function takes the DataFrame first and names headers by *header paths* (see
:mod:`tableqa.headers`): a label, a tuple of labels from the top level down, a partial tuple, or a
flat ``"a | b"`` name, matched ignoring case, spacing, punctuation and footnote marks. Numbers are
read from cell text where a column is not numeric already (``1,234``, ``(12)``, ``12%``).
Source cells that these functions read are recorded for the answer's provenance.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from . import trace
from .frame import build_frame, source_of
from .headers import (
    EXACT,
    NODE,
    AmbiguousHeader,
    HeaderMatch,
    HeaderNotFound,
    Path,
    axis_number,
    leaf_label,
    match_header,
    resolve_many,
    resolve_one,
)
from .text import EXTRACT_NUMBER, is_blank_cell, label_key, parse_number

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "AmbiguousHeader",
    "HeaderNotFound",
    "aggregate",
    "build_frame",
    "column",
    "compare",
    "count",
    "diff",
    "filter_rows",
    "lookup",
    "next_value",
    "pct_change",
    "ratio",
    "row",
    "select",
    "to_number",
    "top_k",
    "value_of",
]

Axis = Literal[0, 1, "rows", "index", "columns"]
How = Literal["sum", "mean", "median", "min", "max", "count", "argmax", "argmin"]


def _py(value: object) -> Any:
    """numpy scalars to plain Python; NaN stays a float NaN."""
    item = getattr(value, "item", None)
    if callable(item) and type(value).__module__ == "numpy":
        return item()
    return value


def to_number(value: Any) -> Any:
    """Read numbers from cell text; Series and DataFrames are converted cell by cell.

    Parameters
    ----------
    value : str, number, Series or DataFrame
        Text such as ``"1,234"``, ``"(12)"`` (-12), ``"12%"`` (12), ``"$3.5"``, ``"—"`` (NaN).

    Returns
    -------
    float, Series or DataFrame
        NaN where a cell is not a number.

    Examples
    --------
    >>> to_number("1,234") + to_number("(34)")
    1200.0
    """
    import pandas as pd

    if isinstance(value, pd.DataFrame):
        return value.apply(lambda s: to_number(s))
    if isinstance(value, pd.Series):
        if pd.api.types.is_numeric_dtype(value.dtype) and not pd.api.types.is_bool_dtype(value.dtype):
            return value.astype("float64")
        return value.map(lambda x: _num(x)).astype("float64")
    return _num(value)


def _num(x: object) -> float:
    x = _py(x)
    v = parse_number(x)
    return math.nan if v is None else v


def _keys(df: pd.DataFrame, axis: int) -> list[Hashable]:
    return list((df.index if axis == 0 else df.columns).tolist())


def record_read(df: pd.DataFrame, rows: Sequence[int], cols: Sequence[int]) -> None:
    """Note the source cells at these positions of ``df`` as read (answer provenance, see trace)."""
    src = source_of(df)
    if src is None:
        return
    rkeys, ckeys = _keys(df, 0), _keys(df, 1)
    for i in rows:
        for j in cols:
            trace.record_cells(src.cells(rkeys[i], ckeys[j]))


def lookup(df: pd.DataFrame, row: Path | None, col: Path | None, *more: Path) -> Any:
    """The value of one cell, named by a row header path and a column header path.

    Parameters
    ----------
    df : DataFrame
        The table.
    row : str, tuple or None
        Row header path: a label (``"men"``), a tuple from the top level (``("total", "men")``) or a
        partial tuple. None when the table has a single row.
    col : str, tuple or None
        Column header path, same forms. None when the table has a single column.

    Returns
    -------
    object
        The cell value: a number for numeric columns, else the cell text.

    Raises
    ------
    HeaderNotFound
        When no header matches; the message lists close matches.
    AmbiguousHeader
        When the path matches several headers equally well; give a longer path.

    Examples
    --------
    >>> df = build_frame({"columns": [["2019", "men"], ["2019", "women"], ["2020", "men"]],
    ...                   "index": [["employed"], ["unemployed"]],
    ...                   "values": [["120", "110", "115"], ["12", "9", "20"]]})
    >>> lookup(df, "Unemployed", ("2020", "men"))
    20

    Notes
    -----
    A call with the labels of both paths written one after another, ``lookup(df, "Unemployed", "2020",
    "men")``, is read as ``.loc`` keys are (:func:`tableqa.pathloc.read_key`): split into a row path and a
    column path in every way the order allows; when exactly one split names one cell, that cell is the
    answer, else the error says how to write the call.

    >>> lookup(df, "Unemployed", "2020", "men")
    20

    So is a call whose paths fit no header as written but whose labels, read the same way (each once, a
    path's labels in any order), name one cell: a row path given with the column's
    (``lookup(df, "employed", ("employed", "2019", "women"))``) reads that row and column.

    >>> lookup(df, "employed", ("employed", "2019", "women"))
    110
    """
    if more:
        return _lookup_spread(df, (row, col, *more))
    try:
        r = resolve_one(_keys(df, 0), row, 0)
        c = resolve_one(_keys(df, 1), col, 1)
    except (HeaderNotFound, AmbiguousHeader) as first:
        labels = _distinct_labels((row, col))
        if labels is None:
            raise
        try:
            return _lookup_spread(df, labels)
        except HeaderNotFound:
            # The first error names the path that fits no header, with close matches.
            raise first from None
    record_read(df, [r.position], [c.position])
    return _py(df.iat[r.position, c.position])


def _distinct_labels(paths: tuple[Path | None, ...]) -> tuple[str | int | float, ...] | None:
    """The labels of some header paths one after another, each once (ignoring case and spacing); None when
    a path is not labels or there are too many to read as header paths."""
    seen: set[str] = set()
    labels: list[str | int | float] = []
    for path in paths:
        if path is None:
            continue
        parts = path if isinstance(path, tuple) else (path,)
        for label in parts:
            if isinstance(label, bool) or not isinstance(label, (str, int, float)):
                return None
            key = label_key(label)
            # A blank label is a path's padding ("rural areas", ""), not a header to find.
            if key and key not in seen:
                seen.add(key)
                labels.append(label)
    return tuple(labels) if 2 <= len(labels) <= LOOKUP_LABELS else None


# Most labels a lookup's paths are read with as header paths when they fit no header as written.
LOOKUP_LABELS = 6


def _lookup_spread(df: pd.DataFrame, labels: tuple[Path | None, ...]) -> Any:
    # pathloc reads .loc keys with this module's record_read, so it is imported here, not at the top.
    from .pathloc import read_key, said_read

    reading = read_key(df, labels)
    shown = ", ".join(repr(x) for x in labels)
    if reading is None or len(reading[0]) != 1 or len(reading[1]) != 1:
        raise HeaderNotFound(
            f"lookup(df, {shown}): these labels do not name one cell as a row path followed by a column "
            "path. lookup takes one row path and one column path; write a path of several labels as a "
            'tuple from its top level, e.g. lookup(df, "Unemployed", ("2020", "men")).'
        )
    rows, cols = reading
    said_read(
        df,
        rows,
        cols,
        f"lookup(df, {shown}) read as row {df.index[rows[0]]!r}, column {df.columns[cols[0]]!r}",
    )
    return _py(df.iat[rows[0], cols[0]])


def _members(matches: list[HeaderMatch]) -> list[int]:
    """Positions to aggregate: a node's own line is dropped when its descendants matched too."""
    own = [m for m in matches if m.kind in (EXACT, NODE)]
    below = [m for m in matches if m.kind not in (EXACT, NODE)]
    chosen = below if own and below and len(own) == 1 else matches
    parts = [m for m in chosen if not label_key(leaf_label(m.key)).startswith("total")]
    return [m.position for m in (parts if parts and len(parts) < len(chosen) else chosen)]


def _lines(matches: list[HeaderMatch]) -> list[int]:
    """Lines an ``at`` path names: the one header it names exactly, else everything under it."""
    best = [m for m in matches if m.kind in (EXACT, NODE)]
    if len(best) == 1:
        return [best[0].position]
    return [m.position for m in matches]


def select(df: pd.DataFrame, path: Path, axis: Axis = "columns") -> pd.DataFrame:
    """The part of the table under a header path (a subtree of the top or left header tree).

    Parameters
    ----------
    df : DataFrame
        The table.
    path : str or tuple
        Header path; every header containing it (at any level, in order) is kept.
    axis : {"columns", "rows"}, default "columns"
        Which header tree the path belongs to.

    Returns
    -------
    DataFrame
        The selected columns (or rows) with their full header tuples.

    Examples
    --------
    >>> df = build_frame({"columns": [["2019", "men"], ["2019", "women"], ["2020", "men"]],
    ...                   "index": [], "values": [["1", "2", "3"]]})
    >>> select(df, "men").columns.tolist()
    [('2019', 'men'), ('2020', 'men')]
    >>> select(df, "2019").shape
    (1, 2)
    """
    ax = axis_number(axis)
    pos = [m.position for m in resolve_many(_keys(df, ax), path, ax)]
    return df.iloc[pos, :] if ax == 0 else df.iloc[:, pos]


def column(df: pd.DataFrame, name: Path) -> pd.Series:
    """One column by a tolerant header path (case, spacing, punctuation, footnote marks ignored).

    Parameters
    ----------
    df : DataFrame
        The table.
    name : str or tuple
        Column header path.

    Returns
    -------
    Series

    Examples
    --------
    >>> df = build_frame({"columns": [["Nation"], ["Gold medals (a)"]], "index": [],
    ...                   "values": [["Norway", "16"], ["Germany", "12"]]})
    >>> column(df, "gold medals").tolist()
    [16, 12]
    """
    c = resolve_one(_keys(df, 1), name, 1)
    return df.iloc[:, c.position]


def row(df: pd.DataFrame, path: Path) -> pd.Series:
    """One row by a tolerant row header path.

    Parameters
    ----------
    df : DataFrame
        The table.
    path : str or tuple
        Row header path.

    Returns
    -------
    Series
        Indexed by the column headers.

    Examples
    --------
    >>> df = build_frame({"columns": [["2019"], ["2020"]], "index": [["Revenue"], ["Costs"]],
    ...                   "values": [["10", "12"], ["7", "8"]]})
    >>> row(df, "revenue").tolist()
    [10, 12]
    """
    r = resolve_one(_keys(df, 0), path, 0)
    return df.iloc[r.position, :]


def aggregate(
    df: pd.DataFrame,
    path: Path | None = None,
    how: How = "sum",
    axis: Axis = "columns",
    at: Path | None = None,
) -> Any:
    """Aggregate the headers under a path, e.g. the sum over a subtree of columns.

    Parameters
    ----------
    df : DataFrame
        The table.
    path : str, tuple or None
        Header path on ``axis`` whose headers are aggregated; None for all of them. When the path
        names a node that has its own line and also child lines, the child lines are aggregated
        (the node's own line usually holds their total); lines labelled "Total ..." are left out
        when other lines remain.
    how : {"sum", "mean", "median", "min", "max", "count", "argmax", "argmin"}
        ``argmax``/``argmin`` give the header holding the largest/smallest value, reduced to the
        level(s) that differ between the aggregated headers (e.g. the year).
    axis : {"columns", "rows"}, default "columns"
        The header tree ``path`` belongs to.
    at : str, tuple or None
        Header path on the other axis restricting the lines that are aggregated: the one header it
        names, or every header under it.

    Returns
    -------
    number, str or Series
        A single value when one line of the other axis remains, else a Series indexed by it.

    Examples
    --------
    >>> df = build_frame({"columns": [["2019", "men"], ["2019", "women"], ["2020", "men"]],
    ...                   "index": [["employed"], ["unemployed"]],
    ...                   "values": [["120", "110", "115"], ["12", "9", "20"]]})
    >>> aggregate(df, "2019", "sum", at="employed")
    230.0
    >>> aggregate(df, "men", "argmax", at="unemployed")
    '2020'
    >>> aggregate(df, None, "max", axis="rows", at=("2019", "women"))
    110.0
    """
    ax = axis_number(axis)
    other = 1 - ax
    members = _members(resolve_many(_keys(df, ax), path, ax))
    lines = _lines(resolve_many(_keys(df, other), at, other))
    rows, cols = (members, lines) if ax == 0 else (lines, members)
    sub = to_number(df.iloc[rows, cols])
    record_read(df, rows, cols)
    values = sub.T if ax == 0 else sub  # members along the columns of `values`
    member_keys = [_keys(df, ax)[p] for p in members]
    result = _reduce(values, how, member_keys)
    if len(lines) == 1:
        return _py(result.iloc[0])
    return result


def _reduce(values: pd.DataFrame, how: str, member_keys: list[Hashable]) -> pd.Series:

    if how in ("argmax", "argmin"):

        def pick(line: pd.Series) -> Any:
            found = [(float(v), p) for p, v in enumerate(line.tolist()) if not math.isnan(v)]
            if not found:
                return None
            best = max(found, key=lambda t: (t[0], -t[1])) if how == "argmax" else min(found)
            return _distinct_label(member_keys, best[1])

        picked: pd.Series = values.apply(pick, axis=1)
        return picked
    if how == "sum":
        return values.sum(axis=1, min_count=1)
    if how == "mean":
        return values.mean(axis=1)
    if how == "median":
        return values.median(axis=1)
    if how == "min":
        return values.min(axis=1)
    if how == "max":
        return values.max(axis=1)
    if how == "count":
        return values.notna().sum(axis=1)
    raise ValueError(f"how must be one of sum, mean, median, min, max, count, argmax, argmin; not {how!r}")


def _distinct_label(keys: list[Hashable], pos: int) -> Hashable:
    """The levels of ``keys[pos]`` that tell it apart from the other keys (its leaf if none do)."""
    key = keys[pos]
    if not isinstance(key, tuple) or len(keys) < 2:
        return leaf_label(key)
    varying = [
        lv
        for lv in range(len(key))
        if len({k[lv] if isinstance(k, tuple) and lv < len(k) else None for k in keys}) > 1
    ]
    parts = [key[lv] for lv in varying if str(key[lv]).strip()]
    if not parts:
        return leaf_label(key)
    return parts[0] if len(parts) == 1 else tuple(parts)


def _pair(df: pd.DataFrame, a: Path, b: Path, axis: Axis, at: Path | None) -> tuple[Any, Any, bool]:
    import pandas as pd

    ax = axis_number(axis)
    other = 1 - ax
    pa = resolve_one(_keys(df, ax), a, ax).position
    pb = resolve_one(_keys(df, ax), b, ax).position
    if at is None:
        lines = list(range(df.shape[other]))
    else:
        lines = [resolve_one(_keys(df, other), at, other).position]
    if ax == 1:
        va, vb = to_number(df.iloc[lines, pa]), to_number(df.iloc[lines, pb])
        record_read(df, lines, [pa, pb])
    else:
        va, vb = to_number(df.iloc[pa, lines]), to_number(df.iloc[pb, lines])
        record_read(df, [pa, pb], lines)
    if not isinstance(va, pd.Series) or not isinstance(vb, pd.Series):
        raise TypeError("expected one line of values on each side")
    va, vb = va.reset_index(drop=True), vb.reset_index(drop=True)
    index = (df.columns if ax == 0 else df.index)[lines]
    va.index, vb.index = index, index
    return va, vb, len(lines) == 1


def diff(df: pd.DataFrame, a: Path, b: Path, axis: Axis = "columns", at: Path | None = None) -> Any:
    """Difference ``a - b`` between two headers of one axis.

    Parameters
    ----------
    df : DataFrame
        The table.
    a, b : str or tuple
        Header paths on ``axis``, each naming one header.
    axis : {"columns", "rows"}, default "columns"
        Where ``a`` and ``b`` are.
    at : str, tuple or None
        Header path on the other axis naming one line; None for every line.

    Returns
    -------
    float or Series
        One number when the other axis is narrowed to one line (or has only one), else a Series.

    Examples
    --------
    >>> df = build_frame({"columns": [["2019"], ["2020"]], "index": [["Revenue"], ["Costs"]],
    ...                   "values": [["1,000", "1,250"], ["800", "900"]]})
    >>> diff(df, "2020", "2019", at="revenue")
    250.0
    >>> diff(df, "revenue", "costs", axis="rows").tolist()
    [200.0, 350.0]
    """
    va, vb, single = _pair(df, a, b, axis, at)
    out = va - vb
    return _py(out.iloc[0]) if single else out


def ratio(df: pd.DataFrame, a: Path, b: Path, axis: Axis = "columns", at: Path | None = None) -> Any:
    """Ratio ``a / b`` between two headers of one axis (a plain ratio, not a percentage).

    Parameters
    ----------
    df : DataFrame
        The table.
    a, b : str or tuple
        Header paths on ``axis``; ``a`` is the numerator.
    axis : {"columns", "rows"}, default "columns"
        Where ``a`` and ``b`` are.
    at : str, tuple or None
        Header path on the other axis naming one line; None for every line.

    Returns
    -------
    float or Series

    Examples
    --------
    >>> df = build_frame({"columns": [["men"], ["women"]], "index": [["2019"]],
    ...                   "values": [["30", "120"]]})
    >>> ratio(df, "men", "women")
    0.25
    """
    va, vb, single = _pair(df, a, b, axis, at)
    out = va / vb.where(vb != 0)
    return _py(out.iloc[0]) if single else out


def pct_change(df: pd.DataFrame, old: Path, new: Path, axis: Axis = "columns", at: Path | None = None) -> Any:
    """Percentage change from ``old`` to ``new``: ``(new - old) / old * 100``.

    Parameters
    ----------
    df : DataFrame
        The table.
    old, new : str or tuple
        Header paths on ``axis`` (e.g. two years).
    axis : {"columns", "rows"}, default "columns"
        Where ``old`` and ``new`` are.
    at : str, tuple or None
        Header path on the other axis naming one line; None for every line.

    Returns
    -------
    float or Series
        In percent (25.0 means +25 %).

    Examples
    --------
    >>> df = build_frame({"columns": [["2019"], ["2020"]], "index": [["Revenue"]],
    ...                   "values": [["$1,000", "$1,250"]]})
    >>> pct_change(df, "2019", "2020", at="revenue")
    25.0
    """
    vo, vn, single = _pair(df, old, new, axis, at)
    out = (vn - vo) / vo.where(vo != 0) * 100
    return _py(out.iloc[0]) if single else out


_OPS = ("==", "!=", ">", ">=", "<", "<=", "contains", "startswith", "endswith", "in", "not in")


# A number as cells write it: a sign, thousands commas, decimals.
_NUMBER = r"[-\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
# A number followed by a unit or suffix that holds no digit: "113.6 m", "16 km²", "1st", "3 goals".
_QUANTITY = re.compile(rf"\s*({_NUMBER})\s*([^\d\s:/.,(][^\d:/]*)")


def cell_number(cell: Any) -> float | None:
    """A cell's number for a comparison: as :func:`tableqa.text.parse_number` reads it, else the number
    of a quantity written with its unit or suffix after it; None when neither.

    Examples
    --------
    >>> [cell_number(x) for x in ("1,234", "113.6 m", "16 km²", "1st", "12 (3)", "3:20.5", "2010/11", "m")]
    [1234.0, 113.6, 16.0, 1.0, None, None, None, None]
    """
    value = parse_number(_py(cell))
    if value is not None or not isinstance(cell, str):
        return value
    m = _QUANTITY.fullmatch(cell)
    return None if m is None else float(m.group(1).replace(",", "").replace("\u2212", "-"))


def _cell_test(op: str, value: Any) -> Any:
    if op in ("in", "not in"):
        options = list(value) if isinstance(value, (list, tuple, set)) else [value]
        tests = [_cell_test("==", v) for v in options]
        if op == "in":
            return lambda x: any(t(x) for t in tests)
        return lambda x: not any(t(x) for t in tests)
    if op in ("contains", "startswith", "endswith"):
        needle = label_key(value)
        if op == "contains":
            return lambda x: needle in label_key(x)
        if op == "startswith":
            return lambda x: label_key(x).startswith(needle)
        return lambda x: label_key(x).endswith(needle)
    num = parse_number(_py(value)) if not isinstance(value, str) or value.strip() else None
    if op in ("==", "!="):
        key = label_key(value)

        def equal(x: Any) -> bool:
            xv = cell_number(x)
            if num is not None and xv is not None and not math.isnan(num) and not math.isnan(xv):
                return abs(num - xv) < 1e-9
            return label_key(x) == key

        return equal if op == "==" else (lambda x: not equal(x))
    if num is None or math.isnan(num):
        raise ValueError(f"operator {op!r} needs a number, not {value!r}")
    target = num

    def compare_num(x: Any) -> bool:
        xv = cell_number(x)
        if xv is None or math.isnan(xv):
            return False
        return {">": xv > target, ">=": xv >= target, "<": xv < target, "<=": xv <= target}[op]

    return compare_num


def filter_rows(df: pd.DataFrame, column: Path, op: str, value: Any, *more: Any) -> pd.DataFrame:
    """Rows whose value in ``column`` satisfies ``op value``.

    Equality compares numbers by value when both sides read as numbers, otherwise text ignoring
    case, spacing and punctuation. Both read numbers from cell text (:func:`cell_number`: also a
    quantity with its unit or suffix after it, ``113.6 m`` or ``1st``). Text that no cell equals
    selects the cells that hold it as whole words ("Los Angeles" the cell "United States, Los
    Angeles"), and a note on stderr says so. A comparison (``>``, ``<``, …) on a column whose cells each
    give one quantity in two units with the same first unit (``"10,080 ft\\n3072 m"``, ``"3,072 m (10,080
    ft)"``) reads each cell's first number, and says so too.

    Parameters
    ----------
    df : DataFrame
        The table.
    column : str or tuple
        Column header path (tolerant).
    op : {"==", "!=", ">", ">=", "<", "<=", "contains", "startswith", "endswith", "in", "not in"}
        The test.
    value : object
        What to compare with; a list for ``in``/``not in``.

    Returns
    -------
    DataFrame
        The matching rows, in table order.

    Examples
    --------
    >>> df = build_frame({"columns": [["Nation"], ["Gold"]], "index": [],
    ...                   "values": [["Norway", "16"], ["Germany", "12"], ["Canada", "14"]]})
    >>> filter_rows(df, "gold", ">=", 14)["Nation"].tolist()
    ['Norway', 'Canada']
    >>> len(filter_rows(df, "nation", "==", "GERMANY"))
    1

    Notes
    -----
    More conditions may follow, each as column, op and value; a row is kept when all of them hold.

    >>> filter_rows(df, "gold", ">=", 12, "nation", "!=", "Norway")["Nation"].tolist()
    ['Germany', 'Canada']
    """
    keep = [True] * df.shape[0]
    for col, test_op, test_value, test in _conditions(column, op, value, more):
        cells = column_of(df, col)
        hits = [bool(test(x)) for x in cells.tolist()]
        if df.shape[0] and not any(hits) and test_op == "==":
            hits = _word_hits(cells.tolist(), test_value)
            said = f"filter_rows(df, {col!r}, '==', {test_value!r}) matched no row"
            if any(hits):
                held = [x for x, h in zip(cells.tolist(), hits, strict=True) if h]
                shown = ", ".join(repr(x) for x in dict.fromkeys(held))
                how = f"{said} exactly; read as the cells that hold it as words: {shown}"
                trace.record_reading(how)
                print(f"note: {how}", file=sys.stderr)
            else:
                codes = (
                    f"filter_rows(df, {col!r}, 'contains', {{}})",
                    f"filter_rows(df, {col!r}, '==', {{}})",
                )
                detail = unmatched_detail(cells, test_value, *codes) or elsewhere_detail(
                    [("df", df)], test_value
                )
                trace.record_unmatched(said + detail)
        elif df.shape[0] and not any(hits) and test_op in (">", ">=", "<", "<="):
            unread = _unread_numbers(cells.tolist())
            firsts = _first_quantities(cells.tolist()) if unread else None
            shown = show_key(tuple(col) if isinstance(col, list) else col)
            if firsts is not None:
                numbers, unit = firsts
                hits = [x is not None and bool(test(x)) for x in numbers]
                said = f"filter_rows(df, {col!r}, {test_op!r}, {test_value!r})"
                how = (
                    f"{said} read the cells of {shown}, which give each quantity in two units "
                    f"({unread[0]!r}), by their first number, in {unit}"
                )
                trace.record_reading(how)
                print(f"note: {how}", file=sys.stderr)
            elif unread:
                first = f'df[{shown}].str.replace(",", ""){EXTRACT_NUMBER}'
                trace.record_unmatched(
                    f"filter_rows(df, {col!r}, {test_op!r}, {test_value!r}) matched no row: the cells of "
                    f"{shown} hold several numbers each ({', '.join(map(repr, unread))}), which it "
                    "does not read as one; compare the number meant, e.g. the first of each: "
                    f"df[{first} {test_op} {test_value!r}]"
                )
        keep = [k and h for k, h in zip(keep, hits, strict=True)]
    return df.iloc[[i for i, k in enumerate(keep) if k], :]


# Cells shown in the note on a column whose cells hold several numbers.
UNREAD_SHOWN = 2


def _unread_numbers(cells: list[Any]) -> list[str]:
    """Some cells of a column, when most of its non-blank cells are text that holds digits but reads as no
    one number (a measure and its conversion, ``"10,080 ft\\n3072 m"``); else none.

    Examples
    --------
    >>> _unread_numbers(["14,505 ft\\n4421 m", "10,080 ft\\n3072 m", ""])
    ['14,505 ft\\n4421 m', '10,080 ft\\n3072 m']
    >>> _unread_numbers(["113.6 m", "n/a", "12"])
    []
    """
    texts = [x for x in cells if isinstance(x, str) and not is_blank_cell(x)]
    unread = [x for x in texts if re.search(r"\d", x) and cell_number(x) is None]
    if not texts or len(unread) * 2 <= len(texts):
        return []
    return list(dict.fromkeys(unread))[:UNREAD_SHOWN]


# One quantity given in two units, the second a conversion of the first: "10,080 ft\n3072 m",
# "3,072 m (10,080 ft)", "5 km / 3.1 mi". Each side is one number and a unit that holds no digit.
_TWO_UNITS = re.compile(
    rf"\s*({_NUMBER})\s*([^\d\s:/.,()\[\]][^\d:/()\[\]\n]*?)\s*(?:\n|/|;|\()\s*{_NUMBER}\s*[^\d\s:/.,()][^\d()]*?\)?\s*"
)


def _first_quantities(cells: list[Any]) -> tuple[list[float | None], str] | None:
    """The first number of each cell and their unit, when the column's non-blank cells each give one
    quantity in two units with the same first unit (``"10,080 ft\\n3072 m"``: 10080 in ft); else None.
    Blank cells read as None.

    Examples
    --------
    >>> _first_quantities(["14,505 ft\\n4421 m", "10,080 ft\\n3072 m", ""])
    ([14505.0, 10080.0, None], 'ft')
    >>> _first_quantities(["3,072 m (10,080 ft)", "511 m (1,677 ft)"])
    ([3072.0, 511.0], 'm')
    >>> _first_quantities(["6 ft 2 in (1.88 m)", "5 ft 11 in (1.80 m)"]) is None
    True
    >>> _first_quantities(["5 km / 3.1 mi", "8 mi / 12.9 km"]) is None
    True
    """
    numbers: list[float | None] = []
    units: set[str] = set()
    for cell in cells:
        if not isinstance(cell, str) or is_blank_cell(cell):
            numbers.append(None)
            continue
        m = _TWO_UNITS.fullmatch(cell)
        if m is None:
            return None
        numbers.append(float(m.group(1).replace(",", "").replace("\u2212", "-")))
        units.add(m.group(2).strip().lower())
    return (numbers, units.pop()) if len(units) == 1 else None


def _word_hits(cells: list[Any], value: Any) -> list[bool]:
    """Which cells hold a text value as whole words ("Los Angeles" in "United States, Los Angeles"), case,
    spacing and punctuation ignored; none for a value that is no text or reads as a number.

    Examples
    --------
    >>> _word_hits(["United States, Los Angeles", "Canada, Saskatoon", "Angelesville"], "los angeles")
    [True, False, False]
    >>> _word_hits(["Route 12", "Route 1"], "1"), _word_hits(["a"], 3)
    ([False, False], [False])
    """
    if not isinstance(value, str) or cell_number(value) is not None:
        return [False] * len(cells)
    key = label_key(value)
    if not key:
        return [False] * len(cells)
    return [isinstance(x, str) and f" {key} " in f" {label_key(x)} " for x in cells]


# Cells shown in the note on a condition that matched no row.
UNMATCHED_CELLS = 3


def unmatched_detail(
    cells: pd.Series, value: Any, contains_code: str = "", equals_code: str = "", exact_code: str = ""
) -> str:
    """What the cells of a column hold instead of a text value no cell equals: the cells that contain it,
    else the closest ones, as a clause to follow the condition; ``""`` when neither.

    ``contains_code`` and ``equals_code`` are the condition written as a search for the text that ignores
    case and as a comparison with a cell, ``{}`` standing for the text; ``exact_code`` a search that keeps
    case. Given, the clause ends with the code that selects the cells meant (a small model follows code
    more readily than advice). The cells named are those that hold the text as whole words where some do,
    else those that contain it; a search is shown only when it selects exactly them ("NC" ignoring case
    would also find "Encino, CA": then the search that keeps case is shown, or none).

    Examples
    --------
    >>> import pandas as pd
    >>> unmatched_detail(pd.Series(["Raleigh, NC", "Boston, MA", "Durham, NC"], name="Town"), "nc")
    "; cells of 'Town' that contain it: 'Raleigh, NC', 'Durham, NC'"
    >>> unmatched_detail(pd.Series(["Yukon", "Nunavut"], name="Province"), "Yukonn")
    "; the closest cells of 'Province': 'Yukon'"
    >>> unmatched_detail(pd.Series(["Yukon", "Nunavut"], name="P"), "Yukonn", "x.has({})", "x == {}")
    "; the closest cells of 'P': 'Yukon' (write x == 'Yukon')"
    >>> towns = pd.Series(["Kinston, NC", "Encino, CA"], name="T")
    >>> print(unmatched_detail(towns, "NC", "T.has({}, case=False)", "", "T.has({})").split("; ")[1])
    cells of 'T' that contain it: 'Kinston, NC' (select them with T.has('NC'))
    """
    import difflib

    if not isinstance(value, str) or not value.strip():
        return ""
    texts = [x for x in dict.fromkeys(cells.tolist()) if isinstance(x, str) and x.strip()]
    key = label_key(value)
    name = show_key(cells.name) if cells.name is not None else "the column"
    holding = [x for x in texts if key and key in label_key(x)]
    if holding:
        words = [x for x, hit in zip(texts, _word_hits(texts, value), strict=True) if hit]
        meant = set(words or holding)
        code = ""
        exact = _searches_selecting(texts, value, meant)
        for template, case in ((contains_code, False), (exact_code, True)):
            if template and case in exact:
                code = f" (select them with {template.replace('{}', repr(value))})"
                break
        shown = ", ".join(map(repr, [x for x in holding if x in meant][:UNMATCHED_CELLS]))
        return f"; cells of {name} that contain it: {shown}{code}"
    close = difflib.get_close_matches(value, texts, n=UNMATCHED_CELLS, cutoff=0.6)
    if close:
        code = f" (write {equals_code.replace('{}', repr(close[0]))})" if equals_code else ""
        return f"; the closest cells of {name}: {', '.join(map(repr, close))}{code}"
    return ""


def _conditions(column: Path, op: str, value: Any, more: tuple[Any, ...]) -> list[tuple[Path, str, Any, Any]]:
    """The conditions of a filter, each as column, op, value and its cell test: the first condition and
    any that follow as triples."""
    if len(more) % 3:
        raise TypeError(
            "conditions after the first come in threes: column, op, value "
            f"(got {len(more)} more argument{'' if len(more) == 1 else 's'})"
        )
    triples = [(column, op, value)] + [(more[i], more[i + 1], more[i + 2]) for i in range(0, len(more), 3)]
    out = []
    for col, test_op, test_value in triples:
        if not isinstance(test_op, str) or test_op not in _OPS:
            said = f"op must be one of {', '.join(_OPS)}; not {test_op!r}"
            # The op and the value written the other way round: the call as it was meant.
            if isinstance(test_value, str) and test_value in _OPS:
                said += f" (the op comes before the value: {show_key(col)}, {test_value!r}, {test_op!r})"
            raise ValueError(said)
        out.append((col, test_op, test_value, _cell_test(test_op, test_value)))
    return out


def column_of(df: pd.DataFrame, name: Path) -> pd.Series:
    c = resolve_one(_keys(df, 1), name, 1)
    series: pd.Series = df.iloc[:, c.position]
    return series


def count(df: pd.DataFrame, column: Path | None = None, op: str = "==", value: Any = None, *more: Any) -> int:
    """Number of rows, or of rows whose ``column`` satisfies ``op value`` (as in :func:`filter_rows`).

    Parameters
    ----------
    df : DataFrame
        The table.
    column : str, tuple or None
        Column header path; None counts every row.
    op : str, default "=="
        Test, as for :func:`filter_rows`.
    value : object
        What to compare with.

    Returns
    -------
    int

    Examples
    --------
    >>> df = build_frame({"columns": [["Venue"], ["Result"]], "index": [],
    ...                   "values": [["Home", "Won"], ["Away", "Lost"], ["Home", "won"]]})
    >>> count(df, "result", "==", "won")
    2

    Notes
    -----
    More conditions may follow, as for :func:`filter_rows`; a row counts when all of them hold.

    >>> count(df, "result", "==", "won", "venue", "==", "home")
    2
    """
    if column is None:
        return int(df.shape[0])
    return int(filter_rows(df, column, op, value, *more).shape[0])


def value_of(df: pd.DataFrame, key_column: Path, key: Any, column: Path) -> Any:
    """The value in ``column`` of the row whose ``key_column`` equals ``key`` (tolerant).

    Parameters
    ----------
    df : DataFrame
        The table.
    key_column : str or tuple
        Column that identifies rows.
    key : object
        Value to find in ``key_column`` (text compared ignoring case and punctuation).
    column : str or tuple
        Column to read.

    Returns
    -------
    object
        The value of the first matching row.

    Examples
    --------
    >>> df = build_frame({"columns": [["Nation"], ["Gold"]], "index": [],
    ...                   "values": [["Norway", "16"], ["Germany", "12"]]})
    >>> value_of(df, "nation", "germany", "gold")
    12
    """
    rows = filter_rows(df, key_column, "==", key)
    if rows.shape[0] == 0:
        raise _no_row(df, key_column, key, column)
    c = resolve_one(_keys(df, 1), column, 1)
    i = _positions_where(df, key_column, key)[0]
    record_read(df, [i], [c.position])
    return _py(df.iat[i, c.position])


# Most cells scanned when looking for the column that holds a value.
HOLDER_SCAN_CELLS = 200_000
# Columns named in a note on where a value stands.
HOLDERS_SHOWN = 3


def columns_holding(df: pd.DataFrame, value: Any) -> list[Hashable]:
    """The column keys of ``df`` with a cell that is ``value`` as text (case, spacing and punctuation
    ignored), for a value that is a word or a name, not a number; ``[]`` for numbers, blanks and tables too
    large to scan. A value a program used as a header or as a row key of the wrong column is often a cell:
    the note names where it stands.

    Examples
    --------
    >>> df = build_frame({"columns": [["Team"], ["County"]], "index": [],
    ...                   "values": [["Crettyard", "Laois"], ["Confey", "Kildare"]]})
    >>> columns_holding(df, "crettyard"), columns_holding(df, "Meath"), columns_holding(df, 2)
    (['Team'], [], [])
    """
    if not isinstance(value, str) or not any(c.isalpha() for c in value):
        return []
    if df.shape[0] * df.shape[1] > HOLDER_SCAN_CELLS:
        return []
    key = label_key(value)
    if not key:
        return []
    found: list[Hashable] = []
    for j, col in enumerate(df.columns):
        cells = df.iloc[:, j].tolist()
        if any(isinstance(x, str) and label_key(x) == key for x in cells):
            found.append(col)
    return found


def holder_note(df: pd.DataFrame, value: Any, name: str = "df") -> str:
    """Where a value that is no header stands as a cell, and how its row is selected, to follow "… is";
    ``""`` when it is no cell of ``df``. The code compares with the cell as the table writes it; a value
    that no cell is but that some cells hold as whole words ("Los Angeles" in "United States, Los
    Angeles") is named as part of them, with the search that selects exactly those cells where there is one.

    Examples
    --------
    >>> df = build_frame({"columns": [["Hand"], ["5 credits"]], "index": [],
    ...                   "values": [["Full house", "40"], ["Flush", "30"]]})
    >>> holder_note(df, "full house")
    "a cell of column 'Hand': select its row with df[df['Hand'] == 'Full house']"
    >>> towns = build_frame({"columns": [["City"]], "index": [], "values": [["United States, Los Angeles"]]})
    >>> print(holder_note(towns, "los angeles").replace(": ", ":\\n"))
    part of a cell of column 'City' ('United States, Los Angeles'):
    select its row with df[df['City'].str.contains('los angeles', case=False)]
    """
    holders = columns_holding(df, value)
    if holders:
        shown = [show_key(k) for k in holders[:HOLDERS_SHOWN]]
        where = "column " + shown[0] if len(shown) == 1 else "columns " + ", ".join(shown)
        key = label_key(value)
        first = next(j for j, col in enumerate(df.columns) if col == holders[0])
        cells = df.iloc[:, first].tolist()
        cell = next((x for x in cells if isinstance(x, str) and label_key(x) == key), value)
        return f"a cell of {where}: select its row with {name}[{name}[{shown[0]}] == {cell!r}]"
    return _part_of_cells_note(df, value, name)


def elsewhere_detail(tables: Iterable[tuple[str, pd.DataFrame]], value: Any) -> str:
    """Where a text value that no cell of the column a condition read holds stands in the program's tables
    (``tables`` as variable name and table), as a clause to follow the condition (see
    :func:`unmatched_detail`); ``""`` when it stands nowhere. A small model often compares a name with the
    wrong column; the clause names the right one and selects the row there.

    Examples
    --------
    >>> df = build_frame({"columns": [["Operators"], ["Named trains"]], "index": [],
    ...                   "values": [["Reading", "Crusader"], ["Baltimore and Ohio", "Royal Blue"]]})
    >>> print(elsewhere_detail([("df", df)], "royal blue").replace(": ", ":\\n"))
    ; 'royal blue' is a cell of column 'Named trains':
    select its row with df[df['Named trains'] == 'Royal Blue']
    >>> elsewhere_detail([("df", df)], "Blue Comet")
    ''
    """
    for name, table in tables:
        note = holder_note(table, value, name)
        if note:
            return f"; {value!r} is {note}"
    return ""


def _searches_selecting(texts: list[str], value: str, meant: set[str]) -> set[bool]:
    """Which searches for ``value`` as part of a cell select exactly the cells ``meant`` among ``texts``:
    True for the one that keeps case, False for the one that ignores it."""
    return {
        case
        for case in (True, False)
        if {x for x in texts if (value in x if case else value.lower() in x.lower())} == meant
    }


def _part_of_cells_note(df: pd.DataFrame, value: Any, name: str) -> str:
    """Where a text value stands as whole words of cells, in the first column that holds it so (see
    :func:`holder_note`); ``""`` when none does."""
    if not isinstance(value, str) or not any(c.isalpha() for c in value):
        return ""
    if df.shape[0] * df.shape[1] > HOLDER_SCAN_CELLS:
        return ""
    for j, col in enumerate(df.columns):
        texts = [x for x in dict.fromkeys(df.iloc[:, j].tolist()) if isinstance(x, str)]
        meant = {x for x, hit in zip(texts, _word_hits(texts, value), strict=True) if hit}
        if not meant:
            continue
        label = show_key(col)
        shown = ", ".join(repr(x) for x in [x for x in texts if x in meant][:UNMATCHED_CELLS])
        more = f" and {len(meant) - UNMATCHED_CELLS} more" if len(meant) > UNMATCHED_CELLS else ""
        said = f"part of a cell of column {label} ({shown}{more})"
        # A pattern character would make the search a pattern: then no code is shown.
        exact = (
            _searches_selecting(texts, value, meant)
            if not re.search(r"[.^$*+?{}\[\]\\|()]", value)
            else set()
        )
        for case, keyword in ((True, ""), (False, ", case=False")):
            if case in exact:
                return f"{said}: select its row with {name}[{name}[{label}].str.contains({value!r}{keyword})]"
        return said
    return ""


def show_key(key: Hashable) -> str:
    """A header key as a program writes it: the label, or the tuple of its non-blank parts."""
    if isinstance(key, tuple):
        parts = tuple(x for x in key if str(x).strip())
        return repr(parts[0]) if len(parts) == 1 else repr(parts)
    return repr(key)


# Cells of the key column shown when none is close to the key asked for.
NO_ROW_CELLS = 5


def _no_row(df: pd.DataFrame, key_column: Path, key: Any, column: Any = None) -> LookupError:
    """The error for a key no row of ``key_column`` has: the column's close values, or some of its cells;
    where the key is a comparison (``"=="``, ``">="``), that rows are selected with :func:`filter_rows`;
    and where it is a column header (a table that lists its months, or years, across the columns), how
    its value is read in a row (``column``, the column the call meant to read, naming that row when it
    is a cell of ``key_column``).

    Examples
    --------
    >>> df = build_frame({"columns": [["Place"], ["Venue"]], "index": [],
    ...                   "values": [["1st", "Oslo"], ["3rd", "Rome"]]})
    >>> str(_no_row(df, "place", "1"))
    "No row has '1' in column 'place'. Close values: '1st'."
    >>> str(_no_row(df, "place", "2"))
    "No row has '2' in column 'place'. Its cells include: '1st', '3rd'."
    >>> str(_no_row(df, "venue", "==")).endswith("op, value) selects rows by a condition.")
    True
    >>> wide = build_frame({"columns": [["Month"], ["Jan"], ["Dec"]], "index": [],
    ...                     "values": [["Record high", "12", "14"], ["Snowy days", "9", "7"]]})
    >>> said = str(_no_row(wide, "Month", "dec", "snowy days")).split(". ", 2)[2]
    >>> print(said.replace(": ", ":\\n").replace("; ", ";\\n"))
    'dec' is a column header, not a cell:
    this table lists 'dec' across its columns and names its rows in column 'Month';
    read one of its values with df.loc[df['Month'] == 'Snowy days', 'Dec'].
    """
    import difflib

    keys = list(dict.fromkeys(_cell_text(v) for v in column_of(df, key_column).tolist() if not _no_value(v)))
    close = difflib.get_close_matches(str(key), keys, n=5, cutoff=0.5)
    if close:
        hint = f" Close values: {', '.join(map(repr, close))}."
    else:
        shown = ", ".join(repr(k) for k in keys[:NO_ROW_CELLS])
        more = f" and {len(keys) - NO_ROW_CELLS} more" if len(keys) > NO_ROW_CELLS else ""
        hint = f" Its cells include: {shown}{more}." if keys else ""
    holders = [k for k in columns_holding(df, key) if not _same_column(df, k, key_column)]
    if holders:
        shown = ", ".join(show_key(k) for k in holders[:HOLDERS_SHOWN])
        hint += f" {key!r} is in column {shown}: name that column as the key column."
    if isinstance(key, str) and key.strip() in _OPS:
        hint += (
            f" {key!r} is a comparison, not a value: the key is the cell that names the row, and "
            "filter_rows(df, column, op, value) selects rows by a condition."
        )
    elif isinstance(key, str) and key.strip():
        hint += _header_key_note(df, key_column, key, column, keys)
    return LookupError(f"No row has {key!r} in column {key_column!r}.{hint}")


def _header_key_note(df: pd.DataFrame, key_column: Path, key: str, column: Any, cells: list[str]) -> str:
    """For a key that names a column header of ``df`` (see :func:`_no_row`), how its value is read in a
    row of ``key_column`` (whose cells are ``cells``); ``""`` for a key that names none, or several."""
    found = match_header(_keys(df, 1), key)
    if len(found) != 1 or not cells:
        return ""
    header = show_key(found[0].key)
    wanted = label_key(column) if isinstance(column, str) else ""
    row = next((x for x in cells if wanted and label_key(x) == wanted), None)
    row = row if row is not None else next((x for x in cells if x.strip()), cells[0])
    return (
        f" {key!r} is a column header, not a cell: this table lists {key!r} across its columns and names its "
        f"rows in column {key_column!r}; read one of its values with df.loc[df[{key_column!r}] == {row!r}, "
        f"{header}]."
    )


def _same_column(df: pd.DataFrame, key: Hashable, path: Path) -> bool:
    """Whether the column ``key`` of ``df`` is the one ``path`` names."""
    try:
        return _keys(df, 1)[resolve_one(_keys(df, 1), path, 1, by_question=False).position] == key
    except (HeaderNotFound, AmbiguousHeader):
        return False


def _positions_where(df: pd.DataFrame, key_column: Path, key: Any) -> list[int]:
    test = _cell_test("==", key)
    return [i for i, x in enumerate(column_of(df, key_column).tolist()) if test(x)]


def next_value(
    df: pd.DataFrame, key_column: Path, key: Any, offset: int = 1, column: Path | None = None
) -> Any:
    """The value ``offset`` rows after (negative: before) the row whose ``key_column`` equals ``key``.
    Only rows that hold a value in the column read are counted: a row whose cell there is empty or a
    "no value" mark ("N/A", "—") is passed over.

    Parameters
    ----------
    df : DataFrame
        The table.
    key_column : str or tuple
        Column that identifies rows.
    key : object
        Value to find.
    offset : int, default 1
        Rows to move; -1 for the previous row.
    column : str, tuple or None
        Column to read; None reads ``key_column``.

    Returns
    -------
    object

    Examples
    --------
    >>> df = build_frame({"columns": [["Rank"], ["Athlete"]], "index": [],
    ...                   "values": [["1", "Ann"], ["2", "Bea"], ["3", "Cid"]]})
    >>> next_value(df, "athlete", "Bea"), next_value(df, "athlete", "Bea", -1, "rank")
    ('Cid', 1)
    >>> gap = build_frame({"columns": [["Rank"], ["Athlete"]], "index": [],
    ...                    "values": [["1", "Ann"], ["", "N/A"], ["2", "Bea"]]})
    >>> next_value(gap, "athlete", "Ann"), next_value(gap, "athlete", "Bea", -1, "rank")
    ('Bea', 1.0)
    """
    hits = _positions_where(df, key_column, key)
    if not hits:
        raise _no_row(df, key_column, key, column)
    c = resolve_one(_keys(df, 1), key_column if column is None else column, 1)
    step = 1 if offset >= 0 else -1
    target, left = hits[0], abs(offset)
    while left > 0:
        target += step
        if not 0 <= target < df.shape[0]:
            raise IndexError(f"No row {offset:+d} from {key!r}: the table has {df.shape[0]} rows.")
        if not _no_value(df.iat[target, c.position]):
            left -= 1
    record_read(df, [target], [c.position])
    return _py(df.iat[target, c.position])


def _cell_text(cell: object) -> str:
    """A cell as text, a whole number without its decimal point (``1918``, not ``1918.0``)."""
    if isinstance(cell, float) and cell.is_integer() and abs(cell) < 2**53:
        return str(int(cell))
    return str(cell)


def _no_value(cell: object) -> bool:
    """Whether a cell holds no value: missing, or text that marks a missing value ("N/A", "—")."""
    if isinstance(cell, str):
        return is_blank_cell(cell)
    return cell is None or (isinstance(cell, float) and math.isnan(cell))


def top_k(df: pd.DataFrame, by: Path, k: int = 1, largest: bool = True) -> pd.DataFrame:
    """The ``k`` rows with the largest (or smallest) numbers in column ``by``.

    Parameters
    ----------
    df : DataFrame
        The table.
    by : str or tuple
        Column header path; its cells are read as numbers.
    k : int, default 1
        How many rows.
    largest : bool, default True
        False for the smallest.

    Returns
    -------
    DataFrame
        Rows in ranked order; rows without a number are left out.

    Examples
    --------
    >>> df = build_frame({"columns": [["City"], ["Population"]], "index": [],
    ...                   "values": [["A", "1,200"], ["B", "5,000"], ["C", "300"]]})
    >>> top_k(df, "population", 2)["City"].tolist()
    ['B', 'A']
    """
    values = to_number(column_of(df, by)).reset_index(drop=True)
    values = values.dropna()
    order = values.sort_values(ascending=not largest, kind="stable").index[:k]
    return df.iloc[list(order), :]


def compare(
    df: pd.DataFrame, key_column: Path, a: Any, b: Any, value_column: Path, larger: bool = True
) -> Any:
    """Which of two rows (found by key) has the larger (or smaller) number in ``value_column``.

    Parameters
    ----------
    df : DataFrame
        The table.
    key_column : str or tuple
        Column identifying rows.
    a, b : object
        The two keys.
    value_column : str or tuple
        Column whose numbers are compared.
    larger : bool, default True
        False to pick the smaller.

    Returns
    -------
    object
        ``a`` or ``b`` as found in the table.

    Examples
    --------
    >>> df = build_frame({"columns": [["Nation"], ["Gold"]], "index": [],
    ...                   "values": [["Norway", "16"], ["Germany", "12"]]})
    >>> compare(df, "nation", "germany", "norway", "gold")
    'Norway'

    Notes
    -----
    The two keys must name different rows: a row compared with itself is refused with a ValueError that
    points to :func:`next_value` for the row before or after it.
    """
    if label_key(a) == label_key(b):
        raise ValueError(
            f"compare() compares two different rows, but both keys are {a!r}: name the other row as b. "
            f"For the row before or after {a!r}, use next_value(df, {key_column!r}, {a!r}, offset) "
            "(offset -1 before, 1 after)"
        )
    va = _num(value_of(df, key_column, a, value_column))
    vb = _num(value_of(df, key_column, b, value_column))
    pick_a = va >= vb if larger else va <= vb
    return value_of(df, key_column, a if pick_a else b, key_column)

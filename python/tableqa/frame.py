"""Build a pandas DataFrame from a ParsedTable payload (the JSON the host sends).

Top header tuples become the columns (a MultiIndex when there are several levels), left header
tuples the row index, and each data column holds what the source stores (see :mod:`tableqa.columns`):
numbers, dates, truth values, text, NaN/None/NaT where a value is missing. The cell text as the source
shows it and the source cell of every data cell stay with the frame, for display and answer provenance.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .columns import Column, read_columns
from .rows import header_tuples, rows_view

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["TableSource", "build_frame", "raw_frame", "rows_view", "source_of"]


class TableSource:
    """Where a frame's data came from: raw text and source cells, shared by every derived frame.

    Stored in ``df.attrs["source"]``. pandas deep-copies ``attrs`` into derived objects, so this
    object returns itself from ``__deepcopy__`` to keep that cheap.
    """

    def __init__(
        self, name: str, raw: pd.DataFrame, row_source: Sequence[int], col_source: Sequence[int]
    ) -> None:
        self.name = name
        self.raw = raw
        self.row_source = list(row_source)
        self.col_source = list(col_source)
        self._row_pos: dict[Hashable, list[int]] | None = None
        self._col_pos: dict[Hashable, list[int]] | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> TableSource:
        return self

    def __repr__(self) -> str:
        return f"TableSource({self.name!r}, shape={self.raw.shape})"

    def _positions(self) -> tuple[dict[Hashable, list[int]], dict[Hashable, list[int]]]:
        if self._row_pos is None or self._col_pos is None:
            rows: dict[Hashable, list[int]] = {}
            for i, key in enumerate(self.raw.index.tolist()):
                rows.setdefault(key, []).append(i)
            cols: dict[Hashable, list[int]] = {}
            for j, key in enumerate(self.raw.columns.tolist()):
                cols.setdefault(key, []).append(j)
            self._row_pos, self._col_pos = rows, cols
        return self._row_pos, self._col_pos

    def cells(self, row_key: Hashable | None, col_key: Hashable | None) -> list[dict[str, int]]:
        """Source cells ``{"row", "col"}`` of the data cells at these labels (None: the whole line)."""
        rows, cols = self._positions()
        try:
            ri = range(len(self.row_source)) if row_key is None else rows.get(row_key, [])
            ci = range(len(self.col_source)) if col_key is None else cols.get(col_key, [])
        except TypeError:  # unhashable label
            return []
        out: list[dict[str, int]] = []
        for i in ri:
            for j in ci:
                if i < len(self.row_source) and j < len(self.col_source):
                    out.append({"row": self.row_source[i], "col": self.col_source[j]})
        return out


def _axis_index(tuples: list[tuple[str, ...]], length: int) -> pd.Index:
    import pandas as pd

    if not tuples or all(len(t) == 0 for t in tuples) or len(tuples) != length:
        return pd.RangeIndex(length)
    if len(tuples[0]) == 1:
        return pd.Index([t[0] for t in tuples], dtype=object)
    return pd.MultiIndex.from_tuples(tuples)


def _column_data(column: Column, n_rows: int) -> Any:
    import pandas as pd

    if column.kind == "number":
        series = pd.Series(column.values, dtype="float64")
        whole = bool(n_rows) and not series.isna().any() and bool((series % 1 == 0).all())
        return series.astype("int64").to_numpy() if whole else series.to_numpy()
    if column.kind == "datetime":
        return pd.Series(column.values, dtype="datetime64[us]").to_numpy()
    if column.kind == "duration":
        return pd.Series(column.values, dtype="timedelta64[us]").to_numpy()
    if column.kind == "bool":
        return pd.Series(column.values, dtype="bool").to_numpy()
    return pd.array(column.values, dtype=object)


def build_frame(payload: Mapping[str, Any]) -> pd.DataFrame:
    """Turn a ParsedTable payload into a DataFrame with hierarchical headers.

    Parameters
    ----------
    payload : mapping
        ``columns`` (top header tuples, one per data column), ``index`` (left header tuples, one per
        data row; empty for a RangeIndex), ``values`` (cell text, row-major), optionally ``stored``
        (the stored values of typed sources, :mod:`tableqa.columns`), ``name``, ``title``, ``rowSource``
        and ``colSource``.

    Returns
    -------
    pandas.DataFrame
        One-level headers give a plain Index, deeper ones a MultiIndex. Numeric columns are int64 or
        float64 (missing marks such as ``—`` become NaN), date columns datetime64, text columns
        pandas' text dtype, mixed ones object; an empty cell and a database NULL are missing (NaN,
        None among mixed values, NaT among dates). ``df.attrs["source"]`` holds a
        :class:`TableSource` with the raw text (see :func:`raw_frame`) and source cells.

    Examples
    --------
    >>> table = {"name": "t", "columns": [["2019", "men"], ["2019", "women"]],
    ...          "index": [["employed"], ["unemployed"]],
    ...          "values": [["1,200", "1,100"], ["(12)", "\u2014"]]}
    >>> df = build_frame(table)
    >>> df.columns.tolist()
    [('2019', 'men'), ('2019', 'women')]
    >>> df.index.tolist()
    ['employed', 'unemployed']
    >>> int(df.loc["unemployed", ("2019", "men")])
    -12
    >>> raw_frame(df).loc["unemployed", ("2019", "women")]
    '—'
    >>> stored = build_frame({"columns": [["share"]], "index": [], "values": [["12%"]],
    ...                       "stored": [{"kinds": "N", "numbers": [0.123]}]})
    >>> float(stored.loc[0, "share"]), raw_frame(stored).loc[0, "share"]
    (0.123, '12%')
    """
    import pandas as pd

    values = payload.get("values") or []
    typed = read_columns(payload)
    n_rows, n_cols = len(values), len(typed)
    columns = _axis_index(header_tuples(payload.get("columns") or []), n_cols)
    index = _axis_index(header_tuples(payload.get("index") or []), n_rows)

    data: dict[int, Any] = {}
    raw: dict[int, list[str]] = {}
    for j, column in enumerate(typed):
        raw[j] = column.texts
        data[j] = _column_data(column, n_rows)
    df = pd.DataFrame(data, index=pd.RangeIndex(n_rows))
    df.index, df.columns = index, columns
    raw_df = pd.DataFrame(raw, index=pd.RangeIndex(n_rows), dtype=object)
    raw_df.index, raw_df.columns = index, columns
    row_source = payload.get("rowSource") or list(range(n_rows))
    col_source = payload.get("colSource") or list(range(n_cols))
    name = str(payload.get("name") or "")
    df.attrs["source"] = TableSource(name, raw_df, row_source, col_source)
    df.attrs["name"] = name
    # What the whole table is about (a year, a place): words a program may write that no header holds.
    df.attrs["title"] = str(payload.get("title") or "")
    return df


def source_of(obj: object) -> TableSource | None:
    """The :class:`TableSource` a pandas object was derived from, if any.

    Parameters
    ----------
    obj : object
        A DataFrame or Series (anything else gives None).

    Returns
    -------
    TableSource or None

    Examples
    --------
    >>> df = build_frame({"columns": [["a"]], "index": [], "values": [["1"]]})
    >>> source_of(df["a"]) is source_of(df)
    True
    """
    attrs = getattr(obj, "attrs", None)
    if isinstance(attrs, dict):
        src = attrs.get("source")
        if isinstance(src, TableSource):
            return src
    return None


def raw_frame(df: pd.DataFrame) -> pd.DataFrame:
    """The cell text behind a frame built by :func:`build_frame`, same index and columns.

    Parameters
    ----------
    df : pandas.DataFrame
        A frame from :func:`build_frame`, or one derived from it.

    Returns
    -------
    pandas.DataFrame
        Strings exactly as in the source table, restricted to ``df``'s rows and columns when they
        are still labels of the original.

    Examples
    --------
    >>> df = build_frame({"columns": [["Share"]], "index": [], "values": [["12%"]]})
    >>> int(df.loc[0, "Share"]), raw_frame(df).loc[0, "Share"]
    (12, '12%')
    """
    src = source_of(df)
    if src is None:
        raise ValueError("this frame was not built from a table (no attrs['source'])")
    raw = src.raw
    if df.shape == raw.shape and df.index.equals(raw.index) and df.columns.equals(raw.columns):
        return raw.copy()
    try:
        return raw.loc[df.index, df.columns].copy()
    except (KeyError, ValueError, TypeError) as exc:
        raise ValueError("this frame's labels no longer match its source table") from exc

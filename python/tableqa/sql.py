"""SQL API: run SQLite SQL over DataFrames (or lists of row dicts), as pandasql's ``sqldf`` does.

Each table the query names is copied into an in-memory SQLite database (stdlib ``sqlite3``) under its
variable name. Hierarchical column headers become flat names with levels joined by ``" | "`` (e.g.
``"2016 | men"``; quote them in SQL), and a row index that is not the default 0..n-1 becomes leading
columns named ``index`` (one level) or ``level_0``, ``level_1``, ... (several), as ``reset_index`` does.
"""

from __future__ import annotations

import datetime as dt
import inspect
import math
import re
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from .rows import flat_names, index_names

__all__ = ["SQLError", "sql_columns", "sqldf"]


class SQLError(ValueError):
    """The SQL query failed; the message names the tables and columns that exist."""


def _is_frame(value: object) -> bool:
    return type(value).__name__ == "DataFrame" and type(value).__module__.startswith("pandas")


def _is_rows(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(r, Mapping) for r in value)


def _cell(value: Any) -> Any:
    item = getattr(value, "item", None)
    if callable(item) and type(value).__module__ == "numpy":
        value = item()
    if value is None:
        return None
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, (int, float, str, bytes)):
        return value
    if type(value).__name__ in ("NAType", "NaTType"):
        return None
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat(sep=" ") if isinstance(value, dt.datetime) else value.isoformat()
    return str(value)


def _default_index(df: Any) -> bool:
    import pandas as pd

    idx = df.index
    return isinstance(idx, pd.RangeIndex) and idx.start == 0 and idx.step == 1 and idx.name is None


def sql_columns(df: Any) -> list[str]:
    """The column names a DataFrame gets in SQL.

    Parameters
    ----------
    df : DataFrame
        The frame.

    Returns
    -------
    list of str
        Row-index columns first (when the index is not the default one), then the data columns.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame([[1, 2]], columns=pd.MultiIndex.from_tuples([("2016", "men"), ("2016", "women")]),
    ...                   index=["employed"])
    >>> sql_columns(df)
    ['index', '2016 | men', '2016 | women']
    """
    return _frame_table(df)[0]


def _frame_table(df: Any) -> tuple[list[str], list[list[Any]]]:
    data_labels = df.columns.tolist()
    if _default_index(df):
        lead: list[str] = []
        index_cols: list[list[Any]] = []
    else:
        names = list(df.index.names)
        defaults = index_names(len(names))
        lead = [str(n) if n is not None else d for n, d in zip(names, defaults, strict=True)]
        index_cols = [df.index.get_level_values(k).tolist() for k in range(len(names))]
    names_all = flat_names([*lead, *data_labels])
    columns = [index_cols[k] for k in range(len(lead))]
    columns += [df.iloc[:, j].tolist() for j in range(df.shape[1])]
    rows = [list(r) for r in zip(*columns, strict=True)] if columns else []
    return names_all, rows


def _rows_table(rows: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[Any]]]:
    keys: dict[str, None] = {}
    for r in rows:
        keys.update(dict.fromkeys(map(str, r)))
    names = list(keys)
    return names, [[r.get(k) for k in names] for r in rows]


def _sql_type(values: list[Any]) -> str:
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, int) for v in present):
        return "INTEGER"
    if present and all(isinstance(v, (int, float)) for v in present):
        return "REAL"
    return "TEXT"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _load(conn: sqlite3.Connection, name: str, value: Any) -> list[str]:
    columns, rows = _frame_table(value) if _is_frame(value) else _rows_table(value)
    rows = [[_cell(v) for v in r] for r in rows]
    types = [_sql_type([r[j] for r in rows]) for j in range(len(columns))]
    spec = ", ".join(f"{_quote(c)} {t}" for c, t in zip(columns, types, strict=True))
    conn.execute(f"CREATE TABLE {_quote(name)} ({spec})")
    if rows and columns:
        marks = ", ".join("?" for _ in columns)
        conn.executemany(f"INSERT INTO {_quote(name)} VALUES ({marks})", rows)
    return columns


def _caller_env() -> dict[str, Any]:
    frame = inspect.currentframe()
    try:
        caller = frame.f_back.f_back if frame and frame.f_back else None
        if caller is None:
            return {}
        return {**caller.f_globals, **caller.f_locals}
    finally:
        del frame


def sqldf(query: str, env: Mapping[str, Any] | None = None) -> Any:
    """Run a SQLite query over the DataFrames in scope, pandasql style.

    Parameters
    ----------
    query : str
        SQLite SQL. Tables are the DataFrame variables it names (``df``, ``orders``, ...).
        Hierarchical columns are flattened to ``"level1 | level2"``; a non-default row index becomes
        leading columns ``index`` or ``level_0``, ``level_1``, ... Quote names with spaces: ``"2016 | men"``.
    env : mapping, optional
        Where to look the tables up; by default the caller's variables.

    Returns
    -------
    DataFrame
        The query result (a list of row dicts when pandas is not installed).

    Raises
    ------
    SQLError
        When SQLite rejects the query; the message lists the tables and their columns.

    Examples
    --------
    >>> import pandas as pd
    >>> singer = pd.DataFrame({"name": ["Ann", "Bo", "Cy"], "age": [31, 25, 40]})
    >>> sqldf("SELECT name FROM singer WHERE age > 30 ORDER BY age DESC")["name"].tolist()
    ['Cy', 'Ann']
    """
    scope = dict(env) if env is not None else _caller_env()
    conn = sqlite3.connect(":memory:")
    loaded: dict[str, list[str]] = {}
    try:
        for name, value in scope.items():
            if not isinstance(name, str) or name.startswith("_"):
                continue
            if not (_is_frame(value) or _is_rows(value)):
                continue
            if re.search(
                r'(?<![\w"])' + re.escape(name) + r'(?![\w"])|"' + re.escape(name) + '"',
                query,
                flags=re.IGNORECASE,
            ):
                loaded[name] = _load(conn, name, value)
        try:
            cursor = conn.execute(query)
        except sqlite3.Error as exc:
            tables = "; ".join(f"{t}({', '.join(_quote(c) for c in cols)})" for t, cols in loaded.items())
            raise SQLError(f"SQL error: {exc}. Tables: {tables or 'none found in the query'}") from None
        names = [d[0] for d in cursor.description or []]
        records = cursor.fetchall()
    finally:
        conn.close()
    try:
        import pandas as pd
    except ImportError:
        return [dict(zip(names, r, strict=True)) for r in records]
    return pd.DataFrame.from_records(records, columns=names) if names else pd.DataFrame()

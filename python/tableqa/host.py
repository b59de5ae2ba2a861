"""Entry points for the executor worker: JSON text in, JSON text out.

The worker keeps each open table's payload here once and gives every run a fresh namespace, so a
program cannot change what the next program sees (``df`` is a copy; ``rows`` are rebuilt).
"""

from __future__ import annotations

import json
from typing import Any

from tableqa import runner
from tableqa.apidoc import api_namespace
from tableqa.rows import rows_view

_tables: dict[str, dict[str, Any]] = {}
_pandas: bool | None = None


def pandas_available() -> bool:
    """Return whether pandas imports in this interpreter."""
    global _pandas
    if _pandas is None:
        try:
            import pandas  # noqa: F401
        except ImportError:
            _pandas = False
        else:
            _pandas = True
    return _pandas


def load_table(table_id: str, payload_json: str) -> None:
    """Keep a table's ParsedTable payload under ``table_id``."""
    _tables[table_id] = {"payload": json.loads(payload_json)}


def drop_table(table_id: str) -> None:
    """Forget a table."""
    _tables.pop(table_id, None)


def _namespace(table_id: str | None) -> dict[str, Any]:
    namespace: dict[str, Any] = api_namespace()
    if table_id is None:
        return namespace
    entry = _tables.get(table_id)
    if entry is None:
        raise KeyError(f"table {table_id!r} is not loaded")
    payload = entry["payload"]
    if pandas_available():
        import pandas as pd

        from tableqa.frame import build_frame

        if "frame" not in entry:
            entry["frame"] = build_frame(payload)
        namespace.update(df=entry["frame"].copy(), pd=pd)
        return namespace
    if "rows" not in entry:
        entry["rows"] = rows_view(payload)
    rows = [dict(r) for r in entry["rows"]]
    namespace.update(rows=rows, columns=list(rows[0]) if rows else [])
    return namespace


def run_json(code: str, table_id: str | None) -> str:
    """Run ``code`` against a loaded table and return the runner's result as JSON text."""
    return json.dumps(runner.run(code, _namespace(table_id)), default=repr)

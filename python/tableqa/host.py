"""Entry points for the executor worker: JSON text in, JSON text out.

The worker keeps each open table's payload here once and gives every run a fresh namespace, so a
program cannot change what the next program sees (``df`` is a copy; ``rows`` are rebuilt).
"""

from __future__ import annotations

import json
from typing import Any

from tableqa import runner

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


def column_names(payload: dict[str, Any]) -> list[str]:
    """Flat, unique names for a payload's column tuples (levels joined by `` | ``)."""
    names: list[str] = []
    seen: dict[str, int] = {}
    for path in payload.get("columns", []):
        name = " | ".join(str(p) for p in path if str(p) != "") or "column"
        count = seen.get(name, 0) + 1
        seen[name] = count
        names.append(name if count == 1 else f"{name} ({count})")
    return names


def _namespace(table_id: str | None) -> tuple[dict[str, Any], str]:
    if table_id is None:
        return {}, "none"
    entry = _tables.get(table_id)
    if entry is None:
        raise KeyError(f"table {table_id!r} is not loaded")
    payload = entry["payload"]
    if pandas_available():
        import pandas as pd

        from tableqa.frame import build_frame

        frame = entry.get("frame")
        if frame is None:
            frame = build_frame(payload)
            entry["frame"] = frame
        return {"df": frame.copy(), "pd": pd}, "pandas"
    names = column_names(payload)
    rows = [dict(zip(names, values)) for values in payload.get("values", [])]
    return {"rows": rows, "columns": names}, "rows"


def run_json(code: str, table_id: str | None) -> str:
    """Run ``code`` against a loaded table and return the runner's result as JSON text."""
    namespace, kind = _namespace(table_id)
    result = runner.run(code, namespace)
    if result.get("ok"):
        result["value"]["tableKind"] = kind
    return json.dumps(result, default=repr)

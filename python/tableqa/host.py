"""Entry points for the executor: JSON text in, JSON text out.

The executor keeps each open table's payload here once and gives every run a fresh namespace, so a
program cannot change what the next program sees (DataFrames are copies; row lists are rebuilt).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tableqa import runner
from tableqa.apidoc import api_namespace
from tableqa.guard import fingerprint
from tableqa.qa import set_qa_bridge, set_qa_limit
from tableqa.rows import rows_view

_tables: dict[str, dict[str, Any]] = {}
_pandas: bool | None = None


class QAError(RuntimeError):
    """The host could not answer a QA call (no endpoint, timeout, cap reached, model error)."""


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


def install_qa_bridge(bridge: Callable[[str, str | None], Any]) -> None:
    """Route ``qa(...)`` to the host; a failed call raises :class:`QAError` with the host's reason."""

    def call(question: str, value: str | None) -> str:
        try:
            return str(bridge(question, value))
        except Exception as error:  # the worker's JsException or a broken pipe: one clear error
            text = str(error).removeprefix("Error: ")
            raise QAError(f"qa() could not be answered: {text}") from None

    set_qa_bridge(call)


def _table_value(table_id: str) -> tuple[str, Any]:
    entry = _tables.get(table_id)
    if entry is None:
        raise KeyError(f"table {table_id!r} is not loaded")
    payload = entry["payload"]
    if pandas_available():
        from tableqa.frame import build_frame

        if "frame" not in entry:
            entry["frame"] = build_frame(payload)
        return "pandas", entry["frame"].copy()
    if "rows" not in entry:
        entry["rows"] = rows_view(payload)
    return "rows", [dict(r) for r in entry["rows"]]


def _namespace(table_id: str | None, named: list[dict[str, str]]) -> dict[str, Any]:
    namespace: dict[str, Any] = api_namespace()
    if pandas_available():
        import pandas as pd

        namespace["pd"] = pd
    for item in named:
        name = str(item.get("name", ""))
        if not name.isidentifier() or name.startswith("__"):
            raise ValueError(f"{name!r} cannot be a variable name for a table")
        namespace[name] = _table_value(str(item["tableId"]))[1]
    if table_id is not None:
        kind, value = _table_value(table_id)
        if kind == "pandas":
            namespace["df"] = value
        else:
            namespace["rows"] = value
            namespace["columns"] = list(value[0]) if value else []
    return namespace


_last_run_tampered = False


def run_json(code: str, table_id: str | None, named_tables_json: str = "[]", max_qa_calls: int = 20) -> str:
    """Run ``code`` with its tables bound and return the runner's result as JSON text.

    Afterwards :func:`tampered` tells whether the program changed state the next program would see.
    """
    global _last_run_tampered
    set_qa_limit(max_qa_calls)
    namespace = _namespace(table_id, json.loads(named_tables_json))
    before = fingerprint(_tables)
    result = json.dumps(runner.run(code, namespace), default=repr)
    _last_run_tampered = fingerprint(_tables) != before
    return result


def tampered() -> bool:
    """Whether the last program changed shared interpreter state (the executor then replaces it)."""
    return _last_run_tampered

"""Entry points for the executor: JSON text in, JSON text out.

The executor keeps each open table here once, already turned into what programs get (a DataFrame, or
row dicts without pandas), and gives every run a fresh namespace with its own copy, so a program cannot
change what the next program sees. Turning a table of millions of cells into a frame takes seconds, so
it happens when the table arrives, while the interpreter waits, not inside a program's time limit; the
copy for the interpreter's first program is made then too, and everything built is moved out of the
cyclic collector's sight (``gc.freeze``), so that programs allocating a lot do not walk the table again
and again.
"""

from __future__ import annotations

import contextlib
import gc
import json
from collections.abc import Callable, Iterator
from typing import Any

from tableqa import runner
from tableqa.apidoc import api_namespace
from tableqa.guard import snapshot
from tableqa.qa import set_qa_bridge, set_qa_limit
from tableqa.rows import rows_view

_tables: dict[str, dict[str, Any]] = {}
# What the host itself put in `_tables` (entry identities): a program that empties or swaps the store
# shows as a difference. Mutated in place, never rebound, so loading tables leaves the snapshot alone.
_expected: dict[str, int] = {}
# The digest taken by `seal` once the interpreter has booted; a list so sealing rebinds no module name.
_boot: list[str] = []
_pandas: bool | None = None
# Copies made ahead when a table is loaded, for the programs of the question that takes the interpreter:
# a question's five candidates run on two interpreters, so three each. Together they hold at most
# READY_COPY_CELLS cells, so a large table keeps fewer (or none) and its programs copy as they start.
READY_COPIES = 3
READY_COPY_CELLS = 4_000_000
# The namespace of the run that ended last, freed by :func:`release` once its result is on its way: a
# program's namespace holds its table copy, and freeing 200,000 row dicts takes tens of milliseconds that
# the answer need not wait for. Mutated in place, never rebound.
_spent: list[dict[str, Any]] = []

ELSEWHERE = "Use the local Python executor (Settings \u203a Where programs run) or filter the file first."


class QAError(RuntimeError):
    """The host could not answer a QA call (no endpoint, timeout, cap reached, model error)."""


class TableTooLarge(RuntimeError):
    """The table was refused (or did not fit) when it was loaded; the message says why."""


class TableUnreadable(RuntimeError):
    """The table's payload could not be turned into a table when it was loaded."""


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


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Building millions of containers triggers the cyclic collector again and again, each pass
    walking everything built so far; nothing built here is cyclic garbage, so it waits until the end."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _millions(n: int) -> str:
    return f"{n / 1e6:.1f} million" if n >= 1_000_000 else f"{n:,}"


def payload_text(payload: object) -> str:
    """The payload as text: a str, UTF-8 bytes, or (in Pyodide) a JS buffer of UTF-8 bytes."""
    if isinstance(payload, str):
        return payload
    if isinstance(payload, (bytes, bytearray, memoryview)):
        return bytes(payload).decode("utf-8")
    to_bytes = getattr(payload, "to_bytes", None)  # a JsProxy of a Uint8Array
    if callable(to_bytes):
        data = to_bytes()
        if isinstance(data, (bytes, bytearray)):
            return bytes(data).decode("utf-8")
    raise TypeError(f"a table payload must be JSON text or UTF-8 bytes, not {type(payload).__name__}")


def table_size(payload: dict[str, Any]) -> tuple[int, int]:
    """Data rows and columns of a ParsedTable payload.

    Examples
    --------
    >>> table_size({"columns": [["a"], ["b"]], "values": [["1", "2"], ["3"]]})
    (2, 2)
    """
    values = payload.get("values") or []
    width = max(len(payload.get("columns") or []), max(map(len, values), default=0))
    return len(values), width


def refusal(rows: int, cols: int, max_cells: int | None, max_rows: int | None) -> str:
    """Why a table of this size is refused, or ``""`` when it fits.

    Examples
    --------
    >>> refusal(3_000_000, 8, 20_000_000, 6_000_000)[:80]
    'This table has 24.0 million cells (3,000,000 rows × 8 columns); the Python sandb'
    >>> refusal(100, 2, 20_000_000, 6_000_000)
    ''
    """
    size = f"({rows:,} rows \u00d7 {cols:,} columns)"
    if max_cells is not None and rows * cols > max_cells:
        return (
            f"This table has {_millions(rows * cols)} cells {size}; "
            f"the Python sandbox handles up to {_millions(max_cells)}. {ELSEWHERE}"
        )
    if max_rows is not None and rows > max_rows:
        return (
            f"This table has {_millions(rows)} rows {size}; "
            f"the Python sandbox handles up to {_millions(max_rows)}. {ELSEWHERE}"
        )
    return ""


def load_table(
    table_id: str,
    payload: object,
    max_cells: int | None = None,
    max_bytes: int | None = None,
    max_rows: int | None = None,
) -> str:
    """Keep a table under ``table_id``, built into what programs get.

    Parameters
    ----------
    table_id : str
        The host's id for the table.
    payload : str, bytes or JS buffer
        A ParsedTable as JSON.
    max_cells, max_bytes, max_rows : int, optional
        What this interpreter can hold (the Pyodide sandbox has a fixed heap). A larger table is not
        built: it is kept as a refusal that every run using it reports.

    Returns
    -------
    str
        ``""`` when the table is ready, else the message runs will report.
    """
    drop_table(table_id)  # a new layout replaces the old one: free it before building
    size = len(payload) if isinstance(payload, (str, bytes, bytearray)) else getattr(payload, "byteLength", 0)
    if max_bytes is not None and isinstance(size, int) and size > max_bytes:
        message = (
            f"This table is {size / 2**20:,.0f} MB as data; the Python sandbox handles up to "
            f"{max_bytes / 2**20:,.0f} MB. {ELSEWHERE}"
        )
        _keep(table_id, {"refused": message})
        return message
    entry: dict[str, Any] = {}
    try:
        with _collector_paused():
            data = json.loads(payload_text(payload))
            del payload
            rows, cols = table_size(data)
            refused = refusal(rows, cols, max_cells, max_rows)
            if refused:
                entry["refused"] = refused
            else:
                entry.update(_build(data))
                copies = min(READY_COPIES, READY_COPY_CELLS // max(1, rows * cols))
                entry["ready"] = [_copy(entry) for _ in range(copies)]
            del data
    except MemoryError:
        entry = {
            "refused": "This table did not fit in Python's memory. "
            + (ELSEWHERE if max_cells is not None else "Filter the file first.")
        }
    except (ValueError, TypeError, KeyError, IndexError) as error:
        entry = {"unreadable": f"Python could not read this table: {type(error).__name__}: {error}"}
    _keep(table_id, entry)
    # The table and its copy hold no cycles and are freed by reference counting when dropped: leaving
    # them out of later collections saves allocation-heavy programs full passes over millions of objects.
    gc.freeze()
    return str(entry.get("refused", entry.get("unreadable", "")))


def _keep(table_id: str, entry: dict[str, Any]) -> None:
    _tables[table_id] = entry
    _expected[table_id] = id(entry)


def _build(payload: dict[str, Any]) -> dict[str, Any]:
    if pandas_available():
        from tableqa.frame import build_frame

        return {"frame": build_frame(payload)}
    return {"rows": rows_view(payload)}


def drop_table(table_id: str) -> None:
    """Forget a table."""
    _tables.pop(table_id, None)
    _expected.pop(table_id, None)


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
        raise TableUnreadable(f"The table {table_id!r} is not loaded in Python (its loading failed).")
    if "refused" in entry:
        raise TableTooLarge(entry["refused"])
    if "unreadable" in entry:
        raise TableUnreadable(entry["unreadable"])
    ready = entry.get("ready")
    value = ready.pop() if ready else _copy(entry)
    return ("pandas" if "frame" in entry else "rows"), value


def _copy(entry: dict[str, Any]) -> Any:
    """A copy of a built table that a program may change freely."""
    if "frame" in entry:
        return entry["frame"].copy()
    return list(map(dict, entry["rows"]))


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


def run_json(
    code: str,
    table_id: str | None,
    named_tables_json: str = "[]",
    max_qa_calls: int = 20,
    on_start: Callable[[], Any] | None = None,
    question: str | None = None,
) -> str:
    """Run ``code`` with its tables bound and return the runner's result as JSON text.

    ``question`` is the question the program answers, when there is one (:func:`tableqa.runner.run`).

    ``on_start`` is called once the namespace is ready, just before the program itself starts: the
    executor starts the program's clock there, so copying a big table is not charged to the program.
    Afterwards :func:`tampered` tells whether the program changed state the next program would see.
    """
    set_qa_limit(max_qa_calls)
    release()
    try:
        with _collector_paused():
            namespace = _namespace(table_id, json.loads(named_tables_json))
    except (TableTooLarge, TableUnreadable) as refused:
        code = "too-large" if isinstance(refused, TableTooLarge) else "bad-input"
        return json.dumps(
            {"ok": False, "error": {"code": code, "message": str(refused), "stdout": "", "stderr": ""}}
        )
    if on_start is not None:
        on_start()
    _spent[:] = [namespace]
    del namespace
    return json.dumps(runner.run(code, _spent[0], question), default=repr)


def release() -> None:
    """Free the last run's namespace (its table copy and whatever the program built).

    The driver calls this after sending the run's result; the next run frees it anyway.
    """
    with _collector_paused():
        _spent.clear()


def seal() -> str:
    """Take the snapshot later runs are checked against; call once the interpreter has booted.

    Returns
    -------
    str
        The digest (:func:`integrity`), for a driver that keeps its own copy out of the program's reach.
    """
    _boot[:] = [integrity()]
    return _boot[0]


def integrity() -> str:
    """A digest of the shared interpreter state, code included (:func:`tableqa.guard.snapshot`)."""
    return snapshot()


def tables_intact() -> bool:
    """Whether the table store holds exactly what the host put there."""
    return len(_tables) == len(_expected) and all(
        id(_tables.get(key)) == value for key, value in _expected.items()
    )


def tampered() -> bool:
    """Whether a program changed shared state since :func:`seal` (the interpreter is then replaced)."""
    if not _boot:
        raise RuntimeError("the interpreter was never sealed: call seal() once it has booted")
    return integrity() != _boot[0] or not tables_intact()

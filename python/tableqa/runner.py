"""Run one program and describe what it produced, as JSON-able data (no pandas needed).

The result matches ``PythonRunResult`` in ``src/shared/python.ts``: ``{"ok": True, "value":
PythonOutput}`` or ``{"ok": False, "error": PythonFailure}``.
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import io
import json
import linecache
import math
import re
import sys
import time
import traceback
from collections.abc import Iterator, Mapping
from types import CodeType, FrameType, TracebackType
from typing import Any

from . import qa as qa_module
from . import trace
from .answer import is_pandas_like, normalize_answer
from .apidoc import call_note
from .asked import as_asked
from .chart import Chart
from .headers import HeaderNotFound
from .ops import columns_holding, show_key
from .pathloc import bind_readers
from .source import parse_program
from .text import EXTRACT_NUMBER

__all__ = [
    "ANSWER_CAP_BYTES",
    "FILENAME",
    "MESSAGE_CAP_CHARS",
    "OUTPUT_CAP_CHARS",
    "REPR_CAP_CHARS",
    "describe_value",
    "program_value",
    "run",
    "unmatched_notes",
]

FILENAME = "<program>"
OUTPUT_CAP_CHARS = 100_000
REPR_CAP_CHARS = 10_000
TRACEBACK_CAP_CHARS = 20_000
MESSAGE_CAP_CHARS = 10_000
# An answer is shown, compared and saved to history: a megabyte of JSON is far more than any answer
# needs, and the executor refuses larger results again on its side (src/shared/run-result.ts).
ANSWER_CAP_BYTES = 1_048_576
_JSON_MAX_NODES = 10_000


class _CappedText(io.TextIOBase):
    """A text sink that keeps the first ``cap`` characters and notes that more came."""

    def __init__(self, cap: int) -> None:
        super().__init__()
        self._parts: list[str] = []
        self._size = 0
        self._cap = cap
        self.truncated = False

    def writable(self) -> bool:
        return True

    def write(self, s: str) -> int:
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        room = self._cap - self._size
        if len(s) > room:
            self.truncated = True
            s_kept = s[: max(room, 0)]
        else:
            s_kept = s
        if s_kept:
            self._parts.append(s_kept)
            self._size += len(s_kept)
        return len(s)

    def getvalue(self) -> str:
        return "".join(self._parts)


def _capped_repr(value: object) -> str:
    if type(value) is str and len(value) > REPR_CAP_CHARS:
        # Only the part that is kept: a huge string's whole repr would cost as much as the string again.
        head = repr(value[:REPR_CAP_CHARS])[:REPR_CAP_CHARS]
        return head + f"... [{len(value) - REPR_CAP_CHARS} more characters]"
    try:
        text = repr(value)
    except Exception as exc:  # a broken __repr__ must not fail the run
        text = f"<{type(value).__name__} object; repr() failed: {type(exc).__name__}>"
    if len(text) > REPR_CAP_CHARS:
        text = text[:REPR_CAP_CHARS] + f"... [{len(text) - REPR_CAP_CHARS} more characters]"
    return text


class _TooBig(Exception):
    pass


def _plain_json(value: object, budget: list[int], depth: int = 0) -> Any:
    budget[0] -= 1
    if budget[0] < 0 or depth > 50:
        raise _TooBig
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value if abs(value) < 2**63 else str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return None
        return value
    if isinstance(value, (list, tuple)):
        return [_plain_json(v, budget, depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        ordered = sorted(value, key=lambda x: (str(type(x)), str(x)))
        return [_plain_json(v, budget, depth + 1) for v in ordered]
    if isinstance(value, dict):
        if not all(isinstance(k, (str, int, float, bool)) or k is None for k in value):
            raise _TooBig
        return {str(k): _plain_json(v, budget, depth + 1) for k, v in value.items()}
    raise _TooBig


def describe_value(value: object, cells: list[dict[str, int]] | None = None) -> dict[str, Any]:
    """The ``PythonValue`` for a program's value: capped repr, type name and JSON when possible.

    For pandas and numpy objects ``json`` is the normalised answer (``{"items", "cells"}``, see
    :func:`tableqa.answer.normalize_answer`); for a :class:`tableqa.chart.Chart` it is ``{"chart",
    "summary"}``; for plain Python data it is the data itself.

    Parameters
    ----------
    value : object
        The value.
    cells : list of {"row", "col"}, optional
        Source cells read while computing it.

    Returns
    -------
    dict
        ``{"repr", "type", "json"?}``.

    Examples
    --------
    >>> describe_value({"a": [1, 2.5]})
    {'repr': "{'a': [1, 2.5]}", 'type': 'dict', 'json': {'a': [1, 2.5]}}
    """
    out: dict[str, Any] = {"repr": _capped_repr(value), "type": type(value).__name__}
    try:
        if isinstance(value, Chart):
            out["json"] = value.to_json()
        elif is_pandas_like(value):
            out["json"] = normalize_answer(value, cells or [])
        else:
            out["json"] = _plain_json(value, [_JSON_MAX_NODES])
    except _TooBig:
        pass
    except Exception:  # odd objects: the repr is still there
        pass
    return out


def _table_kind(namespace: Mapping[str, Any]) -> str:
    df = namespace.get("df")
    if df is not None and type(df).__name__ == "DataFrame" and type(df).__module__.startswith("pandas"):
        return "pandas"
    if isinstance(namespace.get("rows"), list):
        return "rows"
    return "none"


def _compile(code: str, namespace: Mapping[str, Any]) -> tuple[CodeType | None, CodeType | None]:
    # Labels with quotes in them and `.loc` header paths read as people write them (tableqa.source).
    tree = parse_program(code, namespace, FILENAME)
    last: CodeType | None = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        expr = ast.Expression(tree.body[-1].value)
        tree.body.pop()
        last = compile(expr, FILENAME, "eval")
    body = compile(tree, FILENAME, "exec") if tree.body else None
    return body, last


def _user_frames(tb: TracebackType | None) -> traceback.StackSummary:
    frames = [f for f in traceback.extract_tb(tb) if f.filename == FILENAME]
    return traceback.StackSummary.from_list(frames)


def _format_error(exc: BaseException) -> tuple[str, str]:
    name = type(exc).__name__
    if isinstance(exc, SyntaxError):
        detail = exc.msg or "invalid syntax"
        where = f" (line {exc.lineno})" if exc.lineno else ""
        message = f"{name}: {detail}{where}"
        tb_text = "".join(traceback.format_exception_only(type(exc), exc))
        return message, tb_text
    if isinstance(exc, RecursionError):
        message = (
            f"RecursionError: {exc} — the program called itself too deeply; use a loop instead of recursion"
        )
    else:
        text = str(exc)
        message = f"{name}: {text}" if text else name
        # Notes the runtime added on the way up (e.g. which labels of a .loc key are no header).
        notes = [n for n in getattr(exc, "__notes__", None) or [] if isinstance(n, str) and n.strip()]
        if notes:
            message += f" ({'; '.join(notes)})"
    if len(message) > MESSAGE_CAP_CHARS:
        message = message[:MESSAGE_CAP_CHARS] + f"... [{len(message) - MESSAGE_CAP_CHARS:,} more characters]"
    lines = ["Traceback (most recent call last):\n"]
    lines += _user_frames(exc.__traceback__).format()
    lines += traceback.format_exception_only(type(exc), exc)
    tb_text = "".join(lines)
    if len(tb_text) > TRACEBACK_CAP_CHARS:
        half = TRACEBACK_CAP_CHARS // 2
        tb_text = tb_text[:half] + "\n... [traceback shortened] ...\n" + tb_text[-half:]
    return message, tb_text


def run(code: str, namespace: dict[str, Any], question: str | None = None) -> dict[str, Any]:
    """Execute a program in ``namespace`` and return its output or its error as JSON-able data.

    If the last statement is an expression its value is the program's value; otherwise (or if that
    value is None) the variable ``answer``, when the program defined it. ``answer`` is removed from
    the namespace before the run so that a previous run's answer cannot leak. Output to stdout and
    stderr is captured, each capped at 100,000 characters.

    Parameters
    ----------
    code : str
        The program.
    namespace : dict
        Globals for the program (``df``, the API functions ...); changed in place.
    question : str, optional
        The question the program answers: of several headers a label of the program names, the one the
        question names is read (:func:`tableqa.headers.named_by_question`).

    Returns
    -------
    dict
        ``{"ok": True, "value": {"stdout", "stderr", "value", "truncated", "durationMs", "tableKind"}}``
        (plus ``"unmatched"`` and ``"readings"`` when there are any)
        or ``{"ok": False, "error": {"code", "message", "traceback", "stdout", "stderr"}}`` with code
        ``"python-error"`` or ``"interrupted"``.

    Examples
    --------
    >>> result = run("x = 6\\nprint('hi')\\nx * 7", {})
    >>> result["ok"], result["value"]["stdout"], result["value"]["value"]["repr"]
    (True, 'hi\\n', '42')
    >>> run("1 / 0", {})["error"]["message"]
    'ZeroDivisionError: division by zero'
    """
    qa_module.reset_qa()
    trace.reset_cells()
    trace.set_question(question)
    namespace.pop("answer", None)
    namespace.setdefault("__name__", "__program__")
    namespace.setdefault("__builtins__", __builtins__)
    bind_readers(namespace)
    table_kind = _table_kind(namespace)
    linecache.cache[FILENAME] = (len(code), None, code.splitlines(keepends=True), FILENAME)
    try:
        return _run(code, namespace, table_kind)
    finally:
        linecache.cache.pop(FILENAME, None)


def _run(code: str, namespace: dict[str, Any], table_kind: str) -> dict[str, Any]:
    out, err = _CappedText(OUTPUT_CAP_CHARS), _CappedText(OUTPUT_CAP_CHARS)
    start = time.perf_counter()
    value: object = None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            value = program_value(code, namespace)
    except BaseException as exc:
        return _failure(exc, out, err, namespace, code)
    duration = round((time.perf_counter() - start) * 1000, 3)
    described = None
    if value is not None:
        try:
            described = describe_value(value, trace.recorded_cells())
        except BaseException as exc:
            return _failure(exc, out, err)
        too_large = _answer_too_large(described)
        if too_large:
            return {
                "ok": False,
                "error": {
                    "code": "too-large",
                    "message": too_large,
                    "stdout": out.getvalue(),
                    "stderr": err.getvalue(),
                },
            }
    result: dict[str, Any] = {
        "stdout": out.getvalue(),
        "stderr": err.getvalue(),
        "value": described,
        "truncated": out.truncated or err.truncated,
        "durationMs": duration,
        "tableKind": table_kind,
    }
    unmatched = unmatched_notes(value)
    if unmatched:
        result["unmatched"] = unmatched
    readings = trace.recorded_readings()
    if readings:
        result["readings"] = readings
    return {"ok": True, "value": result}


def unmatched_notes(value: object) -> list[str]:
    """The conditions on text that matched no row, recorded since the run began, when ``value`` is what
    such a selection gives (see :func:`_nothing_found`); otherwise none.

    The evaluation's wrapper reads them through this too, so both see the same notes.

    Examples
    --------
    >>> unmatched_notes(3)
    []
    """
    notes = trace.recorded_unmatched()
    return list(notes) if notes and _nothing_found(value) else []


def _nothing_found(value: object) -> bool:
    """Whether an answer is what a selection that kept no row gives: zero, nothing, NaN, or empty, or
    values that are all NaN (what arithmetic between sides whose row labels differ gives).

    Examples
    --------
    >>> [_nothing_found(x) for x in (0, 0.0, None, float("nan"), [], "", 3, "Yukon", [0, 2], False)]
    [True, True, True, True, True, True, False, False, False, False]
    >>> import pandas as pd
    >>> _nothing_found(pd.Series([float("nan")] * 2)), _nothing_found(pd.Series([float("nan"), 1.0]))
    (True, False)
    """
    if value is None or isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", "") == "b":
        return value is None
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, tuple, set, dict)):
        return len(value) == 0
    size, dims = getattr(value, "size", None), getattr(value, "ndim", None)
    if isinstance(size, int) and isinstance(dims, int) and dims > 0:
        return size == 0 or _all_missing(value)
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return number == 0 or math.isnan(number)


def _all_missing(values: object) -> bool:
    """Whether every value of an array, a Series or a DataFrame is missing (NaN or None)."""
    pd = sys.modules.get("pandas")
    if pd is None:
        return False
    try:
        missing = pd.isna(values)
        return bool((missing.to_numpy() if hasattr(missing, "to_numpy") else missing).all())
    except (TypeError, ValueError, AttributeError):
        return False


def program_value(code: str, namespace: dict[str, Any]) -> object:
    """Run a program in ``namespace`` as :func:`run` does and return its answer: the value of its last
    expression, else its ``answer`` variable (None when it has neither), in the form its question asks
    for (:func:`tableqa.asked.as_asked`: a difference without a sign).

    Raises what the program raises, and ``TypeError`` when the answer is code (a function never called).
    The evaluation's wrapper runs its programs through this too, so both read answers the same way.

    Examples
    --------
    >>> program_value("answer = 6 * 7", {})
    42
    >>> try:
    ...     program_value("def answer():\\n    return 1", {})
    ... except TypeError as exc:
    ...     print(str(exc)[:42])
    the answer is a function, not a value: cal
    """
    body, last = _compile(code, namespace)
    if body is not None:
        exec(body, namespace)
    value = eval(last, namespace) if last is not None else None
    if value is None and "answer" in namespace:
        value = namespace["answer"]
    if _is_code(value):
        raise TypeError(
            "the answer is a function, not a value: call it and set answer to what it returns, or compute "
            "the value without a function"
        )
    return as_asked(value)


def _is_code(value: object) -> bool:
    """Whether a value is a function, a class or a module: code, not an answer.

    Examples
    --------
    >>> _is_code(len), _is_code(lambda: 1), _is_code(int), _is_code(3), _is_code("f")
    (True, True, True, False, False)
    """
    return inspect.isroutine(value) or inspect.isclass(value) or inspect.ismodule(value)


def _answer_too_large(described: dict[str, Any]) -> str:
    """Why the value is too large to be an answer, or ``""``.

    Examples
    --------
    >>> _answer_too_large({"repr": "'z'", "type": "str", "json": "z" * 2_000_000})[:60]
    'The answer is 2.0 MB as data; answers are limited to 1 MB. R'
    >>> _answer_too_large({"repr": "1", "type": "int", "json": 1})
    ''
    """
    if "json" not in described:
        return ""
    data = described["json"]
    # A long string is too large before it is serialised (its JSON is at least as long); serialising
    # hundreds of megabytes just to measure them would outlast the run's time limit.
    size = len(data) + 2 if type(data) is str and len(data) > ANSWER_CAP_BYTES else len(json.dumps(data))
    if size <= ANSWER_CAP_BYTES:
        return ""
    return (
        f"The answer is {size / 1e6:.1f} MB as data; answers are limited to {ANSWER_CAP_BYTES // 2**20} MB. "
        "Return something smaller: a count, a total or the first rows."
    )


HINT_PATHS = 3
HINT_SCAN = 20_000


# The errors of picking one item of a selection past its end, or of one that does not hold one value:
# pandas' positional indexer (``.iloc[k]``), numpy's (``.values[k]``, which names the size), ``.item()``.
_ILOC_PAST_END = re.compile(r"single positional indexer is out-of-bounds")
_NUMPY_PAST_END = re.compile(r"index (-?\d+) is out of bounds for axis \d+ with size (\d+)")
_NOT_ONE_ITEM = re.compile(r"can only convert an array of size 1 to a Python scalar")
EMPTY_NOTE = (
    "the selection it picks from is empty: no row matched the condition; compare with the cell text as the "
    "table writes it (filter_rows ignores case and spacing; .str.contains matches part of a cell)"
)
# Said instead of EMPTY_NOTE when the size of the selection is not known.
MAYBE_EMPTY_NOTE = "most likely " + EMPTY_NOTE


def _raising_frames(exc: BaseException) -> list[FrameType]:
    """The frames an exception passed through, from the program's down to where it was raised."""
    tb, frames = exc.__traceback__, []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    return frames


def _picked_from(exc: BaseException) -> tuple[int, int | None, str] | None:
    """The size of the selection a failed pick read from, the position asked for (None for ``.item()``)
    and what its items are (rows, columns or values), read from numpy's message or from the pandas call
    that raised; None when unknown."""
    found = _NUMPY_PAST_END.search(str(exc))
    if found:
        return int(found.group(2)), int(found.group(1)), "value"
    pd = sys.modules.get("pandas")
    for frame in reversed(_raising_frames(exc)[-3:]):
        try:
            owner = frame.f_locals.get("self")
            if pd is None or owner is None:
                continue
            if isinstance(owner, pd.Series):
                return len(owner), None, "value"
            selection = getattr(owner, "obj", None)
            axis, key = frame.f_locals.get("axis"), frame.f_locals.get("key")
            if isinstance(selection, (pd.Series, pd.DataFrame)) and type(axis) is int and type(key) is int:
                noun = "value" if selection.ndim == 1 else ("row", "column")[axis]
                return int(selection.shape[axis]), key, noun
        except Exception:  # a note is never worth an error of its own
            return None
    return None


def _empty_pick_note(exc: BaseException) -> str:
    """Why picking one item failed (``.iloc[k]``, ``.values[k]``, ``.item()``): the selection was empty
    (with the conditions on text that matched no row, when recorded), or how many items it held; else ``""``.
    """
    if not isinstance(exc, (IndexError, ValueError)):
        return ""
    text = str(exc)
    if not (_ILOC_PAST_END.search(text) or _NUMPY_PAST_END.search(text) or _NOT_ONE_ITEM.search(text)):
        return ""
    picked = _picked_from(exc)
    if picked is None:
        return MAYBE_EMPTY_NOTE if not _NUMPY_PAST_END.search(text) else ""
    size, position, noun = picked
    if size == 0:
        unmatched = trace.recorded_unmatched()
        return EMPTY_NOTE + (f"; {'; '.join(unmatched)}" if unmatched else "")
    rows = f"{size} {noun}{'s' if size != 1 else ''}"
    if position is None:
        return (
            f"the selection it picks from holds {rows}, not one: pick the one asked for with .iloc[0] (the "
            "first) or by its label, or narrow the condition"
        )
    return (
        f"the selection it picks from holds {rows}, so position {position} is past its end: positions count "
        "from 0 (.iloc[0] the first, .iloc[-1] the last)"
    )


# Python's error for & or | between operands that are no conditions (tables of text, most often).
_BAD_LOGIC = re.compile(r"unsupported operand type\(s\) for [&|]")


def _combined_rows_note(exc: BaseException, code: str) -> str:
    """How conditions are combined, for a line that joins the rows ``filter_rows`` gave with ``&`` or ``|``
    (``filter_rows(df, "a", "==", x) & filter_rows(df, "b", "==", y)``): those are tables, not conditions;
    else ``""``."""
    if not isinstance(exc, TypeError) or not _BAD_LOGIC.search(str(exc)):
        return ""
    frames = _user_frames(exc.__traceback__)
    line = frames[-1].line if len(frames) and frames[-1].line else code
    if "filter_rows(" not in (line or ""):
        return ""
    return (
        "filter_rows gives rows, not a condition, so & and | cannot join its results: give every condition "
        'to one call, filter_rows(df, "col1", "==", value1, "col2", ">", value2), which keeps the rows '
        "that meet them all"
    )


# pandas' error for a Series or a DataFrame where Python wants one True or False.
_AMBIGUOUS_TRUTH = re.compile(r"The truth value of a (?:Series|DataFrame) is ambiguous")
_LOGIC_WORDS = re.compile(r"\b(?:and|or|not)\b")


def _truth_value_note(exc: BaseException, code: str, namespace: Mapping[str, Any] | None = None) -> str:
    """How to test conditions on rows, when a column's comparison (one True or False per row) stood where
    Python wants one: ``and``/``or``/``not`` between conditions, or an ``if`` on one; or, when the Series
    tested is labelled otherwise than the rows of the program's tables (a comparison of two rows, or two
    columns, each read whole), how to read one value on each side; else ``""``."""
    if not isinstance(exc, ValueError) or not _AMBIGUOUS_TRUTH.search(str(exc)):
        return ""
    frames = _user_frames(exc.__traceback__)
    line = frames[-1].line if len(frames) and frames[-1].line else code
    if _LOGIC_WORDS.search(line or ""):
        return (
            "a condition on a column gives one True or False per row, but Python's and, or and not take "
            "one: join conditions with & or | and negate with ~, each condition in parentheses, "
            'df[(df["col1"] == value1) & (df["col2"] > value2)]'
        )
    labels, count = _tested_labels(exc, namespace)
    if count == 1:
        return (
            f"the comparison gives a Series of one True or False, labelled {labels}: each side is a Series "
            "(a row or a column read whole), not a value, but an if takes one: read the value meant on each "
            "side, df.loc[row_path, column_path], then compare"
        )
    if labels:
        return (
            f"the comparison gives one True or False for each of {labels}: each side is several values "
            "(a row or a column read whole), but an if takes one: read the one value meant on each side, "
            "df.loc[row_path, column_path], then compare"
        )
    return (
        "a condition on a column gives one True or False per row, but an if (or a comparison of two "
        "tables) takes one: select rows with it, df[condition], or test .any() (some row) or .all() (every "
        "row)"
    )


def _tested_labels(exc: BaseException, namespace: Mapping[str, Any] | None) -> tuple[str, int]:
    """The labels of the Series whose truth value was asked, shown, and how many there are, when they are
    not the row labels of a table of the program's namespace (where it would be a condition on rows); else
    ``("", 0)``."""
    pd = sys.modules.get("pandas")
    tested = None
    for frame in _raising_frames(exc):
        # pandas 3 raises in __bool__, pandas 2 (Pyodide's) in __nonzero__.
        owner = frame.f_locals.get("self") if frame.f_code.co_name in ("__bool__", "__nonzero__") else None
        if pd is not None and isinstance(owner, pd.Series):
            tested = owner
    if pd is None or tested is None or namespace is None:
        return "", 0
    try:
        tables = [v for v in namespace.values() if isinstance(v, pd.DataFrame)]
        if not tables or any(
            len(t.index) == len(tested.index) and t.index.equals(tested.index) for t in tables
        ):
            return "", 0
        shown = ", ".join(_capped_repr(lv)[:60] for lv in tested.index[:4].tolist())
        return shown + (f" and {len(tested) - 4} more" if len(tested) > 4 else ""), len(tested)
    except Exception:  # a note is never worth an error of its own
        return "", 0


# Python's (and older pandas') error for int() or float() of a Series or a DataFrame.
_MANY_AS_ONE = re.compile(
    r"(int|float)\(\) argument must be .* not '(?:Series|DataFrame)'"
    r"|cannot convert the series to <class '(int|float)'>"
)


def _many_as_one_note(exc: BaseException) -> str:
    """How to get one value out of several, when ``int()`` or ``float()`` was given a Series or a
    DataFrame (a column, or the rows a condition kept); else ``""``."""
    found = _MANY_AS_ONE.search(str(exc)) if isinstance(exc, TypeError) else None
    if found is None:
        return ""
    call = found.group(1) or found.group(2)
    return (
        f"{call}() takes one value and was given a Series or a table of them: pick the one asked for, "
        "with .iloc[0] (the first row) or by its label, or reduce them to one (.sum(), .max(), len(...))"
    )


def _one_value_note(exc: BaseException) -> str:
    """What to do, when a program used a column's method or accessor (``.str``, ``.dt``, ``.iloc``,
    ``.astype`` …) on one value: a cell read with ``df.loc[row, column]``, ``.iloc[k]`` or ``.max()``;
    else ``""``. Any attribute a pandas Series has counts, so the note follows pandas, not a list."""
    # Only where the program has pandas already: the note is about its columns, and importing it here
    # would load it into a sandbox that ran without it.
    pd, np = sys.modules.get("pandas"), sys.modules.get("numpy")
    if not isinstance(exc, AttributeError) or pd is None or np is None:
        return ""
    value, name = getattr(exc, "obj", None), getattr(exc, "name", None)
    one = isinstance(value, (str, int, float, bool, np.generic))
    if not one or not isinstance(name, str) or not hasattr(pd.Series, name):
        return ""
    shown = _capped_repr(value.item() if isinstance(value, np.generic) else value)
    shown = shown if len(shown) <= 40 else f"{shown[:39]}…"
    kind = type(value).__name__
    return (
        f"{shown} is one value (a {kind}), not a column: .{name} belongs to a column (a Series). Apply "
        f".{name} to the whole column and then pick the row's value from the result, or use the value "
        "itself (float(value) reads a number written as text)"
    )


def _position_key_note(exc: BaseException) -> str:
    """How to pick a value by position, when ``series[k]`` (``k`` a whole number) failed on a Series whose
    labels are no numbers (a row or column read from a table is labelled by its headers; pandas reads
    ``[k]`` as a label); else ``""``."""
    pd = sys.modules.get("pandas")
    if not isinstance(exc, KeyError) or pd is None or len(exc.args) != 1 or type(exc.args[0]) is not int:
        return ""
    for frame in _raising_frames(exc):
        try:
            owner, key = frame.f_locals.get("self"), frame.f_locals.get("key")
            if frame.f_code.co_name == "__getitem__" and isinstance(owner, pd.Series) and type(key) is int:
                labels = owner.index[:3].tolist()
                if not labels or any(type(lv) is int for lv in labels):
                    return ""
                more = f" and {len(owner) - 3} more" if len(owner) > 3 else ""
                return (
                    f"[{key}] reads the label {key}, but this Series is labelled "
                    f"{', '.join(_capped_repr(lv)[:60] for lv in labels)}{more}, not numbered: .iloc[{key}] "
                    "picks by position (.iloc[0] the first value, .iloc[-1] the last)"
                )
        except Exception:  # a note is never worth an error of its own
            return ""
    return ""


# Python's error for an order comparison (or max, min, sort) between cell text and a number.
_TEXT_VS_NUMBER = re.compile(r"not supported between instances of '(str|int|float)' and '(str|int|float)'")
# Python's error for arithmetic with cell text ("1958*" - "1910", "12.5 km" / 2).
_TEXT_ARITHMETIC = re.compile(
    r"unsupported operand type\(s\) for (?:[-*/]|\+|\*\*|//|%): '(?:str|int|float)' and '(?:str|int|float)'"
    r"|can only concatenate str \(not \"(?:int|float)\"\) to str"
)
# Python's and pandas' errors for reading cell text as a number ("1958*", "?").
_TEXT_AS_NUMBER = re.compile(
    r"invalid literal for int\(\) with base 10: |could not convert string to float: |Unable to parse string"
)
# pandas' error for comparing a column of numbers with text.
_NUMBERS_VS_TEXT = re.compile(r"Invalid comparison between dtype=(int|float|uint)\d* and str")
# Cells shown per column in the note.
TEXT_CELLS = 3


def _setting_note(exc: BaseException, namespace: Mapping[str, Any] | None) -> str:
    """What a program may use, when it tried to read a file or import a module that is not there; else ``""``.

    Models trained on scripts often start with ``df = pd.read_csv("table.csv")``; here the tables are
    already DataFrames in the program's namespace and no file is there to read.
    """
    if isinstance(exc, ImportError) and not isinstance(exc, ModuleNotFoundError):
        # "from pandas import filter_rows": the helpers are already defined; nothing needs importing.
        found = _IMPORTED_NAME.search(str(exc))
        if found and namespace is not None and callable(namespace.get(found.group(1))):
            return f"{found.group(1)} is already defined here: call it without importing it"
        return ""
    if isinstance(exc, ModuleNotFoundError):
        return (
            "that module is not available here: use pandas (pd), numpy, the Python standard library and the "
            "helper functions"
        )
    if not isinstance(exc, (FileNotFoundError, IsADirectoryError, PermissionError)):
        return ""
    pd = sys.modules.get("pandas")
    tables: list[str] = []
    if pd is not None and namespace is not None:
        tables = [n for n, v in namespace.items() if not n.startswith("_") and isinstance(v, pd.DataFrame)]
    named = ", ".join(tables[:NOTE_TABLES]) if tables else "df"
    return f"no files can be read here: the table is already loaded as the DataFrame {named}; use it as it is"


# Tables named in a note on reading files.
NOTE_TABLES = 4
_IMPORTED_NAME = re.compile(r"cannot import name '(\w+)'")


def _text_column_note(exc: BaseException, namespace: Mapping[str, Any], code: str) -> str:
    """Which columns the program compared or computed with as the wrong kind, when it compared text with
    a number, did arithmetic with text or read text as a number.

    A column such as ``Height`` holding ``"113.6 m"`` is text, so ``df["Height"] <= 80`` raises a
    ``TypeError`` that names no column; the note names the columns of the failing line that hold text with
    numbers in it, shows a few of their cells and how to take the numbers out. So does arithmetic with such
    cells (``df["Built"].iloc[2] - df["Built"].iloc[0]`` on ``"1958*"``), and reading one as a number
    (``int(df["Built"].iloc[2])``, ``.astype(int)``). The other way round
    (``df["Year"] > "2001"`` on a column of numbers) pandas' error names no column either: the note names
    the failing line's columns of numbers.
    """
    pd = sys.modules.get("pandas")
    if pd is None:
        return ""
    if isinstance(exc, ValueError):
        # Text read as a number where some cells hold more than the number: computed with, as below.
        arithmetic, text_vs_number = _TEXT_AS_NUMBER.search(str(exc)) is not None, False
        if not arithmetic:
            return ""
    elif isinstance(exc, TypeError):
        found = _TEXT_VS_NUMBER.search(str(exc))
        text_vs_number = found is not None and "str" in found.groups() and found.group(1) != found.group(2)
        arithmetic = _TEXT_ARITHMETIC.search(str(exc)) is not None and "str" in str(exc)
    else:
        return ""
    if not text_vs_number and not arithmetic and not _NUMBERS_VS_TEXT.search(str(exc)):
        return ""
    use = "compute with" if arithmetic else "compare"
    notes: list[str] = []
    for name, label, cells in _named_columns(exc, namespace, code):
        if len(notes) >= 2:
            break
        if not text_vs_number and not arithmetic:
            if pd.api.types.is_numeric_dtype(cells.dtype):
                notes.append(f"column {label!r} of {name} holds numbers: compare it with a number, not text")
            continue
        texts = [x for x in dict.fromkeys(cells.tolist()) if isinstance(x, str) and x.strip()]
        # Only text that carries numbers can be what the program meant to compare as numbers.
        with_digits = sum(any(c.isdigit() for c in x) for x in texts)
        if not texts or with_digits * 2 < len(texts):
            continue
        shown = ", ".join(repr(x) for x in texts[:TEXT_CELLS])
        notes.append(
            f"column {label!r} of {name} holds text ({shown}): {use} the numbers taken out of it, e.g. "
            f"{name}[{label!r}]{EXTRACT_NUMBER}"
            # Arithmetic is most often between single cells, where .str does not apply: the column is read
            # as numbers first, and the cells picked from that.
            + (", then pick the values from those numbers as from the column" if arithmetic else "")
        )
    return "; ".join(notes)


def _named_columns(
    exc: BaseException, namespace: Mapping[str, Any], code: str
) -> Iterator[tuple[str, str, Any]]:
    """The columns of the program's tables whose label the failing line writes (the whole program when
    the traceback names none of its lines): table name, label, cells."""
    pd = sys.modules.get("pandas")
    frames = _user_frames(exc.__traceback__)
    if len(frames) and frames[-1].line:
        code = frames[-1].line
    for name, value in list(namespace.items()):
        if (
            pd is None
            or name.startswith("_")
            or not isinstance(value, pd.DataFrame)
            or value.shape[1] > HINT_SCAN
        ):
            continue
        for position, key in enumerate(value.columns):
            parts = [str(x) for x in key] if isinstance(key, tuple) else [str(key)]
            label = next((x for x in reversed(parts) if x.strip()), "")
            if label.strip() and re.search(rf"""["']{re.escape(label)}["']""", code):
                yield name, label, value.iloc[:, position]


def _header_hint(exc: BaseException, namespace: Mapping[str, Any]) -> str:
    """Where the labels of a failed lookup stand in the program's tables, or ``""``.

    A ``KeyError`` on a table with hierarchical headers is most often a label asked at the wrong level
    (``df.loc["child"]`` where the row is ``("parent", "child")``). The hint names the header paths that
    hold the label, so that whoever reads the error (a person, or the model asked to repair its program)
    can write the full path.

    A header path an Operation API found no header for (:class:`HeaderNotFound`) gets the labels of it that
    are headers of the other axis: a path that mixes a row's labels and a column's.
    """
    pd = sys.modules.get("pandas")
    if pd is None:
        return ""
    # The axis the path was looked for on (0 rows, 1 columns), for a HeaderNotFound that says it.
    looked_on = getattr(exc, "axis", None) if isinstance(exc, HeaderNotFound) else None
    if looked_on in (0, 1):
        key: object = tuple(getattr(exc, "path", ()))
    elif isinstance(exc, KeyError) and exc.args:
        key = exc.args[0]
    else:
        return ""
    wanted = [k for k in (key if isinstance(key, tuple) else (key,)) if isinstance(k, str) and k.strip()]
    hints: list[str] = []
    for name, value in list(namespace.items()):
        if name.startswith("_") or not isinstance(value, pd.DataFrame):
            continue
        for number, (axis, index) in enumerate((("row", value.index), ("column", value.columns))):
            if number == looked_on or len(index) > HINT_SCAN or (index.nlevels < 2 and looked_on is None):
                continue
            paths = [tuple(str(x) for x in (p if isinstance(p, tuple) else (p,))) for p in index]
            for label in wanted:
                folded = label.strip().casefold()
                found = [p for p in paths if any(x.strip().casefold() == folded for x in p)]
                if not found:
                    continue
                shown = ", ".join(repr(p) for p in found[:HINT_PATHS])
                more = f" and {len(found) - HINT_PATHS} more" if len(found) > HINT_PATHS else ""
                within = f" within the full path {shown}{more}" if index.nlevels > 1 else ""
                hints.append(f"{label!r} is a {axis} header of {name}{within}")
    if hints and looked_on is not None:
        hints = hints[:4]
        hints.append(
            "a header path holds the labels of one axis: give the row's labels and the column's apart, "
            "as the function takes them"
        )
    return "; ".join(hints[:5])


# A column name the table does not have, as pandas' KeyError (with its note) and the Operation APIs say it.
_NO_SUCH_COLUMN = re.compile(r"is no column header of this table|No column header matches")
# Values of the program listed in the note on where they stand.
HELD_VALUES = 2


def _held_values_note(exc: BaseException, namespace: Mapping[str, Any], code: str) -> str:
    """Where the text values a program looks for stand, when it named a column the table does not have.

    A program that selects ``df["Club"] == "Royal School Dungannon"`` on a table whose column is
    ``School`` fails on the column name, and the table's column list alone does not say which column was
    meant; the values it compares with do: the note names the one column that holds each of them.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"School": ["Eton", "Coleraine"], "Titles": [4, 24]})
    >>> exc = KeyError("Club")
    >>> exc.add_note("'Club' is no column header of this table; its columns: 'School', 'Titles'")
    >>> print(_held_values_note(exc, {"df": df}, 'df.loc[df["Club"] == "Eton", "Titles"]'))
    the program's 'Eton' is a cell of column 'School': select by that column, e.g. df[df['School'] == 'Eton']
    """
    pd = sys.modules.get("pandas")
    frame = namespace.get("df")
    if pd is None or not isinstance(frame, pd.DataFrame) or not isinstance(exc, (KeyError, LookupError)):
        return ""
    said = " ".join([str(exc), *getattr(exc, "__notes__", [])])
    if not _NO_SUCH_COLUMN.search(said):
        return ""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return ""
    texts = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    named = {t.strip().casefold() for t in texts}
    by_column: dict[str, list[str]] = {}
    for text in dict.fromkeys(texts):
        if repr(text) in said:
            continue  # the label the error is about, or one its note already places
        holders = columns_holding(frame, text)
        if len(holders) != 1:
            continue
        parts = holders[0] if isinstance(holders[0], tuple) else (holders[0],)
        # A value the program selects by the column that holds it is not what it got wrong.
        if any(str(x).strip() and str(x).strip().casefold() in named for x in parts):
            continue
        by_column.setdefault(show_key(holders[0]), []).append(text)
    notes = []
    for column, values in list(by_column.items())[:HELD_VALUES]:
        shown = " and ".join(repr(v) for v in values[:HELD_VALUES])
        verb = "is a cell" if len(values) == 1 else "are cells"
        notes.append(
            f"the program's {shown} {verb} of column {column}: select by that column, "
            f"e.g. df[df[{column}] == {values[0]!r}]"
        )
    return "; ".join(notes)


def _program_text(code: str) -> str:
    """The source of the program whose frames carry :data:`FILENAME`: what ``linecache`` holds for that name
    while it runs (``code`` itself for :func:`run`; the evaluated program when the evaluation's wrapper runs
    it through :func:`program_value` and registers its lines there), else ``code``."""
    lines = linecache.getlines(FILENAME)
    return "".join(lines) if lines else code


def _failure(
    exc: BaseException,
    out: _CappedText,
    err: _CappedText,
    namespace: Mapping[str, Any] | None = None,
    code: str = "",
) -> dict[str, Any]:
    if isinstance(exc, KeyboardInterrupt):
        return {
            "ok": False,
            "error": {
                "code": "interrupted",
                "message": "KeyboardInterrupt: the program was stopped before it finished",
                "traceback": _format_error(exc)[1],
                "stdout": out.getvalue(),
                "stderr": err.getvalue(),
            },
        }
    message, tb_text = _format_error(exc)
    hint = _header_hint(exc, namespace) if namespace is not None else ""
    hint = (
        call_note(exc)
        or _empty_pick_note(exc)
        or _position_key_note(exc)
        or _setting_note(exc, namespace)
        or hint
    )
    if not hint and namespace is not None:
        hint = _text_column_note(exc, namespace, _program_text(code))
    hint = hint or _combined_rows_note(exc, code) or _truth_value_note(exc, _program_text(code), namespace)
    hint = hint or _many_as_one_note(exc) or _one_value_note(exc)
    held = _held_values_note(exc, namespace, _program_text(code)) if namespace is not None else ""
    hint = f"{hint}; {held}" if hint and held else hint or held
    if hint:
        message = f"{message} ({hint})"
    return {
        "ok": False,
        "error": {
            "code": "python-error",
            "message": message,
            "traceback": tb_text,
            "stdout": out.getvalue(),
            "stderr": err.getvalue(),
        },
    }

"""QA API: ask the language model a sub-question from inside a program.

The host injects a bridge with :func:`set_qa_bridge` when the executor starts; the bridge takes a
question and an optional value (the text of one cell) and returns the model's answer as a string.
Each program may make at most :func:`qa_limit` calls; the runner resets the count before each one.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

__all__ = [
    "DEFAULT_QA_LIMIT",
    "QABridgeMissing",
    "QALimitExceeded",
    "qa",
    "qa_calls",
    "qa_limit",
    "reset_qa",
    "set_qa_bridge",
    "set_qa_limit",
]

DEFAULT_QA_LIMIT = 20

Bridge = Callable[[str, str | None], Any]

_bridge: Bridge | None = None
_limit = DEFAULT_QA_LIMIT
_calls = 0
_cache: dict[tuple[str, str | None], str] = {}


class QABridgeMissing(RuntimeError):
    """``qa`` was called but no model is connected to answer it."""


class QALimitExceeded(RuntimeError):
    """The program asked more sub-questions than allowed."""


def set_qa_bridge(bridge: Bridge | None) -> None:
    """Connect (or, with None, disconnect) the function that answers sub-questions.

    Parameters
    ----------
    bridge : callable or None
        ``bridge(question, value)`` returning the answer text. ``value`` is None for a plain question.
        A bridge returning an awaitable is supported where Pyodide can wait for it synchronously.
    """
    global _bridge
    _bridge = bridge


def set_qa_limit(limit: int) -> None:
    """Set how many sub-questions one program may ask (default 20)."""
    global _limit
    if limit < 0:
        raise ValueError("the QA call limit cannot be negative")
    _limit = int(limit)


def qa_limit() -> int:
    """How many sub-questions one program may ask."""
    return _limit


def qa_calls() -> int:
    """How many sub-questions the current program has asked the model (cached repeats not counted)."""
    return _calls


def reset_qa() -> None:
    """Start a new program: zero the call count and forget cached answers."""
    global _calls
    _calls = 0
    _cache.clear()


def _resolve(result: Any) -> Any:
    if inspect.isawaitable(result) or hasattr(result, "then"):
        try:
            from pyodide.ffi import run_sync  # type: ignore[import-not-found]
        except ImportError as exc:
            raise QABridgeMissing(
                "the QA bridge returned an awaitable this interpreter cannot wait for"
            ) from exc
        return run_sync(result)
    return result


def _ask(question: str, value: str | None) -> str:
    global _calls
    key = (question, value)
    if key in _cache:
        return _cache[key]
    if _bridge is None:
        raise QABridgeMissing(
            "qa() is not available: no language model is connected to answer "
            "sub-questions. Answer from the table with pandas instead."
        )
    _calls += 1
    answer = _resolve(_bridge(question, value))
    text = "" if answer is None else str(answer).strip()
    _cache[key] = text
    return text


def _cell_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def qa(question: str, values: Any = None) -> Any:
    """Ask the language model a question the table cannot answer by itself (world knowledge, meaning).

    Parameters
    ----------
    question : str
        The question, e.g. ``"Which country is this city in?"``.
    values : list, tuple, Series, scalar or None
        None: ask once. A scalar: ask about that value. A list or Series: ask about each value and
        return a list (one call per distinct value).

    Returns
    -------
    str or list of str
        The model's answer(s) as text.

    Raises
    ------
    QALimitExceeded
        When the program would exceed its limit of sub-questions (default 20).
    QABridgeMissing
        When no model is connected.

    Examples
    --------
    >>> set_qa_bridge(lambda q, v: "Norway" if v == "Oslo" else "Sweden")
    >>> qa("Which country is this city in?", ["Oslo", "Stockholm", "Oslo"])
    ['Norway', 'Sweden', 'Norway']
    >>> qa_calls()
    2
    >>> reset_qa(); set_qa_bridge(None)
    """
    if not isinstance(question, str) or not question.strip():
        raise ValueError("qa() needs a question as a non-empty string")
    many = values is not None and (
        isinstance(values, (list, tuple)) or type(values).__name__ in ("Series", "Index", "ndarray")
    )
    items = [None] if values is None else (list(values) if many else [values])
    texts = [None if v is None else _cell_text(v) for v in items]
    new = {(question, t) for t in texts} - set(_cache)
    if _calls + len(new) > _limit:
        raise QALimitExceeded(
            f"qa() would need {len(new)} more model call(s) but only {_limit - _calls} of this "
            f"program's {_limit} remain. Ask about fewer values (filter the table first)."
        )
    answers = [_ask(question, t) for t in texts]
    return answers if many else answers[0]

"""An answer as its question asks for it, where the question's phrasing settles its form.

"What is the difference between A and B?" asks for a size: in everyday English, and in published tables'
questions, a difference is given without a sign, whichever of the two is larger. A program that subtracts
in the other order than the larger first gets the same size with a minus sign, which a reader would not
write. Such an answer is read as its size, and the reading is reported with the answer (:mod:`tableqa.trace`).
A question that asks for a change ("how did … change", "what was the increase") says nothing here: a
change keeps its sign. Only the word "difference" (or "differ by") is read so.

Nothing here imports pandas or numpy; a Series or array answer is recognised by its type's name.
"""

from __future__ import annotations

import math
import re

from . import trace

__all__ = ["as_asked", "asks_for_size"]

_SIZE = re.compile(r"\b(difference|differences|differ by|differed by|differs by)\b", re.IGNORECASE)


def asks_for_size(question: str) -> bool:
    """Whether the question asks for a difference, which is given without a sign.

    Examples
    --------
    >>> asks_for_size("What is the difference in points between the two teams?")
    True
    >>> asks_for_size("By how much did sales change from 2010 to 2011?")
    False
    >>> asks_for_size("how many years did the two reigns differ by?")
    True
    """
    return bool(_SIZE.search(question))


def _negative_number(value: object) -> float | None:
    """The value when it is one negative number (a plain or numpy number, not a bool), else None."""
    if isinstance(value, bool):
        return None
    numpy_number = (
        type(value).__module__.split(".")[0] == "numpy"
        and getattr(value, "ndim", None) == 0
        and getattr(getattr(value, "dtype", None), "kind", "") in ("i", "u", "f")
    )
    if not isinstance(value, (int, float)) and not numpy_number:
        return None
    number = float(value)  # type: ignore[arg-type]
    return number if math.isfinite(number) and number < 0 else None


def _one_value(value: object) -> object | None:
    """The one value of a pandas Series or numpy array of one number; None for anything else."""
    kind = type(value).__name__
    module = type(value).__module__.split(".")[0]
    if (module, kind) not in {("pandas", "Series"), ("numpy", "ndarray")}:
        return None
    if module == "numpy" and getattr(value, "ndim", 0) != 1:
        return None
    try:
        if len(value) != 1:  # type: ignore[arg-type]
            return None
        first: object = value.iloc[0] if module == "pandas" else value[0]  # type: ignore[attr-defined,index]
    except (TypeError, IndexError, AttributeError):
        return None
    return first


def as_asked(value: object) -> object:
    """``value`` as the running program's question asks for it (:func:`tableqa.trace.question`): a negative
    number where a difference was asked becomes its size, and the reading is recorded. Anything else is
    returned as it is.

    Examples
    --------
    >>> trace.set_question("What is the difference between the two heights?")
    >>> as_asked(-12.5), as_asked(7), as_asked("-3"), as_asked(True)
    (12.5, 7, '-3', True)
    >>> trace.recorded_readings()[-1]
    'the question asks for a difference, which is a size: -12.5 is read as 12.5'
    >>> trace.set_question("How much did the height change?")
    >>> as_asked(-12.5)
    -12.5
    >>> trace.set_question(None)
    """
    question = trace.question()
    if not question or not asks_for_size(question):
        return value
    one = _one_value(value)
    number = _negative_number(value if one is None else one)
    if number is None:
        return value
    trace.record_reading(
        f"the question asks for a difference, which is a size: {_text(number)} is read as {_text(-number)}",
        of_answer=True,
    )
    return abs(value)  # type: ignore[arg-type]


def _text(number: float) -> str:
    """A number as the reading shows it: whole numbers without a decimal point, others to 10 digits."""
    return str(int(number)) if number.is_integer() else f"{number:.10g}"

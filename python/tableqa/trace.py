"""What one program did that its answer alone does not show: the cells the Operation APIs read (answer
provenance), the conditions on text that matched no row, and how the runtime read words of the program
that pandas would have refused (a header path, a column name, text matched as words).

The runner clears these records before each program; :mod:`tableqa.ops` adds the source cells that a
lookup or aggregation read, and the answer normaliser reports them. A condition that matched no row
(``df["Town"] == "North Carolina"`` where the cells read ``"Raleigh, NC"``) is recorded by
:mod:`tableqa.pathloc` and :func:`tableqa.ops.filter_rows`; the runner reports it with an answer that is
empty or zero, where it most often means the value was written differently from the cells; so is
arithmetic between two selections that share no row label, which gives only NaN
(:func:`tableqa.pathloc.arith_test`). Readings
(``.loc["services", "men"] read as header paths: …``, or a difference read as a size) are recorded where
they are made and reported with every answer, so that whoever reads the answer knows what it rests on.

The question a program answers is kept here too (:func:`set_question`, set by the runner for each
program): where a label of the program names several headers of the table, the one whose own labels the
question names is read (:func:`tableqa.headers.named_by_question`).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "MAX_CELLS",
    "MAX_READINGS",
    "MAX_UNMATCHED",
    "question",
    "record_cells",
    "record_reading",
    "record_unmatched",
    "recorded_cells",
    "recorded_readings",
    "recorded_unmatched",
    "reset_cells",
    "set_question",
]

MAX_CELLS = 2000
# Conditions that matched no row kept per program.
MAX_UNMATCHED = 3
# Readings kept per program.
MAX_READINGS = 3
_unmatched: list[str] = []
_readings: list[str] = []
_cells: list[dict[str, int]] = []
_question: list[str] = [""]
_seen: set[tuple[int, int]] = set()


def record_cells(cells: Iterable[dict[str, int]]) -> None:
    """Remember source cells ``{"row", "col"}`` (duplicates and cells past ``MAX_CELLS`` ignored)."""
    for cell in cells:
        key = (cell["row"], cell["col"])
        if key not in _seen and len(_cells) < MAX_CELLS:
            _seen.add(key)
            _cells.append({"row": cell["row"], "col": cell["col"]})


def recorded_cells() -> list[dict[str, int]]:
    """The cells recorded since the last :func:`reset_cells`, in the order first read."""
    return list(_cells)


def reset_cells() -> None:
    """Forget the recorded cells and conditions (the runner calls this before each program)."""
    _cells.clear()
    _seen.clear()
    _unmatched.clear()
    _readings.clear()


def record_unmatched(text: str) -> None:
    """Remember a condition that matched no row, said in one line (repeats and those past
    ``MAX_UNMATCHED`` ignored)."""
    if text not in _unmatched and len(_unmatched) < MAX_UNMATCHED:
        _unmatched.append(text)


def recorded_unmatched() -> list[str]:
    """The conditions that matched no row since the last :func:`reset_cells`, in order."""
    return list(_unmatched)


def record_reading(text: str, *, of_answer: bool = False) -> None:
    """Remember how the runtime read words of the program that pandas would have refused, said in one line
    (repeats and those past ``MAX_READINGS`` ignored), or, with ``of_answer``, how it read the answer itself
    as its question asks for it (:mod:`tableqa.asked`; kept even past the cap, as the answer changed)."""
    if text not in _readings and (of_answer or len(_readings) < MAX_READINGS):
        _readings.append(text)


def recorded_readings() -> list[str]:
    """The readings since the last :func:`reset_cells`, in order."""
    return list(_readings)


def set_question(text: str | None) -> None:
    """Set the question the next program answers (``""`` or None: none known)."""
    _question[0] = text if isinstance(text, str) else ""


def question() -> str:
    """The question the running program answers; ``""`` when none is known."""
    return _question[0]

"""Small hand-made tables in the shapes the datasets have (hierarchical, airline report, flat)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import pytest

from tableqa import trace

# The package exports the function ``qa``, which hides the module of the same name.
qa_api = importlib.import_module("tableqa.qa")


def hitab_payload() -> dict[str, Any]:
    """Two-level top header, two-level left header with a parent row that holds the total."""
    return {
        "name": "employment by sex",
        "options": {"headerRows": 2, "headerCols": 2},
        "columns": [["2016", "men"], ["2016", "women"], ["2017", "men"], ["2017", "women"]],
        "index": [
            ["all workers", ""],
            ["all workers", "full-time"],
            ["all workers", "part-time"],
            ["self-employed (a)", ""],
            ["self-employed (a)", "full-time"],
        ],
        "values": [
            ["1,000", "900", "1,100", "950"],
            ["800", "600", "850", "640"],
            ["200", "300", "250", "310"],
            ["150", "\u2014", "160", "(5)"],
            ["120", "70", "130", "x"],
        ],
        "columnCells": [None, None, None, None],
        "indexCells": [None, None, None, None, None],
        "rowSource": [2, 3, 4, 5, 6],
        "colSource": [2, 3, 4, 5],
    }


def airline_payload() -> dict[str, Any]:
    """Airline-report style: footnote marks, currency, accounting negatives, one-level columns."""
    return {
        "name": "operating results",
        "options": {"headerRows": 1, "headerCols": 2},
        "columns": [["2019"], ["2018"], ["2017"]],
        "index": [
            ["Operating revenue:", "Passenger revenue (1)"],
            ["Operating revenue:", "Cargo"],
            ["Operating revenue:", "Total operating revenue"],
            ["Operating expenses", "Fuel\u2014net"],
            ["Net income (loss)", ""],
        ],
        "values": [
            ["$39,625", "$37,706", "$34,581"],
            ["1,179", "1,237", "1,035"],
            ["$43,259", "$41,303", "$37,736"],
            ["8,953", "9,307", "6,913"],
            ["$3,009", "$2,129", "(1,919)"],
        ],
        "columnCells": [None, None, None],
        "indexCells": [None] * 5,
        "rowSource": [1, 2, 3, 4, 5],
        "colSource": [2, 3, 4],
    }


def flat_payload() -> dict[str, Any]:
    """WikiTQ style: one header row, no left header."""
    return {
        "name": "medals",
        "options": {"headerRows": 1, "headerCols": 0},
        "columns": [["Rank"], ["Nation"], ["Gold"], ["Silver"], ["Total"]],
        "index": [],
        "values": [
            ["1", "Norway", "16", "8", "37"],
            ["2", "Germany", "12", "10", "31"],
            ["3", "Canada", "11", "8", "26"],
            ["4", "United States", "9", "8", "25"],
            ["5", "Netherlands", "8", "6", "20"],
        ],
        "columnCells": [None] * 5,
        "indexCells": [],
        "rowSource": [1, 2, 3, 4, 5],
        "colSource": [0, 1, 2, 3, 4],
    }


@pytest.fixture(autouse=True)
def _fresh_state() -> Iterator[None]:
    qa_api.reset_qa()
    qa_api.set_qa_bridge(None)
    qa_api.set_qa_limit(qa_api.DEFAULT_QA_LIMIT)
    trace.reset_cells()
    yield
    qa_api.set_qa_bridge(None)
    qa_api.set_qa_limit(qa_api.DEFAULT_QA_LIMIT)


@pytest.fixture
def hitab() -> Any:
    from tableqa.frame import build_frame

    return build_frame(hitab_payload())


@pytest.fixture
def airline() -> Any:
    from tableqa.frame import build_frame

    return build_frame(airline_payload())


@pytest.fixture
def flat() -> Any:
    from tableqa.frame import build_frame

    return build_frame(flat_payload())

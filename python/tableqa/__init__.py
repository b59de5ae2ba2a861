"""TableQA runtime library: what programs see inside the Python executor.

Importing the package needs neither numpy nor pandas: :func:`runner.run`, :func:`rows_view`, the
QA API and :func:`api_doc` work in a bare interpreter; the DataFrame functions import pandas when
they are called.
"""

from __future__ import annotations

from . import answer, apidoc, frame, headers, ops, rows, runner, sql, text, trace
from .answer import normalize_answer
from .apidoc import api_doc, api_namespace
from .frame import build_frame, raw_frame
from .headers import AmbiguousHeader, HeaderNotFound
from .ops import (
    aggregate,
    column,
    compare,
    count,
    diff,
    filter_rows,
    lookup,
    next_value,
    pct_change,
    ratio,
    row,
    select,
    to_number,
    top_k,
    value_of,
)
from .qa import QABridgeMissing, QALimitExceeded, qa, qa_calls, reset_qa, set_qa_bridge, set_qa_limit
from .rows import rows_view
from .runner import run
from .sql import SQLError, sqldf
from .text import parse_number

__all__ = [
    "AmbiguousHeader",
    "HeaderNotFound",
    "QABridgeMissing",
    "QALimitExceeded",
    "SQLError",
    "aggregate",
    "answer",
    "api_doc",
    "api_namespace",
    "apidoc",
    "build_frame",
    "column",
    "compare",
    "count",
    "diff",
    "filter_rows",
    "frame",
    "headers",
    "lookup",
    "next_value",
    "normalize_answer",
    "ops",
    "parse_number",
    "pct_change",
    "qa",
    "qa_calls",
    "ratio",
    "raw_frame",
    "reset_qa",
    "row",
    "rows",
    "rows_view",
    "run",
    "runner",
    "select",
    "set_qa_bridge",
    "set_qa_limit",
    "sql",
    "sqldf",
    "text",
    "to_number",
    "top_k",
    "trace",
    "value_of",
]

"""TableQA runtime library: what programs see inside the Python executor.

Importing the package needs neither numpy nor pandas: :func:`runner.run`, :func:`rows_view`, the
QA API and :func:`api_doc` work in a bare interpreter; the DataFrame functions import pandas when
they are called.
"""

from __future__ import annotations

from . import answer, apidoc, frame, headers, ops, rows, runner, sql, text, trace
from .answer import normalize_answer
from .apidoc import API_FUNCTIONS, api_doc, api_namespace
from .frame import build_frame, raw_frame
from .headers import AmbiguousHeader, HeaderNotFound
from .qa import QABridgeMissing, QALimitExceeded, qa_calls, reset_qa, set_qa_bridge, set_qa_limit
from .rows import rows_view
from .runner import run
from .sql import SQLError
from .text import parse_number

# The API functions (lookup, select, ..., qa, sqldf) are exported under their own names from the one
# list that also builds the documentation and every program's namespace: apidoc.API_FUNCTIONS.
globals().update({fn.__name__: fn for fn in API_FUNCTIONS})

__all__ = [
    "API_FUNCTIONS",
    "AmbiguousHeader",
    "HeaderNotFound",
    "QABridgeMissing",
    "QALimitExceeded",
    "SQLError",
    "answer",
    "api_doc",
    "api_namespace",
    "apidoc",
    "build_frame",
    "frame",
    "headers",
    "normalize_answer",
    "ops",
    "parse_number",
    "qa_calls",
    "raw_frame",
    "reset_qa",
    "rows",
    "rows_view",
    "run",
    "runner",
    "set_qa_bridge",
    "set_qa_limit",
    "sql",
    "text",
    "trace",
]
__all__ += [fn.__name__ for fn in API_FUNCTIONS]

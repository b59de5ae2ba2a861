"""The tampering check: ordinary programs pass, programs that change shared state are caught."""

from __future__ import annotations

import json

import pytest

from tableqa import host


@pytest.fixture(autouse=True)
def _table() -> None:
    host.install_qa_bridge(lambda question, value: "an answer")
    host.load_table(
        "t",
        json.dumps(
            {
                "name": "t",
                "columns": [["a"], ["b"]],
                "index": [["r1"], ["r2"]],
                "values": [["1", "2"], ["3", "4"]],
            }
        ),
    )


@pytest.mark.parametrize(
    "code",
    [
        "1 + 1",
        'qa("a question")',
        'qa("a question", ["x", "y"])',
        'lookup(df, "r1", "a")',
        'sqldf("select * from df")',
        "import statistics\nstatistics.mean([1, 2])",
        "df.iloc[0, 0] = 99",
    ],
)
def test_ordinary_programs_do_not_count_as_tampering(code: str) -> None:
    host.run_json(code, "t")
    assert host.tampered() is False


@pytest.mark.parametrize(
    "code",
    [
        "import builtins\nbuiltins.len = lambda x: 0",
        "import tableqa.runner\ntableqa.runner.run = None",
        "import sys\nsys.path.insert(0, '/tmp/evil')",
        "import tableqa.host as h\nh._tables.clear()",
        "import sys, types\nsys.modules['json'] = types.ModuleType('json')",
    ],
)
def test_programs_that_change_shared_state_are_caught(code: str) -> None:
    import builtins
    import sys

    import tableqa.runner

    saved = (builtins.len, list(sys.path), sys.modules["json"], tableqa.runner.run)
    try:
        host.run_json(code, "t")
        assert host.tampered() is True
    finally:
        builtins.len, sys.path[:], sys.modules["json"], tableqa.runner.run = saved

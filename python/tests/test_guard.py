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
    host.seal()


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


@pytest.mark.parametrize(
    "code",
    [
        # The function objects stay the same; only their code, defaults or closure change.
        "import tableqa.runner as r\n"
        "r.describe_value.__code__ = (lambda value, cells=None: {'repr': '666'}).__code__",
        "import tableqa.runner as r\nr._capped_repr.__defaults__ = (1,)",
        "import json\njson.dumps.__code__ = (lambda *a, **k: '666').__code__",
        "import tableqa.host as h\nh._tables['t'] = {'rows': []}",
        "import tableqa.ops as o\no.__dict__['lookup'] = print",
    ],
)
def test_code_swapped_in_place_and_edited_tables_are_caught(code: str) -> None:
    import json as json_module

    import tableqa.ops
    import tableqa.runner

    saved = (
        tableqa.runner.describe_value.__code__,
        tableqa.runner._capped_repr.__defaults__,
        json_module.dumps.__code__,
        tableqa.ops.lookup,
    )
    try:
        host.run_json(code, "t")
        assert host.tampered() is True
    finally:
        tableqa.runner.describe_value.__code__ = saved[0]
        tableqa.runner._capped_repr.__defaults__ = saved[1]
        json_module.dumps.__code__ = saved[2]
        tableqa.ops.lookup = saved[3]


def test_loading_and_dropping_tables_between_runs_is_not_tampering() -> None:
    host.run_json("1", "t")
    host.load_table("u", json.dumps({"name": "u", "columns": [["x"]], "index": [[]], "values": [["1"]]}))
    host.run_json("len(df)", "u")
    host.drop_table("u")
    assert host.tampered() is False


def test_the_snapshot_names_the_state_at_seal_time() -> None:
    digest = host.seal()
    assert digest == host.integrity()
    import tableqa.text

    saved = tableqa.text.parse_number
    tableqa.text.parse_number = lambda text: 0  # type: ignore[assignment]
    try:
        assert host.integrity() != digest
    finally:
        tableqa.text.parse_number = saved
    assert host.integrity() == digest

"""Loading tables into the executor: the fast column readers, size limits, and when a run starts."""

from __future__ import annotations

import gc
import io
import json
import math
from typing import Any

import pytest

from tableqa import host
from tableqa.rows import _plain_number, header_tuples, plain_numbers, rows_view, typed_columns
from tableqa.serve import Link
from tableqa.text import parse_number

# Cells the column-at-a-time readers must read exactly as parse_number does, one by one.
TRICKY = [
    "1",
    "-2",
    "007",
    "3.",
    ".5",
    "-0",
    "1e3",
    "2E-2",
    "1,200",
    "(12)",
    "12%",
    "$3.5",
    "\u2014",
    "",
    "n/a",
    " 4 ",
    "1\n2",
    "\u0661\u0662",
    "nan",
    "inf",
    "1_000",
    "+5",
    "--3",
    "12345678901234567890",
    "0.1",
    "9007199254740993",
    "x1",
    "Total",
]


def _reference(texts: list[str]) -> tuple[bool, list[float | None]]:
    nums = [parse_number(t) for t in texts]
    numeric = all(v is not None for v in nums) and any(v is not None and not math.isnan(v) for v in nums)
    return numeric, nums


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


@pytest.mark.parametrize("text", TRICKY)
@pytest.mark.parametrize("others", [[], ["1", "2"], ["\u2014", "5"]])
def test_columns_read_as_parse_number_reads_each_cell(text: str, others: list[str]) -> None:
    texts = [*others, text]
    ((numeric, got_texts, nums),) = typed_columns({"values": [[t] for t in texts]})
    want_numeric, want = _reference(texts)
    assert got_texts == texts
    assert numeric is want_numeric
    if numeric:
        assert all(_same(a, b) for a, b in zip(nums, want, strict=True))
        assert plain_numbers(texts, nums) == [_plain_number(v) for v in nums]
        assert [type(v) for v in plain_numbers(texts, nums)] == [type(_plain_number(v)) for v in nums]


def test_ragged_rows_and_non_text_cells_read_as_text() -> None:
    typed = typed_columns({"columns": [["a"], ["b"], ["c"]], "values": [["1", None], ["2"], [3, "x", "4"]]})
    assert [t[1] for t in typed] == [["1", "2", "3"], ["", "", "x"], ["", "", "4"]]
    assert [t[0] for t in typed] == [True, False, True]


def test_a_table_without_a_left_header_gives_the_same_rows_with_or_without_index_entries() -> None:
    values = [["a", "1"], ["b", "2.5"]]
    with_index = rows_view({"columns": [["k"], ["v"]], "index": [[], []], "values": values})
    without = rows_view({"columns": [["k"], ["v"]], "index": [], "values": values})
    assert with_index == without == [{"k": "a", "v": 1}, {"k": "b", "v": 2.5}]
    assert header_tuples([[], []]) == [(), ()]


def _payload(rows: int, cols: int = 2) -> dict[str, Any]:
    return {
        "name": "t",
        "columns": [[f"c{j}"] for j in range(cols)],
        "index": [[] for _ in range(rows)],
        "values": [[str(i * cols + j) for j in range(cols)] for i in range(rows)],
    }


@pytest.fixture(autouse=True)
def _clean() -> Any:
    yield
    for table_id in ("big", "ok", "bad"):
        host.drop_table(table_id)


def test_a_table_over_the_cell_limit_is_refused_with_both_sizes_named() -> None:
    message = host.load_table("big", json.dumps(_payload(1_500_000 // 2 + 1)), max_cells=1_000_000)
    assert message.startswith(
        "This table has 1.5 million cells (750,001 rows \u00d7 2 columns); "
        "the Python sandbox handles up to 1.0 million."
    )
    assert "local Python executor" in message
    calls: list[int] = []
    result = json.loads(host.run_json("answer = 1", "big", on_start=lambda: calls.append(1)))
    assert result == {
        "ok": False,
        "error": {"code": "too-large", "message": message, "stdout": "", "stderr": ""},
    }
    assert calls == []


def test_a_table_over_the_row_limit_is_refused_with_both_sizes_named() -> None:
    message = host.load_table("big", json.dumps(_payload(1_200, cols=1)), max_cells=10_000, max_rows=1_000)
    assert message.startswith(
        "This table has 1,200 rows (1,200 rows \u00d7 1 columns); the Python sandbox handles up to 1,000."
    )
    assert host.load_table("ok", json.dumps(_payload(1_000, cols=1)), max_cells=10_000, max_rows=1_000) == ""


def test_a_payload_over_the_byte_limit_is_refused_before_it_is_parsed() -> None:
    message = host.load_table("big", b"{not json at all" + b" " * 3 * 2**20, max_bytes=2**20)
    assert message.startswith("This table is 3 MB as data; the Python sandbox handles up to 1 MB.")


def test_tables_load_from_bytes_and_the_run_starts_after_the_namespace_is_built() -> None:
    assert host.load_table("ok", json.dumps(_payload(3)).encode("utf-8"), max_cells=100) == ""
    events: list[str] = []
    code = "answer = int(df['c1'].sum()) if 'df' in globals() else sum(r['c1'] for r in rows)"
    result = json.loads(host.run_json(code, "ok", on_start=lambda: events.append("started")))
    assert result["ok"]
    assert result["value"]["value"]["json"] == 1 + 3 + 5
    assert events == ["started"]
    assert gc.isenabled()


def test_a_payload_python_cannot_read_fails_its_runs_clearly() -> None:
    assert host.load_table("bad", "{").startswith("Python could not read this table: JSONDecodeError")
    result = json.loads(host.run_json("answer = 1", "bad"))
    assert result["error"]["code"] == "bad-input"
    assert result["error"]["message"].startswith("Python could not read this table")


def test_the_serve_link_reads_a_table_sent_as_a_line_and_raw_bytes() -> None:
    payload = json.dumps(_payload(2)).encode("utf-8") + b"\n\xe2\x80\x94"
    stream = io.BytesIO(
        b'{"type": "table", "tableId": "ok", "bytes": %d}\n' % len(payload)
        + payload
        + b'{"type": "drop-table", "tableId": "ok"}\n'
    )
    link = Link(stream, io.StringIO())
    first = link.receive()
    assert first is not None
    assert first["payload"] == payload
    assert link.receive() == {"type": "drop-table", "tableId": "ok"}
    assert link.receive() is None


@pytest.mark.parametrize("pandas", [True, False])
def test_every_run_gets_the_table_as_loaded_after_others_changed_theirs(
    monkeypatch: pytest.MonkeyPatch, pandas: bool
) -> None:
    monkeypatch.setattr(host, "_pandas", pandas and host.pandas_available())
    assert host.load_table("t", json.dumps(_payload(3))) == ""
    change = (
        "df.iloc[0, 0] = 1000\ndf.drop(df.index[-1], inplace=True)"
        if pandas
        else "rows[0]['c1'] = 1000\nrows.pop()\nrows[0]['extra'] = 1"
    )
    read = (
        "answer = [len(df), int(df.iloc[0, 0])]"
        if pandas
        else "answer = [len(rows), rows[0]['c1'], 'extra' in rows[0]]"
    )
    expected = [3, 0] if pandas else [3, 1, False]
    # More runs than copies made ahead: the later ones copy as they start.
    for _ in range(host.READY_COPIES + 2):
        seen = json.loads(host.run_json(f"{read}\n{change}", "t"))
        assert seen["ok"], seen
        assert seen["value"]["value"]["json"] == expected
    host.drop_table("t")


def test_a_runs_namespace_lives_until_released_then_is_freed() -> None:
    # The answer is sent before the program's namespace (its table copy) is freed; release() frees it.
    host.load_table("spent", json.dumps({"columns": [["a"]], "index": [["x"]], "values": [["1"]]}))
    code = "import weakref\nclass Kept: pass\nkept = Kept()\nprobe = weakref.ref(kept)\nanswer = 1"
    result = json.loads(host.run_json(code, "spent"))
    assert result["ok"] is True
    probe = host._spent[0]["probe"]
    assert probe() is not None
    host.release()
    gc.collect()  # the program's class holds a cycle (its __dict__), so the collector frees it
    assert probe() is None
    assert host._spent == []
    host.drop_table("spent")

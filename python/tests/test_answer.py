import datetime as dt
import decimal
import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from tableqa.answer import answer_item, is_pandas_like, normalize_answer
from tableqa.frame import build_frame


def items(value: object) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = normalize_answer(value)["items"]
    return result


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (3, {"value": 3, "type": "number"}),
        (2.5, {"value": 2.5, "type": "number"}),
        (4.0, {"value": 4, "type": "number"}),
        (decimal.Decimal("1.25"), {"value": 1.25, "type": "number"}),
        (np.int64(7), {"value": 7, "type": "number"}),
        (np.float32(0.5), {"value": 0.5, "type": "number"}),
        (np.bool_(False), {"value": False, "type": "boolean"}),
        (True, {"value": True, "type": "boolean"}),
        (" Oslo ", {"value": "Oslo", "type": "string"}),
        (np.str_("x"), {"value": "x", "type": "string"}),
        (b"bytes", {"value": "bytes", "type": "string"}),
        (dt.date(2020, 1, 2), {"value": "2020-01-02", "type": "date"}),
        (dt.datetime(2020, 1, 2, 3, 4), {"value": "2020-01-02T03:04:00", "type": "date"}),
        (pd.Timestamp("2020-01-02"), {"value": "2020-01-02", "type": "date"}),
        (np.datetime64("2021-05-06"), {"value": "2021-05-06", "type": "date"}),
        (float("inf"), {"value": "inf", "type": "string"}),
        (2**60, {"value": float(2**60), "type": "number"}),
    ],
)
def test_scalars(value: object, expected: dict[str, Any]) -> None:
    assert items(value) == [expected]
    assert answer_item(value) == expected


@pytest.mark.parametrize(
    "value", [None, math.nan, np.nan, pd.NaT, pd.NA, np.datetime64("NaT"), [None, math.nan]]
)
def test_missing_values_give_no_items(value: object) -> None:
    assert items(value) == []


def test_containers_are_flattened_in_order() -> None:
    assert [i["value"] for i in items([1, (2, 3), [4, [5]]])] == [1, 2, 3, 4, 5]
    assert [i["value"] for i in items({"a": 1, "b": "x"})] == [1, "x"]
    assert [i["value"] for i in items({3, 1, 2})] == [1, 2, 3]
    assert [i["value"] for i in items(x * 2 for x in range(3))] == [0, 2, 4]
    assert [i["value"] for i in items({"k": 1}.values())] == [1]


def test_pandas_and_numpy_containers() -> None:
    assert [i["value"] for i in items(pd.Series([1.5, None, 3.0]))] == [1.5, 3]
    assert [i["value"] for i in items(pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}))] == [1, "x", 2, "y"]
    assert [i["value"] for i in items(np.array([[1, 2], [3, 4]]))] == [1, 2, 3, 4]
    assert [i["value"] for i in items(pd.Index(["p", "q"]))] == ["p", "q"]
    assert [i["type"] for i in items(pd.Series(pd.to_datetime(["2020-01-01"])))] == ["date"]
    assert [i["value"] for i in items(pd.Categorical(["u", "v"]))] == ["u", "v"]


def test_items_are_capped() -> None:
    assert len(items(list(range(20_000)))) == 10_000


def test_source_cells_of_frames_and_series() -> None:
    df = build_frame(
        {
            "columns": [["a"], ["b"]],
            "index": [["x"], ["y"]],
            "values": [["1", "2"], ["3", "4"]],
            "rowSource": [5, 6],
            "colSource": [1, 2],
        }
    )
    assert normalize_answer(df["b"])["cells"] == [{"row": 5, "col": 2}, {"row": 6, "col": 2}]
    assert normalize_answer(df.loc["y"])["cells"] == [{"row": 6, "col": 1}, {"row": 6, "col": 2}]
    assert normalize_answer(df.loc[["x"], ["a"]])["cells"] == [{"row": 5, "col": 1}]
    assert normalize_answer(df.sum())["cells"] == []
    merged = normalize_answer(3, [{"row": 1, "col": 1}, {"row": 1, "col": 1}])
    assert merged == {"items": [{"value": 3, "type": "number"}], "cells": [{"row": 1, "col": 1}]}


def test_pandas_detection() -> None:
    assert is_pandas_like(np.int64(1))
    assert is_pandas_like([np.int64(1)])
    assert is_pandas_like({"a": pd.Timestamp("2020-01-01")})
    assert not is_pandas_like([1, "a"])


def test_a_long_or_wide_table_answer_is_cut_to_its_caps_and_says_how_long_it_was() -> None:
    from tableqa.answer import MAX_TABLE_CELLS, MAX_TABLE_ROWS, answer_table

    long = answer_table(pd.DataFrame({"n": range(MAX_TABLE_ROWS + 5)}))
    assert long is not None
    assert len(long["rows"]) == MAX_TABLE_ROWS
    assert long["rowCount"] == MAX_TABLE_ROWS + 5
    assert long["index"] == []
    assert long["indexNames"] == []
    wide = answer_table(pd.DataFrame([list(range(100))] * 200))
    assert wide is not None
    assert len(wide["rows"]) == MAX_TABLE_CELLS // 100
    assert wide["rowCount"] == 200


def test_a_table_answer_keeps_a_multiindex_and_missing_values() -> None:
    from tableqa.answer import answer_table

    index = pd.MultiIndex.from_tuples([("all", ""), ("all", "full-time")], names=["group", None])
    frame = pd.DataFrame({("2016", "men"): [1.5, np.nan]}, index=index)
    table = answer_table(frame)
    assert table == {
        "columns": [["2016", "men"]],
        "indexNames": ["group", ""],
        "index": [["all", ""], ["all", "full-time"]],
        "rows": [[1.5], [None]],
        "rowCount": 2,
    }
    assert "table" not in normalize_answer([1, 2])
    assert "table" not in normalize_answer(np.array([1, 2]))

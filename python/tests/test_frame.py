import math
from typing import Any

import pandas as pd
import pytest
from conftest import airline_payload, flat_payload, hitab_payload

from tableqa.frame import build_frame, raw_frame, source_of
from tableqa.rows import flat_names, rows_view


def test_multi_level_headers_become_multiindexes_equal_to_the_tuples() -> None:
    p = hitab_payload()
    df = build_frame(p)
    assert isinstance(df.columns, pd.MultiIndex)
    assert isinstance(df.index, pd.MultiIndex)
    assert df.columns.tolist() == [tuple(t) for t in p["columns"]]
    assert df.index.tolist() == [tuple(t) for t in p["index"]]


def test_one_level_headers_become_plain_indexes_of_the_labels() -> None:
    p = airline_payload()
    df = build_frame(p)
    assert not isinstance(df.columns, pd.MultiIndex)
    assert df.columns.tolist() == ["2019", "2018", "2017"]


def test_no_left_header_gives_a_range_index() -> None:
    df = build_frame(flat_payload())
    assert isinstance(df.index, pd.RangeIndex)
    assert df.index.tolist() == [0, 1, 2, 3, 4]


def test_numeric_columns_are_read_from_report_text() -> None:
    df = build_frame(hitab_payload())
    assert df[("2016", "men")].tolist() == [1000, 800, 200, 150, 120]
    assert str(df[("2016", "men")].dtype) == "int64"
    women = df[("2016", "women")]
    assert women.dtype == "float64"
    assert math.isnan(women.iloc[3])
    assert df[("2017", "women")].iloc[3] == -5.0
    airline = build_frame(airline_payload())
    assert airline["2017"].tolist() == [34581, 1035, 37736, 6913, -1919]


def test_text_columns_stay_text() -> None:
    df = build_frame(flat_payload())
    assert df["Nation"].tolist()[:2] == ["Norway", "Germany"]
    assert df["Gold"].tolist()[:2] == [16, 12]


def test_a_column_with_any_non_number_stays_text() -> None:
    df = build_frame({"columns": [["a"]], "index": [], "values": [["1"], ["two"], ["3"]]})
    assert df["a"].tolist() == ["1", "two", "3"]


def test_the_hosts_numeric_view_is_used_when_present() -> None:
    payload: dict[str, Any] = {
        "columns": [["a"], ["b"]],
        "index": [],
        "values": [["12 E", "x"], ["7 F", "y"]],
        "numbers": [[12, None], [7, None]],
    }
    df = build_frame(payload)
    assert df["a"].tolist() == [12, 7]
    assert df["b"].tolist() == ["x", "y"]


def test_raw_text_and_source_cells_stay_with_the_frame() -> None:
    df = build_frame(hitab_payload())
    raw = raw_frame(df)
    assert raw.loc[("self-employed (a)", ""), ("2016", "women")] == "\u2014"
    assert raw.shape == df.shape
    sub = df.loc[[("all workers", "full-time")], [("2017", "men")]]
    assert raw_frame(sub).iloc[0, 0] == "850"
    src = source_of(df[("2017", "men")])
    assert src is not None
    assert src.cells(("all workers", "full-time"), ("2017", "men")) == [{"row": 3, "col": 4}]


def test_attrs_stay_cheap_to_copy() -> None:
    df = build_frame(hitab_payload())
    derived = (df + 1).iloc[:2]
    assert source_of(derived) is source_of(df)


def test_ragged_header_tuples_are_padded_with_blank_levels() -> None:
    df = build_frame(
        {"columns": [["a", "b"], ["c"]], "index": [["x"], ["y", "z"]], "values": [["1", "2"], ["3", "4"]]}
    )
    assert df.columns.tolist() == [("a", "b"), ("c", "")]
    assert df.index.tolist() == [("x", ""), ("y", "z")]


def test_short_rows_are_padded_and_empty_tables_work() -> None:
    df = build_frame({"columns": [["a"], ["b"]], "index": [], "values": [["1"], ["2", "3"]]})
    assert df.shape == (2, 2)
    empty = build_frame({"columns": [["a"]], "index": [], "values": []})
    assert empty.shape == (0, 1)
    assert empty.columns.tolist() == ["a"]


def test_rows_view_gives_plain_dicts_with_flat_names() -> None:
    rows = rows_view(hitab_payload())
    assert list(rows[0]) == ["level_0", "level_1", "2016 | men", "2016 | women", "2017 | men", "2017 | women"]
    assert rows[3]["2016 | women"] is None
    assert rows[3]["2017 | women"] == -5
    assert rows[3]["level_0"] == "self-employed (a)"
    flat = rows_view(flat_payload())
    assert flat[0] == {"Rank": 1, "Nation": "Norway", "Gold": 16, "Silver": 8, "Total": 37}


def test_flat_names_are_unique_and_never_empty() -> None:
    assert flat_names([("a", ""), ("a", ""), ("", "")]) == ["a", "a (2)", "column_2"]


@pytest.mark.parametrize("payload", [hitab_payload(), airline_payload(), flat_payload()])
def test_rows_view_agrees_with_the_frame(payload: dict[str, Any]) -> None:
    df = build_frame(payload)
    rows = rows_view(payload)
    assert len(rows) == df.shape[0]
    for i, r in enumerate(rows):
        data = list(r.values())[-df.shape[1] :]
        for j, v in enumerate(data):
            cell = df.iat[i, j]
            if v is None:
                assert isinstance(cell, float)
                assert math.isnan(cell)
            else:
                assert v == cell

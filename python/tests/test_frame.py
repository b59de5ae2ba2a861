import datetime as dt
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


def stored_payload() -> dict[str, Any]:
    """A sheet's cells as the importers type them: one column per kind of value, one row per region."""
    return {
        "name": "sheet",
        "columns": [
            ["area"],
            ["share"],
            ["people"],
            ["since"],
            ["opens"],
            ["wait"],
            ["open"],
            ["code"],
            ["note"],
        ],
        "index": [],
        "values": [
            ["151", "12%", "1,200", "1/2/2020", "9:30", "36:00:00", "TRUE", "007", "see note"],
            ["96", "#DIV/0!", "", "", "", "1:00:00", "FALSE", "12", "2"],
        ],
        "stored": [
            {"kinds": "NN", "numbers": [151.4716, 96.0708]},
            {"kinds": "N0", "numbers": [0.123]},
            {"kinds": "n.", "numbers": []},
            {"kinds": "d.", "numbers": [1577923200000]},
            {"kinds": "h.", "numbers": [34200000]},
            {"kinds": "ee", "numbers": [129600000, 3600000]},
            {"kinds": "tf", "numbers": []},
            {"kinds": "ss", "numbers": []},
            {"kinds": ".n", "numbers": []},
        ],
    }


def test_stored_values_are_what_programs_compute_on_and_the_text_stays_for_display() -> None:
    df = build_frame(stored_payload())
    assert df["area"].tolist() == [151.4716, 96.0708]
    assert df["area"].sum() == pytest.approx(247.5424)
    assert raw_frame(df)["area"].tolist() == ["151", "96"]
    assert df["share"].iloc[0] == 0.123
    assert math.isnan(df["share"].iloc[1])
    assert str(df["people"].dtype) == "float64"
    assert df["people"].iloc[0] == 1200
    assert math.isnan(df["people"].iloc[1])
    assert str(df["since"].dtype).startswith("datetime64")
    assert df["since"].iloc[0] == pd.Timestamp("2020-01-02")
    assert df["since"].isna().iloc[1]
    assert df["opens"].iloc[0] == dt.time(9, 30)
    assert math.isnan(df["opens"].iloc[1])
    assert str(df["wait"].dtype).startswith("timedelta64")
    assert df["wait"].sum() == pd.Timedelta(hours=37)
    assert str(df["open"].dtype) == "bool"
    assert df["open"].tolist() == [True, False]
    # Text the source types as text stays text, even when it reads as a number.
    assert df["code"].tolist() == ["007", "12"]
    # A column of text and numbers holds each cell's own value, as read_excel gives it.
    assert df["note"].tolist() == ["see note", 2]


def test_missing_values_are_missing_as_pandas_gives_them() -> None:
    payload = {
        "columns": [["name"], ["detail"], ["n"]],
        "index": [],
        "values": [["Korea", "", ""], ["", "x", "3"]],
        "stored": [
            {"kinds": "ss", "numbers": []},
            {"kinds": "0s", "numbers": []},
            {"kinds": "0n", "numbers": []},
        ],
    }
    df = build_frame(payload)
    # A database's empty text stays "", its NULL is missing (NaN in a text column, as read_sql gives it).
    assert df["name"].tolist() == ["Korea", ""]
    assert pd.isna(df["detail"].iloc[0])
    assert df["detail"].iloc[1] == "x"
    assert math.isnan(df["n"].iloc[0])
    assert df["n"].iloc[1] == 3
    # An empty cell of a text-only source is NaN, as read_csv makes it; the grid's text stays "".
    csv = build_frame({"columns": [["city"], ["pop"]], "index": [], "values": [["Oslo", ""], ["", "5"]]})
    assert csv["city"].iloc[0] == "Oslo"
    assert math.isnan(csv["city"].iloc[1])
    assert csv["city"].isna().tolist() == [False, True]
    assert raw_frame(csv)["city"].tolist() == ["Oslo", ""]


def test_the_rows_view_reads_stored_values_too() -> None:
    rows = rows_view(stored_payload())
    assert rows[0]["area"] == 151.4716
    assert rows[1]["share"] is None
    assert rows[0]["people"] == 1200
    assert rows[0]["since"] == dt.datetime(2020, 1, 2)
    assert rows[1]["since"] is None
    assert rows[0]["wait"] == dt.timedelta(hours=36)
    assert rows[0]["open"] is True
    assert rows[1]["code"] == "12"
    assert rows[1]["note"] == 2
    assert rows[1]["opens"] is None
    assert rows_view({"columns": [["a"]], "index": [], "values": [["x"], [""]]}) == [{"a": "x"}, {"a": None}]


def test_a_stored_column_shorter_than_the_data_reads_the_rest_as_text() -> None:
    df = build_frame(
        {
            "columns": [["a"]],
            "index": [],
            "values": [["1.5"], ["2"]],
            "stored": [{"kinds": "N", "numbers": [1.25]}],
        }
    )
    assert df["a"].tolist() == [1.25, 2.0]


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


@pytest.mark.parametrize("payload", [hitab_payload(), airline_payload(), flat_payload(), stored_payload()])
def test_rows_view_agrees_with_the_frame(payload: dict[str, Any]) -> None:
    df = build_frame(payload)
    rows = rows_view(payload)
    assert len(rows) == df.shape[0]
    for i, r in enumerate(rows):
        data = list(r.values())[-df.shape[1] :]
        for j, v in enumerate(data):
            cell = df.iat[i, j]
            if v is None:
                assert cell is None or pd.isna(cell)
            else:
                assert v == cell

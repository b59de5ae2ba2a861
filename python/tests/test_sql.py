import math

import pandas as pd
import pytest

from tableqa.frame import build_frame
from tableqa.sql import SQLError, sql_columns, sqldf


def test_tables_are_found_in_the_callers_variables() -> None:
    singer = pd.DataFrame({"name": ["Ann", "Bo", "Cy"], "age": [31, 25, 40]})
    result = sqldf("SELECT COUNT(*) AS n, AVG(age) AS mean_age FROM singer")
    assert isinstance(result, pd.DataFrame)
    assert result.to_dict("records") == [{"n": 3, "mean_age": 32.0}]
    assert singer.shape == (3, 2)


def test_tables_can_come_from_an_explicit_env() -> None:
    frames = {"t": pd.DataFrame({"x": [1, 2, 3]})}
    assert sqldf("select sum(x) as s from T", frames)["s"].tolist() == [6]


def test_join_of_two_frames() -> None:
    singer = pd.DataFrame({"singer_id": [1, 2, 3], "name": ["Ann", "Bo", "Cy"]})  # noqa: F841 - sqldf reads it from this frame
    concert = pd.DataFrame(
        {"concert_id": [10, 11, 12, 13], "singer_id": [1, 1, 3, 9], "year": [2014, 2015, 2015, 2015]}
    )
    result = sqldf("""
        SELECT s.name, COUNT(*) AS concerts FROM singer AS s
        JOIN concert AS c ON s.singer_id = c.singer_id
        WHERE c.year >= 2014 GROUP BY s.name ORDER BY concerts DESC, s.name
    """)
    assert result.values.tolist() == [["Ann", 2], ["Cy", 1]]
    assert concert.shape == (4, 3)


def test_multiindex_columns_get_flat_names_and_the_index_leads() -> None:
    from conftest import hitab_payload

    df = build_frame(hitab_payload())
    assert sql_columns(df) == [
        "level_0",
        "level_1",
        "2016 | men",
        "2016 | women",
        "2017 | men",
        "2017 | women",
    ]
    result = sqldf(
        "SELECT level_1, \"2017 | women\" FROM df WHERE level_0 = 'all workers' "
        "AND level_1 <> '' ORDER BY 2 DESC"
    )
    assert result.values.tolist() == [["full-time", 640.0], ["part-time", 310.0]]


def test_a_single_level_index_is_called_index() -> None:
    from conftest import airline_payload

    frames = {"df": build_frame(airline_payload()).droplevel(0)}
    result = sqldf('SELECT "index", "2019" FROM df WHERE "2019" > 5000', frames)
    assert result.values.tolist() == [
        ["Passenger revenue (1)", 39625],
        ["Total operating revenue", 43259],
        ["Fuel\u2014net", 8953],
    ]


def test_named_index_levels_keep_their_names_and_default_index_is_left_out() -> None:
    df = pd.DataFrame({"v": [1, 2]}, index=pd.Index(["a", "b"], name="key"))
    assert sql_columns(df) == ["key", "v"]
    assert sql_columns(df.reset_index()) == ["key", "v"]


def test_missing_values_are_null() -> None:
    t = pd.DataFrame(  # noqa: F841 - sqldf reads it from this frame
        {
            "x": [1.0, math.nan, 3.0],
            "d": pd.to_datetime(["2020-01-02", None, "2021-03-04"]),
        }
    )
    result = sqldf("SELECT COUNT(x) AS n, COUNT(d) AS m, MIN(d) AS first FROM t")
    assert result.to_dict("records") == [{"n": 2, "m": 2, "first": "2020-01-02 00:00:00"}]


def test_duplicate_result_names_are_kept() -> None:
    t = pd.DataFrame({"x": [1]})  # noqa: F841 - sqldf reads it from this frame
    result = sqldf("SELECT x, x FROM t")
    assert result.shape == (1, 2)


def test_lists_of_row_dicts_are_tables_too() -> None:
    rows = [{"city": "Oslo", "pop": 700}, {"city": "Lund", "pop": 90}]  # noqa: F841 - sqldf reads it from this frame
    assert sqldf("SELECT city FROM rows WHERE pop > 100")["city"].tolist() == ["Oslo"]


def test_errors_name_the_tables_and_columns() -> None:
    t = pd.DataFrame({"a b": [1]})  # noqa: F841 - sqldf reads it from this frame
    with pytest.raises(SQLError, match=r'no such column: a.*t\("a b"\)'):
        sqldf("SELECT a FROM t")


def test_a_table_not_in_scope_is_reported() -> None:
    with pytest.raises(SQLError, match="no such table: nowhere"):
        sqldf("SELECT * FROM nowhere", {})

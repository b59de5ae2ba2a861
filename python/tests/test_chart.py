"""chart(): a chart answer is a Vega-Lite specification with its data inline, built from any data shape."""

import json
from typing import Any

import pandas as pd
import pytest

from tableqa import api_namespace, runner
from tableqa.chart import MAX_POINTS, Chart, chart

SALES = pd.DataFrame(
    {
        "Year": [2010, 2015, 2020, 2010, 2015, 2020],
        "Region": ["North", "North", "North", "South", "South", "South"],
        "Sales": [12.0, 15.5, 18.0, 7.0, 9.0, float("nan")],
    }
)


def encoding(c: Chart) -> dict[str, Any]:
    enc: dict[str, Any] = c.spec["encoding"]
    return enc


def test_a_long_frame_draws_one_line_per_group() -> None:
    c = chart(SALES, kind="line", x="Year", y="Sales", color="Region", title="Sales by region")
    assert c.spec["mark"] == {"type": "line", "tooltip": True, "point": True}
    assert encoding(c)["x"] == {"field": "Year", "type": "ordinal", "title": "Year"}
    assert encoding(c)["y"] == {"field": "Sales", "type": "quantitative", "title": "Sales"}
    assert encoding(c)["color"]["field"] == "Region"
    assert c.spec["title"] == "Sales by region"
    values = c.spec["data"]["values"]
    assert values[0] == {"Year": 2010, "Sales": 12, "Region": "North"}
    # A missing value is null in the data (JSON has no NaN), and the spec is JSON as it stands.
    assert values[-1]["Sales"] is None
    json.dumps(c.spec, allow_nan=False)


def test_a_wide_frame_after_a_pivot_draws_each_column_named_by_the_column_axis() -> None:
    wide = SALES.pivot(index="Year", columns="Region", values="Sales")
    c = chart(wide, kind="bar")
    assert encoding(c)["x"]["field"] == "Year"
    assert encoding(c)["color"]["field"] == "Region"
    # Grouped, not stacked: a bar per region side by side.
    assert encoding(c)["xOffset"] == {"field": "Region", "type": "nominal"}
    assert {v["Region"] for v in c.spec["data"]["values"]} == {"North", "South"}
    assert len(c.spec["data"]["values"]) == 6


def test_a_series_draws_its_index_against_its_values_in_the_given_order() -> None:
    totals = SALES.groupby("Region")["Sales"].sum().sort_values(ascending=False)
    c = chart(totals, kind="bar")
    assert encoding(c)["x"] == {"field": "Region", "type": "nominal", "title": "Region", "sort": None}
    assert [v["Region"] for v in c.spec["data"]["values"]] == ["North", "South"]


def test_plain_python_data_works_without_pandas_shapes() -> None:
    records = chart([{"x": 1.5, "y": 2.0}, {"x": 2.5, "y": 3.5}], kind="scatter")
    assert records.spec["mark"]["type"] == "point"
    assert encoding(records)["x"]["type"] == "quantitative"
    columns = chart({"month": ["2020-01-01", "2020-02-01"], "visits": [3, 4]})
    assert encoding(columns)["x"]["type"] == "temporal"
    labels = chart({"oak": 3, "ash": 5}, kind="bar")
    assert [v["label"] for v in labels.spec["data"]["values"]] == ["oak", "ash"]


def test_multiindex_columns_and_dotted_names_are_fields_vega_lite_reads_literally() -> None:
    frame = pd.DataFrame(
        {("2016", "men"): [1, 2], ("2016", "women"): [3, 4]}, index=pd.Index(["a.b", "c"], name="group.name")
    )
    c = chart(frame, kind="bar", y=("2016", "men"))
    assert encoding(c)["x"]["field"] == "group\\.name"
    assert encoding(c)["y"]["field"] == "2016 | men"
    assert c.spec["data"]["values"][0] == {"group.name": "a.b", "2016 | men": 1}


def test_a_column_of_hierarchical_headers_is_found_by_a_label_or_partial_path_that_names_only_it() -> None:
    frame = pd.DataFrame(
        {
            ("2024", "revenue", "H1"): [1, 2],
            ("2024", "revenue", "H2"): [3, 4],
            ("2024", "costs", "H1"): [5, 6],
        },
        index=pd.Index(["north", "south"], name="region"),
    )
    assert encoding(chart(frame, kind="bar", y="H2"))["y"]["field"] == "2024 | revenue | H2"
    assert encoding(chart(frame, kind="bar", y=("costs", "H1")))["y"]["field"] == "2024 | costs | H1"
    with pytest.raises(
        KeyError, match=r"y='H1' names 2 columns, \['2024 \| revenue \| H1', '2024 \| costs \| H1'\]"
    ):
        chart(frame, kind="bar", y="H1")


def test_column_names_are_matched_ignoring_case_and_wrong_ones_are_named() -> None:
    assert encoding(chart(SALES, x="year", y="SALES"))["x"]["field"] == "Year"
    with pytest.raises(
        KeyError,
        match=r"y='Revenue' is not a column of the data; the columns are \['Year', 'Region', 'Sales'\]",
    ):
        chart(SALES, x="Year", y="Revenue")
    with pytest.raises(ValueError, match="kind must be one of line, bar, scatter"):
        chart(SALES, kind="pie")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="data must be a DataFrame"):
        chart(42)


def test_too_many_points_are_refused_with_what_to_do() -> None:
    big = [{"i": i, "v": i} for i in range(MAX_POINTS + 1)]
    with pytest.raises(ValueError, match=r"at most 5,000\. Aggregate or filter the data first"):
        chart(big)


def test_the_runner_reports_a_chart_as_its_spec_and_summary() -> None:
    ns: dict[str, Any] = {"df": SALES, **api_namespace()}
    result = runner.run("answer = chart(df, x='Year', y='Sales', color='Region')", ns)
    assert result["ok"], result
    value = result["value"]["value"]
    assert value["type"] == "Chart"
    assert value["repr"] == "<Chart: line of Sales by Year, coloured by Region, 6 points>"
    assert value["json"]["summary"] == "line of Sales by Year, coloured by Region, 6 points"
    assert value["json"]["chart"]["encoding"]["y"]["field"] == "Sales"


def test_a_dataframe_answer_carries_its_table() -> None:
    ns: dict[str, Any] = {"df": SALES}
    result = runner.run("df.groupby('Region')[['Sales']].sum()", ns)
    assert result["ok"], result
    table = result["value"]["value"]["json"]["table"]
    assert table == {
        "columns": [["Sales"]],
        "indexNames": ["Region"],
        "index": [["North"], ["South"]],
        "rows": [[45.5], [16]],
        "rowCount": 2,
    }

import math
from typing import Any

import pandas as pd
import pytest

from tableqa import trace
from tableqa.frame import build_frame
from tableqa.headers import AmbiguousHeader, HeaderNotFound
from tableqa.ops import (
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


class TestLookup:
    def test_full_paths(self, hitab: pd.DataFrame) -> None:
        assert lookup(hitab, ("all workers", "part-time"), ("2017", "women")) == 310

    def test_a_single_label_matches_any_level(self, hitab: pd.DataFrame) -> None:
        assert lookup(hitab, "part-time", ("2016", "men")) == 200

    def test_a_parent_label_names_its_own_row(self, hitab: pd.DataFrame) -> None:
        assert lookup(hitab, "all workers", ("2016", "men")) == 1000

    def test_paths_written_label_after_label_are_read_where_one_split_fits(
        self, hitab: pd.DataFrame, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert lookup(hitab, "all workers", "part-time", "2017", "women") == 310
        assert lookup(hitab, "part-time", "2016", "men") == 200
        assert lookup(hitab, "part-time", ("2016", "men")) == 200
        assert "read as row ('all workers', 'part-time'), column ('2017', 'women')" in capsys.readouterr().err

    def test_spread_labels_that_name_no_single_cell_say_how_to_call_it(self, hitab: pd.DataFrame) -> None:
        with pytest.raises(HeaderNotFound, match=r"lookup takes one row path and one column path"):
            lookup(hitab, "part-time", "2016", "nowhere")
        # A branch, not one cell: "2016" alone names two columns.
        with pytest.raises(HeaderNotFound, match=r"do not name one cell"):
            lookup(hitab, "all workers", "part-time", "2016")

    def test_a_row_path_given_with_the_column_path_is_read_where_its_labels_name_one_cell(
        self, hitab: pd.DataFrame, capsys: pytest.CaptureFixture[str]
    ) -> None:
        # The row's labels again in the column path, child first: each label once, one cell.
        assert lookup(hitab, "part-time", ("part-time", "all workers", "2017", "women")) == 310
        assert "read as row ('all workers', 'part-time'), column ('2017', 'women')" in capsys.readouterr().err
        # Labels that name no cell keep the error of the path that fits no header.
        with pytest.raises(HeaderNotFound, match=r"No column header matches \('2016', 'nowhere'\)"):
            lookup(hitab, "part-time", ("2016", "nowhere"))

    def test_partial_tuples_skip_levels(self) -> None:
        from tableqa.frame import build_frame

        df = build_frame(
            {
                "columns": [["2016", "all", "men"], ["2016", "all", "women"]],
                "index": [],
                "values": [["5", "6"]],
            }
        )
        assert lookup(df, None, ("2016", "women")) == 6

    def test_case_spacing_punctuation_and_dashes_are_ignored(self, airline: pd.DataFrame) -> None:
        assert lookup(airline, "  CARGO ", "2018") == 1237
        assert lookup(airline, "fuel - net", "2019") == 8953
        assert lookup(airline, "net income loss", "2017") == -1919

    def test_footnote_marks_are_ignored_when_nothing_else_matches(
        self, airline: pd.DataFrame, hitab: pd.DataFrame
    ) -> None:
        assert lookup(airline, "passenger revenue", 2019) == 39625
        assert lookup(hitab, ("self-employed", "full-time"), ("2016", "women")) == 70

    def test_flat_names_work_as_paths(self, hitab: pd.DataFrame) -> None:
        assert lookup(hitab, "all workers | full-time", "2016 | women") == 600

    def test_unknown_header_lists_close_matches(self, airline: pd.DataFrame) -> None:
        with pytest.raises(HeaderNotFound) as info:
            lookup(airline, "passenger revenues", "2019")
        assert "Passenger revenue (1)" in str(info.value)
        assert "No row header" in str(info.value)
        with pytest.raises(HeaderNotFound, match="No column header matches '2020'"):
            lookup(airline, "cargo", "2020")

    def test_ambiguous_header_lists_the_candidates(self, hitab: pd.DataFrame) -> None:
        with pytest.raises(AmbiguousHeader) as info:
            lookup(hitab, "full-time", ("2016", "men"))
        message = str(info.value)
        assert "('all workers', 'full-time')" in message
        assert "('self-employed (a)', 'full-time')" in message
        with pytest.raises(AmbiguousHeader):
            lookup(hitab, "all workers", "men")

    def test_records_the_source_cell(self, hitab: pd.DataFrame) -> None:
        lookup(hitab, "part-time", ("2017", "men"))
        assert trace.recorded_cells() == [{"row": 4, "col": 4}]

    def test_returns_plain_python_values(self, flat: pd.DataFrame) -> None:
        value = lookup(flat.set_index("Nation"), "canada", "gold")
        assert type(value) is int
        assert value == 11


class TestSelect:
    def test_selects_a_column_subtree(self, hitab: pd.DataFrame) -> None:
        assert select(hitab, "2017").columns.tolist() == [("2017", "men"), ("2017", "women")]

    def test_selects_by_a_lower_level_label(self, hitab: pd.DataFrame) -> None:
        assert select(hitab, "women").columns.tolist() == [("2016", "women"), ("2017", "women")]

    def test_selects_a_row_subtree(self, hitab: pd.DataFrame) -> None:
        rows = select(hitab, "self-employed", axis="rows")
        assert rows.index.tolist() == [("self-employed (a)", ""), ("self-employed (a)", "full-time")]

    def test_rejects_an_unknown_axis(self, hitab: pd.DataFrame) -> None:
        with pytest.raises(ValueError, match="axis"):
            select(hitab, "2017", axis="diagonal")  # type: ignore[arg-type]


class TestAggregate:
    def test_sums_a_column_subtree_at_one_row(self, hitab: pd.DataFrame) -> None:
        assert aggregate(hitab, "2016", "sum", at="part-time") == 500

    def test_gives_a_series_over_the_other_axis(self, hitab: pd.DataFrame) -> None:
        result = aggregate(hitab, "men", "mean", at="all workers")
        assert result == 1050
        series = aggregate(hitab, "men", "max")
        assert isinstance(series, pd.Series)
        assert series.tolist() == [1100, 850, 250, 160, 130]

    def test_a_node_with_children_aggregates_the_children(self, hitab: pd.DataFrame) -> None:
        assert aggregate(hitab, "all workers", "sum", axis="rows", at=("2016", "men")) == 1000
        assert aggregate(hitab, "all workers", "count", axis="rows", at=("2016", "men")) == 2

    def test_total_lines_are_not_counted_twice(self, airline: pd.DataFrame) -> None:
        assert aggregate(airline, "operating revenue", "sum", axis="rows", at="2019") == 39625 + 1179
        assert aggregate(airline, "total operating revenue", "sum", axis="rows", at="2019") == 43259

    def test_missing_cells_are_skipped(self, hitab: pd.DataFrame) -> None:
        assert aggregate(hitab, "women", "count", at=("self-employed", "")) == 1
        assert aggregate(hitab, "women", "sum", at=("self-employed", "")) == -5

    @pytest.mark.parametrize(
        ("how", "expected"),
        [
            ("sum", 1850.0),
            ("mean", 925.0),
            ("median", 925.0),
            ("min", 800.0),
            ("max", 1050.0),
            ("count", 2),
            ("argmax", "2017"),
            ("argmin", "2016"),
        ],
    )
    def test_every_reduction(self, hitab: pd.DataFrame, how: str, expected: Any) -> None:
        df = hitab.copy()
        df[("2016", "men")] = [800, 800, 200, 150, 120]
        df[("2017", "men")] = [1050, 850, 250, 160, 130]
        assert aggregate(df, "men", how, at=("all workers", "")) == expected  # type: ignore[arg-type]

    def test_argmax_over_rows_names_the_row(self, flat: pd.DataFrame) -> None:
        df = flat.set_index("Nation")
        assert aggregate(df, None, "argmax", axis="rows", at="silver") == "Germany"

    def test_unknown_reduction(self, hitab: pd.DataFrame) -> None:
        with pytest.raises(ValueError, match="how must be one of"):
            aggregate(hitab, "men", "mode", at="part-time")  # type: ignore[arg-type]

    def test_records_every_cell_read(self, hitab: pd.DataFrame) -> None:
        aggregate(hitab, "2016", "sum", at="part-time")
        assert trace.recorded_cells() == [{"row": 4, "col": 2}, {"row": 4, "col": 3}]


class TestComparisons:
    def test_diff_between_two_columns(self, airline: pd.DataFrame) -> None:
        assert diff(airline, "2019", "2018", at="cargo") == -58

    def test_diff_between_two_rows_for_every_column(self, airline: pd.DataFrame) -> None:
        result = diff(airline, "total operating revenue", "passenger revenue", axis="rows")
        assert result.tolist() == [3634, 3597, 3155]
        assert result.index.tolist() == ["2019", "2018", "2017"]

    def test_ratio(self, hitab: pd.DataFrame) -> None:
        assert ratio(hitab, ("2016", "women"), ("2016", "men"), at="all workers") == pytest.approx(0.9)

    def test_ratio_by_zero_is_nan(self) -> None:
        from tableqa.frame import build_frame

        df = build_frame({"columns": [["a"], ["b"]], "index": [], "values": [["1", "0"]]})
        assert math.isnan(ratio(df, "a", "b"))

    def test_pct_change_is_in_percent(self, airline: pd.DataFrame) -> None:
        value = pct_change(airline, "2017", "2018", at="net income")
        assert value == pytest.approx((2129 - -1919) / -1919 * 100)

    def test_ambiguous_operand(self, hitab: pd.DataFrame) -> None:
        with pytest.raises(AmbiguousHeader):
            diff(hitab, "men", "women", at="part-time")


class TestFlatTableHelpers:
    def test_column_is_tolerant(self, flat: pd.DataFrame) -> None:
        assert column(flat, " gold ").tolist() == [16, 12, 11, 9, 8]

    def test_row_by_header(self, airline: pd.DataFrame) -> None:
        assert row(airline, "cargo").tolist() == [1179, 1237, 1035]

    @pytest.mark.parametrize(
        ("op", "value", "nations"),
        [
            ("==", "united states", ["United States"]),
            ("!=", "Norway", ["Germany", "Canada", "United States", "Netherlands"]),
            ("contains", "land", ["Netherlands"]),
            ("startswith", "n", ["Norway", "Netherlands"]),
            ("endswith", "states", ["United States"]),
            ("in", ["canada", "NORWAY"], ["Norway", "Canada"]),
            ("not in", ["canada", "NORWAY"], ["Germany", "United States", "Netherlands"]),
        ],
    )
    def test_filter_rows_on_text(self, flat: pd.DataFrame, op: str, value: Any, nations: list[str]) -> None:
        assert filter_rows(flat, "nation", op, value)["Nation"].tolist() == nations

    @pytest.mark.parametrize(
        ("op", "value", "count_"),
        [
            (">", 10, 3),
            (">=", "11", 3),
            ("<", 9, 1),
            ("<=", 9.0, 2),
            ("==", "16", 1),
        ],
    )
    def test_filter_rows_on_numbers(self, flat: pd.DataFrame, op: str, value: Any, count_: int) -> None:
        assert len(filter_rows(flat, "gold", op, value)) == count_

    def test_filter_rows_reads_quantities_written_with_a_unit_or_suffix(self) -> None:
        df = pd.DataFrame(
            {
                "Name": ["a", "b", "c", "d"],
                "Height": ["113.6 m", "80 m", "46.5 m", "—"],
                "Place": ["1st", "6th", "2nd", "DNF"],
                "Time": ["3:20.5", "3:21.0", "3:19.9", ""],
            }
        )
        assert filter_rows(df, "Height", "<=", 80)["Name"].tolist() == ["b", "c"]
        assert filter_rows(df, "Place", "==", "1")["Name"].tolist() == ["a"]
        assert filter_rows(df, "Place", "<", 3)["Name"].tolist() == ["a", "c"]
        # Times are no quantity with a unit: no number is read from them.
        assert filter_rows(df, "Time", ">", 3)["Name"].tolist() == []

    def test_filter_rows_reads_a_quantity_in_two_units_by_its_first_and_says_so(self) -> None:
        # A measure written with its conversion holds two numbers; with the same first unit in every cell,
        # the first is read.
        df = build_frame(
            {
                "columns": [["Peak"], ["Prominence"]],
                "index": [],
                "values": [["A", "10,080 ft\n3072 m"], ["B", "1,677 ft\n511 m"], ["C", "—"]],
            }
        )
        trace.reset_cells()
        assert filter_rows(df, "Prominence", ">", 10000)["Peak"].tolist() == ["A"]
        assert filter_rows(df, "Prominence", "<=", 2000)["Peak"].tolist() == ["B"]
        assert trace.recorded_unmatched() == []
        assert trace.recorded_readings() == [
            f"filter_rows(df, 'Prominence', {cond}) read the cells of 'Prominence', which give each "
            "quantity in two units ('10,080 ft\\n3072 m'), by their first number, in ft"
            for cond in ("'>', 10000", "'<=', 2000")
        ]
        # Parentheses are the other common way to give the conversion.
        metres = build_frame(
            {"columns": [["H"]], "index": [], "values": [["3,072 m (10,080 ft)"], ["511 m (1,677 ft)"]]}
        )
        assert filter_rows(metres, "H", ">", 1000)["H"].tolist() == ["3,072 m (10,080 ft)"]

    def test_filter_rows_that_keeps_no_row_of_cells_with_several_numbers_says_how_to_take_one(self) -> None:
        # Cells with several numbers each whose first units differ: no comparison reads them as one.
        df = build_frame(
            {
                "columns": [["Peak"], ["Prominence"]],
                "index": [],
                "values": [["A", "10,080 ft\n3072 m"], ["B", "511 m\n1,677 ft"], ["C", "—"]],
            }
        )
        trace.reset_cells()
        assert filter_rows(df, "Prominence", ">", 10000).empty
        (note,) = trace.recorded_unmatched()
        assert note.startswith(
            "filter_rows(df, 'Prominence', '>', 10000) matched no row: the cells of 'Prominence' hold "
            "several numbers each ('10,080 ft\\n3072 m', '511 m\\n1,677 ft'), which it does not read as one; "
            "compare the number meant, e.g. the first of each: df["
        )
        assert trace.recorded_readings() == []
        # The code it gives selects the row meant.
        code = note.split("the first of each: ", 1)[1]
        assert eval(code, {"df": df})["Peak"].tolist() == ["A"]
        # Conditions that keep rows, and columns most of whose cells read as numbers, get no note.
        heights = build_frame({"columns": [["H"]], "index": [], "values": [["113 m"], ["2 (3)"]]})
        trace.reset_cells()
        assert filter_rows(heights, "H", ">", 100)["H"].tolist() == ["113 m"]
        assert filter_rows(heights, "H", ">", 500).empty
        assert trace.recorded_unmatched() == []

    def test_filter_rows_rejects_bad_input(self, flat: pd.DataFrame) -> None:
        with pytest.raises(ValueError, match="op must be one of") as caught:
            filter_rows(flat, "gold", "~", 1)
        assert "comes before" not in str(caught.value)
        # The op and the value the other way round: the error gives them in their order.
        with pytest.raises(ValueError, match="op must be one of") as caught:
            filter_rows(flat, "nation", "Norway", "==")
        said = "not 'Norway' (the op comes before the value: 'nation', '==', 'Norway')"
        assert str(caught.value).endswith(said)
        with pytest.raises(ValueError, match=r"not 8 \(the op comes before the value: 'gold', '>', 8\)$"):
            count(flat, "nation", "==", "Norway", "gold", 8, ">")
        with pytest.raises(ValueError, match="needs a number"):
            filter_rows(flat, "gold", ">", "lots")

    def test_count(self, flat: pd.DataFrame) -> None:
        assert count(flat) == 5
        assert count(flat, "silver", "==", 8) == 3

    def test_filter_rows_and_count_take_more_conditions_that_must_all_hold(self, flat: pd.DataFrame) -> None:
        kept = filter_rows(flat, "gold", ">", 8, "nation", "!=", "norway", "silver", "==", 8)
        assert kept["Nation"].tolist() == ["Canada", "United States"]
        assert count(flat, "gold", ">", 8, "nation", "!=", "norway", "silver", "==", 8) == 2
        assert count(flat, "gold", ">", 8) == 4
        with pytest.raises(TypeError, match="conditions after the first come in threes"):
            filter_rows(flat, "gold", ">", 8, "nation", "==")
        with pytest.raises(ValueError, match="op must be one of"):
            count(flat, "gold", ">", 8, "nation", "is", "Norway")

    def test_a_key_that_is_a_column_header_says_how_its_value_is_read_in_a_row(self) -> None:
        climate = build_frame(
            {
                "columns": [["Month"], ["Jan"], ["Feb"], ["Dec"]],
                "index": [],
                "values": [["Record high °C", "12", "13", "14"], ["Avg. snowy days", "9", "6", "7"]],
            }
        )
        with pytest.raises(LookupError) as caught:
            compare(climate, "Month", "Dec", "Jan", "Avg. snowy days")
        said = str(caught.value)
        assert said.startswith("No row has 'Dec' in column 'Month'.")
        assert said.endswith(
            "'Dec' is a column header, not a cell: this table lists 'Dec' across its columns and names its "
            "rows in column 'Month'; read one of its values with "
            "df.loc[df['Month'] == 'Avg. snowy days', 'Dec']."
        )
        # The code the note gives reads the value meant.
        assert climate.loc[climate["Month"] == "Avg. snowy days", "Dec"].iloc[0] == 7
        # Without a column that is a cell of the key column, the first row stands as the example.
        with pytest.raises(LookupError, match=r"df\.loc\[df\['Month'\] == 'Record high °C', 'Feb'\]\.$"):
            next_value(climate, "Month", "feb")
        # A key that is no header gets no such note.
        with pytest.raises(LookupError) as caught:
            value_of(climate, "Month", "Mar", "Jan")
        assert "column header" not in str(caught.value)

    def test_value_of_and_close_values(self, flat: pd.DataFrame) -> None:
        assert value_of(flat, "nation", "CANADA", "total") == 26
        with pytest.raises(LookupError, match="Close values: 'Canada'"):
            value_of(flat, "nation", "Canadaa", "total")

    def test_next_value(self, flat: pd.DataFrame) -> None:
        assert next_value(flat, "nation", "Germany") == "Canada"
        assert next_value(flat, "nation", "Germany", -1, "gold") == 16
        with pytest.raises(IndexError):
            next_value(flat, "nation", "Netherlands")
        # A key no row has: the column's cells; a comparison given as the key: how rows are selected.
        with pytest.raises(LookupError, match=r"No row has 'Chile' in column 'nation'\. Its cells include: "):
            next_value(flat, "nation", "Chile")
        with pytest.raises(LookupError, match=r"'>=' is a comparison, not a value: .* filter_rows"):
            next_value(flat, "nation", ">=", 10, "gold")
        # A key that stands in another column: that column is named as the key column.
        with pytest.raises(LookupError, match=r"'germany' is in column 'Nation': name that column as"):
            next_value(flat, "gold", "germany")
        with pytest.raises(LookupError) as caught:
            value_of(flat, "nation", "Germanyy", "gold")
        assert "is in column" not in str(caught.value)

    def test_a_key_no_row_of_a_number_column_has(self) -> None:
        # A column of numbers with an empty cell: the error names close values as the table writes them
        # (the empty cell, a missing value to pandas, is no key), not an error of its own.
        df = build_frame(
            {
                "columns": [["Composer"], ["Date"]],
                "index": [],
                "values": [["Ann", ""], ["Bea", "1918"], ["Cid", "2002"], ["Dan", "2004"]],
            }
        )
        close = r"^No row has '2001' in column 'Date'\. Close values: '200[24]', '200[24]'\.$"
        with pytest.raises(LookupError, match=close):
            next_value(df, "Date", "2001", 1, "Composer")
        with pytest.raises(LookupError, match=r"Its cells include: '1918', '2002', '2004'\.$"):
            value_of(df, "Date", "1776", "Composer")

    def test_next_value_passes_over_rows_without_a_value_in_the_column_read(self) -> None:
        df = build_frame(
            {
                "columns": [["Champion"], ["Event"]],
                "index": [],
                "values": [
                    ["Ann", "Show #14"],
                    ["Bea", "Show #15"],
                    ["Vacated", "N/A"],
                    ["Cid", "\u2014"],
                    ["Dee", "Show #21"],
                ],
            }
        )
        assert next_value(df, "event", "Show #15") == "Show #21"
        assert next_value(df, "event", "Show #21", -2) == "Show #14"
        # Rows are counted in the column read, not the key column: the champion right after is read.
        assert next_value(df, "event", "Show #15", 1, "champion") == "Vacated"
        with pytest.raises(IndexError):
            next_value(df, "event", "Show #15", 2)

    def test_compare(self, flat: pd.DataFrame) -> None:
        assert compare(flat, "nation", "canada", "germany", "total") == "Germany"
        assert compare(flat, "nation", "canada", "germany", "total", larger=False) == "Canada"

    def test_compare_refuses_a_row_compared_with_itself(self, flat: pd.DataFrame) -> None:
        # "who ranked right after Canada?" is no comparison of two rows: the error says what reads it.
        with pytest.raises(ValueError, match="both keys are 'Canada'") as caught:
            compare(flat, "nation", "Canada", "CANADA ", "total")
        assert "next_value(df, 'nation', 'Canada', offset)" in str(caught.value)
        assert next_value(flat, "nation", "Canada", 1) != "Canada"

    def test_top_k(self, flat: pd.DataFrame) -> None:
        assert top_k(flat, "total", 2)["Nation"].tolist() == ["Norway", "Germany"]
        assert top_k(flat, "silver", 1, largest=False)["Nation"].tolist() == ["Netherlands"]

    def test_to_number(self, airline: pd.DataFrame) -> None:
        assert to_number("(1,919)") == -1919
        assert to_number(pd.Series(["1%", "x", "2"])).tolist()[::2] == [1.0, 2.0]
        assert to_number(airline).dtypes.tolist() == ["float64"] * 3

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import tableqa
from tableqa.frame import build_frame
from tableqa.runner import ANSWER_CAP_BYTES, MESSAGE_CAP_CHARS, OUTPUT_CAP_CHARS, REPR_CAP_CHARS, run

SUCCESS_KEYS = {"stdout", "stderr", "value", "truncated", "durationMs", "tableKind"}
FAILURE_KEYS = {"code", "message", "traceback", "stdout", "stderr"}


def ok_value(result: dict[str, Any]) -> dict[str, Any]:
    assert result["ok"], result
    assert set(result) == {"ok", "value"}
    # "unmatched" is there only with an answer of zero or nothing from a condition that matched no row;
    # "readings" only where the runtime read words of the program that pandas refused.
    assert set(result["value"]) - {"unmatched", "readings"} == SUCCESS_KEYS
    json.dumps(result)
    value: dict[str, Any] = result["value"]
    return value


def error_of(result: dict[str, Any]) -> dict[str, Any]:
    assert not result["ok"], result
    assert set(result) == {"ok", "error"}
    assert set(result["error"]) == FAILURE_KEYS
    json.dumps(result)
    error: dict[str, Any] = result["error"]
    return error


def test_the_last_expression_is_the_value() -> None:
    out = ok_value(run("x = 20\nx + 22", {}))
    assert out["value"] == {"repr": "42", "type": "int", "json": 42}
    assert out["stdout"] == ""
    assert out["truncated"] is False
    assert isinstance(out["durationMs"], float)


def test_the_answer_variable_is_the_value_when_the_program_ends_in_a_statement() -> None:
    assert ok_value(run("answer = ['a', 1]", {}))["value"]["json"] == ["a", 1]
    assert ok_value(run("answer = 3\nprint('done')", {}))["value"]["json"] == 3


def test_a_stale_answer_from_an_earlier_run_does_not_leak() -> None:
    ns: dict[str, Any] = {}
    run("answer = 1", ns)
    assert ok_value(run("y = 2", ns))["value"] is None


def test_no_value_gives_null() -> None:
    assert ok_value(run("x = 1", {}))["value"] is None
    assert ok_value(run("", {}))["value"] is None


def test_output_is_captured_and_capped() -> None:
    out = ok_value(run("import sys\nprint('hello')\nprint('warn', file=sys.stderr)", {}))
    assert (out["stdout"], out["stderr"]) == ("hello\n", "warn\n")
    big = ok_value(run(f"print('x' * {OUTPUT_CAP_CHARS + 50})\n'done'", {}))
    assert big["truncated"] is True
    assert len(big["stdout"]) == OUTPUT_CAP_CHARS
    assert big["value"]["json"] == "done"


def test_repr_is_capped() -> None:
    out = ok_value(run("'y' * 50000", {}))
    assert len(out["value"]["repr"]) < REPR_CAP_CHARS + 100
    assert out["value"]["repr"].endswith("more characters]")


def test_errors_carry_a_traceback_of_the_program_only() -> None:
    error = error_of(run("print('before')\ndef f(x):\n    return x['missing']\nf({})", {}))
    assert error["code"] == "python-error"
    assert error["message"] == "KeyError: 'missing'"
    assert error["stdout"] == "before\n"
    tb = error["traceback"]
    assert tb.startswith("Traceback (most recent call last):")
    assert 'File "<program>", line 4, in <module>' in tb
    assert "return x['missing']" in tb
    assert "runner.py" not in tb


def test_errors_raised_inside_the_library_show_the_program_line() -> None:
    from conftest import hitab_payload

    ns = {"df": tableqa.build_frame(hitab_payload()), **tableqa.api_namespace()}
    error = error_of(run("lookup(df, 'all workrs', '2016')", ns))
    assert error["message"].startswith("HeaderNotFound: No row header matches 'all workrs'.")
    assert "lookup(df, 'all workrs', '2016')" in error["traceback"]
    assert "ops.py" not in error["traceback"]


def test_syntax_errors() -> None:
    error = error_of(run("x = (1,\n", {}))
    assert error["code"] == "python-error"
    assert error["message"].startswith("SyntaxError: ")
    assert "line 1" in error["message"]


def test_an_interrupt_is_reported_as_interrupted() -> None:
    error = error_of(run("print('working')\nraise KeyboardInterrupt", {}))
    assert error["code"] == "interrupted"
    assert error["stdout"] == "working\n"


def test_deep_recursion_is_a_clear_python_error() -> None:
    error = error_of(run("def f(n):\n    return f(n + 1)\nf(0)", {}))
    assert error["code"] == "python-error"
    assert error["message"].startswith("RecursionError: ")
    assert "use a loop" in error["message"]
    assert "Previous line repeated" in error["traceback"]
    assert len(error["traceback"]) < 30_000


def test_system_exit_does_not_stop_the_executor() -> None:
    assert error_of(run("raise SystemExit(3)", {}))["message"] == "SystemExit: 3"


def test_pandas_values_are_normalised_answers() -> None:
    from conftest import flat_payload

    ns = {"df": tableqa.build_frame(flat_payload()), **tableqa.api_namespace()}
    out = ok_value(run("df[df['Gold'] > 10]['Nation']", ns))
    assert out["tableKind"] == "pandas"
    assert out["value"]["type"] == "Series"
    assert out["value"]["json"]["items"] == [
        {"value": "Norway", "type": "string"},
        {"value": "Germany", "type": "string"},
        {"value": "Canada", "type": "string"},
    ]
    assert out["value"]["json"]["cells"] == [{"row": 1, "col": 1}, {"row": 2, "col": 1}, {"row": 3, "col": 1}]


def test_cells_read_by_the_operation_apis_are_reported() -> None:
    from conftest import airline_payload

    ns = {"df": tableqa.build_frame(airline_payload()), **tableqa.api_namespace()}
    out = ok_value(run("answer = pct_change(df, '2018', '2019', at='cargo')", ns))
    assert out["value"]["type"] == "float"
    assert out["value"]["json"] == pytest.approx((1179 - 1237) / 1237 * 100)
    out = ok_value(run("import numpy as np\nnp.float64(lookup(df, 'cargo', '2019'))", ns))
    assert out["value"]["json"] == {
        "items": [{"value": 1179, "type": "number"}],
        "cells": [{"row": 2, "col": 2}],
    }


def test_table_kinds() -> None:
    assert ok_value(run("1", {"rows": [{"a": 1}]}))["tableKind"] == "rows"
    assert ok_value(run("1", {"df": pd.DataFrame()}))["tableKind"] == "pandas"
    assert ok_value(run("1", {}))["tableKind"] == "none"


def test_values_without_json_keep_repr_and_type() -> None:
    out = ok_value(run("object()", {}))
    assert out["value"]["type"] == "object"
    assert "json" not in out["value"]
    out = ok_value(run("float('nan')", {}))
    assert out["value"]["json"] is None


def test_a_broken_repr_does_not_fail_the_run() -> None:
    code = "class Odd:\n    def __repr__(self):\n        raise RuntimeError('no')\nOdd()"
    assert "repr() failed" in ok_value(run(code, {}))["value"]["repr"]


def test_the_namespace_persists_changes() -> None:
    ns: dict[str, Any] = {}
    run("counter = 5", ns)
    assert ok_value(run("counter + 1", ns))["value"]["json"] == 6


def test_an_answer_over_the_cap_fails_as_too_large_naming_the_limit() -> None:
    result = run("print('before')\n'z' * 3_000_000", {})
    assert result["ok"] is False
    assert result["error"]["code"] == "too-large"
    assert result["error"]["message"].startswith("The answer is 3.0 MB as data; answers are limited to 1 MB.")
    assert result["error"]["stdout"] == "before\n"
    # Just under the cap is still an answer.
    assert ok_value(run(f"'z' * {ANSWER_CAP_BYTES - 2}", {}))["value"]["json"] == "z" * (ANSWER_CAP_BYTES - 2)


def test_an_error_message_is_capped() -> None:
    result = run("raise ValueError('x' * 300_000)", {})
    assert result["ok"] is False
    assert len(result["error"]["message"]) < MESSAGE_CAP_CHARS + 100
    assert result["error"]["message"].endswith("more characters]")


def test_a_key_error_on_hierarchical_headers_names_the_full_paths() -> None:
    pd = pytest.importorskip("pandas")
    rows = pd.MultiIndex.from_tuples(
        [
            ("industry", "mining"),
            ("industry", "transportation"),
            ("services", "transportation"),
            ("total", ""),
        ]
    )
    cols = pd.MultiIndex.from_tuples([("black male workers", "percent"), ("other male workers", "percent")])
    df = pd.DataFrame([[1.0, 2.0], [11.1, 7.1], [3.0, 4.0], [100.0, 100.0]], index=rows, columns=cols)
    # The label stands under two parents: no single reading, so pandas' error, with where it stands.
    message = error_of(run('answer = df.loc["Transportation"]', {"df": df}))["message"]
    assert message.startswith("KeyError: 'Transportation'")
    hint = (
        "'Transportation' is a row header of df within the full path ('industry', 'transportation'), "
        "('services', 'transportation')"
    )
    assert hint in message
    # A column label asked alone names every path that holds it (at most three, then a count).
    message = error_of(run('answer = df["percent"]', {"df": df}))["message"]
    assert "('black male workers', 'percent'), ('other male workers', 'percent')" in message
    # Column access on flat headers names the columns there are; a .loc label found nowhere says so (below).
    flat = pd.DataFrame({"a": [1]})
    message = error_of(run('answer = flat["b"]', {"flat": flat}))["message"]
    assert message == "KeyError: 'b' ('b' is no column header of this table; its columns: 'a')"
    assert error_of(run('answer = df.loc["nowhere"]', {"df": df}))["message"] == (
        "KeyError: 'nowhere' ('nowhere' is no row or column header of this table)"
    )


def test_a_header_path_with_labels_of_the_other_axis_names_where_they_stand() -> None:
    df = build_frame(
        {
            "columns": [["2014"], ["2015"]],
            "index": [["current", "medium companies", "50-99"], ["current", "large companies", "250-499"]],
            "values": [["12.5", "13"], ["3", "4"]],
        }
    )
    namespace = {"df": df, **tableqa.api_namespace()}
    # A column path with a row's label in it: that label's full row paths, and that the two go apart.
    program = 'answer = pct_change(df, ("2014", "medium companies"), ("2015", "medium companies"))'
    message = error_of(run(program, dict(namespace)))["message"]
    assert message.startswith("HeaderNotFound: No column header matches ('2014', 'medium companies').")
    assert message.endswith(
        "('medium companies' is a row header of df within the full path ('current', 'medium companies', "
        "'50-99'); a header path holds the labels of one axis: give the row's labels and the column's apart, "
        "as the function takes them)"
    )
    # A row path with a column's label in it: a flat column header is named as such.
    message = error_of(
        run('answer = pct_change(df, ("2014", "current"), "large companies", axis="rows")', dict(namespace))
    )["message"]
    assert "('2014' is a column header of df; a header path holds the labels of one axis" in message
    # A path none of whose labels is a header of the other axis keeps the message alone.
    message = error_of(run('answer = pct_change(df, ("2014", "nothing"), "2015")', dict(namespace)))[
        "message"
    ]
    assert message.startswith("HeaderNotFound: No column header matches ('2014', 'nothing').")
    assert "one axis" not in message


def _survey() -> Any:
    pd = pytest.importorskip("pandas")
    rows = pd.MultiIndex.from_tuples(
        [("percent", "mining"), ("percent", "transportation and warehousing"), ("percent", "total")]
    )
    cols = pd.MultiIndex.from_tuples(
        [
            ("black male workers", "immigrant"),
            ("black male workers", "total"),
            ("other male workers", "total"),
        ]
    )
    return pd.DataFrame([[1.0, 2.0, 3.0], [11.1, 9.0, 7.1], [100.0, 100.0, 100.0]], index=rows, columns=cols)


def test_loc_reads_a_label_below_the_top_level_as_its_header_path_and_says_so() -> None:
    df = _survey()
    out = ok_value(
        run('answer = df.loc["transportation and warehousing", ("other male workers", "total")]', {"df": df})
    )
    assert out["value"]["json"]["items"][0]["value"] == 7.1
    assert "read as header paths: row ('percent', 'transportation and warehousing')" in out["stderr"]
    # Labels of both axes run together ("Too many indexers" in pandas) are split where they fit.
    out = ok_value(run('df.loc["transportation and warehousing", "other male workers", "total"]', {"df": df}))
    assert out["value"]["json"]["items"][0]["value"] == 7.1
    # A row label with a branch of columns: the row's values in that branch.
    out = ok_value(run('df.loc["transportation and warehousing", "black male workers"]', {"df": df}))
    assert [i["value"] for i in out["value"]["json"]["items"]] == [11.1, 9.0]


def test_loc_leaves_what_pandas_answers_and_refuses_what_is_not_one_reading() -> None:
    df = _survey()
    # pandas' own answers are untouched: a full path, a top-level branch.
    out = ok_value(run('df.loc[("percent", "mining"), ("black male workers", "total")]', {"df": df}))
    assert out["value"]["json"]["items"][0]["value"] == 2.0
    assert out["stderr"] == ""
    # "total" is a row and a column header under several parents: no single reading, pandas' error stays.
    message = error_of(run('df.loc["total", "total"]', {"df": df}))["message"]
    assert message.startswith("KeyError")
    # Labels found nowhere, slices, and assignments are pandas' business.
    assert error_of(run('df.loc["nowhere", "total"]', {"df": df}))["message"].startswith("KeyError")
    out = ok_value(run('df.loc["percent":"percent"].shape[0]', {"df": df}))
    assert out["value"]["repr"] == "3"
    out = ok_value(
        run(
            'df.loc[("percent", "mining"), ("black male workers", "total")] = 5\nanswer = df.iat[0, 1]',
            {"df": df},
        )
    )
    assert out["value"]["json"]["items"][0]["value"] == 5


def test_loc_header_paths_do_not_change_series_or_other_objects() -> None:
    df = _survey()
    out = ok_value(
        run('s = df[("other male workers", "total")]\nanswer = s.loc[("percent", "total")]', {"df": df})
    )
    assert out["value"]["json"]["items"][0]["value"] == 100
    message = error_of(run('s = df[("other male workers", "total")]\nanswer = s.loc["mining"]', {"df": df}))[
        "message"
    ]
    assert message.startswith("KeyError")
    assert error_of(run("answer = [1].loc[0]", {}))["message"].startswith("AttributeError")


def _report() -> pd.DataFrame:
    rows = pd.MultiIndex.from_tuples(
        [
            ("Consolidated", 'Available seat miles ("ASMs") (millions)'),
            ("Consolidated", "Passenger's load factor"),
            ("Consolidated", "Yield"),
        ]
    )
    values = [[253590.0, 241.0], [82.1, 83.0], [15.72, 15.1]]
    return pd.DataFrame(values, index=rows, columns=["2016", "2015"])


def test_a_label_with_quotes_written_inside_the_same_quotes_is_read_as_the_label_and_said() -> None:
    df = _report()
    out = ok_value(run('answer = df.loc["Available seat miles ("ASMs") (millions)", "2016"]', {"df": df}))
    assert out["value"]["json"]["items"][0]["value"] == 253590
    assert "labels with quotes in them were read as written" in out["stderr"]
    out = ok_value(run("answer = df.loc['Passenger's load factor', '2015']", {"df": df}))
    assert out["value"]["json"]["items"][0]["value"] == 83


def test_other_syntax_errors_and_quotes_that_are_no_label_stay_errors() -> None:
    df = _report()
    # Not a label of the table: the program stays a SyntaxError, with pandas-free wording.
    message = error_of(run('answer = df.loc["Seat miles ("SM")", "2016"]', {"df": df}))["message"]
    assert message.startswith("SyntaxError")
    # The label fixed, but the program still does not parse: the original error stands.
    message = error_of(run('answer = df.loc["Available seat miles ("ASMs") (millions)", "2016"', {"df": df}))[
        "message"
    ]
    assert message.startswith("SyntaxError")
    # A program that parses is never rewritten, even where a label's text appears in it.
    out = ok_value(run("answer = 'Available seat miles (\"ASMs\") (millions)'", {"df": df}))
    assert out["stderr"] == ""


def test_loc_reads_row_labels_followed_by_a_column_path_as_header_paths() -> None:
    rows = pd.MultiIndex.from_tuples([("Consolidated", "ASMs"), ("Consolidated", "RPMs")])
    cols = pd.MultiIndex.from_tuples([("Year Ended", "2016 (a)"), ("Year Ended", "2015")])
    df = pd.DataFrame([[1, 2], [3, 4]], index=rows, columns=cols)
    # pandas: IndexError (more key parts than the index has levels).
    out = ok_value(run('answer = df.loc["Consolidated", "RPMs", ("Year Ended", "2016 (a)")]', {"df": df}))
    assert out["value"]["json"]["items"][0]["value"] == 3
    assert "read as header paths" in out["stderr"]
    out = ok_value(run('answer = df.loc["RPMs", ("Year Ended", "2015")]', {"df": df}))
    assert out["value"]["json"]["items"][0]["value"] == 4
    # Labels that name nothing keep pandas' own error.
    program = 'df.loc["Consolidated", "nowhere", ("Year Ended", "2015")]'
    assert error_of(run(program, {"df": df}))["message"].startswith("KeyError")


def test_a_loc_key_that_names_no_cell_says_which_labels_are_no_header_or_how_to_write_it() -> None:
    df = _survey()
    # pandas: "Too many indexers", which says nothing a repair can use; the note names the wrong label.
    message = error_of(run('answer = df.loc["mining", "black workers", "total"]', {"df": df}))["message"]
    assert message.startswith("IndexingError: Too many indexers")
    assert "'black workers' is no row or column header of this table (close: 'black male workers'" in message
    # A label with a near twin among the headers is offered it; one with none is only named.
    message = error_of(run('answer = df.loc["minning", "zzz"]', {"df": df}))["message"]
    assert "'minning' is no row or column header of this table (close: 'mining')" in message
    assert "'zzz' is no row or column header of this table;" not in message
    assert message.endswith("'zzz' is no row or column header of this table)")
    # Every label a header, but no reading as a row path then a column path: how to write the key.
    program = 'answer = df.loc["mining", "transportation and warehousing"]'
    message = error_of(run(program, {"df": df}))["message"]
    assert "each label is a header of this table, but they do not read as one row path" in message
    # A label under several parents: which headers it names, and how to write the one meant.
    program = 'answer = df.loc["transportation and warehousing", "total"]'
    message = error_of(run(program, {"df": df}))["message"]
    assert (
        "'total' names 2 column headers: ('black male workers', 'total'), ('other male workers', 'total'); "
        "write the full path of the one meant, e.g. df.loc[..., ('black male workers', 'total')]"
    ) in message
    assert "each label is a header of this table" not in message
    # A program's own exception keeps its message; notes it adds itself are shown, capped like any message.
    message = error_of(run('e = ValueError("x")\ne.add_note("y" * 20_000)\nraise e', {}))["message"]
    assert message.startswith("ValueError: x (yyy")
    assert message.endswith("more characters]")
    assert len(message) < 10_100


def test_a_label_under_several_parents_reads_the_one_the_question_names_and_says_so() -> None:
    df = _survey()
    program = 'answer = df.loc["transportation and warehousing", "total"]'
    question = "How many percent of other male workers were employed in transportation and warehousing?"
    out = ok_value(run(program, {"df": df}, question=question))
    assert out["value"]["json"]["items"][0]["value"] == 7.1
    assert "column ('other male workers', 'total')" in out["stderr"]
    assert out["readings"] == [
        ".loc['transportation and warehousing', 'total'] read as header paths: "
        "row ('percent', 'transportation and warehousing'), column ('other male workers', 'total')"
    ]
    # A column read, and the Operation APIs, read the label the same way; the API says why.
    out = ok_value(run('df["total"].tolist()', {"df": df}, question=question))
    assert out["value"]["json"] == [3.0, 7.1, 100.0]
    ns = {"df": df, **tableqa.api_namespace()}
    out = ok_value(run('lookup(df, "transportation and warehousing", "total")', ns, question=question))
    assert out["value"]["json"] == 7.1
    assert out["readings"] == [
        "column header 'total' names 2 columns; read as ('other male workers', 'total'), the one the "
        "question names"
    ]
    # A question that names both parents, or neither, leaves the label as ambiguous as it was.
    for other in (
        "How many more black male workers than other male workers were in transportation and warehousing?",
        "What was the total in transportation and warehousing?",
        None,
    ):
        message = error_of(run(program, {"df": df}, question=other))["message"]
        assert "'total' names 2 column headers" in message
    # The question is one program's: the next run without one does not read by it.
    run(program, {"df": df}, question=question)
    assert "'total' names 2 column headers" in error_of(run(program, {"df": df}))["message"]


def test_a_difference_asked_without_direction_is_answered_as_a_size() -> None:
    df = pd.DataFrame({"Team": ["Ards", "Bangor"], "Points": [12, 32]})
    program = (
        'answer = df.loc[df.Team == "Ards", "Points"].item() - df.loc[df.Team == "Bangor", "Points"].item()'
    )
    question = "What is the difference in points between Ards and Bangor?"
    out = ok_value(run(program, {"df": df}, question=question))
    assert out["value"]["json"] == 20
    assert out["readings"] == ["the question asks for a difference, which is a size: -20 is read as 20"]
    # A one-value Series (two selections subtracted with .values) and a float keep their kind.
    series = 'df.loc[df.Team == "Ards", "Points"].reset_index(drop=True) - 32.5'
    out = ok_value(run(series, {"df": df}, question=question))
    assert out["value"]["type"] == "Series"
    assert out["value"]["json"]["items"][0]["value"] == 20.5
    assert out["readings"] == ["the question asks for a difference, which is a size: -20.5 is read as 20.5"]
    # A change keeps its sign, as does anything that is not one number: text, several values, a positive one.
    out = ok_value(run(program, {"df": df}, question="How did the points change from Ards to Bangor?"))
    assert out["value"]["json"] == -20
    assert "readings" not in out
    for other in ('"-20"', "df.Points - 40", "20", "True"):
        out = ok_value(run(other, {"df": df}, question=question))
        assert "readings" not in out, other
    # The question is one program's: the next run without one keeps the sign.
    assert ok_value(run(program, {"df": df}))["value"]["json"] == -20


def test_a_short_series_read_from_a_table_names_the_cell_of_each_value() -> None:
    df = _survey()
    ns = {"df": df, **tableqa.api_namespace()}
    # pandas drops the levels a read selected: the Series' own labels no longer say where its values stand.
    out = ok_value(run('df.loc[("percent", "transportation and warehousing"), "black male workers"]', ns))
    table = out["value"]["json"]["table"]
    assert table["index"] == [["immigrant"], ["total"]]
    assert table["reads"] == [
        'df.loc[("percent", "transportation and warehousing"), ("black male workers", "immigrant")]',
        'df.loc[("percent", "transportation and warehousing"), ("black male workers", "total")]',
    ]
    # Each read gives its value alone.
    for read, row in zip(table["reads"], table["rows"], strict=True):
        assert ok_value(run(f"float({read})", ns))["value"]["json"] == row[0]
    # A column read and a header-path reading name their cells too; a condition keeps the cells it kept.
    out = ok_value(run('df["other male workers"]["total"]', ns))
    reads = out["value"]["json"]["table"]["reads"]
    assert reads[2] == 'df.loc[("percent", "total"), ("other male workers", "total")]'
    out = ok_value(run('df.loc["mining"]', ns))
    reads = out["value"]["json"]["table"]["reads"]
    assert reads[0] == 'df.loc[("percent", "mining"), ("black male workers", "immigrant")]'
    out = ok_value(run('s = df[("black male workers", "total")]\ns[s > 5]', ns))
    assert out["value"]["json"]["table"]["reads"] == [
        'df.loc[("percent", "transportation and warehousing"), ("black male workers", "total")]',
        'df.loc[("percent", "total"), ("black male workers", "total")]',
    ]
    # Values that are no longer the cells (arithmetic keeps pandas' attrs), a table that was not given,
    # one value, and a whole frame have none.
    for program in (
        'df.loc["mining"] * 100',
        'df.loc["mining"].cumsum()',
        'other = df.copy()\nother.loc["mining"]',
        'df.loc["mining", ("black male workers", "total")]',
        'df.loc["percent"]',
    ):
        table = ok_value(run(program, ns))["value"]["json"].get("table") or {}
        assert "reads" not in table, program


def test_a_loc_key_with_words_of_the_title_reads_without_them_and_says_so() -> None:
    payload = {
        "title": "Adults under correctional supervision, by type and jurisdiction, 2013/2014",
        "columns": [["remand", "number"], ["remand", "rate"], ["probation", "number"]],
        "index": [["ontario"], ["provinces and territories - total"]],
        "values": [["3,000", "30", "20,000"], ["11,493", "46", "84,905"]],
    }
    df = tableqa.build_frame(payload)
    program = 'df.loc["provinces and territories - total", "remand", "2013/2014", "number"]'
    out = ok_value(run(program, {"df": df}))
    assert out["value"]["json"]["items"] == [{"value": 11493, "type": "number"}]
    assert out["readings"] == [
        ".loc['provinces and territories - total', 'remand', '2013/2014', 'number'] read as header paths "
        "without '2013/2014' (the table's title, no header): row 'provinces and territories - total', "
        "column ('remand', 'number')"
    ]
    # Words that are not the title's stay an error that names them, and so do they in an untitled table;
    # so does a word of the title that is a header written wrong ("correctional" for "correctional total").
    message = error_of(run('df.loc["ontario", "remand", "2015/2016", "number"]', {"df": df}))["message"]
    assert "'2015/2016' is no row or column header of this table" in message
    headed = tableqa.build_frame(
        {**payload, "columns": [["remand", "number"], ["remand", "rate"], ["correctional total", "number"]]}
    )
    message = error_of(run('df.loc["ontario", "correctional", "rate"]', {"df": headed}))["message"]
    assert "'correctional' is no row or column header of this table (close: 'correctional total')" in message
    untitled = tableqa.build_frame({**payload, "title": ""})
    message = error_of(run('df.loc["ontario", "remand", "2013/2014", "number"]', {"df": untitled}))["message"]
    assert "'2013/2014' is no row or column header of this table" in message


def test_loc_reads_the_labels_of_one_path_written_child_first() -> None:
    df = _survey()
    # ("percent", "transportation and warehousing") named bottom up: that row.
    out = ok_value(run('answer = df.loc["transportation and warehousing", "percent"]', {"df": df}))
    assert [x["value"] for x in out["value"]["json"]["items"]] == [11.1, 9.0, 7.1]
    read = "read as header paths: row ('percent', 'transportation and warehousing'), column all"
    assert read in out["stderr"]
    # With a column path after it: the cell.
    program = 'answer = df.loc["transportation and warehousing", "percent", ("other male workers", "total")]'
    assert ok_value(run(program, {"df": df}))["value"]["json"]["items"][0]["value"] == 7.1
    # Labels that name two headers in two orders stay pandas' error.
    rows = pd.MultiIndex.from_tuples([("a", "b", "c"), ("c", "b", "a")])
    two = pd.DataFrame([[1], [2]], index=rows, columns=["x"])
    assert error_of(run('answer = two.loc["b", "a", "c"]', {"two": two}))["message"].startswith("KeyError")
    one = pd.DataFrame([[1]], index=pd.MultiIndex.from_tuples([("a", "b", "c")]), columns=["x"])
    out = ok_value(run('answer = one.loc["b", "a", "c"]', {"one": one}))
    assert out["value"]["json"]["items"][0]["value"] == 1


def test_loc_reads_the_labels_of_two_axes_interleaved_when_one_split_fits() -> None:
    df = _survey()
    # The row ("percent", "mining") with the column "immigrant" written between its labels.
    out = ok_value(run('answer = df.loc["percent", "immigrant", "mining"]', {"df": df}))
    assert out["value"]["json"]["items"][0]["value"] == 1.0
    read = "read as header paths: row ('percent', 'mining'), column ('black male workers', 'immigrant')"
    assert read in out["stderr"]
    assert out["readings"] == [".loc['percent', 'immigrant', 'mining'] " + read]
    # A program pandas reads as written has no readings.
    assert "readings" not in ok_value(run('answer = df.loc[("percent", "mining")]', {"df": df}))
    # A column path between the row's labels, and a branch of columns: its values.
    program = 'answer = df.loc["percent", ("other male workers", "total"), "transportation and warehousing"]'
    assert ok_value(run(program, {"df": df}))["value"]["json"]["items"][0]["value"] == 7.1
    out = ok_value(run('answer = df.loc["percent", "black male workers", "mining"]', {"df": df}))
    assert [i["value"] for i in out["value"]["json"]["items"]] == [1.0, 2.0]
    # "total" is a row and a column header: two splits fit, so pandas' error stays, with its note.
    program = 'answer = df.loc["percent", "total", "other male workers"]'
    message = error_of(run(program, {"df": df}))["message"]
    assert message.startswith(("KeyError", "IndexingError", "IndexError"))


def test_loc_with_a_condition_reads_a_column_label_the_way_a_column_read_does() -> None:
    df = pd.DataFrame({"Hand": ["Full house", "Flush", "Full house"], "1 credit": [8, 5, 9]})
    # pandas: KeyError '1credit'; the column is '1 credit'. The rows are pandas' own reading of the mask.
    out = ok_value(run('answer = df.loc[df["Hand"] == "Full house", "1credit"].tolist()', {"df": df}))
    assert out["value"]["json"] == [8, 9]
    assert "read as the column '1 credit'" in out["stderr"]
    # One row kept is still a Series, as pandas gives it.
    out = ok_value(run('answer = df.loc[df["1 credit"] == 5, "1credit"].values[0]', {"df": df}))
    assert out["value"]["json"]["items"][0]["value"] == 5
    # A hierarchical column named by its lower label, rows by a list of positions' labels.
    survey = _survey()
    out = ok_value(run('answer = survey.loc[survey.index[:2], "immigrant"].tolist()', {"survey": survey}))
    assert out["value"]["json"] == [1.0, 11.1]
    # A label that names no column, or several, keeps pandas' error.
    message = error_of(run('answer = df.loc[df["Hand"] == "Flush", "Points"]', {"df": df}))["message"]
    assert message.startswith("KeyError")
    message = error_of(run('answer = survey.loc[survey.index[:2], "total"]', {"survey": survey}))["message"]
    assert message.startswith("KeyError")


def test_a_column_the_table_lacks_is_noted_with_the_column_that_holds_the_values_the_program_looks_for() -> (
    None
):
    df = pd.DataFrame(
        {
            "School": ["Royal School Dungannon", "Coleraine Academical Institution"],
            "Location": ["Dungannon", "Coleraine"],
            "Runners-Up": [4, 24],
        }
    )
    ns = {"df": df, **tableqa.api_namespace()}
    held = "the program's 'Royal School Dungannon' is a cell of column 'School': select by that column"
    # pandas' KeyError and the Operation APIs' HeaderNotFound alike.
    program = 'answer = df.loc[df["Club"] == "Royal School Dungannon", "Runners-Up"]'
    message = error_of(run(program, dict(ns)))["message"]
    assert message.startswith("KeyError: 'Club' ('Club' is no column header of this table")
    assert held in message
    program = 'answer = filter_rows(df, "Club", "==", "Royal School Dungannon")["Runners-Up"]'
    assert held in error_of(run(program, dict(ns)))["message"]
    # Run as the evaluation's wrapper runs a program (through program_value, its lines registered for the
    # program's frames), the note reads the program, not the wrapper.
    wrapper = (
        "import linecache\n"
        "from tableqa.runner import program_value\n"
        "linecache.cache['<program>'] = (len(src), None, src.splitlines(True), '<program>')\n"
        "answer = program_value(src, globals())\n"
    )
    assert held in error_of(run(wrapper, {**ns, "src": program}))["message"]
    # Values held by no column, or by several, and errors about other things, get no such note.
    for program in (
        'answer = df.loc[df["Club"] == "Eton", "Runners-Up"]',
        'answer = df["Club"].max()',
        'answer = df.loc[df["School"] == "Royal School Dungannon", "Runners-Up"] + "x"',
    ):
        assert "the program's" not in error_of(run(program, dict(ns)))["message"]


def test_a_column_label_below_the_top_level_reads_that_column_and_says_so() -> None:
    df = _survey()
    # pandas wants the top level first: df["immigrant"] is a KeyError there; it names one column.
    out = ok_value(run('answer = df["immigrant"].max()', {"df": df}))
    assert out["value"]["json"]["items"][0]["value"] == 100
    assert "read as the column ('black male workers', 'immigrant')" in out["stderr"]
    # A full path and a top-level label are pandas' own answers, untouched.
    out = ok_value(run('answer = df[("black male workers", "immigrant")].tolist()', {"df": df}))
    assert out["value"]["json"] == [1.0, 11.1, 100.0]
    out = ok_value(run('answer = df["black male workers"].shape', {"df": df}))
    assert out["stderr"] == ""
    # Chained: a column read, then pandas' own Series indexing.
    out = ok_value(run('answer = df["immigrant"][("percent", "mining")]', {"df": df}))
    assert out["value"]["json"]["items"][0]["value"] == 1


def test_column_reads_leave_other_subscripts_and_what_is_not_one_column_alone() -> None:
    df = _survey()
    # "total" is a column under two parents: not one reading, pandas' KeyError with where it stands.
    message = error_of(run('answer = df["total"]', {"df": df}))["message"]
    assert message.startswith("KeyError: 'total'")
    assert "('black male workers', 'total'), ('other male workers', 'total')" in message
    # Dicts, lists, strings and Series keep Python's and pandas' behaviour, errors included.
    assert error_of(run('answer = {"a": 1}["b"]', {}))["message"] == "KeyError: 'b'"
    out = ok_value(run('answer = [10, 20, 30][1] + len("abc"[1:])', {}))
    assert out["value"]["repr"] == "22"
    message = error_of(run('s = df[("other male workers", "total")]\nanswer = s["mining"]', {"df": df}))[
        "message"
    ]
    assert message.startswith("KeyError")
    # Assignments and positional indexers are not routed; a new column can still be made.
    out = ok_value(run('df["share"] = 1\nanswer = int(df["share"].sum()) + int(df.iat[0, 0])', {"df": df}))
    assert out["value"]["repr"] == "4"
    # Flat columns: a missing column stays missing (its error says which columns there are).
    flat = pd.DataFrame({"a": [1]})
    assert error_of(run('answer = flat["b"]', {"flat": flat}))["message"].startswith("KeyError: 'b' (")


def test_a_helper_called_with_arguments_that_do_not_fit_says_how_it_is_written() -> None:
    df = pd.DataFrame({"Nation": ["Norway", "Germany"], "Gold": [16, 12]})
    namespace = {"df": df, **tableqa.api_namespace()}
    message = error_of(run('answer = value_of(df, "Nation", "Norway")', dict(namespace)))["message"]
    assert message.startswith("TypeError: value_of() missing 1 required positional argument: 'column'")
    assert "(write it as value_of(df, key_column, key, column), e.g. value_of(" in message
    # A TypeError of anything else keeps pandas' or Python's own message alone.
    message = error_of(run("answer = len(df, 2)", dict(namespace)))["message"]
    assert "write it as" not in message


@pytest.mark.parametrize("pick", [".iloc[0]", ".values[0]", ".item()"])
def test_picking_from_an_empty_selection_says_so(pick: str) -> None:
    df = pd.DataFrame({"City": ["United States, Los Angeles", "Canada, Saskatoon"], "Passengers": [20, 7]})
    program = f'answer = df[df["City"] == "Los Angeles"]["Passengers"]{pick}'
    message = error_of(run(program, {"df": df}))["message"]
    assert "(the selection it picks from is empty: no row matched the condition" in message


def test_picking_past_the_end_of_a_selection_says_how_many_it_holds() -> None:
    df = pd.DataFrame({"Name": ["Fairfield", "Waverley", "No.1"], "Built": [1847, 1849, 1880]})
    # One row matched: the second is asked for (the row after it was meant, most likely).
    message = error_of(run('answer = df[df["Name"] == "Fairfield"].iloc[1]["Name"]', {"df": df}))["message"]
    assert message.startswith("IndexError: single positional indexer is out-of-bounds (")
    assert (
        "the selection it picks from holds 1 row, so position 1 is past its end: positions count from 0"
        in message
    )
    assert "empty" not in message
    message = error_of(run('answer = df["Built"].values[5]', {"df": df}))["message"]
    assert message.startswith("IndexError: index 5 is out of bounds for axis 0 with size 3 (")
    assert "holds 3 values, so position 5 is past its end" in message
    message = error_of(run('answer = df["Built"].iloc[-4]', {"df": df}))["message"]
    assert "holds 3 values, so position -4 is past its end" in message
    message = error_of(run("answer = df.iloc[:, 2].tolist()", {"df": df}))["message"]
    assert "holds 2 columns, so position 2 is past its end" in message
    # Several values where .item() takes one.
    message = error_of(run('answer = df[df["Built"] > 1848]["Name"].item()', {"df": df}))["message"]
    assert message.startswith("ValueError: can only convert an array of size 1 to a Python scalar (")
    assert "the selection it picks from holds 2 values, not one: pick the one asked for" in message


def test_a_number_in_brackets_on_a_series_with_header_labels_says_iloc_picks_by_position() -> None:
    df = pd.DataFrame({"2013": [12.5, 3.0], "2014": [13.0, 4.0]}, index=["men", "women"])
    message = error_of(run('value = df.loc["men"]\nanswer = value[0]', {"df": df}))["message"]
    assert message.startswith("KeyError: 0 (")
    assert (
        "[0] reads the label 0, but this Series is labelled '2013', '2014', not numbered: .iloc[0]" in message
    )
    # A Series numbered by its labels has no such note: there the label is what was asked for.
    numbered = pd.Series([1, 2], index=[10, 20])
    assert "not numbered" not in error_of(run("answer = s[0]", {"s": numbered}))["message"]


def test_picking_from_a_selection_no_text_condition_matched_names_the_condition() -> None:
    df = build_frame(
        {"columns": [["City"], ["Passengers"]], "index": [], "values": [["United States, Los Angeles", "20"]]}
    )
    message = error_of(run('answer = df[df["City"] == "Los Angeles"]["Passengers"].iloc[0]', {"df": df}))[
        "message"
    ]
    assert "the selection it picks from is empty: no row matched the condition" in message
    said = "df['City'] == 'Los Angeles' matched no row; cells of 'City' that contain it: "
    assert said + "'United States, Los Angeles'" in message


def test_comparing_a_text_column_with_a_number_names_the_column_and_shows_its_cells() -> None:
    df = pd.DataFrame({"Name": ["Kaprun", "Jaume I"], "Height": ["113.6 m", "107 m"], "Year": [1966, 1931]})
    message = error_of(run('answer = df[df["Height"] <= 80]["Name"].tolist()', {"df": df}))["message"]
    assert message.startswith("TypeError: '<=' not supported between instances of 'str' and 'int'")
    assert "column 'Height' of df holds text ('113.6 m', '107 m'): compare the numbers taken out" in message
    # Not a column of text without numbers, nor one the failing line does not name.
    assert "column 'Name'" not in message
    program = 'x = df["Year"].max()\nanswer = df[df["Height"] <= 80]["Name"].tolist()'
    df["Year"] = ["about 1966", "1931"]
    message = error_of(run(program, {"df": df}))["message"]
    assert "column 'Height'" in message
    assert "column 'Year'" not in message
    # The suggested reading works.
    number = 'df["Height"].str.extract(r"(-?\\d+(?:\\.\\d+)?)")[0].astype(float)'
    assert number in message.replace("'Height'", '"Height"')
    fixed = ok_value(run(f'answer = df[{number} <= 110]["Name"].tolist()', {"df": df}))
    assert fixed["value"]["json"] == ["Jaume I"]
    # A column of numbers compared with text: pandas names no column, the note does.
    df["Year"] = [1966, 1931]
    message = error_of(run('answer = df[df["Year"] > "1950"]["Name"].tolist()', {"df": df}))["message"]
    assert message.startswith("TypeError: Invalid comparison between dtype=int64 and str")
    assert message.endswith("(column 'Year' of df holds numbers: compare it with a number, not text)")
    # Other TypeErrors, and comparisons of numbers only, get no such note.
    assert "holds" not in error_of(run('answer = df["Name"] + 1', {"df": df}))["message"]


def test_arithmetic_with_text_cells_or_reading_them_as_numbers_names_the_column_and_shows_its_cells() -> None:
    df = pd.DataFrame(
        {"Train": ["Royal Blue", "Crusader"], "Begun": ["1890", "1937*"], "Ended": ["1958*", "1982"]}
    )
    namespace = {"df": df, "pd": pd}
    note = (
        "column 'Begun' of df holds text ('1890', '1937*'): compute with the numbers taken out of it, e.g. "
        """df['Begun'].str.extract(r"(-?\\d+(?:\\.\\d+)?)")[0].astype(float), then pick the values from """
        "those numbers as from the column"
    )
    for program, error in (
        ('answer = df["Begun"].iloc[1] - df["Begun"].iloc[0]', "TypeError: unsupported operand type(s)"),
        ('answer = df["Begun"].iloc[1] + 1', "TypeError: can only concatenate str"),
        ('answer = int(df["Begun"].iloc[1]) - 1890', "ValueError: invalid literal for int() with base 10"),
        ('answer = df["Begun"].astype(int).max()', "ValueError: invalid literal for int()"),
        ('answer = pd.to_numeric(df["Begun"]).max()', 'ValueError: Unable to parse string "1937*"'),
    ):
        message = error_of(run(program, namespace))["message"]
        assert message.startswith(error)
        assert message.endswith(f"({note})")
        assert "'Ended'" not in message
    # The suggested reading works.
    number = 'df["Begun"].str.extract(r"(-?\\d+(?:\\.\\d+)?)")[0].astype(float)'
    fixed = f"b = {number}\nanswer = b[df['Train'] == 'Crusader'].iloc[0] - b.iloc[0]"
    assert ok_value(run(fixed, namespace))["value"]["json"]["items"][0]["value"] == 47
    # Text without numbers, and values that are no cells of a column, get no note.
    for program in ('answer = int(df["Train"].iloc[0])', 'answer = float("abc")', 'answer = df["Train"] + 1'):
        assert "holds text" not in error_of(run(program, namespace))["message"]


def test_a_condition_on_rows_where_python_wants_one_truth_value_says_how_to_test_rows() -> None:
    df = pd.DataFrame({"Genre": ["ballet", "opera"], "Composer": ["Davies", "Petrovics"]})
    joined = error_of(run('answer = df[df["Genre"] == "ballet" and df["Composer"] == "Davies"]', {"df": df}))
    assert joined["message"].startswith("ValueError: The truth value of a Series is ambiguous")
    assert joined["message"].endswith(
        "but Python's and, or and not take one: join conditions with & or | and negate with ~, each "
        'condition in parentheses, df[(df["col1"] == value1) & (df["col2"] > value2)])'
    )
    # The way the note gives works.
    fixed = 'answer = df[(df["Genre"] == "ballet") & (df["Composer"] == "Davies")]["Composer"].tolist()'
    assert ok_value(run(fixed, {"df": df}))["value"]["json"] == ["Davies"]
    tested = error_of(run('if df["Genre"] == "opera":\n    answer = 1', {"df": df}))["message"]
    assert tested.endswith("or test .any() (some row) or .all() (every row))")
    # Other errors get neither note.
    assert "per row" not in error_of(run('answer = int("x")', {"df": df}))["message"]


def test_an_if_on_two_rows_read_whole_says_to_read_one_value_on_each_side() -> None:
    df = pd.DataFrame({"2013": [12.5, 3.0], "2014": [13.0, 4.0]}, index=["men", "women"])
    program = 'answer = "women" if df.loc["women"] > df.loc["men"] else "men"'
    message = error_of(run(program, {"df": df}))["message"]
    assert message.startswith("ValueError: The truth value of a Series is ambiguous")
    assert (
        "the comparison gives one True or False for each of '2013', '2014': each side is several values"
        in message
    )
    assert message.endswith(
        "read the one value meant on each side, df.loc[row_path, column_path], then compare)"
    )
    # The way the note gives works.
    fixed = 'answer = "women" if df.loc["women", "2014"] > df.loc["men", "2014"] else "men"'
    assert ok_value(run(fixed, {"df": df}))["value"]["json"] == "men"
    # Rows of one column each: one True or False, still in a Series.
    one = df[["2013"]]
    message = error_of(run('answer = 1 if one.loc["women"] > one.loc["men"] else 0', {"one": one}))["message"]
    assert (
        "the comparison gives a Series of one True or False, labelled '2013': each side is a Series"
        in message
    )
    # A condition on the table's rows keeps the note on conditions.
    tested = error_of(run('if df["2013"] > 5:\n    answer = 1', {"df": df}))["message"]
    assert tested.endswith("or test .any() (some row) or .all() (every row))")


def test_a_column_method_on_one_value_says_it_is_one_value() -> None:
    df = pd.DataFrame({"Name": ["Fairfield", "No.1"], "Date built": ["1847", "1880"]})
    program = 'answer = df.loc[1, "Date built"].str.extract(r"(\\d+)")[0]'
    message = error_of(run(program, {"df": df}))["message"]
    assert message == (
        "AttributeError: 'str' object has no attribute 'str' ('1880' is one value (a str), not a column: "
        ".str belongs to a column (a Series). Apply .str to the whole column and then pick the row's value "
        "from the result, or use the value itself (float(value) reads a number written as text))"
    )
    # A number read from a column is a numpy value: shown as a number.
    years = pd.DataFrame({"Year": [1990, 2001]})
    numeric = error_of(run('answer = years["Year"].max().iloc[0]', {"years": years}))["message"]
    assert "(2001 is one value (a int64), not a column: .iloc belongs to a column" in numeric
    # Both ways the note gives work.
    for fixed in (
        'answer = df["Date built"].str.extract(r"(\\d+)")[0].astype(float).loc[1]',
        'answer = float(df.loc[1, "Date built"])',
    ):
        shown = ok_value(run(fixed, {"df": df}))["value"]["repr"]
        assert float(shown.removeprefix("np.float64(").rstrip(")")) == 1880
    # An attribute no Series has, or one of a table, gets no such note.
    assert "is one value" not in error_of(run('answer = "x".foo', {"df": df}))["message"]
    assert "is one value" not in error_of(run("answer = df.str", {"df": df}))["message"]


def test_int_or_float_of_several_values_says_how_to_get_one() -> None:
    df = pd.DataFrame({"School": ["A", "B"], "Runners-up": [4, 24]})
    for program, call in (
        ('answer = int(df["Runners-up"] - 4)', "int"),
        ('answer = float(df[["Runners-up"]])', "float"),
    ):
        message = error_of(run(program, {"df": df}))["message"]
        assert message.startswith("TypeError:")
        assert message.endswith(
            f"({call}() takes one value and was given a Series or a table of them: pick the one asked for, "
            "with .iloc[0] (the first row) or by its label, or reduce them to one (.sum(), .max(), len(...)))"
        )
    fixed = 'answer = int(df[df["School"] == "B"]["Runners-up"].iloc[0] - df["Runners-up"].iloc[0])'
    assert ok_value(run(fixed, {"df": df}))["value"]["json"] == 20
    assert "takes one value" not in error_of(run('answer = int("x")', {"df": df}))["message"]


def test_a_measure_listed_down_a_wide_table_is_read_as_its_row_when_asked_as_a_column() -> None:
    # Measures down the first column, years across: the measure's row, year by year, in numbers.
    df = build_frame(
        {
            "columns": [["Exchange"], ["2008/09"], ["2009/10"], ["2010/11"]],
            "index": [],
            "values": [
                ["Agricultural - Volume (thousand tons)", "1,234", "2,345", "3,456"],
                ["Metal - Volume (thousand tons)", "5,000", "4,000", "3,000"],
            ],
        }
    )
    out = ok_value(run('answer = df["Agricultural - Volume (thousand tons)"].idxmax()', {"df": df}))
    assert out["value"]["json"] == "2010/11"
    assert "read as the row whose 'Exchange' is 'Agricultural - Volume (thousand tons)'" in out["stderr"]
    out = ok_value(run('df["Metal - Volume (thousand tons)"].sum()', {"df": df}))
    assert out["value"]["json"]["items"][0]["value"] == 12000
    # A label that no cell holds still fails, with what the table has.
    message = error_of(run('df["Oil - Volume"].max()', {"df": df}))["message"]
    assert message.startswith("KeyError: 'Oil - Volume' ('Oil - Volume' is no column header of this table")


def test_a_column_that_is_not_there_says_what_the_table_has_instead() -> None:
    df = pd.DataFrame({"Hand": ["Full house", "Flush"], "1 credit": [8, 5], "Points scored": [3, 4]})
    program = 'answer = df[df["Hand"] == "Flush"]["Payout"].iloc[0]'
    message = error_of(run(program, {"df": df}))["message"]
    assert message == (
        "KeyError: 'Payout' ('Payout' is no column header of this table; its columns: 'Hand', '1 credit', "
        "'Points scored')"
    )
    message = error_of(run('answer = df["Points"].max()', {"df": df}))["message"]
    assert message.endswith("('Points' is no column header of this table (close: 'Points scored'))")
    # A label that is no header but the cell of one row, asked as a column: that row across the other
    # columns, said; asked as a row: which column holds it and how its row is selected.
    out = ok_value(run('answer = df["full house"]["1 credit"]', {"df": df}))
    assert out["value"]["json"]["items"][0]["value"] == 8
    assert out["readings"] == [
        "['full house'] read as the row whose 'Hand' is 'Full house', across the other columns (that label "
        "is a cell, not a column header)"
    ]
    twice = pd.DataFrame({"Hand": ["Flush", "Flush"], "1 credit": [8, 5]})
    message = error_of(run('answer = twice["Flush"]["1 credit"]', {"twice": twice}))["message"]
    assert message == (
        "KeyError: 'Flush' ('Flush' is no column header of this table but a cell of column 'Hand': "
        "select its row with df[df['Hand'] == 'Flush'])"
    )
    # The code compares with the cell as the table writes it.
    message = error_of(run('answer = df.loc["flush", "1 credit"]', {"df": df}))["message"]
    assert message.endswith(
        "('flush' is no row or column header of this table but a cell of column 'Hand': select its row with "
        "df[df['Hand'] == 'Flush'])"
    )
    # A column asked for the rows a condition selects: what the table has instead, as for df[...].
    message = error_of(run('answer = df.loc[df["1 credit"] == 8, "Payout"].iloc[0]', {"df": df}))["message"]
    assert message == (
        "KeyError: 'Payout' ('Payout' is no column header of this table; its columns: 'Hand', '1 credit', "
        "'Points scored')"
    )
    # A label that is part of cells, as whole words: those cells, and the search that selects them.
    towns = pd.DataFrame({"City": ["United States, Los Angeles", "Canada, Saskatoon"], "Passengers": [9, 2]})
    message = error_of(run('answer = towns.loc["Los Angeles", "Passengers"]', {"towns": towns}))["message"]
    assert message.endswith(
        "('Los Angeles' is no row or column header of this table but part of a cell of column 'City' "
        "('United States, Los Angeles'): select its row with df[df['City'].str.contains('Los Angeles')])"
    )
    fixed = "answer = towns[towns['City'].str.contains('Los Angeles')]['Passengers'].iloc[0]"
    assert ok_value(run(fixed, {"towns": towns}))["value"]["json"]["items"][0]["value"] == 9
    # Words within a word are not words of the cell ("Angeles" in "Angelesville"); a search that would also
    # find other cells is not shown.
    towns = pd.DataFrame({"City": ["Angelesville", "Los Angeles East", "los angeles, west"], "N": [1, 2, 3]})
    message = error_of(run('answer = towns.loc["Los Angeles", "N"]', {"towns": towns}))["message"]
    assert message.endswith(
        "('Los Angeles' is no row or column header of this table but part of a cell of column 'City' "
        "('Los Angeles East', 'los angeles, west'): select its row with "
        "df[df['City'].str.contains('Los Angeles', case=False)])"
    )
    message = error_of(run('answer = towns.loc["Angeles", "N"]', {"towns": towns}))["message"]
    assert message.endswith("part of a cell of column 'City' ('Los Angeles East', 'los angeles, west'))")


@pytest.mark.parametrize(
    "program",
    [
        'import pandas as pd\nanswer = len(pd.read_csv("no-such-table-here.csv"))',
        'answer = open("no-such-table-here.json").read()',
    ],
)
def test_reading_a_file_says_the_table_is_already_loaded(program: str) -> None:
    df = pd.DataFrame({"City": ["Oslo"], "Passengers": [5]})
    message = error_of(run(program, {"df": df}))["message"]
    assert message.startswith("FileNotFoundError")
    note = "no files can be read here: the table is already loaded as the DataFrame df; use it as it is"
    assert note in message


def test_a_table_read_from_a_file_that_is_not_there_is_the_loaded_table(tmp_path: Path) -> None:
    df = pd.DataFrame({"City": ["Oslo", "Bergen"], "Passengers": [5, 7]})
    program = "\n".join(
        [
            "import pandas as pd",
            'data = pd.read_csv("table.csv", index_col=0)',
            'answer = int(data["Passengers"].sum())',
        ]
    )
    result = run(program, {"df": df})
    assert result["value"]["value"]["json"] == 12
    assert "the loaded table was read instead: 'table.csv' as df" in result["value"]["stderr"]
    # Two tables and a name that is neither: which one was meant is unknown, so the read fails as written.
    two = {"df": df, "other": df.copy()}
    assert error_of(run(program, two))["message"].startswith("FileNotFoundError")
    # The name of one of them: that table.
    assert run('other = pd.read_json("other.json")\nanswer = len(other)', {**two, "pd": pd})["ok"]
    # A file that is there is read.
    path = tmp_path / "small.csv"
    path.write_text("x\n1\n2\n3\n")
    read = run(f"df = pd.read_csv({str(path)!r})\nanswer = len(df)", {"df": df, "pd": pd})
    assert read["value"]["value"]["json"] == 3


def test_importing_a_module_that_is_not_there_says_what_may_be_used() -> None:
    df = pd.DataFrame({"a": [1]})
    message = error_of(run("import no_such_module_here\nanswer = 1", {"df": df}))["message"]
    assert message.startswith("ModuleNotFoundError: No module named 'no_such_module_here'")
    assert "use pandas (pd), numpy, the Python standard library and the helper functions" in message
    # Other errors do not get the note.
    message = error_of(run("answer = 1 / 0", {"df": df}))["message"]
    assert "no files can be read" not in message
    assert "that module is not available" not in message


def test_importing_a_helper_says_it_is_already_defined() -> None:
    df = pd.DataFrame({"a": [1]})

    def filter_rows(*_args: object) -> None:
        return None

    namespace = {"df": df, "filter_rows": filter_rows}
    message = error_of(run("from pandas import filter_rows\nanswer = 1", namespace))["message"]
    assert message.startswith("ImportError: cannot import name 'filter_rows' from 'pandas'")
    assert message.endswith("(filter_rows is already defined here: call it without importing it)")
    # A name that is not a helper gets no such note.
    message = error_of(run("from pandas import no_such_name\nanswer = 1", {"df": df}))["message"]
    assert "already defined" not in message


@pytest.mark.parametrize(
    "program",
    [
        "def answer(df):\n    return len(df)",
        "def count(df):\n    return len(df)\nanswer = count",
        "import math\nanswer = math",
    ],
)
def test_an_answer_that_is_code_is_an_error(program: str) -> None:
    df = pd.DataFrame({"a": [1, 2]})
    error = error_of(run(program, {"df": df}))
    assert error["message"].startswith("TypeError: the answer is a function, not a value")
    # The function called gives its value.
    called = run("def count(df):\n    return len(df)\nanswer = count(df)", {"df": df})
    assert called["value"]["value"]["json"] == 2


def test_rows_joined_with_and_say_how_conditions_are_combined() -> None:
    from tableqa.ops import filter_rows

    df = pd.DataFrame(
        {"Year": ["1964", "1970"], "Site": ["Manhattan", "Lawrence"], "Losing team": ["KSU", "KU"]}
    )
    namespace = {"df": df, "filter_rows": filter_rows}
    program = (
        'answer = filter_rows(df, "Site", "==", "Manhattan") & filter_rows(df, "Losing team", "==", "KSU")'
    )
    message = error_of(run(program, namespace))["message"]
    assert message.startswith("TypeError: unsupported operand type(s) for &")
    assert message.endswith(
        'to one call, filter_rows(df, "col1", "==", value1, "col2", ">", value2), which '
        "keeps the rows that meet them all)"
    )
    # The one call the note suggests gives the rows asked for; & between conditions is left alone.
    fixed = run(
        'answer = filter_rows(df, "Site", "==", "Manhattan", "Losing team", "==", "KSU")["Year"].iloc[0]',
        namespace,
    )
    assert ok_value(fixed)["value"]["json"] == "1964"
    message = error_of(run('answer = df["Year"] & df["Site"]', namespace))["message"]
    assert "filter_rows gives rows" not in message


def test_a_zero_answer_from_a_condition_that_matched_no_row_says_so() -> None:
    from tableqa.ops import filter_rows

    df = pd.DataFrame({"Name": ["A", "B", "C"], "Home Town": ["Raleigh, NC", "Boston, MA", "Durham, NC"]})
    namespace = {"df": df, "filter_rows": filter_rows}
    zero = ok_value(run('answer = df[df["Home Town"] == "NC"]["Name"].count()', namespace))
    assert zero["value"]["json"]["items"][0]["value"] == 0
    assert zero["unmatched"] == [
        "df['Home Town'] == 'NC' matched no row; cells of 'Home Town' that contain it: 'Raleigh, NC', "
        "'Durham, NC' (select them with df['Home Town'].str.contains('NC', case=False))"
    ]
    rows = ok_value(run('answer = len(filter_rows(df, "Home Town", "==", "Bost"))', namespace))
    assert rows["unmatched"] == [
        "filter_rows(df, 'Home Town', '==', 'Bost') matched no row; cells of 'Home Town' that contain it: "
        "'Boston, MA' (select them with filter_rows(df, 'Home Town', 'contains', 'Bost'))"
    ]
    # A condition that matched, or an answer that is not zero or empty, carries no such note; what pandas
    # answers is unchanged by the routing.
    found = ok_value(run('answer = (df["Home Town"] == "Boston, MA").sum()', namespace))
    assert found["value"]["json"]["items"][0]["value"] == 1
    assert "unmatched" not in found
    other = ok_value(run('x = (df["Name"] == "Z").sum()\nanswer = "Z" == "Z"', namespace))
    assert other["value"]["json"] is True
    assert "unmatched" not in other
    # Each run starts with no record.
    assert "unmatched" not in ok_value(run("answer = 0", namespace))


def test_filter_rows_equality_that_no_cell_meets_selects_the_cells_that_hold_the_text_as_words() -> None:
    from tableqa.ops import filter_rows

    df = pd.DataFrame(
        {
            "City": ["United States, Los Angeles", "Canada, Saskatoon", "Angelesville"],
            "Passengers": [14, 2, 5],
        }
    )
    namespace = {"df": df, "filter_rows": filter_rows}
    out = ok_value(
        run('answer = filter_rows(df, "City", "==", "Los Angeles")["Passengers"].sum()', namespace)
    )
    assert out["value"]["json"]["items"][0]["value"] == 14
    assert "unmatched" not in out
    reading = (
        "filter_rows(df, 'City', '==', 'Los Angeles') matched no row exactly; read as the cells that "
        "hold it as words: 'United States, Los Angeles'"
    )
    assert f"note: {reading}" in out["stderr"]
    assert out["readings"] == [reading]
    # A cell equal to the text wins: no reading as words, no note.
    out = ok_value(run('answer = len(filter_rows(df, "City", "==", "angelesville"))', namespace))
    assert out["value"]["json"] == 1
    assert out["stderr"] == ""
    # Pandas' own comparison is pandas': zero rows, and the record of a condition that matched none.
    out = ok_value(run('answer = (df["City"] == "Los Angeles").sum()', namespace))
    assert out["value"]["json"]["items"][0]["value"] == 0
    assert out["unmatched"][0].startswith("df['City'] == 'Los Angeles' matched no row")


def test_arithmetic_between_selections_whose_row_labels_differ_says_why_every_value_is_nan() -> None:
    from tableqa.runner import program_value, unmatched_notes

    df = pd.DataFrame({"Year": [1990, 2000, 2010], "Points": [5, 9, 12]})
    program = 'a = df[df["Year"] == 2000]["Points"]\nb = df[df["Year"] == 1990]["Points"]\nanswer = a - b'
    out = ok_value(run(program, {"df": df}))
    # pandas' answer is unchanged: two NaN, one for each row label.
    assert out["value"]["repr"].startswith("0   NaN\n1   NaN")
    note = (
        "a - b matched no row: the row labels of a (1) are not those of b (0), and pandas pairs values by "
        "label, so every value is NaN; combine the values themselves: a.iloc[0] - b.iloc[0]"
    )
    assert out["unmatched"] == [note]
    # The code the note gives answers the question.
    fixed = ok_value(run(program.replace("a - b", "a.iloc[0] - b.iloc[0]"), {"df": df}))
    assert fixed["value"]["json"]["items"][0]["value"] == 4
    assert "unmatched" not in fixed
    # Sides of several values each are paired by position; sides written at length are quoted as written.
    both = ok_value(
        run('answer = df.loc[df["Year"] > 1990, "Points"] / df.loc[df["Year"] < 1990, "Points"]', {"df": df})
    )
    assert "unmatched" not in both  # no rows on the right: not a mismatch of labels
    pairs = 'answer = df["Points"].iloc[1:] * 100 / df["Points"].iloc[:1]'
    assert ok_value(run(pairs, {"df": df}))["unmatched"][0].endswith(
        "combine the values themselves: take the one value asked for from each side (.iloc[0], or by its "
        "label) first"
    )
    # The evaluation's wrapper reads the same note through program_value and unmatched_notes.
    namespace: dict[str, Any] = {"df": df}
    from tableqa import trace
    from tableqa.pathloc import bind_readers

    bind_readers(namespace)
    trace.reset_cells()
    assert unmatched_notes(program_value(program, namespace)) == [note]
    # Arithmetic whose labels meet, or with a number, is pandas' own and carries no note; nor does a Series
    # beside a table, which pandas pairs with the table's columns.
    for fine in (
        'answer = (df["Points"] - df["Year"]).sum()',
        'answer = df["Points"] * 2',
        "answer = df.loc[[2]] - df.loc[0]",
    ):
        assert "unmatched" not in ok_value(run(fine, {"df": df}))
    # An error in arithmetic is reported as Python reports it, at the program's line.
    failed = error_of(run('x = "x"\nanswer = df["Year"] - x', {"df": df}))
    assert "subtract" in failed["message"]
    assert failed["traceback"].count("File ") == 1
    assert 'File "<program>", line 2' in failed["traceback"]


def test_a_text_search_that_matched_no_row_says_so_and_answers_as_pandas() -> None:
    df = pd.DataFrame({"Winner": ["Charmaine Sheh", "Moses Chan", None], "Show": ["a", "b", "c"]})
    namespace: dict[str, object] = {"df": df}
    zero = ok_value(run('answer = df[df["Winner"].str.contains("sheh")].shape[0]', namespace))
    assert zero["value"]["json"] == 0
    assert zero["unmatched"] == [
        "df['Winner'].str.contains('sheh') matched no row; cells of 'Winner' that contain it: "
        "'Charmaine Sheh' (select them with df['Winner'].str.contains('sheh', case=False))"
    ]
    # Keywords reach pandas; a search that found a row carries no note.
    found = ok_value(run('answer = df["Winner"].str.contains("sheh", case=False, na=False).sum()', namespace))
    assert found["value"]["json"]["items"][0]["value"] == 1
    assert "unmatched" not in found
    # What is not a column fails as pandas fails.
    message = error_of(run('answer = "abc".str.contains("a")', namespace))["message"]
    assert message.startswith("AttributeError: 'str' object has no attribute 'str'")


def test_a_condition_on_a_name_the_column_does_not_hold_names_the_column_that_does() -> None:
    from tableqa.ops import filter_rows

    trains = pd.DataFrame(
        {
            "Operators": ["Reading", "Baltimore and Ohio", "Central of New Jersey"],
            "Named trains": ["Crusader", "Royal Blue", "Blue Comet"],
            "Year begun": [1937, 1890, 1929],
        }
    )
    namespace = {"trains": trains, "filter_rows": filter_rows}
    program = 'answer = trains[trains["Operators"] == "Royal Blue"]["Year begun"].tolist()'
    empty = ok_value(run(program, namespace))
    assert empty["unmatched"] == [
        "df['Operators'] == 'Royal Blue' matched no row; 'Royal Blue' is a cell of column 'Named trains': "
        "select its row with trains[trains['Named trains'] == 'Royal Blue']"
    ]
    # The code the note gives selects the row meant.
    fixed = 'answer = trains[trains["Named trains"] == "Royal Blue"]["Year begun"].tolist()'
    assert ok_value(run(fixed, namespace))["value"]["json"] == [1890]
    # filter_rows says the same, of the table it was given.
    counted = ok_value(run('answer = len(filter_rows(trains, "Operators", "==", "blue comet"))', namespace))
    assert counted["unmatched"] == [
        "filter_rows(df, 'Operators', '==', 'blue comet') matched no row; 'blue comet' is a cell of column "
        "'Named trains': select its row with df[df['Named trains'] == 'Blue Comet']"
    ]
    # A name that stands nowhere in the tables gets the condition alone.
    assert ok_value(run('answer = (trains["Operators"] == "Zephyr").sum()', namespace))["unmatched"] == [
        "df['Operators'] == 'Zephyr' matched no row"
    ]


def test_a_condition_that_matched_no_row_is_written_as_code_that_selects_the_cells_named() -> None:
    from tableqa.ops import filter_rows

    df = pd.DataFrame({"Province": ["Yukon", "Nunavut"], "Wine": [20, 9], "Place": ["St Louis, MO", "Oslo"]})
    namespace = {"df": df, "filter_rows": filter_rows}
    close = ok_value(run('answer = len(filter_rows(df, "Province", "==", "Yukonn"))', namespace))
    assert close["unmatched"] == [
        "filter_rows(df, 'Province', '==', 'Yukonn') matched no row; the closest cells of 'Province': "
        "'Yukon' (write filter_rows(df, 'Province', '==', 'Yukon'))"
    ]
    compared = ok_value(run('answer = (df["Province"] == "Yukonn").sum()', namespace))
    assert compared["unmatched"][0].endswith("(write df['Province'] == 'Yukon')")
    # A search that ignores case would also find "Encino, CA" for "NC": the search that keeps case is shown.
    towns = pd.DataFrame({"Home Town": ["Kinston, NC", "Encino, CA", "Durham, NC"]})
    counted = ok_value(run('answer = (towns["Home Town"] == "NC").sum()', {"towns": towns}))
    assert counted["unmatched"] == [
        "df['Home Town'] == 'NC' matched no row; cells of 'Home Town' that contain it: 'Kinston, NC', "
        "'Durham, NC' (select them with df['Home Town'].str.contains('NC'))"
    ]
    # A cell that holds the text only once punctuation is set aside gets no str.contains code, which would
    # not find it.
    dotted = ok_value(run('answer = (df["Place"] == "St. Louis").sum()', namespace))
    assert dotted["unmatched"] == [
        "df['Place'] == 'St. Louis' matched no row; cells of 'Place' that contain it: 'St Louis, MO'"
    ]


def test_ordering_text_that_begins_with_numbers_by_its_letters_fails_and_says_how_to_order_them() -> None:
    df = pd.DataFrame(
        {
            "School": ["Eton", "Harrow", "Rugby", "Stowe"],
            "Titles": ["7 (3+1+2+1)", "10 (4+6)", "12", "9 (9)"],
            "Pupils": ["1,204 boys", "987 boys", "850 boys", "2,010 boys"],
        }
    )
    number = 'df["Titles"].str.extract(r"(-?\\d+(?:\\.\\d+)?)")[0].astype(float)'
    seven, by_letters = "'7 (3+1+2+1)'", "letter by letter"
    programs = {
        'answer = df["Titles"].max()': "max() compares it letter by letter, which puts '9 (9)' after '12'",
        'answer = df.loc[df["Titles"].idxmax(), "School"]': "which puts '9 (9)' after '12'",
        'answer = df["Titles"].min()': f"min() compares it {by_letters}, which puts '10 (4+6)' "
        f"before {seven}",
        'answer = df.sort_values("Titles", ascending=False)["School"].iloc[0]': f"puts {seven} before '12'",
        'answer = df["Titles"].sort_values().iloc[-1]': f"sort_values() compares it {by_letters}, "
        f"which puts '12' before {seven}",
    }
    start = "TypeError: column 'Titles' of df holds text that begins with numbers: "
    for program, said in programs.items():
        message = error_of(run(program, {"df": df}))["message"]
        assert message.startswith(start), program
        assert said in message, (program, message)
        # The code the message gives orders the numbers.
        assert number in message.replace("df['Titles']", 'df["Titles"]'), message
    fixed = ok_value(run(f'answer = df.loc[{number}.idxmax(), "School"]', {"df": df}))
    assert fixed["value"]["json"] == "Rugby"
    # Thousands commas are taken out first.
    message = error_of(run('answer = df.sort_values(by=["Pupils"]).School.tolist()', {"df": df}))["message"]
    assert "df['Pupils'].str.replace(',', '').str.extract(" in message
    # Where pandas refuses itself, its error gets the note.
    message = error_of(run('answer = df["Titles"].nlargest(1)', {"df": df}))["message"]
    assert message.startswith("TypeError: Cannot use method 'nlargest'")
    assert "column 'Titles' of df holds text that begins with numbers: order the numbers taken out" in message
    # A cell with no number that the letters put first is refused too.
    dashed = pd.DataFrame({"Goals": ["7 (3)", "10 (4)", "\u2014"]})
    message = error_of(run("answer = df.Goals.max()", {"df": dashed}))["message"]
    assert "which puts '\u2014' after '10 (4)'" in message


def test_ordering_dates_written_as_text_by_their_letters_fails_and_says_how_to_read_the_dates() -> None:
    df = pd.DataFrame(
        {
            "Opponent": ["Wales", "Ireland", "France"],
            "Date": ["6 February 1922", "13 March 1922", "1 April 1923"],
            "Written": ["February 6, 1922", "March 13, 1922", "April 1, 1923"],
        }
    )
    namespace = {"df": df, "pd": pd}
    read = 'pd.to_datetime(df["Date"], format="mixed", errors="coerce")'
    message = error_of(run('answer = df.loc[df["Date"].idxmax(), "Opponent"]', namespace))["message"]
    assert message == (
        "TypeError: column 'Date' of df holds dates written as text: idxmax() compares it letter by letter, "
        "which puts '6 February 1922' after '1 April 1923'; order the dates read from it, e.g. "
        + read.replace('df["Date"]', "df['Date']")
    )
    assert (
        ok_value(run(f'answer = df.loc[{read}.idxmax(), "Opponent"]', namespace))["value"]["json"] == "France"
    )
    message = error_of(run('answer = df.sort_values("Written").Opponent.tolist()', namespace))["message"]
    assert (
        "'Written' of df holds dates written as text: sort_values() compares it letter by letter, which puts "
        in message
    )
    # Places and ranks are no dates (a reader would make up a year for "1st"); a year alone is a number.
    ranks = pd.DataFrame({"Place": ["1st", "2nd", "10th"], "Season": ["1964", "1965*", "1970"]})
    message = error_of(run("answer = df.Place.max()", {"df": ranks}))["message"]
    assert "'Place' of df holds text that begins with numbers: max() compares it letter by letter" in message
    assert "which puts '2nd' after '10th'" in message
    assert ok_value(run("answer = df.Season.max()", {"df": ranks}))["value"]["json"] == "1970"


def test_ordering_that_the_letters_do_not_decide_answers_as_pandas() -> None:
    df = pd.DataFrame(
        {
            "School": ["Eton", "Harrow", "7 Oaks"],
            "Titles": ["1 (1)", "2 (1+1)", "3"],
            "Won": [3, 12, 7],
        }
    )
    namespace = {"df": df}
    answers = {
        # Text whose letters and numbers give the same answer, names, numbers.
        'answer = df["Titles"].max()': "3",
        'answer = df.sort_values("Titles")["School"].tolist()': ["Eton", "Harrow", "7 Oaks"],
        'answer = df["School"].max()': "Harrow",
        'answer = df.sort_values("Won")["School"].iloc[-1]': "Harrow",
        # An order of the program's own.
        'answer = df.sort_values("School", key=lambda s: s.str.len())["School"].iloc[0]': "Eton",
        # Other objects with these methods.
        "answer = max([3, 9, 4])": 9,
        "import numpy as np\nanswer = int(np.argmax([3, 9, 4]))": 1,
    }
    for program, expected in answers.items():
        assert ok_value(run(program, namespace))["value"]["json"] == expected, program
    df["Titles"] = ["9 (9)", "10 (1)", "2"]
    # The letters decide, but the program orders the numbers.
    program = 'answer = int(df["Titles"].str.extract(r"(\\d+)")[0].astype(int).max())'
    assert ok_value(run(program, namespace))["value"]["json"] == 10

import math

import pytest

from tableqa.text import is_blank_cell, label_key, loose_label_key, parse_number


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,234", 1234.0),
        ("(12)", -12.0),
        ("12%", 12.0),
        ("$3.5", 3.5),
        ("-$3.5", -3.5),
        ("$(3.5)", -3.5),
        ("(0.5)%", -0.5),
        ("\u22125", -5.0),
        ("+5", 5.0),
        (" 1 234 ", 1234.0),
        ("1,234.50", 1234.5),
        (".5", 0.5),
        ("1e3", 1000.0),
        ("\u20ac12", 12.0),
        (7, 7.0),
        (2.5, 2.5),
    ],
)
def test_reads_numbers_written_the_way_reports_write_them(text: object, expected: float) -> None:
    assert parse_number(text) == expected


@pytest.mark.parametrize("text", ["\u2014", "-", "", "n/a", "..", "x", " \u2013 "])
def test_missing_marks_read_as_nan(text: str) -> None:
    value = parse_number(text)
    assert value is not None
    assert math.isnan(value)
    assert is_blank_cell(text)


@pytest.mark.parametrize(
    "text", ["Total", "1,2", "1.2.3", "e5", "((5))", "--5", "12 E", "2019-2020", True, None]
)
def test_non_numbers_give_none(text: object) -> None:
    assert parse_number(text) is None


def test_label_keys_ignore_case_spacing_punctuation_and_dashes() -> None:
    assert label_key("  Net   INCOME: ") == label_key("net income")
    assert label_key("Fuel\u2014net") == label_key("fuel - net") == label_key("Fuel-net")
    assert label_key("U.S.") == label_key("US")
    assert label_key("3.5") == "3.5"
    assert label_key("Q1") != label_key("Q2")


def test_loose_keys_drop_footnote_marks_but_keep_meaningful_digits() -> None:
    assert loose_label_key("Passenger revenue (1)") == loose_label_key("passenger revenue")
    assert loose_label_key("Self-employed (a)") == loose_label_key("self employed")
    assert loose_label_key("Revenue1") == loose_label_key("Revenue")
    assert loose_label_key("Total*") == loose_label_key("total")
    assert loose_label_key("Revenue\u00b2") == loose_label_key("revenue")
    assert loose_label_key("Q1") != loose_label_key("Q")
    assert loose_label_key("2019") == "2019"
    assert loose_label_key("COVID19") == "covid19"

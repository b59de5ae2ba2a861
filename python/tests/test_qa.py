import importlib

import pandas as pd
import pytest

import tableqa

qa_module = importlib.import_module("tableqa.qa")


def test_without_a_bridge_qa_raises_a_clear_error() -> None:
    with pytest.raises(tableqa.QABridgeMissing, match="no language model is connected"):
        tableqa.qa("Is Oslo a capital?")


def test_a_plain_question_goes_to_the_bridge_once() -> None:
    asked: list[tuple[str, str | None]] = []

    def bridge(question: str, value: str | None) -> str:
        asked.append((question, value))
        return " yes "

    tableqa.set_qa_bridge(bridge)
    assert tableqa.qa("Is Oslo a capital?") == "yes"
    assert asked == [("Is Oslo a capital?", None)]
    assert tableqa.qa_calls() == 1


def test_a_list_or_series_is_mapped_and_repeats_are_not_asked_twice() -> None:
    asked: list[str | None] = []

    def bridge(question: str, value: str | None) -> str:
        asked.append(value)
        return {"Oslo": "Norway", "Bergen": "Norway"}.get(value or "", "Sweden")

    tableqa.set_qa_bridge(bridge)
    cities = pd.Series(["Oslo", "Lund", "Oslo", "Bergen"])
    assert tableqa.qa("Country?", cities) == ["Norway", "Sweden", "Norway", "Norway"]
    assert asked == ["Oslo", "Lund", "Bergen"]
    assert tableqa.qa_calls() == 3
    assert tableqa.qa("Country?", ("Oslo",)) == ["Norway"]
    assert tableqa.qa_calls() == 3


def test_numbers_are_sent_as_their_text() -> None:
    tableqa.set_qa_bridge(lambda q, v: f"got {v}")
    assert tableqa.qa("What?", 2019.0) == "got 2019"
    assert tableqa.qa("What?", [1.5]) == ["got 1.5"]


def test_the_call_cap_stops_a_program_before_it_asks_too_much() -> None:
    tableqa.set_qa_bridge(lambda q, v: "x")
    tableqa.set_qa_limit(3)
    tableqa.qa("q", ["a", "b"])
    with pytest.raises(tableqa.QALimitExceeded, match="only 1 of this program's 3 remain"):
        tableqa.qa("q", ["c", "d"])
    assert tableqa.qa_calls() == 2
    tableqa.qa("q", "c")
    with pytest.raises(tableqa.QALimitExceeded):
        tableqa.qa("another")


def test_the_default_cap_is_twenty_and_resets_per_program() -> None:
    tableqa.set_qa_bridge(lambda q, v: "x")
    assert qa_module.qa_limit() == 20
    tableqa.qa("q", [str(i) for i in range(20)])
    with pytest.raises(tableqa.QALimitExceeded):
        tableqa.qa("q", "one more")
    result = tableqa.run("qa('q', 'one more')", tableqa.api_namespace())
    assert result["ok"], result
    assert result["value"]["value"]["json"] == "x"


def test_limit_must_not_be_negative() -> None:
    with pytest.raises(ValueError, match="negative"):
        tableqa.set_qa_limit(-1)


def test_question_must_be_text() -> None:
    tableqa.set_qa_bridge(lambda q, v: "x")
    with pytest.raises(ValueError, match="non-empty string"):
        tableqa.qa("  ")


def test_bridge_errors_reach_the_program() -> None:
    def broken(question: str, value: str | None) -> str:
        raise ConnectionError("model endpoint unreachable")

    tableqa.set_qa_bridge(broken)
    result = tableqa.run("qa('Is it?')", tableqa.api_namespace())
    assert not result["ok"]
    assert result["error"]["message"] == "ConnectionError: model endpoint unreachable"

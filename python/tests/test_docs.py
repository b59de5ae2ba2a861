"""Docstring examples are tests, and the API documentation for the prompt is built from them."""

import doctest
import importlib
import inspect
import pkgutil

import pytest

import tableqa
from tableqa.apidoc import API_FUNCTIONS, api_doc, api_entry

MODULES = sorted(m.name for m in pkgutil.iter_modules(tableqa.__path__, "tableqa."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_pass(name: str) -> None:
    module = importlib.import_module(name)
    flags = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
    result = doctest.testmod(module, optionflags=flags, verbose=False)
    assert result.failed == 0


@pytest.mark.parametrize("fn", API_FUNCTIONS, ids=lambda f: f.__name__)
def test_every_api_function_is_documented_with_parameters_and_an_example(fn: object) -> None:
    entry = api_entry(fn)  # type: ignore[arg-type]
    lines = entry.splitlines()
    assert lines[0].startswith(f"{fn.__name__}(")  # type: ignore[attr-defined]
    assert lines[1].strip().endswith((".", ")"))
    assert "  Parameters:" in lines
    assert any(line.startswith("  Returns: ") for line in lines)
    example = entry[entry.index("  Example:") :]
    assert f"{fn.__name__}(" in example  # type: ignore[attr-defined]


def test_documented_parameters_match_the_signatures() -> None:
    for fn in API_FUNCTIONS:
        # A *labels tolerance is not documented to the model (the docstring's Notes say how it reads).
        params = [
            name
            for name, p in inspect.signature(fn).parameters.items()
            if p.kind is not inspect.Parameter.VAR_POSITIONAL
        ]
        entry = api_entry(fn)
        for p in params:
            assert f"    {p} (" in entry or f", {p} (" in entry or f"    {p}, " in entry, (fn.__name__, p)


def test_api_doc_lists_every_function_once() -> None:
    doc = api_doc()
    for fn in API_FUNCTIONS:
        assert sum(line.startswith(f"{fn.__name__}(") for line in doc.splitlines()) == 1
    assert "``" not in doc

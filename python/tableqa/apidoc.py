"""The API documentation shown to the model, generated from the functions' own docstrings.

One source of truth: the numpydoc docstrings of :mod:`tableqa.ops`, :mod:`tableqa.qa`,
:mod:`tableqa.sql` and :mod:`tableqa.chart` give each function's signature, summary, parameters,
return value and one example.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from typing import Any

from . import chart, ops, qa, sql

__all__ = ["API_FUNCTIONS", "api_doc", "api_entry", "api_namespace", "call_note"]

API_FUNCTIONS: tuple[Callable[..., Any], ...] = (
    ops.lookup,
    ops.select,
    ops.aggregate,
    ops.diff,
    ops.ratio,
    ops.pct_change,
    ops.row,
    ops.column,
    ops.filter_rows,
    ops.count,
    ops.value_of,
    ops.next_value,
    ops.compare,
    ops.top_k,
    ops.to_number,
    qa.qa,
    sql.sqldf,
    chart.chart,
)
"""The functions a program can call, in the order the documentation lists them."""


def api_namespace() -> dict[str, Any]:
    """The API functions by name, plus the exceptions they raise, for a program's globals.

    Examples
    --------
    >>> sorted(api_namespace())[:4]
    ['AmbiguousHeader', 'HeaderNotFound', 'aggregate', 'chart']
    """
    names: dict[str, Any] = {fn.__name__: fn for fn in API_FUNCTIONS}
    names["HeaderNotFound"] = ops.HeaderNotFound
    names["AmbiguousHeader"] = ops.AmbiguousHeader
    return names


def _signature(fn: Callable[..., Any]) -> str:
    parts = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            # Extra labels are a tolerance for calls written with a path spread out (the docstring's
            # Notes say how they are read); the documented form is the one a program should write.
            continue
        if p.default is inspect.Parameter.empty:
            parts.append(p.name)
        else:
            parts.append(f"{p.name}={p.default!r}")
    return f"{fn.__name__}({', '.join(parts)})"


# Python's own messages for a call whose arguments do not fit the function's parameters.
_BAD_CALL = re.compile(r"^(\w+)\(\) (takes|missing|got)\b")


def call_note(exc: BaseException) -> str | None:
    """How an API function is called, for the TypeError of a call whose arguments do not fit it.

    Examples
    --------
    >>> try:
    ...     ops.ratio(None, "a")
    ... except TypeError as exc:
    ...     print(call_note(exc))
    write it as ratio(df, a, b, axis='columns', at=None), e.g. ratio(df, "men", "women")
    >>> call_note(TypeError("len() takes exactly one argument (2 given)")) is None
    True
    """
    if not isinstance(exc, TypeError):
        return None
    found = _BAD_CALL.match(str(exc))
    fn = next((f for f in API_FUNCTIONS if found and f.__name__ == found.group(1)), None)
    if fn is None:
        return None
    example = _example(fn.__name__, _sections(fn.__doc__ or "").get("Examples", []))
    call = example[0].removeprefix(">>>").strip() if example else ""
    return f"write it as {_signature(fn)}" + (f", e.g. {call}" if call else "")


def _sections(doc: str) -> dict[str, list[str]]:
    lines = inspect.cleandoc(doc).splitlines()
    sections: dict[str, list[str]] = {"": []}
    current = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if i + 1 < len(lines) and re.fullmatch(r"-{3,}", lines[i + 1].strip()) and line.strip():
            current = line.strip()
            sections[current] = []
            i += 2
            continue
        sections[current].append(line)
        i += 1
    return sections


def _first_sentence(lines: Sequence[str]) -> str:
    text = " ".join(x.strip() for x in lines if x.strip()).replace("``", "")
    text = text.replace("e.g.", "e\x00g\x00").replace("i.e.", "i\x00e\x00")
    m = re.match(r"(.+?\.)(\s|$)", text)
    return (m.group(1) if m else text).replace("\x00", ".")


def _params(lines: Sequence[str]) -> list[str]:
    out: list[str] = []
    name_line: str | None = None
    desc: list[str] = []
    for line in [*lines, "END : END"]:
        if line and not line.startswith(" "):
            if name_line is not None:
                name, _, kind = name_line.partition(" : ")
                entry = f"  {name.strip()} ({kind.strip()})" if kind else f"  {name.strip()}"
                detail = " ".join(x.strip() for x in desc).replace("``", "")
                out.append(f"{entry}: {detail}" if detail else entry)
            name_line, desc = line, []
        elif line.strip():
            desc.append(line)
    return out


def _example(fn_name: str, lines: Sequence[str]) -> list[str]:
    """The first example line that calls the function, with its continuation and output lines."""
    out: list[str] = []
    taking = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith(">>>"):
            if taking:
                break
            if re.search(rf"\b{re.escape(fn_name)}\(", stripped):
                taking = True
                out.append(stripped)
        elif (taking and stripped.startswith("...")) or (taking and stripped):
            out.append(stripped)
        elif taking:
            break
    return out


def api_entry(fn: Callable[..., Any]) -> str:
    """Documentation of one function: signature, summary, parameters, returns and one example.

    Examples
    --------
    >>> print(api_entry(ops.ratio).splitlines()[0])
    ratio(df, a, b, axis='columns', at=None)
    """
    sections = _sections(fn.__doc__ or "")
    summary = _first_sentence(sections.get("", []))
    lines = [_signature(fn), f"    {summary}"]
    params = _params(sections.get("Parameters", []))
    if params:
        lines.append("  Parameters:")
        lines += ["  " + p for p in params]
    returns = [x for x in sections.get("Returns", []) if x.strip()]
    if returns:
        kind = returns[0].strip()
        detail = _first_sentence(returns[1:])
        lines.append(f"  Returns: {kind}" + (f" — {detail}" if detail else ""))
    example = _example(fn.__name__, sections.get("Examples", []))
    if example:
        lines.append("  Example:")
        lines += ["    " + x for x in example]
    return "\n".join(lines)


def api_doc(functions: Sequence[Callable[..., Any]] = API_FUNCTIONS) -> str:
    """The API documentation for the prompt, one entry per function.

    Parameters
    ----------
    functions : sequence of callables, optional
        Which functions to document; all of :data:`API_FUNCTIONS` by default.

    Returns
    -------
    str

    Examples
    --------
    >>> doc = api_doc()
    >>> "lookup(df, row, col)" in doc and "sqldf(query, env=None)" in doc
    True
    """
    header = (
        'Header paths name a node of a header tree: a label ("men"), a tuple of labels from the '
        'top level down (("2016", "men")), a partial tuple, or "2016 | men". Labels match '
        "ignoring case, spacing, punctuation and footnote marks."
    )
    return header + "\n\n" + "\n\n".join(api_entry(fn) for fn in functions) + "\n"

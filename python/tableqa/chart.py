"""Charts as answers: :func:`chart` describes a chart as a Vega-Lite specification, which is plain data.

Nothing here draws: the app checks the specification and renders it outside the sandbox, so a program
can only describe a chart (its data inline, its marks and encodings), never run code or load anything.
Works without pandas: data may be a list of row dicts or a dict of columns.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from .answer import answer_item
from .headers import match_header

__all__ = ["KINDS", "MAX_POINTS", "Chart", "chart"]

KINDS = ("line", "bar", "scatter")
MAX_POINTS = 5_000
"""Most data rows a chart carries; aggregate larger data before charting it."""

_MARKS = {"line": "line", "bar": "bar", "scatter": "point"}
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$")
Scalar = str | int | float | bool | None


class Chart:
    """A chart a program returns as its answer; ``spec`` is the Vega-Lite specification.

    Examples
    --------
    >>> c = chart([{"year": 2020, "sales": 3}, {"year": 2021, "sales": 5}], x="year", y="sales")
    >>> c
    <Chart: line of sales by year, 2 points>
    """

    __slots__ = ("spec", "summary")

    def __init__(self, spec: dict[str, Any], summary: str) -> None:
        self.spec = spec
        self.summary = summary

    def __repr__(self) -> str:
        return f"<Chart: {self.summary}>"

    def to_json(self) -> dict[str, Any]:
        """The chart as the runner reports it: ``{"chart": spec, "summary": text}``."""
        return {"chart": self.spec, "summary": self.summary}


def _scalar(value: object) -> Scalar:
    item = answer_item(value)
    if item is None:
        return None
    out: Scalar = item["value"]
    return out


def _label(name: object) -> str:
    if isinstance(name, tuple):
        parts = [str(p) for p in name if p is not None and str(p) != ""]
        return " | ".join(parts) if parts else ""
    return "" if name is None else str(name)


def _records(data: object) -> tuple[list[str], list[dict[str, Scalar]]]:
    """Column names and rows of the data, whatever form it came in."""
    name = type(data).__name__
    module = type(data).__module__.split(".")[0]
    if module == "pandas" and name == "Series":
        series: Any = data
        frame = series.to_frame(name=_label(series.name) or "value")
        return _records(frame)
    if module == "pandas" and name == "DataFrame":
        frame = data
        index: Any = frame.index  # type: ignore[attr-defined]
        plain_index = type(index).__name__ == "RangeIndex" and all(n is None for n in index.names)
        if not plain_index:
            names = [
                _label(n) or ("index" if index.nlevels == 1 else f"level {k + 1}")
                for k, n in enumerate(index.names)
            ]
            frame = frame.copy()  # type: ignore[attr-defined]
            frame.index = frame.index.set_names(names)
            frame = frame.reset_index()
        columns = [_label(c) or f"column {k + 1}" for k, c in enumerate(frame.columns)]
        rows = [
            {col: _scalar(v) for col, v in zip(columns, row, strict=True)}
            for row in frame.itertuples(index=False, name=None)
        ]
        return columns, rows
    if isinstance(data, Mapping):
        values = list(data.values())
        if values and all(isinstance(v, Sequence) and not isinstance(v, (str, bytes)) for v in values):
            columns = [_label(k) for k in data]
            lengths = {len(v) for v in values}
            if len(lengths) != 1:
                raise ValueError("chart(): the columns of a dict of lists must all have the same length")
            return columns, [
                {col: _scalar(v[i]) for col, v in zip(columns, values, strict=True)}
                for i in range(lengths.pop())
            ]
        return ["label", "value"], [{"label": _label(k), "value": _scalar(v)} for k, v in data.items()]
    if (
        isinstance(data, Sequence)
        and not isinstance(data, (str, bytes))
        and all(isinstance(r, Mapping) for r in data)
    ):
        columns = []
        for r in data:
            for k in r:
                if _label(k) not in columns:
                    columns.append(_label(k))
        return columns, [{_label(k): _scalar(v) for k, v in r.items()} for r in data]
    raise TypeError(
        "chart(): data must be a DataFrame, a Series, a dict or a list of row dicts, "
        f"not {type(data).__name__}"
    )


def _field_type(values: list[Scalar]) -> str:
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return "quantitative"
    if present and all(isinstance(v, str) and _DATE.match(v) for v in present):
        return "temporal"
    return "nominal"


def _escape(field: str) -> str:
    # Vega-Lite reads dots and brackets in a field name as nested access.
    return re.sub(r"([.\[\]\\])", r"\\\1", field)


def _column(columns: list[str], wanted: object, role: str) -> str:
    name = _label(wanted)
    if name in columns:
        return name
    folded = {c.casefold().strip(): c for c in columns}
    if name.casefold().strip() in folded:
        return folded[name.casefold().strip()]
    # A column of a table with hierarchical headers is named by its path ("2024 | Revenue | H1"); a label
    # or partial path ("H1", ("2024", "H1")) that names exactly one of them is that column, as in lookup().
    paths = [tuple(p.strip() for p in c.split(" | ")) for c in columns]
    found = match_header(paths, wanted if isinstance(wanted, tuple) else name)
    best = [m for m in found if m.kind == min(f.kind for f in found)]
    if len(best) == 1:
        return columns[best[0].position]
    if len(best) > 1:
        shown = [columns[m.position] for m in best]
        raise KeyError(f"chart(): {role}={wanted!r} names {len(best)} columns, {shown}; give the whole name")
    raise KeyError(f"chart(): {role}={wanted!r} is not a column of the data; the columns are {columns}")


def _long_form(
    columns: list[str], rows: list[dict[str, Scalar]], x: str, ys: list[str], name: str
) -> tuple[list[dict[str, Scalar]], str, str]:
    """Several y columns as one: a row per (row, column), the column named in a field of its own."""
    series = name if name not in columns else f"{name} (series)"
    value = "value" if "value" not in columns else "value (series)"
    out = [{x: r.get(x), series: y, value: r.get(y)} for r in rows for y in ys]
    return out, series, value


def _columns_name(data: object) -> str:
    """The name of a DataFrame's column axis (``Region`` after a pivot), or "series"."""
    if type(data).__name__ == "DataFrame":
        names = getattr(getattr(data, "columns", None), "names", [None])
        if len(names) == 1 and names[0] is not None and _label(names[0]) != "":
            return _label(names[0])
    return "series"


def _x_type(values: list[Scalar], kind: str) -> str:
    found = _field_type(values)
    if found != "quantitative" or kind == "scatter":
        return found
    # Whole numbers on the x axis of a line or bar chart are steps (years, ranks), not a scale.
    present = [v for v in values if v is not None]
    whole = all(isinstance(v, int) or (isinstance(v, float) and v.is_integer()) for v in present)
    return "ordinal" if whole and len(set(present)) <= 60 else found


def chart(
    data: object,
    kind: Literal["line", "bar", "scatter"] = "line",
    x: object = None,
    y: object = None,
    color: object = None,
    title: str | None = None,
) -> Chart:
    """Return a chart of ``data`` as the answer, for questions about change over time or comparisons.

    The chart is a Vega-Lite specification with the data inline; the app draws it beside the program.
    Assign it to ``answer`` like any other answer.

    Parameters
    ----------
    data : DataFrame, Series, dict or list of dict
        The values to draw. A DataFrame's named index becomes a column; a Series gives its index and
        its values; a dict maps labels to values (or column names to lists).
    kind : {"line", "bar", "scatter"}, default "line"
        Line for change over an ordered x (years, dates), bar for comparing categories, scatter for
        two measures.
    x : str, optional
        Column on the x axis; the first column when omitted.
    y : str or list of str, optional
        Column(s) on the y axis; every other numeric column when omitted. Several columns are drawn as
        one series each.
    color : str, optional
        Column whose values split the data into coloured series (a line or a bar per group).
    title : str, optional
        Title above the chart.

    Returns
    -------
    Chart
        The chart; its ``spec`` is the Vega-Lite specification.

    Examples
    --------
    >>> sales = [{"Year": 2010, "Region": "North", "Sales": 12},
    ...          {"Year": 2020, "Region": "North", "Sales": 18}]
    >>> chart(sales, kind="line", x="Year", y="Sales", color="Region")
    <Chart: line of Sales by Year, coloured by Region, 2 points>
    """
    if kind not in KINDS:
        raise ValueError(f"chart(): kind must be one of {', '.join(KINDS)}, not {kind!r}")
    columns, rows = _records(data)
    if not columns:
        raise ValueError("chart(): the data has no columns")
    x_name = _column(columns, x, "x") if x is not None else columns[0]
    color_name = _column(columns, color, "color") if color is not None else None
    if y is None:
        taken = {x_name, color_name}
        ys = [
            c for c in columns if c not in taken and _field_type([r.get(c) for r in rows]) == "quantitative"
        ]
        if not ys:
            raise ValueError(f"chart(): no numeric column to draw on the y axis; the columns are {columns}")
    elif isinstance(y, list):
        ys = [_column(columns, c, "y") for c in y]
    else:
        ys = [_column(columns, y, "y")]
    y_name = ys[0]
    if len(ys) > 1:
        if color_name is not None:
            raise ValueError("chart(): give either several y columns or a color column, not both")
        rows, color_name, y_name = _long_form(columns, rows, x_name, ys, _columns_name(data))
    if len(rows) > MAX_POINTS:
        raise ValueError(
            f"chart(): {len(rows):,} points; a chart holds at most {MAX_POINTS:,}. "
            "Aggregate or filter the data first."
        )
    used = [c for c in (x_name, y_name, color_name) if c is not None]
    values = [{c: r.get(c) for c in used} for r in rows]
    x_type = _x_type([r.get(x_name) for r in values], kind)
    encoding: dict[str, Any] = {
        "x": {"field": _escape(x_name), "type": x_type, "title": x_name},
        "y": {
            "field": _escape(y_name),
            "type": _field_type([r.get(y_name) for r in values]),
            "title": y_name,
        },
    }
    if x_type == "nominal":
        encoding["x"]["sort"] = None  # the data's own order: a ranking stays ranked
    if color_name is not None:
        encoding["color"] = {"field": _escape(color_name), "type": "nominal", "title": color_name}
        if kind == "bar":
            encoding["xOffset"] = {"field": _escape(color_name), "type": "nominal"}
    mark: dict[str, Any] = {"type": _MARKS[kind], "tooltip": True}
    if kind == "line":
        mark["point"] = True
    if kind == "scatter":
        mark["filled"] = True
    spec: dict[str, Any] = {"data": {"values": values}, "mark": mark, "encoding": encoding}
    if title:
        spec["title"] = str(title)[:200]
    shown = f"{kind} of {y_name if len(ys) == 1 else ', '.join(ys)} by {x_name}"
    if color_name is not None and len(ys) == 1:
        shown += f", coloured by {color_name}"
    return Chart(spec, f"{shown}, {len(values):,} points")

"""Tolerant matching of header paths against the labels of one axis (no pandas needed).

A *header path* names a node of a header tree: a single label (``"men"``), a tuple of labels from
the root down (``("2016", "men")``), a partial tuple that skips levels (``("2016", "total")`` for
``("2016", "all", "total")``), or a flat name with levels joined by ``" | "``. Labels are compared
ignoring case, spacing, punctuation and Unicode dashes; footnote marks such as ``(a)``, ``1`` or
``*`` are ignored when nothing matches without doing so, and after that a trailing remark in brackets
(``Net income (loss)``).

A label can name several headers equally well: the same label under different parents (``"total"``
under ``"men"`` and under ``"women"``). Of those, the one whose other labels the question being answered
names (``"... of women ..."``), when exactly one is, is read (:func:`named_by_question`), as a reader of
the question would; otherwise the label stays ambiguous.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from . import trace
from .rows import LEVEL_SEP
from .text import label_key, loose_label_key

__all__ = [
    "AmbiguousHeader",
    "HeaderMatch",
    "HeaderNotFound",
    "Path",
    "as_path",
    "axis_number",
    "axis_word",
    "close_labels",
    "leaf_label",
    "match_header",
    "named_by_question",
    "resolve_many",
    "resolve_one",
    "says",
]

Path = str | int | float | tuple[object, ...] | list[object]

EXACT, NODE, PREFIX, PARTIAL = 0, 1, 2, 3


class HeaderNotFound(LookupError):
    """No header on the axis matches the path. The message lists close matches; ``path`` and ``axis`` (0
    rows, 1 columns) say what was looked for, where known."""

    path: tuple[object, ...] = ()
    axis: int | None = None

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "header not found"


class AmbiguousHeader(LookupError):
    """The path matches several headers where one was needed. The message lists them."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "ambiguous header"


@dataclass(frozen=True)
class HeaderMatch:
    """One header that matches a path: its position on the axis and how well it matches."""

    position: int
    key: Hashable
    kind: int  # EXACT, NODE, PREFIX or PARTIAL
    loose: bool


def axis_number(axis: object) -> int:
    """0 for rows, 1 for columns; accepts 0/1, "rows"/"index"/"row", "columns"/"cols"/"column".

    Examples
    --------
    >>> axis_number("rows"), axis_number("columns"), axis_number(1)
    (0, 1, 1)
    """
    if axis in (0, "rows", "row", "index"):
        return 0
    if axis in (1, "columns", "column", "cols", "col"):
        return 1
    raise ValueError(f"axis must be 'rows' (0) or 'columns' (1), not {axis!r}")


def axis_word(axis: int) -> str:
    """ "row" or "column", for messages."""
    return "row" if axis == 0 else "column"


def _label_text(x: object) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return "" if x is None else str(x)


def as_path(path: Path) -> tuple[str, ...]:
    """Normalise a header path to a tuple of non-blank label texts.

    Examples
    --------
    >>> as_path("2016 | men"), as_path(("2016", "", "men")), as_path(2016)
    (('2016', 'men'), ('2016', 'men'), ('2016',))
    """
    if isinstance(path, (tuple, list)):
        parts = [_label_text(x).strip() for x in path]
    else:
        parts = (
            [p.strip() for p in _label_text(path).split(LEVEL_SEP.strip())]
            if LEVEL_SEP.strip() in _label_text(path)
            else [_label_text(path).strip()]
        )
    return tuple(p for p in parts if p)


def _levels(key: Hashable) -> tuple[str, ...]:
    if isinstance(key, tuple):
        return tuple(t for t in (_label_text(x).strip() for x in key) if t)
    text = _label_text(key).strip()
    return (text,) if text else ()


def leaf_label(key: Hashable) -> Hashable:
    """The deepest non-blank level of a header key (the key itself for plain labels).

    Examples
    --------
    >>> leaf_label(("2016", "men", "")), leaf_label("Total")
    ('men', 'Total')
    """
    if isinstance(key, tuple):
        levels = [x for x in key if _label_text(x).strip()]
        return levels[-1] if levels else ""
    return key


def _subsequence(query: Sequence[str], levels: Sequence[str]) -> bool:
    it = iter(levels)
    return all(any(q == lv for lv in it) for q in query)


def _classify(query: tuple[str, ...], levels: tuple[str, ...]) -> int | None:
    if not query or not levels:
        return None
    if query == levels:
        return EXACT
    if query[-1] == levels[-1] and _subsequence(query[:-1], levels[:-1]):
        return NODE
    if len(query) < len(levels) and levels[: len(query)] == query:
        return PREFIX
    if _subsequence(query, levels):
        return PARTIAL
    return None


def match_header(keys: Sequence[Hashable], path: Path) -> list[HeaderMatch]:
    """Every header key that matches ``path``, strict matches first, loose ones only if none.

    Parameters
    ----------
    keys : sequence
        The axis labels (tuples for a MultiIndex).
    path : str, int, tuple or list
        The header path.

    Returns
    -------
    list of HeaderMatch
        In axis order; empty when nothing matches.

    Examples
    --------
    >>> keys = [("Total", ""), ("Total", "Men"), ("Total", "Women"), ("Full-time", "Men")]
    >>> [(m.position, m.kind) for m in match_header(keys, "men")]
    [(1, 1), (3, 1)]
    >>> [m.position for m in match_header(keys, "TOTAL")]
    [0, 1, 2]
    """
    query = as_path(path)
    if not query:
        return []
    level_sets = [_levels(k) for k in keys]
    funcs: list[tuple[bool, Callable[[object], str]]] = [
        (False, label_key),
        (True, loose_label_key),
        (True, _loosest_key),
    ]
    for loose, fn in funcs:
        q = tuple(fn(x) for x in query)
        found: list[HeaderMatch] = []
        for pos, (key, levels) in enumerate(zip(keys, level_sets, strict=True)):
            kind = _classify(q, tuple(fn(x) for x in levels))
            if kind is not None:
                found.append(HeaderMatch(pos, key, kind, loose))
        if found:
            return found
    return []


def _words(text: object) -> str:
    """Lower-case words of a text, joined by single spaces (punctuation and dashes dropped)."""
    return " ".join(re.findall(r"[^\W_]+", _label_text(text).lower()))


def says(text: str, label: object) -> bool:
    """Whether ``text`` holds the words of ``label`` as whole words, in order (case and punctuation ignored).

    Examples
    --------
    >>> says("Adults under supervision, by jurisdiction, 2013/2014", "2013/2014")
    True
    >>> says("How many women were there?", "men")
    False
    """
    words = _words(label)
    return bool(words) and f" {words} " in f" {_words(text)} "


def named_by_question(matches: Sequence[HeaderMatch], question: str) -> HeaderMatch | None:
    """Of several headers one label names equally well, the one whose own labels the question names.

    A header's own labels are those of its path that the others' paths lack (``"women"`` in
    ``("women", "total")`` beside ``("men", "total")``); the question names one when it holds its words as
    whole words. None when no header, or more than one, is named so (or there is no question).

    Examples
    --------
    >>> found = match_header([("black workers", "total"), ("other workers", "total")], "total")
    >>> named_by_question(found, "What percent of black workers were employed in transport?").key
    ('black workers', 'total')
    >>> named_by_question(found, "How many workers were there in total?") is None
    True
    >>> named_by_question(found, "Black workers against other workers?") is None
    True
    >>> found = match_header([("men", "all"), ("women", "all")], "all")
    >>> named_by_question(found, "how many women were there in all?").key
    ('women', 'all')
    """
    said = f" {_words(question)} "
    if len(matches) < 2 or not said.strip():
        return None
    paths = [[_words(x) for x in _levels(m.key)] for m in matches]
    shared = set.intersection(*(set(p) for p in paths))
    named = [
        m
        for m, path in zip(matches, paths, strict=True)
        if any(w and w not in shared and f" {w} " in said for w in path)
    ]
    return named[0] if len(named) == 1 else None


def _loosest_key(label: object) -> str:
    """Also ignore a trailing remark in brackets, e.g. "Net income (loss)" for "net income"."""
    text = _label_text(label)
    stripped = re.sub(r"\s*[(\[][^()\[\]]*[)\]]\s*$", "", text)
    return loose_label_key(stripped if stripped.strip() else text)


def _show(key: Hashable) -> str:
    return repr(key)


def close_labels(keys: Sequence[Hashable], label: object, n: int = 5) -> list[str]:
    """Header labels (of any level of ``keys``) that look like ``label``: similar text, or holding it.

    Examples
    --------
    >>> close_labels([("Total", "Revenue"), ("Total", "Net revenues (a)")], "revenues")
    ['Revenue', 'Net revenues (a)']
    """
    labels: dict[str, str] = {}
    for k in keys:
        for lv in _levels(k):
            labels.setdefault(label_key(lv), lv)
    wanted = label_key(label)
    close = difflib.get_close_matches(wanted, list(labels), n=n, cutoff=0.6)
    close += [k for k in labels if wanted and wanted in k and k not in close][: n - len(close)]
    return [labels[c] for c in close]


def _not_found(keys: Sequence[Hashable], path: Path, axis: int) -> HeaderNotFound:
    query = as_path(path)
    close = close_labels(keys, query[-1]) if query else []
    word = axis_word(axis)
    msg = f"No {word} header matches {path!r}."
    if close:
        msg += " Close matches: " + ", ".join(repr(c) for c in close) + "."
    sample = ", ".join(_show(k) for k in list(dict.fromkeys(keys))[:8])
    msg += f" The {word} headers are: {sample}{', ...' if len(keys) > 8 else ''}"
    error = HeaderNotFound(msg)
    error.path, error.axis = tuple(query), axis
    return error


def resolve_many(keys: Sequence[Hashable], path: Path | None, axis: int) -> list[HeaderMatch]:
    """Positions of every header under ``path`` (the whole axis for None); raise if none.

    Examples
    --------
    >>> [m.position for m in resolve_many(["a", "b"], None, 1)]
    [0, 1]
    >>> resolve_many(["Revenue", "Costs"], "Revenues", 0)
    Traceback (most recent call last):
    ...
    tableqa.headers.HeaderNotFound: No row header matches 'Revenues'. Close matches: 'Revenue'. ...
    """
    if path is None:
        return [HeaderMatch(i, k, EXACT, False) for i, k in enumerate(keys)]
    found = match_header(keys, path)
    if not found:
        raise _not_found(keys, path, axis)
    return found


def resolve_one(
    keys: Sequence[Hashable], path: Path | None, axis: int, *, by_question: bool = True
) -> HeaderMatch:
    """The single header that ``path`` names; raise :class:`AmbiguousHeader` when it is not unique.

    An exact match beats a match that names a node by its last level, which beats a prefix or
    partial match. Among several equally good ones, the one the running program's question names
    (:func:`named_by_question`; not with ``by_question=False``). With None, the axis must have exactly
    one header.

    Examples
    --------
    >>> keys = [("Total", ""), ("Total", "Men"), ("Full-time", "Men")]
    >>> resolve_one(keys, "total", 0).key
    ('Total', '')
    >>> resolve_one(keys, ("full time", "men"), 0).position
    2
    >>> resolve_one(keys, "men", 0)
    Traceback (most recent call last):
    ...
    tableqa.headers.AmbiguousHeader: Row header 'men' matches 2 rows: ('Total', 'Men'), ...
    """
    if path is None:
        if len(keys) == 1:
            return HeaderMatch(0, keys[0], EXACT, False)
        raise AmbiguousHeader(
            f"Give a {axis_word(axis)} header: the table has {len(keys)} {axis_word(axis)}s."
        )
    found = resolve_many(keys, path, axis)
    best = min(m.kind for m in found)
    top = [m for m in found if m.kind == best]
    if len(top) == 1:
        return top[0]
    word = axis_word(axis)
    chosen = named_by_question(top, trace.question()) if by_question else None
    if chosen is not None:
        trace.record_reading(
            f"{word} header {path!r} names {len(top)} {word}s; read as {_show(chosen.key)}, the one the "
            "question names"
        )
        return chosen
    shown = ", ".join(_show(m.key) for m in top[:6]) + (", ..." if len(top) > 6 else "")
    raise AmbiguousHeader(
        f"{word.capitalize()} header {path!r} matches {len(top)} {word}s: {shown}. "
        f"Give a longer path, e.g. {_show(top[0].key)}."
    )

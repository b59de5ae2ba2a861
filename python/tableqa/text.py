"""Text helpers shared by every module: number parsing and tolerant label keys.

Nothing here imports pandas or numpy, so it runs in a bare Pyodide.
"""

from __future__ import annotations

import math
import re
import unicodedata

__all__ = ["is_blank_cell", "label_key", "loose_label_key", "parse_number"]

_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_DASH_TABLE = str.maketrans(dict.fromkeys(_DASHES, "-"))
_QUOTES_TABLE = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u00b4": "'", "`": "'", "\u201c": '"', "\u201d": '"'}
)

# Cells that mean "no value" in published tables: dashes, dots, n/a, suppression marks.
_MISSING = {
    "",
    "-",
    "--",
    "---",
    ".",
    "..",
    "...",
    "n/a",
    "na",
    "n.a.",
    "nan",
    "none",
    "null",
    "x",
    "f",
    "*",
    "**",
    "\u2026",
}

_NUMBER_RE = re.compile(r"^(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$")
_CURRENCY = "$\u20ac\u00a3\u00a5"


# How a note takes the first number out of a column of cell text (the runtime's notes, in ops, order, runner).
EXTRACT_NUMBER = r'.str.extract(r"(-?\d+(?:\.\d+)?)")[0].astype(float)'


def is_blank_cell(text: str) -> bool:
    """Tell whether a cell's text stands for a missing value.

    Parameters
    ----------
    text : str
        Raw cell text.

    Returns
    -------
    bool
        True for empty cells, dashes (any Unicode dash), dots, "n/a" and similar marks.

    Examples
    --------
    >>> is_blank_cell("\u2014"), is_blank_cell(" n/a "), is_blank_cell("0")
    (True, True, False)
    """
    t = text.strip().translate(_DASH_TABLE).lower()
    return t in _MISSING


def parse_number(text: object) -> float | None:
    """Read a number the way it is written in reports.

    Accepts thousands separators (``1,234``), accounting negatives (``(12)`` is -12), a trailing
    percent sign (``12%`` is 12, not 0.12), currency signs (``$3.5``), Unicode minus signs and
    surrounding spaces. Numbers pass through unchanged.

    Parameters
    ----------
    text : object
        A string, int or float. Anything else gives None.

    Returns
    -------
    float or None
        The value, NaN for a missing-value mark such as ``—``, or None when the text is not a number.

    Examples
    --------
    >>> parse_number("1,234"), parse_number("(12)"), parse_number("12%"), parse_number("$3.5")
    (1234.0, -12.0, 12.0, 3.5)
    >>> parse_number("\u2014")
    nan
    >>> parse_number("Total") is None
    True
    """
    if isinstance(text, bool):
        return None
    if isinstance(text, (int, float)):
        return float(text)
    if not isinstance(text, str):
        return None
    t = unicodedata.normalize("NFKC", text).strip().translate(_DASH_TABLE)
    t = t.replace("\u00a0", "").replace("\u202f", "").replace(" ", "") if re.search(r"\d", t) else t
    if is_blank_cell(t):
        return math.nan
    negative = False
    for _ in range(2):  # "(12%)", "$(3.5)", "-$3.5" and "$-3.5" all occur
        if t.endswith("%"):
            t = t[:-1].strip()
        if len(t) > 2 and t[0] == "(" and t[-1] == ")" and not negative:
            negative, t = True, t[1:-1].strip()
        if t[:1] in ("-", "+") and t[1:2] != "-":
            negative, t = (negative != (t[0] == "-")), t[1:].strip()
        if t[:1] and t[0] in _CURRENCY:
            t = t[1:].strip()
    if _NUMBER_RE.match(t) is None:
        return None
    value = float(t.replace(",", ""))
    return -value if negative else value


_FOOTNOTE_RE = re.compile(
    r"""(
        \s*\((?:[a-z]|\d{1,2}|[ivx]{1,4})\)     # (a) (1) (iv)
      | \s*\[(?:[a-z]|\d{1,3})\]                # [a] [12]
      | \s*[*\u2020\u2021\u00a7\u00b6#]+        # * dagger double-dagger section pilcrow #
      | (?<=[a-z]{3})\d                         # Revenue1 (a digit glued to a word)
      | (?<=[a-z]{3}),\d(?:,\d)*                # Revenue1,2 is rare but seen
    )\s*$""",
    re.VERBOSE,
)
_SUPERSCRIPTS = "\u00b9\u00b2\u00b3\u2070\u2071\u2074\u2075\u2076\u2077\u2078\u2079\u207a\u207b\u207f"


def label_key(label: object) -> str:
    """Key for matching header labels: case, spacing, quotes, dashes and punctuation ignored.

    Parameters
    ----------
    label : object
        A header label; non-strings are converted with ``str``.

    Returns
    -------
    str
        Lower-case text with punctuation removed and runs of spaces collapsed.

    Examples
    --------
    >>> label_key("  Net   Income\u2014Total: "), label_key("Full-time"), label_key("2018-2019")
    ('net income total', 'full time', '2018-2019')
    """
    text = label if isinstance(label, str) else str(label)
    for ch in _SUPERSCRIPTS:
        text = text.replace(ch, " ")
    t = unicodedata.normalize("NFKD", text)
    t = "".join(c for c in t if not unicodedata.combining(c))
    t = t.translate(_DASH_TABLE).translate(_QUOTES_TABLE).lower()
    t = re.sub(r"[^\w%$\-+./ ]", " ", t).replace("_", " ")
    t = re.sub(r"(?<!\d)[.]|[.](?!\d)", "", t)
    t = re.sub(r"(?<!\d)-|-(?!\d)", " ", t)
    return " ".join(t.split()).strip("/ ")


def loose_label_key(label: object) -> str:
    """Key like :func:`label_key` that also drops footnote marks such as ``(a)``, ``1`` or ``*``.

    Used only when the stricter key finds nothing, because a trailing digit can be meaningful
    (``Q1``).

    Parameters
    ----------
    label : object
        A header label.

    Returns
    -------
    str
        The loosened key, with spaces removed as well.

    Examples
    --------
    >>> loose_label_key("Passenger revenue (a)"), loose_label_key("Revenue1"), loose_label_key("Q1")
    ('passengerrevenue', 'revenue', 'q1')
    """
    text = label if isinstance(label, str) else str(label)
    for ch in _SUPERSCRIPTS:
        text = text.replace(ch, "")
    text = text.strip()
    previous = None
    while previous != text:
        previous = text
        text = _FOOTNOTE_RE.sub("", text.lower()).strip()
    return label_key(text).replace(" ", "")

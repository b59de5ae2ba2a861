"""The app's .xls reader against xlrd 2.0.2 on the real legacy workbooks of the shared datasets.

A small script dumps the grids ``importFile`` makes (cell text, merged regions, bold/indent); every cell
xlrd reports is compared with ours: text exactly, booleans and errors by their Excel spelling, numbers by
value within the precision the displayed text shows (exactly, to 15 significant digits, under the General
format), dates by their year, month and day. Merged ranges are compared after the same clipping the grid
builder applies (to the bounding box of non-empty cells; single cells dropped).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import pytest

xlrd = pytest.importorskip("xlrd", reason="xlrd 2.0.2 (python/requirements-test.txt) is the reference reader")

REPO = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("TABLEQA_DATA") or REPO.parent / "shared" / "datasets")
FILES = sorted((DATA / "spreadsheets").rglob("*.xls")) if (DATA / "spreadsheets").is_dir() else []

DUMP = """
import { readFileSync } from 'node:fs'
import { importFile } from %s
const out: Record<string, unknown> = {}
for (const path of process.argv.slice(2)) {
  const bytes = new Uint8Array(readFileSync(path))
  const t0 = performance.now()
  const r = await importFile(path.split('/').pop() ?? path, bytes)
  out[path] = r.ok ? { ms: performance.now() - t0, grids: r.value } : { error: r.error }
}
process.stdout.write(JSON.stringify(out))
"""

MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]


@pytest.fixture(scope="module")
def dumped(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    npx = shutil.which("npx")
    if npx is None:
        pytest.fail("npx is not on PATH: cannot run the import script")
    script = tmp_path_factory.mktemp("xls") / "dump.mts"
    entry = REPO / "src" / "main" / "services" / "tables" / "import" / "index.ts"
    script.write_text(DUMP % json.dumps(str(entry)), encoding="utf-8")
    proc = subprocess.run(
        [npx, "tsx", str(script), *map(str, FILES)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, f"import script failed:\n{proc.stderr[-4000:]}"
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def _number_matches(text: str, value: float, general: bool) -> bool:
    t = text.strip().replace(",", "").replace("£", "").replace("$", "").replace(" ", "").replace("\u00a0", "")
    negative = t.startswith("(") and t.endswith(")")
    t = t.strip("()")
    percent = t.endswith("%")
    t = t.rstrip("%")
    if t == "-":
        return value == 0
    try:
        shown = Decimal(t)
    except InvalidOperation:
        return False
    if negative:
        shown = -shown
    expected = value * 100 if percent else value
    if general:
        return float(shown) == float(f"{value:.15g}")
    exponent = shown.as_tuple().exponent
    assert isinstance(exponent, int)
    return abs(float(shown) - expected) <= 0.5 * 10.0**exponent * (1 + 1e-9) + 1e-9 * abs(expected)


def _date_matches(text: str, when: dt.datetime) -> bool:
    low = text.lower()
    month = MONTHS[when.month - 1]
    return (
        (str(when.year) in low or f"{when.year % 100:02d}" in low)
        and str(when.day) in low
        and (month[:3] in low or str(when.month) in low)
    )


def _compare_sheet(book: Any, sheet: Any, grid: dict[str, Any]) -> tuple[int, list[str]]:
    cells: list[list[str]] = grid["cells"]
    styles: dict[str, dict[str, Any]] = grid.get("styles", {})
    height, width = len(cells), len(cells[0]) if cells else 0
    compared = 0
    problems: list[str] = []
    for r in range(max(sheet.nrows, height)):
        for c in range(max(sheet.ncols, width)):
            ours = cells[r][c] if r < height and c < width else ""
            where = f"{sheet.name}!R{r + 1}C{c + 1}"
            if r >= sheet.nrows or c >= sheet.ncols:
                if ours != "":
                    problems.append(f"{where}: ours {ours!r}, xlrd has no cell")
                continue
            cell = sheet.cell(r, c)
            xf = book.xf_list[cell.xf_index]
            fmt = book.format_map[xf.format_key].format_str
            if cell.ctype in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK) or (
                cell.ctype == xlrd.XL_CELL_TEXT and cell.value == ""
            ):
                good = ours == ""
            elif cell.ctype == xlrd.XL_CELL_TEXT:
                good = ours == cell.value
            elif cell.ctype == xlrd.XL_CELL_NUMBER:
                good = _number_matches(ours, cell.value, fmt.strip().lower() == "general")
            elif cell.ctype == xlrd.XL_CELL_DATE:
                good = _date_matches(ours, xlrd.xldate.xldate_as_datetime(cell.value, book.datemode))
            elif cell.ctype == xlrd.XL_CELL_BOOLEAN:
                good = ours == ("TRUE" if cell.value else "FALSE")
            else:
                good = ours == xlrd.error_text_from_code.get(cell.value, "")
            if not good:
                problems.append(f"{where}: ours {ours!r}, xlrd {cell.value!r} (type {cell.ctype}, {fmt!r})")
                continue
            if ours == "":
                continue
            compared += 1
            style = styles.get(f"{r},{c}", {})
            # xlrd's ``bold`` is a flag bit Excel 97+ leaves clear; the weight is what Excel renders.
            bold = book.font_list[xf.font_index].weight >= 600
            indent = xf.alignment.indent_level
            if bool(style.get("bold", False)) != bold or style.get("indent", 0) != indent:
                problems.append(f"{where}: style {style}, xlrd bold={bold} indent={indent}")
    return compared, problems


def _merges(sheet: Any, height: int, width: int) -> set[tuple[int, int, int, int]]:
    out: set[tuple[int, int, int, int]] = set()
    for rlo, rhi, clo, chi in sheet.merged_cells:
        top, left, bottom, right = rlo, clo, min(rhi - 1, height - 1), min(chi - 1, width - 1)
        if top < height and left < width and (bottom, right) != (top, left):
            out.add((top, left, bottom, right))
    return out


@pytest.mark.skipif(not FILES, reason=f"no .xls files under {DATA / 'spreadsheets'} (set TABLEQA_DATA)")
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_xls_matches_xlrd(path: Path, dumped: dict[str, Any]) -> None:
    result = dumped[str(path)]
    assert "error" not in result, result.get("error")
    grids: list[dict[str, Any]] = result["grids"]
    book = xlrd.open_workbook(str(path), formatting_info=True)
    assert [g["name"] for g in grids] == [f"{path.name} › {s.name}" for s in book.sheets()]
    total = 0
    problems: list[str] = []
    for sheet, grid in zip(book.sheets(), grids, strict=True):
        compared, wrong = _compare_sheet(book, sheet, grid)
        total += compared
        problems += wrong
        height = len(grid["cells"])
        width = len(grid["cells"][0]) if height else 0
        ours = {(m["top"], m["left"], m["bottom"], m["right"]) for m in grid["merges"]}
        theirs = _merges(sheet, height, width)
        if ours != theirs:
            problems.append(f"{sheet.name}: merges differ: ours {sorted(ours)}, xlrd {sorted(theirs)}")
    print(f"{path.name}: {total} non-empty cells agree with xlrd, read in {result['ms']:.0f} ms")
    assert total > 0
    assert problems == [], f"{len(problems)} differences, first: " + "\n".join(problems[:20])

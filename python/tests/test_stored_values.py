"""Programs see what the workbook stores: the app's tables of real sheets against reference readers.

A script imports every workbook of the shared datasets (XLSX, XLS, ODS) and structures each sheet as the app
does (``prepareTable``, tables side by side split first); each table's payload is built into a DataFrame
with :func:`tableqa.frame.build_frame`, and every data cell is compared with the value a reference reader
gives for its source cell (``rowSource``, ``colSource``): openpyxl for XLSX, xlrd for XLS, pandas' ODF
reader for ODS. Numbers must be equal exactly, whatever the cell's format shows; dates to the millisecond,
truth values and text as they are; a formula error and an empty cell are missing values. A cell the
structure pass filled from a value merged over it must hold that value.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tableqa.frame import build_frame, raw_frame
from tableqa.text import is_blank_cell, parse_number

openpyxl = pytest.importorskip(
    "openpyxl", reason="openpyxl (python/requirements-test.txt) reads the XLSX reference"
)
xlrd = pytest.importorskip("xlrd", reason="xlrd (python/requirements-test.txt) reads the XLS reference")
pd = pytest.importorskip("pandas")
pytest.importorskip("odf", reason="odfpy (python/requirements-test.txt) reads the ODS reference")

REPO = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("TABLEQA_DATA") or REPO.parent / "shared" / "datasets")
ROOT = DATA / "spreadsheets"
FILES = sorted(p for p in ROOT.rglob("*") if p.suffix in (".xlsx", ".xls", ".ods")) if ROOT.is_dir() else []

DUMP = """
import { readFileSync } from 'node:fs'
import { importFile } from %s
import { splitSideBySide } from %s
import { prepareTable } from %s
const out: Record<string, unknown> = {}
const decoder = new TextDecoder()
for (const path of process.argv.slice(2)) {
  const r = await importFile(path.split('/').pop() ?? path, new Uint8Array(readFileSync(path)))
  if (!r.ok) { out[path] = { error: r.error }; continue }
  const tables: unknown[] = []
  r.value.forEach((grid, sheet) => {
    for (const part of splitSideBySide(grid))
      tables.push({ sheet, payload: decoder.decode(prepareTable(part).payload) })
  })
  out[path] = { tables }
}
process.stdout.write(JSON.stringify(out))
"""


@pytest.fixture(scope="module")
def dumped(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    npx = shutil.which("npx")
    if npx is None:
        pytest.fail("npx is not on PATH: cannot run the import script")
    script = tmp_path_factory.mktemp("stored") / "dump.mts"
    tables = REPO / "src" / "main" / "services" / "tables"
    entries = [tables / "import" / "index.ts", tables / "structure" / "index.ts", tables / "prepare.ts"]
    script.write_text(DUMP % tuple(json.dumps(str(e)) for e in entries), encoding="utf-8")
    proc = subprocess.run(
        [npx, "tsx", str(script), *map(str, FILES)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert proc.returncode == 0, f"import script failed:\n{proc.stderr[-4000:]}"
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


class Reference:
    """Cell values of a workbook as a reference reader gives them, by sheet index and 0-based cell."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.kind = path.suffix
        self.raw: Any = None
        self.cells: dict[int, dict[tuple[int, int], Any]] = {}
        if self.kind == ".xlsx":
            self.book = openpyxl.load_workbook(path, data_only=True, keep_links=False)
            self.sheets = self.book.worksheets
        elif self.kind == ".xls":
            self.book = xlrd.open_workbook(str(path))
            self.sheets = self.book.sheets()
        else:
            frames = pd.read_excel(path, engine="odf", header=None, sheet_name=None)
            self.sheets = list(frames.values())

    def value(self, sheet: int, row: int, col: int) -> Any:
        if self.kind == ".xlsx":
            return self._xlsx(sheet).get((row, col))
        s = self.sheets[sheet]
        if self.kind == ".xls":
            if row >= s.nrows or col >= s.ncols:
                return None
            cell = s.cell(row, col)
            if cell.ctype in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK):
                return None
            if cell.ctype == xlrd.XL_CELL_ERROR:
                return ("error", cell.value)
            if cell.ctype == xlrd.XL_CELL_DATE:
                return xlrd.xldate.xldate_as_datetime(cell.value, self.book.datemode)
            if cell.ctype == xlrd.XL_CELL_BOOLEAN:
                return bool(cell.value)
            return cell.value
        if row >= s.shape[0] or col >= s.shape[1]:
            return None
        v = s.iat[row, col]
        if isinstance(v, float) and math.isnan(v):
            return None
        return v.to_pydatetime() if isinstance(v, pd.Timestamp) else v

    def _xlsx(self, sheet: int) -> dict[tuple[int, int], Any]:
        """Every stored cell of a sheet, read once."""
        if sheet not in self.cells:
            ws = self.sheets[sheet]
            out: dict[tuple[int, int], Any] = {}
            for row in ws.iter_rows():
                for cell in row:
                    if cell.value is None or not hasattr(cell, "column"):
                        continue
                    at = (cell.row - 1, cell.column - 1)
                    if (
                        cell.hyperlink is not None
                        and cell.value == cell.hyperlink.target
                        and self.raw_empty(sheet, *at)
                    ):
                        continue  # openpyxl gives an empty cell under a hyperlink the link's address
                    out[at] = ("error", cell.value) if cell.data_type == "e" else cell.value
            self.cells[sheet] = out
        return self.cells[sheet]

    def raw_empty(self, sheet: int, row: int, col: int) -> bool:
        """Whether the sheet's XML stores nothing in the cell (XLSX)."""
        if self.raw is None:
            self.raw = openpyxl.load_workbook(self.path, data_only=True, read_only=True, keep_links=False)
        ws = self.raw.worksheets[sheet]
        found = next(ws.iter_rows(min_row=row + 1, max_row=row + 1, min_col=col + 1, max_col=col + 1), ())
        return all(getattr(c, "value", None) is None for c in found)

    def anchor(self, sheet: int, row: int, col: int) -> tuple[int, int] | None:
        """The own cell of a merged range over a cell (XLSX and XLS; ODS frames do not say)."""
        s = self.sheets[sheet]
        if self.kind == ".xlsx":
            for rng in s.merged_cells.ranges:
                if rng.min_row <= row + 1 <= rng.max_row and rng.min_col <= col + 1 <= rng.max_col:
                    return rng.min_row - 1, rng.min_col - 1
        elif self.kind == ".xls":
            for rlo, rhi, clo, chi in s.merged_cells:
                if rlo <= row < rhi and clo <= col < chi:
                    return rlo, clo
        return None


def _missing(v: Any) -> bool:
    return v is None or v is pd.NaT or (isinstance(v, float) and math.isnan(v))


def _same_time(ours: Any, ref: dt.datetime) -> bool:
    when = pd.Timestamp(ours).to_pydatetime() if not isinstance(ours, dt.datetime) else ours
    return abs((when - ref).total_seconds()) < 0.002


def _agrees(ours: Any, text: str, ref: Any) -> bool:
    item = getattr(ours, "item", None)
    if callable(item) and type(ours).__module__ == "numpy":
        ours = item()
    if ref is None or (isinstance(ref, str) and ref == ""):
        return _missing(ours)
    if isinstance(ref, tuple):  # a formula error
        return _missing(ours)
    if isinstance(ref, bool):
        return bool(ours) is ref and not isinstance(ours, str)
    if isinstance(ref, (int, float)):
        return isinstance(ours, (int, float)) and not isinstance(ours, bool) and float(ours) == float(ref)
    if isinstance(ref, dt.datetime):
        return not _missing(ours) and _same_time(ours, ref)
    if isinstance(ref, dt.time):
        return ours == ref or (isinstance(ours, dt.time) and abs(ours.microsecond - ref.microsecond) < 2000)
    if isinstance(ref, dt.timedelta):
        return isinstance(ours, (dt.timedelta, pd.Timedelta)) and abs((ours - ref).total_seconds()) < 0.002
    # Text: as it is in a text column; read as a number (or a missing mark) in a numeric one, as before.
    if isinstance(ours, str):
        return ours == ref
    number = parse_number(str(ref))
    if _missing(ours):
        return is_blank_cell(str(ref))
    return number is not None and float(ours) == number


@pytest.mark.skipif(not FILES, reason=f"no workbooks under {ROOT} (set TABLEQA_DATA)")
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_data_cells_hold_the_stored_values(path: Path, dumped: dict[str, Any]) -> None:
    result = dumped[str(path)]
    assert "error" not in result, result.get("error")
    ref = Reference(path)
    compared = rounded = filled = 0
    problems: list[str] = []
    for table in result["tables"]:
        payload = json.loads(table["payload"])
        df = build_frame(payload)
        raw = raw_frame(df)
        rows, cols = payload["rowSource"], payload["colSource"]
        for j, c in enumerate(cols):
            if c < 0:
                continue
            values, texts = df.iloc[:, j].tolist(), raw.iloc[:, j].tolist()
            for i, r in enumerate(rows):
                ours, text = values[i], texts[i]
                want = ref.value(table["sheet"], r, c)
                if _missing(want) and text != "":
                    anchor = ref.anchor(table["sheet"], r, c)
                    if anchor is None:
                        continue  # an ODS merge: pandas' reader does not say where it starts
                    want = ref.value(table["sheet"], *anchor)
                    filled += 1
                compared += 1
                if (
                    isinstance(want, (int, float))
                    and not isinstance(want, bool)
                    and parse_number(text) != want
                ):
                    rounded += 1
                if not _agrees(ours, text, want):
                    problems.append(
                        f"{payload['name']} R{r + 1}C{c + 1}: ours {ours!r} (text {text!r}), "
                        f"reference {want!r}"
                    )
    print(
        f"{path.name}: {compared} data cells agree ({rounded} shown other than stored, {filled} from merges)"
    )
    assert compared > 0
    assert problems == [], f"{len(problems)} differences, first: " + "\n".join(problems[:20])


def test_the_issue_example_a_rounded_population_keeps_its_decimals(dumped: dict[str, Any]) -> None:
    """Woodland area in thousands of hectares, shown without decimals: sums use the stored values."""
    path = ROOT / "forestry-gss-cogs" / "Ch1_Woodland_FS2022.xlsx"
    if str(path) not in dumped:
        pytest.skip(f"{path} is not in the shared datasets")
    first = next(t for t in dumped[str(path)]["tables"] if "Table_1.1" in json.loads(t["payload"])["name"])
    payload = json.loads(first["payload"])
    df = build_frame(payload)
    shown = raw_frame(df)
    j = payload["colSource"].index(1)
    i = payload["rowSource"].index(5)
    assert shown.iat[i, j] == "151"
    assert df.iat[i, j] == pytest.approx(151.47161197471215, abs=0)
    column = df.iloc[:, j]
    assert column.dtype == "float64"
    as_shown = pd.to_numeric(shown.iloc[:, j].str.replace(",", ""), errors="coerce")
    assert column.sum() != as_shown.sum()

"""Every HiTab and AIT-QA table and every sheet of the real spreadsheets, structured by the app, becomes a
DataFrame with the same header tuples.

The TypeScript side dumps its ParsedTable JSON with ``scripts/export-parsed-fixtures.ts OUTDIR``; this
test runs it and rebuilds each table with :func:`tableqa.frame.build_frame`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from tableqa.frame import build_frame

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "export-parsed-fixtures.ts"


def _tables(node: Any, origin: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict) and {"columns", "index", "values"} <= set(node):
        yield f"{origin}:{node.get('name', '')}", node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _tables(value, f"{origin}/{key}")
    elif isinstance(node, list):
        for k, value in enumerate(node):
            yield from _tables(value, f"{origin}[{k}]")


def _expected(tuples: list[list[str]]) -> list[Any]:
    if tuples and len(tuples[0]) == 1:
        return [t[0] for t in tuples]
    return [tuple(t) for t in tuples]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, dict[str, Any]]]:
    if not SCRIPT.exists():
        pytest.fail(
            f"{SCRIPT.relative_to(REPO)} does not exist yet: it must dump the ParsedTable JSON "
            "of every HiTab and AIT-QA table (npx tsx scripts/export-parsed-fixtures.ts OUTDIR)"
        )
    npx = shutil.which("npx")
    if npx is None:
        pytest.fail("npx is not on PATH: cannot run the export script")
    out = tmp_path_factory.mktemp("parsed")
    proc = subprocess.run(
        [npx, "tsx", str(SCRIPT), str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        env={**os.environ, "CI": "true"},
    )
    assert proc.returncode == 0, f"export script failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    tables: list[tuple[str, dict[str, Any]]] = []
    for path in sorted(out.rglob("*.json")):
        tables += list(_tables(json.loads(path.read_text(encoding="utf-8")), path.name))
    assert tables, f"the export script wrote no ParsedTable JSON under {out}"
    return tables


def test_export_covers_hitab_aitqa_and_spreadsheets(exported: list[tuple[str, dict[str, Any]]]) -> None:
    names = " ".join(origin.lower() for origin, _ in exported)
    assert "hitab" in names
    assert "ait" in names
    assert "sheet-" in names
    assert len(exported) >= 93


def test_every_table_rebuilds_with_identical_header_tuples(
    exported: list[tuple[str, dict[str, Any]]],
) -> None:
    problems: list[str] = []
    for origin, payload in exported:
        try:
            df = build_frame(payload)
        except Exception as exc:  # collected so that one report lists every broken table
            problems.append(f"{origin}: build_frame raised {type(exc).__name__}: {exc}")
            continue
        columns, index = payload["columns"], payload["index"]
        if df.columns.tolist() != _expected(columns):
            problems.append(f"{origin}: columns differ: {df.columns.tolist()[:3]} vs {columns[:3]}")
        if not index or all(len(t) == 0 for t in index):
            if not isinstance(df.index, pd.RangeIndex):
                problems.append(f"{origin}: expected a RangeIndex")
        elif df.index.tolist() != _expected(index):
            problems.append(f"{origin}: index differs: {df.index.tolist()[:3]} vs {index[:3]}")
        if df.shape != (len(payload["values"]), len(columns)):
            problems.append(f"{origin}: shape {df.shape} vs {len(payload['values'])}x{len(columns)}")
    assert not problems, f"{len(problems)} of {len(exported)} tables:\n" + "\n".join(problems[:40])

"""The package runs inside Pyodide 314 (Python 3.14, no pandas), the interpreter the app ships.

Pyodide is run directly under Node here: this is trusted test code, not the sandboxed executor.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PYODIDE = REPO / "node_modules" / "pyodide" / "pyodide.mjs"

NODE_SCRIPT = r"""
import { loadPyodide } from 'pyodide'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
const dir = process.argv[1]
const py = await loadPyodide()
py.FS.mkdirTree('/lib/tqa/tableqa')
for (const f of readdirSync(dir)) {
  if (f.endsWith('.py')) py.FS.writeFile('/lib/tqa/tableqa/' + f, readFileSync(join(dir, f), 'utf8'))
}
const out = py.runPython(`
import sys, json
sys.path.insert(0, '/lib/tqa')
import tableqa
from tableqa import runner, rows_view, sqldf
payload = {"columns": [["Nation"], ["Gold"]], "index": [],
           "values": [["Norway", "16"], ["Germany", "12"], ["Canada", "(3)"]]}
ns = {"rows": rows_view(payload), "sqldf": sqldf}
results = {
  "version": sys.version.split()[0],
  "pandas": __import__("importlib.util").util.find_spec("pandas") is not None,
  "expr": runner.run("max(rows, key=lambda r: r['Gold'])['Nation']", ns),
  "sql": runner.run("sqldf('SELECT Nation FROM rows WHERE Gold > 10 ORDER BY Gold')", ns),
  "error": runner.run("def f():\\n    return 1/0\\nf()", ns),
  "doc": len(tableqa.api_doc()),
}
json.dumps(results)
`)
process.stdout.write(out)
"""


@pytest.fixture(scope="module")
def pyodide_results() -> dict[str, object]:
    node = shutil.which("node")
    if node is None or not PYODIDE.exists():
        pytest.skip("node or node_modules/pyodide is not installed")
    proc = subprocess.run(
        [node, "--input-type=module", "-e", NODE_SCRIPT, str(REPO / "python" / "tableqa")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    errors = [line for line in proc.stderr.splitlines() if len(line) < 500]
    assert proc.returncode == 0, "\n".join(errors[-40:])
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def test_runs_on_python_314_without_pandas(pyodide_results: dict[str, object]) -> None:
    assert str(pyodide_results["version"]).startswith("3.14")
    assert pyodide_results["pandas"] is False
    expr = pyodide_results["expr"]
    assert isinstance(expr, dict)
    assert expr["ok"], expr
    assert expr["value"]["value"]["json"] == "Norway"
    assert expr["value"]["tableKind"] == "rows"


def test_stdlib_sqlite3_works_in_pyodide(pyodide_results: dict[str, object]) -> None:
    sql = pyodide_results["sql"]
    assert isinstance(sql, dict)
    assert sql["ok"], sql
    assert sql["value"]["value"]["json"] == [{"Nation": "Germany"}, {"Nation": "Norway"}]


def test_errors_and_api_doc_in_pyodide(pyodide_results: dict[str, object]) -> None:
    error = pyodide_results["error"]
    assert isinstance(error, dict)
    assert error["error"]["message"] == "ZeroDivisionError: division by zero"
    assert 'File "<program>", line 2, in f' in error["error"]["traceback"]
    assert isinstance(pyodide_results["doc"], int)
    assert pyodide_results["doc"] > 1000

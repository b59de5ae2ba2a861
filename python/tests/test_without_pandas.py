"""The package and the runner must work where pandas and numpy cannot be imported (bare Pyodide)."""

import json
import subprocess
import sys
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[1]

SCRIPT = r"""
import json, sys
sys.modules["pandas"] = None
sys.modules["numpy"] = None
import tableqa
from tableqa import runner, rows_view, api_doc, sqldf, set_qa_bridge

payload = {"columns": [["Year"], ["Passengers"]], "index": [],
           "values": [["2019", "1,200"], ["2020", "(15)"]]}
ns = {"rows": rows_view(payload), "sqldf": sqldf, "qa": tableqa.qa}
set_qa_bridge(lambda q, v: "ok")
out = {
    "sum": runner.run("sum(r['Passengers'] for r in rows)", ns),
    "sql": runner.run("sqldf('SELECT Year FROM rows WHERE Passengers > 0')", ns),
    "qa": runner.run("answer = qa('why?')", ns),
    "chart": runner.run(
        "answer = chart(rows, kind='bar', x='Year', y='Passengers')", {**ns, "chart": tableqa.chart}
    ),
    "err": runner.run("import pandas", {}),
    "attr": runner.run("answer = rows[0]['Year'].str", ns),
    "doc_has_lookup": "lookup(df, row, col)" in api_doc(),
}
try:
    tableqa.build_frame(payload)
except ImportError as exc:
    out["frame"] = type(exc).__name__
print(json.dumps(out))
"""


def test_import_and_run_work_with_pandas_and_numpy_unimportable() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=PYTHON_DIR,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["sum"]["ok"], out["sum"]
    assert out["sum"]["value"]["value"]["json"] == 1185
    assert out["sum"]["value"]["tableKind"] == "rows"
    assert out["sql"]["ok"], out["sql"]
    assert out["chart"]["ok"], out["chart"]
    assert out["chart"]["value"]["value"]["json"]["chart"]["data"]["values"] == [
        {"Year": 2019, "Passengers": 1200},
        {"Year": 2020, "Passengers": -15},
    ]
    assert out["sql"]["value"]["value"]["json"] == [{"Year": 2019}]
    assert out["qa"]["value"]["value"]["json"] == "ok"
    assert out["err"]["error"]["message"].startswith("ModuleNotFoundError: import of pandas halted")
    # An error's notes import nothing: a note about pandas columns is left out where pandas is not.
    assert out["attr"]["error"]["message"] == "AttributeError: 'int' object has no attribute 'str'"
    assert out["doc_has_lookup"] is True
    assert out["frame"] == "ModuleNotFoundError"

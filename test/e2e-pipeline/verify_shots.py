"""Run every few-shot program of the prompt library on its own table and compare with its stated answer.

Usage: python3 verify_shots.py SHOTS.json [...]; prints one JSON object per program on stdout.
Needs pandas and the runtime library (``python/`` is put on the path from this file's location).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))

import tableqa  # noqa: E402


def same(expected: object, got: object) -> bool:
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        return (
            isinstance(got, (int, float))
            and not isinstance(got, bool)
            and math.isclose(expected, got, rel_tol=1e-6, abs_tol=1e-6)
        )
    return expected == got


def check(shot: dict, variant: str, code: str) -> dict:
    tables = shot["tables"]
    namespace: dict = dict(tableqa.api_namespace())
    for t in tables:
        namespace[t["name"]] = tableqa.build_frame(t)
    answers = shot.get("qaAnswers", {})

    def bridge(question: str, value: str | None) -> str:
        key = question if value is None else f"{question} | {value}"
        if key not in answers:
            raise KeyError(f"no scripted QA answer for {key!r}")
        return str(answers[key])

    tableqa.set_qa_bridge(bridge)
    result = tableqa.run(code, namespace)
    out = {"shot": shot["id"], "variant": variant}
    if not result["ok"]:
        return {**out, "ok": False, "error": result["error"]["message"]}
    value = result["value"]["value"]
    js = None if value is None else value.get("json")
    if isinstance(js, dict) and "items" in js:
        got = [item["value"] for item in js["items"]]
    elif isinstance(js, list):
        got = js
    else:
        got = [js]
    expected = shot["answer"]
    good = len(got) == len(expected) and all(same(e, g) for e, g in zip(expected, got))
    return {**out, "ok": good, "got": got, "expected": expected}


def main() -> None:
    for name in sys.argv[1:]:
        data = json.loads(Path(name).read_text(encoding="utf-8"))
        for shot in data["shots"]:
            for variant in ("python", "plain", "sql"):
                if variant in shot:
                    print(
                        json.dumps(
                            check(shot, variant, "\n".join(shot[variant])), default=str
                        )
                    )


main()

/** Test helper: run a program with the runtime library in a local CPython (pandas), as the executor would. */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import type { PythonRunResult } from '../../src/shared/python'

const HOST = String.raw`
import json, sys
import tableqa
payload = json.loads(sys.stdin.read())
ns = {**tableqa.api_namespace(), "sqldf": tableqa.sqldf}
if payload.get("table") is not None:
    ns["df"] = tableqa.build_frame(payload["table"])
for name, table in (payload.get("named") or {}).items():
    ns[name] = tableqa.build_frame(table)
print(json.dumps(tableqa.run(payload["code"], ns, payload.get("question"))))
`

export function pandasAvailable(): boolean {
  return spawnSync('python3', ['-c', 'import pandas'], { encoding: 'utf8' }).status === 0
}

/** `question`: the question the program answers, as the executor passes it (the runtime reads some words by it). */
export function runPython(code: string, table: unknown = null, named: Record<string, unknown> = {}, question?: string): PythonRunResult {
  const root = join(import.meta.dirname, '..', '..')
  const out = spawnSync('python3', ['-c', HOST], {
    input: JSON.stringify({ code, table, named, ...(question === undefined ? {} : { question }) }),
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: join(root, 'python') }
  })
  if (out.status !== 0) throw new Error(out.stderr)
  return JSON.parse(out.stdout) as PythonRunResult
}

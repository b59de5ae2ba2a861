/**
 * Payload benchmark (part of `exec`): the JSON tables reach the Python executors as, for the generated
 * 200,000 × 20 CSV, a workbook of the same shape with formatted numbers and dates (scripts/bench/generated.ts),
 * and the three largest real workbooks of the shared spreadsheets (every table of every sheet). Per file: import
 * + structure + encode with the table reader's code, the payloads' size, and in CPython with pandas the time to
 * parse them (`json.loads`) and to build the DataFrames (`build_frame`) and the rows views, the best of three.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { datasetsDir } from '../../src/main/services/paths'
import { localReader } from '../../src/main/services/tables/table-thread'
import { generatedCsv, generatedXlsx } from './generated'

const PYTHON = String.raw`
import json, sys, time
from tableqa.frame import build_frame
from tableqa.rows import rows_view
texts = [open(path, encoding="utf-8").read() for path in sys.argv[1:]]
best = {"parse": 1e9, "frame": 1e9, "rows": 1e9}
for _ in range(3):
    spent = {"parse": 0.0, "frame": 0.0, "rows": 0.0}
    dtypes = set()
    for text in texts:
        t0 = time.perf_counter(); payload = json.loads(text); t1 = time.perf_counter()
        df = build_frame(payload); t2 = time.perf_counter()
        rows = rows_view(payload); t3 = time.perf_counter()
        spent = {"parse": spent["parse"] + t1 - t0, "frame": spent["frame"] + t2 - t1, "rows": spent["rows"] + t3 - t2}
        dtypes |= {str(t) for t in df.dtypes}
        del payload, df, rows
    best = {k: min(v, spent[k]) for k, v in best.items()}
    dtypes = sorted(dtypes)
print(json.dumps({**{k: round(v * 1000) for k, v in best.items()}, "dtypes": dtypes}))
`

type Measured = {
  tables: number
  prepareMs: number
  payloadBytes: number
  parseMs: number
  frameMs: number
  rowsMs: number
  dtypes: string[]
}

/** Real workbooks with the most cells among the shared spreadsheets. */
const REAL_WORKBOOKS = [
  'ons-databaker/2018internationaltradeinservicesdatatables.xls',
  'bls-occupations/occupation.xlsx',
  'tidyabs/92080DO001_1231201610.xlsx'
]

async function measure(name: string, bytes: Uint8Array, dir: string): Promise<Measured> {
  const t0 = performance.now()
  const tables = await localReader().open(name, bytes)
  if (!tables.ok || tables.value.length === 0) throw new Error(`cannot import ${name}`)
  const prepareMs = Math.round(performance.now() - t0)
  const files = tables.value.map((table, k) => {
    const file = join(dir, `${name}.${k}.json`)
    writeFileSync(file, table.payload)
    return file
  })
  const python = process.env.TABLEQA_PYTHON ?? 'python3'
  const root = fileURLToPath(new URL('../../python', import.meta.url))
  const out = spawnSync(python, ['-c', PYTHON, ...files], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: root }, timeout: 600_000 })
  if (out.status !== 0) throw new Error(`${name}: python failed: ${out.stderr}`)
  const py = JSON.parse(out.stdout) as { parse: number; frame: number; rows: number; dtypes: string[] }
  const payloadBytes = tables.value.reduce((sum, t) => sum + t.payload.byteLength, 0)
  return { tables: files.length, prepareMs, payloadBytes, parseMs: py.parse, frameMs: py.frame, rowsMs: py.rows, dtypes: py.dtypes }
}

export async function payloadMetrics(): Promise<{ metrics: Record<string, number>; details: Record<string, Measured> }> {
  const dir = mkdtempSync(join(tmpdir(), 'tableqa-bench-payload-'))
  const metrics: Record<string, number> = {}
  const details: Record<string, Measured> = {}
  try {
    const real = REAL_WORKBOOKS.map((path) => join(datasetsDir(), 'spreadsheets', path)).filter((path) => existsSync(path))
    const inputs: [string, string, () => Uint8Array][] = [
      ['csv_200k', 'bench.csv', generatedCsv],
      ['xlsx_200k', 'bench.xlsx', generatedXlsx],
      ...real.map((path, k): [string, string, () => Uint8Array] => [
        `real_${k + 1}`,
        path.split('/').pop() ?? path,
        () => new Uint8Array(readFileSync(path))
      ])
    ]
    for (const [label, name, make] of inputs) {
      const m = await measure(name, make(), dir)
      details[label] = m
      metrics[`payload_${label}_mb`] = Number((m.payloadBytes / 1024 / 1024).toFixed(2))
      metrics[`payload_${label}_prepare_ms`] = m.prepareMs
      metrics[`payload_${label}_json_parse_ms`] = m.parseMs
      metrics[`payload_${label}_build_frame_ms`] = m.frameMs
      metrics[`payload_${label}_rows_view_ms`] = m.rowsMs
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return { metrics, details }
}

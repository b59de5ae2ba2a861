import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ParsedTable } from '../../../shared/table'
import { appRoot, datasetsDir } from '../paths'
import { importFileSync } from '../tables/import'
import { inView, structureGrid } from '../tables/structure'
import { columnKinds, readNumber, type KindsInput } from './column-kinds'

const python3 =
  spawnSync('python3', ['-c', 'import tableqa'], { env: { ...process.env, PYTHONPATH: join(appRoot(), 'python') } }).status === 0

/** The runtime's reading of each payload (one JSON per line): its column kinds, and `parse_number` of each text given. */
function runtime(payloads: KindsInput[], texts: string[] = []): { kinds: string[][]; numbers: (number | null | 'nan')[] } {
  const script = [
    'import json, math, sys',
    'from tableqa.columns import read_columns',
    'from tableqa.text import parse_number',
    'data = json.load(sys.stdin)',
    'kinds = [["number" if c.kind == "number" else "text" if c.kind == "object" else "other" for c in read_columns(p)] for p in data["payloads"]]',
    'def num(t):',
    '    v = parse_number(t)',
    '    return "nan" if v is not None and math.isnan(v) else v',
    'print(json.dumps({"kinds": kinds, "numbers": [num(t) for t in data["texts"]]}))'
  ].join('\n')
  const run = spawnSync('python3', ['-c', script], {
    input: JSON.stringify({ payloads, texts }),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, PYTHONPATH: join(appRoot(), 'python') }
  })
  if (run.status !== 0) throw new Error(run.stderr)
  return JSON.parse(run.stdout) as { kinds: string[][]; numbers: (number | null | 'nan')[] }
}

// Cells that test each step of the reading: separators, signs, brackets, currencies, marks, spaces, digits
// of other scripts, units and words.
const HARD = [
  '1,234',
  '1,23',
  '12,345.5',
  '(12)',
  '( 12 )',
  '12%',
  '(12%)',
  '$3.5',
  '$(3.5)',
  '-$3.5',
  '$-3.5',
  '+-3',
  '--3',
  '- 3',
  '\u22125',
  '\u20135',
  '1 234',
  '1\u00a0234',
  '\u00a012',
  '\uff11\uff12',
  '\u0663\u0664',
  '1.',
  '.5',
  '1e5',
  '1E-3',
  '\u2014',
  '--',
  'n/a',
  'N.A.',
  'x',
  'F',
  'nan',
  'None',
  '',
  ' ',
  '\u2026',
  '113.6 m',
  '1 (0+0+0+1)',
  '629 / 192',
  '1958*',
  '?',
  'Total',
  '12.5 km',
  '\u20ac7',
  '\u00a37',
  '7\u00a5',
  '\x1c3\x1f',
  '\ufeff3'
]

describe.skipIf(!python3)('column kinds, as the Python runtime reads them', () => {
  it('reads each hard cell as the runtime does: the number, a missing value or no number', () => {
    const { numbers } = runtime([], HARD)
    HARD.forEach((text, i) => {
      const mine = readNumber(text)
      expect(mine === null ? null : Number.isNaN(mine) ? 'nan' : mine, JSON.stringify(text)).toEqual(numbers[i])
    })
  })

  it('gives each column of hard cells, alone and beside numbers and marks, the kind the runtime gives it', () => {
    const tables: KindsInput[] = HARD.flatMap((text) => [
      { columns: [['a']], values: [[text]] },
      { columns: [['a']], values: [[text], ['7'], ['\u2014']] },
      { columns: [['a']], values: [['7'], [text]] }
    ])
    // Stored values: numbers, text typed as text, dates, truth values, missing values and untyped cells mixed.
    const stored: KindsInput[] = [
      ['nn', [], ['1', '2']],
      ['nN', [0.5], ['1', '50%']],
      ['n0', [], ['1', '#N/A']],
      ['00', [], ['', '']],
      ['s.', [], ['12', '13']],
      ['n.', [], ['12', 'x']],
      ['n.', [], ['12', 'word']],
      ['dd', [1, 2], ['1/1/1970', '1/1/1970']],
      ['d0', [1], ['1/1/1970', '']],
      ['d.', [1], ['1/1/1970', '']],
      ['d.', [1], ['1/1/1970', 'soon']],
      ['ee', [1, 2], ['0:01', '0:02']],
      ['de', [1, 2], ['1/1/1970', '0:02']],
      ['tf', [], ['TRUE', 'FALSE']],
      ['t0', [], ['TRUE', '']],
      ['t.', [], ['TRUE', '']],
      ['h', [1], ['0:00']],
      ['n', [], ['1', '2', '3']]
    ].map(([kinds, numbers, texts]) => ({
      columns: [['a']],
      values: (texts as string[]).map((t) => [t]),
      stored: [{ kinds: kinds as string, numbers: numbers as number[] }]
    }))
    const all = [...tables, ...stored]
    const { kinds } = runtime(all)
    all.forEach((t, i) => expect(columnKinds(t), JSON.stringify(t)).toEqual(kinds[i]))
  })

  const wikitq = join(datasetsDir(), 'wikitq', 'csv')
  const spreadsheets = join(datasetsDir(), 'spreadsheets')
  it.skipIf(!existsSync(wikitq) || !existsSync(spreadsheets))(
    'gives every column of real tables the kind the runtime gives it: WikiTQ pages, spreadsheets with stored values',
    () => {
      const tables: ParsedTable[] = []
      const add = (path: string): void => {
        const grids = importFileSync(path.split('/').at(-1) ?? path, new Uint8Array(readFileSync(path)))
        if (grids.ok) for (const g of grids.value) tables.push(inView(structureGrid(g), 'multiindex'))
      }
      for (const dir of readdirSync(wikitq).sort().slice(0, 3)) {
        for (const file of readdirSync(join(wikitq, dir))
          .filter((f) => f.endsWith('.csv'))
          .sort()
          .slice(0, 60))
          add(join(wikitq, dir, file))
      }
      for (const dir of readdirSync(spreadsheets, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()) {
        const path = join(spreadsheets, dir)
        for (const file of readdirSync(path)
          .filter((f) => /\.(xlsx|xls|ods)$/.test(f))
          .sort()
          .slice(0, 3))
          add(join(path, file))
      }
      const payloads = tables.map((t) => JSON.parse(JSON.stringify(t)) as KindsInput)
      expect(payloads.filter((p) => p.stored !== undefined).length).toBeGreaterThan(5)
      const { kinds } = runtime(payloads)
      const mine = tables.map((t) => columnKinds(t))
      const text = mine.flat().filter((k) => k === 'text').length
      expect(text).toBeGreaterThan(100)
      expect(mine.flat().filter((k) => k === 'number').length).toBeGreaterThan(100)
      tables.forEach((t, i) => expect(mine[i], t.title ?? String(i)).toEqual(kinds[i]))
    },
    120_000
  )
})

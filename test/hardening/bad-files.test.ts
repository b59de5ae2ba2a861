import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listBadFiles, makeBadFiles, type BadFile } from '../fixtures/bad-files/make'
import { badFileOpener, judge, mapLimited, type OpenOutcome } from './support/bad-files'

const dir = mkdtempSync(join(tmpdir(), 'tableqa-bad-files-'))
const files = listBadFiles(dir)
const outcomes = new Map<string, OpenOutcome>()

// Each file is opened through Workspace.open (import + structure) in its own process, so its memory peak
// is measured alone and a hang is killed instead of stalling the suite.
beforeAll(async () => {
  await makeBadFiles(dir)
  const open = await badFileOpener()
  const big = files.filter((f) => f.maxRssMb >= 1_000)
  for (const file of big) outcomes.set(file.name, await open(file))
  await mapLimited(
    files.filter((f) => !big.includes(f)),
    2,
    async (file) => outcomes.set(file.name, await open(file))
  )
}, 900_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('bad files: each is refused with a specific message or opened sensibly, in bounded time and memory', () => {
  it('has at least 40 files covering the hostile kinds', () => {
    expect(files.length).toBeGreaterThanOrEqual(40)
    const kinds = [
      'truncated',
      'bomb-ratio',
      'bomb-nested',
      'bomb-many-entries',
      'bomb-lying-header',
      'garbage',
      'big-100mb',
      'nested-tables',
      'wrong-',
      'thousand-tables',
      'mixed-encodings',
      'utf16le-no-bom',
      'unicode-edges',
      'unicode-nul-surrogates',
      'macros.xlsm',
      'formulas',
      'billion-laughs',
      'huge-repeat.ods',
      'rowspan-100000',
      'deep-',
      'ten-mb-field',
      'wide-10000',
      'empty',
      'headers-only',
      'one-cell'
    ]
    for (const kind of kinds)
      expect(
        files.some((f) => f.name.includes(kind)),
        kind
      ).toBe(true)
  })

  it.each(files.map((f) => [f.name, f] as [string, BadFile]))('%s', (_name, file) => {
    const outcome = outcomes.get(file.name)
    expect(outcome, file.name).toBeDefined()
    if (outcome === undefined) return
    expect(judge(file, outcome), `${file.what}: ${JSON.stringify(outcome).slice(0, 400)}`).toEqual([])
  })
})

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ok } from '../../../shared/result'
import type { ParsedTable } from '../../../shared/table'
import type { Executor, RunRequest } from '../python/types'
import { runEval, type RunOptions } from './runner'
import type { EvalDataset, EvalQuestion, QuestionRecord } from './types'

const TABLE: ParsedTable = {
  name: 't',
  options: { headerRows: 1, headerCols: 0 },
  columns: [['a']],
  index: [[]],
  values: [['1']],
  columnCells: [null],
  indexCells: [null],
  rowSource: [1],
  colSource: [0],
  topTree: { text: '', cell: null, children: [] },
  leftTree: { text: '', cell: null, children: [] },
  numbers: () => [[1]]
}

/**
 * A scripted executor: a program `say X` answers X; `fail M` fails with message M; `zero C` answers 0
 * with the runtime's note that condition C matched no row.
 */
function fakeExecutor(log: { runs: RunRequest[]; loads: string[]; drops: string[] }): Executor {
  return {
    kind: 'cpython',
    start: () => Promise.resolve(),
    status: () => ({ state: 'ready', pandas: true, pythonVersion: '3' }),
    onStatus: () => () => undefined,
    loadTable: (id) => {
      log.loads.push(id)
      return Promise.resolve()
    },
    dropTable: (id) => {
      log.drops.push(id)
      return Promise.resolve()
    },
    endScope: () => Promise.resolve(),
    stop: () => Promise.resolve(false),
    close: () => Promise.resolve(),
    run: (req) => {
      log.runs.push(req)
      const said = /__eval_run\("say (.*?)"\)/.exec(req.code)
      const failed = /__eval_run\("fail (.*?)"\)/.exec(req.code)
      if (failed)
        return Promise.resolve({
          killed: false,
          qaCalls: 0,
          result: { ok: false, error: { code: 'python-error', message: failed[1] ?? '', stdout: '', stderr: '' } }
        })
      const zero = /__eval_run\("zero (.*?)"\)/.exec(req.code)
      const json = JSON.stringify(
        zero ? { kind: 'scalar', value: 0, unmatched: [zero[1] ?? ''] } : { kind: 'scalar', value: said?.[1] ?? null }
      )
      return Promise.resolve({
        killed: false,
        qaCalls: 0,
        result: {
          ok: true,
          value: { stdout: '', stderr: '', value: { repr: '', type: 'str', json }, truncated: false, durationMs: 1, tableKind: 'pandas' }
        }
      })
    }
  }
}

function question(id: string, tableKey: string, gold: string, unscorable?: string): EvalQuestion {
  const q: EvalQuestion = {
    id,
    question: `q ${id}`,
    tableKey,
    gold: { kind: 'wikitq', values: [gold], canon: null },
    types: { type: gold === 'x' ? 'X' : 'Y' }
  }
  if (unscorable) q.unscorable = unscorable
  return q
}

const DATASET: EvalDataset = {
  id: 'wikitq',
  split: 'dev',
  dir: '/nowhere',
  notes: [],
  questions: [
    question('1', 'A', 'x'),
    question('2', 'B', 'y'),
    question('3', 'A', 'z'),
    question('4', 'C', 'w', 'database missing'),
    question('5', 'B', 'v')
  ],
  loadTables: () => Promise.resolve(ok({ main: TABLE, named: [] }))
}

// Programs: right for 1 and 2, wrong for 3, an API error for 5.
const PROGRAMS: Record<string, string> = { '1': 'say x', '2': 'say Y', '3': 'say q', '5': 'fail HeaderNotFound: No row header matches' }

describe('the evaluation runner', () => {
  let out: string
  let log: { runs: RunRequest[]; loads: string[]; drops: string[] }
  let options: RunOptions
  beforeEach(() => {
    out = mkdtempSync(join(tmpdir(), 'eval-runner-'))
    log = { runs: [], loads: [], drops: [] }
    options = {
      dataset: DATASET,
      source: { name: 'scripted', candidates: (q) => Promise.resolve({ candidates: [{ program: PROGRAMS[q.id] ?? '', lang: 'python' }] }) },
      executor: fakeExecutor(log),
      gold: () => Promise.reject(new Error('not used')),
      out,
      config: { dataset: 'wikitq', endpoint: 'scripted' },
      concurrency: 2,
      select: 'greedy',
      tableRepr: 'multiindex',
      timeoutMs: 1000,
      progress: false
    }
  })
  afterEach(() => rmSync(out, { recursive: true, force: true }))

  it('scores, counts unscorable questions apart, breaks down by type and categorises misses', async () => {
    const s = await runEval(options)
    expect(s).toMatchObject({ questions: 5, scored: 4, correct: 2, ea: 50, unscorable: { count: 1, reasons: { 'database missing': 1 } } })
    expect(s.byType.type).toMatchObject({ X: { questions: 1, correct: 1 }, Y: { questions: 3, correct: 1 } })
    expect(s.misses).toEqual({ model: 1, api: 1 })
    const lines = readFileSync(join(out, 'questions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as QuestionRecord)
    expect(lines).toHaveLength(5)
    expect(lines.find((r) => r.id === '2')).toMatchObject({ program: 'say Y', correct: true, answer: { kind: 'scalar', value: 'Y' } })
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('**EA 50.0 %**')
  })

  it('loads each table once and drops it after its last question', async () => {
    await runEval(options)
    expect(log.loads.sort()).toEqual(['wikitq:A', 'wikitq:B'])
    expect(log.drops.sort()).toEqual(['wikitq:A', 'wikitq:B'])
  })

  it('runs each program with its question, as the app does (the runtime reads labels that name several headers by it)', async () => {
    await runEval(options)
    const questions = new Map(DATASET.questions.map((q) => [q.id, q.question]))
    expect(log.runs.length).toBeGreaterThan(0)
    for (const r of log.runs) expect(r.question).toBe(questions.get(r.scope ?? ''))
  })

  it('resumes: questions already in the log are not asked again', async () => {
    await runEval({ ...options, limit: 2 })
    const first = log.runs.length
    expect(first).toBe(2)
    const s = await runEval(options)
    expect(log.runs.length - first).toBe(2)
    expect(s.questions).toBe(5)
    expect(s.notes.join(' ')).toContain('2 questions were taken from an earlier run')
  })

  it('asks the questions after an offset, in the dataset order, and counts only those', async () => {
    const asked: string[] = []
    const source: RunOptions['source'] = {
      name: 'scripted',
      candidates: (q) => {
        asked.push(q.id)
        return Promise.resolve({ candidates: [{ program: PROGRAMS[q.id] ?? '', lang: 'python' }] })
      }
    }
    const s = await runEval({ ...options, source, offset: 1, limit: 2 })
    expect(asked.sort()).toEqual(['2', '3'])
    expect(s).toMatchObject({ questions: 2, correct: 1 })
    // The folder resumes across ranges: the first question is added, the others are not asked again.
    const t = await runEval({ ...options, source, limit: 3 })
    expect(asked.sort()).toEqual(['1', '2', '3'])
    expect(t).toMatchObject({ questions: 3, correct: 2 })
  })

  it('logs the selection and notes questions decided by a vote because log-probabilities were missing', async () => {
    const source: RunOptions['source'] = {
      name: 'no log-probs',
      candidates: (q) =>
        Promise.resolve({
          candidates: [
            { program: 'say q', lang: 'python' },
            { program: PROGRAMS[q.id] ?? '', lang: 'python' },
            { program: PROGRAMS[q.id] ?? '', lang: 'python' }
          ]
        })
    }
    const s = await runEval({ ...options, source, select: 'logprob', limit: 2 })
    expect(s.correct).toBe(2)
    const lines = readFileSync(join(out, 'questions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as QuestionRecord)
    expect(lines[0]?.selection).toMatchObject({ mode: 'vote', fallbackReason: expect.stringMatching(/no log-probabilities/) as unknown })
    expect(s.notes.join(' ')).toMatch(/^2 questions were selected by vote: The endpoint gave no log-probabilities/)
  })

  it('refuses to resume a run made with another configuration', async () => {
    await runEval({ ...options, limit: 1 })
    await expect(runEval({ ...options, config: { dataset: 'wikitq', endpoint: 'other' } })).rejects.toThrow(/different configuration/)
  })

  it('corrects a failed candidate once with its error, scores every candidate, and reads the kind of each miss', async () => {
    const notes: string[] = []
    const source: RunOptions['source'] = {
      name: 'with repairs',
      candidates: (q) =>
        Promise.resolve({
          candidates: [
            { program: PROGRAMS[q.id] ?? '', lang: 'python' },
            { program: 'fail KeyError: nope', lang: 'python' }
          ],
          repair: (_index, _program, note) => {
            notes.push(note)
            return Promise.resolve(
              note.includes('HeaderNotFound') ? null : { program: `say ${q.id === '1' ? 'x' : 'v'}`, lang: 'python' as const }
            )
          }
        })
    }
    const s = await runEval({ ...options, source, select: 'greedy' })
    const lines = readFileSync(join(out, 'questions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as QuestionRecord)
    const first = lines.find((r) => r.id === '1')
    // The failed second candidate was asked again with its error, ran, and is scored on its own.
    expect(first?.candidates[1]).toMatchObject({
      ok: true,
      correct: true,
      repairedFrom: { program: 'fail KeyError: nope', error: 'KeyError: nope' }
    })
    expect(first?.candidates[0]).toMatchObject({ correct: true })
    expect(notes).toContain('KeyError: nope')
    // Question 5's own program failed and its repair gave nothing: a miss of kind error, named.
    const fifth = lines.find((r) => r.id === '5')
    expect(fifth?.miss).toMatchObject({ kind: 'error', detail: 'HeaderNotFound' })
    expect(fifth?.candidates[1]).toMatchObject({ ok: true, correct: true })
    // Question 3 answered q where z was asked: a text the table does not hold.
    expect(lines.find((r) => r.id === '3')?.miss?.kind).toBe('other')
    expect(s.scored).toBe(4)
  })

  it('corrects a failed correction again, with its own program and error, as many rounds as the source allows', async () => {
    const run = async (repairRounds?: number) => {
      const asked: [number, string, string][] = []
      const source: RunOptions['source'] = {
        name: 'two rounds',
        candidates: () =>
          Promise.resolve({
            candidates: [{ program: 'fail KeyError: a', lang: 'python' }],
            ...(repairRounds === undefined ? {} : { repairRounds }),
            repair: (index, program, note) => {
              asked.push([index, program, note])
              const next = program === 'fail KeyError: a' ? 'fail KeyError: b' : 'say x'
              return Promise.resolve({ program: next, lang: 'python' as const })
            }
          })
      }
      await runEval({ ...options, source, limit: 1 })
      const line = JSON.parse(readFileSync(join(out, 'questions.jsonl'), 'utf8').trim().split('\n')[0] as string) as QuestionRecord
      return { asked, candidate: line.candidates[0] }
    }
    // Without rounds given, one: the correction that failed stays.
    const one = await run()
    expect(one.asked).toEqual([[0, 'fail KeyError: a', 'KeyError: a']])
    expect(one.candidate).toMatchObject({ ok: false, program: 'fail KeyError: b', repairedFrom: { program: 'fail KeyError: a' } })
    rmSync(out, { recursive: true, force: true })
    const two = await run(2)
    expect(two.asked).toEqual([
      [0, 'fail KeyError: a', 'KeyError: a'],
      [0, 'fail KeyError: b', 'KeyError: b']
    ])
    expect(two.candidate).toMatchObject({
      ok: true,
      correct: true,
      program: 'say x',
      repairedFrom: { program: 'fail KeyError: b', error: 'KeyError: b', before: { program: 'fail KeyError: a', error: 'KeyError: a' } }
    })
  })

  it("asks again for a zero answer from a condition that matched no row, with the runtime's note, as the app does", async () => {
    const notes: string[] = []
    const source: RunOptions['source'] = {
      name: 'zero answers',
      candidates: () =>
        Promise.resolve({
          candidates: [{ program: 'zero x == nc matched no row', lang: 'python' }],
          repair: (_index, _program, note) => {
            notes.push(note)
            return Promise.resolve(null)
          }
        })
    }
    await runEval({ ...options, source, limit: 1 })
    expect(notes).toEqual([expect.stringMatching(/^The answer is 0, because x == nc matched no row\. If the question is about rows/)])
  })

  it('asks again for one value that does not fit the question (a number where "who" was asked), as the app does', async () => {
    const notes: string[] = []
    const who: EvalDataset = { ...DATASET, questions: [{ ...question('1', 'A', 'x'), question: 'who received the fewest votes?' }] }
    const source: RunOptions['source'] = {
      name: 'a number for who',
      candidates: () =>
        Promise.resolve({
          candidates: [
            { program: 'say 4874', lang: 'python' },
            { program: 'say x', lang: 'python' }
          ],
          repair: (_index, _program, note) => {
            notes.push(note)
            return Promise.resolve({ program: 'say x', lang: 'python' as const })
          }
        })
    }
    await runEval({ ...options, dataset: who, source })
    // Only the number was asked again; the name fits and was left alone.
    expect(notes).toEqual([expect.stringMatching(/^The answer is "4874", but the question asks who: answer with the name/)])
    const line = JSON.parse(readFileSync(join(out, 'questions.jsonl'), 'utf8').trim()) as QuestionRecord
    expect(line.candidates[0]).toMatchObject({ ok: true, correct: true, repairedFrom: { program: 'say 4874' } })
  })
})

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadDataset, resolveDataDir } from '../../src/main/services/eval/datasets'
import type { CandidateRecord, QuestionRecord } from '../../src/main/services/eval/types'
import { keptSelection, loggedCandidates, run } from '../../scripts/bench/replay'

const work = mkdtempSync(join(tmpdir(), 'tableqa-replay-test-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function record(id: string, candidates: CandidateRecord[], correct: boolean): QuestionRecord {
  return {
    id,
    question: '',
    tableKey: '',
    types: {},
    program: null,
    candidates,
    answer: null,
    gold: null,
    correct,
    error: null,
    timeMs: 1,
    tokens: null
  }
}

describe('npm run bench -- replay', () => {
  it('turns a logged candidate into one the runner takes: its final program and log-probability, or no program', () => {
    expect(
      loggedCandidates(
        record(
          'q',
          [
            { program: 'answer = 1', ok: true, logprobSum: -2, logprobMean: -0.5, repairedFrom: { program: 'x', error: 'E' } },
            { program: '', ok: false }
          ],
          false
        )
      )
    ).toEqual([
      { program: 'answer = 1', lang: 'python', logprobSum: -2, logprobMean: -0.5 },
      { program: '', lang: 'python', error: 'the reply held no program' }
    ])
  })

  it('takes the program a candidate had after the repair rounds asked for', () => {
    const twice = { program: 'b', error: 'E', before: { program: 'a', error: 'E' } }
    const logged = record(
      'q',
      [
        { program: 'c', ok: true, logprobSum: -1, repairedFrom: twice },
        { program: 'z', ok: true, logprobSum: -2 }
      ],
      true
    )
    const programsAt = (rounds?: number) => loggedCandidates(logged, rounds).map((c) => c.program)
    expect(programsAt()).toEqual(['c', 'z'])
    expect(programsAt(0)).toEqual(['a', 'z'])
    expect(programsAt(1)).toEqual(['b', 'z'])
    expect(programsAt(2)).toEqual(['c', 'z'])
    expect(programsAt(3)).toEqual(['c', 'z'])
  })

  it('chooses answers by the rule the kept run used, or the app default when its folder does not say', () => {
    const folder = join(work, 'rules')
    mkdirSync(folder, { recursive: true })
    expect(keptSelection(folder)).toBe('vote')
    writeFileSync(join(folder, 'run.json'), JSON.stringify({ select: 'logprob', n: 5 }))
    expect(keptSelection(folder)).toBe('logprob')
    writeFileSync(join(folder, 'run.json'), JSON.stringify({ select: 'vote' }))
    expect(keptSelection(folder)).toBe('vote')
    writeFileSync(join(folder, 'run.json'), JSON.stringify({ select: 'best guess' }))
    expect(keptSelection(folder)).toBe('vote')
    writeFileSync(join(folder, 'run.json'), '{ cut off')
    expect(keptSelection(folder)).toBe('vote')
  })

  it('runs the logged programs again with this runtime and reports them beside what the run logged', async () => {
    // A kept folder as the model bench writes it, for the first WikiTQ dev question: the most probable
    // program failed when it was logged; the other gives the gold answer as text.
    const first = loadDataset('wikitq', 'dev', resolveDataDir()).questions[0]
    if (first === undefined) throw new Error('no WikiTQ dev question')
    if (first.gold.kind !== 'wikitq') throw new Error('a WikiTQ question has WikiTQ gold')
    const gold = first.gold.values[0] ?? ''
    const keep = join(work, 'keep')
    mkdirSync(join(keep, 'wikitq-dev'), { recursive: true })
    const logged = record(
      first.id,
      [
        { program: 'answer = df.loc["no such row"]', ok: false, error: 'KeyError', logprobSum: -1 },
        { program: `answer = ${JSON.stringify(gold)}`, ok: false, error: 'pretend it failed then', logprobSum: -3 }
      ],
      false
    )
    writeFileSync(join(keep, 'wikitq-dev', 'questions.jsonl'), `${JSON.stringify(logged)}\n`)
    const result = await run(['--keep', keep, '--sample', 'wikitq:1', '--out', join(work, 'out')])
    const replayed = JSON.parse(
      readFileSync(join(work, 'out', 'wikitq-dev', 'questions.jsonl'), 'utf8').split('\n')[0] ?? ''
    ) as QuestionRecord
    // The folder has no run.json: the app's default rule chose, not the paper's.
    expect(replayed.selection?.mode).toBe('vote')
    expect(result.metrics).toMatchObject({
      logged_wikitq_ran_pct: 0,
      logged_wikitq_ea_logprob_pct: 0,
      replay_wikitq_ran_pct: 50,
      replay_wikitq_ea_logprob_pct: 100,
      replay_wikitq_ea_vote_pct: 100,
      replay_ran_pct: 50,
      logged_ran_pct: 0
    })
    await expect(run(['--keep', join(work, 'nowhere')])).rejects.toThrow(/does not exist/)
    await expect(run([])).rejects.toThrow(/give --keep DIR/)
  }, 120_000)
})

import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { datasetsDir } from '../../paths'
import { toValue } from '../score/wikitq'
import { loadDataset } from './index'
import { spiderHardness } from './spider-hardness'

const root = datasetsDir()

describe.runIf(existsSync(root))('dataset loaders (real files)', () => {
  it('reads the WikiTQ splits, with targetCanon for test only', () => {
    const test = loadDataset('wikitq', 'test', root)
    const dev = loadDataset('wikitq', 'dev', root)
    expect(test.questions).toHaveLength(3475)
    expect(dev.questions).toHaveLength(2265)
    expect(test.questions.every((q) => q.gold.kind === 'wikitq' && q.gold.canon !== null)).toBe(true)
    expect(dev.questions.every((q) => q.gold.kind === 'wikitq' && q.gold.canon === null)).toBe(true)
    expect(test.questions[0]).toMatchObject({ id: 'nu-0', tableKey: 'csv/203-csv/733.csv', gold: { values: ['Italy'] } })
  })
  it('finds the 226 WikiTQ test answers whose type depends on the canon (dataset README)', () => {
    const changed = loadDataset('wikitq', 'test', root).questions.filter((q) => {
      if (q.gold.kind !== 'wikitq' || q.gold.canon === null) return false
      const canon = q.gold.canon
      return q.gold.values.some((v, i) => toValue(v, canon[i]).kind !== toValue(v).kind)
    })
    expect(changed).toHaveLength(226)
  })
  it('reads HiTab dev and test with formulas and reference cells, AIT-QA as one set', () => {
    const dev = loadDataset('hitab', 'dev', root)
    expect(dev.questions).toHaveLength(1337)
    expect(loadDataset('hitab', 'test', root).questions).toHaveLength(1267)
    const q = dev.questions.find((x) => x.id === 'b544053c9bb495123167756b751229a9')
    expect(q).toMatchObject({
      tableKey: '651',
      types: { aggregation: 'div', source: 'statcan' },
      gold: { answer: [0.351438], formulas: ['=B5/B6'], referenceCells: { B5: '(2, 1)' } }
    })
    const aitqa = loadDataset('aitqa', 'test', root).questions
    expect(aitqa).toHaveLength(412)
    expect(aitqa.find((x) => x.id === 'q-7')?.gold).toEqual({ kind: 'wikitq', values: ['230,155'], canon: ['230155'] })
    const texts = aitqa.filter((x) => x.gold.kind === 'wikitq' && x.gold.values.includes('Pilots'))
    expect(texts.length).toBeGreaterThan(0)
    for (const x of texts) expect(x.gold).toMatchObject({ canon: ['Pilots'] })
  })
  it('marks the Spider questions of the missing wta_1 database as unscorable', () => {
    const spider = loadDataset('spider', 'dev', root)
    expect(spider.questions).toHaveLength(827)
    expect(spider.questions.filter((q) => q.unscorable !== undefined)).toHaveLength(62)
    expect(spider.questions[0]).toMatchObject({
      tableKey: 'concert_singer',
      gold: { sql: 'SELECT count(*) FROM singer' },
      types: { hardness: 'easy' }
    })
    expect(() => loadDataset('spider', 'test', root)).toThrow(/only a dev split/)
  })
  it('loads a Spider database as named DataFrames whose numbers follow SQLite storage classes', async () => {
    const spider = loadDataset('spider', 'dev', root)
    const set = await spider.loadTables('car_1')
    expect(set.ok).toBe(true)
    if (!set.ok) return
    const cars = set.value.named.find((t) => t.name === 'cars_data')
    expect(cars?.table.columns.map((c) => c[0])).toContain('MPG')
    const at = (name: string): number => cars?.table.columns.findIndex((c) => c[0] === name) ?? -1
    // MPG is stored as text ('18'), so it is text in the frame; Weight is an integer.
    expect(cars?.table.stored?.[at('MPG')]?.kinds.slice(0, 3)).toBe('sss')
    expect(cars?.table.stored?.[at('Weight')]?.kinds.slice(0, 3)).toBe('nnn')
    expect(cars?.table.numbers()[0]?.[at('MPG')]).toBeNull()
  })
})

describe('Spider hardness', () => {
  const unit = (agg = 0): unknown[] => [0, [0, [agg, 1, false], null]]
  const sql = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
    select: [false, [[3, [0, [0, 0, false], null]]]],
    from: { table_units: [['table_unit', 1]], conds: [] },
    where: [],
    groupBy: [],
    having: [],
    orderBy: [],
    limit: null,
    intersect: null,
    union: null,
    except: null,
    ...over
  })
  it('grades by clause counts, aggregates and nesting', () => {
    expect(spiderHardness(sql())).toBe('easy')
    expect(spiderHardness(sql({ where: [[false, 2, unit(), 1, null]], select: [false, [unit(), unit()]] }))).toBe('medium')
    expect(spiderHardness(sql({ where: [[false, 2, unit(), 1, null]], groupBy: [[0, 1, false]], orderBy: ['desc', [unit()]] }))).toBe(
      'hard'
    )
    expect(
      spiderHardness(sql({ where: [[false, 2, unit(), 1, null]], groupBy: [[0, 1, false]], orderBy: ['desc', [unit()]], limit: 1 }))
    ).toBe('extra')
    expect(spiderHardness(sql({ where: [[false, 8, unit(), sql(), null]], groupBy: [[0, 1, false]] }))).toBe('extra')
  })
})

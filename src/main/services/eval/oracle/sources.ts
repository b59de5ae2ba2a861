/**
 * Oracle candidate sources: one program per question built from the gold annotations instead of a model.
 * HiTab: `answer_formulas` over header paths; Spider: the gold SQL through `sqldf` over the database's
 * DataFrames. WikiTQ and AIT-QA have no gold programs.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { hitabCorrect } from '../score/hitab'
import { hmtForm, resultRows } from '../score/index'
import { postprocessPrediction, resultsEquivalent, type SqlRows } from '../score/spider'
import type { GoldQuery } from '../spider-gold'
import type { CandidateSource, EvalDataset, EvalQuestion, MissCategory, ShapedAnswer } from '../types'
import { evaluateOnTexts } from './evaluate'
import { hitabProgram } from './hitab'

export type MissExplanation = { category: MissCategory; evidence: string }

/** A candidate source that can also say why one of its answers was scored wrong. */
export type OracleSource = CandidateSource & {
  explainMiss(q: EvalQuestion, answer: ShapedAnswer): Promise<MissExplanation>
}

export function oracleSource(dataset: EvalDataset, gold: GoldQuery): OracleSource {
  switch (dataset.id) {
    case 'hitab':
      return hitabOracle(dataset)
    case 'spider':
      return spiderOracle(gold)
    case 'wikitq':
    case 'aitqa':
      throw new Error(`${dataset.id} has no gold programs, so it has no oracle mode; use --endpoint NAME or --base-url URL --model NAME.`)
  }
}

/**
 * Whether each HiTab question's gold answer is what its own gold formulas give on the raw grid; null where
 * the formulas cannot be evaluated there. A model's miss on a question whose gold fails this is a gold problem.
 */
export function hitabGoldCheck(dataset: EvalDataset): (q: EvalQuestion) => boolean | null {
  const rawTexts = rawTextsOf(dataset)
  return (q) => {
    if (q.gold.kind !== 'hitab') return null
    let direct
    try {
      direct = evaluateOnTexts(q.gold.formulas, rawTexts(q.tableKey), q.gold.referenceCells)
    } catch {
      return null
    }
    return direct === null ? null : hitabCorrect(q.gold.answer, direct)
  }
}

function rawTextsOf(dataset: EvalDataset): (tableKey: string) => string[][] {
  const texts = new Map<string, string[][]>()
  return (tableKey: string): string[][] => {
    let t = texts.get(tableKey)
    if (t === undefined) {
      const raw = JSON.parse(readFileSync(join(dataset.dir, 'data', 'tables', 'raw', `${tableKey}.json`), 'utf8')) as { texts?: string[][] }
      t = raw.texts ?? []
      texts.set(tableKey, t)
    }
    return t
  }
}

function hitabOracle(dataset: EvalDataset): OracleSource {
  const rawTexts = rawTextsOf(dataset)
  return {
    name: 'oracle',
    trusted: true,
    candidates(q, tables) {
      if (q.gold.kind !== 'hitab' || tables.main === null)
        return Promise.resolve({ candidates: [], error: { category: 'parse', message: 'no table' } })
      const built = hitabProgram(tables.main, q.gold.formulas, q.gold.referenceCells)
      if (!built.ok) return Promise.resolve({ candidates: [], error: { category: 'parse', message: built.error.message } })
      return Promise.resolve({ candidates: [{ program: built.value.program, lang: 'python' }] })
    },
    explainMiss(q, answer) {
      if (q.gold.kind !== 'hitab') return Promise.resolve({ category: 'scorer', evidence: 'not a HiTab question' })
      const direct = evaluateOnTexts(q.gold.formulas, rawTexts(q.tableKey), q.gold.referenceCells)
      const ours = JSON.stringify(hmtForm(answer))
      if (direct !== null && !hitabCorrect(q.gold.answer, direct)) {
        return Promise.resolve({
          category: 'gold-error',
          evidence: `the gold formulas ${JSON.stringify(q.gold.formulas)} evaluated on the raw grid give ${JSON.stringify(direct)}, not the gold answer ${JSON.stringify(q.gold.answer)}; the program gave ${ours}`
        })
      }
      if (direct !== null && looselyEqual(hmtForm(answer), direct)) {
        return Promise.resolve({
          category: 'formatting',
          evidence: `the program gave ${ours}, the raw-grid formula ${JSON.stringify(direct)}: equal up to type or rounding`
        })
      }
      return Promise.resolve({
        category: 'api',
        evidence: `the raw-grid formula gives ${JSON.stringify(direct)} (matching gold ${JSON.stringify(q.gold.answer)}) but the program over header paths gave ${ours}`
      })
    }
  }
}

function looselyEqual(a: unknown, b: unknown): boolean {
  const flat = (x: unknown): string[] => [x].flat(3).map((v) => String(v).trim().toLowerCase().replace(/,/g, ''))
  const fa = flat(a)
  const fb = flat(b)
  return fa.length === fb.length && fa.every((v, i) => v === fb[i] || Math.abs(Number(v) - Number(fb[i])) < 1e-2)
}

function spiderOracle(gold: GoldQuery): OracleSource {
  return {
    name: 'oracle',
    trusted: true,
    candidates(q) {
      if (q.gold.kind !== 'spider') return Promise.resolve({ candidates: [] })
      return Promise.resolve({ candidates: [{ program: q.gold.sql, lang: 'sql' }] })
    },
    async explainMiss(q, answer) {
      if (q.gold.kind !== 'spider' || q.gold.dbPath === null) return { category: 'scorer', evidence: 'no database' }
      if (postprocessPrediction(q.gold.sql) !== q.gold.sql && !q.gold.sql.includes('> =')) {
        return {
          category: 'scorer',
          evidence: `the evaluator's value→1 replacement changes the query to ${postprocessPrediction(q.gold.sql)}`
        }
      }
      const direct = await gold(q.gold.dbPath, q.gold.sql)
      const ours = resultRows(answer)
      const shown = (rows: SqlRows): string => JSON.stringify(rows.slice(0, 5))
      if (!direct.ok) return { category: 'gold-error', evidence: `the gold query fails on the database: ${direct.error.message}` }
      if (resultsEquivalent(direct.value, ours, false)) {
        return topLevelOrderBy(q.gold.sql)
          ? {
              category: 'gold-error',
              evidence: `same rows in another order: the gold ORDER BY leaves ties whose order depends on the query plan; database ${shown(direct.value)}, DataFrames ${shown(ours)}`
            }
          : {
              category: 'scorer',
              evidence: `same rows in another order: ORDER BY appears only inside a subquery, yet the order-by rule makes row order count; database ${shown(direct.value)}, DataFrames ${shown(ours)}`
            }
      }
      const limit = /\blimit\s+\d+\s*;?\s*$/i
      if (limit.test(q.gold.sql)) {
        const unlimited = await gold(q.gold.dbPath, q.gold.sql.replace(limit, ''))
        const keys = new Set(unlimited.ok ? unlimited.value.map((r) => JSON.stringify(r)) : [])
        if (ours.length > 0 && ours.every((r) => keys.has(JSON.stringify(r)))) {
          return {
            category: 'gold-error',
            evidence: `ambiguous gold: ORDER BY … LIMIT over tied values; the database's plan returns ${shown(direct.value)}, the DataFrame copy ${shown(ours)}, which is also in the result without LIMIT`
          }
        }
      }
      const loose = (rows: SqlRows): SqlRows =>
        rows.map((r) => r.map((v) => (v === null ? '' : typeof v === 'number' ? String(Number(v.toPrecision(12))) : String(v))))
      if (resultsEquivalent(loose(direct.value), loose(ours), false)) {
        return {
          category: 'formatting',
          evidence: `same values up to type (text vs number, NULL read as empty text on import): database ${shown(direct.value)}, DataFrames ${shown(ours)}`
        }
      }
      return {
        category: 'execution',
        evidence: `on the database: ${shown(direct.value)} (${direct.value.length} rows); through sqldf on the DataFrames: ${shown(ours)} (${ours.length} rows)`
      }
    }
  }
}

/** Whether ORDER BY appears outside every parenthesised subquery. */
function topLevelOrderBy(sql: string): boolean {
  let depth = 0
  let outside = ''
  for (const ch of sql) {
    if (ch === '(') depth++
    else if (ch === ')') depth = Math.max(0, depth - 1)
    else if (depth === 0) outside += ch
  }
  return /order\s+by/i.test(outside)
}

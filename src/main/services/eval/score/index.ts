/** One entry point for scoring a shaped answer against a question's gold, whatever the dataset. */
import { fail, ok, type Result } from '../../../../shared/result'
import type { GoldQuery } from '../spider-gold'
import type { AnswerCell, EvalQuestion, ShapedAnswer } from '../types'
import { answerStrings } from '../program'
import { hitabCorrect } from './hitab'
import { orderMatters, removeDistinct, resultsEquivalent, type SqlRows } from './spider'
import { wikitqCorrect } from './wikitq'

/** The answer as HiTab's processing sees it: a scalar, a list, or a matrix. */
export function hmtForm(a: ShapedAnswer): unknown {
  switch (a.kind) {
    case 'none':
      return []
    case 'scalar':
      return a.value
    case 'list':
      return a.items
    case 'table':
      return a.rows
  }
}

/** The answer as a result table: a list is one column, a scalar one cell; booleans are Python's 1 and 0. */
export function resultRows(a: ShapedAnswer): SqlRows {
  const cell = (v: AnswerCell): number | string | null => (typeof v === 'boolean' ? (v ? 1 : 0) : v)
  switch (a.kind) {
    case 'none':
      return []
    case 'scalar':
      return [[cell(a.value)]]
    case 'list':
      return a.items.map((v) => [cell(v)])
    case 'table':
      return a.rows.map((r) => r.map(cell))
  }
}

export type ScoreContext = {
  gold: GoldQuery
  /** Whether the chosen candidate was SQL: the test-suite evaluator then removes DISTINCT from both queries. */
  sqlPrediction: boolean
}

export type Score = { correct: boolean; goldShown: unknown }

/** The gold query as the evaluator runs it for this kind of prediction. */
export function spiderGoldSql(sql: string, sqlPrediction: boolean): string {
  return sqlPrediction ? removeDistinct(sql) : sql
}

export async function scoreAnswer(q: EvalQuestion, answer: ShapedAnswer, ctx: ScoreContext): Promise<Result<Score>> {
  const gold = q.gold
  switch (gold.kind) {
    case 'wikitq':
      return ok({ correct: wikitqCorrect(gold.values, gold.canon, answerStrings(answer)), goldShown: gold.values })
    case 'hitab':
      return ok({ correct: hitabCorrect(gold.answer, hmtForm(answer)), goldShown: gold.answer })
    case 'spider': {
      if (gold.dbPath === null) return fail('not-found', `database ${gold.dbId} is missing`)
      const sql = spiderGoldSql(gold.sql, ctx.sqlPrediction)
      const rows = await ctx.gold(gold.dbPath, sql)
      if (!rows.ok) return fail('bad-input', `the gold query does not execute: ${rows.error.message}`)
      return ok({ correct: resultsEquivalent(rows.value, resultRows(answer), orderMatters(sql)), goldShown: rows.value.slice(0, 20) })
    }
  }
}

/**
 * Gold queries run as the test-suite evaluator runs them: Python's `sqlite3` on the database file (here
 * through the CPython executor, so the SQLite version is the one the prediction's `sqldf` uses), text
 * decoded with invalid bytes ignored, `YEAR(CURDATE())` as 2020, a 60 s limit. Results are cached.
 */
import { fail, ok, type Result } from '../../../shared/result'
import type { Executor } from '../python/types'
import { replaceCurrentYear, type SqlRows } from './score/spider'

export type GoldQuery = (dbPath: string, sql: string) => Promise<Result<SqlRows>>

function program(dbPath: string, sql: string): string {
  return [
    'import json, sqlite3',
    `_con = sqlite3.connect(${JSON.stringify(`file:${dbPath}?mode=ro`)}, uri=True)`,
    '_con.text_factory = lambda b: b.decode(errors="ignore")',
    'try:',
    `    _rows = _con.execute(${JSON.stringify(sql)}).fetchall()`,
    'finally:',
    '    _con.close()',
    'json.dumps([[c.hex() if isinstance(c, bytes) else c for c in r] for r in _rows])',
    ''
  ].join('\n')
}

export function goldQuery(executor: Executor, timeoutMs = 60_000): GoldQuery {
  const cache = new Map<string, Promise<Result<SqlRows>>>()
  let n = 0
  return (dbPath, sql) => {
    const key = `${dbPath}\u0000${sql}`
    let p = cache.get(key)
    if (p === undefined) {
      p = executor
        // The app's own program over gold SQL: trusted, so it reuses a clean interpreter instead of using one up.
        .run({ runId: `gold-${n++}`, code: program(dbPath, replaceCurrentYear(sql)), tableId: null, timeoutMs, trusted: true })
        .then(({ result }) => {
          if (!result.ok) return fail('bad-input', result.error.message)
          const json = result.value.value?.json
          return typeof json === 'string' ? ok(JSON.parse(json) as SqlRows) : fail('bad-input', 'the gold query gave no rows')
        })
      cache.set(key, p)
    }
    return p
  }
}

import type { RunRecord } from '../../src/shared/python'
import type { AskSummary } from '../../src/shared/ask'

/** A finished question as the pipeline reports it, for tests. */
export function askSummary(question: string, answer: string, extra: Partial<AskSummary> = {}): AskSummary {
  return {
    askId: `ask-${question.length}-${answer}`,
    question,
    answer: { items: [{ value: answer, type: 'string' }], text: answer, cells: [{ row: 2, col: 1 }] },
    program: `answer = ${JSON.stringify(answer)}`,
    chosen: 0,
    candidates: [
      {
        index: 0,
        program: `answer = ${JSON.stringify(answer)}`,
        logprobSum: -1.25,
        logprobMean: -0.1,
        result: { ok: true, answer: { items: [{ value: answer, type: 'string' }], text: answer, cells: [] } },
        answerKey: answer,
        qaCalls: 0,
        durationMs: 12
      },
      {
        index: 1,
        program: 'answer = 1/0',
        logprobSum: -3.5,
        logprobMean: -0.3,
        result: { ok: false, error: { code: 'python-error', message: 'ZeroDivisionError: division by zero' } },
        answerKey: null,
        qaCalls: 0,
        durationMs: 9
      }
    ],
    selection: { mode: 'logprob', requested: 'logprob', score: 'sum', ranking: [0, 1] },
    qaCalls: 0,
    promptTokens: 800,
    promptVersion: 1,
    kind: 'relational',
    executor: 'pyodide',
    endpoint: { name: 'Local', model: 'test-model', api: 'chat' },
    notes: [],
    timings: { promptMs: 1, generateMs: 20, executeMs: 30, totalMs: 51 },
    ...extra
  }
}

export function runRecord(code: string, repr: string): RunRecord {
  return {
    id: `run-${code.length}`,
    code,
    tableName: 'scores.csv',
    startedAt: '2024-05-01T10:00:00.000Z',
    result: {
      ok: true,
      value: { stdout: '', stderr: '', value: { repr, type: 'int' }, truncated: false, durationMs: 3, tableKind: 'rows' }
    }
  }
}

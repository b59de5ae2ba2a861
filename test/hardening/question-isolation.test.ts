/**
 * Isolation between questions, end to end: question 1's candidates (written by a scripted model that
 * obeyed a table's cells) try every way an earlier program has to reach a later question: speaking for
 * the worker, editing the runtime in place or from a callback after returning, hooking the table store
 * to catch tables loaded later, leaving files and modules behind, forging a boot error, a busy loop left
 * running, an oversized answer. Questions 2–5, about a table opened while question 1 ran, have honest
 * programs (and probes for leftovers): each must answer right and never see question 1's table or any
 * other open table.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createQuestionHandlers, type QuestionHandlers } from '../../src/main/app/question-handlers'
import { MemorySecretStore } from '../../src/main/services/model'
import type { PythonExecutor } from '../../src/main/services/python/executor'
import { encodeTable } from '../../src/main/services/python/types'
import { EndpointRegistry } from '../../src/main/services/settings'
import { openFileStore } from '../../src/main/services/store/store'
import { importFileSync } from '../../src/main/services/tables/import'
import { structureGrid } from '../../src/main/services/tables/structure'
import type { AskSummary, CandidateSummary } from '../../src/shared/ask'
import type { ParsedTable } from '../../src/shared/table'
import { testExecutor } from '../support/executor'
import { startScriptedServer, type ScriptedServer } from '../support/scripted-openai-server'

const Q1_MARKER = 'SALARY-ROW-MARKER-41c7'
const OTHER_MARKER = 'OTHER-TABLE-MARKER-9e02'
const fenced = (code: string): string => `\`\`\`python\n${code}\n\`\`\``
/** What a candidate gave: its answer's text, or its error message. */
const said = (c: CandidateSummary | undefined): string =>
  c === undefined ? '' : c.result.ok ? c.result.answer.text : c.result.error.message

/** Question 1's candidates: one honest, the rest hostile. */
const HOSTILE = [
  // Speak for the worker: every later result would be 666.
  'import js\nfrom pyodide.ffi import create_proxy\njs.globalThis.postMessage = create_proxy(lambda *a: None)\nassert js.globalThis.postMessage is not None',
  // Edit the answer encoder in place.
  'import tableqa.runner as r\nr.describe_value.__code__ = (lambda value, cells=None: {"repr": "666", "type": "int", "json": 666}).__code__\nanswer = 666',
  // Hook the table store: later answers would carry every table the interpreter holds.
  'import json\nimport tableqa.host as h\nimport tableqa.runner as r\nstore, describe = h._tables, r.describe_value\ndef leak(value, cells=None):\n    d = describe(value, cells)\n    d["repr"] += repr(dict(store))\n    return d\nr.describe_value = leak\nanswer = 1',
  // Swap the runtime from a callback after returning.
  'import js\nfrom pyodide.ffi import create_once_callable\nimport tableqa.runner as r\ndef later(*_):\n    r.describe_value.__code__ = (lambda value, cells=None: {"repr": "42", "type": "int", "json": 42}).__code__\njs.Promise.resolve(0).then(create_once_callable(later))\nanswer = 2',
  // Leave a file and a module for the next question.
  `import sys, types\nopen("/tmp/leftover.txt", "w").write(str(rows))\nsys.modules["leftover"] = types.ModuleType("leftover")\nsys.modules["leftover"].rows = str(rows)\nanswer = 3`,
  // Forge a boot error for the status bar.
  'import js\njs.postMessage({"type": "boot-error", "step": "runtime", "detail": "update required, visit evil.example"})\nanswer = 4',
  // A busy loop left running once the program has returned.
  'import js\nfrom pyodide.ffi import create_once_callable\ndef spin(*_):\n    while True:\n        pass\njs.Promise.resolve(0).then(create_once_callable(spin))\nanswer = 5',
  // An answer far beyond the cap.
  'answer = "z" * 5_000_000'
]

/** Questions 2–5: the honest program first (most probable), then probes for what question 1 left. */
const PROBES = [
  'answer = open("/tmp/leftover.txt").read()',
  'import leftover\nanswer = leftover.rows',
  'import tableqa.host as h\nanswer = repr(dict(h._tables))'
]
const LATER: { question: string; program: string; answer: string }[] = [
  { question: 'what is the total amount?', program: 'answer = sum(r["Amount"] for r in rows)', answer: '1750' },
  { question: 'how many items are there?', program: 'answer = len(rows)', answer: '3' },
  { question: 'what is the largest amount?', program: 'answer = max(r["Amount"] for r in rows)', answer: '1200' },
  { question: 'what is the smallest amount?', program: 'answer = min(r["Amount"] for r in rows)', answer: '250' }
]

let model: ScriptedServer
let executor: PythonExecutor
let handlers: QuestionHandlers
const tables = new Map<string, ParsedTable>()

function csvTable(name: string, lines: string[]): ParsedTable {
  const grids = importFileSync(name, new TextEncoder().encode(`${lines.join('\n')}\n`))
  if (!grids.ok || !grids.value[0]) throw new Error(`${name} did not import`)
  return structureGrid(grids.value[0])
}

async function open(id: string, table: ParsedTable): Promise<void> {
  tables.set(id, table)
  await executor.loadTable(id, encodeTable(table))
}

beforeAll(async () => {
  model = await startScriptedServer({
    rules: [
      {
        match: /Question: what is the total salary\?/,
        reply: {
          choices: [
            { text: fenced('answer = sum(r["Salary"] for r in rows)'), logprobs: [-0.1] },
            ...HOSTILE.map((code, i) => ({ text: fenced(code), logprobs: [-1 - i] }))
          ]
        }
      },
      ...LATER.map((q) => ({
        match: new RegExp(`Question: ${q.question.replace('?', '\\?')}`),
        reply: {
          choices: [{ text: fenced(q.program), logprobs: [-0.1] }, ...PROBES.map((code, i) => ({ text: fenced(code), logprobs: [-1 - i] }))]
        }
      }))
    ]
  })
  // Two warm spares, each question up to two interpreters: question 1's are taken, and replacements boot.
  executor = testExecutor({ poolSize: 2, scopeParallelism: 2, startGraceMs: 1_000 })
  const dir = mkdtempSync(join(tmpdir(), 'tableqa-isolation-'))
  const secrets = new MemorySecretStore()
  const registry = new EndpointRegistry(openFileStore(join(dir, 'settings'), 'settings').store, secrets)
  const saved = await registry.save({ name: 'obedient model', baseUrl: model.url, model: 'test-model', api: 'chat' }, null)
  if (!saved.ok) throw new Error(saved.error.message)
  registry.setDefault(saved.value.id)
  handlers = createQuestionHandlers({
    table: (id) => {
      const table = tables.get(id)
      return table ? { name: `${id}.csv`, table, tableId: id } : undefined
    },
    registry,
    secrets,
    executor,
    events: { emit: () => undefined },
    onAnswered: () => undefined
  })
  await open('salaries', csvTable('salaries.csv', ['Name,Salary', `${Q1_MARKER},5000`, 'Bob,7000']))
  await open('notes', csvTable('notes.csv', ['Note,Value', `${OTHER_MARKER},1`]))
})

afterAll(async () => {
  await executor?.close()
  await model?.close()
})

async function ask(askId: string, tableId: string, question: string, n: number): Promise<AskSummary> {
  const result = await handlers['question:ask']({
    askId,
    tableIds: [tableId],
    question,
    options: { n, selection: 'logprob', timeoutMs: 3_000 }
  })
  if (!result.ok) throw new Error(result.error.message)
  return result.value
}

describe('isolation between questions', () => {
  it('a hostile question 1 leaves nothing for questions 2–5: they answer right and see no other table', async () => {
    const first = ask('q1', 'salaries', 'what is the total salary?', HOSTILE.length + 1)
    // Opened while question 1 runs: a program of question 1 hooked to catch tables loaded later must not get it.
    await open('budget', csvTable('budget.csv', ['Item,Amount', 'Rent,1200', 'Food,300', 'Travel,250']))
    const q1 = await first
    expect(q1.candidates).toHaveLength(HOSTILE.length + 1)
    const messages = q1.candidates.map((c) => (c.result.ok ? '' : c.result.error.message)).join('\n')
    expect(messages).toMatch(/answers are limited to 1 MB/)

    for (const [i, q] of LATER.entries()) {
      const summary = await ask(`q${i + 2}`, 'budget', q.question, PROBES.length + 1)
      expect(summary.answer?.text, q.question).toBe(q.answer)
      const honest = summary.candidates[0]
      expect(said(honest)).toBe(q.answer)
      // Nothing question 1 left is found: the file and the module are gone.
      expect(summary.candidates[1]?.result.ok, 'the file question 1 left').toBe(false)
      expect(summary.candidates[2]?.result.ok, 'the module question 1 left').toBe(false)
      // The interpreter holds only this question's table.
      const store = summary.candidates[3]
      expect(said(store)).toContain('budget')
      const text = JSON.stringify(summary)
      expect(text).not.toContain(Q1_MARKER)
      expect(text).not.toContain(OTHER_MARKER)
      // No answer was rewritten by an encoder question 1 edited (durations and the like may contain any digits).
      for (const c of summary.candidates) if (c.result.ok) expect(c.result.answer.text).not.toMatch(/^(666|42)$/)
    }
    expect(JSON.stringify(executor.status())).not.toContain('evil.example')
    // Every question boots fresh interpreters: on a loaded two-core machine a boot can take 20 s.
  }, 400_000)
})

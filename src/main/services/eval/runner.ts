/**
 * The evaluation loop: questions grouped by table (each table loaded into the executor once and dropped
 * after its last question), candidates from a pluggable source, every candidate run through the same
 * wrapper and executor, one selected, scored with the dataset's official rules, logged as JSONL. A run
 * resumes: questions already in the log of the same output folder are not asked again.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { SelectionMode } from '../../../shared/model'
import type { RepairedFrom } from '../../../shared/ask'
import type { IndexView } from '../../../shared/table'
import { DEFAULTS as ASK_DEFAULTS } from '../pipeline/generate'
import { selectCandidate } from '../pipeline/select'
import { misfitNote, preferFitting } from '../pipeline/answer-fit'
import { repairInRounds, repairNote, type RunShape } from '../pipeline/repair'
import { inView } from '../tables/structure'
import { encodeTable, type Executor } from '../python/types'
import { postprocessPrediction, removeDistinct, replaceCurrentYear } from './score/spider'
import { scoreAnswer } from './score/index'
import { answerStrings, readWrapped, sqlProgram, wrapProgram, type ShapedNotes } from './program'
import { progressBar } from './progress'
import type { GoldQuery } from './spider-gold'
import { summarize, summaryMarkdown, type RunSummary } from './summary'
import type {
  CandidateProgram,
  CandidateRecord,
  CandidateSet,
  CandidateSource,
  EvalDataset,
  EvalQuestion,
  MissCategory,
  MissKind,
  NamedTable,
  QuestionRecord,
  ShapedAnswer,
  TableSet
} from './types'
import { answerGist, answerSize, isEmptyAnswer, voteOf } from './types'
import type { MissExplanation } from './oracle/sources'
import { missKind, tableTexts } from './miss-kind'

export type RunOptions = {
  dataset: EvalDataset
  source: CandidateSource & { explainMiss?(q: EvalQuestion, a: ShapedAnswer): Promise<MissExplanation> }
  executor: Executor
  gold: GoldQuery
  out: string
  /** Written to run.json; a resumed run must have the same. */
  config: Record<string, string | number>
  /** The first `offset` questions of the split are left out; then at most `limit` are asked. */
  offset?: number
  limit?: number
  concurrency: number
  select: SelectionMode
  tableRepr: IndexView
  /** Per program, ms (the test-suite evaluator allows 60 s per query). */
  timeoutMs: number
  /**
   * Whether a question's gold answer is supported by its own annotation (HiTab: the gold formulas on the
   * raw grid); null when there is nothing to check it against. A miss on an unsupported gold is a gold problem.
   */
  goldCheck?: (q: EvalQuestion) => boolean | null
  progress?: boolean
}

type Executed = {
  candidate: CandidateProgram
  repairedFrom?: RepairedFrom
  ok: boolean
  answer?: ShapedAnswer
  /** What came with the answer for execution feedback: labels of its values, conditions that matched no row. */
  notes?: ShapedNotes
  error?: string
  code: string
  sqlChanged: boolean
  qaCalls: number
}

// The same view of the table as the generation pipeline gives the model (pipeline/tables.ts).
function tablePayload(t: NamedTable['table'], repr: RunOptions['tableRepr']): Uint8Array {
  return encodeTable(inView(t, repr))
}

/** Tables in the executor, loaded on first use and dropped after the last question that needs them. */
class TableCache {
  private readonly loaded = new Map<
    string,
    Promise<{ set: TableSet | null; error?: string; ids: { main: string | null; named: { name: string; tableId: string }[] } }>
  >()
  private readonly remaining = new Map<string, number>()

  constructor(
    private readonly o: RunOptions,
    questions: EvalQuestion[]
  ) {
    for (const q of questions) this.remaining.set(q.tableKey, (this.remaining.get(q.tableKey) ?? 0) + 1)
  }

  get(key: string): ReturnType<TableCache['load']> {
    let p = this.loaded.get(key)
    if (p === undefined) {
      p = this.load(key)
      this.loaded.set(key, p)
    }
    return p
  }

  private async load(
    key: string
  ): Promise<{ set: TableSet | null; error?: string; ids: { main: string | null; named: { name: string; tableId: string }[] } }> {
    const set = await this.o.dataset.loadTables(key)
    if (!set.ok) return { set: null, error: set.error.message, ids: { main: null, named: [] } }
    const prefix = `${this.o.dataset.id}:${key}`
    const main = set.value.main === null ? null : prefix
    if (set.value.main !== null) await this.o.executor.loadTable(prefix, tablePayload(set.value.main, this.o.tableRepr))
    const named: { name: string; tableId: string }[] = []
    for (const t of set.value.named) {
      const tableId = `${prefix}:${t.name}`
      await this.o.executor.loadTable(tableId, tablePayload(t.table, this.o.tableRepr))
      named.push({ name: t.name, tableId })
    }
    return { set: set.value, ids: { main, named } }
  }

  async release(key: string): Promise<void> {
    const n = (this.remaining.get(key) ?? 1) - 1
    this.remaining.set(key, n)
    if (n > 0) return
    const entry = await this.loaded.get(key)
    this.loaded.delete(key)
    if (entry === undefined) return
    if (entry.ids.main !== null) await this.o.executor.dropTable(entry.ids.main)
    for (const t of entry.ids.named) await this.o.executor.dropTable(t.tableId)
  }
}

function readLog(path: string): QuestionRecord[] {
  if (!existsSync(path)) return []
  const out: QuestionRecord[] = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    try {
      out.push(JSON.parse(line) as QuestionRecord)
    } catch {
      // A line cut off by an interrupted run: that question is asked again.
    }
  }
  return out
}

function checkConfig(out: string, config: Record<string, string | number>): void {
  const path = join(out, 'run.json')
  const want = JSON.stringify(config)
  if (existsSync(path)) {
    const have = readFileSync(path, 'utf8').trim()
    if (have !== want) throw new Error(`${out} holds a run with a different configuration (${have}); use another --out to start a new run.`)
    return
  }
  writeFileSync(path, `${want}\n`)
}

function errorCategory(message: string): MissCategory {
  if (/HeaderNotFound|AmbiguousHeader|No row has/.test(message)) return 'api'
  return 'execution'
}

async function execute(
  o: RunOptions,
  q: EvalQuestion,
  set: CandidateSet,
  c: CandidateProgram,
  ids: { main: string | null; named: { name: string; tableId: string }[] },
  runId: string
): Promise<Executed> {
  if (c.error !== undefined) return { candidate: c, ok: false, error: c.error, code: c.program, sqlChanged: false, qaCalls: 0 }
  let code = c.program
  let sqlChanged = false
  if (c.lang === 'sql') {
    let sql = c.program
    if (q.gold.kind === 'spider') {
      sql = replaceCurrentYear(removeDistinct(postprocessPrediction(sql)))
      sqlChanged = sql !== c.program
    }
    code = sqlProgram(sql)
  }
  const qa = set.qa === undefined ? {} : { qa: set.qa, ...(set.maxQaCalls === undefined ? {} : { maxQaCalls: set.maxQaCalls }) }
  const { result, qaCalls } = await o.executor.run({
    runId,
    code: wrapProgram(code),
    tableId: ids.main,
    namedTables: ids.named,
    timeoutMs: o.timeoutMs,
    ...qa,
    question: q.question,
    // A model's programs are one question's: its interpreters serve no other. Gold programs are the app's own.
    ...(o.source.trusted === true ? { trusted: true } : { scope: q.id })
  })
  if (!result.ok) return { candidate: c, ok: false, error: result.error.message, code, sqlChanged, qaCalls }
  const { answer, notes } = readWrapped(result.value.value?.json)
  if (answer === null) return { candidate: c, ok: false, error: 'the program gave no readable answer', code, sqlChanged, qaCalls }
  return { candidate: c, ok: true, answer, notes, code, sqlChanged, qaCalls }
}

function candidateRecord(r: Executed, correct: boolean | null): CandidateRecord {
  const c = r.candidate
  return {
    ...(correct === null ? {} : { correct }),
    program: c.program,
    lang: c.lang,
    ok: r.ok,
    ...(r.answer === undefined ? {} : { answer: r.answer }),
    ...(r.error === undefined ? {} : { error: r.error }),
    logprobSum: c.logprobSum ?? null,
    logprobMean: c.logprobMean ?? null,
    tokens: c.tokens ?? null,
    qaCalls: r.qaCalls,
    ...(r.repairedFrom === undefined ? {} : { repairedFrom: r.repairedFrom })
  }
}

/** What a run came to, for execution feedback. */
function runShape(question: string, r: Executed): RunShape {
  if (!r.ok || r.answer === undefined) return { failed: r.error ?? 'the program failed' }
  const a = r.answer
  const unmatched = r.notes?.unmatched ?? []
  if (unmatched.length > 0) return { unmatched, answer: isEmptyAnswer(a) ? 'empty' : answerStrings(a).join(', ') }
  if (isEmptyAnswer(a)) return { empty: true }
  const misfit = misfitNote(question, answerGist(a))
  if (misfit !== null) return { misfit }
  // A list (or a Series) is one column of values.
  if (a.kind === 'table' || a.kind === 'list') {
    const values = a.kind === 'list' ? a.items : a.rows.length === 1 ? (a.rows[0] ?? []) : []
    const reads = a.kind === 'list' ? (r.notes?.reads ?? []) : []
    const labelled = (r.notes?.labels ?? []).flatMap((label, k) =>
      k < values.length ? [{ label, value: values[k] ?? null, ...(reads[k] === undefined ? {} : { read: reads[k] }) }] : []
    )
    return {
      table: {
        rows: a.kind === 'table' ? a.rows.length : a.items.length,
        cells: answerSize(a),
        ...(labelled.length > 0 ? { labelled } : {})
      }
    }
  }
  return { fine: true }
}

async function askOne(o: RunOptions, q: EvalQuestion, tables: TableCache): Promise<QuestionRecord> {
  const t0 = performance.now()
  const base = {
    id: q.id,
    question: q.question,
    tableKey: q.tableKey,
    types: q.types,
    gold: q.gold.kind === 'spider' ? q.gold.sql : q.gold.kind === 'hitab' ? q.gold.answer : q.gold.values
  }
  const record = (rest: Partial<QuestionRecord>): QuestionRecord => ({
    ...base,
    program: null,
    candidates: [],
    answer: null,
    correct: false,
    error: null,
    tokens: null,
    ...rest,
    timeMs: Math.round(performance.now() - t0)
  })
  if (q.unscorable !== undefined) return record({ unscorable: q.unscorable })
  const loaded = await tables.get(q.tableKey)
  if (loaded.set === null)
    return record({
      error: loaded.error ?? 'table not loaded',
      miss: { category: 'parse', evidence: `the table could not be imported: ${loaded.error ?? ''}` }
    })
  // Each candidate runs as soon as it is known, as in the app; the first to finish marks the first answer.
  const started = new Map<number, Promise<Executed>>()
  let firstRunMs: number | undefined
  const run = (k: number, c: CandidateProgram, s: CandidateSet): Promise<Executed> =>
    execute(o, q, s, c, loaded.ids, `${q.id}#${k}`).then((r) => {
      if (c.error === undefined) firstRunMs ??= Math.round(performance.now() - t0)
      return r
    })
  // The candidates' `qa(...)` calls are answered once the set is known; until then a run waits for it.
  let setKnown: (s: CandidateSet) => void = () => undefined
  const pendingSet = new Promise<CandidateSet>((r) => (setKnown = r))
  const lazy: CandidateSet = {
    candidates: [],
    qa: async (request) => (await pendingSet).qa?.(request) ?? { ok: false, error: { code: 'bad-input', message: 'No qa() here.' } }
  }
  const set = await o.source.candidates(q, loaded.set, undefined, (k, c) => {
    if (!started.has(k)) started.set(k, run(k, c, lazy))
  })
  lazy.maxQaCalls = set.maxQaCalls
  setKnown(set)
  const notes = set.notes === undefined || set.notes.length === 0 ? {} : { notes: set.notes }
  if (set.error !== undefined || set.candidates.length === 0) {
    const message = set.error?.message ?? 'no candidates'
    return record({
      error: message,
      tokens: set.tokens ?? null,
      qaCalls: 0,
      ...notes,
      miss: { category: set.error?.category ?? 'model', evidence: message }
    })
  }
  // Side by side: the executor runs as many at once as the question may use.
  let runs: Executed[]
  try {
    runs = await Promise.all(set.candidates.map((c, k) => started.get(k) ?? run(k, c, set)))
    // Execution feedback: each failed program is corrected with its error, and a correction that fails
    // too is corrected again with its own, up to the source's rounds.
    const repair = set.repair
    if (repair !== undefined)
      runs = await repairInRounds(runs, set.repairRounds ?? ASK_DEFAULTS.repairRounds, async (r, k, round) => {
        const note = r.candidate.program === '' ? null : repairNote(q.question, runShape(q.question, r))
        if (note === null) return null
        const fixed = await repair(k, r.candidate.program, note)
        if (fixed === null) return null
        const from = { program: r.candidate.program, error: note, ...(r.repairedFrom === undefined ? {} : { before: r.repairedFrom }) }
        return { ...(await execute(o, q, set, fixed, loaded.ids, `${q.id}#${k}r${round === 1 ? '' : round}`)), repairedFrom: from }
      })
  } finally {
    if (o.source.trusted !== true) await o.executor.endScope(q.id)
  }
  const chosen = selectCandidate(
    preferFitting(
      runs.map((r) => ({
        program: r.candidate.program,
        logprobSum: r.candidate.logprobSum ?? null,
        logprobMean: r.candidate.logprobMean ?? null,
        exec: voteOf(r.ok, r.answer)
      })),
      runs.map((r) => (r.ok ? answerGist(r.answer) : { size: 0 })),
      q.question
    ).candidates,
    { mode: o.select }
  )
  const pickIndex = chosen.ok ? chosen.value.index : 0
  const pick = runs[pickIndex] as Executed
  // Every candidate that ran is scored, so that other selection rules can be compared on the same log.
  const scores = await Promise.all(
    runs.map((r) =>
      r.ok && r.answer !== undefined
        ? scoreAnswer(q, r.answer, { gold: o.gold, sqlPrediction: r.candidate.lang === 'sql' })
        : Promise.resolve(null)
    )
  )
  const candidates = runs.map((r, k) => {
    const score = scores[k]
    return candidateRecord(r, score === null || score === undefined ? null : score.ok ? score.value.correct : false)
  })
  const selection = chosen.ok
    ? {
        selection: {
          mode: chosen.value.mode,
          ...(chosen.value.fallbackReason === undefined ? {} : { fallbackReason: chosen.value.fallbackReason })
        }
      }
    : {}
  const common = {
    program: pick.candidate.program,
    candidates,
    ...(firstRunMs === undefined ? {} : { firstRunMs }),
    ...(set.engine === undefined ? {} : { engine: set.engine }),
    tokens: set.tokens ?? null,
    qaCalls: runs.reduce((n, r) => n + r.qaCalls, 0),
    ...selection,
    ...notes
  }
  const reading = (answer: ShapedAnswer | null, goldSuspect = false): { kind: MissKind; detail?: string } =>
    missKind({
      candidates,
      chosen: candidates[pickIndex] ?? null,
      answer,
      gold: q.gold.kind === 'wikitq' ? q.gold.values : q.gold.kind === 'hitab' ? q.gold.answer : null,
      texts: tableTexts(loaded.set as TableSet),
      goldSuspect
    })
  if (!pick.ok || pick.answer === undefined) {
    const message = pick.error ?? 'failed'
    return record({ ...common, error: message, miss: { category: errorCategory(message), evidence: message, ...reading(null) } })
  }
  const score = scores[pickIndex]
  if (score === null || score === undefined || !score.ok)
    return record({
      ...common,
      answer: pick.answer,
      error: score?.ok === false ? score.error.message : 'not scored',
      miss: { category: 'gold-error', evidence: score?.ok === false ? score.error.message : 'not scored', kind: 'gold-problem' }
    })
  if (score.value.correct) return record({ ...common, answer: pick.answer, correct: true })
  const miss = o.source.explainMiss
    ? await o.source.explainMiss(q, pick.answer)
    : { category: 'model' as const, evidence: `answer ${JSON.stringify(pick.answer).slice(0, 300)}` }
  const suspect = o.goldCheck?.(q) === false
  return record({ ...common, answer: pick.answer, miss: { ...miss, ...reading(pick.answer, suspect || miss.category === 'gold-error') } })
}

export async function runEval(o: RunOptions): Promise<RunSummary> {
  mkdirSync(o.out, { recursive: true })
  checkConfig(o.out, o.config)
  const logPath = join(o.out, 'questions.jsonl')
  const from = o.offset ?? 0
  const questions = o.dataset.questions.slice(from, o.limit === undefined ? undefined : from + o.limit)
  const wanted = new Set(questions.map((q) => q.id))
  const previous = new Map(
    readLog(logPath)
      .filter((r) => wanted.has(r.id))
      .map((r) => [r.id, r])
  )
  // Grouped by table, in order of first appearance, so each table is loaded once and then dropped.
  const order = new Map<string, number>()
  for (const q of questions) if (!order.has(q.tableKey)) order.set(q.tableKey, order.size)
  const todo = questions.filter((q) => !previous.has(q.id)).sort((a, b) => (order.get(a.tableKey) ?? 0) - (order.get(b.tableKey) ?? 0))
  const tables = new TableCache(o, todo)
  const bar = o.progress === false ? null : progressBar(todo.length, `${o.dataset.id} ${o.dataset.split}`)
  const started = performance.now()
  let next = 0
  const fresh: QuestionRecord[] = []
  const worker = async (): Promise<void> => {
    for (let i = next++; i < todo.length; i = next++) {
      const q = todo[i] as EvalQuestion
      let rec: QuestionRecord
      try {
        rec = await askOne(o, q, tables)
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e)
        rec = {
          id: q.id,
          question: q.question,
          tableKey: q.tableKey,
          types: q.types,
          program: null,
          candidates: [],
          answer: null,
          gold: null,
          correct: false,
          error: message,
          miss: { category: 'execution', evidence: message },
          timeMs: 0,
          tokens: null
        }
      }
      await tables.release(q.tableKey)
      appendFileSync(logPath, `${JSON.stringify(rec)}\n`)
      fresh.push(rec)
      bar?.tick(rec.correct)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, worker))
  bar?.done()
  const seconds = (performance.now() - started) / 1000
  const byId = new Map([...previous, ...fresh.map((r) => [r.id, r] as const)])
  const records = questions.map((q) => byId.get(q.id)).filter((r): r is QuestionRecord => r !== undefined)
  const summary = summarize(records, {
    dataset: o.dataset.id,
    split: o.dataset.split,
    endpoint: o.source.name,
    config: o.config,
    seconds: todo.length > 0 ? seconds : 0,
    notes: [
      ...o.dataset.notes,
      ...(previous.size > 0 ? [`${previous.size} questions were taken from an earlier run in the same folder.`] : [])
    ]
  })
  writeFileSync(join(o.out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`)
  writeFileSync(join(o.out, 'summary.md'), `${summaryMarkdown(summary)}\n`)
  return summary
}

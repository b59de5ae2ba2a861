/**
 * Builds the prompt for one question: instructions with the API guidelines and documentation, worked
 * examples for the input's kind, where the profile asks for them worked examples of the question's form,
 * then each table (pandas view + header tuples, cut to the token budget) and the question. Two forms of
 * the same content: one completion text that ends inside an open code block (StarCoder-class models
 * continue it), and chat messages where each example is a user/assistant exchange (chat and responses
 * APIs).
 */

import type { ChatMessage } from '../../../shared/model'
import { apiDocFor, apiSummaryFor } from './api-doc'
import { charsFor, chooseRows, estimateTokens, terms } from './budget'
import type { ApiLevel, PromptKind, PromptLibrary, PromptMode, PromptProfile, Shot } from './library'
import { fillTemplate } from './library'
import type { QuestionForm } from './question-form'
import { QUESTION_FORMS, questionForm } from './question-form'
import type { ViewTable } from './table-view'
import { relatedRows, tableDigest } from './table-digest'
import { columnKinds } from './column-kinds'
import { cellText, depths, headerListing, omitted, pyLabel, renderFrame } from './table-view'

export type PromptForm = 'completion' | 'chat'

/** A table as the program sees it: the variable it is bound to, a title, and its cells. */
export type PromptTable = { name: string; title: string; table: ViewTable }

export type BuildPromptRequest = {
  library: PromptLibrary
  kind: PromptKind
  mode: PromptMode
  apis: ApiLevel
  tables: PromptTable[]
  question: string
  form: PromptForm
  /** Tokens the whole prompt may take (estimated, see budget.ts). */
  tokenBudget: number
  /** Default `paper`. */
  profile?: PromptProfile
  /** Whether the endpoint lets the reply be started for the model (the built-in engine does; OpenAI's API does not). */
  prefillAllowed?: boolean
}

export type TableCut = { name: string; rowsShown: number; rowsTotal: number }

export type BuiltPrompt = {
  version: number
  form: PromptForm
  kind: PromptKind
  /** The completion prompt (form `completion`), else null. */
  text: string | null
  /** The chat messages (form `chat`), else null. */
  messages: ChatMessage[] | null
  /** Code the completion prompt ends with inside its open block; the reply continues it. */
  codePrefix: string | null
  /**
   * Chat form: the start of the model's reply, given to it (the opening code fence, then the columns comment
   * where the profile asks for it); null when none.
   */
  prefill: string | null
  profile: PromptProfile
  stop: string[]
  /**
   * The fixed part: what every question of this kind and profile shares (instructions and worked
   * examples), whatever the table or question. Leading messages (chat) or characters (completion); an
   * engine that keeps evaluated prompts reads it once.
   */
  fixed: number
  /** Estimated prompt tokens. */
  tokens: number
  /** Ids of the worked examples used, in order: the fixed ones, then those chosen for the question. */
  shots: string[]
  /** Ids of the worked examples chosen for this question (its form), shown after the fixed part. */
  closeShots: string[]
  /** The question's form, which chose closeShots. */
  questionForm: QuestionForm
  tables: TableCut[]
  /** What was cut to fit the budget, in words. */
  notes: string[]
}

/** The API functions a program calls (method calls such as `.count(` are not API calls). */
export function apiCalls(code: string, functions: readonly string[]): string[] {
  return functions.filter((name) => new RegExp(`(?<![.\\w])${name}\\s*\\(`).test(code))
}

/** The solution of a shot that fits the mode and API level, or null when none does. */
export function shotProgram(shot: Shot, mode: PromptMode, apis: ApiLevel, functions: readonly string[]): string | null {
  const allowed = (code: string): boolean => {
    const used = apiCalls(code, functions).filter((f) => !(mode === 'sql' && f === 'sqldf'))
    if (apis === 'full') return true
    if (apis === 'qa') return used.every((f) => f === 'qa')
    return used.length === 0
  }
  const variants = mode === 'sql' ? [shot.sql] : [shot.python, shot.plain]
  for (const lines of variants) {
    if (lines === undefined) continue
    const code = lines.join('\n')
    if (allowed(code)) return code
  }
  return null
}

/** Documented functions for a mode and API level; `null` means all of them. */
export function documentedFunctions(mode: PromptMode, apis: ApiLevel): string[] | null {
  if (apis === 'full') return null
  const base = apis === 'qa' ? ['qa'] : []
  return mode === 'sql' ? [...base, 'sqldf'] : base
}

/**
 * The instructions. The `paper` profile documents every function it offers in full; `compact` gives one
 * line each to those its examples use, plus `qa` and `chart` (never in the examples, often in questions).
 */
export function systemText(
  library: PromptLibrary,
  kind: PromptKind,
  mode: PromptMode,
  apis: ApiLevel,
  profile: PromptProfile = 'paper',
  shotCode: readonly string[] = []
): string {
  const p = library.profiles[profile]
  const offered = documentedFunctions(mode, apis)
  let apiDoc: string
  if (p.apiDoc === 'full') apiDoc = apiDocFor(library.apiDoc, offered)
  else {
    const used = new Set([
      ...shotCode.flatMap((code) => apiCalls(code, library.apiFunctions)),
      'qa',
      'chart',
      ...(mode === 'sql' ? ['sqldf'] : [])
    ])
    const names = library.apiFunctions.filter((f) => used.has(f) && (offered === null || offered.includes(f)))
    apiDoc = apiSummaryFor(library.apiDoc, names)
  }
  const heading = p.apiDoc === 'full' ? 'API functions:\n\n' : ''
  const guidelines = fillTemplate(p.apiGuidelines[apis], { apiDoc: apiDoc === '' ? '' : `${heading}${apiDoc}` })
  return fillTemplate(p.modes[mode], {
    intro: library.kinds[kind].intro,
    apis: guidelines,
    textColumns: p.textColumns === null ? '' : `${p.textColumns} `
  }).trim()
}

type PreparedTable = {
  header: string
  rows: number
  costs: ArrayLike<number>
  totalCost: number
  minCost: number
  related: Int32Array
  render: (rows: number[]) => string
}

function prepare(t: PromptTable, questionTerms: ReadonlySet<string>, textColumns: boolean): PreparedTable {
  // Reading every row is done once per table (table-digest.ts); per question, only its terms are searched.
  const digest = tableDigest(t.table)
  const text = textColumns ? textColumnsLine(t.name, t.table) : ''
  const render = (rows: number[]): string => tableBlock(t, t.table, rows, text)
  return {
    header: render([]),
    rows: t.table.values.length,
    costs: digest.costs,
    totalCost: digest.totalCost,
    minCost: digest.minCost,
    related: relatedRows(digest, questionTerms),
    render
  }
}

type ChosenShot = { shot: Shot; code: string }

/**
 * The fixed worked examples of a kind and profile: those the profile names, or the first of the kind's
 * file, that fit the mode and API level.
 */
function fixedShots(library: PromptLibrary, kind: PromptKind, mode: PromptMode, apis: ApiLevel, profile: PromptProfile): ChosenShot[] {
  const p = library.profiles[profile]
  const wanted = p.shots[kind]
  const all = library.kinds[kind].shots.shots
  const ids = p.shotIds[kind]
  const candidates = ids === undefined ? all : ids.flatMap((id) => all.filter((shot) => shot.id === id))
  const chosen: ChosenShot[] = []
  for (const shot of candidates) {
    if (chosen.length >= wanted) break
    const code = shotProgram(shot, mode, apis, library.apiFunctions)
    if (code === null) continue
    if (p.skipQaShots && apiCalls(code, library.apiFunctions).includes('qa')) continue
    chosen.push({ shot, code })
  }
  return chosen
}

/**
 * Worked examples for one question, beyond the fixed ones: up to the profile's closeShots examples of the
 * kind tagged with the question's form, in file order, that are not fixed and fit the mode and API level
 * as the fixed ones must. None when no example of that form is left, which is normal. `limit` (default
 * the profile's closeShots) lets the documentation gather every example a question might be given.
 */
export function closeShotsFor(
  library: PromptLibrary,
  kind: PromptKind,
  mode: PromptMode,
  apis: ApiLevel,
  profile: PromptProfile,
  form: QuestionForm,
  fixed: readonly Shot[],
  limit: number = library.profiles[profile].closeShots
): ChosenShot[] {
  const p = library.profiles[profile]
  const chosen: ChosenShot[] = []
  for (const shot of library.kinds[kind].shots.shots) {
    if (chosen.length >= limit) break
    if (shot.form !== form || fixed.some((f) => f.id === shot.id)) continue
    const code = shotProgram(shot, mode, apis, library.apiFunctions)
    if (code === null) continue
    if (p.skipQaShots && apiCalls(code, library.apiFunctions).includes('qa')) continue
    chosen.push({ shot, code })
  }
  return chosen
}

/**
 * The line under a table's header listing that names its text columns (a profile's `textColumns`), with a
 * newline before it; '' when every column holds numbers, dates or truth values.
 */
export function textColumnsLine(name: string, table: ViewTable): string {
  const kinds = columnKinds(table)
  const d = depths(table)
  const text = table.columns.filter((_, j) => kinds[j] === 'text').map((t) => pyLabel(t, d.col))
  return text.length === 0 ? '' : `\nText columns of ${name}: [${text.join(', ')}]`
}

/**
 * A table as the prompt shows it, for a question and for a worked example alike: its heading, the rows
 * given, its header listing, then `extra` (the text-column line, or '').
 */
function tableBlock(named: { name: string; title: string }, table: ViewTable, rows: number[], extra: string): string {
  const { name, title } = named
  const heading = `Table ${name}${title !== '' && title !== name ? `: ${title}` : ''}`
  return `${heading}\n${renderFrame(table, rows)}\n${headerListing(name, table, rows)}${extra}`
}

function exampleBlock(library: PromptLibrary, shot: Shot, textColumns: boolean): string {
  return shot.tables
    .map((t) =>
      tableBlock(
        t,
        t,
        t.values.map((_, i) => i),
        textColumns ? textColumnsLine(t.name, t) : ''
      )
    )
    .join('\n\n')
    .concat(`\n\n${fillTemplate(library.layout.question, { question: shot.question })}`)
}

/**
 * The comment a program starts with under a profile's `columnsInReply`: one line per table whose column
 * labels have one level and that has no row headers, naming the columns as the program must write them;
 * '' when there is none. A table with row headers gets none: after a comment on its columns, a small model
 * goes on to copy the row headers' listing into a second comment, hundreds of tokens before any code
 * (docs/BENCHMARKS.md › model).
 */
export function columnsComment(tables: readonly { name: string; table: ViewTable }[]): string {
  return tables
    .filter((t) => t.table.columns.length > 0 && depths(t.table).col === 1 && depths(t.table).row === 0)
    .map((t) => `# columns of ${t.name}: [${t.table.columns.map((c) => pyLabel(c, 1)).join(', ')}]\n`)
    .join('')
}

function fence(library: PromptLibrary, code: string): string {
  return `${library.layout.codeOpen}\n${code}\n${library.layout.codeClose}`
}

export function buildPrompt(request: BuildPromptRequest): BuiltPrompt {
  const { library, kind, mode, apis, form, question } = request
  const profile = request.profile ?? 'paper'
  const p = library.profiles[profile]
  const wanted = p.shots[kind]
  const notes: string[] = []
  const shots = fixedShots(library, kind, mode, apis, profile)
  if (shots.length < wanted)
    notes.push(`Only ${shots.length} worked examples fit ${mode} mode with API level '${apis}' (the ${kind} set asks for ${wanted}).`)
  // The compact documentation lists the functions of every example this kind may show, fixed or chosen
  // per question: it is part of the fixed prefix, so it may not depend on the question, and a chosen
  // example should not call a function the instructions leave out.
  const mayShow = [
    ...shots,
    ...(p.closeShots === 0 ? [] : QUESTION_FORMS).flatMap((f) =>
      closeShotsFor(
        library,
        kind,
        mode,
        apis,
        profile,
        f,
        shots.map((x) => x.shot),
        Number.POSITIVE_INFINITY
      )
    )
  ]
  const system = systemText(
    library,
    kind,
    mode,
    apis,
    profile,
    mayShow.map((x) => x.code)
  )
  const askedForm = questionForm(question)

  const qTerms = terms(question)
  const prepared = request.tables.map((t) => prepare(t, qTerms, p.textColumns !== null))
  const questionLine = fillTemplate(library.layout.question, { question })
  const opening = (tables: readonly { name: string; table: ViewTable }[]): string => (p.columnsInReply ? columnsComment(tables) : '')
  const shotCode = (shot: Shot, code: string): string => opening(shot.tables.map((t) => ({ name: t.name, table: t }))) + code
  const shotTexts = shots.map(({ shot, code }) => ({
    user: exampleBlock(library, shot, p.textColumns !== null),
    code: shotCode(shot, code)
  }))
  const fixedChars = (kept: number): number =>
    system.length +
    shotTexts.slice(0, kept).reduce((s, x) => s + x.user.length + x.code.length + 40, 0) +
    prepared.reduce((s, p) => s + p.header.length + 2, 0) +
    questionLine.length +
    200
  const budgetChars = charsFor(request.tokenBudget)
  let kept = shotTexts.length
  // Examples go before rows, and how many are kept depends on the budget alone, never on the table or the
  // question: the instructions and examples are then the same for every question of a kind, a prefix an
  // engine (or a hosted prompt cache) reads once. Keep at least one, and a fifth of the budget for the rest.
  const fixedOnly = (k: number): number => system.length + shotTexts.slice(0, k).reduce((s, x) => s + x.user.length + x.code.length + 40, 0)
  while (kept > 1 && fixedOnly(kept) > (budgetChars * 4) / 5) kept -= 1
  if (kept < shotTexts.length)
    notes.push(
      `${shotTexts.length - kept} of ${shotTexts.length} worked examples were left out to fit the prompt budget of ${request.tokenBudget} tokens.`
    )
  // Examples chosen for the question come after the fixed part, which they therefore never change. They
  // are left out when the fixed examples themselves were cut, and when they would take instructions and
  // examples past the same four fifths of the budget.
  const closeTexts: { id: string; user: string; code: string }[] = []
  if (p.closeShots > 0 && kept === shotTexts.length) {
    let used = fixedOnly(kept)
    for (const { shot, code } of closeShotsFor(
      library,
      kind,
      mode,
      apis,
      profile,
      askedForm,
      shots.map((x) => x.shot)
    )) {
      const user = exampleBlock(library, shot, p.textColumns !== null)
      const shown = shotCode(shot, code)
      const cost = user.length + shown.length + 40
      if (used + cost > (budgetChars * 4) / 5) {
        notes.push(
          `The worked example chosen for this ${askedForm} question (${shot.id}) was left out to fit the prompt budget of ${request.tokenBudget} tokens.`
        )
        break
      }
      used += cost
      closeTexts.push({ id: shot.id, user, code: shown })
    }
  }
  const closeChars = closeTexts.reduce((s, x) => s + x.user.length + x.code.length + 40, 0)
  let rowBudget = Math.max(0, budgetChars - fixedChars(kept) - closeChars)
  // A profile may hold the tables to less than the budget leaves (headers are always shown in full).
  if (p.tableTokens !== null) rowBudget = Math.min(rowBudget, charsFor(p.tableTokens))

  const byCost = prepared.map((p, i) => ({ i, total: p.totalCost })).sort((a, b) => a.total - b.total)
  const shown: number[][] = prepared.map(() => [])
  byCost.forEach(({ i }, k) => {
    const p = prepared[i] as (typeof prepared)[number]
    const share = Math.floor(rowBudget / (byCost.length - k))
    const rows = chooseRows(p.costs, p.related, share, omitted(p.rows).length + 1, p.totalCost, p.minCost)
    shown[i] = rows
    rowBudget -= rows.reduce((s, r) => s + (p.costs[r] ?? 0), 0)
  })
  const tables: TableCut[] = request.tables.map((t, i) => ({
    name: t.name,
    rowsShown: shown[i]?.length ?? 0,
    rowsTotal: t.table.values.length
  }))
  for (const cut of tables) {
    if (cut.rowsShown < cut.rowsTotal)
      notes.push(
        `Table ${cut.name}: ${cut.rowsShown} of ${cut.rowsTotal} rows shown to fit the prompt budget (headers, rows matching the question, first and last rows).`
      )
  }
  // The start of the reply's code: the columns comment where the profile asks for it.
  const replyStart = opening(request.tables)
  const taskUser = `${prepared.map((p, i) => p.render(shown[i] ?? [])).join('\n\n')}\n\n${questionLine}`
  const keptShots = shotTexts.slice(0, kept)

  let text: string | null = null
  let messages: ChatMessage[] | null = null
  let tokens: number
  let fixed: number
  if (form === 'completion') {
    const example = (s: { user: string; code: string }, k: number): string =>
      `${fillTemplate(library.layout.example, { number: String(k + 1) })}\n${s.user}\n${fence(library, s.code)}`
    const parts = [system, ...keptShots.map(example)]
    fixed = parts.join('\n\n').length + 2
    // The question's own examples continue the numbering, after the fixed part.
    parts.push(...closeTexts.map((s, k) => example(s, keptShots.length + k)))
    parts.push(`${library.layout.task}\n${taskUser}\n${library.layout.codeOpen}\n${replyStart}`)
    text = parts.join('\n\n')
    tokens = estimateTokens(text)
  } else {
    messages = [{ role: 'system', content: system }]
    const exchange = (s: { user: string; code: string }): ChatMessage[] => [
      { role: 'user', content: `${s.user}\n${library.layout.chatAnswerNote}` },
      { role: 'assistant', content: fence(library, s.code) }
    ]
    messages.push(...keptShots.flatMap(exchange))
    fixed = messages.length
    messages.push(...closeTexts.flatMap(exchange))
    messages.push({ role: 'user', content: `${taskUser}\n${library.layout.chatAnswerNote}` })
    // A few tokens of framing per message, as chat templates add.
    tokens = messages.reduce((s, m) => s + estimateTokens(m.content) + 4, 0)
  }
  if (tokens > request.tokenBudget)
    notes.push(
      `The prompt is about ${tokens} tokens, over the budget of ${request.tokenBudget}: the headers and instructions alone do not fit.`
    )
  // The reply starts with the opening fence where the endpoint allows it: no preamble, and the closing
  // fence ends the sample.
  const prefill = form === 'chat' && p.prefill && request.prefillAllowed === true ? `${library.layout.codeOpen}\n${replyStart}` : null
  return {
    version: library.version,
    form,
    kind,
    text,
    messages,
    fixed,
    codePrefix: form === 'completion' || prefill !== null ? replyStart : null,
    prefill,
    profile,
    stop:
      form === 'completion'
        ? [library.layout.codeClose, `\n${library.layout.example.split(' ')[0] ?? '###'} `]
        : prefill !== null
          ? [library.layout.codeClose]
          : [],
    tokens,
    shots: [...keptShots.map((_, k) => shots[k]?.shot.id ?? ''), ...closeTexts.map((x) => x.id)],
    closeShots: closeTexts.map((x) => x.id),
    questionForm: askedForm,
    tables,
    notes
  }
}

/** The short prompt for one `qa(...)` call. */
export function qaPrompt(library: PromptLibrary, question: string, value: string | null): string {
  return fillTemplate(library.qa, { question: question.trim(), value: value === null ? '' : cellText(value) })
}

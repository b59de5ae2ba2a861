/**
 * The prompt library: templates and worked examples read from resources/prompts (data files, versioned by
 * `manifest.json`). Loading validates every file, so a broken template fails at start, not mid-question.
 */

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Result } from '../../../shared/result'
import { fail, ok } from '../../../shared/result'
import { appRoot } from '../paths'
import { parseApiDoc } from './api-doc'
import type { QuestionForm } from './question-form'
import { QUESTION_FORMS, isQuestionForm } from './question-form'

/** Which family of worked examples fits the input. */
export type PromptKind = 'relational' | 'hierarchical' | 'airline' | 'multi-table'
export const PROMPT_KINDS: readonly PromptKind[] = ['relational', 'hierarchical', 'airline', 'multi-table']

/** What the model writes: a pandas program, or a SQL query run through `sqldf`. */
export type PromptMode = 'python' | 'sql'
/** Which runtime functions the prompt offers: none, only `qa`, or all of them. */
export type ApiLevel = 'none' | 'qa' | 'full'

/**
 * How the prompt is laid out. `paper`: as in Cao et al. (the whole API documentation, 5 worked examples,
 * 8 for airline tables, tables up to the endpoint's budget). `compact`: made for small local models.
 */
export type PromptProfile = 'paper' | 'compact'
export const PROMPT_PROFILES: readonly PromptProfile[] = ['paper', 'compact']

export type Profile = {
  /** Worked examples per kind. */
  shots: Record<PromptKind, number>
  /**
   * Kinds whose worked examples are named (in the order shown) rather than the first `shots[kind]` of the
   * kind's file: a profile can then show an example the paper's set does not, without changing that set.
   */
  shotIds: Partial<Record<PromptKind, readonly string[]>>
  /** Leave out the examples that call `qa(...)` (small models copy them where the table holds the answer). */
  skipQaShots: boolean
  /** `full`: each function's whole documentation; `summary`: its signature, one line and its example. */
  apiDoc: 'full' | 'summary'
  modes: Record<PromptMode, string>
  apiGuidelines: Record<ApiLevel, string>
  /** Tokens the tables may take (estimated); null: whatever the endpoint's budget leaves. */
  tableTokens: number | null
  /** Start the model's reply with the opening code fence, where the endpoint allows it (the built-in engine). */
  prefill: boolean
  /**
   * Start each program with a comment naming the columns of each table whose column labels have one level
   * and that has no row headers (`# columns of df: ['Rank', 'Rider']`): in the worked examples' programs,
   * and in the reply where the reply is started for the model. A small model then writes its code just after
   * the names it may use, rather than names it saw in an example's table.
   */
  columnsInReply: boolean
  /**
   * Name the text columns of each table under its header listing (`Text columns of df: ['Name', 'Height']`),
   * and say in the instructions (`{{textColumns}}`) what this sentence says: a column whose cells show
   * numbers with words or units holds strings, which a program must take the numbers out of before comparing
   * or adding them. null: neither.
   */
  textColumns: string | null
  /**
   * Worked examples chosen per question, shown after the fixed ones: of the question's form (see
   * question-form.ts), from the kind's examples that are not fixed. 0 for `paper`, the method as published,
   * and for `compact`, where one per question did not help the 1.5B model (docs/BENCHMARKS.md › model).
   */
  closeShots: number
}

/** A small table inside a worked example, in ParsedTable's shape. */
export type ShotTable = { name: string; title: string; columns: string[][]; index: string[][]; values: string[][] }

/** One worked example; `plain` is a pandas-only solution for prompts without the helper functions. */
export type Shot = {
  id: string
  tables: ShotTable[]
  question: string
  /**
   * The form of its question, as questionForm() reads it (a test checks they agree), so that a question
   * of the same form can be given this example.
   */
  form?: QuestionForm
  /** The answer every solution gives, as normalised answer values. */
  answer: (string | number | boolean)[]
  /** Answers the `qa` helper gives in this example, keyed `question | value`. */
  qaAnswers?: Record<string, string>
  python: string[]
  plain?: string[]
  sql?: string[]
}

export type ShotSet = { version: number; kind: PromptKind; provenance: string; shots: Shot[] }

export type Layout = {
  example: string
  task: string
  question: string
  codeOpen: string
  codeClose: string
  chatAnswerNote: string
  /** What the model is told when its program failed (`{{error}}`), asking for a corrected one. */
  repair: string
}

export type PromptLibrary = {
  version: number
  kinds: Record<PromptKind, { shots: ShotSet; count: number; intro: string }>
  modes: Record<PromptMode, string>
  apiGuidelines: Record<ApiLevel, string>
  apiDoc: string
  /** Names of the documented API functions, in documentation order. */
  apiFunctions: string[]
  qa: string
  layout: Layout
  profiles: Record<PromptProfile, Profile>
}

export function promptsDir(root: string = appRoot()): string {
  return join(root, 'resources', 'prompts')
}

let cached: { dir: string; library: PromptLibrary } | null = null

/** Loads (once per folder) and validates the prompt library. */
export function loadPromptLibrary(dir: string = promptsDir()): Result<PromptLibrary> {
  if (cached !== null && cached.dir === dir) return ok(cached.library)
  try {
    const library = readLibrary(dir)
    cached = { dir, library }
    return ok(library)
  } catch (error) {
    return fail('internal', `The prompt templates in ${dir} could not be read.`, error instanceof Error ? error.message : String(error))
  }
}

function readLibrary(dir: string): PromptLibrary {
  const text = (file: string): string => readFileSync(join(dir, file), 'utf8').replace(/\r\n?/g, '\n').trimEnd()
  const manifest = object(JSON.parse(text('manifest.json')), 'manifest.json')
  const version = manifest['version']
  if (typeof version !== 'number') throw new Error('manifest.json: version must be a number')
  const kindsIn = object(manifest['kinds'], 'manifest.json kinds')
  const kinds = {} as PromptLibrary['kinds']
  for (const kind of PROMPT_KINDS) {
    const entry = object(kindsIn[kind], `manifest.json kinds.${kind}`)
    const count = entry['count']
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1)
      throw new Error(`manifest.json kinds.${kind}.count must be a positive whole number`)
    const shots = parseShotSet(JSON.parse(text(string(entry['shots'], `kinds.${kind}.shots`))), kind)
    kinds[kind] = { shots, count, intro: text(string(entry['intro'], `kinds.${kind}.intro`)) }
  }
  const modesIn = object(manifest['modes'], 'manifest.json modes')
  const guidelinesIn = object(manifest['apiGuidelines'], 'manifest.json apiGuidelines')
  const layoutIn = object(manifest['layout'], 'manifest.json layout')
  const layout = {} as Layout
  for (const key of ['example', 'task', 'question', 'codeOpen', 'codeClose', 'chatAnswerNote', 'repair'] as const)
    layout[key] = string(layoutIn[key], `layout.${key}`)
  const apiDoc = text(string(manifest['apiDoc'], 'apiDoc'))
  const apiFunctions = parseApiDoc(apiDoc).entries.map((e) => e.name)
  if (!apiFunctions.includes('qa') || !apiFunctions.includes('sqldf')) throw new Error('api-doc.txt must document qa and sqldf')
  const modesOf = (o: Record<string, unknown>, where: string): Record<PromptMode, string> => ({
    python: text(string(o['python'], `${where}.python`)),
    sql: text(string(o['sql'], `${where}.sql`))
  })
  const guidelinesOf = (o: Record<string, unknown>, where: string): Record<ApiLevel, string> => ({
    none: text(string(o['none'], `${where}.none`)),
    qa: text(string(o['qa'], `${where}.qa`)),
    full: text(string(o['full'], `${where}.full`))
  })
  const modes = modesOf(modesIn, 'modes')
  const apiGuidelines = guidelinesOf(guidelinesIn, 'apiGuidelines')
  const profilesIn = object(manifest['profiles'] ?? {}, 'manifest.json profiles')
  const closeShotsOf = (o: Record<string, unknown>, where: string): number => {
    const n = o['closeShots'] ?? 0
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new Error(`${where}.closeShots must be a whole number, 0 or more`)
    return n
  }
  // The paper profile is the top-level templates; the manifest may only set its closeShots (none by default).
  const paperIn = profilesIn['paper'] === undefined ? {} : object(profilesIn['paper'], 'manifest.json profiles.paper')
  const paper: Profile = {
    shots: Object.fromEntries(PROMPT_KINDS.map((k) => [k, kinds[k].count])) as Record<PromptKind, number>,
    shotIds: {},
    skipQaShots: false,
    apiDoc: 'full',
    modes,
    apiGuidelines,
    tableTokens: null,
    prefill: false,
    columnsInReply: false,
    textColumns: null,
    closeShots: closeShotsOf(paperIn, 'profiles.paper')
  }
  const c = object(profilesIn['compact'], 'manifest.json profiles.compact')
  const shotsIn = object(c['shots'], 'profiles.compact.shots')
  const shotIds: Partial<Record<PromptKind, readonly string[]>> = {}
  const compact: Profile = {
    shots: Object.fromEntries(
      PROMPT_KINDS.map((k) => {
        const n = shotsIn[k]
        if (Array.isArray(n)) {
          const known = new Set(kinds[k].shots.shots.map((shot) => shot.id))
          const ids = n.map((id, i) => string(id, `profiles.compact.shots.${k}[${i}]`))
          const unknown = ids.filter((id) => !known.has(id))
          if (ids.length === 0 || unknown.length > 0 || new Set(ids).size < ids.length)
            throw new Error(
              `profiles.compact.shots.${k} must name different examples of the ${k} set${unknown.length > 0 ? `; not in it: ${unknown.join(', ')}` : ''}`
            )
          shotIds[k] = ids
          return [k, ids.length]
        }
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
          throw new Error(`profiles.compact.shots.${k} must be a positive whole number or a list of example ids`)
        return [k, n]
      })
    ) as Record<PromptKind, number>,
    shotIds,
    skipQaShots: c['skipQaShots'] === true,
    apiDoc: c['apiDoc'] === 'summary' ? 'summary' : 'full',
    modes: modesOf(object(c['modes'], 'profiles.compact.modes'), 'profiles.compact.modes'),
    apiGuidelines: guidelinesOf(object(c['apiGuidelines'], 'profiles.compact.apiGuidelines'), 'profiles.compact.apiGuidelines'),
    tableTokens: typeof c['tableTokens'] === 'number' ? c['tableTokens'] : null,
    prefill: c['prefill'] === true,
    columnsInReply: c['columnsInReply'] === true,
    textColumns: c['textColumns'] === undefined ? null : text(string(c['textColumns'], 'profiles.compact.textColumns')),
    closeShots: closeShotsOf(c, 'profiles.compact')
  }
  return {
    version,
    kinds,
    modes,
    apiGuidelines,
    apiDoc,
    apiFunctions,
    qa: text(string(manifest['qa'], 'qa')),
    layout,
    profiles: { paper, compact }
  }
}

function parseShotSet(value: unknown, kind: PromptKind): ShotSet {
  const set = object(value, `shots of ${kind}`)
  if (set['kind'] !== kind) throw new Error(`shots of ${kind}: the file says kind ${String(set['kind'])}`)
  const provenance = string(set['provenance'], `shots of ${kind}: provenance`)
  const shots = array(set['shots'], `shots of ${kind}`).map((s, i) => parseShot(s, `${kind} shot ${i + 1}`))
  return { version: typeof set['version'] === 'number' ? set['version'] : 0, kind, provenance, shots }
}

function parseShot(value: unknown, where: string): Shot {
  const s = object(value, where)
  const lines = (key: string): string[] | undefined =>
    s[key] === undefined ? undefined : array(s[key], `${where}.${key}`).map((l) => string(l, `${where}.${key}`))
  const tables = array(s['tables'], `${where}.tables`).map((t, i) => {
    const o = object(t, `${where}.tables[${i}]`)
    const grid = (key: string): string[][] =>
      array(o[key], `${where}.tables[${i}].${key}`).map((r) => array(r, key).map((c) => string(c, key)))
    return {
      name: string(o['name'], 'name'),
      title: string(o['title'], 'title'),
      columns: grid('columns'),
      index: grid('index'),
      values: grid('values')
    }
  })
  const answer = array(s['answer'], `${where}.answer`).map((a) => {
    if (typeof a === 'string' || typeof a === 'number' || typeof a === 'boolean') return a
    throw new Error(`${where}.answer: values must be text, numbers or booleans`)
  })
  const python = lines('python')
  if (python === undefined) throw new Error(`${where}: a python solution is required`)
  const shot: Shot = { id: string(s['id'], `${where}.id`), tables, question: string(s['question'], `${where}.question`), answer, python }
  const form = s['form']
  if (form !== undefined) {
    if (!isQuestionForm(form)) throw new Error(`${where}.form must be one of ${QUESTION_FORMS.join(', ')}`)
    shot.form = form
  }
  const plain = lines('plain')
  const sql = lines('sql')
  if (plain !== undefined) shot.plain = plain
  if (sql !== undefined) shot.sql = sql
  if (s['qaAnswers'] !== undefined)
    shot.qaAnswers = Object.fromEntries(Object.entries(object(s['qaAnswers'], `${where}.qaAnswers`)).map(([k, v]) => [k, string(v, k)]))
  return shot
}

function object(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where} must be an object`)
  return value as Record<string, unknown>
}

function array(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${where} must be a list`)
  return value
}

function string(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new Error(`${where} must be text`)
  return value
}

/** `{{name}}` substitution plus `{{#name}}…{{/name}}` sections kept only when the value is non-empty. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  const sections = template.replace(/\{\{#(\w+)\}\}\n?([\s\S]*?)\{\{\/\1\}\}\n?/g, (_all, name: string, body: string) =>
    (values[name] ?? '') === '' ? '' : body
  )
  return sections.replace(/\{\{(\w+)\}\}/g, (_all, name: string) => values[name] ?? '')
}

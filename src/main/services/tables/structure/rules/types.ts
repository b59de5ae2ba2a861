/**
 * The vocabulary of the structure rules. A rule is a small unit that looks at a grid (and at what earlier
 * stages decided) and reports evidence: a claim about the table's layout ("row 4 is a header row", "row 7
 * heads the rows below it", "column 0 holds the labels"), a message saying why, and the strength the rule table
 * gives it. Each stage's resolver keeps the strongest consistent claims; the order in which rules run never
 * matters. Messages are templates with `{name}` placeholders filled from the evidence's data only when a table
 * is explained, as eslint's rule messages are.
 */

import { RULE_TABLE } from './table'

/** The stages of the structure pass, in the order their answers are needed: each reads only earlier ones. */
export const STAGES = [
  'title',
  'header-rows',
  'header-extent',
  'label-columns',
  'label-columns-extent',
  'corner',
  'notes',
  'row-roles',
  'row-roles-adjust',
  'label-blocks',
  'sum-blocks',
  'blocks-adjust',
  'nesting'
] as const

export type StageId = (typeof STAGES)[number]

/** Values a message template reads: `{row}`, `{label}`, … */
export type MessageData = Record<string, string | number>

/** One piece of evidence as a resolver keeps it, with the rule that found it. */
export type Evidence<C> = { rule: string; claim: C; strength: number; message: string; data?: MessageData }

/** What a rule reports: its claim, which of its messages explains it, and the message's data. */
export type Finding<C> = { claim: C; message: string; data?: MessageData }

/** A rule of one stage, over the context type `X` of that stage, reporting claims of type `C`. */
export type Rule<X, C> = {
  id: string
  stage: StageId
  /** What the rule reads in a table, in one sentence. */
  description: string
  /** Message templates by id; `{name}` reads the finding's data. */
  messages: Record<string, string>
  /** The strength its claims carry against other rules' claims; set by the rule table (rules/table.ts). */
  strength: number
  /** Whether the rule looks at this table at all; absent means always. */
  applies?: (ctx: X) => boolean
  find: (ctx: X, report: (finding: Finding<C>) => void) => void
}

/**
 * A rule of a stage that decides row by row: asked about one row at a time, as the resolver needs it, so a
 * stage that looks at the first rows of a long table never reads the rest.
 */
export type RowRule<X, C> = Omit<Rule<X, C>, 'find'> & {
  check: (ctx: X, row: number, report: (finding: Finding<C>) => void) => void
}

/** A rule as its stage file writes it: the rule table gives it its stage and strength (see `ranked`). */
export type Unranked<R> = Omit<R, 'stage' | 'strength'>

/** The rules of a stage with the stage and strength the rule table gives each; a rule it does not list is an error. */
export function ranked<R extends { id: string; stage: StageId; strength: number }>(rules: readonly Unranked<R>[]): readonly R[] {
  return rules.map((rule) => {
    const entry = RULE_TABLE[rule.id]
    if (entry === undefined) throw new Error(`structure rule ${rule.id} is not in the rule table (rules/table.ts)`)
    return { ...rule, stage: entry.stage, strength: entry.strength } as R
  })
}

/** The rules the rule table marks optional: off unless `withRules` turns them on. */
export const OPTIONAL_RULES: readonly string[] = Object.keys(RULE_TABLE).filter((id) => RULE_TABLE[id]?.optional === true)

// Rules turned off: the optional ones, and those turned off to measure what each one does (`npm run bench --
// parse --ablate`) or to debug one.
let disabled: ReadonlySet<string> = new Set(OPTIONAL_RULES)

/** Runs `work` with the rules `ids` turned off, as if the rule table did not list them. */
export function withoutRules<T>(ids: Iterable<string>, work: () => T): T {
  const before = disabled
  disabled = new Set([...before, ...ids])
  try {
    return work()
  } finally {
    disabled = before
  }
}

/** Runs `work` with the rules `ids` in use, optional ones included. */
export function withRules<T>(ids: Iterable<string>, work: () => T): T {
  const before = disabled
  const on = new Set(ids)
  disabled = new Set([...before].filter((id) => !on.has(id)))
  try {
    return work()
  } finally {
    disabled = before
  }
}

/** Whether a rule is in use and looks at this table. */
export function applies<X>(rule: { id: string; applies?: (ctx: X) => boolean }, ctx: X): boolean {
  return !disabled.has(rule.id) && (rule.applies === undefined || rule.applies(ctx))
}

/** Whether a rule is in use (for rules the sweep applies itself, such as nesting-sibling-closes). */
export function inUse(id: string): boolean {
  return !disabled.has(id)
}

/** Every applying row rule's evidence about one row. */
export function collectRow<X, C>(rules: readonly RowRule<X, C>[], ctx: X, row: number): Evidence<C>[] {
  const out: Evidence<C>[] = []
  for (const rule of rules) {
    if (!applies(rule, ctx)) continue
    rule.check(ctx, row, (f) => out.push({ rule: rule.id, claim: f.claim, strength: rule.strength, message: f.message, data: f.data }))
  }
  return out
}

const ordered = new WeakMap<readonly { strength: number; id: string }[], readonly { strength: number; id: string }[]>()

/** Rules the stronger first, ties by id: the order in which the first to report is also the strongest. */
function inStrengthOrder<T extends { strength: number; id: string }>(rules: readonly T[]): readonly T[] {
  let sorted = ordered.get(rules) as readonly T[] | undefined
  if (sorted === undefined) ordered.set(rules, (sorted = byStrength(rules)))
  return sorted
}

/**
 * The strongest evidence the row rules report about each row of one table (among the claims `accept` takes),
 * or undefined. The same answer as collecting every rule's evidence and keeping the strongest (`collectRow`,
 * `strongest`), but the rules are asked the stronger first and the weaker ones are not asked once one has
 * answered; which rules look at the table (`applies` reads the table, never a row) and their order are
 * worked out once, not again for every row.
 */
export function rowDecider<X, C>(
  rules: readonly RowRule<X, C>[],
  ctx: X
): (row: number, accept?: (claim: C) => boolean) => Evidence<C> | undefined {
  const asking = inStrengthOrder(rules).filter((rule) => applies(rule, ctx))
  let best: Evidence<C> | undefined
  let taking: ((claim: C) => boolean) | undefined
  // One report function for every rule asked (it reads the rule being asked), not one made per rule or row.
  let asked: RowRule<X, C> | undefined
  const report = (f: Finding<C>): void => {
    if (best === undefined && asked !== undefined && (taking === undefined || taking(f.claim)))
      best = { rule: asked.id, claim: f.claim, strength: asked.strength, message: f.message, data: f.data }
  }
  return (row, accept) => {
    best = undefined
    taking = accept
    for (const rule of asking) {
      asked = rule
      rule.check(ctx, row, report)
      if (best !== undefined) return best
    }
    return undefined
  }
}

/** As `rowDecider`, for the rules of a stage that reads the table as a whole. */
export function decide<X, C>(rules: readonly Rule<X, C>[], ctx: X): Evidence<C> | undefined {
  let best: Evidence<C> | undefined
  for (const rule of inStrengthOrder(rules)) {
    if (!applies(rule, ctx)) continue
    rule.find(ctx, (f) => {
      best ??= { rule: rule.id, claim: f.claim, strength: rule.strength, message: f.message, data: f.data }
    })
    if (best !== undefined) return best
  }
  return undefined
}

/**
 * A rule of an adjusting stage: it reads the answer so far and reports what it changes. The stage's
 * refiners run the stronger first, each on the answer the stronger ones left; their order in the table does
 * not matter.
 */
export type Refiner<X, A, C> = Omit<Rule<X, C>, 'find'> & {
  refine: (ctx: X, answer: A, report: (finding: Finding<C>) => void) => void
}

/** Refiners, the stronger first (ties by id), as an adjusting stage runs them. */
export function byStrength<T extends { strength: number; id: string }>(rules: readonly T[]): T[] {
  return [...rules].sort((a, b) => b.strength - a.strength || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** The reason a decision was taken, ready to show: the rule and its message with the data filled in. */
export type Reason = { rule: string; text: string }

/** A message template with its data filled in. */
export function formatMessage(template: string, data: MessageData | undefined): string {
  if (data === undefined) return template
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = data[name]
    return value === undefined ? whole : String(value)
  })
}

/** The reason of a piece of evidence, from its rule's message. */
export function reasonOf<C>(rules: ReadonlyMap<string, { messages: Record<string, string> }>, e: Evidence<C>): Reason {
  const template = rules.get(e.rule)?.messages[e.message] ?? e.message
  return { rule: e.rule, text: formatMessage(template, e.data) }
}

/**
 * Runs every rule of a stage that applies and collects its evidence. Rules run in the order given, but a
 * resolver only ever compares strengths, so any other order gives the same answer.
 */
export function collect<X, C>(rules: readonly Rule<X, C>[], ctx: X): Evidence<C>[] {
  const out: Evidence<C>[] = []
  for (const rule of rules) {
    if (!applies(rule, ctx)) continue
    rule.find(ctx, (f) => out.push({ rule: rule.id, claim: f.claim, strength: rule.strength, message: f.message, data: f.data }))
  }
  return out
}

/** True when `a` wins over `b`: the stronger, and between equals the rule whose id sorts first (never run order). */
export function beats<C>(a: Evidence<C>, b: Evidence<C>): boolean {
  return a.strength !== b.strength ? a.strength > b.strength : a.rule < b.rule
}

/** The strongest of some evidence, or undefined. */
export function strongest<C>(evidence: readonly Evidence<C>[]): Evidence<C> | undefined {
  let best: Evidence<C> | undefined
  for (const e of evidence) if (best === undefined || beats(e, best)) best = e
  return best
}

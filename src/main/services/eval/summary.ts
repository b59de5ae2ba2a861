/** Summaries of a run: EA overall and per question type, unscorable questions, and misses by category. */
import type { MissCategory, QuestionRecord } from './types'

export type Tally = { questions: number; correct: number; ea: number }

export type RunSummary = {
  dataset: string
  split: string
  endpoint: string
  config: Record<string, unknown>
  /** Questions of the run, scored or not. */
  questions: number
  scored: number
  correct: number
  /** Execution accuracy over scored questions, in percent. */
  ea: number
  unscorable: { count: number; reasons: Record<string, number> }
  byType: Record<string, Record<string, Tally>>
  misses: Partial<Record<MissCategory, number>>
  missExamples: Partial<Record<MissCategory, { id: string; evidence: string }[]>>
  seconds: number
  questionsPerSecond: number
  /** Model use over the run's questions: tokens as logged (prompt tokens estimated), candidates run, `qa(...)` calls. */
  usage: { promptTokens: number; completionTokens: number; candidates: number; qaCalls: number }
  notes: string[]
}

function tally(records: QuestionRecord[]): Tally {
  const correct = records.filter((r) => r.correct).length
  return { questions: records.length, correct, ea: records.length === 0 ? 0 : (100 * correct) / records.length }
}

export function summarize(
  records: QuestionRecord[],
  meta: { dataset: string; split: string; endpoint: string; config: Record<string, unknown>; seconds: number; notes: string[] }
): RunSummary {
  const scored = records.filter((r) => r.unscorable === undefined)
  const reasons: Record<string, number> = {}
  for (const r of records) if (r.unscorable !== undefined) reasons[r.unscorable] = (reasons[r.unscorable] ?? 0) + 1
  const byType: Record<string, Record<string, Tally>> = {}
  const keys = new Set(scored.flatMap((r) => Object.keys(r.types)))
  for (const key of keys) {
    const groups = new Map<string, QuestionRecord[]>()
    for (const r of scored) {
      const v = r.types[key] ?? ''
      groups.set(v, [...(groups.get(v) ?? []), r])
    }
    byType[key] = Object.fromEntries([...groups.entries()].sort((a, b) => b[1].length - a[1].length).map(([v, rs]) => [v, tally(rs)]))
  }
  const misses: RunSummary['misses'] = {}
  const missExamples: RunSummary['missExamples'] = {}
  for (const r of scored) {
    if (r.correct || r.miss === undefined) continue
    const c = r.miss.category
    misses[c] = (misses[c] ?? 0) + 1
    const list = missExamples[c] ?? []
    list.push({ id: r.id, evidence: r.miss.evidence })
    missExamples[c] = list
  }
  const all = tally(scored)
  const fallbacks = new Map<string, number>()
  for (const r of records) {
    const why = r.selection?.fallbackReason
    if (why !== undefined)
      fallbacks.set(`${r.selection?.mode ?? ''}: ${why}`, (fallbacks.get(`${r.selection?.mode ?? ''}: ${why}`) ?? 0) + 1)
  }
  const selectionNotes = [...fallbacks.entries()].map(([why, n]) => `${n} question${n === 1 ? ' was' : 's were'} selected by ${why}`)
  const usage = {
    promptTokens: records.reduce((n, r) => n + (r.tokens?.prompt ?? 0), 0),
    completionTokens: records.reduce((n, r) => n + (r.tokens?.completion ?? 0), 0),
    candidates: records.reduce((n, r) => n + r.candidates.length, 0),
    qaCalls: records.reduce((n, r) => n + (r.qaCalls ?? 0), 0)
  }
  const timed = records.reduce((s, r) => s + r.timeMs, 0) / 1000
  return {
    ...meta,
    notes: [...meta.notes, ...selectionNotes],
    questions: records.length,
    scored: scored.length,
    correct: all.correct,
    ea: all.ea,
    unscorable: { count: records.length - scored.length, reasons },
    byType,
    misses,
    missExamples,
    usage,
    questionsPerSecond: meta.seconds > 0 ? records.length / meta.seconds : records.length / Math.max(timed, 1e-9)
  }
}

const pct = (x: number): string => `${x.toFixed(1)} %`

export function summaryMarkdown(s: RunSummary): string {
  const lines = [
    `# ${s.dataset} ${s.split} — ${s.endpoint}`,
    '',
    `**EA ${pct(s.ea)}** (${s.correct} / ${s.scored} scored questions; ${s.questions} in the run, ${s.unscorable.count} not scored).`,
    '',
    `Configuration: ${Object.entries(s.config)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', ')}. ${s.seconds.toFixed(1)} s, ${s.questionsPerSecond.toFixed(2)} questions/s.`,
    ''
  ]
  const u = s.usage
  if (u.promptTokens > 0 || u.completionTokens > 0 || u.qaCalls > 0) {
    lines.push(
      `Model use: ${u.candidates} candidates; about ${u.promptTokens.toLocaleString('en-US')} prompt tokens (estimated), ${u.completionTokens.toLocaleString('en-US')} completion tokens, ${u.qaCalls} qa calls.`,
      ''
    )
  }
  if (s.unscorable.count > 0) {
    lines.push('## Not scored', '')
    for (const [reason, n] of Object.entries(s.unscorable.reasons)) lines.push(`- ${n} × ${reason}`)
    lines.push('')
  }
  for (const [key, groups] of Object.entries(s.byType)) {
    lines.push(`## EA by ${key}`, '', `| ${key} | questions | correct | EA |`, '| --- | ---: | ---: | ---: |')
    for (const [v, t] of Object.entries(groups)) lines.push(`| ${v || '(none)'} | ${t.questions} | ${t.correct} | ${pct(t.ea)} |`)
    lines.push('')
  }
  const cats = Object.entries(s.misses)
  if (cats.length > 0) {
    lines.push('## Misses by category', '', '| category | questions |', '| --- | ---: |')
    for (const [c, n] of cats) lines.push(`| ${c} | ${n} |`)
    lines.push('')
    for (const [c, examples] of Object.entries(s.missExamples)) {
      lines.push(`### ${c}`, '')
      for (const e of examples ?? []) lines.push(`- \`${e.id}\`: ${e.evidence.replace(/\n/g, ' ').slice(0, 600)}`)
      lines.push('')
    }
  }
  if (s.notes.length > 0) lines.push('## Notes', '', ...s.notes.map((n) => `- ${n}`), '')
  return lines.join('\n')
}

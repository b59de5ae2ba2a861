/** The tables of a question: their variable names in programs, the prompt kind they call for, their view. */

import type { AskKind } from '../../../shared/ask'
import type { ParsedTable } from '../../../shared/table'
import type { PromptKind } from '../prompt'

export type NamedTable = { name: string; table: ParsedTable }

/** Python's keywords and the names a program's namespace binds besides the API functions (tableqa.runner). */
const PYTHON_NAMES = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield df rows answer pd np math re datetime'.split(
    ' '
  )
)

/**
 * A Python variable name for a table: the last part of its display name ("db.sqlite › singer" → singer),
 * never a keyword, a bound name or one of `apiFunctions` (the prompt library's, read from the API documentation).
 */
export function variableNames(names: readonly string[], apiFunctions: readonly string[]): string[] {
  const used = new Set<string>()
  return names.map((full, i) => {
    const last = full.split('›').at(-1)?.trim() ?? ''
    let base = last
      .replace(/\.[A-Za-z0-9]{1,5}$/, '')
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .replace(/^_+|_+$/g, '')
    if (base === '') base = `table_${i + 1}`
    if (/^\d/.test(base)) base = `t_${base}`
    if (PYTHON_NAMES.has(base) || apiFunctions.includes(base)) base = `${base}_table`
    let name = base
    for (let k = 2; used.has(name); k += 1) name = `${base}_${k}`
    used.add(name)
    return name
  })
}

const AIRLINE_TERMS = /\b(airlines?|passengers?|aircraft|fuel|seat miles|ASMs?|RPMs?|load factor|mainline|regional carriers?|flight)\b/i

/** The prompt kind for these tables: several tables → multi-table; header trees deeper than one level → hierarchical (airline when its labels are airline report terms); else relational. */
export function chooseKind(tables: readonly ParsedTable[], requested: AskKind = 'auto'): PromptKind {
  if (requested !== 'auto') return requested
  if (tables.length > 1) return 'multi-table'
  const table = tables[0]
  if (table === undefined) return 'relational'
  // Reading every label of a long table is done once per table, not once per question.
  const known = kindOf.get(table)
  if (known !== undefined) return known
  const kind = kindOfTable(table)
  kindOf.set(table, kind)
  return kind
}

const kindOf = new WeakMap<ParsedTable, PromptKind>()

function kindOfTable(table: ParsedTable): PromptKind {
  const deepColumns = table.columns.some((t) => t.filter((x) => x !== '').length > 1)
  const rowLabels = table.index.some((t) => t.some((x) => x !== ''))
  if (!deepColumns && !rowLabels) return 'relational'
  const labels = [...table.columns.flat(), ...table.index.flat()].join(' ')
  return AIRLINE_TERMS.test(labels) ? 'airline' : 'hierarchical'
}

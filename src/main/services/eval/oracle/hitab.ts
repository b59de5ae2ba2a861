/**
 * HiTab oracle: each gold `answer_formulas` entry translated into Python over the multi-index DataFrame.
 * Referenced cells are addressed by header paths with the Operation APIs (`lookup`, `row`, `column`); cells
 * whose header path is shared by several lines are picked as the k-th line of that path with `df.loc`.
 */
import { fail, ok, type Result } from '../../../../shared/result'
import type { ParsedTable } from '../../../../shared/table'
import { expandRange, parseAnswerFormula, type CellAddress, type Formula } from './formula'
import { makeLocator, type CellLocation, type Locator } from './locate'

/** A Python literal for a header path: a string for one level, else a tuple. */
export function pyPath(key: string[]): string {
  if (key.length === 1) return JSON.stringify(key[0])
  return `(${key.map((k) => JSON.stringify(k)).join(', ')})`
}

function keyLiteral(key: string[]): string {
  return key.length === 1 ? JSON.stringify(key[0]) : pyPath(key)
}

function cellCode(loc: CellLocation): string {
  switch (loc.kind) {
    case 'data':
      if (loc.rowUnique && loc.colUnique) return `lookup(df, ${pyPath(loc.rowKey)}, ${pyPath(loc.colKey)})`
      return `df.loc[[${keyLiteral(loc.rowKey)}], [${keyLiteral(loc.colKey)}]].iloc[${loc.rowDup}, ${loc.colDup}]`
    case 'keyed':
      return `value_of(df, ${pyPath(loc.keyColKey)}, ${JSON.stringify(loc.key)}, ${pyPath(loc.colKey)})`
    case 'row-header': {
      const label = loc.unique ? `row(df, ${pyPath(loc.rowKey)}).name` : `df.loc[[${keyLiteral(loc.rowKey)}]].index[0]`
      return loc.rowKey.length === 1 ? label : `${label}[${loc.level}]`
    }
    case 'column-header': {
      const label = loc.unique ? `column(df, ${pyPath(loc.colKey)}).name` : `df.loc[:, [${keyLiteral(loc.colKey)}]].columns[0]`
      return loc.colKey.length === 1 ? label : `${label}[${loc.level}]`
    }
  }
}

type Ctx = { locate: Locator; refs: Record<string, string>; missing: string[]; usesText: boolean; usesMath: boolean }

/**
 * texts coordinates of an A1 name: from `reference_cells_map`, else by the README's offset (A1 row number =
 * texts row + 3, A1 column number = texts column + 1; `cell` holds 0-based A1 positions).
 */
export function textsCell(cell: CellAddress, refs: Record<string, string>): { row: number; col: number } {
  const mapped = refs[cell.a1]
  const m = mapped ? /^\((\d+),\s*(\d+)\)$/.exec(mapped) : null
  if (m) return { row: Number(m[1]), col: Number(m[2]) }
  return { row: cell.row + 1 - 3, col: cell.col + 1 - 1 }
}

function ref(cell: CellAddress, ctx: Ctx, numeric: boolean): string {
  const at = textsCell(cell, ctx.refs)
  const loc = ctx.locate(at.row, at.col)
  if (loc === null) {
    ctx.missing.push(`${cell.a1} = texts (${at.row}, ${at.col})`)
    return 'None'
  }
  const code = cellCode(loc)
  return numeric ? `to_number(${code})` : code
}

function cells(args: Formula[], ctx: Ctx, numeric: boolean): string[] {
  return args.flatMap((a) => arrayItems(a, ctx, numeric) ?? [expr(a, ctx, numeric)])
}

/**
 * Excel's array arithmetic: an operation on a range applies to each of its cells (`SUM(B7:B9+0)` sums B7+0, B8+0
 * and B9+0; two ranges of one size pair up cell by cell). The code of each item, or null for a scalar.
 */
function arrayItems(f: Formula, ctx: Ctx, numeric: boolean): string[] | null {
  switch (f.kind) {
    case 'range':
      return expandRange(f.from, f.to).map((c) => ref(c, ctx, numeric))
    case 'neg':
      return arrayItems(f.arg, ctx, true)?.map((x) => `(-${x})`) ?? null
    case 'binary': {
      const text = f.op === '&'
      const left = arrayItems(f.left, ctx, !text)
      const right = arrayItems(f.right, ctx, !text)
      if (left === null && right === null) return null
      if (left !== null && right !== null && left.length !== right.length)
        throw new Error(`ranges of ${left.length} and ${right.length} cells do not pair up`)
      const size = left?.length ?? right?.length ?? 0
      const l = left ?? new Array<string>(size).fill(expr(f.left, ctx, !text))
      const r = right ?? new Array<string>(size).fill(expr(f.right, ctx, !text))
      if (text) ctx.usesText = true
      const op = PY_OPS[f.op] ?? f.op
      return l.map((x, i) => (text ? `(_text(${x}) + _text(${r[i] ?? 'None'}))` : `(${x} ${op} ${r[i] ?? 'None'})`))
    }
    case 'call':
      if ((f.name === 'ABS' || f.name === 'INT') && f.args.length === 1) {
        const items = arrayItems(f.args[0] as Formula, ctx, true)
        if (items !== null && f.name === 'INT') ctx.usesMath = true
        return items?.map((x) => (f.name === 'ABS' ? `abs(${x})` : `math.floor(${x})`)) ?? null
      }
      return null
    case 'number':
    case 'string':
    case 'cell':
      return null
  }
}

const PY_OPS: Record<string, string> = { '=': '==', '<>': '!=', '<': '<', '>': '>', '<=': '<=', '>=': '>=' }

function expr(f: Formula, ctx: Ctx, numeric: boolean): string {
  switch (f.kind) {
    case 'number':
      return String(f.value)
    case 'string':
      return JSON.stringify(f.value)
    case 'cell':
      return ref(f.cell, ctx, numeric)
    case 'range':
      return `[${cells([f], ctx, numeric).join(', ')}]`
    case 'neg': {
      const items = arrayItems(f, ctx, true)
      return items === null ? `(-${expr(f.arg, ctx, true)})` : `[${items.join(', ')}]`
    }
    case 'binary': {
      // An operation on a range outside a function spills its cells, as Excel's dynamic arrays do.
      const items = arrayItems(f, ctx, numeric)
      if (items !== null) return `[${items.join(', ')}]`
      if (f.op === '&') {
        ctx.usesText = true
        return `(_text(${expr(f.left, ctx, false)}) + _text(${expr(f.right, ctx, false)}))`
      }
      if (f.op in PY_OPS) return `(${expr(f.left, ctx, true)} ${PY_OPS[f.op] ?? '=='} ${expr(f.right, ctx, true)})`
      return `(${expr(f.left, ctx, true)} ${f.op} ${expr(f.right, ctx, true)})`
    }
    case 'call':
      return call(f.name, f.args, ctx)
  }
}

function call(name: string, args: Formula[], ctx: Ctx): string {
  const present = (numeric: boolean): string => `[x for x in [${cells(args, ctx, numeric).join(', ')}] if x == x]`
  switch (name) {
    case 'SUM':
      return `sum(${present(true)})`
    case 'MAX':
      return `max(${present(true)})`
    case 'MIN':
      return `min(${present(true)})`
    case 'AVERAGE':
      return `(lambda xs: sum(xs) / len(xs))(${present(true)})`
    case 'COUNTA':
      return `len([x for x in ${present(false)} if str(x).strip()])`
    case 'INT':
      ctx.usesMath = true
      return `math.floor(${expr(args[0] ?? { kind: 'number', value: Number.NaN }, ctx, true)})`
    case 'ABS':
      return `abs(${expr(args[0] ?? { kind: 'number', value: Number.NaN }, ctx, true)})`
    case 'IF': {
      const [c, a, b] = args
      const whenFalse = b === undefined ? 'False' : expr(b, ctx, false)
      return `(${a === undefined ? 'True' : expr(a, ctx, false)} if ${c === undefined ? 'False' : expr(c, ctx, false)} else ${whenFalse})`
    }
    default:
      throw new Error(`formula function ${name} has no translation`)
  }
}

export type OracleProgram = { program: string }

/** Translate a question's formulas into one program whose `answer` is the list of their values (one value: a scalar). */
export function hitabProgram(table: ParsedTable, formulas: unknown[], refs: Record<string, string>): Result<OracleProgram> {
  if (formulas.length === 0) return fail('bad-input', 'the question has no answer_formulas')
  const ctx: Ctx = { locate: makeLocator(table), refs, missing: [], usesText: false, usesMath: false }
  const parts: string[] = []
  try {
    for (const entry of formulas) {
      const parsed = parseAnswerFormula(entry)
      if (!parsed.ok) return parsed
      for (const f of parsed.value) parts.push(expr(f, ctx, false))
    }
  } catch (e) {
    return fail('bad-input', e instanceof Error ? e.message : String(e))
  }
  if (ctx.missing.length > 0) return fail('not-found', `cells not in the structured table: ${ctx.missing.join('; ')}`)
  const lines: string[] = []
  if (ctx.usesMath) lines.push('import math')
  if (ctx.usesText) lines.push('_text = lambda x: str(int(x)) if isinstance(x, float) and x.is_integer() else str(x)')
  lines.push(parts.length === 1 ? `answer = ${parts[0] ?? 'None'}` : `answer = [\n    ${parts.join(',\n    ')},\n]`)
  return ok({ program: `${lines.join('\n')}\n` })
}

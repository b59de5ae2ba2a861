/**
 * Evaluates HiTab formulas directly on the raw `texts` grid, independently of the structure pass and the
 * Python runtime. Used to tell a gold annotation whose formula does not give its answer (a gold error)
 * from a miss of our own pipeline.
 */
import { parseNumber } from '../../tables/structure'
import { expandRange, parseAnswerFormula, type Formula } from './formula'
import { textsCell } from './hitab'

type Value = number | string | boolean | null

function num(v: Value): number {
  if (typeof v === 'number') return v
  if (typeof v === 'boolean') return v ? 1 : 0
  if (v === null || v.trim() === '') return 0
  return parseNumber(v) ?? Number.NaN
}

function text(v: Value): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(v)
  return v === null ? '' : String(v)
}

type Op = Extract<Formula, { kind: 'binary' }>['op']

function operate(op: Op, l: Value, r: Value): Value {
  switch (op) {
    case '+':
      return num(l) + num(r)
    case '-':
      return num(l) - num(r)
    case '*':
      return num(l) * num(r)
    case '/':
      return num(l) / num(r)
    case '&':
      return text(l) + text(r)
    case '=':
      return num(l) === num(r)
    case '<>':
      return num(l) !== num(r)
    case '<':
      return num(l) < num(r)
    case '>':
      return num(l) > num(r)
    case '<=':
      return num(l) <= num(r)
    case '>=':
      return num(l) >= num(r)
  }
}

/** A function of one value applied to each value of an array. */
function each(v: Value | Value[], fn: (x: Value) => Value): Value | Value[] {
  return Array.isArray(v) ? v.map(fn) : fn(v)
}

function evaluate(f: Formula, texts: string[][], refs: Record<string, string>): Value | Value[] {
  const cell = (a: { a1: string; col: number; row: number }): Value => {
    const at = textsCell(a, refs)
    const raw = texts[at.row]?.[at.col]
    if (raw === undefined) return null
    const n = parseNumber(raw)
    return n === null ? raw : n
  }
  const flat = (args: Formula[]): Value[] => args.flatMap((a) => [evaluate(a, texts, refs)].flat())
  switch (f.kind) {
    case 'number':
    case 'string':
      return f.value
    case 'cell':
      return cell(f.cell)
    case 'range':
      return expandRange(f.from, f.to).map(cell)
    case 'neg': {
      const v = evaluate(f.arg, texts, refs)
      return Array.isArray(v) ? v.map((x) => -num(x)) : -num(v)
    }
    case 'binary': {
      // Array arithmetic: an operation on a range applies to each of its cells (ranges of one size pair up).
      const left = evaluate(f.left, texts, refs)
      const right = evaluate(f.right, texts, refs)
      if (!Array.isArray(left) && !Array.isArray(right)) return operate(f.op, left, right)
      const size = Array.isArray(left) ? left.length : (right as Value[]).length
      if (Array.isArray(left) && Array.isArray(right) && left.length !== right.length) return null
      const at = (v: Value | Value[], i: number): Value => (Array.isArray(v) ? (v[i] ?? null) : v)
      return Array.from({ length: size }, (_, i) => operate(f.op, at(left, i), at(right, i)))
    }
    case 'call': {
      const nums = (): number[] => flat(f.args).filter((v): v is number => typeof v === 'number' && !Number.isNaN(v))
      switch (f.name) {
        case 'SUM':
          return nums().reduce((a, b) => a + b, 0)
        case 'MAX':
          return Math.max(...nums())
        case 'MIN':
          return Math.min(...nums())
        case 'AVERAGE': {
          const xs = nums()
          return xs.reduce((a, b) => a + b, 0) / xs.length
        }
        case 'COUNTA':
          return flat(f.args).filter((v) => v !== null && String(v).trim() !== '').length
        case 'INT':
          return each(evaluate(f.args[0] as Formula, texts, refs), (x) => Math.floor(num(x)))
        case 'ABS':
          return each(evaluate(f.args[0] as Formula, texts, refs), (x) => Math.abs(num(x)))
        case 'IF': {
          const c = evaluate(f.args[0] as Formula, texts, refs)
          const branch = c ? f.args[1] : f.args[2]
          return branch === undefined ? false : evaluate(branch, texts, refs)
        }
        default:
          return null
      }
    }
  }
}

/** The values a question's formulas give on the raw grid; null when a formula cannot be parsed. */
export function evaluateOnTexts(formulas: unknown[], texts: string[][], refs: Record<string, string>): Value[] | null {
  const out: Value[] = []
  for (const entry of formulas) {
    const parsed = parseAnswerFormula(entry)
    if (!parsed.ok) return null
    for (const f of parsed.value) out.push(...[evaluate(f, texts, refs)].flat())
  }
  return out
}

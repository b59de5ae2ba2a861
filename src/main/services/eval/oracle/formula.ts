/**
 * The spreadsheet formulas of HiTab's `answer_formulas`: `=B5/B6`, `=SUM(B8:B10)-C4`, `=D9&"%"`,
 * `=IF(F10=MIN(F5:F18),"Quebec","")`, and bare lists of references such as `A24,A28`.
 */
import { fail, ok, type Result } from '../../../../shared/result'
import { a1Name } from '../../../../shared/cells'

export type CellAddress = { a1: string; col: number; row: number }

export type Formula =
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'cell'; cell: CellAddress }
  | { kind: 'range'; from: CellAddress; to: CellAddress }
  | { kind: 'call'; name: string; args: Formula[] }
  | { kind: 'neg'; arg: Formula }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/' | '&' | '=' | '<>' | '<' | '>' | '<=' | '>='; left: Formula; right: Formula }

type Token = { kind: 'num' | 'str' | 'cell' | 'name' | 'op'; text: string }

const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|("(?:[^"]|"")*")|(\$?[A-Z]{1,3}\$?\d+)(?![A-Za-z0-9_(])|([A-Z][A-Z0-9.]*)(?=\s*\()|(<=|>=|<>|[-+*/&=<>(),:]))/y

function tokenize(text: string): Token[] | null {
  const out: Token[] = []
  TOKEN.lastIndex = 0
  let pos = 0
  while (pos < text.length) {
    if (text.slice(pos).trim() === '') break
    TOKEN.lastIndex = pos
    const m = TOKEN.exec(text)
    if (m === null) return null
    pos = TOKEN.lastIndex
    if (m[1] !== undefined) out.push({ kind: 'num', text: m[1] })
    else if (m[2] !== undefined) out.push({ kind: 'str', text: m[2].slice(1, -1).replace(/""/g, '"') })
    else if (m[3] !== undefined) out.push({ kind: 'cell', text: m[3].replace(/\$/g, '') })
    else if (m[4] !== undefined) out.push({ kind: 'name', text: m[4] })
    else if (m[5] !== undefined) out.push({ kind: 'op', text: m[5] })
  }
  return out
}

export function a1Address(a1: string): CellAddress {
  const m = /^([A-Z]+)(\d+)$/.exec(a1)
  if (m === null) throw new Error(`not an A1 address: ${a1}`)
  let col = 0
  for (const ch of m[1] as string) col = col * 26 + (ch.charCodeAt(0) - 64)
  return { a1, col: col - 1, row: Number(m[2]) - 1 }
}

class Parser {
  private i = 0
  constructor(private readonly tokens: Token[]) {}

  done(): boolean {
    return this.i >= this.tokens.length
  }

  peek(): Token | undefined {
    return this.tokens[this.i]
  }

  take(text?: string): Token {
    const t = this.tokens[this.i]
    if (t === undefined || (text !== undefined && t.text !== text)) throw new Error(`expected ${text ?? 'a token'} at token ${this.i}`)
    this.i++
    return t
  }

  list(): Formula[] {
    const items = [this.expr()]
    while (this.peek()?.text === ',') {
      this.take(',')
      items.push(this.expr())
    }
    return items
  }

  expr(): Formula {
    const left = this.concat()
    const op = this.peek()
    if (op?.kind === 'op' && ['=', '<>', '<', '>', '<=', '>='].includes(op.text)) {
      this.take()
      return { kind: 'binary', op: op.text as '=', left, right: this.concat() }
    }
    return left
  }

  concat(): Formula {
    let left = this.additive()
    while (this.peek()?.text === '&') {
      this.take()
      left = { kind: 'binary', op: '&', left, right: this.additive() }
    }
    return left
  }

  additive(): Formula {
    let left = this.term()
    for (let t = this.peek(); t?.kind === 'op' && (t.text === '+' || t.text === '-'); t = this.peek()) {
      this.take()
      left = { kind: 'binary', op: t.text as '+', left, right: this.term() }
    }
    return left
  }

  term(): Formula {
    let left = this.unary()
    for (let t = this.peek(); t?.kind === 'op' && (t.text === '*' || t.text === '/'); t = this.peek()) {
      this.take()
      left = { kind: 'binary', op: t.text as '*', left, right: this.unary() }
    }
    return left
  }

  unary(): Formula {
    const t = this.peek()
    if (t?.kind === 'op' && t.text === '-') {
      this.take()
      return { kind: 'neg', arg: this.unary() }
    }
    if (t?.kind === 'op' && t.text === '+') {
      this.take()
      return this.unary()
    }
    return this.primary()
  }

  primary(): Formula {
    const t = this.take()
    switch (t.kind) {
      case 'num':
        return { kind: 'number', value: Number(t.text) }
      case 'str':
        return { kind: 'string', value: t.text }
      case 'cell': {
        const from = a1Address(t.text)
        if (this.peek()?.text === ':') {
          this.take(':')
          const to = this.take()
          if (to.kind !== 'cell') throw new Error('a range must end with a cell')
          return { kind: 'range', from, to: a1Address(to.text) }
        }
        return { kind: 'cell', cell: from }
      }
      case 'name': {
        this.take('(')
        const args = this.peek()?.text === ')' ? [] : this.list()
        this.take(')')
        return { kind: 'call', name: t.text.toUpperCase(), args }
      }
      case 'op':
        if (t.text === '(') {
          const inner = this.expr()
          this.take(')')
          return inner
        }
        throw new Error(`unexpected ${t.text}`)
    }
  }
}

function references(f: Formula): boolean {
  switch (f.kind) {
    case 'cell':
    case 'range':
      return true
    case 'number':
    case 'string':
      return false
    case 'call':
      return f.args.some(references)
    case 'neg':
      return references(f.arg)
    case 'binary':
      return references(f.left) || references(f.right)
  }
}

/**
 * Parse one `answer_formulas` entry into the values it lists: a formula (`=...`) gives one, a bare
 * comma-separated list of references or expressions gives several, a number or other text is a literal.
 */
export function parseAnswerFormula(entry: unknown): Result<Formula[]> {
  if (typeof entry === 'number') return ok([{ kind: 'number', value: entry }])
  if (typeof entry !== 'string') return fail('bad-input', `formula is not text: ${JSON.stringify(entry)}`)
  const text = entry.trim()
  const isFormula = text.startsWith('=')
  const tokens = tokenize(isFormula ? text.slice(1) : text)
  if (tokens !== null && tokens.length > 0) {
    try {
      const p = new Parser(tokens)
      const items = p.list()
      if (p.done() && (isFormula || items.every(references))) return ok(items)
    } catch (e) {
      if (isFormula) return fail('bad-input', `cannot parse formula ${text}: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  if (isFormula) return fail('bad-input', `cannot parse formula ${text}`)
  return ok([{ kind: 'string', value: text }])
}

/** Every cell a formula reads, ranges expanded row by row. */
export function expandRange(from: CellAddress, to: CellAddress): CellAddress[] {
  const out: CellAddress[] = []
  for (let r = Math.min(from.row, to.row); r <= Math.max(from.row, to.row); r++) {
    for (let c = Math.min(from.col, to.col); c <= Math.max(from.col, to.col); c++) out.push({ a1: a1Name(r, c), col: c, row: r })
  }
  return out
}

export { a1Name }

/** A small Python tokenizer for highlighting programs: enough for colour, not a parser. */

export type TokenKind = 'keyword' | 'builtin' | 'string' | 'number' | 'comment' | 'operator' | 'name' | 'function' | 'space' | 'other'
export type Token = { kind: TokenKind; text: string }

const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case'.split(
    ' '
  )
)
const BUILTINS = new Set(
  'abs all any bool dict enumerate filter float int isinstance len list map max min print range reversed round set sorted str sum tuple zip df rows columns qa sqldf answer'.split(
    ' '
  )
)

// Order matters: strings (with prefixes, triple quotes first) before names, numbers before operators.
const RULES: [TokenKind, RegExp][] = [
  ['space', /^[ \t\r\n]+/],
  ['comment', /^#[^\n]*/],
  ['string', /^[rRbBuUfF]{0,2}("""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:\\.|[^"\\\n])*(?:"|$)|'(?:\\.|[^'\\\n])*(?:'|$))/],
  ['number', /^(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?j?)/],
  ['name', /^[A-Za-z_\u00c0-\uffff][\w\u00c0-\uffff]*/],
  ['operator', /^(?:\*\*=?|\/\/=?|<<=?|>>=?|->|:=|[-+*/%@&|^~<>!=]=?|[()[\]{}.,:;])/]
]

export function tokenize(code: string): Token[] {
  const tokens: Token[] = []
  let rest = code
  while (rest.length > 0) {
    let matched = false
    for (const [kind, rule] of RULES) {
      const m = rule.exec(rest)
      if (!m || m[0] === '') continue
      const text = m[0]
      tokens.push({ kind: kind === 'name' ? nameKind(text, rest.slice(text.length)) : kind, text })
      rest = rest.slice(text.length)
      matched = true
      break
    }
    if (!matched) {
      tokens.push({ kind: 'other', text: rest[0] as string })
      rest = rest.slice(1)
    }
  }
  return merge(tokens)
}

function nameKind(name: string, after: string): TokenKind {
  if (KEYWORDS.has(name)) return 'keyword'
  if (BUILTINS.has(name)) return 'builtin'
  return /^\s*\(/.test(after) ? 'function' : 'name'
}

/** Neighbouring tokens of one kind become one span (fewer DOM nodes for long programs). */
function merge(tokens: Token[]): Token[] {
  const out: Token[] = []
  for (const t of tokens) {
    const last = out[out.length - 1]
    if (last && last.kind === t.kind && (t.kind === 'space' || t.kind === 'other')) last.text += t.text
    else out.push({ ...t })
  }
  return out
}

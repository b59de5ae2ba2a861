import { describe, expect, it } from 'vitest'
import { tokenize } from './highlight'

const kinds = (code: string): string[] =>
  tokenize(code)
    .filter((t) => t.kind !== 'space')
    .map((t) => `${t.kind}:${t.text}`)

describe('Python highlighter', () => {
  it('tells keywords, builtins, names, calls, numbers and operators apart', () => {
    expect(kinds('for r in rows:\n    total += float(r["Score"]) * 1.5e3')).toEqual([
      'keyword:for',
      'name:r',
      'keyword:in',
      'builtin:rows',
      'operator::',
      'name:total',
      'operator:+=',
      'builtin:float',
      'operator:(',
      'name:r',
      'operator:[',
      'string:"Score"',
      'operator:]',
      'operator:)',
      'operator:*',
      'number:1.5e3'
    ])
  })

  it('keeps strings whole: prefixes, escapes, triple quotes across lines, and an unterminated one', () => {
    expect(kinds(`f"a{b}\\"c" + '''x\n#y''' + 'open`)).toEqual([
      'string:f"a{b}\\"c"',
      'operator:+',
      "string:'''x\n#y'''",
      'operator:+',
      "string:'open"
    ])
  })

  it('ends comments at the line end and marks user functions', () => {
    expect(kinds('x = top(3)  # the best # three\ny')).toEqual([
      'name:x',
      'operator:=',
      'function:top',
      'operator:(',
      'number:3',
      'operator:)',
      'comment:# the best # three',
      'name:y'
    ])
  })

  it('loses no character, whatever the input', () => {
    const samples = [
      'answer = len(rows)',
      'def f(a, *b, **c) -> int:\n\treturn a @ b',
      '$`?\u00e9t\u00e9 = 1',
      '"""never closed\n\n',
      '0x1F + 0b10 + 1_000j'
    ]
    for (const code of samples)
      expect(
        tokenize(code)
          .map((t) => t.text)
          .join('')
      ).toBe(code)
  })
})

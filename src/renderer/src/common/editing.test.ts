import { describe, expect, it } from 'vitest'
import { dedent, indent } from './editing'

describe('indent', () => {
  it('inserts four spaces at the caret', () => {
    expect(indent('ab', 1, 1)).toEqual({ text: 'a    b', selectionStart: 5, selectionEnd: 5 })
  })

  it('replaces a selection within one line', () => {
    expect(indent('abcd', 1, 3)).toEqual({ text: 'a    d', selectionStart: 5, selectionEnd: 5 })
  })

  it('indents every line of a multi-line selection', () => {
    const text = 'x = 1\nif x:\ny = 2\nz'
    const start = text.indexOf('if')
    const end = text.indexOf('y = 2') + 3
    const edit = indent(text, start, end)
    expect(edit.text).toBe('x = 1\n    if x:\n    y = 2\nz')
    expect(edit.text.slice(edit.selectionStart, edit.selectionEnd)).toBe('if x:\n    y =')
  })
})

describe('dedent', () => {
  it('removes up to four leading spaces from each selected line', () => {
    const text = '      a\n  b\nc'
    const edit = dedent(text, 0, text.length)
    expect(edit.text).toBe('  a\nb\nc')
    expect(edit.selectionStart).toBe(0)
    expect(edit.selectionEnd).toBe(edit.text.length)
  })

  it('keeps the caret on its character when the line loses its indent', () => {
    const text = 'a\n    print(x)'
    const caret = text.indexOf('print') + 2
    const edit = dedent(text, caret, caret)
    expect(edit.text).toBe('a\nprint(x)')
    expect(edit.text.slice(edit.selectionStart)).toBe('int(x)')
  })

  it('leaves unindented text alone', () => {
    expect(dedent('abc', 1, 1)).toEqual({ text: 'abc', selectionStart: 1, selectionEnd: 1 })
  })
})

/** Text edits for the code editor, as pure functions of (text, selection). */

export const INDENT = '    '

export type Edit = { text: string; selectionStart: number; selectionEnd: number }

/**
 * Tab: with no selection or a selection inside one line, insert four spaces at the caret (replacing the
 * selection); with a selection over several lines, indent each of those lines.
 */
export function indent(text: string, start: number, end: number): Edit {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1
  const selected = text.slice(start, end)
  if (!selected.includes('\n')) {
    const next = text.slice(0, start) + INDENT + text.slice(end)
    const caret = start + INDENT.length
    return { text: next, selectionStart: caret, selectionEnd: caret }
  }
  const block = text.slice(lineStart, end)
  const lines = block.split('\n')
  const indented = lines.map((line) => INDENT + line).join('\n')
  return {
    text: text.slice(0, lineStart) + indented + text.slice(end),
    selectionStart: start + INDENT.length,
    selectionEnd: end + INDENT.length * lines.length
  }
}

/** Shift+Tab: remove up to four leading spaces from every line the selection touches. */
export function dedent(text: string, start: number, end: number): Edit {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1
  const lines = text.slice(lineStart, end).split('\n')
  let removedBeforeStart = 0
  let removedTotal = 0
  const out = lines.map((line, i) => {
    const strip = /^ {0,4}/.exec(line)?.[0].length ?? 0
    if (i === 0) removedBeforeStart = Math.min(strip, start - lineStart)
    removedTotal += strip
    return line.slice(strip)
  })
  return {
    text: text.slice(0, lineStart) + out.join('\n') + text.slice(end),
    selectionStart: start - removedBeforeStart,
    selectionEnd: Math.max(start - removedBeforeStart, end - removedTotal)
  }
}

/**
 * Finds the Python program in a model's reply.
 *
 * The rule, in order:
 * 1. `<think>…</think>` reasoning is dropped.
 * 2. Continuation: when the prompt ended inside a code block (`codePrefix` given) and the reply does not
 *    open a fence of its own, the reply continues that code: it is cut at the closing fence or at the
 *    first line that starts a new few-shot example (`Question:`, `Table:`, …), trailing prose is
 *    dropped, and the prefix is put in front.
 * 3. Fenced blocks (``` or ~~~, labelled python/py or unlabelled, closed or cut off by the token limit)
 *    that contain code: the last one that assigns `answer` (the runtime reads that variable); else the
 *    last one that prints; else the last substantial one. Earlier blocks that define functions the
 *    chosen block calls are kept in front of it.
 * 4. No fences: the span from the first to the last line that looks like Python, so prose before and
 *    after is dropped.
 * A reply with none of these is `model-no-code`.
 */

import type { Result } from '../../../shared/result'
import { fail, ok } from '../../../shared/result'

export type ExtractOptions = {
  /** The code the prompt ended with, inside an open fence, that a completions model continues. */
  codePrefix?: string
}

type Block = { lang: string; code: string }

const PYTHON_LANGS = new Set(['', 'python', 'py', 'python3', 'py3', 'ipython', 'pandas', 'pycon'])
const FENCE = /^\s*(`{3,}|~{3,})\s*([\w+.-]*)[^\n`]*$/
const EXAMPLE_START = /^\s*(question|q|table|answer|example|explanation|output|result|note)\s*\d*\s*[:：]/i

/** Lines that can only be Python (a start or end of a code span). */
const STRONG: RegExp[] = [
  /^\s*(import\s+[\w.]+|from\s+[\w.]+\s+import\s+)/,
  /^\s*(async\s+)?def\s+\w+\s*\(.*\)\s*(->.*)?:\s*$/,
  /^\s*class\s+\w+.*:\s*$/,
  /^\s*for\s+[\w, ()]+\s+in\s+.+:\s*$/,
  /^\s*(if|elif|while|with)\s+.+:\s*$/,
  /^\s*(else|try|finally)\s*:\s*$/,
  /^\s*except\b.*:\s*$/,
  /^\s*(return|raise|yield)\b/,
  /^\s*(pass|break|continue)\s*$/,
  /^\s*print\s*\(/,
  // Assignment to a name, attribute or subscript (not a comparison).
  /^\s*[A-Za-z_]\w*(\s*(\.\s*\w+|\[[^\]]*\]))*(\s*,\s*[A-Za-z_]\w*)*\s*([+\-*/%&|^]|\/\/|\*\*)?=(?!=)/,
  // A bare call or expression statement such as `df.head()` or `result`.
  /^\s*[A-Za-z_][\w.]*(\(.*\)|\[.*\])[\w.()[\]'",\s]*$/
]

function isStrong(line: string): boolean {
  return STRONG.some((re) => re.test(line))
}

/** Lines that belong to code once inside a code span: comments, continuations, closing brackets. */
function isWeak(line: string, previous: string | undefined): boolean {
  if (/^\s*#/.test(line) || /^\s*[)\]}]+[),\]}]*\s*$/.test(line)) return true
  // A bare lower-case name: the value the runtime shows, e.g. a closing `answer`.
  if (/^[a-z_][\w.]*\s*$/.test(line)) return true
  if (/^\s+\S/.test(line)) return true
  return previous !== undefined && /[([{,\\]\s*$/.test(previous)
}

function stripThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/gi, '').replace(/^[\s\S]*<\/think>/i, '')
}

function dedent(code: string): string {
  const lines = code.split('\n')
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0)
  const cut = indents.length === 0 ? 0 : Math.min(...indents)
  return lines.map((l) => l.slice(Math.min(cut, /^[ \t]*/.exec(l)?.[0].length ?? 0))).join('\n')
}

function hasCode(code: string): boolean {
  return code.split('\n').some(isStrong)
}

function fencedBlocks(text: string): Block[] | null {
  const lines = text.split('\n')
  const blocks: Block[] = []
  let open: { fence: string; lang: string; body: string[] } | null = null
  for (const line of lines) {
    if (open === null) {
      const m = FENCE.exec(line)
      if (m !== null) open = { fence: (m[1] ?? '```').slice(0, 3), lang: (m[2] ?? '').toLowerCase(), body: [] }
      continue
    }
    if (line.trim().startsWith(open.fence) && line.trim().replace(/[`~]/g, '') === '') {
      blocks.push({ lang: open.lang, code: open.body.join('\n') })
      open = null
    } else {
      open.body.push(line)
    }
  }
  // Cut off by the token limit before the closing fence.
  if (open !== null) blocks.push({ lang: open.lang, code: open.body.join('\n') })
  return blocks.length === 0 ? null : blocks
}

function definedFunctions(code: string): string[] {
  return [...code.matchAll(/^\s*def\s+(\w+)\s*\(/gm)].map((m) => m[1] ?? '')
}

function choose(blocks: Block[]): string | null {
  const python = blocks.filter((b) => PYTHON_LANGS.has(b.lang) && hasCode(b.code))
  if (python.length === 0) return null
  const lastIndex = (test: (b: Block) => boolean): number => python.map(test).lastIndexOf(true)
  let index = lastIndex((b) => /^\s*answer\s*(\[[^\]]*\])?\s*=(?!=)/m.test(b.code))
  if (index < 0) index = lastIndex((b) => /\bprint\s*\(/.test(b.code))
  if (index < 0) index = python.length - 1
  const chosen = python[index] as Block
  const own = new Set(definedFunctions(chosen.code))
  const helpers = python
    .slice(0, index)
    .filter((b) => definedFunctions(b.code).some((name) => !own.has(name) && new RegExp(`\\b${name}\\s*\\(`).test(chosen.code)))
  return [...helpers.map((b) => dedent(b.code).trimEnd()), dedent(chosen.code)].join('\n\n')
}

/** The span from the first to the last line of code, cut at the start of a new few-shot example. */
function codeSpan(lines: string[], startsInCode: boolean): string {
  let start = startsInCode ? 0 : lines.findIndex(isStrong)
  if (start < 0) return ''
  let end = lines.length
  for (let i = start; i < lines.length; i += 1) {
    if (EXAMPLE_START.test(lines[i] ?? '') || /^\s*(`{3,}|~{3,})/.test(lines[i] ?? '')) {
      end = i
      break
    }
  }
  let last = -1
  for (let i = start; i < end; i += 1) {
    const line = lines[i] ?? ''
    if (isStrong(line) || (last >= 0 && isWeak(line, lines[i - 1]))) last = i
  }
  if (startsInCode && last < 0) {
    // A continuation may be only comments or an indented tail of the prefix.
    while (start < end && (lines[start] ?? '').trim() === '') start += 1
    last = start < end && isWeak(lines[start] ?? '', undefined) ? start : -1
  }
  return last < start ? '' : lines.slice(start, last + 1).join('\n')
}

export function extractProgram(reply: string, options: ExtractOptions = {}): Result<string> {
  const text = stripThinking(reply.replace(/\r\n?/g, '\n'))
  const prefix = options.codePrefix
  if (prefix !== undefined && !/^\s*(`{3,}|~{3,})\s*[\w+.-]*\s*\n/.test(text)) {
    const continued = codeSpan(text.split('\n'), true)
    const program = `${prefix}${continued}`.trimEnd()
    if (hasCode(program)) return ok(program)
    return fail('model-no-code', 'The model did not continue the program it was given.')
  }
  const blocks = fencedBlocks(text)
  if (blocks !== null) {
    const chosen = choose(blocks)
    if (chosen !== null) return ok(chosen.trimEnd())
    return fail(
      'model-no-code',
      'The model replied with code blocks, but none holds a Python program.',
      blocks.map((b) => b.lang || 'unlabelled').join(', ')
    )
  }
  const span = codeSpan(text.split('\n'), false)
  if (span.trim() !== '') return ok(dedent(span).trimEnd())
  return fail('model-no-code', 'The model replied without a Python program.', text.slice(0, 300))
}

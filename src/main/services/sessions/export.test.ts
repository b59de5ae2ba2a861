import { describe, expect, it } from 'vitest'
import type { SessionRecord } from '../../../shared/session'
import { exportSession, parseExport, toMarkdown } from './export'
import { askSummary, runRecord } from '../../../../test/support/session-fixtures'

const KEY = 'sk-live-export-test-0123456789'

function session(): SessionRecord {
  return {
    version: 1,
    id: 'sess-1',
    name: 'Quarterly | review',
    createdAt: '2024-05-01T09:00:00.000Z',
    updatedAt: '2024-05-01T10:00:00.000Z',
    sources: [
      { id: 'src-1', origin: { kind: 'file', fileName: 'scores.csv', stored: 'abc.bin', bytes: 5 }, tables: [{ name: 'scores.csv' }] },
      { id: 'src-2', origin: { kind: 'sample', sample: 'bookshop-sqlite' }, tables: [{ name: 'authors' }, { name: 'books' }] }
    ],
    questions: [
      askSummary('Who scored most?', 'Bo'),
      askSummary('Uses ``` fences?', 'x', { answer: null, problem: { code: 'no-answer', message: `failed with ${KEY}` } })
    ],
    runs: [runRecord('len(rows)', '3')]
  }
}

describe('session export', () => {
  it('JSON carries the session and the bytes of its files, and imports back', () => {
    const out = exportSession(session(), 'json', (stored) => (stored === 'abc.bin' ? new TextEncoder().encode('a,b\n') : null), [KEY])
    expect(out.fileName).toBe('Quarterly-review.json')
    expect(out.mimeType).toBe('application/json')
    const back = parseExport(out.text)
    if (!back.ok) throw new Error(back.error.message)
    expect(back.value.session.questions.map((q) => q.question)).toEqual(['Who scored most?', 'Uses ``` fences?'])
    expect(new TextDecoder().decode(back.value.files.get('abc.bin'))).toBe('a,b\n')
    expect(back.value.missing).toEqual([])
  })

  it('never contains a known API key, nor key-shaped text', () => {
    for (const format of ['json', 'markdown'] as const) {
      const out = exportSession(session(), format, () => null, [KEY])
      expect(out.text).not.toContain(KEY)
      expect(out.text).not.toContain('0123456789')
    }
  })

  it('Markdown lists tables, questions with answers, candidates with log-probabilities, and runs', () => {
    const md = toMarkdown(session(), new Date('2024-06-01T00:00:00Z'))
    expect(md).toMatch(/^# Quarterly \| review\n/)
    expect(md).toContain('- scores.csv (file scores.csv)')
    expect(md).toContain('- books (sample bookshop-sqlite)')
    expect(md).toContain('### 1. Who scored most?')
    expect(md).toContain('**Answer:** Bo _(string)_')
    expect(md).toContain('| 1 ✓ | -1.250 | Bo |')
    expect(md).toContain('| 2 | -3.500 | error: ZeroDivisionError: division by zero |')
    // A corrected candidate says so.
    const fixed = askSummary('Fixed?', 'Bo')
    const first = fixed.candidates[0]
    if (first === undefined) throw new Error('no candidate')
    fixed.candidates[0] = { ...first, repairedFrom: { program: 'x', error: 'E', before: { program: 'y', error: 'F' } } }
    expect(toMarkdown({ ...session(), questions: [fixed] })).toContain('| 1 ✓ | -1.250 | Bo (repaired 2×) |')
    expect(md).toContain('```python\nanswer = "Bo"\n```')
    expect(md).toContain('**No answer.**')
    expect(md).toContain('## Python runs')
    expect(md).toContain('len(rows)')
  })

  it('import refuses what is not a valid export, naming the problem', () => {
    const cases: [string, RegExp][] = [
      ['', /empty/],
      ['{', /not JSON/],
      ['{"format":"other"}', /not a TableQA session export/],
      [JSON.stringify({ format: 'tableqa-session', version: 1, session: { ...session(), version: 2 } }), /Unsupported session version 2/],
      [
        JSON.stringify({ format: 'tableqa-session', version: 1, session: { ...session(), questions: [{ nope: 1 }] } }),
        /Question 1 is not a question record/
      ],
      [
        JSON.stringify({
          format: 'tableqa-session',
          version: 1,
          session: {
            ...session(),
            sources: [{ id: 'x', origin: { kind: 'file', fileName: 'a', stored: '../../etc/passwd', bytes: 1 }, tables: [] }]
          }
        }),
        /stored file name is not valid/
      ],
      [
        JSON.stringify({
          format: 'tableqa-session',
          version: 1,
          session: { ...session(), sources: [{ id: 'x', origin: { kind: 'sample', sample: 'nope' }, tables: [] }] }
        }),
        /unknown sample/
      ]
    ]
    for (const [text, message] of cases) {
      const result = parseExport(text)
      expect(result.ok ? 'accepted' : result.error.message).toMatch(message)
    }
  })

  it('import names the files an export did not carry', () => {
    const text = JSON.stringify({ format: 'tableqa-session', version: 1, exportedAt: '', session: session(), files: {} })
    const result = parseExport(text)
    expect(result.ok && result.value.missing).toEqual(['scores.csv'])
  })

  it('Markdown shows a table answer as a table and embeds a chart answer as an SVG image', () => {
    const table = { columns: [['Sales']], indexNames: ['Region'], index: [['North'], ['South']], rows: [[45.5], [null]], rowCount: 60 }
    const spec = {
      data: { values: [{ x: 1, y: 2 }] },
      mark: { type: 'bar' as const },
      encoding: { x: { field: 'x', type: 'ordinal' as const } }
    }
    const record = session()
    const tabled = askSummary('Sales by region?', '45.5')
    const charted = askSummary('Chart it', 'Chart: bar of y by x, 1 points')
    if (!tabled.answer || !charted.answer) throw new Error('fixture without an answer')
    tabled.answer.table = table
    charted.answer.chart = { spec, summary: 'bar of y by x, 1 points' }
    const missing = askSummary('Chart it again', 'Chart: bar')
    if (missing.answer) missing.answer.chart = { spec, summary: 'bar' }
    record.questions = [tabled, charted, missing]
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><text>drawn</text></svg>'
    const md = exportSession(record, 'markdown', () => null, [], new Date('2024-05-02T00:00:00Z'), new Map([[charted.askId, svg]])).text
    expect(md).toContain('| Region | Sales |\n| --- | --- |\n| North | 45.5 |\n| South |  |')
    expect(md).toContain('_The first 2 of 60 rows._')
    const image = /!\[bar of y by x, 1 points\]\(data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)\)/.exec(md)
    expect(Buffer.from(image?.[1] ?? '', 'base64').toString()).toBe(svg)
    expect(md).toContain('_The chart could not be drawn for this export._')
  })
})

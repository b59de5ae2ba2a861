import { describe, expect, it } from 'vitest'
import {
  columnHeader,
  importWarnings,
  failureHeadline,
  firstLine,
  formatDuration,
  formatRunTime,
  loadingText,
  pythonStatusText,
  tableShape
} from './format'

describe('columnHeader', () => {
  it('joins the levels of a multi-level header', () => {
    expect(columnHeader(['2019', 'Revenue', 'Q1'], 0)).toBe('2019 › Revenue › Q1')
  })

  it('skips blank levels and names fully blank columns by position', () => {
    expect(columnHeader(['', 'Total '], 3)).toBe('Total')
    expect(columnHeader(['', ' '], 3)).toBe('Column 4')
  })
})

describe('progress and shape', () => {
  it('groups thousands in the loading line', () => {
    expect(loadingText(40_000, 200_000)).toBe('Loading rows 40,000 / 200,000')
  })

  it('says rows × columns with singulars', () => {
    expect(tableShape(1, 1)).toBe('1 row × 1 column')
    expect(tableShape(200_000, 20)).toBe('200,000 rows × 20 columns')
  })
})

describe('pythonStatusText', () => {
  it('names the runtime and whether pandas is there', () => {
    expect(pythonStatusText({ state: 'ready', pandas: true, pythonVersion: '3.14.0' })).toBe('Python 3.14 ready (pandas)')
    expect(pythonStatusText({ state: 'ready', pandas: false, pythonVersion: '3.14.2' })).toBe(
      'Python 3.14 ready (no pandas: plain Python rows)'
    )
  })

  it('covers starting, busy and error', () => {
    expect(pythonStatusText({ state: 'starting', detail: '' })).toBe('Starting Python…')
    expect(pythonStatusText({ state: 'starting', detail: 'Starting Python…' })).toBe('Starting Python…')
    expect(pythonStatusText({ state: 'starting', detail: 'loading pandas' })).toBe('Starting Python… loading pandas')
    expect(pythonStatusText({ state: 'busy', runId: 'r' })).toBe('Running…')
    expect(pythonStatusText({ state: 'error', message: 'boom' })).toBe('Python error: boom')
  })
})

describe('failureHeadline', () => {
  it('explains timeouts and stops in plain words', () => {
    expect(failureHeadline({ code: 'timeout', message: 'Stopped after 45 s: the program ran past its time limit.' })).toBe(
      'Stopped after 45 s: the program ran past its time limit'
    )
    expect(failureHeadline({ code: 'timeout', message: 'x' })).toBe('Stopped: the program ran past its time limit')
    expect(failureHeadline({ code: 'interrupted', message: 'x' })).toBe('Stopped by you')
  })

  it('passes other messages through', () => {
    expect(failureHeadline({ code: 'python-error', message: "NameError: name 'x' is not defined" })).toBe(
      "NameError: name 'x' is not defined"
    )
  })
})

describe('small formatters', () => {
  it('takes the first non-blank line of code', () => {
    expect(firstLine('\n\n  len(rows)  \nprint(1)')).toBe('len(rows)')
    expect(firstLine('   \n')).toBe('(empty)')
  })

  it('formats durations in ms or s', () => {
    expect(formatDuration(12.4)).toBe('12 ms')
    expect(formatDuration(1530)).toBe('1.53 s')
    expect(formatDuration(31_000)).toBe('31.0 s')
  })

  it('shows only the clock for runs of today', () => {
    const now = new Date(2026, 0, 5, 12, 0, 0)
    expect(formatRunTime(new Date(2026, 0, 5, 9, 3, 7).toISOString(), now)).toBe('09:03:07')
    expect(formatRunTime(new Date(2026, 0, 4, 23, 59, 0).toISOString(), now)).toBe('2026-01-04 23:59:00')
    expect(formatRunTime('not a date', now)).toBe('not a date')
  })
})

describe('importWarnings', () => {
  it('keeps a single table’s warnings as they are', () => {
    expect(importWarnings([{ name: 'a.csv', warnings: ['Read as Windows-1252'] }])).toEqual(['Read as Windows-1252'])
  })

  it('names the sheet when a file has several tables', () => {
    const tables = [
      { name: 'Sheet1', warnings: [] },
      { name: 'Sheet2', warnings: ['2 merged cells were split'] }
    ]
    expect(importWarnings(tables)).toEqual(['Sheet2: 2 merged cells were split'])
  })
})

import { describe, expect, it } from 'vitest'
import { repairLabel } from '../../../shared/ask'
import { earlierPrograms } from './repairs'

describe('corrected candidates in the candidate list', () => {
  it('lists the failed programs first to last, each with its error, and counts the corrections', () => {
    const twice = { program: 'b = 2', error: 'KeyError: b', before: { program: 'a = 1', error: 'NameError: a' } }
    expect(earlierPrograms(twice, 2)).toEqual([
      { program: 'a = 1', error: 'NameError: a', title: 'The first program', label: 'First program of candidate 3' },
      { program: 'b = 2', error: 'KeyError: b', title: 'Correction 1', label: 'Correction 1 of candidate 3' }
    ])
    expect(repairLabel(twice)).toBe('repaired 2×')
    expect(repairLabel(twice.before)).toBe('repaired')
    expect(earlierPrograms(undefined, 0)).toEqual([])
    expect(repairLabel(undefined)).toBeNull()
  })
})

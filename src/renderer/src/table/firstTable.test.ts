import { describe, expect, it } from 'vitest'
import { firstToShow } from './firstTable'

const t = (name: string, figureShare: number): { name: string; figureShare: number } => ({ name, figureShare })

describe('the first table of a file to show', () => {
  it('skips contents, cover and notes sheets', () => {
    expect(firstToShow([t('Cover', 0), t('Contents', 0), t('Table 1', 0.9), t('Notes', 0)])?.name).toBe('Table 1')
  })

  it('skips a listing with a few figures when the file has a real table', () => {
    expect(firstToShow([t('Index', 0.1), t('Data1', 1), t('Inquiries', 0)])?.name).toBe('Data1')
  })

  it('takes a long table whose labels outnumber its figures when nothing has more', () => {
    expect(firstToShow([t('Notes', 0), t('Tidy data', 0.14)])?.name).toBe('Tidy data')
  })

  it('falls back to the first table when none holds figures, and to nothing for no tables', () => {
    expect(firstToShow([t('Sheet1', 0), t('Sheet2', 0)])?.name).toBe('Sheet1')
    expect(firstToShow([])).toBeUndefined()
  })
})

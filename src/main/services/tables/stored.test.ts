import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { VALUE_KIND, type RawGrid } from '../../../shared/table'
import { datasetsDir } from '../paths'
import { importFile } from './import'
import { SheetBuilder, type TypedValue } from './import/grid'
import { joinPrepared, prepareTable, splitPrepared } from './prepare'
import { flattenTable, splitSideBySide, structureGrid } from './structure'

const num = (value: number): TypedValue => ({ kind: VALUE_KIND.exactNumber, value })
const plain = (value: number): TypedValue => ({ kind: VALUE_KIND.number, value })

/**
 * A title line, a header row, then regions with a value stored more precisely than shown; the year is merged
 * down over two rows; one share is a percentage, one cell a formula error.
 */
function report(): RawGrid {
  const sheet = new SheetBuilder()
  sheet.set(0, 0, 'Table 1. Woodland area (thousand hectares)')
  const header = ['region', 'year', 'area', 'share']
  header.forEach((text, c) => sheet.set(1, c, text))
  sheet.set(2, 0, 'north')
  sheet.set(2, 1, '2019', undefined, plain(2019))
  sheet.set(2, 2, '151', undefined, num(151.4716))
  sheet.set(2, 3, '12%', undefined, num(0.123))
  sheet.set(3, 0, 'south')
  sheet.set(3, 2, '96', undefined, num(96.0708))
  sheet.set(3, 3, '#DIV/0!', undefined, { kind: VALUE_KIND.missing })
  sheet.merges.push({ top: 2, left: 1, bottom: 3, right: 1 })
  return sheet.build('book.xlsx › S')
}

describe('stored values through the structure pass', () => {
  it('are read at the source cells of the data region, below a title block', () => {
    const table = structureGrid(report(), { titleRows: 1, headerRows: 1, headerCols: 1 })
    expect(table.rowSource).toEqual([2, 3])
    expect(table.values).toEqual([
      ['2019', '151', '12%'],
      ['2019', '96', '#DIV/0!']
    ])
    expect(table.stored).toEqual([
      // The year merged over both rows is the stored value of the merge's own cell in each.
      { kinds: 'nn', numbers: [] },
      { kinds: 'NN', numbers: [151.4716, 96.0708] },
      { kinds: 'N0', numbers: [0.123] }
    ])
    expect(table.numbers()).toEqual([
      [2019, 151.4716, 0.123],
      [2019, 96.0708, null]
    ])
  })

  it('leave a grid without typed cells as it was, and give the flat view no values for its label columns', () => {
    const text: RawGrid = {
      name: 't.csv',
      cells: [
        ['a', 'b'],
        ['x', '1']
      ],
      merges: [],
      warnings: []
    }
    expect(structureGrid(text, { headerRows: 1, headerCols: 0 }).stored).toBeUndefined()
    const flat = flattenTable(structureGrid(report(), { titleRows: 1, headerRows: 1, headerCols: 1 }))
    expect(flat.columns[0]).toEqual(['level 1'])
    expect(flat.stored?.map((c) => c?.kinds ?? null)).toEqual([null, 'nn', 'NN', 'N0'])
    expect(flat.numbers()[0]).toEqual([null, 2019, 151.4716, 0.123])
  })

  it('travel with a prepared table cut into parts between threads', () => {
    const table = prepareTable(report(), { titleRows: 1, headerRows: 1, headerCols: 1 })
    const { head, parts } = splitPrepared(table, 1)
    expect(parts).toHaveLength(2)
    expect(parts[1]?.stored?.[1]).toEqual({ kinds: 'N', numbers: [96.0708] })
    const joined = joinPrepared(head)
    for (const part of parts) joined.add(structuredClone(part))
    const back = joined.finish().parsed
    expect(back.stored).toEqual(table.parsed.stored)
    expect(back.numbers()).toEqual(table.parsed.numbers())
    const payload = JSON.parse(new TextDecoder().decode(table.payload)) as { stored: unknown }
    expect(payload.stored).toEqual(table.parsed.stored)
  })

  const woodland = join(datasetsDir(), 'spreadsheets', 'forestry-gss-cogs', 'Ch1_Woodland_FS2022.xlsx')
  it.runIf(existsSync(woodland))('name the sheet cells of each table of a real sheet that holds several side by side', async () => {
    const r = await importFile('Ch1_Woodland_FS2022.xlsx', new Uint8Array(readFileSync(woodland)))
    if (!r.ok) throw new Error(r.error.message)
    const sheet = r.value.find((g) => g.name.endsWith('› Table_1.6'))
    if (sheet?.values === undefined) throw new Error('no typed Table_1.6')
    const { width, kinds, numbers } = sheet.values
    const parts = splitSideBySide(sheet)
    expect(parts.length).toBeGreaterThan(1)
    let checked = 0
    for (const part of parts) {
      const table = structureGrid(part)
      table.colSource.forEach((c, j) => {
        const column = table.stored?.[j]
        let next = 0
        table.rowSource.forEach((r, i) => {
          const letter = column?.kinds[i] ?? '.'
          const code = kinds[r * width + c] ?? 0
          // Each data cell has the kind of its sheet cell (or of the merge over it), and numbers in order.
          if (code !== 0 || (sheet.cells[r]?.[c] ?? '') !== '') expect([r, c, letter]).toEqual([r, c, String.fromCharCode(code || 46)])
          if ('Ndhe'.includes(letter)) expect(column?.numbers[next++]).toBe(numbers[r * width + c])
          checked++
        })
      })
    }
    expect(checked).toBeGreaterThan(50)
  })
})

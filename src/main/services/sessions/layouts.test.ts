import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RowMove } from '../../../shared/corrections'
import { SessionStore } from './store'

const SHA = 'a'.repeat(64)
const OTHER = 'b'.repeat(64)
const move: RowMove = { row: 11, label: 'Chemistry', under: 6, underLabel: 'Life sciences' }

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tableqa-layouts-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('layouts set by hand, by file hash', () => {
  it('keeps the rows moved by hand with the layout, read back by a new store', () => {
    new SessionStore(dir).rememberLayout(SHA, '', {
      name: 'PhD.xlsx',
      structure: { titleRows: 3, headerRows: 2, headerCols: 1, leftHierarchy: 'auto', rowMoves: [move] },
      view: 'multiindex'
    })
    const again = new SessionStore(dir)
    expect(again.savedLayout(SHA, '')?.structure?.rowMoves).toEqual([move])
    expect(again.savedLayoutNotes(SHA, '')).toEqual([])
    expect(again.savedLayout(OTHER, '')).toBeUndefined()
  })

  it('leaves out damaged moves and entries that are not layouts, says which, and keeps the rest', () => {
    const layouts = {
      [`${SHA}\n`]: {
        name: 'PhD.xlsx',
        structure: { headerRows: 2, headerCols: 1, rowMoves: [move, { row: -1, label: 'x', under: null, underLabel: '' }, 'junk'] }
      },
      [`${OTHER}\n`]: { structure: 'not a layout' },
      [`${OTHER}\n › Sheet2`]: { name: 'b.xlsx › Sheet2', structure: { headerRows: 1, headerCols: 0, rowMoves: { row: 1 } } }
    }
    writeFileSync(join(dir, 'layouts.v1.json'), JSON.stringify(layouts))
    const store = new SessionStore(dir)
    expect(store.savedLayout(SHA, '')?.structure).toEqual({ headerRows: 2, headerCols: 1, rowMoves: [move] })
    expect(store.savedLayoutNotes(SHA, '')).toEqual([
      'The saved layout, PhD.xlsx: move 2: its row is not a row number',
      'The saved layout, PhD.xlsx: move 3: it is not an object'
    ])
    expect(store.savedLayout(OTHER, '')).toBeUndefined()
    expect(store.savedLayoutNotes(OTHER, '')).toEqual([
      'The saved layout of this table could not be read and was ignored (The saved layout: a table has no name).'
    ])
    expect(store.savedLayout(OTHER, ' › Sheet2')?.structure).toEqual({ headerRows: 1, headerCols: 0 })
    expect(store.savedLayoutNotes(OTHER, ' › Sheet2')).toEqual(['The saved layout, b.xlsx › Sheet2: the moved rows are not a list'])
    expect(store.listing().problems).toEqual([])
  })

  it('moves a layouts file that cannot be read aside, reports it, and saves new layouts', () => {
    writeFileSync(join(dir, 'layouts.v1.json'), '{"cut short')
    const store = new SessionStore(dir)
    expect(store.savedLayout(SHA, '')).toBeUndefined()
    const problems = store.listing().problems
    expect(problems).toHaveLength(1)
    expect(problems[0]?.reason).toMatch(/^saved layouts: /)
    expect(problems[0]?.movedTo).toMatch(/layouts\.v1\.corrupt-.*\.json$/)
    expect(existsSync(problems[0]?.movedTo ?? '')).toBe(true)
    expect(readdirSync(dir)).not.toContain('layouts.v1.json')

    store.rememberLayout(SHA, '', { name: 'PhD.xlsx', structure: { headerRows: 2, headerCols: 1, rowMoves: [move] } })
    expect(JSON.parse(readFileSync(join(dir, 'layouts.v1.json'), 'utf8'))).toEqual({
      [`${SHA}\n`]: { name: 'PhD.xlsx', structure: { headerRows: 2, headerCols: 1, rowMoves: [move] } }
    })
    // The moved-aside file is not read as a session.
    expect(new SessionStore(dir).listing().problems).toEqual([])
  })

  it('leaves damaged moves out of a session file it reads, and says so once', () => {
    const first = new SessionStore(dir)
    const id = first.current().id
    first.update(id, (r) => ({
      ...r,
      sources: [
        {
          id: 's1',
          origin: { kind: 'file', fileName: 'PhD.xlsx', stored: 'x.bin', bytes: 1, sha256: SHA },
          tables: [{ name: 'PhD.xlsx', structure: { headerRows: 2, headerCols: 1, rowMoves: [move] } }]
        }
      ]
    }))
    const path = join(dir, `${id}.json`)
    const record = JSON.parse(readFileSync(path, 'utf8')) as { sources: { tables: { structure: { rowMoves: unknown[] } }[] }[] }
    record.sources[0]?.tables[0]?.structure.rowMoves.push({ row: 'twelve' })
    writeFileSync(path, JSON.stringify(record))
    const store = new SessionStore(dir)
    expect(store.get(id)?.sources[0]?.tables[0]?.structure?.rowMoves).toEqual([move])
    expect(store.takeNotes(id)).toEqual(['Table source 1, PhD.xlsx: move 2: its row is not a row number'])
    expect(store.takeNotes(id)).toEqual([])
    expect(store.listing().problems).toEqual([])
  })
})

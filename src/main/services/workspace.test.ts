import { describe, expect, it } from 'vitest'
import type { HeaderNode } from '../../shared/table'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Workspace } from './workspace'
import { appRoot } from './paths'

const csv = (rows: number): Uint8Array =>
  new TextEncoder().encode(`a,b\n${Array.from({ length: rows }, (_, i) => `x${i},${i}`).join('\n')}\n`)

describe('workspace', () => {
  it('closes the least recently used tables past its limits and tells the executor', async () => {
    const evicted: string[] = []
    const workspace = new Workspace({ maxTables: 2, maxCells: 1_000_000 }, (id) => evicted.push(id))
    const first = await workspace.open('1.csv', csv(3))
    const second = await workspace.open('2.csv', csv(4))
    if (!first.ok || !second.ok) throw new Error('open failed')
    const firstId = first.value[0]?.id ?? ''
    const secondId = second.value[0]?.id ?? ''
    workspace.get(firstId)
    await workspace.open('3.csv', csv(5))
    expect(evicted).toEqual([secondId])
    expect(workspace.get(firstId)).toBeDefined()
    expect(workspace.rows(secondId, 0, 1).ok).toBe(false)
  })

  it('bounds the cells kept, never evicting the tables just opened', async () => {
    const evicted: string[] = []
    const workspace = new Workspace({ maxTables: 10, maxCells: 50 }, (id) => evicted.push(id))
    await workspace.open('small.csv', csv(5))
    const big = await workspace.open('big.csv', csv(100))
    expect(big.ok).toBe(true)
    expect(evicted).toHaveLength(1)
  })

  it('refuses a file past the size limit with a clear message', async () => {
    const workspace = new Workspace()
    const huge = { byteLength: 600 * 1024 * 1024 } as Uint8Array
    const opened = await workspace.open('huge.csv', huge)
    expect(opened.ok).toBe(false)
    if (!opened.ok) expect(opened.error.message).toMatch(/600 MB.*512 MB/)
  })
})

describe('numeric columns', () => {
  it('are columns of numbers, also where short marks stand for missing values', async () => {
    const { numericColumns } = await import('./workspace')
    const rows = [
      ['Tokens', '76,106', 'N/A', '1.5', 'x', 'Yes'],
      ['Tickets', '(1,298)', '8,807', '..', '2.5', 'No'],
      ['Cash', '36,045', 'N/A', '-', '3', 'Yes']
    ]
    expect(numericColumns(rows, 6)).toEqual([1, 2, 3, 4])
  })

  it('are not columns of text that hold a few numbers, nor columns of marks alone', async () => {
    const { numericColumns } = await import('./workspace')
    const rows = [
      ['12', 'N/A', 'see note 1'],
      ['Total', '..', '7'],
      ['3', '-', 'other']
    ]
    expect(numericColumns(rows, 3)).toEqual([])
  })
})

describe('capTree', () => {
  it('keeps at most the given number of nodes, level by level, and says when it cut', async () => {
    const { capTree } = await import('./workspace')
    const leaf = (text: string) => ({ text, cell: null, children: [] })
    const root = { text: '', cell: null, children: [{ text: 'a', cell: null, children: [leaf('a1'), leaf('a2')] }, leaf('b'), leaf('c')] }
    const cut = capTree(root, 4)
    expect(cut.truncated).toBe(true)
    expect(cut.root.children.map((n) => n.text)).toEqual(['a', 'b', 'c'])
    expect(cut.root.children[0]?.children.map((n) => n.text)).toEqual(['a1'])
    expect(capTree(root, 5)).toEqual({ root, truncated: false })
  })

  it('shows repeated labels of consecutive siblings as one node with all their children', async () => {
    const { capTree } = await import('./workspace')
    const node = (text: string, children: HeaderNode[] = []): HeaderNode => ({ text, cell: null, children })
    const root = node('', [
      node('R0', [node('a')]),
      node('R0', [node('b')]),
      node('R1', [node('c')]),
      node('R0', [node('d')]),
      node(''),
      node('')
    ])
    const shown = capTree(root, 100).root
    expect(shown.children.map((n) => n.text)).toEqual(['R0', 'R1', 'R0', '', ''])
    expect(shown.children[0]?.children.map((n) => n.text)).toEqual(['a', 'b'])
  })

  it('names the file each table came from by its content, whatever the file is called, and keeps it across layouts', async () => {
    const workspace = new Workspace()
    const a = await workspace.open('a.csv', csv(3))
    const b = await workspace.open('renamed.csv', csv(3))
    const c = await workspace.open('c.csv', csv(4))
    if (!a.ok || !b.ok || !c.ok) throw new Error('open failed')
    const [ta, tb, tc] = [a.value[0], b.value[0], c.value[0]]
    expect(ta?.summary.source.fileName).toBe('a.csv')
    expect(ta?.summary.source.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(tb?.summary.source.sha256).toBe(ta?.summary.source.sha256)
    expect(tc?.summary.source.sha256).not.toBe(ta?.summary.source.sha256)
    const again = await workspace.restructure(ta?.id ?? '', { headerRows: 1, headerCols: 1 })
    expect(again.ok && again.value.summary.source).toEqual(ta?.summary.source)
  })

  it('gives back the open tables of a file opened again, and opens only the ones closed since', async () => {
    const workspace = new Workspace()
    const book = await readFile(join(appRoot(), 'resources', 'samples', 'bookshop.sqlite'))
    const first = await workspace.open('bookshop.sqlite', new Uint8Array(book))
    if (!first.ok) throw new Error('open failed')
    const ids = first.value.map((t) => t.id)
    expect(ids).toHaveLength(2)
    const again = await workspace.open('copy of bookshop.sqlite', new Uint8Array(book))
    expect(again.ok && again.value.map((t) => t.id)).toEqual(ids)
    expect(workspace.list()).toHaveLength(2)

    workspace.close(ids[0] ?? '')
    const back = await workspace.open('bookshop.sqlite', new Uint8Array(book))
    if (!back.ok) throw new Error('open failed')
    expect(back.value).toHaveLength(2)
    expect(back.value[0]?.id).not.toBe(ids[0])
    expect(back.value[1]?.id).toBe(ids[1])
    expect(back.value.map((t) => t.summary.name)).toEqual(first.value.map((t) => t.summary.name))
    expect(workspace.list()).toHaveLength(2)
  })

  it('says how much of each table is figures', async () => {
    const workspace = new Workspace()
    const cities = await workspace.open('cities.csv', new TextEncoder().encode('city,people\nOslo,700\nBergen,290\nTromso,77\n'))
    expect(cities.ok && cities.value[0]?.summary.figureShare).toBe(0.5)
    const notes = await workspace.open('notes.csv', new TextEncoder().encode('note\nSource: a survey\nFigures are rounded\n'))
    expect(notes.ok && notes.value[0]?.summary.figureShare).toBe(0)
  })
})

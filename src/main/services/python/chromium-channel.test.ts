import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { testExecutor } from '../../../../test/support/executor'
import type { PythonExecutor } from './executor'
import { encodeTable } from './types'

let executor: PythonExecutor
let page: Page | null = null

beforeAll(async () => {
  executor = testExecutor({ poolSize: 1 }, 30_000, [], undefined, (p) => (page = p))
  await executor.start()
})

afterAll(async () => {
  await executor?.close()
})

/** The page's own origin and the channel path its URL names. */
function pageChannel(): { origin: string; path: string } {
  if (!page) throw new Error('the page was not handed to the test')
  const url = new URL(page.url())
  const path = new URLSearchParams(url.hash.slice(1)).get('channel')
  if (!path) throw new Error(`the page URL names no channel: ${page.url()}`)
  return { origin: url.origin, path }
}

/** Try a connection; 'open' if the server took it, else how it was refused. */
function attempt(url: string, origin: string): Promise<'open' | 'refused'> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { origin })
    socket.on('open', () => {
      socket.close()
      resolve('open')
    })
    socket.on('error', () => resolve('refused'))
  })
}

const answer = async (code: string): Promise<unknown> => {
  const outcome = await executor.run({ runId: `run-${Math.random()}`, code, tableId: null })
  return outcome.result.ok ? outcome.result.value.value : outcome.result.error
}

describe('the channel between main and the executor page', () => {
  it('carries runs and their results over the page’s socket', async () => {
    expect(await answer('answer = 6 * 7')).toMatchObject({ json: 42 })
  })

  it('refuses every other connection: a second one on the path, another path, another origin', async () => {
    const { origin, path } = pageChannel()
    const ws = origin.replace('http://', 'ws://')
    expect(await attempt(`${ws}${path}`, origin)).toBe('refused')
    expect(await attempt(`${ws}/channel/00000000-0000-0000-0000-000000000000`, origin)).toBe('refused')
    expect(await attempt(`${ws}${path}`, 'http://evil.example')).toBe('refused')
    // The page's own connection is untouched by the attempts.
    expect(await answer('answer = "still here"')).toMatchObject({ json: 'still here' })
  })

  it('moves a table to the page and runs on it', async () => {
    await executor.loadTable('t', encodeTable({ name: 't', columns: [['a']], index: [['x'], ['y']], values: [['1'], ['2']] }))
    const outcome = await executor.run({ runId: 'table-run', code: 'answer = len(rows)', tableId: 't' })
    expect(outcome.result).toMatchObject({ ok: true, value: { value: { json: 2 } } })
  })
})

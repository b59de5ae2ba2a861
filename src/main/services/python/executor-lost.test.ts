import { describe, expect, it } from 'vitest'
import type { HostToPage } from '../../../shared/executor-protocol'
import { channelSignals, type ChannelFactory } from './channel'
import { PythonExecutor } from './executor'

/** Channels that record being closed, and let the test end them as a crashed page would. */
function recordingFactory(): { factory: ChannelFactory; made: { exit: (reason: string) => void; closes: number }[] } {
  const made: { exit: (reason: string) => void; closes: number }[] = []
  const factory: ChannelFactory = () => {
    const signals = channelSignals()
    const record = { exit: signals.exit, closes: 0 }
    made.push(record)
    return Promise.resolve({
      post: (_message: HostToPage) => Promise.resolve(),
      sendTable: () => Promise.resolve(),
      onMessage: signals.onMessage,
      onExit: signals.onExit,
      close: () => {
        signals.silence()
        record.closes++
        return Promise.resolve()
      }
    })
  }
  return { factory, made }
}

describe('a page that is lost', () => {
  it('has its channel closed when it exits, and a new page takes its place', async () => {
    const { factory, made } = recordingFactory()
    const executor = new PythonExecutor(factory, { config: { poolSize: 1, loadPandas: false, killGraceMs: 10 }, defaultTimeoutMs: 1_000, bootTimeoutMs: 1_000 })
    await executor.start()
    const [first] = made
    if (!first) throw new Error('no channel was made')
    first.exit('The Python sandbox page closed.')
    await executor.start()
    expect(made).toHaveLength(2)
    // Without the close, a crashed page's browser and asset server stayed until the app quit.
    expect(first.closes).toBe(1)
    expect(made[1]?.closes).toBe(0)
    await executor.close()
    expect(made[1]?.closes).toBe(1)
  })
})

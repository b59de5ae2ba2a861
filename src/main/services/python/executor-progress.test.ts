import { describe, expect, it } from 'vitest'
import type { HostToPage } from '../../../shared/executor-protocol'
import type { BootProgress, ExecutorState } from '../../../shared/python'
import type { HostEvents } from '../../../shared/python-host'
import { RunPool } from '../../../shared/run-pool'
import { channelSignals, type ChannelFactory } from './channel'
import { PythonExecutor } from './executor'

/**
 * A channel whose pool holds interpreters the test boots by hand: each reports steps, then ready, as
 * the Pyodide workers do, so the path from a worker's step to the executor's state is the real one.
 */
function scriptedBoot(): { factory: ChannelFactory; interpreters: HostEvents[] } {
  const interpreters: HostEvents[] = []
  const factory: ChannelFactory = () => {
    const signals = channelSignals()
    let pool: RunPool | null = null
    return Promise.resolve({
      post: (message: HostToPage) => {
        if (message.type === 'configure') {
          pool = new RunPool(message.config, (events) => {
            interpreters.push(events)
            return { loadTable: () => {}, dropTable: () => {}, run: () => {}, answerQa: () => {}, interrupt: () => {}, terminate: () => {} }
          }, signals.emit)
        } else pool?.handle(message)
        return Promise.resolve()
      },
      sendTable: () => Promise.resolve(),
      onMessage: signals.onMessage,
      onExit: signals.onExit,
      close: () => Promise.resolve()
    })
  }
  return { factory, interpreters }
}

const step = (done: number, label: string): BootProgress => ({ done, total: 4, label })

async function booting(poolSize: number): Promise<{ executor: PythonExecutor; states: ExecutorState[]; interpreters: HostEvents[] }> {
  const { factory, interpreters } = scriptedBoot()
  const executor = new PythonExecutor(factory, { config: { poolSize, loadPandas: true, killGraceMs: 10 }, defaultTimeoutMs: 1_000, bootTimeoutMs: 1_000 })
  const states: ExecutorState[] = []
  executor.onStatus((s) => states.push(s))
  await executor.start()
  return { executor, states, interpreters }
}

describe('start-up progress', () => {
  it('becomes the starting state, step by step, and ends at ready', async () => {
    const { executor, states, interpreters } = await booting(1)
    const [worker] = interpreters
    if (!worker) throw new Error('no interpreter was spawned')
    worker.message({ type: 'progress', progress: step(0, 'Loading the Pyodide runtime') })
    worker.message({ type: 'progress', progress: step(1, 'Loading numpy') })
    worker.message({ type: 'progress', progress: step(3, 'Installing the runtime library') })
    worker.message({ type: 'ready', ...{ pythonVersion: '3.13.2', pandas: true, bootMs: 5 } })
    expect(states).toEqual([
      { state: 'starting', detail: 'Starting Python…' },
      { state: 'starting', detail: 'Loading the Pyodide runtime', progress: step(0, 'Loading the Pyodide runtime') },
      { state: 'starting', detail: 'Loading numpy', progress: step(1, 'Loading numpy') },
      { state: 'starting', detail: 'Installing the runtime library', progress: step(3, 'Installing the runtime library') },
      { state: 'ready', pythonVersion: '3.13.2', pandas: true }
    ])
    expect(executor.status()).toEqual({ state: 'ready', pythonVersion: '3.13.2', pandas: true })
    await executor.close()
  })

  it('only moves forward while several interpreters boot, and stops once one is ready', async () => {
    const { executor, states, interpreters } = await booting(2)
    const [a, b] = interpreters
    if (!a || !b) throw new Error('two interpreters were expected')
    a.message({ type: 'progress', progress: step(0, 'runtime') })
    b.message({ type: 'progress', progress: step(0, 'runtime') })
    b.message({ type: 'progress', progress: step(1, 'numpy') })
    a.message({ type: 'progress', progress: step(1, 'numpy') })
    a.message({ type: 'progress', progress: step(2, 'pandas') })
    b.message({ type: 'progress', progress: step(2, 'pandas') })
    a.message({ type: 'ready', ...{ pythonVersion: '3.13.2', pandas: true, bootMs: 5 } })
    b.message({ type: 'progress', progress: step(3, 'library') })
    b.message({ type: 'ready', ...{ pythonVersion: '3.13.2', pandas: true, bootMs: 6 } })
    const shown = states.flatMap((s) => (s.state === 'starting' && s.progress ? [s.progress.done] : []))
    expect(shown).toEqual([0, 1, 2])
    expect(states.at(-1)?.state).toBe('ready')
    await executor.close()
  })

  it('is ignored when it arrives after the executor left the starting state', async () => {
    const { executor, states, interpreters } = await booting(1)
    const [worker] = interpreters
    if (!worker) throw new Error('no interpreter was spawned')
    worker.message({ type: 'boot-error', step: 'runtime', detail: 'no wasm' })
    const count = states.length
    // The replacement interpreter reports its steps, but the error stays until one is ready.
    interpreters.at(-1)?.message({ type: 'progress', progress: step(0, 'runtime') })
    expect(states).toHaveLength(count)
    expect(executor.status().state).toBe('error')
    await executor.close()
  })
})

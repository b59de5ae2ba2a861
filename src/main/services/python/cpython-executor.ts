import type { ExecutorConfig } from '../../../shared/executor-protocol'
import { cpythonChannelFactory, type CPythonOptions } from './cpython-channel'
import { PythonExecutor } from './executor'

export type CreateCPythonOptions = CPythonOptions & {
  config?: Partial<ExecutorConfig>
  defaultTimeoutMs?: number
}

/** The opt-in local CPython executor (not sandboxed): same interface and behaviour as the Pyodide one. */
export function createCPythonExecutor(options: CreateCPythonOptions): PythonExecutor {
  return new PythonExecutor(
    cpythonChannelFactory(options),
    {
      config: { poolSize: 2, loadPandas: true, killGraceMs: 40, ...options.config },
      defaultTimeoutMs: options.defaultTimeoutMs ?? 30_000,
      bootTimeoutMs: 60_000
    },
    'cpython'
  )
}

import { afterAll, describe, expect, it } from 'vitest'
import { SMALL_REPORT, TWO_TOTALS, testExecutor } from '../../../../test/support/executor'
import { defaultDataDir } from '../paths'
import type { PythonExecutor } from './executor'
import { missingWheels, packageDirs, pandasPackages } from './package-source'
import { encodeTable } from './types'

/**
 * The runtime library with pandas inside the Pyodide sandbox. It runs only where the wheels Pyodide's
 * lock names are in a package folder (`npm run setup:python` fills one); elsewhere the test that does
 * run says why, in the test output, so the gap is never silent.
 */
const dirs = packageDirs(process.env.TABLEQA_HOME ?? defaultDataDir())
const missing = missingWheels(pandasPackages(), dirs)
const reason =
  `pandas-in-Pyodide tests NOT RUN: ${missing.length} wheel(s) missing from ${dirs.join(' and ')}: ${missing.join(', ')}. ` +
  'PyPI serves no pyemscripten_2026_0_wasm32 wheels of numpy or pandas (only cp312 pyemscripten_2024_0 pandas wheels, for an older Pyodide), ' +
  'and the pyodide npm package ships none; the official Pyodide distribution (what the app fetches on first start) cannot be reached from this machine. ' +
  'Run `npm run setup:python` where it can, or `npm run setup:python -- --from <dir|url>` with a Pyodide 314 distribution, to enable them.'

let executor: PythonExecutor | null = null

afterAll(async () => {
  await executor?.close()
})

describe('pandas inside the Pyodide sandbox', () => {
  it.runIf(missing.length > 0)('is not run here, and says why', () => {
    console.warn(reason)
    expect(missing.length).toBeGreaterThan(0)
  })

  it.runIf(missing.length === 0)('loads pandas and runs the runtime library over a MultiIndex table', async () => {
    executor = testExecutor({ loadPandas: true }, 30_000, dirs)
    await executor.loadTable('h', encodeTable(SMALL_REPORT))
    const { result } = await executor.run({ runId: 'p', code: 'float(lookup(df, "canada", ("2019", "men")))', tableId: 'h' })
    expect(result.ok && result.value.tableKind).toBe('pandas')
    expect(result.ok && result.value.value?.json).toBeDefined()
    // The question reaches the runtime: of the two columns 'total' names, it reads the one the question names.
    await executor.loadTable(
      'survey',
      encodeTable(TWO_TOTALS)
    )
    const code = 'float(df.loc["transport", "total"])'
    const asked = await executor.run({ runId: 'q1', code, tableId: 'survey', question: 'How many women worked in transport?' })
    expect(asked.result.ok && asked.result.value.value?.json).toBe(4)
    const unasked = await executor.run({ runId: 'q2', code, tableId: 'survey' })
    expect(!unasked.result.ok && unasked.result.error.message).toContain("'total' names 2 column headers")
  })
})

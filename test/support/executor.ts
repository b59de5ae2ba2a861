import type { Page } from 'playwright-core'
import { ExecutorAssets } from '../../src/main/services/python/assets'
import { chromiumChannelFactory, findChromium } from '../../src/main/services/python/chromium-channel'
import { PythonExecutor } from '../../src/main/services/python/executor'
import type { PackageSet } from '../../src/main/services/python/package-source'
import type { ExecutorConfig } from '../../src/shared/executor-protocol'

/**
 * A real executor for tests: the built executor page in headless Chromium. Tests need `npm run build`
 * first (npm test does it) and Debian's chromium; without them this throws with the reason, never skips.
 * `packages`: the lock served to the page and the packages wanted from it (default: numpy and pandas from
 * the installed lock). `onPage`: handed each page the executor starts, for tests that look at it directly.
 */
export function testExecutor(
  config: Partial<ExecutorConfig> = {},
  defaultTimeoutMs = 10_000,
  packageDirs: string[] = [],
  packages?: PackageSet,
  onPage?: (page: Page) => void
): PythonExecutor {
  const chromium = findChromium()
  if (!chromium) throw new Error('Executor tests need Chromium: apt-get install chromium (or set TABLEQA_CHROMIUM).')
  const assets = new ExecutorAssets(packages ? { packageDirs, packages } : { packageDirs })
  if (!assets.built()) throw new Error('Executor tests need the built executor page: run `npm run build` first.')
  return new PythonExecutor(chromiumChannelFactory(assets, chromium, onPage), {
    config: { poolSize: 2, loadPandas: false, killGraceMs: 40, ...config },
    defaultTimeoutMs,
    bootTimeoutMs: 120_000
  })
}

/** A table where 'total' stands under two parents ('men' and 'women'): a label only the question can settle. */
export const TWO_TOTALS = {
  name: 'survey',
  columns: [
    ['men', 'total'],
    ['women', 'total']
  ],
  index: [['mining'], ['transport']],
  values: [
    ['1', '2'],
    ['3', '4']
  ]
}

/**
 * A small hierarchical report both executors' pandas tests load: a two-level column index, row labels, and
 * numbers written as "1,200", "(12)" and "45%".
 */
export const SMALL_REPORT = {
  name: 'report',
  columns: [
    ['2019', 'men'],
    ['2019', 'women']
  ],
  index: [['total'], ['canada']],
  values: [
    ['1,200', '1,300'],
    ['(12)', '45%']
  ]
}

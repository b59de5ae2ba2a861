/**
 * The steps a Pyodide interpreter takes to start, named for the status bar. Packages come from
 * Pyodide's lock file, dependencies first, so loading them one at a time never pulls in more than one.
 */

import type { ExecutorConfig } from './executor-protocol'

/** The part of Pyodide's lock file read here. */
export type LockLike = { packages: Record<string, { depends?: readonly string[] } | undefined> }

export type BootPlan = {
  /** Packages in load order (dependencies before what needs them). */
  packages: string[]
  /** Labels of every step, in order. */
  steps: string[]
}

export const RUNTIME_STEP = 'Loading the Pyodide runtime'
export const LIBRARY_STEP = 'Installing the runtime library'

/** The wanted packages and their dependencies from `lock`, dependencies first; names the lock lacks are kept (loading them will say why it fails). */
export function packageOrder(lock: LockLike | null, wanted: readonly string[]): string[] {
  const order: string[] = []
  const seen = new Set<string>()
  const visit = (name: string): void => {
    if (seen.has(name)) return
    seen.add(name)
    const depends: unknown = lock?.packages[name]?.depends
    if (Array.isArray(depends)) for (const dep of depends) if (typeof dep === 'string') visit(dep)
    order.push(name)
  }
  for (const name of wanted) visit(name)
  return order
}

/** What an interpreter loads at start under `config`: its packages, else numpy and pandas when it is to load pandas. */
export function bootPackages(config: Pick<ExecutorConfig, 'loadPandas' | 'packages'>): string[] {
  return config.packages ?? (config.loadPandas ? ['numpy', 'pandas'] : [])
}

export function bootPlan(lock: LockLike | null, wanted: readonly string[]): BootPlan {
  const packages = packageOrder(lock, wanted)
  return { packages, steps: [RUNTIME_STEP, ...packages.map((name) => `Loading ${name}`), LIBRARY_STEP] }
}

/** Reads a lock file's JSON defensively: null when it does not have the expected shape. */
export function readLock(value: unknown): LockLike | null {
  if (typeof value !== 'object' || value === null) return null
  const packages = (value as { packages?: unknown }).packages
  if (typeof packages !== 'object' || packages === null) return null
  return { packages: packages as LockLike['packages'] }
}

/** What the computer offers the built-in engine: physical cores, free memory, free disk space. */

import { readFileSync, statfsSync } from 'node:fs'
import { availableParallelism, freemem, totalmem } from 'node:os'

/**
 * Physical CPU cores. llama.cpp runs best with one thread per physical core; hyper-threads and a thread
 * count above the cores make it far slower (4 threads on 2 cores ran about 200 times slower here).
 */
export function physicalCores(): number {
  const logical = Math.max(1, availableParallelism())
  if (process.platform !== 'linux') return logical
  try {
    const cores = new Set<string>()
    let physical = '0'
    for (const line of readFileSync('/proc/cpuinfo', 'utf8').split('\n')) {
      const [key, value] = line.split(':').map((s) => s.trim())
      if (key === 'physical id') physical = value ?? '0'
      else if (key === 'core id') cores.add(`${physical}:${value ?? ''}`)
    }
    return cores.size > 0 ? Math.min(cores.size, logical) : logical
  } catch {
    return logical
  }
}

/** The thread count to use: the setting when it is positive, else the physical cores. */
export function threadsFor(setting: number): number {
  return Number.isInteger(setting) && setting > 0 ? setting : physicalCores()
}

export function memory(): { totalBytes: number; freeBytes: number } {
  // Node reads MemAvailable on Linux: memory that can be had without swapping, page cache included.
  return { totalBytes: totalmem(), freeBytes: freemem() }
}

/** Free bytes on the file system holding `dir`, for this user; null when it cannot be read. */
export function freeDiskBytes(dir: string): number | null {
  try {
    const s = statfsSync(dir)
    return s.bavail * s.bsize
  } catch {
    return null
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`
  return `${Math.max(1, Math.round(bytes / 1e3))} KB`
}

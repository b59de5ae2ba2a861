import type { AskOptions } from '../../../shared/ask'

/** Sampling defaults per endpoint (samples and temperature), kept in this browser's storage. */
export type AskDefaults = { n: number; temperature: number }

export const STANDARD_DEFAULTS: AskDefaults = { n: 5, temperature: 0.7 }
const KEY = 'tableqa-ask-defaults'

function readAll(): Record<string, AskDefaults> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}')
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, AskDefaults>) : {}
  } catch {
    return {}
  }
}

export function askDefaults(endpointId: string | null): AskDefaults {
  const saved = endpointId === null ? undefined : readAll()[endpointId]
  return { ...STANDARD_DEFAULTS, ...(saved ?? {}) }
}

export function saveAskDefaults(endpointId: string, defaults: AskDefaults): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...readAll(), [endpointId]: defaults }))
  } catch {
    // Storage unavailable: the standard defaults apply.
  }
}

export function askOptions(endpointId: string | null): AskOptions {
  const { n, temperature } = askDefaults(endpointId)
  return { n, temperature }
}

/** Checks a samples / temperature pair typed in the form; null when fine. */
export function checkAskDefaults(n: number, temperature: number): string | null {
  if (!Number.isInteger(n) || n < 1 || n > 20) return 'Samples must be a whole number from 1 to 20.'
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) return 'Temperature must be between 0 and 2.'
  return null
}

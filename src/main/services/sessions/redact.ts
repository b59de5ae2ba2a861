/**
 * Secrets never belong in a session, an export or history. Keys live in the secret store and are not
 * part of any summary, but a server's error text can echo a header back; these patterns catch the
 * usual shapes before anything is written.
 */
const PATTERNS: RegExp[] = [
  /\b(?:sk|pk|rk|gsk|xai|hf)[-_][A-Za-z0-9_-]{12,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(api[-_]?key|x-api-key|authorization)(["']?\s*[:=]\s*["']?)[^\s"',}]{6,}/gi
]

export const REDACTED = '[redacted]'

export function redactText(text: string, known: readonly string[] = []): string {
  let out = text
  for (const secret of known) if (secret.length >= 6) out = out.split(secret).join(REDACTED)
  out = out.replace(PATTERNS[0] as RegExp, REDACTED)
  out = out.replace(PATTERNS[1] as RegExp, `Bearer ${REDACTED}`)
  out = out.replace(PATTERNS[2] as RegExp, (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`)
  return out
}

/** A deep copy of JSON-able data with every string redacted. */
export function redactDeep<T>(value: T, known: readonly string[] = []): T {
  return walk(value, known) as T
}

function walk(value: unknown, known: readonly string[]): unknown {
  if (typeof value === 'string') return redactText(value, known)
  if (Array.isArray(value)) return value.map((v) => walk(v, known))
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, known)
    return out
  }
  return value
}

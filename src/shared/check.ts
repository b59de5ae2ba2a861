/**
 * Small checks for decoding messages at a boundary: what arrives is `unknown` until each field has been
 * looked at, so decoders read fields through these instead of casting.
 */

/** An object whose fields can be read (not an array, not null). Data decoded here comes from JSON or a structured clone, so it has no getters. */
export function isFields(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A string of at most `max` characters. */
export function isText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max
}

/** A whole number from 0 up. */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}

/** One of the given strings. */
export function isOneOf<T extends string>(value: unknown, options: readonly T[]): value is T {
  return typeof value === 'string' && (options as readonly string[]).includes(value)
}

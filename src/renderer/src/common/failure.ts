import type { AppError } from '../../../shared/result'

/** A transport failure arrives as a failed Result even where the contract promises a plain value. */
export function asFailure(value: unknown): AppError | null {
  if (typeof value === 'object' && value !== null && 'ok' in value && value.ok === false && 'error' in value) {
    return value.error as AppError
  }
  return null
}

/** A rejected promise (which the transport should never produce) turned into the usual error shape. */
export function errorFromCause(doing: string, cause: unknown): AppError {
  const message = cause instanceof Error ? cause.message : String(cause)
  return { code: 'internal', message: `${doing} failed: ${message}` }
}

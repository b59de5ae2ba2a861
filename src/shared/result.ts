/** Stable error codes that cross process boundaries. Add new codes here, never reuse old ones. */
export type ErrorCode =
  | 'bad-input'
  | 'not-found'
  | 'io-error'
  | 'unsupported-format'
  | 'too-large'
  | 'python-error'
  | 'interrupted'
  | 'timeout'
  | 'executor-crashed'
  | 'executor-unavailable'
  | 'store-error'
  | 'unauthorized'
  | 'internal'
  | 'cancelled'
  | 'model-timeout'
  | 'model-http'
  | 'model-bad-reply'
  | 'model-rate-limited'
  | 'model-unreachable'
  | 'model-not-found'
  | 'model-no-code'
  | 'no-answer'
  /** The built-in model's engine process stopped while working (it restarts for the next question). */
  | 'model-engine-crashed'
  /** A GGUF model file that is missing, cut short, damaged or not a language model. */
  | 'model-file'
  /** A model that does not fit in the memory that is free now. */
  | 'model-memory'
  /** The GPU failed while the built-in model ran on it (out of memory, a driver error); the CPU takes over. */
  | 'model-gpu'
  /** A model download that failed (network, server, disk); what was downloaded so far is kept. */
  | 'download-failed'
  /** A downloaded file whose SHA-256 is not the published one; it is deleted. */
  | 'checksum-mismatch'
  /** Not enough free disk space. */
  | 'disk-full'
  | 'bad-chart'
  | 'package-unreachable'
  | 'package-http'
  | 'package-bad-hash'
  | 'package-missing'

/** An error as data: what every boundary returns instead of throwing. */
export type AppError = {
  /** Stable machine-readable code. */
  code: ErrorCode
  /** One or two sentences a user can act on. */
  message: string
  /** Optional extra lines (a Python traceback, the file that failed, ...). */
  detail?: string
}

/** The result of any operation that can fail. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError }

export function ok<T>(value: T): Result<T> {
  return { ok: true, value }
}

export function fail<T = never>(code: ErrorCode, message: string, detail?: string): Result<T> {
  return detail === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message, detail } }
}

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`)
}

import { unzipSync } from 'fflate'
import { fail, ok, type Result } from '../../../../shared/result'

export type ZipLimits = { maxEntryBytes: number; maxTotalBytes: number }

/** Defaults: a workbook part above 200 MB or a workbook above 500 MB unpacked is refused. */
export const ZIP_LIMITS: ZipLimits = { maxEntryBytes: 200 * 1024 * 1024, maxTotalBytes: 500 * 1024 * 1024 }

/** Entry names of a zip archive without inflating anything; null when it is not a readable zip. */
export function listZip(bytes: Uint8Array): string[] | null {
  const names: string[] = []
  try {
    unzipSync(bytes, {
      filter: (f) => {
        names.push(f.name)
        return false
      }
    })
  } catch {
    return null
  }
  return names
}

/**
 * Inflate the entries `wanted` selects. Sizes are checked against the limits before inflating; fflate
 * sizes each output buffer from the declared size, so an entry that lies about its size is cut short
 * rather than allowed to grow.
 */
export function readZip(
  name: string,
  bytes: Uint8Array,
  wanted: (path: string) => boolean,
  limits: ZipLimits = ZIP_LIMITS
): Result<Map<string, Uint8Array>> {
  let total = 0
  const refused: { why: string | null } = { why: null }
  let files: Record<string, Uint8Array>
  try {
    // Sizes first, inflating nothing: checking while inflating would unpack the parts before the limit is hit.
    unzipSync(bytes, {
      filter: (f) => {
        if (!wanted(f.name) || refused.why !== null) return false
        total += f.originalSize
        if (f.originalSize > limits.maxEntryBytes) refused.why = `its part ${f.name} unpacks to ${mb(f.originalSize)}`
        else if (total > limits.maxTotalBytes) refused.why = `it unpacks to more than ${mb(limits.maxTotalBytes)}`
        return false
      }
    })
    if (refused.why !== null) return fail('too-large', `${name} was not opened because ${refused.why}.`)
    files = unzipSync(bytes, { filter: (f) => wanted(f.name) })
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e)
    return fail('bad-input', `${name} is damaged or truncated and cannot be opened as a zip archive.`, why)
  }
  return ok(new Map(Object.entries(files)))
}

function mb(n: number): string {
  return `${Math.round(n / (1024 * 1024))} MB`
}

/** Decode an XML part as UTF-8 (the encoding every OOXML/ODF producer writes). */
export function xmlText(part: Uint8Array): string {
  return new TextDecoder('utf-8').decode(part)
}

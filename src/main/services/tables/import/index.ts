import type { RawGrid } from '../../../../shared/table'
import { fail, ok, type Result } from '../../../../shared/result'

/**
 * Import a file's bytes into one raw grid per sheet/table.
 * Minimal CSV/TSV reader; replaced by the full importers.
 */
export function importFile(name: string, bytes: Uint8Array): Result<RawGrid[]> {
  if (bytes.length === 0) return fail('bad-input', `${name} is empty.`)
  const text = new TextDecoder('utf-8').decode(bytes)
  const delimiter = name.toLowerCase().endsWith('.tsv') ? '\t' : ','
  const cells = text
    .split(/\r?\n/)
    .filter((line) => line.length > 0)
    .map((line) => line.split(delimiter))
  return ok([{ name, cells, merges: [], warnings: [] }])
}

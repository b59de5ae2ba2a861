import { mkdirSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { build } from 'esbuild'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')

/**
 * Bundle a TypeScript entry into one ES module under test-results/ (inside the repository, so that the
 * packages it leaves external still resolve from node_modules). Child processes then start in a fraction
 * of the time tsx needs, which matters when a test starts a hundred of them.
 */
export async function bundleEntry(entry: string): Promise<string> {
  const dir = join(ROOT, 'test-results', 'hardening')
  mkdirSync(dir, { recursive: true })
  const outfile = join(dir, `${basename(entry).replace(/\.ts$/, '')}.mjs`)
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error'
  })
  return outfile
}

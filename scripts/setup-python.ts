/**
 * `npm run setup:python -- [--from official|URL|DIR|pypi] [--to DIR]`: fill the Pyodide package cache with
 * the files pandas needs in the sandbox (numpy, pandas and what the lock lists for them), exactly as named
 * and hashed in node_modules/pyodide/pyodide-lock.json. Every file is checked against the lock's sha256;
 * an interrupted download resumes. The app does the same by itself on first start; this is for doing it
 * ahead of time, or from somewhere else.
 *
 * --from official  the official Pyodide distribution of the installed version (default)
 * --from URL       a mirror of that distribution (the folder holding pyodide-lock.json)
 * --from DIR       a folder holding the files (an unpacked release tarball; for offline machines)
 * --from pypi      PyPI, file by file ($TABLEQA_PYPI_INDEX to use another index)
 * --to DIR         the folder to fill (default: <data folder>/pyodide-packages)
 */
import { parseArgs } from 'node:util'
import { defaultDataDir } from '../src/main/services/paths'
import { fillPackageFolder } from '../src/main/services/python/package-fill'
import { packageCacheDir, pyodideVersion, readPyodideLock } from '../src/main/services/python/package-source'

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { from: { type: 'string', default: 'official' }, to: { type: 'string' } } })
  const from = values.from ?? 'official'
  const target = values.to ?? packageCacheDir(defaultDataDir())
  const info = readPyodideLock().info
  console.log(`Pyodide ${pyodideVersion()} (Python ${info.python ?? '?'}, ABI ${info.abi_version ?? '?'}): filling ${target} from ${from}`)
  const final = await fillPackageFolder({ from, target, log: (line) => console.log(line) })
  if (final.state === 'ready') {
    console.log('\nAll files present and matching the lock: pandas loads in the sandbox (the app picks them up as it starts).')
    return 0
  }
  console.log(
    `\n${final.state === 'failed' ? final.message : 'The files were not fetched.'}\nPrograms get plain Python rows until the files are supplied (--from URL or --from DIR).`
  )
  return 3
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  }
)

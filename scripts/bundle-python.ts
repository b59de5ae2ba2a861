/**
 * `npm run bundle:python -- [--from official|URL|DIR]`: gather the files pandas needs in the sandbox into
 * resources/pyodide-packages/, checked against node_modules/pyodide/pyodide-lock.json, for a desktop build
 * that works offline from its first launch. The app searches that folder after its download cache, and
 * checks every file it finds there against the lock again at each start.
 */
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { appRoot } from '../src/main/services/paths'
import { fillPackageFolder } from '../src/main/services/python/package-fill'
import { pyodideVersion } from '../src/main/services/python/package-source'

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { from: { type: 'string', default: 'official' } } })
  const from = values.from ?? 'official'
  const target = join(appRoot(), 'resources', 'pyodide-packages')
  console.log(`Bundling the pandas files of Pyodide ${pyodideVersion()} into ${target} from ${from}`)
  const final = await fillPackageFolder({ from, target, log: (line) => console.log(line) })
  if (final.state === 'ready') {
    console.log(`\n${final.packages.length} packages in ${target}: a build that ships this folder has pandas in the sandbox offline.`)
    return 0
  }
  console.error(
    `\n${final.state === 'failed' ? final.message : 'The files were not gathered.'}\nThe bundle is incomplete; the build would fetch them on first start.`
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

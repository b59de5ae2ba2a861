import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder holding package.json: found by walking up, so it works from sources and from out/. */
export function appRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'tableqa-studio') {
      return dir
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error('cannot find the tableqa-studio package root')
    dir = parent
  }
}

/** Where settings and history live outside Electron (browser mode, command line, tests). */
export function defaultDataDir(): string {
  if (process.env.TABLEQA_HOME) return resolve(process.env.TABLEQA_HOME)
  const base =
    process.env.XDG_CONFIG_HOME ??
    (process.platform === 'darwin' ? join(homedir(), 'Library', 'Application Support') : join(homedir(), '.config'))
  return join(base, 'tableqa-studio')
}

/** The datasets folder: $TABLEQA_DATA, else ../shared/datasets beside the checkout. */
export function datasetsDir(): string {
  return process.env.TABLEQA_DATA ? resolve(process.env.TABLEQA_DATA) : resolve(appRoot(), '..', 'shared', 'datasets')
}

export function appVersion(): string {
  return (JSON.parse(readFileSync(join(appRoot(), 'package.json'), 'utf8')) as { version: string }).version
}

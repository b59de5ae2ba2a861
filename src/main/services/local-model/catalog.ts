/** The catalog of downloadable models (`resources/models/catalog.json`), checked when it is read. */

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CatalogModel, PromptForm } from '../../../shared/local-model'
import { appRoot } from '../paths'

const FORMS: readonly PromptForm[] = ['completion', 'chat']

export function catalogPath(): string {
  return join(appRoot(), 'resources', 'models', 'catalog.json')
}

/** https, or http to this computer (a mirror on the same machine, a test server). */
function secureUrl(url: string): boolean {
  try {
    const u = new URL(url)
    return u.protocol === 'https:' || (u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname))
  } catch {
    return false
  }
}

/** Why an entry is unusable, or null. A wrong entry is a build mistake: it fails loudly, never silently. */
function entryProblem(m: Record<string, unknown>): string | null {
  const text = (k: string): boolean => {
    const v = m[k]
    return typeof v === 'string' && v.trim() !== ''
  }
  for (const k of ['id', 'name', 'description', 'licence', 'licenceUrl', 'url', 'fileName', 'checksumSource'])
    if (!text(k)) return `"${k}" is missing`
  if (typeof m['sha256'] !== 'string' || !/^[0-9a-f]{64}$/.test(m['sha256'])) return '"sha256" is not 64 lower-case hex digits'
  if (!secureUrl(String(m['url']))) return '"url" is not https (plain http is for a server on this computer only)'
  if (!/^[\w.-]+\.gguf$/i.test(String(m['fileName']))) return '"fileName" is not a plain .gguf file name'
  for (const k of ['sizeBytes', 'trainContext', 'ramBytes'])
    if (!Number.isInteger(m[k]) || (m[k] as number) <= 0) return `"${k}" is not a positive whole number`
  if (!FORMS.includes(m['form'] as PromptForm)) return `"form" must be one of ${FORMS.join(', ')}`
  return null
}

let cached: CatalogModel[] | null = null

/** The catalog's models, in the file's order; throws when the file is malformed. */
export function loadCatalog(path = catalogPath()): CatalogModel[] {
  if (path === catalogPath() && cached !== null) return cached
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'))
  const models = typeof raw === 'object' && raw !== null && 'models' in raw ? raw.models : undefined
  if (!Array.isArray(models)) throw new Error(`${path}: no "models" list`)
  const out = models.map((m: unknown, i) => {
    if (typeof m !== 'object' || m === null) throw new Error(`${path}: model ${i + 1} is not an object`)
    const problem = entryProblem(m as Record<string, unknown>)
    if (problem !== null) throw new Error(`${path}: model ${i + 1}: ${problem}`)
    return m as CatalogModel
  })
  if (new Set(out.map((m) => m.id)).size !== out.length) throw new Error(`${path}: two models have the same id`)
  if (out.filter((m) => m.recommended === true).length !== 1) throw new Error(`${path}: exactly one model must be "recommended"`)
  if (path === catalogPath()) cached = out
  return out
}

export function recommendedModel(catalog: CatalogModel[] = loadCatalog()): CatalogModel {
  return catalog.find((m) => m.recommended === true) ?? (catalog[0] as CatalogModel)
}

/** By id, ignoring case. */
export function findCatalogModel(id: string, catalog: CatalogModel[] = loadCatalog()): CatalogModel | undefined {
  return catalog.find((m) => m.id.toLowerCase() === id.trim().toLowerCase())
}

/**
 * Writes src/main/services/tables/structure/knowledge/places.json from Debian's iso-codes data: every
 * country of ISO 3166-1 (its name, common name and official name) with the first level of its ISO 3166-2
 * subdivisions (entries without a `parent`). The names are written as the place rules look them up
 * (`placeKey`: lower case, accents folded). The committed file is what the app reads; this script only
 * regenerates it when iso-codes changes.
 *
 *   npx tsx scripts/make-places.ts [DIR]   (DIR: the iso-codes JSON folder, /usr/share/iso-codes/json)
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { format, resolveConfig } from 'prettier'
import { appRoot } from '../src/main/services/paths'
import { placeKey } from '../src/main/services/tables/structure/knowledge/place-key'

type Country = { alpha_2: string; name: string; common_name?: string; official_name?: string }
type Subdivision = { code: string; name: string; type: string; parent?: string }

const DIR = process.argv[2] ?? '/usr/share/iso-codes/json'
const OUT = join(appRoot(), 'src', 'main', 'services', 'tables', 'structure', 'knowledge', 'places.json')

/**
 * The forms a table may write an ISO name in. ISO writes some names inverted ("Korea, Republic of",
 * "Madrid, Comunidad de"), with a second form in brackets ("Catalunya [Cataluña]", codes dropped: "Wales
 * [Cymru GB-CYM]"), a qualifier in parentheses ("Guyane (française)", "Ilocos (Region I)"), a mark ("…*")
 * or two languages split by " / ". `full`: the name as written, in its second form and put the right way
 * round; `bare`: without its qualifier, and the head of an inverted name alone ("Korea"), which for
 * countries may be ambiguous.
 */
function forms(name: string): { full: string[]; bare: string[] } {
  const full: string[] = []
  const bare: string[] = []
  for (const part of name.replace(/\*+$/u, '').split(' / ')) {
    const bracketed = /^(.*?)\s*\[([^\]]*)\]\s*$/u.exec(part)
    const main = bracketed?.[1] ?? part
    const second = (bracketed?.[2] ?? '').replace(/\b[A-Z]{2}-[A-Z0-9]{1,3}\b/gu, '').trim()
    // "[city]": a note on the kind of place, not a name.
    if (/^\p{Lu}/u.test(second)) full.push(second)
    full.push(main)
    const unqualified = main.replace(/\s*\([^)]*\)\s*$/u, '')
    if (unqualified !== main && unqualified.length > 0) bare.push(unqualified)
    const comma = unqualified.split(', ')
    if (comma.length === 2 && comma[0] !== undefined && comma[1] !== undefined) {
      full.push(`${comma[1]} ${comma[0]}`)
      bare.push(comma[0])
    }
  }
  return { full: full.map(placeKey), bare: bare.map(placeKey) }
}

function read<T>(file: string, key: string): T[] {
  return (JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Record<string, T[]>)[key] ?? []
}

async function main(): Promise<void> {
  const countries = read<Country>('iso_3166-1.json', '3166-1')
  const subdivisions = read<Subdivision>('iso_3166-2.json', '3166-2').filter((s) => s.parent === undefined)
  // A country's names: its own forms, and the heads of inverted names no other country shares ("Congo" is
  // the Republic of the Congo's name, so not also the Democratic Republic's; "Virgin Islands" is neither's).
  const own = new Map<string, Set<string>>()
  const heads = new Map<string, Set<string>>()
  for (const c of countries)
    for (const name of [c.name, c.common_name, c.official_name]) {
      if (name === undefined) continue
      const f = forms(name)
      for (const n of f.full) (own.get(n) ?? own.set(n, new Set()).get(n))?.add(c.alpha_2)
      for (const n of f.bare) (heads.get(n) ?? heads.set(n, new Set()).get(n))?.add(c.alpha_2)
    }
  const names = new Map<string, Set<string>>(countries.map((c) => [c.alpha_2, new Set<string>()]))
  for (const [n, codes] of own) for (const code of codes) names.get(code)?.add(n)
  for (const [n, codes] of heads) if (codes.size === 1 && !own.has(n)) for (const code of codes) names.get(code)?.add(n)
  const regions = new Map<string, Set<string>>(countries.map((c) => [c.alpha_2, new Set<string>()]))
  for (const s of subdivisions) {
    const f = forms(s.name)
    for (const n of [...f.full, ...f.bare]) regions.get(s.code.split('-')[0] ?? '')?.add(n)
  }
  const out: Record<string, { names: string; regions: string }> = {}
  for (const c of [...countries].sort((a, b) => a.alpha_2.localeCompare(b.alpha_2)))
    out[c.alpha_2.toLowerCase()] = {
      names: [...(names.get(c.alpha_2) ?? [])].sort().join('|'),
      regions: [...(regions.get(c.alpha_2) ?? [])].sort().join('|')
    }
  const file = {
    about:
      'Every country of ISO 3166-1 (its name, common and official names) with the first level of its ISO 3166-2 subdivisions, as lower-cased, accent-folded names split by "|". Written by scripts/make-places.ts from Debian iso-codes; read by the rules block-country-regions and nesting-country-after-whole (tables/structure/regions.ts).',
    countries: out
  }
  const config = (await resolveConfig(OUT)) ?? {}
  writeFileSync(OUT, await format(JSON.stringify(file), { ...config, parser: 'json' }))
  const regionCount = [...regions.values()].reduce((n, s) => n + s.size, 0)
  console.log(`${countries.length} countries, ${regionCount} region names, ${subdivisions.length} subdivisions → ${OUT}`)
}

void main()

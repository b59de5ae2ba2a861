/**
 * Knowledge of places: countries and the regions statistical tables list under them, as optional data
 * (knowledge/places.json). Read by rules block-country-regions and nesting-country-after-whole, which the
 * rule table marks optional: off unless turned on (`withRules`), since the list fits the sources of one
 * dataset (rules/table.ts records what they change).
 */
import type { Grid } from './grid'
import { rowLabel, type RowRole } from './rows'
import places from './knowledge/places.json'

// Countries and the regions they divide into, as statistical tables list them.
const SUBDIVISIONS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries(places.countries as Record<string, string[]>).map(([country, regions]) => [country, new Set(regions)])
)

// First letters of the countries: most labels are passed over on their first letter.
const COUNTRY_INITIALS = new Set([...SUBDIVISIONS.keys()].map((name) => name.charAt(0)))

/** The country a row label names ("canada", "united statesc"), or null. */
export function countryName(label: string): string | null {
  return COUNTRY_INITIALS.has(label.charAt(0).toLowerCase()) ? placeIn(SUBDIVISIONS, label) : null
}

/** A place name in `names`, allowing a footnote mark glued on ("united statesc", "Ontario 2", "Quebec*"). */
function placeIn(names: ReadonlySet<string> | ReadonlyMap<string, unknown>, label: string): string | null {
  const name = label
    .toLowerCase()
    .replace(/[\s\d*†‡§]+$/u, '')
    .trim()
  if (names.has(name)) return name
  const bare = name.slice(0, -1)
  return /[a-z]$/.test(name) && bare.length > 3 && names.has(bare) ? bare : null
}

/**
 * A country heads the run of its regions right below it ("canada" over "newfoundland and labrador | … |
 * nunavut"), three or more, whether or not their values add up (rates, shares and averages do not). Only
 * rows that head no block yet get one: where the sums found a block ("canada" over the provinces and
 * "territories"), it stands. Changes `ends` in place.
 */
export function regionParts(g: Grid, headerRows: number, headerCols: number, roles: RowRole[], ends: Int32Array): void {
  for (let i = 0; i < roles.length; i++) {
    if (roles[i] !== 'data') continue
    const country = countryName(rowLabel(g, headerRows + i, headerCols))
    const regions = country === null ? undefined : SUBDIVISIONS.get(country)
    if (regions === undefined || (ends[i] ?? -1) >= 0) continue
    // In a list of regions ranked with the country among them ("alberta | ontario | canada | prince edward
    // island"), the country is one of the rows.
    let before = i - 1
    while (before >= 0 && roles[before] === 'empty') before--
    if (before >= 0 && roles[before] === 'data' && placeIn(regions, rowLabel(g, headerRows + before, headerCols)) !== null) continue
    let last = -1
    let count = 0
    for (let k = i + 1; k < roles.length && (roles[k] === 'data' || roles[k] === 'empty'); k++) {
      if (roles[k] === 'empty') continue
      if (placeIn(regions, rowLabel(g, headerRows + k, headerCols)) === null) break
      last = k
      count++
    }
    if (count >= 3) ends[i] = last
  }
}

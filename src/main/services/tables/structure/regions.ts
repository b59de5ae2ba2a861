/**
 * Knowledge of places: every country of ISO 3166-1 and the first level of its ISO 3166-2 subdivisions
 * (knowledge/places.json, written by scripts/make-places.ts from Debian's iso-codes). Read by rules
 * block-country-regions and nesting-country-after-whole: a country row over the rows of its own regions is
 * a layout statistical tables use across publishers (rules/table.ts records what the rules change).
 */
import type { Grid } from './grid'
import { rowLabel, type RowRole } from './rows'
import places from './knowledge/places.json'
import { placeKey, printableAscii } from './knowledge/place-key'

// Built once at load: each name of a country to its code, each code to the names of its regions.
const COUNTRIES = new Map<string, string>()
const REGIONS = new Map<string, ReadonlySet<string>>()
for (const [code, { names, regions }] of Object.entries(places.countries as Record<string, { names: string; regions: string }>)) {
  for (const name of names.split('|')) COUNTRIES.set(name, code)
  REGIONS.set(code, new Set(regions.length > 0 ? regions.split('|') : []))
}
// The first three letters of the countries' names: most row labels are passed over on them.
const COUNTRY_HEADS = new Set([...COUNTRIES.keys()].map((name) => name.slice(0, 3)))

/** The code of the country a row label names ("canada", "united statesc", "Republic of Korea"), or null. */
export function countryName(label: string): string | null {
  const head = label.slice(0, 3).toLowerCase()
  if (!COUNTRY_HEADS.has(printableAscii(head) ? head : placeKey(head))) return null
  const name = placeIn(COUNTRIES, label)
  return name === null ? null : (COUNTRIES.get(name) ?? null)
}

/** Whether `label` names one of the regions of the country `code`. */
export function isRegionOf(code: string, label: string): boolean {
  const regions = REGIONS.get(code)
  return regions !== undefined && placeIn(regions, label) !== null
}

/** The name in `names` a label gives, allowing a footnote mark glued on ("united statesc", "Ontario 2", "Quebec*"). */
function placeIn(names: { has(name: string): boolean }, label: string): string | null {
  const name = placeKey(markedAtEnd(label) ? label.replace(/[\s\d*†‡§]+$/u, '') : label)
  if (names.has(name)) return name
  const last = name.charCodeAt(name.length - 1)
  if (!(last >= 97 && last <= 122) || name.length <= 4) return null
  const bare = name.slice(0, -1)
  return names.has(bare) ? bare : null
}

/** Whether a label may end in what placeIn takes off (spaces, digits, marks): its last character is not plain ASCII otherwise. */
function markedAtEnd(label: string): boolean {
  const c = label.charCodeAt(label.length - 1)
  return c > 126 || c <= 32 || (c >= 48 && c <= 57) || c === 42
}

/** The label of the nearest non-empty row above body row `i`, or null. */
function labelAbove(g: Grid, headerRows: number, headerCols: number, roles: readonly RowRole[], i: number): string | null {
  let before = i - 1
  while (before >= 0 && roles[before] === 'empty') before--
  return before >= 0 && roles[before] === 'data' ? rowLabel(g, headerRows + before, headerCols) : null
}

/**
 * Whether body row `i` names a country right after a row naming one of its regions ("canada" after
 * "nunavut"): the country is not one of its own regions, so it does not belong to their group. A country
 * after other countries (a medal table) is not meant.
 */
export function countryAfterItsRegion(g: Grid, headerRows: number, headerCols: number, roles: readonly RowRole[], i: number): boolean {
  const country = countryName(rowLabel(g, headerRows + i, headerCols))
  if (country === null) return false
  const above = labelAbove(g, headerRows, headerCols, roles, i)
  return above !== null && isRegionOf(country, above)
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
    if ((ends[i] ?? -1) >= 0) continue
    const country = countryName(rowLabel(g, headerRows + i, headerCols))
    if (country === null) continue
    // In a list of regions ranked with the country among them ("alberta | ontario | canada | prince edward
    // island"), the country is one of the rows.
    const above = labelAbove(g, headerRows, headerCols, roles, i)
    if (above !== null && isRegionOf(country, above)) continue
    let last = -1
    let count = 0
    for (let k = i + 1; k < roles.length && (roles[k] === 'data' || roles[k] === 'empty'); k++) {
      if (roles[k] === 'empty') continue
      if (!isRegionOf(country, rowLabel(g, headerRows + k, headerCols))) break
      last = k
      count++
    }
    if (count >= 3) ends[i] = last
  }
}

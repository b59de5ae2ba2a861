/**
 * Tab labels: short enough that a strip of tabs stays usable, and never two alike. A table's name is
 * "file › sheet" (or just the file's name). Tables of one file are told apart by their sheet: a long
 * sheet name is shortened where it does not differ from the file's other sheets, keeping the part that
 * tells it apart ("CONSOLIDATED STAT…OPERATIONS", "CONSOLIDATED STAT…CASH FLOWS"). The file name is left out
 * while every tab comes from one file, and shortened in front of the sheet otherwise. The full name
 * stays on the tab's tooltip and in the table picker.
 */

/** Longest sheet part of a label, in characters. */
export const TAB_LABEL_MAX = 28
/** Longest file part of a label, when tables of several files are open. */
export const TAB_FILE_MAX = 20
const HEAD = 10
const SEPARATOR = ' › '

function commonLength(a: string, b: string): number {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return i
}

function shorten(label: string, others: readonly string[], max: number): string {
  if (label.length <= max) return label
  // Where this label first differs from the one most like it.
  const differs = others.reduce((d, o) => (o === label ? d : Math.max(d, commonLength(label, o))), 0)
  if (differs < max - 1) return `${label.slice(0, max - 1)}…`
  // Keep the end from the word where it differs, and as much of the start as the room leaves.
  let word = label.lastIndexOf(' ', differs) + 1
  // A short differing word ("1a", "(2)") reads better with the word before it ("Table 1a").
  const end = label.indexOf(' ', word)
  if ((end < 0 ? label.length : end) - word <= 3 && word > 1) word = label.lastIndexOf(' ', word - 2) + 1
  const room = max - HEAD - 1
  if (label.length - word <= room) {
    const tail = label.slice(word)
    return `${label.slice(0, max - 1 - tail.length).trimEnd()}…${tail}`
  }
  // A long differing part: the start, then the differing words as far as they fit.
  const start = Math.max(HEAD, word)
  const middle = label.slice(start, start + room - 1).trim()
  return `${label.slice(0, HEAD).trimEnd()}…${middle}…`
}

function split(name: string): { file: string; sheet: string | null } {
  const at = name.indexOf(SEPARATOR)
  return at < 0 ? { file: name, sheet: null } : { file: name.slice(0, at), sheet: name.slice(at + SEPARATOR.length) }
}

export function tabLabels(names: readonly string[], max = TAB_LABEL_MAX): string[] {
  const parts = names.map(split)
  const oneFile = names.length > 1 && parts.every((p) => p.sheet !== null && p.file === parts[0]?.file)
  // Each file's sheets are shortened against each other, and names of whole files against each other.
  const groups = new Map<string, string[]>()
  const key = (p: { file: string; sheet: string | null }): string => (p.sheet === null ? '' : `f:${p.file}`)
  for (const p of parts) groups.set(key(p), [...(groups.get(key(p)) ?? []), p.sheet ?? p.file])
  const labels = parts.map((p) => {
    const short = shorten(p.sheet ?? p.file, groups.get(key(p)) ?? [], max)
    return p.sheet === null || oneFile ? short : `${shorten(p.file, [], TAB_FILE_MAX)}${SEPARATOR}${short}`
  })
  // Tables with the very same name (one file opened twice in two versions) are numbered.
  const seen = new Map<string, number>()
  return labels.map((label) => {
    const count = (seen.get(label) ?? 0) + 1
    seen.set(label, count)
    return count === 1 ? label : `${label} (${count})`
  })
}

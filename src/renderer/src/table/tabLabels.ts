/**
 * Tab labels: short enough that a strip of tabs stays usable, and never two alike. The file name every
 * tab shares is dropped; a long name is shortened where it does not differ from the others, keeping
 * the part that tells it apart ("CONSOLIDATED STATEMENTS OF OPER…", "CONSOLIDATED STATEMENTS OF CASH…").
 * The full name stays on the tab's tooltip and in the sheet picker.
 */

/** Longest label, in characters. */
export const TAB_LABEL_MAX = 28
const HEAD = 10

function sharedPrefix(names: readonly string[]): string {
  const first = names[0]
  const cut = first === undefined ? -1 : first.lastIndexOf(' › ')
  if (names.length < 2 || first === undefined || cut < 0) return ''
  const prefix = first.slice(0, cut + 3)
  return names.every((n) => n.startsWith(prefix) && n.length > prefix.length) ? prefix : ''
}

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
  const start = Math.max(HEAD, differs - 4)
  const room = max - HEAD - 1
  const middle = label.slice(start, start + room).trimStart()
  return `${label.slice(0, HEAD)}…${middle}${start + room < label.length ? '…' : ''}`
}

export function tabLabels(names: readonly string[], max = TAB_LABEL_MAX): string[] {
  const prefix = sharedPrefix(names)
  const base = names.map((n) => n.slice(prefix.length))
  const labels = base.map((label) => shorten(label, base, max))
  // Tables with the very same name (one file opened twice in two versions) are numbered.
  const seen = new Map<string, number>()
  return labels.map((label) => {
    const count = (seen.get(label) ?? 0) + 1
    seen.set(label, count)
    return count === 1 ? label : `${label} (${count})`
  })
}

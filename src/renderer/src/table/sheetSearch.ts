/** Tables whose name holds every word of the query, ignoring case; all of them for an empty query. */
export function matchTables<T extends { name: string }>(tables: readonly T[], query: string): T[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '')
  if (words.length === 0) return [...tables]
  return tables.filter((t) => {
    const name = t.name.toLowerCase()
    return words.every((w) => name.includes(w))
  })
}

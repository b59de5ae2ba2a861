/**
 * Compound File Binary ([MS-CFB]) reader: the OLE2 container of legacy Office files. Only what a
 * workbook needs: the header, FAT with DIFAT, mini FAT and mini stream, the directory, and reading one
 * stream. Every chain is bounded by the file size, so a looping or out-of-range chain is an error,
 * never a hang.
 */

const MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]
const END_OF_CHAIN = 0xfffffffe
const FREE_SECT = 0xffffffff
const NO_STREAM = 0xffffffff
const HEADER_DIFAT = 109

/** A damaged container; the message completes "<file> is damaged: …". */
export class CorruptFile extends Error {}

type DirEntry = { name: string; type: number; left: number; right: number; child: number; start: number; size: number }

export type CompoundFile = {
  /** Names of the streams and storages directly under the root storage. */
  rootNames: string[]
  /** The bytes of a stream directly under the root (name compared case-insensitively), or null. */
  read(name: string): Uint8Array | null
}

function u32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16)) + (bytes[at + 3] as number) * 0x1000000
  )
}

function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at] as number) | ((bytes[at + 1] as number) << 8)
}

export function hasOleMagic(bytes: Uint8Array): boolean {
  return bytes.length >= MAGIC.length && MAGIC.every((b, k) => bytes[k] === b)
}

/** Open the container; throws CorruptFile when its structure does not hold together. */
export function openCompoundFile(bytes: Uint8Array): CompoundFile {
  if (!hasOleMagic(bytes)) throw new CorruptFile('it does not start with the compound-file signature.')
  if (bytes.length < 512) throw new CorruptFile(`the file is truncated (${bytes.length} bytes, shorter than the 512-byte header).`)
  if (u16(bytes, 28) !== 0xfffe) throw new CorruptFile('the compound-file header has a wrong byte-order mark.')
  const sectorShift = u16(bytes, 30)
  const miniShift = u16(bytes, 32)
  if ((sectorShift !== 9 && sectorShift !== 12) || miniShift !== 6) {
    throw new CorruptFile(`the compound-file header declares unusual sector sizes (2^${sectorShift}, 2^${miniShift}).`)
  }
  const sectorSize = 1 << sectorShift
  const perSector = sectorSize / 4
  // Sectors that start inside the file; the last one may be cut short, which reads as truncation later.
  const sectorCount = Math.max(0, Math.ceil((bytes.length - sectorSize) / sectorSize))
  const sectorAt = (id: number, what: string): number => {
    if (id >= sectorCount)
      throw new CorruptFile(`the ${what} points to sector ${id}, outside the file (${sectorCount} sectors): it is truncated or corrupt.`)
    return (id + 1) * sectorSize
  }

  const fatSectorCount = u32(bytes, 44)
  if (fatSectorCount > sectorCount) throw new CorruptFile(`the header declares ${fatSectorCount} FAT sectors, more than the file holds.`)
  const fatIds: number[] = []
  for (let k = 0; k < Math.min(fatSectorCount, HEADER_DIFAT); k++) fatIds.push(u32(bytes, 76 + 4 * k))
  let difat = u32(bytes, 68)
  const seenDifat = new Set<number>()
  while (fatIds.length < fatSectorCount) {
    if (difat === END_OF_CHAIN || difat === FREE_SECT)
      throw new CorruptFile(`the DIFAT chain ends after ${fatIds.length} of ${fatSectorCount} FAT sectors.`)
    if (seenDifat.has(difat)) throw new CorruptFile('the DIFAT chain loops back on itself.')
    seenDifat.add(difat)
    const at = sectorAt(difat, 'DIFAT chain')
    if (at + sectorSize > bytes.length) throw new CorruptFile('the file is truncated inside the DIFAT.')
    for (let k = 0; k < perSector - 1 && fatIds.length < fatSectorCount; k++) fatIds.push(u32(bytes, at + 4 * k))
    difat = u32(bytes, at + sectorSize - 4)
  }
  const fat = new Uint32Array(fatSectorCount * perSector)
  fatIds.forEach((id, k) => {
    const at = sectorAt(id, 'FAT sector list')
    if (at + sectorSize > bytes.length) throw new CorruptFile('the file is truncated inside the FAT.')
    for (let j = 0; j < perSector; j++) fat[k * perSector + j] = u32(bytes, at + 4 * j)
  })

  /** Sector ids of a chain; a chain longer than the file has sectors must loop. */
  const chain = (start: number, table: Uint32Array, limit: number, what: string): number[] => {
    const ids: number[] = []
    for (let id = start; id !== END_OF_CHAIN;) {
      if (id >= table.length || id >= limit)
        throw new CorruptFile(`the ${what} chain points to sector ${id}, outside the file: it is truncated or corrupt.`)
      if (ids.length >= limit) throw new CorruptFile(`the ${what} chain loops back on itself.`)
      ids.push(id)
      id = table[id] as number
    }
    return ids
  }

  const readChain = (start: number, size: number, what: string): Uint8Array => {
    if (size > bytes.length) throw new CorruptFile(`the ${what} declares ${size} bytes, more than the whole file.`)
    const out = new Uint8Array(size)
    let filled = 0
    for (const id of chain(start, fat, sectorCount, what)) {
      if (filled >= size) break
      const at = sectorAt(id, `${what} chain`)
      const want = Math.min(sectorSize, size - filled)
      const piece = bytes.subarray(at, at + want)
      out.set(piece, filled)
      filled += piece.length
      if (piece.length < want) break
    }
    if (filled < size) throw new CorruptFile(`the ${what} is truncated: ${filled} of ${size} bytes are in the file.`)
    return out
  }

  const dirStart = u32(bytes, 48)
  const dirIds = chain(dirStart, fat, sectorCount, 'directory')
  const entries: DirEntry[] = []
  for (const id of dirIds) {
    const at = sectorAt(id, 'directory chain')
    for (let off = 0; off + 128 <= sectorSize && at + off + 128 <= bytes.length; off += 128) {
      const e = at + off
      const nameBytes = Math.min(u16(bytes, e + 64), 64)
      let name = ''
      for (let k = 0; k + 1 < nameBytes; k += 2) {
        const ch = u16(bytes, e + k)
        if (ch === 0) break
        name += String.fromCharCode(ch)
      }
      // Version 3 files may leave garbage in the high half of the size.
      const size = sectorShift === 9 ? u32(bytes, e + 120) : u32(bytes, e + 120) + u32(bytes, e + 124) * 0x100000000
      entries.push({
        name,
        type: bytes[e + 66] as number,
        left: u32(bytes, e + 68),
        right: u32(bytes, e + 72),
        child: u32(bytes, e + 76),
        start: u32(bytes, e + 116),
        size
      })
    }
  }
  const root = entries[0]
  if (root === undefined || root.type !== 5) throw new CorruptFile('the compound-file directory has no root entry.')

  const children: DirEntry[] = []
  const seen = new Set<number>()
  const stack = [root.child]
  while (stack.length > 0) {
    const id = stack.pop() as number
    if (id === NO_STREAM || id >= entries.length || seen.has(id)) continue
    seen.add(id)
    const e = entries[id] as DirEntry
    children.push(e)
    stack.push(e.left, e.right)
  }

  const cutoff = u32(bytes, 56)
  let mini: { stream: Uint8Array; fat: Uint32Array } | null = null
  const miniParts = (): { stream: Uint8Array; fat: Uint32Array } => {
    if (mini !== null) return mini
    const miniFatIds = chain(u32(bytes, 60), fat, sectorCount, 'mini FAT')
    const miniFat = new Uint32Array(miniFatIds.length * perSector)
    miniFatIds.forEach((id, k) => {
      const at = sectorAt(id, 'mini FAT chain')
      for (let j = 0; j < perSector && at + 4 * j + 4 <= bytes.length; j++) miniFat[k * perSector + j] = u32(bytes, at + 4 * j)
    })
    mini = { stream: readChain(root.start, root.size, 'mini stream'), fat: miniFat }
    return mini
  }

  const readEntry = (e: DirEntry): Uint8Array => {
    if (e.size >= cutoff) return readChain(e.start, e.size, `"${e.name}" stream`)
    const { stream, fat: miniFat } = miniParts()
    const out = new Uint8Array(e.size)
    const limit = Math.floor(stream.length / 64)
    let filled = 0
    for (const id of chain(e.start, miniFat, limit, `"${e.name}" mini stream`)) {
      if (filled >= e.size) break
      const piece = stream.subarray(id * 64, id * 64 + Math.min(64, e.size - filled))
      out.set(piece, filled)
      filled += piece.length
    }
    if (filled < e.size) throw new CorruptFile(`the "${e.name}" stream is truncated: ${filled} of ${e.size} bytes are in the file.`)
    return out
  }

  return {
    rootNames: children.map((e) => e.name),
    read: (name) => {
      const e = children.find((c) => c.type === 2 && c.name.toLowerCase() === name.toLowerCase())
      return e === undefined ? null : readEntry(e)
    }
  }
}

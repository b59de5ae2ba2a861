import { describe, expect, it } from 'vitest'
import { busyNote, cores, loadNow } from '../../scripts/lib/machine'

describe('the benchmark machine note', () => {
  it('says nothing under half the cores, and names the load and the cores from there on', () => {
    expect(busyNote(0.4, 2)).toBeNull()
    expect(busyNote(0.99, 2)).toBeNull()
    expect(busyNote(1, 2)).toMatch(/busy before the benchmark starts \(load average 1\.00 on 2 cores\)/)
    expect(busyNote(3.456, 8)).toBeNull()
    expect(busyNote(4, 8)).toContain('4.00 on 8 cores')
  })

  it('reads the load to two decimals and the cores of this machine', () => {
    const load = loadNow()
    expect(load).toBeGreaterThanOrEqual(0)
    expect(Number(load.toFixed(2))).toBe(load)
    expect(cores()).toBeGreaterThanOrEqual(1)
  })
})

import { describe, expect, it } from 'vitest'
import { bootPackages, bootPlan, LIBRARY_STEP, packageOrder, readLock, RUNTIME_STEP } from './boot-steps'

const lock = {
  packages: {
    numpy: { depends: [] },
    pandas: { depends: ['numpy', 'python-dateutil', 'pytz'] },
    'python-dateutil': { depends: ['six'] },
    pytz: { depends: [] },
    six: { depends: [] }
  }
}

describe('boot steps', () => {
  it('orders packages so each comes after its dependencies, each once', () => {
    const order = packageOrder(lock, ['numpy', 'pandas'])
    expect(order).toEqual(['numpy', 'six', 'python-dateutil', 'pytz', 'pandas'])
    for (const [name, entry] of Object.entries(lock.packages)) {
      for (const dep of entry.depends) expect(order.indexOf(dep)).toBeLessThan(order.indexOf(name))
    }
  })

  it('names every step: the runtime, one per package, then the runtime library', () => {
    expect(bootPlan(lock, ['pytz', 'python-dateutil']).steps).toEqual([
      RUNTIME_STEP,
      'Loading pytz',
      'Loading six',
      'Loading python-dateutil',
      LIBRARY_STEP
    ])
    expect(bootPlan(lock, []).steps).toEqual([RUNTIME_STEP, LIBRARY_STEP])
  })

  it('keeps the wanted names when there is no lock file or it lacks them', () => {
    expect(packageOrder(null, ['numpy', 'pandas'])).toEqual(['numpy', 'pandas'])
    expect(packageOrder(lock, ['polars'])).toEqual(['polars'])
  })

  it('survives cycles and malformed dependency lists', () => {
    const odd = readLock({ packages: { a: { depends: ['b'] }, b: { depends: ['a'] }, c: { depends: 'a' }, d: null } })
    expect(packageOrder(odd, ['a', 'c', 'd'])).toEqual(['b', 'a', 'c', 'd'])
  })

  it('reads only lock files with a packages table', () => {
    expect(readLock(null)).toBeNull()
    expect(readLock({ info: {} })).toBeNull()
    expect(readLock('{"packages": {}}')).toBeNull()
    expect(readLock({ packages: {} })).toEqual({ packages: {} })
  })
})

describe('boot packages', () => {
  it('are the configured ones, else numpy and pandas when pandas is to load, else none', () => {
    expect(bootPackages({ loadPandas: true })).toEqual(['numpy', 'pandas'])
    expect(bootPackages({ loadPandas: false })).toEqual([])
    expect(bootPackages({ loadPandas: false, packages: ['pytz'] })).toEqual(['pytz'])
    expect(bootPackages({ loadPandas: true, packages: [] })).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import { checkPackageSource, DEFAULT_PACKAGE_SOURCE, officialDistributionUrl, readPackageSource } from './packages'

describe('package sources', () => {
  it('take a mirror as an http(s) folder URL, adding the final slash', () => {
    expect(checkPackageSource({ kind: 'url', url: ' https://mirror.example.org/pyodide/v1/full ' })).toEqual({
      ok: true,
      value: { kind: 'url', url: 'https://mirror.example.org/pyodide/v1/full/' }
    })
    expect(checkPackageSource({ kind: 'url', url: 'http://127.0.0.1:8000/' }).ok).toBe(true)
  })

  it('refuse what cannot be a mirror, saying why', () => {
    const message = (value: unknown): string | null => {
      const checked = checkPackageSource(value)
      return checked.ok ? null : checked.error.message
    }
    expect(message({ kind: 'url', url: 'mirror.example.org' })).toMatch(/full URL/)
    expect(message({ kind: 'url', url: 'ftp://mirror.example.org/' })).toMatch(/http:\/\/ or https:\/\//)
    expect(message({ kind: 'url', url: 'file:///tmp/x/' })).toMatch(/http:\/\/ or https:\/\//)
    expect(message({ kind: 'url', url: 'https://m.example.org/full/?token=1' })).toMatch(/without \? or #/)
    expect(message({ kind: 'dir', path: 'relative/folder' })).toMatch(/full path/)
    expect(message({ kind: 'pypi' })).toMatch(/official Pyodide distribution, a mirror URL, a local folder, or no download/)
    expect(message(null)).not.toBeNull()
  })

  it('take a local folder as a full path', () => {
    expect(checkPackageSource({ kind: 'dir', path: '/media/usb/pyodide' })).toEqual({
      ok: true,
      value: { kind: 'dir', path: '/media/usb/pyodide' }
    })
    expect(checkPackageSource({ kind: 'dir', path: 'D:\\pyodide\\full' }).ok).toBe(true)
  })

  it('take no download as a choice of its own', () => {
    expect(checkPackageSource({ kind: 'off' })).toEqual({ ok: true, value: { kind: 'off' } })
    expect(readPackageSource({ kind: 'off' })).toEqual({ kind: 'off' })
  })

  it('read a stored source defensively', () => {
    expect(readPackageSource(undefined)).toEqual(DEFAULT_PACKAGE_SOURCE)
    expect(readPackageSource({ kind: 'url', url: 42 })).toEqual({ kind: 'official' })
    expect(readPackageSource({ kind: 'dir', path: '/srv/wheels' })).toEqual({ kind: 'dir', path: '/srv/wheels' })
  })

  it('derive the official distribution from the version', () => {
    expect(officialDistributionUrl('314.0.7')).toBe('https://cdn.jsdelivr.net/pyodide/v314.0.7/full/')
  })
})

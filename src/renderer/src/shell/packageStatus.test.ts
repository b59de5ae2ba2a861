import { describe, expect, it } from 'vitest'
import { formatBytes } from '../../../shared/packages'
import { downloadText, packageStatusView } from './packageStatus'

const progress = {
  package: 'numpy',
  file: 'numpy-2.4.6.whl',
  index: 1,
  count: 5,
  bytes: 1_572_864,
  fileBytes: 4_194_304,
  doneBytes: 11_000
}

describe('the status bar on package files', () => {
  it('shows a download: package, position, bytes, and a bar over the whole round', () => {
    const view = packageStatusView({ state: 'downloading', from: 'https://cdn.example/full/', progress })
    expect(view?.text).toBe('Downloading pandas for the sandbox: numpy (2 of 5): 1.5 MB of 4.0 MB')
    expect(view?.title).toMatch(/from https:\/\/cdn\.example\/full\/\. The app stays usable/)
    expect(view?.bar).toEqual({ value: 138, max: 500 })
    expect(view?.problem).toBe(false)
  })

  it('shows bytes alone when the size is unknown', () => {
    expect(downloadText({ ...progress, fileBytes: null, bytes: 2048 })).toBe('numpy (2 of 5): 2 KB')
    expect(formatBytes(0)).toBe('0 KB')
  })

  it('flags a failure, with the message and what to do in the tooltip', () => {
    const view = packageStatusView({ state: 'failed', message: 'x.whl answered HTTP 404', missing: ['x.whl'], problems: [] })
    expect(view?.problem).toBe(true)
    expect(view?.text).toBe('pandas not available in the sandbox (download failed)')
    expect(view?.title).toMatch(/^x\.whl answered HTTP 404\nPrograms get plain Python rows\. Retry/)
  })

  it('says nothing while checking, once ready, before the first look, or when downloading is turned off', () => {
    expect(packageStatusView({ state: 'checking' })).toBeNull()
    expect(packageStatusView({ state: 'ready', packages: [], fetched: [] })).toBeNull()
    expect(packageStatusView({ state: 'idle' })).toBeNull()
    expect(packageStatusView({ state: 'off', missing: ['x.whl'] })).toBeNull()
  })
})

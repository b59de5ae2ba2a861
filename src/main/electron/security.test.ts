import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appRoot } from '../services/paths'
import { EXECUTOR_HEADERS } from '../services/python/assets'
import {
  allowNavigation,
  allowPermission,
  executorRequestAllowed,
  executorWindowPreferences,
  mainWindowPreferences,
  openExternally,
  trustedSender
} from './security'

const APP = 'file:///opt/tableqa/out/renderer/index.html'

describe('desktop security configuration', () => {
  it('isolates both windows: sandbox, context isolation, no Node anywhere, no webviews', () => {
    for (const prefs of [mainWindowPreferences('/p.cjs'), executorWindowPreferences('/e.cjs')]) {
      expect(prefs).toMatchObject({
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false
      })
    }
  })

  it('blocks navigation away from the app page and opens only https links externally', () => {
    expect(allowNavigation(APP, APP)).toBe(true)
    expect(allowNavigation('file:///etc/passwd', APP)).toBe(false)
    expect(allowNavigation('https://evil.example/', APP)).toBe(false)
    expect(allowNavigation('http://localhost:5173/', 'http://localhost:5173/')).toBe(true)
    expect(allowNavigation('http://localhost:5174/', 'http://localhost:5173/')).toBe(false)
    expect(allowNavigation('not a url', APP)).toBe(false)
    expect(openExternally('https://example.org/docs')).toBe(true)
    expect(openExternally('file:///etc/passwd')).toBe(false)
    expect(openExternally('javascript:alert(1)')).toBe(false)
  })

  it('answers IPC only from the app window showing the app page', () => {
    expect(trustedSender(3, 3, APP, APP)).toBe(true)
    expect(trustedSender(4, 3, APP, APP)).toBe(false)
    expect(trustedSender(3, 3, 'https://evil.example/', APP)).toBe(false)
  })

  it('denies every permission and lets the executor load only its own scheme', () => {
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation', 'openExternal', 'fullscreen'])
      expect(allowPermission(permission)).toBe(false)
    expect(executorRequestAllowed('tableqa-exec://app/executor.html', 'tableqa-exec')).toBe(true)
    expect(executorRequestAllowed('https://cdn.example/pyodide.js', 'tableqa-exec')).toBe(false)
    expect(executorRequestAllowed('tableqa-exec://other/x', 'tableqa-exec')).toBe(false)
  })

  it('serves the executor with cross-origin isolation and a policy without network or eval', () => {
    expect(EXECUTOR_HEADERS['cross-origin-opener-policy']).toBe('same-origin')
    expect(EXECUTOR_HEADERS['cross-origin-embedder-policy']).toBe('require-corp')
    const csp = EXECUTOR_HEADERS['content-security-policy'] ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).not.toContain("'unsafe-eval'")
    expect(csp).not.toMatch(/https?:/)
  })

  it('gives the UI page a strict Content-Security-Policy with no remote content', () => {
    const html = readFileSync(join(appRoot(), 'src', 'renderer', 'index.html'), 'utf8')
    const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? ''
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain("'unsafe-eval'")
    expect(csp).not.toMatch(/https?:/)
  })
})

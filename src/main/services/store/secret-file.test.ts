import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FileSecretStore, localKeyCipher } from './secret-file'

const KEY = 'sk-test-8f3a9c1d2e4b5a6978'

describe('file secret store', () => {
  it('keeps keys encrypted at rest, readable by the user only, and returns them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tableqa-secrets-'))
    const path = join(dir, 'secrets.json')
    const store = new FileSecretStore(path, localKeyCipher(dir))
    await store.set('endpoint:openai', KEY)
    expect(readFileSync(path, 'utf8')).not.toContain(KEY)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600)
    expect(await new FileSecretStore(path, localKeyCipher(dir)).get('endpoint:openai')).toBe(KEY)
    await store.delete('endpoint:openai')
    expect(await store.get('endpoint:openai')).toBeNull()
    expect(readdirSync(dir).sort()).toEqual(['secret.key', 'secrets.json'])
  })

  it('refuses to read values with the wrong key instead of returning garbage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tableqa-secrets-'))
    const other = mkdtempSync(join(tmpdir(), 'tableqa-secrets-'))
    const path = join(dir, 'secrets.json')
    await new FileSecretStore(path, localKeyCipher(dir)).set('a', KEY)
    await expect(new FileSecretStore(path, localKeyCipher(other)).get('a')).rejects.toThrow()
  })
})

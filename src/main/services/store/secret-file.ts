import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { SecretStore } from '../model/secrets'

/** Turns secret text into bytes at rest and back. */
export type Cipher = { name: string; encrypt(plain: string): Buffer; decrypt(data: Buffer): string }

type SecretFile = { version: 1; cipher: string; secrets: Record<string, string> }

/**
 * API keys in their own file (never in settings, history or exports), each value encrypted with the
 * given cipher and the file readable by the user only. Writes are atomic.
 */
export class FileSecretStore implements SecretStore {
  constructor(
    private readonly path: string,
    private readonly cipher: Cipher
  ) {}

  get(ref: string): Promise<string | null> {
    try {
      const stored = this.read().secrets[ref]
      return Promise.resolve(stored === undefined ? null : this.cipher.decrypt(Buffer.from(stored, 'base64')))
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)))
    }
  }

  set(ref: string, value: string): Promise<void> {
    const file = this.read()
    file.secrets[ref] = this.cipher.encrypt(value).toString('base64')
    this.write(file)
    return Promise.resolve()
  }

  delete(ref: string): Promise<void> {
    const file = this.read()
    if (ref in file.secrets) {
      delete file.secrets[ref]
      this.write(file)
    }
    return Promise.resolve()
  }

  private read(): SecretFile {
    if (!existsSync(this.path)) return { version: 1, cipher: this.cipher.name, secrets: {} }
    const file = JSON.parse(readFileSync(this.path, 'utf8')) as SecretFile
    if (file.cipher !== this.cipher.name)
      throw new Error(`The key file was written with ${file.cipher}, not ${this.cipher.name}; re-enter the API keys.`)
    return file
  }

  private write(file: SecretFile): void {
    mkdirSync(dirname(this.path), { recursive: true })
    const temp = `${this.path}.${process.pid}.tmp`
    writeFileSync(temp, JSON.stringify(file), { mode: 0o600 })
    renameSync(temp, this.path)
    chmodSync(this.path, 0o600)
  }
}

/**
 * Browser mode and the command line have no OS keychain: AES-256-GCM with a random key kept in
 * `secret.key` beside the store, readable by the user only. This keeps keys out of every other file;
 * against someone who can read the user's files it is no protection, which docs/SECURITY.md says.
 */
export function localKeyCipher(dataDir: string): Cipher {
  const keyPath = join(dataDir, 'secret.key')
  mkdirSync(dataDir, { recursive: true })
  if (!existsSync(keyPath)) writeFileSync(keyPath, randomBytes(32), { mode: 0o600 })
  const key = readFileSync(keyPath)
  return {
    name: 'aes-256-gcm-local-key',
    encrypt(plain) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), body])
    },
    decrypt(data) {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12))
      decipher.setAuthTag(data.subarray(12, 28))
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8')
    }
  }
}

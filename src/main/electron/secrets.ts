import { safeStorage } from 'electron'
import type { Cipher } from '../services/store/secret-file'

/** The OS keychain through Electron's safeStorage (Keychain, DPAPI, libsecret/kwallet); null where it is unavailable. */
export function safeStorageCipher(): Cipher | null {
  if (!safeStorage.isEncryptionAvailable()) return null
  return {
    name: `electron-safe-storage${process.platform === 'linux' ? `-${safeStorage.getSelectedStorageBackend()}` : ''}`,
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (data) => safeStorage.decryptString(data)
  }
}

/** Where API keys live. The client asks for a key by reference and never keeps, logs or returns it. */
export type SecretStore = {
  get(ref: string): Promise<string | null>
  set(ref: string, value: string): Promise<void>
  delete(ref: string): Promise<void>
}

/** A SecretStore in memory, for tests and for runs that must not persist keys. */
export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>()

  constructor(initial: Record<string, string> = {}) {
    for (const [ref, value] of Object.entries(initial)) this.values.set(ref, value)
  }

  get(ref: string): Promise<string | null> {
    return Promise.resolve(this.values.get(ref) ?? null)
  }

  set(ref: string, value: string): Promise<void> {
    this.values.set(ref, value)
    return Promise.resolve()
  }

  delete(ref: string): Promise<void> {
    this.values.delete(ref)
    return Promise.resolve()
  }
}

/** Removes every occurrence of the secrets from a text (servers sometimes echo the key in an error). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) {
    // Very short values would blank out ordinary words; real keys are long.
    if (secret.length >= 8) out = out.split(secret).join('[redacted]')
  }
  return out
}

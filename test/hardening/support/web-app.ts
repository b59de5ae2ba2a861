export type Probe = { ms: number; error: string | null }

/** Call `probe` every `everyMs` until `until` settles; returns each call's latency and error. */
export async function probeDuring(until: Promise<unknown>, probe: () => Promise<unknown>, everyMs = 200): Promise<Probe[]> {
  let settled = false
  void until.then(
    () => (settled = true),
    () => (settled = true)
  )
  const probes: Probe[] = []
  while (!settled) {
    const started = performance.now()
    let error: string | null = null
    try {
      await probe()
    } catch (e) {
      error = e instanceof Error ? `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ''}` : String(e)
    }
    probes.push({ ms: performance.now() - started, error })
    await new Promise((r) => setTimeout(r, everyMs))
  }
  return probes
}

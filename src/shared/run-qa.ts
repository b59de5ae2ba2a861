/**
 * Sub-questions (`qa(...)`) of the run in flight, relayed between its interpreter and the host: the
 * program's clock stops while the host answers, a call past the run's cap is refused without reaching
 * the host, and an answer is taken only for the call the run is waiting on.
 */

import type { PageToHost } from './executor-protocol'
import type { Result } from './result'
import type { RunClock } from './run-clock'
import type { Slot } from './run-slots'

/** The running program asked a sub-question: pass it to the host, or refuse it past the cap. */
export function relayQuestion(slot: Slot, run: RunClock, question: string, value: string | null, emit: (m: PageToHost) => void): void {
  if (run.stopping) return
  run.qaCalls += 1
  if (run.qaCalls > run.request.maxQaCalls) {
    slot.host.answerQa({
      ok: false,
      error: { code: 'bad-input', message: `This program made more than ${run.request.maxQaCalls} QA calls.` }
    })
    return
  }
  run.pause()
  run.qaPending = run.qaCalls
  emit({ type: 'qa', runId: run.request.runId, callId: run.qaCalls, question, value })
}

/** The host's answer to call `callId` of run `runId`, if that run still waits on that call. */
export function relayAnswer(slots: readonly Slot[], runId: string, callId: number, answer: Result<string>): void {
  const slot = slots.find((s) => s.run?.request.runId === runId)
  const run = slot?.run
  if (!slot || !run || run.qaPending !== callId) return
  run.qaPending = null
  slot.host.answerQa(answer)
  if (!run.stopping) run.resume()
}

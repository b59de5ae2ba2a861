import { useCallback, useEffect, useRef, useState } from 'react'
import type { AskOptions, AskProgress, AskSummary } from '../../../shared/ask'
import type { AppError } from '../../../shared/result'
import { errorFromCause } from '../common/failure'
import { useApi } from '../api/context'

/** What the panel needs to ask (again): the question, the tables and the endpoint. */
export type AskRequest = { question: string; tableIds: string[]; endpointId?: string; options?: AskOptions }

export type AskState =
  | { phase: 'idle' }
  | {
      phase: 'asking'
      askId: string
      request: AskRequest
      progress: Partial<Record<AskProgress['stage'], AskProgress>>
      last: AskProgress | null
      /** Candidates that have run so far, in the order they finished: shown before the answer is chosen. */
      early: NonNullable<AskProgress['candidate']>[]
      cancelling: boolean
    }
  | { phase: 'done'; summary: AskSummary; tableIds: string[] }
  | { phase: 'failed'; error: AppError; request: AskRequest }

export type AskController = {
  state: AskState
  ask: (request: AskRequest) => void
  cancel: () => void
  /** Show a question from history as if it had just been answered. */
  show: (summary: AskSummary, tableIds: string[]) => void
  reset: () => void
}

function newId(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `ask-${Date.now()}-${Math.random().toString(36).slice(2)}`
}

/** One question at a time: asks, follows its progress events, cancels. */
export function useAsk(): AskController {
  const api = useApi()
  const [state, setState] = useState<AskState>({ phase: 'idle' })
  const current = useRef<string | null>(null)

  useEffect(
    () =>
      api.on('question:progress', (event) => {
        if (event.askId !== current.current) return
        setState((s) =>
          s.phase === 'asking' && s.askId === event.askId
            ? {
                ...s,
                progress: { ...s.progress, [event.stage]: event },
                last: event,
                early: event.candidate === undefined ? s.early : [...s.early, event.candidate]
              }
            : s
        )
      }),
    [api]
  )

  const ask = useCallback(
    (request: AskRequest) => {
      const askId = newId()
      current.current = askId
      setState({ phase: 'asking', askId, request, progress: {}, last: null, early: [], cancelling: false })
      api
        .askQuestion({
          askId,
          question: request.question,
          tableIds: request.tableIds,
          ...(request.endpointId ? { endpointId: request.endpointId } : {}),
          ...(request.options ? { options: request.options } : {})
        })
        .then(
          (result) => {
            if (current.current !== askId) return
            current.current = null
            setState(
              result.ok
                ? { phase: 'done', summary: result.value, tableIds: request.tableIds }
                : { phase: 'failed', error: result.error, request }
            )
          },
          (cause: unknown) => {
            if (current.current !== askId) return
            current.current = null
            setState({ phase: 'failed', error: errorFromCause('Asking the question', cause), request })
          }
        )
    },
    [api]
  )

  const cancel = useCallback(() => {
    const askId = current.current
    if (askId === null) return
    setState((s) => (s.phase === 'asking' ? { ...s, cancelling: true } : s))
    void api.cancelQuestion({ askId }).catch(() => undefined)
  }, [api])

  const show = useCallback((summary: AskSummary, tableIds: string[]) => {
    current.current = null
    setState({ phase: 'done', summary, tableIds })
  }, [])

  const reset = useCallback(() => {
    current.current = null
    setState({ phase: 'idle' })
  }, [])

  return { state, ask, cancel, show, reset }
}

/** Answers to `qa(...)` calls from running programs: a model asked with the short QA prompt. */

import { ok } from '../../../shared/result'
import type { ModelClient } from '../model'
import type { PromptLibrary } from '../prompt'
import { qaPrompt } from '../prompt'
import type { QaHandler } from '../python/types'

/** A QA handler over `client`; `counted` is told of every call before it is answered. */
export function qaHandler(client: ModelClient, library: PromptLibrary, signal?: AbortSignal, counted?: () => void): QaHandler {
  return async (call) => {
    counted?.()
    const text = qaPrompt(library, call.question, call.value)
    const reply = await client.sample({
      ...(client.config.api === 'completions' ? { prompt: text } : { messages: [{ role: 'user' as const, content: text }] }),
      n: 1,
      temperature: 0,
      maxTokens: 48,
      stop: ['\n'],
      logprobs: false,
      ...(signal === undefined ? {} : { signal })
    })
    if (!reply.ok) return reply
    const line =
      (reply.value[0]?.text ?? '')
        .replace(/<think>[\s\S]*?<\/think>/gi, '')
        .split('\n')
        .map((l) => l.trim())
        .find((l) => l !== '') ?? ''
    return ok(
      line
        .replace(/^answer\s*:\s*/i, '')
        .replace(/^["'](.*)["']$/, '$1')
        .replace(/\.$/, '')
    )
  }
}

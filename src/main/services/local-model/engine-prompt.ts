/**
 * The tokens of a request's prompt, and how many of them are its fixed prefix (the instructions and
 * worked examples every question of a kind shares). Runs in the engine process.
 *
 * The prefix is found by laying out the fixed part on its own and keeping what it shares with the whole
 * prompt, less its last token: a tokeniser may merge the prefix's last characters with what follows
 * (and a chat template opens the next turn the same way whatever it holds), so the last shared token can
 * differ from one question to the next, while everything before it cannot. The prefix tokens are thus
 * the same for every question of a kind, which is what lets their state be kept and reused.
 */

import type { ChatHistoryItem, ChatWrapper, LlamaModel, Token } from 'node-llama-cpp'
import type { ChatMessage } from '../../../shared/model'
import type { EngineInput } from './engine-protocol'

export type PromptTokens = {
  tokens: Token[]
  /** Leading tokens that are the fixed prefix; 0 when the input marks none. */
  fixed: number
}

/** Where two token lists first differ. */
export function commonLength(a: readonly Token[], b: readonly Token[]): number {
  const end = Math.min(a.length, b.length)
  let i = 0
  while (i < end && a[i] === b[i]) i += 1
  return i
}

function textTokens(model: LlamaModel, text: string): Token[] {
  const tokens = model.tokenize(text, false)
  const bos = model.tokens.bos
  return model.tokens.shouldPrependBosToken && bos !== null ? [bos, ...tokens] : tokens
}

function chatTokens(model: LlamaModel, wrapper: ChatWrapper, messages: ChatMessage[], prefill = ''): Token[] {
  // The reply being written is the last, open model turn; a prefill is its start.
  const history: ChatHistoryItem[] = [...chatHistory(messages), { type: 'model', response: prefill === '' ? [] : [prefill] }]
  return wrapper.generateContextState({ chatHistory: history }).contextText.tokenize(model.tokenizer)
}

/** The prompt's tokens and its fixed prefix; throws when a chat prompt meets a model without a chat template. */
export function promptTokens(model: LlamaModel, wrapper: ChatWrapper | null, input: EngineInput): PromptTokens {
  const fixedPart = input.fixed ?? 0
  if (input.kind === 'text') {
    const tokens = textTokens(model, input.text)
    if (fixedPart <= 0) return { tokens, fixed: 0 }
    const alone = textTokens(model, input.text.slice(0, fixedPart))
    return { tokens, fixed: Math.max(0, commonLength(tokens, alone) - 1) }
  }
  if (wrapper === null) throw new Error('the model has no chat template; use it in completion mode')
  const tokens = chatTokens(model, wrapper, input.messages, input.prefill)
  if (fixedPart <= 0 || fixedPart >= input.messages.length) return { tokens, fixed: 0 }
  // The fixed messages followed by a stand-in turn: the template lays out everything before that turn's
  // text exactly as in the real prompt.
  const alone = chatTokens(model, wrapper, [...input.messages.slice(0, fixedPart), { role: 'user', content: '\u2026' }])
  return { tokens, fixed: Math.max(0, commonLength(tokens, alone) - 1) }
}

export function chatHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  return messages.map((m): ChatHistoryItem => {
    switch (m.role) {
      case 'system':
        return { type: 'system', text: m.content }
      case 'user':
        return { type: 'user', text: m.content }
      case 'assistant':
        return { type: 'model', response: [m.content] }
    }
  })
}

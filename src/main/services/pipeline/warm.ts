/**
 * Getting the built-in model ready for questions about tables that have just opened: the engine loads
 * its model and reads the fixed part of the prompt for their kind (instructions and worked examples) in
 * the background, so the first question reads only its table and itself. Any question asked meanwhile
 * goes first; the warm-up makes way and keeps what it read.
 */

import type { AskOptions } from '../../../shared/ask'
import type { EnginePrefixStats } from '../../../shared/model'
import type { Result } from '../../../shared/result'
import type { ParsedTable } from '../../../shared/table'
import type { ModelClient } from '../model'
import type { PromptLibrary } from '../prompt'
import { prepare } from './generate'

export async function warmFor(
  tables: { name: string; table: ParsedTable }[],
  client: ModelClient,
  options?: AskOptions,
  library?: PromptLibrary
): Promise<Result<EnginePrefixStats | null>> {
  // Any question with the same options lays out the same fixed part for these tables: it depends on their
  // kind and the options (mode, helper functions), never on the question.
  const prepared = await prepare(
    { tables, question: 'What does the table show?', ...(options === undefined ? {} : { options }) },
    { client, ...(library === undefined ? {} : { library }) }
  )
  if (!prepared.ok) return prepared
  const { prompt } = prepared.value
  return client.warm({ ...(prompt.text !== null ? { prompt: prompt.text } : { messages: prompt.messages ?? [] }), fixed: prompt.fixed })
}

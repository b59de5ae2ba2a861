/** Types of the code-model endpoints, shared by main (which calls them) and the UI (which configures them). */

/**
 * Which OpenAI-compatible API an endpoint speaks.
 * - `completions`: `/v1/completions`, a raw prompt continued (StarCoder-class models behind vLLM, TGI, llama.cpp).
 * - `chat`: `/v1/chat/completions`, a list of messages.
 * - `responses`: `/v1/responses`; accepts no `n` and usually gives no log-probabilities (reasoning and Codex models).
 */
export type ApiKind = 'completions' | 'chat' | 'responses'

/**
 * Where an endpoint's model runs.
 * - `openai`: an OpenAI-compatible HTTP server (hosted, or vLLM/TGI/llama.cpp/Ollama on a URL).
 * - `builtin`: "On this computer": a GGUF model run by the app's own llama.cpp engine process.
 */
export type EndpointKind = 'openai' | 'builtin'

/** Settings of the built-in endpoint. */
export type BuiltinSettings = {
  /**
   * The GGUF file to run. Null: the catalog's default model when it is in `<data folder>/models/`, else
   * the first GGUF file there.
   */
  modelFile: string | null
  /** Tokens the model sees at once (prompt and reply). Capped at what the model was trained for. */
  contextSize: number
  /** CPU threads generation uses; 0 means the number of physical cores. */
  threads: number
  /**
   * `auto`: the GPU when one is usable (Metal on Apple Silicon, CUDA or Vulkan), else the CPU; `cpu`: always
   * the CPU. Absent means `auto`.
   */
  gpu?: 'auto' | 'cpu'
}

/** One configured model endpoint. The API key itself is never part of it: only a reference into the secret store. */
export type EndpointConfig = {
  /** Stable id, used to refer to the endpoint from settings and history. */
  id: string
  /** Display name. */
  name: string
  /** Base URL of the API, usually ending in `/v1`, e.g. `http://127.0.0.1:8000/v1`. */
  baseUrl: string
  /** Model name as the server knows it. */
  model: string
  api: ApiKind
  /** Key of the API key in the secret store; absent for servers that need no key. */
  apiKeyRef?: string
  /**
   * Whether the server honours `n` (several samples per request). `false` samples by repeated requests.
   * Absent means "try": ask for `n` and top up with repeated requests when fewer come back.
   * Ignored for `responses`, which never accepts `n`.
   */
  supportsN?: boolean
  /** Time allowed for one HTTP request, including reading a streamed reply, ms. */
  timeoutMs: number
  /** Retries after a rate limit (429), a server error (5xx) or a dropped connection. */
  maxRetries: number
  /** Tokens the prompt may take; the prompt builder trims few-shot examples and table rows to fit. */
  promptTokenBudget: number
  /** Absent means `openai`. */
  kind?: EndpointKind
  /**
   * For `builtin` endpoints: the model file and engine settings. `api` is then `completions` for base
   * code models (the prompt continued as text) and `chat` for instruction-tuned ones (the model's chat
   * template); `baseUrl` names the model file.
   */
  builtin?: BuiltinSettings
}

/** A chat message as sent to `chat` and `responses` endpoints. */
export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string }

/** One sampled completion. */
export type Sample = {
  text: string
  /** Sum of the token log-probabilities; null when the endpoint gave none. */
  logprobSum: number | null
  /** Mean token log-probability; null when the endpoint gave none. */
  logprobMean: number | null
  /** Number of generated tokens when known. */
  tokens: number | null
  /** Why generation stopped (`stop`, `length`, ...), as the server said; null when it did not say. */
  finishReason: string | null
}

/** How the built-in engine came to hold a prompt's fixed part (instructions and worked examples). */
export type EnginePrefixStats = {
  tokens: number
  /**
   * `held`: the engine still held it; `disk`: read from its saved state; `evaluated`: read token by token
   * (and saved when a state folder is set); `partial`: a warm-up made way for a question before the end;
   * `none`: the prompt marks no fixed part.
   */
  source: 'held' | 'disk' | 'evaluated' | 'partial' | 'none'
  /** Time to read it from disk or to evaluate it, ms (0 when held). */
  ms: number
  /** Whether its state was saved for the next start. */
  saved: boolean
  /** Why a saved state was not used or not written (another engine, corrupt, disk full, …). */
  note?: string
}

/** One sample drawn by the built-in engine. */
export type EngineSampleStats = {
  tokens: number
  /** `stop`: a stop string (the closing fence) ended it; `length`: the token cap did; `end`: the model ended its reply. */
  finish: 'stop' | 'length' | 'end'
  /** From the start of sampling to this sample's last token, ms. */
  ms: number
}

/** Where the built-in engine's time went for one request. */
export type EngineRequestStats = {
  /** Where the model ran: 'cpu', or the GPU's backend ('metal', 'cuda', 'vulkan'). */
  backend: string
  /** Time the request waited for the model to load; null when it was loaded already. */
  loadMs: number | null
  promptTokens: number
  /** Prompt tokens evaluated: those the engine did not hold already (in memory or on disk). */
  promptEvaluatedTokens: number
  /** Time to make the engine hold the prompt (evaluating, reading the fixed part from disk, copying it to each sequence), ms. */
  promptMs: number
  prefix: EnginePrefixStats
  /** Samples decoded side by side. */
  sequences: number
  copyMs: number
  samples: EngineSampleStats[]
  generatedTokens: number
  generateMs: number
}

/** Progress of a sampling call: `done` of `total` samples have arrived. */
export type SampleProgress =
  | { kind: 'sample'; done: number; total: number }
  /** Text streamed so far for one sample (only when streaming). */
  | { kind: 'text'; index: number; chars: number }
  /** The built-in model is being loaded into memory (`fraction` from 0 to 1). */
  | { kind: 'load'; fraction: number }
  /** The built-in engine is busy with another question; this one waits its turn. */
  | { kind: 'queued'; ahead: number }
  /** The built-in engine reads the prompt: `done` of the `total` tokens it does not hold already. */
  | { kind: 'prompt'; done: number; total: number }

/**
 * How one candidate program is chosen among the samples.
 * - `logprob`: highest log-probability (the seed paper's rule); sum by default, mean as an option.
 * - `vote`: execution-guided; failing programs are dropped, the most frequent answer wins, ties go to
 *   the higher log-probability, then to the earlier sample.
 * - `greedy`: the first sample, as returned (meant for a single sample at temperature 0).
 */
export type SelectionMode = 'logprob' | 'vote' | 'greedy'

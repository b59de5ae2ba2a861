import { describe } from 'vitest'
import { testRuleExamples } from '../../../../../../test/support/rule-examples'

// Each rule of the stages on a few rows cut from a real table (test/fixtures/rule-examples.json).
describe('rules of stages header-rows, header-extent', () => {
  testRuleExamples(['header-rows', 'header-extent'])
})

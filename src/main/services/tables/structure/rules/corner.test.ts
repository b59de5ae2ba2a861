import { describe } from 'vitest'
import { testRuleExamples } from '../../../../../../test/support/rule-examples'

// Each rule of the stage on a few rows cut from a real or built table (test/fixtures/rule-examples.json).
describe('rules of stage corner', () => {
  testRuleExamples(['corner'])
})

import { describe, expect, it } from 'vitest'
import type { Result } from '../../../shared/result'
import { extractProgram } from './extract'

function code(result: Result<string>): string {
  if (!result.ok) throw new Error(`expected code, got ${result.error.code}: ${result.error.message}`)
  return result.value
}

describe('extractProgram', () => {
  it('takes a ```python block out of a chat reply with prose around it', () => {
    const reply = 'Sure! Here is the program:\n\n```python\nanswer = df["Total"].sum()\n```\n\nThis adds up the Total column.'
    expect(code(extractProgram(reply))).toBe('answer = df["Total"].sum()')
  })

  it('takes an unlabelled fence and dedents it', () => {
    const reply = 'Code:\n```\n    rows = df[df["Year"] > 2000]\n    answer = len(rows)\n```'
    expect(code(extractProgram(reply))).toBe('rows = df[df["Year"] > 2000]\nanswer = len(rows)')
  })

  it('prefers the block that assigns answer over a later example-output block', () => {
    const reply = [
      'First inspect the frame:',
      '```python',
      'df.head()',
      '```',
      'Then compute:',
      '```python',
      'answer = df.loc["Total", ("2019", "Q1")]',
      '```',
      'Which prints:',
      '```',
      '42',
      '```',
      'You can also look at:',
      '```python',
      'df.describe()',
      '```'
    ].join('\n')
    expect(code(extractProgram(reply))).toBe('answer = df.loc["Total", ("2019", "Q1")]')
  })

  it('falls back to a printing block, then to the last substantial one', () => {
    const printing = '```python\nx = 1\n```\n```python\nprint(df.shape[0])\n```\n```python\ny = 2\n```'
    expect(code(extractProgram(printing))).toBe('print(df.shape[0])')
    const plain = '```python\nx = 1\n```\nor\n```python\ncount = df["a"].nunique()\ncount\n```\n```python\n# nothing here\n```'
    expect(code(extractProgram(plain))).toBe('count = df["a"].nunique()\ncount')
  })

  it('keeps an earlier block defining a function the chosen block calls', () => {
    const reply = '```python\ndef parse(v):\n    return float(v.replace(",", ""))\n```\nNow:\n```python\nanswer = parse(df.iloc[0, 1])\n```'
    expect(code(extractProgram(reply))).toBe('def parse(v):\n    return float(v.replace(",", ""))\n\nanswer = parse(df.iloc[0, 1])')
  })

  it('ignores blocks in other languages', () => {
    const reply = '```sql\nSELECT 1\n```\n```bash\npip install pandas\n```'
    const result = extractProgram(reply)
    expect(!result.ok && result.error.code).toBe('model-no-code')
  })

  it('accepts a block cut off by the token limit', () => {
    expect(code(extractProgram('```python\nanswer = df["x"].max()\nanswer2 = df['))).toBe('answer = df["x"].max()\nanswer2 = df[')
  })

  it('finds unfenced code between prose lines', () => {
    const reply = 'The program is:\nimport pandas as pd\nanswer = df["Score"].mean()\n\nThis computes the average score.'
    expect(code(extractProgram(reply))).toBe('import pandas as pd\nanswer = df["Score"].mean()')
  })

  it('continues a completions prompt that ended in a code prefix and drops stray trailing text', () => {
    const prefix = 'df = tables[0]\n'
    const reply =
      'answer = df[df["Country"] == "France"]["Gold"].sum()\n```\n\nQuestion: which country won most?\n```python\nanswer = 1\n```'
    expect(code(extractProgram(reply, { codePrefix: prefix }))).toBe('df = tables[0]\nanswer = df[df["Country"] == "France"]["Gold"].sum()')
    const noFence = 'answer = len(df)\nQuestion: next one\nanswer = 3'
    expect(code(extractProgram(noFence, { codePrefix: prefix }))).toBe('df = tables[0]\nanswer = len(df)')
  })

  it('keeps an indented continuation of a code prefix', () => {
    const prefix = 'def solve(df):\n'
    expect(code(extractProgram('    return df["a"].max()\nanswer = solve(df)\n', { codePrefix: prefix }))).toBe(
      'def solve(df):\n    return df["a"].max()\nanswer = solve(df)'
    )
  })

  it('treats a chat-style fenced reply as such even when a code prefix was given', () => {
    expect(code(extractProgram('```python\nanswer = 7\n```', { codePrefix: 'import pandas as pd\n' }))).toBe('answer = 7')
  })

  it('drops <think> reasoning', () => {
    const reply = '<think>Maybe answer = 5? Let me check with print(df).</think>\n```python\nanswer = df["v"].min()\n```'
    expect(code(extractProgram(reply))).toBe('answer = df["v"].min()')
  })

  it('says clearly when there is no code', () => {
    const result = extractProgram('I cannot answer this question from the table.')
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('model-no-code')
    expect(result.error.message).toMatch(/without a Python program/)
    const empty = extractProgram('', { codePrefix: '' })
    expect(!empty.ok && empty.error.code).toBe('model-no-code')
  })

  it('does not take a prose sentence with parentheses for code', () => {
    const result = extractProgram('The total (all years) is in the last row.')
    expect(result.ok).toBe(false)
  })

  it('handles Windows line endings', () => {
    expect(code(extractProgram('```python\r\nanswer = 1\r\n```\r\n'))).toBe('answer = 1')
  })
})

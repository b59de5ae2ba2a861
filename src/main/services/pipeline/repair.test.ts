import type { AskAnswer } from '../../../shared/ask'
import { describe, expect, it } from 'vitest'
import { buildPrompt, loadPromptLibrary } from '../prompt'
import { asksForOneNumber } from './answer-fit'
import { failureNote, labelledValues, repairInRounds, repairNote, repairPrompt, sameProgram } from './repair'

describe('what calls for a repair', () => {
  it('a failed program, with its error cut short; an empty answer', () => {
    expect(repairNote('how many?', { failed: "KeyError: 'Sales'\n  in line 2" })).toBe("KeyError: 'Sales' in line 2")
    expect(repairNote('how many?', { failed: 'x'.repeat(1000) })?.length).toBe(600)
    expect(repairNote('how many?', { empty: true })).toMatch(/answer is empty/)
    expect(repairNote('how many?', { fine: true })).toBeNull()
    expect(repairNote('plot it', { failed: "ModuleNotFoundError: No module named 'matplotlib'" })).toMatch(
      /^ModuleNotFoundError.*draw a chart with chart\(/
    )
    expect(repairNote('plot it', { failed: 'ImportError: matplotlib is required for plotting' })).toMatch(/draw a chart with chart\(/)
    // The runtime already said which modules there are: only how to draw a chart is added, once.
    const noted = "ModuleNotFoundError: No module named 'matplotlib' (that module is not available here: use pandas (pd), numpy)"
    expect(repairNote('plot it', { failed: noted })).toBe(`${noted} Draw a chart with chart(data, kind=..., x=..., y=...) as the answer.`)
    const scipy = "ModuleNotFoundError: No module named 'scipy' (that module is not available here: use pandas (pd), numpy)"
    expect(repairNote('how many?', { failed: scipy })).toBe(scipy)
  })

  it('a table where one value was asked, but not where a list or a table was', () => {
    const table = { table: { rows: 4, cells: 8 } }
    expect(repairNote('How many people worked in 2019?', table)).toMatch(/table of 4 rows, but the question asks for one value/)
    expect(repairNote('which region had the most sales?', table)).not.toBeNull()
    expect(repairNote('List the sales by region', table)).toBeNull()
    expect(repairNote('Show the totals for each year', table)).toBeNull()
    expect(repairNote('how many people worked in 2019?', { table: { rows: 1, cells: 1 } })).toBeNull()
  })

  it('a column of values where one number was asked, but not where names were', () => {
    const column = { table: { rows: 8, cells: 8 } }
    expect(repairNote('how many percent of black male workers were employed in utilities?', column)).toMatch(
      /^The answer is 8 values, but the question asks for one number/
    )
    expect(repairNote('What was the total revenue in 2019?', { table: { rows: 1, cells: 4 } })).toMatch(/4 values/)
    expect(repairNote('which players played the same position as him?', column)).toBeNull()
    expect(repairNote('who won in 2019?', column)).toBeNull()
    expect(repairNote('how many medals did each country win?', column)).toBeNull()
    // In the app a list answer has items and no table; a Series has a one-column table.
    const listAnswer = { items: [1, 2, 3].map((value) => ({ value, type: 'number' as const })), text: '1, 2, 3', cells: [] }
    expect(failureNote('how many were employed?', { ok: true, answer: listAnswer })).toMatch(/3 values/)
    expect(failureNote('which ones were employed?', { ok: true, answer: listAnswer })).toBeNull()
    expect(failureNote('how many were employed?', { ok: true, answer: { ...listAnswer, items: listAnswer.items.slice(0, 1) } })).toBeNull()
  })

  it('values with labels where one number was asked: each value with its label, so the one asked for can be picked', () => {
    const labelled = [
      { label: ['black male workers', 'immigrant'], value: 9.9 },
      { label: ['black male workers', 'total'], value: 9.7 },
      { label: ['other male workers', 'total'], value: null }
    ]
    expect(
      repairNote('how many percent of black male workers were employed in utilities?', { table: { rows: 3, cells: 3, labelled } })
    ).toBe(
      'The answer is 3 values, but the question asks for one number. The values by label: ("black male workers", "immigrant") 9.9; ' +
        '("black male workers", "total") 9.7; ("other male workers", "total") missing. Select the one the question asks for by its row and column labels, or compute the number from them.'
    )
    // Only the first twelve are listed; the rest are counted.
    const many = Array.from({ length: 20 }, (_, k) => ({ label: [`y${k}`], value: k }))
    const note = repairNote('how many were there?', { table: { rows: 40, cells: 40, labelled: many } }) ?? ''
    expect(note).toContain('"y11" 11; and 28 more.')
    expect(note).not.toContain('"y12"')
    expect(repairNote('who won?', { table: { rows: 3, cells: 3, labelled } })).toBeNull()
  })

  it('values that are still cells of the table: the read that gives each alone, one per line, to copy', () => {
    const read = (col: string): string => `df.loc[("percent", "utilities"), ("black male workers", "${col}")]`
    const labelled = [
      { label: ['immigrant'], value: 9.9, read: read('immigrant') },
      { label: ['total'], value: 9.7, read: read('total') }
    ]
    expect(
      repairNote('how many percent of black male workers were employed in utilities?', { table: { rows: 2, cells: 2, labelled } })
    ).toBe(
      'The answer is 2 values, but the question asks for one number. Each value, and the read that gives it alone:\n' +
        `${read('immigrant')}  # 9.9\n${read('total')}  # 9.7\n` +
        'Read the one the question asks for, or compute the number from them.'
    )
    // Beyond the first twelve, a count; a value without its read falls back to the labels.
    const many = Array.from({ length: 14 }, (_, k) => ({ label: [`y${k}`], value: k, read: `df.loc["y${k}", "x"]` }))
    expect(repairNote('how many were there?', { table: { rows: 14, cells: 14, labelled: many } })).toContain(
      'df.loc["y11", "x"]  # 11\n… and 2 more\n'
    )
    const partly = [...labelled, { label: ['other'], value: 1 }]
    expect(repairNote('how many were there?', { table: { rows: 3, cells: 3, labelled: partly } })).toContain(
      'The values by label: "immigrant" 9.9;'
    )
    // The app's answer table carries them row by row.
    const series = { columns: [['value']], indexNames: [''], index: [['immigrant'], ['total']], rows: [[9.9], [9.7]], rowCount: 2 }
    expect(labelledValues({ ...series, reads: [read('immigrant'), read('total')] })).toEqual(labelled)
  })

  it("reads the labels of an app answer's table: a Series by its index, a one-row table by its columns", () => {
    const series = { columns: [['value']], indexNames: [''], index: [['north'], ['south']], rows: [[3], [5]], rowCount: 2 }
    expect(labelledValues(series)).toEqual([
      { label: ['north'], value: 3 },
      { label: ['south'], value: 5 }
    ])
    const row = {
      columns: [
        ['men', 'total'],
        ['women', 'total']
      ],
      indexNames: [],
      index: [],
      rows: [[4.5, null]],
      rowCount: 1
    }
    expect(labelledValues(row)).toEqual([
      { label: ['men', 'total'], value: 4.5 },
      { label: ['women', 'total'], value: null }
    ])
    // A plain column (its index only numbers the rows) and a table of several rows and columns have none.
    expect(labelledValues({ ...series, indexNames: [], index: [] })).toEqual([])
    expect(
      labelledValues({
        ...row,
        rows: [
          [1, 2],
          [3, 4]
        ],
        rowCount: 2
      })
    ).toEqual([])
    const answer = { items: [3, 5].map((value) => ({ value, type: 'number' as const })), text: '3, 5', cells: [], table: series }
    expect(failureNote('how many sales were there?', { ok: true, answer })).toContain('The values by label: "north" 3; "south" 5.')
  })

  it('an answer of zero or nothing from a condition that matched no row: the condition and what the cells hold', () => {
    const said = "df['Home Town'] == 'NC' matched no row; cells of 'Home Town' that contain it: 'Raleigh, NC'"
    const zero = { items: [{ value: 0, type: 'number' as const }], text: '0', cells: [], unmatched: [said] }
    expect(failureNote('how many players came from nc?', { ok: true, answer: zero })).toBe(
      `The answer is 0, because ${said}. If the question is about rows the table has, compare with the value as the cells write it (or with part of a cell), then compute the answer again.`
    )
    // An empty answer with the same conditions is told them in the words the bench uses.
    const empty = {
      ok: false as const,
      error: { code: 'no-answer' as const, message: `The program's answer is empty (list []). ${said}.` }
    }
    expect(failureNote('which players came from nc?', empty, [said])).toBe(
      repairNote('which players came from nc?', { unmatched: [said], answer: 'empty' })
    )
    expect(failureNote('which players came from nc?', empty, [said])).toMatch(
      /^The answer is empty, because df\['Home Town'\] == 'NC' matched no row;/
    )
    expect(failureNote('which players came from nc?', empty)).toMatch(/^The program's answer is empty \(None, NaN or nothing\)/)
    const { unmatched: _, ...plain } = zero
    expect(failureNote('how many players came from nc?', { ok: true, answer: plain })).toBeNull()
  })

  it('never a reply without a program, nor a cancelled run', () => {
    expect(failureNote('how many?', { ok: false, error: { code: 'model-no-code', message: 'no code' } })).toBeNull()
    expect(failureNote('how many?', { ok: false, error: { code: 'cancelled', message: 'cancelled' } })).toBeNull()
    expect(failureNote('how many?', { ok: false, error: { code: 'no-answer', message: 'empty (float nan)' } })).toMatch(/empty/)
    expect(failureNote('how many?', { ok: false, error: { code: 'python-error', message: 'NameError: x' } })).toBe('NameError: x')
  })
})

describe('a repair that repeats the program', () => {
  it('is the same program but for spacing at the ends of lines and blank lines', () => {
    expect(sameProgram('x = 1\n\nanswer = x  ', 'x = 1\nanswer = x')).toBe(true)
    expect(sameProgram('answer = df.loc["a", "b"]', 'answer = df.loc["a","b"]')).toBe(false)
    expect(sameProgram('if x:\n    y = 1', 'if x:\ny = 1')).toBe(false)
  })
})

describe('a question for one number', () => {
  it('is "how many …", "how much …", "what percentage …", "what was the total …", but not a list or a name', () => {
    expect(asksForOneNumber('how many percent of black male workers were employed in utilities?')).toBe(true)
    expect(asksForOneNumber('What percentage of firms grew?')).toBe(true)
    expect(asksForOneNumber('what was the total revenue in 2019?')).toBe(true)
    expect(asksForOneNumber('how many medals did each country win?')).toBe(false)
    expect(asksForOneNumber('which club did he sign with in 1973?')).toBe(false)
    expect(asksForOneNumber('list the years with a loss')).toBe(false)
  })
})

describe('rounds of repairs', () => {
  // A candidate is a number; one below 3 fails and is corrected by adding one.
  const asked: [number, number, number][] = []
  const fix = (c: number, k: number, round: number): Promise<number | null> => {
    asked.push([c, k, round])
    return Promise.resolve(c < 3 ? c + 1 : null)
  }

  it('asks again only for the corrections of the round before, up to the rounds given', async () => {
    asked.length = 0
    expect(await repairInRounds([1, 3, 2], 2, fix)).toEqual([3, 3, 3])
    expect(asked).toEqual([
      [1, 0, 1],
      [3, 1, 1],
      [2, 2, 1],
      [2, 0, 2],
      [3, 2, 2]
    ])
    asked.length = 0
    expect(await repairInRounds([0, 3], 1, fix)).toEqual([1, 3])
    expect(asked).toHaveLength(2)
    // A third round is asked only while something was replaced.
    asked.length = 0
    expect(await repairInRounds([0], 3, fix)).toEqual([3])
    expect(asked.map((a) => a[2])).toEqual([1, 2, 3])
  })

  it('stops between rounds when told to, and leaves the candidates given as they were', async () => {
    let rounds = 0
    const given = [1, 2]
    const out = await repairInRounds(given, 3, fix, () => rounds++ < 1)
    expect(out).toEqual([2, 3])
    expect(given).toEqual([1, 2])
  })
})

describe("a repair's prompt", () => {
  const loaded = loadPromptLibrary()
  if (!loaded.ok) throw new Error(loaded.error.message)
  // Programs begin with the columns comment here, whatever the shipped profile says.
  const library = {
    ...loaded.value,
    profiles: { ...loaded.value.profiles, compact: { ...loaded.value.profiles.compact, columnsInReply: true } }
  }
  const table = {
    columns: [['Team'], ['Wins']],
    index: [[], []],
    values: [
      ['A', '3'],
      ['B', '5']
    ]
  }
  const build = (form: 'chat' | 'completion') =>
    buildPrompt({
      library,
      kind: 'relational',
      mode: 'python',
      apis: 'full',
      tables: [{ name: 'df', title: 'wins', table }],
      question: 'which team won most?',
      form,
      tokenBudget: 6_000,
      profile: 'compact',
      prefillAllowed: true
    })

  it('continues the completion prompt with the failed program once, then opens the corrected one with the code every program starts with', () => {
    const prompt = build('completion')
    const start = prompt.codePrefix ?? ''
    expect(start).toBe("# columns of df: ['Team', 'Wins']\n")
    const program = `${start}answer = df["Win"].idxmax()`
    const repair = repairPrompt(prompt, library, program, "KeyError: 'Win'")
    const text = repair.prompt ?? ''
    expect(text.startsWith(prompt.text ?? '-')).toBe(true)
    expect(text.slice((prompt.text ?? '').length)).toBe(
      `answer = df["Win"].idxmax()\n\`\`\`\n\nThat program did not work: KeyError: 'Win'\nWrite a corrected program. Reply with one \`\`\`python block that assigns the answer to \`answer\`.\n\`\`\`python\n${start}`
    )
  })

  it("shows the chat model its whole program, and the reply is started as the question's was", () => {
    const prompt = build('chat')
    const program = `${prompt.codePrefix ?? ''}answer = df["Win"].idxmax()`
    const repair = repairPrompt(prompt, library, program, "KeyError: 'Win'")
    expect(repair.messages?.slice(0, -2)).toEqual(prompt.messages)
    expect(repair.messages?.at(-2)).toEqual({ role: 'assistant', content: `\`\`\`python\n${program}\n\`\`\`` })
    expect(prompt.prefill).toBe(`\`\`\`python\n${prompt.codePrefix ?? ''}`)
  })
})

describe('a repair for one value that does not fit the question', () => {
  it('asks again where "who" was answered with a number, and leaves a name alone', () => {
    const answer = (value: string | number): AskAnswer => ({
      items: [{ value, type: typeof value === 'number' ? 'number' : 'string' }],
      text: String(value),
      cells: []
    })
    expect(failureNote('who received the fewest votes?', { ok: true, answer: answer(2) })).toMatch(
      /^The answer is 2, but the question asks who: answer with the name in the row the question is about/
    )
    expect(failureNote('who received the fewest votes?', { ok: true, answer: answer('Karen Olsson') })).toBeNull()
    expect(failureNote('how many votes did she receive?', { ok: true, answer: answer(4874) })).toBeNull()
  })
})

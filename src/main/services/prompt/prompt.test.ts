import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appRoot } from '../paths'
import { apiDocPath, generateApiDoc, parseApiDoc } from './api-doc'
import { estimateTokens } from './budget'
import { apiCalls, buildPrompt, columnsComment, qaPrompt, shotProgram, systemText } from './build'
import type { ApiLevel, PromptKind, PromptLibrary, PromptMode, Shot } from './library'
import { PROMPT_KINDS, loadPromptLibrary, promptsDir } from './library'
import { QUESTION_FORMS, questionForm } from './question-form'
import { ok } from '../../../shared/result'
import { extractProgram } from '../pipeline/extract'
import { renderFrame } from './table-view'

function library(): PromptLibrary {
  const loaded = loadPromptLibrary()
  if (!loaded.ok) throw new Error(`${loaded.error.message} ${loaded.error.detail ?? ''}`)
  return loaded.value
}

/** Loads a copy of the prompt library with one JSON file edited (the copy is removed afterwards). */
function loadEdited(file: string, edit: (json: Record<string, unknown>) => void): ReturnType<typeof loadPromptLibrary> {
  const dir = mkdtempSync(join(tmpdir(), 'tableqa-prompts-'))
  try {
    cpSync(promptsDir(), dir, { recursive: true })
    const json = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>
    edit(json)
    writeFileSync(join(dir, file), JSON.stringify(json))
    return loadPromptLibrary(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const python3 = spawnSync('python3', ['--version']).status === 0
const pandas = python3 && spawnSync('python3', ['-c', 'import pandas']).status === 0

describe('prompt library', () => {
  it('states the provenance of every example file: invented tables, no dataset questions', () => {
    for (const kind of PROMPT_KINDS) {
      const { provenance } = library().kinds[kind].shots
      expect(provenance).toMatch(/invented/)
      expect(provenance).toMatch(/none is taken from/)
    }
  })

  it('renders every kind, mode, API level and form with the right examples and documentation', () => {
    const lib = library()
    const levels: ApiLevel[] = ['none', 'qa', 'full']
    const modes: PromptMode[] = ['python', 'sql']
    for (const kind of PROMPT_KINDS) {
      const first = lib.kinds[kind].shots.shots[0]
      if (first === undefined) throw new Error(`no shots for ${kind}`)
      for (const mode of modes) {
        for (const apis of levels) {
          for (const form of ['completion', 'chat'] as const) {
            const question = `what is the value for ${kind} ${mode} ${apis}?`
            const built = buildPrompt({
              library: lib,
              kind,
              mode,
              apis,
              form,
              question,
              tables: first.tables.map((t) => ({ name: t.name, title: t.title, table: t })),
              tokenBudget: 12_000
            })
            const where = `${kind}/${mode}/${apis}/${form}`
            expect(built.shots.length, where).toBe(lib.kinds[kind].count)
            const all = form === 'completion' ? (built.text ?? '') : (built.messages ?? []).map((m) => m.content).join('\n')
            expect(all, where).toContain(`Question: ${question}`)
            // Shown programs use only what this level offers.
            const codes = built.shots.map(
              (id) => shotProgram(lib.kinds[kind].shots.shots.find((s) => s.id === id) ?? first, mode, apis, lib.apiFunctions) ?? ''
            )
            const used = new Set(codes.flatMap((c) => apiCalls(c, lib.apiFunctions)))
            if (mode === 'sql') {
              expect(
                codes.every((c) => c.includes('sqldf(')),
                where
              ).toBe(true)
              used.delete('sqldf')
            }
            if (apis === 'none') expect([...used], where).toEqual([])
            if (apis === 'qa')
              expect(
                [...used].filter((f) => f !== 'qa'),
                where
              ).toEqual([])
            // Documentation follows the level: lookup only in full, qa in qa and full.
            expect(all.includes('lookup(df, row, col)'), where).toBe(apis === 'full')
            expect(all.includes('qa(question, values=None)'), where).toBe(apis !== 'none')
            if (form === 'completion') {
              expect(built.text?.endsWith('### Your question\n' + all.split('### Your question\n')[1]), where).toBe(true)
              expect(built.text?.endsWith('```python\n'), where).toBe(true)
              expect(built.codePrefix).toBe('')
            } else {
              const messages = built.messages ?? []
              expect(messages[0]?.role).toBe('system')
              expect(messages.length, where).toBe(2 + 2 * built.shots.length)
              expect(messages.at(-1)?.role).toBe('user')
              expect(
                messages
                  .filter((m) => m.role === 'assistant')
                  .every((m) => m.content.startsWith('```python\n') && m.content.endsWith('\n```'))
              ).toBe(true)
            }
          }
        }
      }
    }
  })

  it('mixes examples that call the helper functions with plain pandas ones in the full prompt', () => {
    const lib = library()
    for (const kind of PROMPT_KINDS) {
      const built = buildPrompt({
        library: lib,
        kind,
        mode: 'python',
        apis: 'full',
        form: 'chat',
        question: 'q?',
        tables: [],
        tokenBudget: 12_000
      })
      const codes = built.shots.map(
        (id) =>
          shotProgram(
            lib.kinds[kind].shots.shots.find((s) => s.id === id)!,
            'python',
            'full',
            lib.apiFunctions
          ) ?? ''
      )
      const withApi = codes.filter((c) => apiCalls(c, lib.apiFunctions).length > 0).length
      expect(withApi, kind).toBeGreaterThanOrEqual(2)
      expect(codes.length - withApi, kind).toBeGreaterThanOrEqual(1)
      expect(
        codes.some((c) => apiCalls(c, lib.apiFunctions).includes('qa')),
        kind
      ).toBe(true)
    }
  })

  it('uses five examples, and eight for airline report tables', () => {
    const lib = library()
    const counts = Object.fromEntries(PROMPT_KINDS.map((k) => [k, lib.kinds[k].count]))
    expect(counts).toEqual({ relational: 5, hierarchical: 5, airline: 8, 'multi-table': 5 })
  })

  it("tags every example with its question's form, as the question-form reader reads it", () => {
    for (const kind of PROMPT_KINDS)
      for (const shot of library().kinds[kind].shots.shots) expect(shot.form, shot.id).toBe(questionForm(shot.question))
  })

  it('refuses an example whose form is not one of the forms', () => {
    const loaded = loadEdited(join('shots', 'relational.json'), (set) => {
      const first = (set['shots'] as Record<string, unknown>[])[0]
      if (first === undefined) throw new Error('no relational shot')
      first['form'] = 'median'
    })
    expect(loaded.ok).toBe(false)
    if (!loaded.ok) expect(loaded.error.detail).toMatch(/relational shot 1\.form must be one of lookup, /)
  })

  it('shows the examples a profile names, in its order, and refuses names the set does not have', () => {
    const lib = library()
    const ids = lib.profiles.compact.shotIds.hierarchical ?? []
    expect(ids.length).toBeGreaterThan(0)
    const built = buildPrompt({
      library: lib,
      kind: 'hierarchical',
      mode: 'python',
      apis: 'full',
      form: 'chat',
      profile: 'compact',
      question: 'what is the total?',
      tables: [],
      tokenBudget: 12_000
    })
    expect(built.shots).toEqual(ids)
    // The paper profile keeps the first examples of the file.
    expect(lib.profiles.paper.shotIds).toEqual({})
    for (const wrong of [['hier-lookup', 'no-such-example'], [], ['hier-lookup', 'hier-lookup']]) {
      const loaded = loadEdited('manifest.json', (manifest) => {
        const profiles = manifest['profiles'] as Record<string, Record<string, Record<string, unknown>>>
        const compact = profiles['compact']
        if (compact?.['shots'] === undefined) throw new Error('no compact shots')
        compact['shots']['hierarchical'] = wrong
      })
      expect(loaded.ok, JSON.stringify(wrong)).toBe(false)
      if (!loaded.ok)
        expect(loaded.error.detail).toMatch(/profiles\.compact\.shots\.hierarchical must name different examples of the hierarchical set/)
    }
  })

  it('reads how many examples a profile chooses per question: none for paper, a whole number for compact', () => {
    const lib = library()
    expect(lib.profiles.paper.closeShots).toBe(0)
    expect(lib.profiles.compact.closeShots).toBe(0)
    const loaded = loadEdited('manifest.json', (manifest) => {
      const profiles = manifest['profiles'] as Record<string, Record<string, unknown>>
      if (profiles['compact'] !== undefined) profiles['compact']['closeShots'] = 2
    })
    expect(loaded.ok && loaded.value.profiles.compact.closeShots).toBe(2)
    for (const bad of [-1, 1.5, '1']) {
      const loaded = loadEdited('manifest.json', (manifest) => {
        const profiles = manifest['profiles'] as Record<string, Record<string, unknown>>
        if (profiles['compact'] !== undefined) profiles['compact']['closeShots'] = bad
      })
      expect(loaded.ok, String(bad)).toBe(false)
      if (!loaded.ok) expect(loaded.error.detail).toBe('profiles.compact.closeShots must be a whole number, 0 or more')
    }
  })

  it('reads the compact profile settings as measured (the program opening on, the text-column sentence off) and either way round', () => {
    const lib = library()
    expect(lib.profiles.compact.columnsInReply).toBe(true)
    expect(lib.profiles.compact.textColumns).toBeNull()
    const loaded = loadEdited('manifest.json', (manifest) => {
      const profiles = manifest['profiles'] as Record<string, Record<string, unknown>>
      if (profiles['compact'] !== undefined) {
        profiles['compact']['columnsInReply'] = false
        profiles['compact']['textColumns'] = 'instructions/text-columns.txt'
      }
    })
    if (!loaded.ok) throw new Error(loaded.error.detail ?? loaded.error.message)
    expect(loaded.value.profiles.compact.columnsInReply).toBe(false)
    expect(loaded.value.profiles.compact.textColumns).toMatch(/^A column listed under its table as a text column holds strings/)
    const system = systemText(loaded.value, 'relational', 'python', 'full', 'compact')
    expect(system).toContain(`them. ${loaded.value.profiles.compact.textColumns ?? '-'} Use pandas`)
    expect(systemText(lib, 'relational', 'python', 'full', 'compact')).toContain('them. Use pandas')
  })

  it('fills the QA prompt with and without a value', () => {
    const lib = library()
    const withValue = qaPrompt(lib, 'Which country is this city in?', 'Lyon')
    expect(withValue).toContain('Value: Lyon\nQuestion: Which country is this city in?\nAnswer:')
    expect(qaPrompt(lib, 'What year did the war end?', null)).not.toContain('Value:')
  })
})

describe('table view', () => {
  it('prints hierarchical headers sparsified, as pandas does', () => {
    const text = renderFrame(
      {
        columns: [
          ['2019', 'men'],
          ['2019', 'women'],
          ['2020', 'men']
        ],
        index: [
          ['employed', ''],
          ['employed', 'farm'],
          ['unemployed', '']
        ],
        values: [
          ['1,200', '900', '1,150'],
          ['30', '12', '28'],
          ['85', '70', '96']
        ]
      },
      [0, 1, 2]
    )
    expect(text.split('\n')).toEqual([
      '                  2019          2020',
      '                    men  women    men',
      'employed          1,200    900  1,150',
      '            farm     30     12     28',
      'unemployed           85     70     96',
      '',
      '[3 rows x 3 columns]'
    ])
  })

  it('numbers rows of a flat table and marks omitted rows', () => {
    const table = {
      columns: [['Name'], ['Score']],
      index: [],
      values: [
        ['Ann', '3'],
        ['Bo', '10'],
        ['Cy', '7'],
        ['Di', '1']
      ]
    }
    expect(renderFrame(table, [0, 3]).split('\n')).toEqual([
      '   Name  Score',
      '0   Ann      3',
      '... (2 rows omitted) ...',
      '3    Di      1',
      '',
      '[4 rows x 2 columns]'
    ])
  })
})

describe('token budget', () => {
  const big = {
    columns: [['Station'], ['Line'], ['Opened'], ['Riders per day']],
    index: [] as string[][],
    values: Array.from({ length: 800 }, (_, i) => [`Station ${i}`, `Line ${i % 7}`, String(1900 + (i % 120)), String(1000 + i * 13)])
  }
  big.values[417] = ['Quillmoor Junction', 'Line 3', '1931', '55,120']

  it('keeps the headers, the rows the question names, and the first and last rows', () => {
    const lib = library()
    const budget = 6_000
    const built = buildPrompt({
      library: lib,
      kind: 'relational',
      mode: 'python',
      apis: 'full',
      form: 'completion',
      question: 'When did Quillmoor Junction open?',
      tables: [{ name: 'df', title: 'Stations', table: big }],
      tokenBudget: budget
    })
    const text = built.text ?? ''
    expect(built.tokens).toBeLessThanOrEqual(budget)
    expect(estimateTokens(text)).toBe(built.tokens)
    const task = text.split('### Your question\n')[1] ?? ''
    expect(task).toContain('Riders per day')
    expect(task).toMatch(/^417 +Quillmoor Junction +Line 3 +1931 +55,120$/m)
    expect(task).toMatch(/^0 +Station 0 /m)
    expect(task).toMatch(/^799 +Station 799 /m)
    expect(task).toMatch(/\.\.\. \(\d+ rows omitted\) \.\.\./)
    expect(task).toContain('[800 rows x 4 columns]')
    const cut = built.tables[0]
    expect(cut?.rowsTotal).toBe(800)
    expect(cut?.rowsShown).toBeGreaterThan(3)
    expect(cut?.rowsShown).toBeLessThan(800)
    expect(built.notes.join(' ')).toMatch(/rows shown to fit the prompt budget/)
  })

  it('drops worked examples before it drops every row when the budget is tight', () => {
    const lib = library()
    const built = buildPrompt({
      library: lib,
      kind: 'relational',
      mode: 'python',
      apis: 'full',
      form: 'chat',
      question: 'Which line serves Quillmoor Junction?',
      tables: [{ name: 'df', title: 'Stations', table: big }],
      tokenBudget: 3_500
    })
    expect(built.shots.length).toBeGreaterThanOrEqual(1)
    expect(built.shots.length).toBeLessThan(5)
    expect(built.notes.join(' ')).toMatch(/worked examples were left out/)
    expect(built.messages?.at(-1)?.content).toContain('Quillmoor Junction')
  })

  it('shows a small table whole', () => {
    const lib = library()
    const small = {
      columns: [['a'], ['b']],
      index: [],
      values: [
        ['1', '2'],
        ['3', '4']
      ]
    }
    const built = buildPrompt({
      library: lib,
      kind: 'relational',
      mode: 'sql',
      apis: 'none',
      form: 'completion',
      question: 'sum of a?',
      tables: [{ name: 'df', title: '', table: small }],
      tokenBudget: 8_000
    })
    expect(built.tables).toEqual([{ name: 'df', rowsShown: 2, rowsTotal: 2 }])
    expect(built.text).not.toContain('omitted')
  })
})

describe('API documentation', () => {
  it.skipIf(!python3)('matches a fresh generation from the runtime library (needs python3)', () => {
    const fresh = generateApiDoc()
    if (!fresh.ok) throw new Error(fresh.error.message)
    expect(readFileSync(apiDocPath(), 'utf8')).toBe(fresh.value)
  })

  it('splits into one entry per function', () => {
    const { entries, preamble } = parseApiDoc(readFileSync(apiDocPath(), 'utf8'))
    expect(preamble).toMatch(/Header paths/)
    expect(entries.map((e) => e.name)).toEqual(expect.arrayContaining(['lookup', 'aggregate', 'qa', 'sqldf', 'to_number']))
  })
})

describe('worked examples', () => {
  it.skipIf(!pandas)('every solution runs on its table and gives its stated answer (python3 + pandas + tableqa)', () => {
    const files = ['relational', 'hierarchical', 'airline', 'multi-table'].map((k) =>
      join(appRoot(), 'resources', 'prompts', 'shots', `${k}.json`)
    )
    const run = spawnSync('python3', [join(appRoot(), 'test', 'e2e-pipeline', 'verify_shots.py'), ...files], {
      encoding: 'utf8',
      timeout: 120_000
    })
    expect(run.stderr).toBe('')
    const results = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { shot: string; variant: string; ok: boolean })
    const expected = PROMPT_KINDS.flatMap((k: PromptKind) =>
      library().kinds[k].shots.shots.flatMap((s) => (['python', 'plain', 'sql'] as const).filter((v) => s[v] !== undefined))
    )
    expect(results.length).toBe(expected.length)
    expect(results.filter((r) => !r.ok)).toEqual([])
  })
})

describe('the compact profile for small local models', () => {
  const lib = library()
  const tables = (kind: PromptKind, k: number) => {
    const shot = lib.kinds[kind].shots.shots[k]
    if (shot === undefined) throw new Error(`no shot ${k} for ${kind}`)
    return shot.tables.map((t) => ({ name: t.name, title: t.title, table: t }))
  }
  const build = (kind: PromptKind, k: number, question: string, extra: Partial<Parameters<typeof buildPrompt>[0]> = {}) =>
    buildPrompt({
      library: lib,
      kind,
      mode: 'python',
      apis: 'full',
      form: 'chat',
      question,
      tables: tables(kind, k),
      tokenBudget: 6_000,
      profile: 'compact',
      prefillAllowed: true,
      ...extra
    })

  it('has a fixed part that is the same whatever the table and the question, so an engine reads it once', () => {
    for (const kind of PROMPT_KINDS) {
      for (const form of ['chat', 'completion'] as const) {
        // Two questions of different forms on different tables: each may get its own example after the fixed part.
        const close = withCloseShots(lib, 1)
        const a = build(kind, 0, 'how many rows are there?', { form, library: close })
        const b = build(kind, 1, 'which one is the largest of them all, by far?', { form, library: close })
        expect([a.questionForm, b.questionForm]).toEqual(['count', 'superlative'])
        const where = `${kind}/${form}`
        if (form === 'chat') {
          expect(a.fixed, where).toBeGreaterThan(1)
          expect(a.messages?.slice(0, a.fixed), where).toEqual(b.messages?.slice(0, b.fixed))
          // The question's own part follows it: its examples, then its table and itself.
          expect(a.messages?.slice(a.fixed).map((m) => m.role)).toEqual([...a.closeShots.flatMap(() => ['user', 'assistant']), 'user'])
          expect(a.messages?.at(-1)?.content).toContain('how many rows are there?')
        } else {
          expect(a.fixed, where).toBeGreaterThan(100)
          expect(a.text?.slice(0, a.fixed), where).toBe(b.text?.slice(0, b.fixed))
          expect(a.text?.slice(a.fixed), where).toMatch(a.closeShots.length > 0 ? /^### Example \d+\n/ : /^### Your question\n/)
        }
      }
    }
  })

  it('keeps fewer examples, none calling qa(), and documents in one line each the functions they use, qa and chart', () => {
    const built = build('relational', 0, 'how many?')
    const fixed = built.shots.slice(0, built.shots.length - built.closeShots.length)
    expect(fixed).toHaveLength(lib.profiles.compact.shots.relational)
    const code = (id: string): string => lib.kinds.relational.shots.shots.find((s) => s.id === id)?.python.join('\n') ?? ''
    expect(built.shots.map(code).some((c) => apiCalls(c, lib.apiFunctions).includes('qa'))).toBe(false)
    const codes = fixed.map(code)
    const system = built.messages?.[0]?.content ?? ''
    for (const f of ['qa', 'chart', ...new Set(codes.flatMap((c) => apiCalls(c, lib.apiFunctions)))]) expect(system).toContain(`- ${f}(`)
    expect(system).not.toContain('Parameters:')
    expect(system.length).toBeLessThan(lib.apiDoc.length / 2)
    const paper = build('relational', 0, 'how many?', { profile: 'paper' })
    expect(paper.messages?.[0]?.content).toContain('Parameters:')
    expect(paper.shots).toHaveLength(lib.kinds.relational.count)
  })

  it('starts the reply with the code fence where the endpoint allows it, and stops at the closing one', () => {
    const built = build('hierarchical', 0, 'how many?')
    expect(built).toMatchObject({ prefill: '```python\n', stop: ['```'], codePrefix: '' })
    const hosted = build('hierarchical', 0, 'how many?', { prefillAllowed: false })
    expect(hosted).toMatchObject({ prefill: null, stop: [], codePrefix: null })
  })

  it('begins every program with the columns of each one-level table: in the examples and in the started reply', () => {
    const on = withCompact(lib, { columnsInReply: true })
    const built = build('relational', 0, 'which rider scored the most points?', { library: on })
    const task = tables('relational', 0)
    const comment = `# columns of df: [${task[0]?.table.columns.map((c) => `'${c[0] ?? ''}'`).join(', ')}]\n`
    expect(columnsComment(task)).toBe(comment)
    expect(built.prefill).toBe(`\`\`\`python\n${comment}`)
    expect(built.codePrefix).toBe(comment)
    // Each example's program names its own table's columns, as the header listing under it writes them.
    const exchanges = (built.messages ?? []).slice(1, built.fixed)
    for (let k = 0; k + 1 < exchanges.length; k += 2) {
      const listing = /Column headers of df: (\[.*\])/.exec(exchanges[k]?.content ?? '')?.[1]
      expect(listing).toBeDefined()
      expect(exchanges[k + 1]?.content.startsWith(`\`\`\`python\n# columns of df: ${listing ?? ''}\n`)).toBe(true)
    }
    // The completion form ends inside the open block, after the comment, and a continuation keeps it.
    const completion = build('relational', 0, 'which rider scored the most points?', { form: 'completion', library: on })
    expect(completion.text?.endsWith(`\`\`\`python\n${comment}`)).toBe(true)
    expect(extractProgram('answer = df["Points"].max()\n```', { codePrefix: comment })).toEqual(ok(`${comment}answer = df["Points"].max()`))
    expect(extractProgram('```', { codePrefix: comment })).toMatchObject({ ok: false, error: { code: 'model-no-code' } })
    // A table whose columns are header paths of several levels gets none (its tuples are listed under it).
    const deep = build('hierarchical', 0, 'how many?', { library: on })
    expect(columnsComment(tables('hierarchical', 0))).toBe('')
    expect(deep.prefill).toBe('```python\n')
    // Nor does a table with row headers, even where its columns have one level: the model would go on to
    // copy the row headers' listing into a comment of its own.
    const rowed = {
      name: 'df',
      title: 'spending by firm size',
      table: {
        columns: [['2014'], ['2015']],
        index: [['all firms'], ['small firms']],
        values: [
          ['9', '10'],
          ['2', '3']
        ]
      }
    }
    expect(columnsComment([rowed])).toBe('')
    const flat = { ...rowed, table: { ...rowed.table, index: [[''], ['']] } }
    expect(columnsComment([flat])).toBe("# columns of df: ['2014', '2015']\n")
    expect(build('hierarchical', 0, 'how much did small firms spend in 2015?', { library: on, tables: [rowed] }).prefill).toBe(
      '```python\n'
    )
    // Nor does the paper profile, the method as published.
    const paper = build('relational', 0, 'how many?', { profile: 'paper', form: 'completion', library: on })
    expect(paper.text).not.toContain('# columns of')
    expect(paper.codePrefix).toBe('')
    // Nor the compact profile with the setting off: the reply starts with the fence alone.
    const off = build('relational', 0, 'how many?', { library: withCompact(lib, { columnsInReply: false }) })
    expect(off).toMatchObject({ prefill: '```python\n', codePrefix: '' })
    expect(JSON.stringify(off.messages)).not.toContain('# columns of')
  })

  it('names the text columns under each table, and says in the instructions how to read numbers out of them', () => {
    const towers = {
      name: 'df',
      title: 'towers',
      table: {
        columns: [['Name'], ['Height'], ['Floors'], ['Opened']],
        index: [[], [], []],
        values: [
          ['North', '12.5 km', '40', '1,990'],
          ['South', '9 km', '—', '2001'],
          ['East', '?', '12', '2010']
        ]
      }
    }
    const on = withCompact(lib, { textColumns: 'A column listed under its table as a text column holds strings.' })
    const built = build('relational', 0, 'which tower is tallest?', { tables: [towers], library: on })
    const task = built.messages?.at(-1)?.content ?? ''
    expect(task).toContain("Column headers of df: ['Name', 'Height', 'Floors', 'Opened']\nText columns of df: ['Name', 'Height']\n")
    expect(built.messages?.[0]?.content).toMatch(/listed under its table as a text column holds strings/)
    // The examples show the line too, where their tables have text columns; a table of numbers has none.
    const examples = (built.messages ?? []).slice(1, built.fixed).filter((m) => m.role === 'user')
    expect(examples.some((m) => m.content.includes('Text columns of df: ['))).toBe(true)
    const numbers = {
      name: 'df',
      title: 'n',
      table: {
        columns: [['a'], ['b']],
        index: [[], []],
        values: [
          ['1', '2'],
          ['3', '']
        ]
      }
    }
    expect(build('relational', 0, 'how many?', { tables: [numbers], library: on }).messages?.at(-1)?.content).not.toContain('Text columns')
    // The paper profile, the method as published, has neither; the compact one with the setting off, no line.
    const paper = build('relational', 0, 'which tower is tallest?', { tables: [towers], profile: 'paper', library: on })
    expect(JSON.stringify(paper.messages)).not.toMatch(/Text columns|listed under its table as a text column/)
    const off = build('relational', 0, 'which tower is tallest?', { tables: [towers], library: withCompact(lib, { textColumns: null }) })
    expect(JSON.stringify(off.messages)).not.toMatch(/Text columns of|listed under its table/)
  })

  it('holds the tables to its own budget, below what the endpoint would allow', () => {
    const long = {
      name: 'df',
      title: 'long',
      columns: [['name'], ['value']],
      index: [],
      values: Array.from({ length: 2_000 }, (_, i) => [`item number ${i}`, String(i * 7)])
    }
    const built = buildPrompt({
      library: lib,
      kind: 'relational',
      mode: 'python',
      apis: 'full',
      form: 'chat',
      question: 'what is the value of item number 1500?',
      tables: [{ name: 'df', title: 'long', table: long }],
      tokenBudget: 30_000,
      profile: 'compact'
    })
    const cut = built.tables[0]
    expect(cut?.rowsShown).toBeLessThan(2_000)
    expect(estimateTokens(built.messages?.at(-1)?.content ?? '')).toBeLessThan((lib.profiles.compact.tableTokens ?? 0) + 300)
    // The rows the question names are among those kept.
    expect(built.messages?.at(-1)?.content).toContain('item number 1500')
  })
})

/** The library with the compact profile choosing `n` examples per question (off in the manifest as measured). */
/** The library with the compact profile's program opening and text-column line set as given. */
function withCompact(lib: PromptLibrary, set: { columnsInReply?: boolean; textColumns?: string | null }): PromptLibrary {
  return { ...lib, profiles: { ...lib.profiles, compact: { ...lib.profiles.compact, ...set } } }
}

function withCloseShots(lib: PromptLibrary, n: number): PromptLibrary {
  return { ...lib, profiles: { ...lib.profiles, compact: { ...lib.profiles.compact, closeShots: n } } }
}

describe('worked examples chosen for the question (closeShots)', () => {
  const lib = withCloseShots(library(), 1)
  const shotById = (kind: PromptKind, id: string): Shot => {
    const shot = lib.kinds[kind].shots.shots.find((s) => s.id === id)
    if (shot === undefined) throw new Error(`no shot ${id}`)
    return shot
  }
  // The compact profile begins programs with the columns of the example's tables.
  const opening = (shot: Shot): string =>
    lib.profiles.compact.columnsInReply ? columnsComment(shot.tables.map((t) => ({ name: t.name, table: t }))) : ''
  const build = (kind: PromptKind, question: string, extra: Partial<Parameters<typeof buildPrompt>[0]> = {}) => {
    const first = lib.kinds[kind].shots.shots[0]
    if (first === undefined) throw new Error(`no shots for ${kind}`)
    return buildPrompt({
      library: lib,
      kind,
      mode: 'python',
      apis: 'full',
      form: 'chat',
      question,
      tables: first.tables.map((t) => ({ name: t.name, title: t.title, table: t })),
      tokenBudget: 6_000,
      profile: 'compact',
      ...extra
    })
  }
  const ratioQuestion = 'what percentage of the votes went to the winners?'

  it('gives a ratio question a ratio example after the fixed ones, laid out like them (chat)', () => {
    for (const [kind, expected] of [
      ['relational', 'rel-variety-share'],
      ['hierarchical', 'hier-child-share']
    ] as const) {
      const built = build(kind, ratioQuestion)
      expect(built.questionForm).toBe('ratio')
      expect(built.closeShots).toEqual([expected])
      expect(built.shots).toHaveLength(lib.profiles.compact.shots[kind] + 1)
      expect(built.shots.at(-1)).toBe(expected)
      const shot = shotById(kind, expected)
      expect(shot.form).toBe('ratio')
      const messages = built.messages ?? []
      expect(messages).toHaveLength(2 + 2 * built.shots.length)
      expect(built.fixed).toBe(1 + 2 * lib.profiles.compact.shots[kind])
      expect(messages[built.fixed]?.role).toBe('user')
      expect(messages[built.fixed]?.content).toContain(`Question: ${shot.question}\n${lib.layout.chatAnswerNote}`)
      expect(messages[built.fixed + 1]).toEqual({
        role: 'assistant',
        content: `\`\`\`python\n${opening(shot)}${shot.python.join('\n')}\n\`\`\``
      })
      // The instructions (and the API functions they list) are those of any other question, and document
      // every function the chosen example calls.
      expect(messages[0]).toEqual(build(kind, 'what is the name of the river?').messages?.[0])
      for (const f of apiCalls(shot.python.join('\n'), lib.apiFunctions)) expect(messages[0]?.content, f).toContain(`- ${f}(`)
    }
  })

  it('gives a ratio question a ratio example after the fixed ones, laid out like them (completion)', () => {
    const built = build('relational', ratioQuestion, { form: 'completion' })
    const text = built.text ?? ''
    const shot = shotById('relational', 'rel-variety-share')
    const fixedCount = lib.profiles.compact.shots.relational
    expect(text.slice(0, built.fixed)).not.toContain(shot.question)
    const own = text.slice(built.fixed)
    expect(own.startsWith(`### Example ${fixedCount + 1}\n`)).toBe(true)
    expect(own).toContain(
      `Question: ${shot.question}\n\`\`\`python\n${opening(shot)}${shot.python.join('\n')}\n\`\`\`\n\n### Your question\n`
    )
    expect(text.match(/^### Example \d+$/gm)).toEqual(Array.from({ length: fixedCount + 1 }, (_, k) => `### Example ${k + 1}`))
    const first = lib.kinds.relational.shots.shots[0]
    expect(first).toBeDefined()
    if (first !== undefined) expect(text.endsWith(`Question: ${ratioQuestion}\n\`\`\`python\n${opening(first)}`)).toBe(true)
  })

  it('adds none when no example of the form is left beyond the fixed ones: after the fixed part, the prompt is as without the setting', () => {
    const without = withCloseShots(lib, 0)
    // The multi-table set has no difference example, and its only superlative one is fixed.
    for (const question of ['how many more books came out in 2019 than in 2016?', 'which author is the oldest?']) {
      for (const form of ['chat', 'completion'] as const) {
        const built = build('multi-table', question, { form })
        expect(built.closeShots, question).toEqual([])
        expect(built.shots).toHaveLength(lib.profiles.compact.shots['multi-table'])
        // The instructions differ only in documenting what the examples other questions get may call.
        const plain = build('multi-table', question, { form, library: without })
        if (form === 'chat') expect(built.messages?.slice(built.fixed)).toEqual(plain.messages?.slice(plain.fixed))
        else expect(built.text?.slice(built.fixed)).toBe(plain.text?.slice(plain.fixed))
        expect(built.shots).toEqual(plain.shots)
      }
    }
  })

  it('shows the example in the variant the mode and API level allow, as for the fixed ones', () => {
    const shot = shotById('relational', 'rel-variety-share')
    for (const [mode, apis] of [
      ['python', 'none'],
      ['python', 'qa'],
      ['sql', 'none'],
      ['sql', 'full']
    ] as const) {
      const built = build('relational', ratioQuestion, { mode, apis })
      expect(built.closeShots, `${mode}/${apis}`).toEqual([shot.id])
      const code = shotProgram(shot, mode, apis, lib.apiFunctions)
      expect(code).not.toBeNull()
      expect(built.messages?.[built.fixed + 1]?.content).toBe(`\`\`\`python\n${opening(shot)}${code ?? ''}\n\`\`\``)
    }
    expect(shotProgram(shot, 'python', 'none', lib.apiFunctions)).toBe(shot.plain?.join('\n'))
    expect(shotProgram(shot, 'sql', 'full', lib.apiFunctions)).toBe(shot.sql?.join('\n'))
  })

  it('leaves the example out when the budget is tight, never a fixed one for it', () => {
    const cut = build('relational', ratioQuestion, { tokenBudget: 1_200 })
    expect(cut.closeShots).toEqual([])
    expect(cut.notes.join(' ')).toMatch(/worked examples were left out/)
    // The tightest budget that keeps every fixed example: the chosen one no longer fits beside them.
    let budget = 1_200
    while (
      build('relational', ratioQuestion, { tokenBudget: budget }).shots.length < lib.profiles.compact.shots.relational &&
      budget < 6_000
    )
      budget += 25
    const tight = build('relational', ratioQuestion, { tokenBudget: budget })
    expect(tight.shots).toHaveLength(lib.profiles.compact.shots.relational)
    expect(tight.closeShots).toEqual([])
    expect(tight.notes.join(' ')).toMatch(/chosen for this ratio question \(rel-variety-share\) was left out/)
  })

  it('adds none in the paper profile, whatever the question', () => {
    for (const kind of PROMPT_KINDS)
      for (const question of [
        ratioQuestion,
        'how many rows are there?',
        'list the names.',
        'which is the largest?',
        'what is the total?'
      ]) {
        const built = build(kind, question, { profile: 'paper', tokenBudget: 12_000 })
        expect(built.closeShots).toEqual([])
        expect(built.shots).toHaveLength(lib.kinds[kind].count)
      }
  })

  it('has examples of every form beyond the fixed ones of both profiles, for relational and hierarchical tables', () => {
    for (const kind of ['relational', 'hierarchical'] as const) {
      const fixedOf = (built: ReturnType<typeof build>): string[] => built.shots.filter((id) => !built.closeShots.includes(id))
      const fixed = new Set([
        ...fixedOf(build(kind, 'q', { profile: 'paper', tokenBudget: 12_000 })),
        ...fixedOf(build(kind, 'q', { tokenBudget: 12_000 }))
      ])
      const rest = new Set(lib.kinds[kind].shots.shots.filter((s) => !fixed.has(s.id)).map((s) => s.form))
      expect([...rest].sort(), kind).toEqual([...QUESTION_FORMS].sort())
    }
  })
})

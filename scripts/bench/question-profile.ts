/**
 * Where a question's time goes: the question suite's small case, with the executor's runs timed from the
 * pipeline's side. Prints per question the prompt, model and run timeline. A tool, not a suite:
 * `npx tsx scripts/bench/question-profile.ts [questions] [big]`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { testExecutor } from '../../test/support/executor'
import { startScriptedServer } from '../../test/support/scripted-openai-server'
import { MemorySecretStore, ModelClient } from '../../src/main/services/model'
import { datasetsDir } from '../../src/main/services/paths'
import { ENDPOINT_DEFAULTS } from '../../src/main/services/settings/endpoints'
import { ask } from '../../src/main/services/pipeline/ask'
import { encodeTable, type RunRequest } from '../../src/main/services/python/types'
import { importFile } from '../../src/main/services/tables/import'
import { structureGrid } from '../../src/main/services/tables/structure'
import { PROGRAMS } from './question'

async function main(): Promise<void> {
  const questions = Number(process.argv[2] ?? 8)
  const big = process.argv[3] === 'big'
  const server = await startScriptedServer({
    rules: [{ reply: { choices: PROGRAMS.map((code, i) => ({ text: '```python\n' + code + '\n```', logprobs: [-0.1 * (i + 1)] })) } }]
  })
  const client = new ModelClient(
    { id: 'b', name: 's', baseUrl: server.url, model: 'test-model', api: 'chat', ...ENDPOINT_DEFAULTS },
    { secrets: new MemorySecretStore() }
  )
  const executor = testExecutor({ poolSize: 2 }, 30_000)
  await executor.start()
  let bytes: Uint8Array
  let name: string
  if (big) {
    const lines = ['region,year,amount,count']
    for (let i = 0; i < 200_000; i++) lines.push(`region ${i % 97},${2000 + (i % 20)},${(i * 7.31) % 1000},${i % 13}`)
    bytes = new TextEncoder().encode(lines.join('\n'))
    name = 'big.csv'
  } else {
    bytes = new Uint8Array(readFileSync(join(datasetsDir(), 'hitab', 'data', 'tables', 'raw', '1004.json')))
    name = '1004.json'
  }
  const grids = await importFile(name, bytes)
  if (!grids.ok || !grids.value[0]) throw new Error('import')
  const table = structureGrid(grids.value[0])
  await executor.loadTable('t', encodeTable(table))
  const origRun = executor.run.bind(executor)
  let t0 = 0
  const marks: string[] = []
  executor.run = async (req: RunRequest) => {
    const s = performance.now() - t0
    const out = await origRun(req)
    marks.push(`${req.runId.slice(-2)} ${s.toFixed(0)}→${(performance.now() - t0).toFixed(0)}`)
    return out
  }
  for (let k = 0; k < questions + 2; k++) {
    await executor.whenWarm()
    marks.length = 0
    t0 = performance.now()
    const r = await ask(
      { tables: [{ name: 't', table, tableId: 't' }], question: `how many rows? (${k})`, options: { n: 5 } },
      { client, executor }
    )
    const wall = performance.now() - t0
    if (!r.ok) throw new Error(r.error.message)
    const t = r.value.timings
    console.log(
      `q${k} wall ${wall.toFixed(0)} prompt ${t.promptMs} gen ${t.generateMs} exec ${t.executeMs} overhead ${(wall - t.generateMs).toFixed(0)} | ${marks.join(' ')}`
    )
  }
  await executor.close()
  await server.close()
}
void main()

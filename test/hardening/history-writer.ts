/**
 * Child-process entry for the kill simulation: append history entries through `History.add` over the
 * file store as fast as it can, writing each id to stdout (synchronously) only after `add` returned.
 * Usage: node history-writer.mjs DATA_DIR TAG
 */
import { writeSync } from 'node:fs'
import type { RunRecord } from '../../src/shared/python'
import { History } from '../../src/main/services/history'
import { openFileStore } from '../../src/main/services/store/store'

const [dir, tag] = process.argv.slice(2)
if (dir === undefined || tag === undefined) throw new Error('usage: history-writer DATA_DIR TAG')
const opened = openFileStore(dir, 'history')
if (opened.recovered !== null) {
  writeSync(2, `store was corrupt: ${opened.recovered.reason}\n`)
  process.exit(3)
}
const history = new History(opened.store)
const padding = 'x'.repeat(600)
for (let i = 0; ; i++) {
  const id = `${tag}-${i}`
  const record: RunRecord = {
    id,
    code: `answer = ${i}  # ${padding}`,
    tableName: 'kill.csv',
    startedAt: new Date().toISOString(),
    result:
      i % 3 === 0
        ? { ok: false, error: { code: 'python-error', message: 'boom', stdout: '', stderr: padding } }
        : {
            ok: true,
            value: {
              stdout: padding,
              stderr: '',
              value: { repr: String(i), json: i, type: 'int' },
              truncated: false,
              durationMs: 1,
              tableKind: 'rows'
            }
          }
  }
  history.add(record)
  writeSync(1, `${id}\n`)
}

/** Rewrites one session as fast as it can, printing a dot per write, until it is killed (store.test.ts). */
import { SessionStore } from '../../src/main/services/sessions/store'
import { runRecord } from './session-fixtures'

const store = new SessionStore(process.argv[2] ?? '.')
const id = store.current().id
const runs = Array.from({ length: 2_000 }, (_, i) => ({ ...runRecord(`print(${i})`, String(i)), id: `run-${i}` }))
for (let version = 0; ; version += 1) {
  store.update(id, (r) => ({ ...r, name: `Version ${version}`, runs }))
  process.stdout.write('.')
}

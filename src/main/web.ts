/**
 * Browser mode: `npm run web` serves the UI on 127.0.0.1 and prints the URL with its access token.
 * Python runs in headless Chromium (the same sandboxed executor page the desktop app uses).
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { composeServices } from './app/compose'
import { createHandlers } from './app/handlers'
import { appRoot, defaultDataDir } from './services/paths'
import { ExecutorAssets } from './services/python/assets'
import { chromiumChannelFactory, findChromium } from './services/python/chromium-channel'
import { packageDirs } from './services/python/package-source'
import { openFileStore } from './services/store/store'
import { FileSecretStore, localKeyCipher } from './services/store/secret-file'
import { MAX_FILE_BYTES } from './services/workspace'
import { startWebServer } from './web/server'

function openSettings(dataDir: string): ReturnType<typeof openFileStore>['store'] {
  const settings = openFileStore(dataDir, 'settings')
  if (settings.recovered)
    console.warn(`Settings file was unreadable (${settings.recovered.reason}); it was moved to ${settings.recovered.backup}.`)
  return settings.store
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: process.env.TABLEQA_PORT ?? '5199' }, 'data-dir': { type: 'string' } }
  })
  const dataDir = values['data-dir'] ?? defaultDataDir()
  const chromiumPath = findChromium()
  if (!chromiumPath) {
    console.error(
      'Browser mode runs Python in a headless Chromium and none was found. Install one (Debian: apt-get install chromium) or set TABLEQA_CHROMIUM to its path.'
    )
    process.exit(1)
  }
  const assets = new ExecutorAssets({ packageDirs: packageDirs(dataDir) })
  if (!assets.built()) {
    console.error('The app is not built: run `npm run web` (it builds first) or `npm run build`.')
    process.exit(1)
  }
  const history = openFileStore(dataDir, 'history')
  if (history.recovered) {
    console.warn(
      `History file was unreadable (${history.recovered.reason}); it was moved to ${history.recovered.backup} and a new one started.`
    )
  }
  const services = composeServices({
    mode: 'web',
    dataDir,
    historyStore: history.store,
    settingsStore: openSettings(dataDir),
    secrets: new FileSecretStore(join(dataDir, 'secrets.json'), localKeyCipher(dataDir)),
    channelFactory: chromiumChannelFactory(assets, chromiumPath),
    openDialog: null
  })
  const { url, server } = await startWebServer({
    handlers: createHandlers(services),
    events: services.events,
    rendererDir: join(appRoot(), 'out', 'renderer'),
    token: randomBytes(24).toString('base64url'),
    port: Number(values.port),
    maxBodyBytes: MAX_FILE_BYTES + 1024 * 1024
  })
  services.executor.start().catch((error: unknown) => console.error(`Python could not start: ${String(error)}`))
  // First start: fetch pandas for the sandbox (in the background; programs get plain rows meanwhile).
  void services.packages.ensure().then((state) => {
    if (state.state === 'failed') console.warn(`${state.message}\nPrograms get plain Python rows; retry from Settings › Pyodide packages.`)
    if (state.state === 'off') {
      console.warn(`pandas files missing (${state.missing.join(', ')}) and downloading is turned off: programs get plain Python rows.`)
    }
  })
  console.log(`TableQA Studio (browser mode) is running at:\n\n  ${url}\n\nData and history: ${dataDir}\nPress Ctrl+C to stop.`)
  const shutdown = (): void => {
    server.close()
    services.packages.close()
    void Promise.all([services.executor.close(), services.builtin.close()]).finally(() => process.exit(0))
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}

main().catch((error: unknown) => {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error('That port is already in use (another TableQA Studio?). Choose another with `npm run web -- --port N`.')
  } else {
    console.error(error)
  }
  process.exit(1)
})

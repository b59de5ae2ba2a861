/** The desktop app's entry: the only place (with ipc.ts and src/main/electron) that knows about Electron. */
import { app, BrowserWindow, dialog, session, shell } from 'electron'
import { readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import Store from 'electron-store'
import { composeServices } from './app/compose'
import { createHandlers, type OpenDialog } from './app/handlers'
import { electronChannelFactory, registerExecutorScheme } from './electron/executor-window'
import { utilityEngineSpawner } from './electron/engine-process'
import { allowNavigation, allowPermission, mainWindowPreferences, openExternally, trustedSender } from './electron/security'
import { pathToFileURL } from 'node:url'
import { registerIpc, trustedContents } from './ipc'
import { ExecutorAssets } from './services/python/assets'
import { packageDirs } from './services/python/package-source'
import { quarantineIfCorrupt, type KeyValueStore } from './services/store/store'
import { FileSecretStore, localKeyCipher } from './services/store/secret-file'
import { safeStorageCipher } from './electron/secrets'
import { fail, ok } from '../shared/result'

registerExecutorScheme()

const rendererUrl = process.env.ELECTRON_RENDERER_URL
const rendererDir = join(import.meta.dirname, '../renderer')
const preloadDir = join(import.meta.dirname, '../preload')

function openStore(dataDir: string, name: 'history' | 'settings'): KeyValueStore {
  const recovered = quarantineIfCorrupt(join(dataDir, `${name}.json`), dataDir, name)
  if (recovered) {
    void dialog.showMessageBox({
      type: 'warning',
      message: `Your ${name} file could not be read.`,
      detail: `It was moved to ${recovered.backup} (${recovered.reason}) and a new one was started.`
    })
  }
  const store = new Store<Record<string, unknown>>({ name, cwd: dataDir, clearInvalidConfig: false })
  return { path: store.path, get: <T>(key: string) => store.get(key) as T | undefined, set: (key, value) => store.set(key, value) }
}

const openDialog: OpenDialog = async () => {
  const window = BrowserWindow.getFocusedWindow()
  const options = {
    properties: ['openFile' as const],
    filters: [{ name: 'Tables', extensions: ['csv', 'tsv', 'txt', 'xlsx', 'xls', 'ods', 'html', 'htm', 'json', 'sqlite', 'db'] }]
  }
  const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options)
  const path = picked.filePaths[0]
  if (picked.canceled || !path) return ok(null)
  try {
    return ok({ name: basename(path), bytes: new Uint8Array(await readFile(path)) })
  } catch (error) {
    return fail('io-error', `Could not read ${basename(path)}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

const pickModelFile = async (): Promise<string | null> => {
  const window = BrowserWindow.getFocusedWindow()
  const options = { properties: ['openFile' as const], filters: [{ name: 'GGUF models', extensions: ['gguf'] }] }
  const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options)
  return picked.canceled ? null : (picked.filePaths[0] ?? null)
}

async function createWindow(): Promise<void> {
  const dataDir = app.getPath('userData')
  const services = composeServices({
    mode: 'electron',
    dataDir,
    historyStore: openStore(dataDir, 'history'),
    settingsStore: openStore(dataDir, 'settings'),
    secrets: new FileSecretStore(join(dataDir, 'secrets.json'), safeStorageCipher() ?? localKeyCipher(dataDir)),
    channelFactory: electronChannelFactory(new ExecutorAssets({ packageDirs: packageDirs(dataDir) }), preloadDir),
    openDialog,
    spawnEngine: utilityEngineSpawner(import.meta.dirname),
    pickModelFile
  })
  const window = new BrowserWindow({
    width: 1400,
    height: 900,
    show: false,
    title: 'TableQA Studio',
    webPreferences: mainWindowPreferences(join(preloadDir, 'index.cjs'))
  })
  trustedContents.add(window.webContents)
  const appUrl = rendererUrl ?? pathToFileURL(join(rendererDir, 'index.html')).href
  registerIpc(createHandlers(services), services.events, (sender, frameUrl) =>
    trustedSender(sender.id, window.webContents.id, frameUrl, appUrl)
  )
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (openExternally(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event, url) => {
    if (!allowNavigation(url, appUrl)) event.preventDefault()
  })
  window.webContents.on('will-redirect', (event, url) => {
    if (!allowNavigation(url, appUrl)) event.preventDefault()
  })
  window.once('ready-to-show', () => window.show())
  window.on('closed', () => {
    trustedContents.delete(window.webContents)
    services.packages.close()
    void services.executor.close()
    void services.builtin.close()
  })
  services.executor.start().catch(() => {})
  void services.packages.ensure()
  if (rendererUrl) await window.loadURL(rendererUrl)
  else await window.loadFile(join(rendererDir, 'index.html'))
}

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault())
})

void app.whenReady().then(async () => {
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(allowPermission(permission)))
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => allowPermission(permission))
  await createWindow()
})

app.on('window-all-closed', () => app.quit())

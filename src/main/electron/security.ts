/**
 * The desktop app's security settings as plain data, so they can be unit-tested without Electron's
 * binary. src/main/index.ts and executor-window.ts apply exactly these.
 */

/** What both windows share: a sandboxed renderer, isolated context, no Node anywhere, no webviews. */
const ISOLATED = {
  sandbox: true,
  contextIsolation: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false
} as const

/** Web preferences of the UI window. */
export function mainWindowPreferences(preload: string) {
  return { ...ISOLATED, preload, spellcheck: false } as const
}

/** Web preferences of the hidden executor window (its session is passed separately). */
export function executorWindowPreferences(preload: string) {
  return { ...ISOLATED, preload, backgroundThrottling: false } as const
}

/** The UI may only ever show its own page: every navigation away is refused. */
export function allowNavigation(url: string, appUrl: string): boolean {
  try {
    const target = new URL(url)
    const app = new URL(appUrl)
    return target.protocol === app.protocol && target.host === app.host && target.pathname === app.pathname
  } catch {
    return false
  }
}

/** Links the user clicks open in the system browser, and only https ones. */
export function openExternally(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:'
  } catch {
    return false
  }
}

/** IPC is answered only for the app's own top-level page in the app's own window. */
export function trustedSender(senderId: number, windowId: number, frameUrl: string, appUrl: string): boolean {
  return senderId === windowId && allowNavigation(frameUrl, appUrl)
}

/** Every permission (camera, notifications, clipboard, geolocation, …) is refused, in both sessions. */
export function allowPermission(_permission: string): boolean {
  return false
}

/** The executor session may load only its own scheme. */
export function executorRequestAllowed(url: string, scheme: string): boolean {
  return url.startsWith(`${scheme}://app/`)
}

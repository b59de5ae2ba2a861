/** How shortcuts are written on this machine: ⌘ on macOS, Ctrl elsewhere. */
export const isMac = navigator.userAgent.includes('Mac')

export function shortcut(key: string): string {
  return isMac ? `⌘${key}` : `Ctrl+${key}`
}

import { formatBytes, type DownloadProgress, type PackagesState } from '../../../shared/packages'
import { assertNever } from '../../../shared/result'

/** What the status bar shows about the sandbox's package files: a line, a bar for a download, and whether it is a problem. */
export type PackageStatusView = { text: string; title: string; bar: { value: number; max: number } | null; problem: boolean }

/** "numpy (2 of 5): 1.2 of 4.0 MB" */
export function downloadText(progress: DownloadProgress): string {
  const size =
    progress.fileBytes === null ? formatBytes(progress.bytes) : `${formatBytes(progress.bytes)} of ${formatBytes(progress.fileBytes)}`
  return `${progress.package} (${progress.index + 1} of ${progress.count}): ${size}`
}

/** Steps of a whole round for the bar: each file counts the same, and moves with its bytes. */
const STEPS_PER_FILE = 100

/** The status bar's view of the package state, or null when there is nothing to say (checked and present, or not looked at yet). */
export function packageStatusView(state: PackagesState): PackageStatusView | null {
  switch (state.state) {
    case 'idle':
    case 'checking':
    case 'ready':
    case 'off':
      // Turned off by the user: the Python status already says there is no pandas.
      return null
    case 'downloading': {
      const { progress } = state
      const fraction = progress.fileBytes && progress.fileBytes > 0 ? Math.min(1, progress.bytes / progress.fileBytes) : 0
      const text = `Downloading pandas for the sandbox: ${downloadText(progress)}`
      return {
        text,
        title: `${text}, from ${state.from}. The app stays usable; programs get plain Python rows until it is done.`,
        bar: { value: Math.round((progress.index + fraction) * STEPS_PER_FILE), max: Math.max(1, progress.count) * STEPS_PER_FILE },
        problem: false
      }
    }
    case 'failed':
      return {
        text: 'pandas not available in the sandbox (download failed)',
        title: `${state.message}\nPrograms get plain Python rows. Retry here or in Settings › Pyodide packages; the app also tries again at its next start.`,
        bar: null,
        problem: true
      }
    default:
      return assertNever(state)
  }
}
